#!/usr/bin/env bats
# File names: escaping in output lines, quoting in diagnostics.
load '../helpers'

# Charsets where the second byte of a character can be the ASCII code of a
# shell special character: gnulib quotes a name holding one whose second
# byte is [ \ ^ ` or |, for shells that read that byte as itself.  They are
# compiled into a private LOCPATH as in translations.bats, once per build
# directory (tests/run/mklocales.sh); on a big-endian target under qemu ours
# reads big-endian copies (OURS_LOCPATH, given to qemu by tests/run/check.sh;
# OURS_LOCALEDEF is --big-endian).  Shift_JIS goes by its charmap's name:
# glibc would look for a locale named ja_JP.SJIS in a directory of that name.
MB_LOCALES="zh_TW.BIG5 zh_CN.GBK zh_CN.GB18030 ja_JP.SHIFT_JIS"

# The other tests use the system's locales: LOCPATH is set by those that
# use MB_LOCALES, and a locale that cannot be built skips them, not the file.
setup_file() {
    local mk=$BATS_TEST_DIRNAME/../run/mklocales.sh bin=${MD5SUM:?} l
    case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
    MB_LOCPATH=${bin%/*}/locale-host
    mkdir -p "$MB_LOCPATH" 2>/dev/null && [ -w "$MB_LOCPATH" ] || MB_LOCPATH=$BATS_FILE_TMPDIR/locale
    MB_BUILT=
    for l in $MB_LOCALES; do
        "$mk" "$MB_LOCPATH" "$l" 2>> "$BATS_FILE_TMPDIR/mklocales.log" || continue
        if [ -n "${OURS_LOCPATH:-}" ]; then
            # shellcheck disable=SC2086  # empty or one flag
            "$mk" "$OURS_LOCPATH" ${OURS_LOCALEDEF:-} "$l" 2>> "$BATS_FILE_TMPDIR/mklocales.log" ||
                continue
        fi
        MB_BUILT="$MB_BUILT $l"
    done
    export MB_LOCPATH MB_BUILT
}

# cannot_decode LOCALE: true when ours, under a wrapper (qemu), reads a
# valid character of LOCALE's charset as invalid bytes.  There it runs on the
# target's C library, and Debian's cross C libraries ship no gconv modules:
# GNU's md5sum built for the target could not decode these charsets either.
# Natively nothing is probed: there that is a failure.
cannot_decode() {
    [ -n "${EXEC_WRAPPER:-}" ] || return 1
    L=$(mb_lead "$1") LOCPATH=$MB_LOCPATH LC_ALL=$1 ours 'md5sum "$L@"' 2>&1 | grep -qF "\$'"
}

# mb_lead LOCALE: the first byte of a row of characters whose second bytes
# 0x40-0x7e are all printable.
mb_lead() {
    case $1 in
        *.BIG5) printf '\244' ;;    # a440: 一 ... a45c: 么
        *) printf '\201' ;;         # GBK, GB18030: CJK; Shift_JIS: symbols
    esac
}

# each_mb_locale FUNCTION: run FUNCTION in each locale of MB_LOCALES that can
# be used, in a directory of its own, with LOCPATH, LC_ALL and L (mb_lead)
# exported; then skip, naming those that could not, if any.
each_mb_locale() {
    local l unbuilt='' undecoded='' why=''
    for l in $MB_LOCALES; do
        case " $MB_BUILT " in *" $l "*) ;; *) unbuilt="$unbuilt $l"; continue ;; esac
        if cannot_decode "$l"; then
            undecoded="$undecoded $l"
            continue
        fi
        mkdir "$l"
        cd "$l" || return 1
        export LOCPATH=$MB_LOCPATH L
        L=$(mb_lead "$l")
        # For md5sum; this shell, which read LOCPATH at start, stays in C.
        export LC_ALL=$l 2>/dev/null
        echo "in LC_ALL=$l:"   # shown when a comparison below fails
        "$1"
        cd .. || return 1
    done
    [ -z "$unbuilt" ] ||
        why="not built:$unbuilt ($(head -n 2 "$BATS_FILE_TMPDIR/mklocales.log" | tr '\n' ' '))"
    [ -z "$undecoded" ] ||
        why="$why${why:+; }under ${EXEC_WRAPPER%% *} our md5sum cannot decode$undecoded (the target's C library has no gconv modules)"
    [ -z "$why" ] || skip "$why"
}

odd_names() {
    printf 1 > 'a\b'; printf 2 > "$(printf 'a\nb')"; printf 3 > "$(printf 'a\rb')"
    printf 4 > "$(printf 'test\n\\\\file')"; printf 5 > "$(printf 'a\tb')"
    printf 6 > ' lead'; printf 7 > 'trail '; printf 8 > 'a) = b'; printf 9 > '*star'
    printf 10 > "it's"; printf 11 > 'x:y'; printf 12 > "$(printf '\351t\351')"
    printf 13 > "$(printf '\033[0m')"; printf 14 > 'MD5 (x) = y'; printf 15 > '\'
}

@test "names with backslash, LF or CR are escaped and the line starts with \\" {
    odd_names
    same 'md5sum a* test* "$(printf "a\rb")" \\'
}

@test "escaping applies to --tag lines too" {
    odd_names
    same 'md5sum --tag a* test* \\'
}

@test "other odd bytes are written raw" {
    odd_names
    same 'md5sum " lead" "trail " "a) = b" "*star" "it'"'"'s" x:y "$(printf "\351t\351")" "$(printf "\033[0m")" "MD5 (x) = y"'
    same 'md5sum -b --tag "a) = b" "*star"'
}

@test "with -z no name is escaped" {
    odd_names
    same 'md5sum -z a* test* \\'
    same 'md5sum -z --tag a* \\'
}

@test "every name in the odd-name corpus, every output mode" {
    odd_names
    for mode in "" -b -t --tag -z "-z --tag" "-zb"; do
        same "md5sum $mode -- *"
    done
}

@test "names in diagnostics are quoted as GNU quotes them (C locale)" {
    same 'md5sum "no such" "a:b" "\$x" "a\\b" "$(printf "a\tb")" "$(printf "a\nb")" "$(printf "\n")" ""'
    same 'md5sum "$(printf "\351t\351")" "$(printf "\a\b\f\v\001x")" "$(printf "\033[0m")"'
    same 'md5sum "it'"'"'s#" "a'"'"'b\$" "{'"'"'" "$(printf "\n'"'"'")" "$(printf "a'"'"'\nb")"'
    same 'md5sum "it'"'"'s" "'"'"'" "a'"'"'b c" "it'"'"'s:x" "#it'"'"'s" "it'"'"'s@x"'
    same 'md5sum -x a%b a,b a@b "a]b" nodir/f "#x" "x#" "~x" "x~" "{" "}" "{a" "a}" "{}"'
    same 'md5sum "#x" "x#" "~x" "x~" "{" "}" "{a" "a}" "{}" a%b a,b a@b "a]b"'
}

@test "a name of one byte written in octal is quoted whole (regression: heap overflow)" {
    # ''$'\001' is 9 bytes and a NUL; quote_name allocated 9.  Only a
    # sanitizer or valgrind run sees the overflow; the output shows the rest.
    printf abc > f
    same 'md5sum "$(printf "\001")" "$(printf "\351")" "$(printf "\177")" f'
    LC_ALL=C.UTF-8 same 'md5sum "$(printf "\351")" f'
}

@test "names in diagnostics are quoted as GNU quotes them (UTF-8 locale)" {
    locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || skip "no C.UTF-8 locale"
    export LC_ALL=C.UTF-8
    same 'md5sum café "café au lait" "$(printf "a\351b")" "$(printf "x\342\200")" "$(printf "\302\200")" 日本 "it'"'"'s é"'
}

@test "quoting of random names matches GNU in C and UTF-8 locales" {
    require_gnu
    # 300 random names of 1-6 bytes drawn from the awkward characters.
    awk 'BEGIN { srand(42); pool = "ab '"'"'\"#~{}:$\\@%,]_\t\n?*!;|&()[]^`<>=";
                 for (i = 0; i < 300; i++) { n = 1 + int(rand() * 6); s = "";
                   for (j = 0; j < n; j++) { r = rand();
                     if (r < 0.15) s = s sprintf("%c", 128 + int(rand() * 128));
                     else if (r < 0.25) s = s sprintf("%c", 1 + int(rand() * 31));
                     else s = s substr(pool, 1 + int(rand() * length(pool)), 1) }
                   printf "%s%c", s, 0 } }' > names
    same 'xargs -0 md5sum < names'
    locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || return 0
    LC_ALL=C.UTF-8 same 'xargs -0 md5sum < names'
}

@test "a long name full of escapes, in hash and check mode" {
    # Over 2 KiB of path, a backslash, LF or CR every few bytes: the escaping
    # runs through more than one piece of out_name's buffer.
    local part p=. i
    part=$(printf 'a\\b\nc\rd%.0s' $(seq 1 20))
    for i in $(seq 1 14); do p=$p/$part$i; done
    mkdir -p "$p"; printf abc > "$p/f"; printf xyz > g
    export P=$p/f
    same 'md5sum "$P" g; md5sum --tag "$P" g; md5sum -z "$P" g'
    same 'md5sum "$P" g > ../L; md5sum -c ../L; md5sum --tag "$P" g > ../T; md5sum -c ../T'
    grep -q '^\\' ../L
}

special_second_bytes() {
    same 'md5sum "$L\\" "$L|" "$L[" "$L^" "$L\`" "a$L\\b" "$L\\$L|$L\`"'
    same 'md5sum "$L@" "$L]" "$L_" "$L{" "$L}" "$L~" "$L{}" "$L~x" "a$L@b"'
    same 'md5sum "x:$L\\" "x:$L@" "$L\\:" "\\$L\\" "\$x$L\\" "$L$L\\" "#$L\\" "{$L\\"'
}

@test "a character whose second byte is [ \\ ^ \` or | is quoted (BIG5, GBK, GB18030, Shift_JIS)" {
    each_mb_locale special_second_bytes
}

special_second_bytes_mixed() {
    # Unprintable, invalid (0xff) and incomplete (a lead byte at the end).
    same 'md5sum "$(printf "\001")$L\\" "$L\\$(printf "\001")" "$(printf "\377")$L\\" "$L\\$(printf "\377")"'
    same 'md5sum "$L" "a$L" "$L\\$L" "$(printf "\t")$L|$L" "$L\\$(printf "\n")$L@"'
    # A ' gives double quotes, or with unprintable bytes the '\'' form and
    # the 9.1 quirk of a name that ends unprintable.
    same 'md5sum "it'"'"'s$L\\" "it'"'"'s$L@" "$L\\'"'"'" "$L'"'"'" "it'"'"'s$L\\$(printf "\t")"'
    same 'md5sum "$L\\$(printf "\n")it'"'"'s" "'"'"'$(printf "\001")$L|" "a'"'"'b$L\`$L"'
    # GB18030 takes a first byte and a digit at the end for a 4-byte
    # character cut short, whatever the third byte: every byte in octal, a '
    # or a control byte too, and that ' is none of the name's.
    export I1="x${L}0'" I2="it's${L}0'" I3="${L}0"$'\n' I4="a${L}0"$'\t'
    same 'md5sum "$I1" "$I2" "$I3" "$I4"'
}

@test "such characters among unprintable, invalid and incomplete bytes and single quotes" {
    each_mb_locale special_second_bytes_mixed
}

special_second_bytes_check() {
    local h
    h=$("$GNU_MD5SUM" < /dev/null | cut -c1-32)
    # Files that exist, in a list GNU writes (a name with the byte \ is
    # escaped there), and missing ones in plain and escaped lines.
    printf a > "$L\\"; printf b > "$L|"; printf c > "it's$L^"
    "$GNU_MD5SUM" -- "$L\\" "$L|" "it's$L^" > list
    printf '%s  %s\n' "$h" "$L\\" "$h" "${L}[" "$h" "x:$L\`" "$h" "it's$L\\" "$h" "$L\\$L" >> list
    printf '\\%s  %s\n' "$h" "$L\\\\" "$h" "a$L\\\\b" "$h" "$L\\\\\\n" >> list
    : > "$L\\.md5"
    printf '%s  %s\n' "$h" "$L|" > "$L^.md5"
    same 'md5sum -c list; md5sum -c --quiet list; md5sum -c --status list'
    same 'md5sum -c "$L\\.md5" "$L@.md5" "nosuch$L|"; md5sum -c --ignore-missing "$L^.md5"'
    rm "$L|"
    same 'md5sum -c --ignore-missing "$L^.md5"; md5sum -c -w "$L^.md5"'
}

@test "check mode: such names in a list and as the list's name (BIG5, GBK, GB18030, Shift_JIS)" {
    require_gnu
    each_mb_locale special_second_bytes_check
}

special_second_bytes_files0() {
    mkdir "$L\\"; printf 'f\0\0' > "$L|"; printf f > f
    like_wc 'md5sum --files0-from="$L\\"; md5sum --files0-from="$L|"; md5sum --files0-from="nosuch$L\\"'
    like_wc 'md5sum --files0-from=f "$L\\"; printf -- - | md5sum --files0-from=- "$L\`"'
}

@test "--files0-from: such names quoted as GNU wc quotes them, quotef and quoteaf" {
    each_mb_locale special_second_bytes_files0
}

random_mb_names() {
    same 'xargs -0 md5sum < ../names'
    same 'md5sum -c ../list'
}

@test "quoting of random names matches GNU in BIG5, GBK, GB18030 and Shift_JIS" {
    require_gnu
    # 400 random names of 1-6 bytes: lead bytes, the five special second
    # bytes, harmless ones (GB18030's four-byte characters have digits),
    # controls, and the awkward ASCII of the C and UTF-8 test.  Then the
    # same names in a checksum list, escaped where a list needs it.
    awk 'BEGIN { srand(21); pool = "ab '"'"'\"#~{}:$\\@%,]_\t\n?*!;|&()[]^`<>=";
                 spec = "[\\^`|"; harm = "@]_{}~0123456789";
                 for (i = 0; i < 400; i++) { n = 1 + int(rand() * 6); s = "";
                   for (j = 0; j < n; j++) { r = rand();
                     if (r < 0.35) s = s sprintf("%c", 129 + int(rand() * 126));
                     else if (r < 0.55) s = s substr(spec, 1 + int(rand() * 5), 1);
                     else if (r < 0.65) s = s substr(harm, 1 + int(rand() * 16), 1);
                     else if (r < 0.70) s = s sprintf("%c", 1 + int(rand() * 31));
                     else if (r < 0.73) s = s sprintf("%c", rand() < 0.5 ? 128 : 255);
                     else s = s substr(pool, 1 + int(rand() * length(pool)), 1) }
                   printf "%s%c", s, 0 } }' > names
    awk 'BEGIN { RS = "\0" } { e = $0; gsub(/\\/, "\\\\", e); gsub(/\n/, "\\n", e);
                               gsub(/\r/, "\\r", e); p = e == $0 ? "" : "\\";
                               printf "%s%032d  %s\n", p, NR, e }' names > list
    [ "$(wc -l < list)" = 400 ]
    each_mb_locale random_mb_names
}
