#!/usr/bin/env bats
# --check: list formats, sources, options, output and exit status, each
# compared with GNU md5sum.  Lists are built from GNU's own digests.
load '../helpers'

# Files to verify, and $H_F etc.: their digests computed by GNU md5sum.
setup_files() {
    printf abc > f; printf xyz > g; : > e
    printf 1 > ' lead'; printf 2 > '*star'; printf 3 > 'a\b'; printf 4 > "$(printf 'a\nb')"
    printf 5 > "$(printf 'a\rb')"; printf 6 > "it's"; printf 7 > 'x) = y'
    H_F=$("$GNU_MD5SUM" < f | cut -c1-32)
    H_G=$("$GNU_MD5SUM" < g | cut -c1-32)
    H_E=$("$GNU_MD5SUM" < e | cut -c1-32)
    BAD=$("$GNU_MD5SUM" < /dev/null | cut -c1-32 | tr 0-9a-f a-f0-9)   # a digest of nothing here
}

@test "default, binary and tagged lines written by md5sum verify" {
    setup_files
    same 'md5sum f g e > l1; md5sum -b f g > l2; md5sum --tag f g e > l3; md5sum -c l1 l2 l3'
}

@test "round trip with odd names: md5sum [-b|--tag] FILES > L; md5sum -c L" {
    setup_files
    same 'md5sum -- * > ../L; md5sum -c ../L'
    same 'md5sum -b -- * > ../L; md5sum -c ../L'
    same 'md5sum --tag -- * > ../L; md5sum -c ../L'
}

@test "round trip through -z output, once NULs become newlines" {
    setup_files
    same 'md5sum -z f g e " lead" "*star" | tr "\0" "\n" > ../L; md5sum -c ../L'
}

@test "the reversed 'HASH NAME' form and the OpenSSL 'MD5(NAME)= HASH' form" {
    setup_files
    printf '%s f\n%s g\n' "$H_F" "$H_G" > rev
    printf 'MD5(f)= %s\nMD5 (g)=%s\n' "$H_F" "$H_G" > ossl
    same 'md5sum -c rev; md5sum -c ossl'
}

@test "upper-case hex and CRLF line endings are accepted" {
    setup_files
    printf '%s  f\r\n' "$(echo "$H_F" | tr a-f A-F)" > l
    printf '%s  g\r\r\n' "$H_G" > twocr     # only one CR is removed: names "g\r"
    same 'md5sum -c l; md5sum -c twocr'
}

@test "escaped names: \\\\, \\n and \\r in the name" {
    setup_files
    printf '\\%s  a\\\\b\n\\%s  a\\nb\n\\%s  a\\rb\n' "$("$GNU_MD5SUM" < 'a\b' | cut -c1-32)" \
        "$("$GNU_MD5SUM" < "$(printf 'a\nb')" | cut -c1-32)" "$("$GNU_MD5SUM" < "$(printf 'a\rb')" | cut -c1-32)" > l
    printf '\\MD5 (a\\nb) = %s\n' "$("$GNU_MD5SUM" < "$(printf 'a\nb')" | cut -c1-32)" >> l
    same 'md5sum -c l'
    printf '\\%s  a\\tb\n\\%s  x\\\n %s  a\\\\b\n \\%s  f\n\\ %s  f\n\\\\%s  f\n' "$H_F" "$H_F" "$H_F" "$H_F" "$H_F" "$H_F" > bad
    same 'md5sum -c -w bad'
}

@test "improperly formatted lines: counted, warned with -w, and not fatal" {
    setup_files
    {
        printf '%s  f\n' "${H_F:0:31}"; printf '%sa  f\n' "$H_F"; printf 'z%s  f\n' "${H_F:1}"
        printf '%sf\n' "$H_F"; printf 'SHA1 (f) = %s\n' "$H_F"; printf 'md5 (f) = %s\n' "$H_F"
        printf 'MD5  (f) = %s\n' "$H_F"; printf 'MD5 (f) = %s \n' "$H_F"; printf 'MD5 (f = %s\n' "$H_F"
        printf '%s\n' "$H_F"; printf '%s \n' "$H_F"; printf '   \n'; printf 'garbage\n'
        printf '%s  f\n' "$H_F"
    } > l
    same 'md5sum -c l'
    same 'md5sum -c -w l'
    same 'md5sum -c --strict l'
}

@test "comments and blank lines are skipped but counted in line numbers" {
    setup_files
    printf '# comment\n\n\r\n%s  f\n #x\nbad\n' "$H_F" > l
    same 'md5sum -c -w l'
}

@test "tagged names run to the last ')' and may be empty" {
    setup_files
    printf 'MD5 (x) = y) = %s\nMD5 () = %s\nMD5 ((f) = %s\n' "$("$GNU_MD5SUM" < 'x) = y' | cut -c1-32)" "$H_F" "$H_F" > l
    same 'md5sum -c l'
}

@test "the untagged layout chosen by the first line holds for the rest of the run" {
    setup_files
    printf '%s  f\n%s g\n' "$H_F" "$H_G" > gnu_first
    printf '%s f\n%s  g\n%s * lead\n' "$H_F" "$H_G" "$H_F" > rev_first
    printf '%s\tf\n%s  e\n' "$H_F" "$H_E" > tab_first
    same 'md5sum -c gnu_first'
    same 'md5sum -c rev_first'
    same 'md5sum -c tab_first'
    same 'md5sum -c gnu_first rev_first'
    same 'md5sum -c rev_first gnu_first'
}

@test "a NUL byte ends an unescaped name; inside the hex it is malformed" {
    setup_files
    printf '%s  f\0junk\nMD5 (f\0x) = %s\n%s\0%s  f\n\0\n' "$H_F" "$H_F" "${H_F:0:10}" "${H_F:11}" > l
    same 'md5sum -c -w l'
}

@test "a list from stdin: - and no operand; its - entries are malformed" {
    setup_files
    printf '%s  f\n%s  -\n' "$H_F" "$H_F" > l
    same 'md5sum -c < l'
    same 'md5sum -c - < l'
    same 'md5sum -c -w - < l'
}

@test "a - entry in a list file reads standard input, once" {
    setup_files
    printf '%s  -\n%s  -\n' "$H_F" "$H_F" > l
    same 'md5sum -c l < f'
}

@test "several lists: each gets its own summary, and any failure fails the run" {
    setup_files
    printf '%s  f\n' "$BAD" > bad1; printf '%s  g\n' "$BAD" > bad2; printf '%s  f\n' "$H_F" > ok
    same 'md5sum -c bad1 bad2 ok'
    same 'md5sum -c ok ok'
    same 'md5sum -c ok - < bad1'
}

@test "missing, unreadable, directory and empty lists" {
    setup_files
    mkdir d; : > empty; printf '%s  f\n' "$H_F" > ok
    same 'md5sum -c nosuch ok'
    same 'md5sum -c d ok'
    same 'md5sum -c empty ok'
    same 'md5sum -c /dev/null'
    same 'md5sum -c --status nosuch d empty'
}

@test "an unreadable list, as an unprivileged user" {
    [ "$(id -u)" != 0 ] || command -v setpriv >/dev/null || skip "setpriv is missing"
    setup_files
    open_to_nobody
    printf '%s  f\n' "$H_F" > locked; chmod 000 locked; chmod 644 f
    RUN_AS=as_nobody same 'md5sum -c locked'
    grep -q "locked: Permission denied" "$BATS_TEST_TMPDIR/ours.err"
}

@test "a list that fails to read part way: lines so far, then read error" {
    setup_files
    same 'md5sum -c /proc/self/mem'
}

@test "listed files that are missing, directories or unreadable" {
    setup_files
    mkdir d
    printf '%s  nosuch\n%s  d\n%s  f/x\n%s  f\n' "$H_F" "$H_F" "$H_F" "$H_F" > l
    same 'md5sum -c l'
    same_merged 'md5sum -c l'
}

@test "--quiet drops OK lines only" {
    setup_files
    printf '%s  f\n%s  g\n%s  nosuch\n' "$H_F" "$BAD" "$H_F" > l
    same 'md5sum -c --quiet l'
    printf '%s  f\n' "$H_F" > ok
    same 'md5sum -c --quiet ok'
}

@test "--status prints nothing on stdout and no summary" {
    setup_files
    printf '%s  f\n%s  g\n%s  nosuch\nbad\n' "$H_F" "$BAD" "$H_F" > l
    same 'md5sum -c --status l'
    same 'md5sum -c --status -w l'
    printf '%s  f\n' "$H_F" > ok
    same 'md5sum -c --status ok'
}

@test "--warn, --quiet and --status: the last one wins" {
    setup_files
    printf '%s  f\nbad\n' "$H_F" > l
    same 'md5sum -c --status --warn l'
    same 'md5sum -c --warn --status l'
    same 'md5sum -c --quiet -w l'
    same 'md5sum -c -w --quiet l'
    same 'md5sum -c --status --quiet l'
}

@test "--strict makes improperly formatted lines fail the list" {
    setup_files
    printf '%s  f\nbad\n' "$H_F" > l
    same 'md5sum -c --strict l'
    same 'md5sum -c --strict --status l'
}

@test "--ignore-missing skips only missing files, and says when nothing was verified" {
    setup_files
    printf '%s  nosuch\n%s  f\n' "$H_F" "$H_F" > some
    printf '%s  nosuch\n%s  no/dir\n' "$H_F" "$H_F" > none
    printf '%s  nosuch\n%s  f/x\n%s  g\n' "$H_F" "$H_F" "$BAD" > others
    same 'md5sum -c --ignore-missing some'
    same 'md5sum -c --ignore-missing none'
    same 'md5sum -c --ignore-missing others'
    same 'md5sum -c --ignore-missing --status none'
}

@test "warnings use singular and plural forms" {
    setup_files
    printf '%s  g\n%s  g\n%s  nosuch\n%s  nosuch\nbad\nbad\n' "$BAD" "$BAD" "$H_F" "$H_F" > many
    printf '%s  g\n%s  nosuch\nbad\n' "$BAD" "$H_F" > one
    same 'md5sum -c many; md5sum -c one'
}

@test "status lines escape a name only when it holds a newline (9.1 rule)" {
    require_gnu_91
    setup_files
    same 'md5sum -- * > ../L; md5sum -c ../L'
    printf '\\%s  a\\nb\n%s  a\\b\n' "$BAD" "$BAD" > l
    same 'md5sum -c l'
}

@test "check output to /dev/full or a closed stdout: write error" {
    setup_files
    printf '%s  f\n' "$H_F" > l
    same 'md5sum -c l > /dev/full'
    under_valgrind || same 'md5sum -c l >&-'   # see under_valgrind
    same 'md5sum -c --status l > /dev/full'
}

@test "lines of any length: a 10 MiB name" {
    setup_files
    { printf '%s  ' "$H_F"; head -c 10485760 /dev/zero | tr '\0' n; printf '\n%s  f\n' "$H_F"; } > l
    same 'md5sum -c l'
}

@test "many lines: 100,000 entries" {
    setup_files
    awk -v h="$H_F" 'BEGIN { for (i = 0; i < 100000; i++) print h "  f" }' > l
    same 'md5sum -c --quiet l'
}

@test "random lists of valid and malformed lines match GNU (differential)" {
    setup_files
    # An awk generator of lines built from the grammar's pieces, several lists
    # per run so that the layout lock carries across lists.
    for seed in 1 2 3 4 5 6 7 8 9 10 11 12; do
        awk -v seed="$seed" -v hf="$H_F" -v hg="$H_G" -v bad="$BAD" '
            function pick(s,   a, n) { n = split(s, a, "|"); return a[1 + int(rand() * n)] }
            BEGIN {
                srand(seed)
                for (k = 0; k < 3; k++) {
                    file = "list" k; n = int(rand() * 8)
                    for (i = 0; i < n; i++) {
                        h = pick(hf "|" hg "|" bad "|" toupper(hf) "|" substr(hf, 2) "|" hf "0")
                        name = pick("f|g|e| lead|*star|nosuch|-|x) = y|it'"'"'s")
                        pre = pick("||| |\t|\\")
                        r = rand()
                        if (r < 0.4) line = pre h pick("  | *| |\t|\t |   ") name
                        else if (r < 0.7) line = pre pick("MD5 (|MD5(|MD5  (|SHA1 (") name pick(") = |)= |) =|))= ") h
                        else line = pick("#c||garbage| |" h "|" h "  ")
                        printf "%s%s", line, pick("\n|\n|\r\n") > file
                    }
                    close(file)
                }
            }'
        same "md5sum -c -w list0 list1 list2"
        same "md5sum -c --ignore-missing --quiet list2 list1 list0"
    done
}
