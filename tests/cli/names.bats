#!/usr/bin/env bats
# File names: escaping in output lines, quoting in diagnostics.
load '../helpers'

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
