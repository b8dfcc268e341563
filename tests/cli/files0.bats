#!/usr/bin/env bats
# --files0-from=F: the operands read from F, each ended by a NUL byte.
# What is printed for the names must be what GNU md5sum prints given the
# same names as operands (same_with); the list's own checks and messages
# must be GNU wc 9.1's for its --files0-from (like_wc: wc called md5sum).
load '../helpers'

# from_list OPTS LIST [REDIRECTION]: ours reads the names from LIST, GNU's
# gets them as operands.  LIST must hold at least one name, none empty.
from_list() {
    same_with "md5sum $1 --files0-from=$2 ${3:-}" \
        "mapfile -d '' n < $2; md5sum $1 \"\${n[@]}\" ${3:-}"
}

# The same, stdout and stderr merged: diagnostics in their places.
from_list_merged() {
    same_with "{ md5sum $1 --files0-from=$2 ${3:-}; } 2>&1" \
        "{ mapfile -d '' n < $2; md5sum $1 \"\${n[@]}\" ${3:-}; } 2>&1"
}

# Files whose names hold what escaping and quoting care about; `list` names
# them and entries that fail (missing, a directory, not a directory).
odd_files() {
    printf abc > plain
    printf 'x\n' > 'with space'
    printf y > "$(printf 'new\nline')"
    printf z > 'back\slash'
    printf w > "$(printf 'bad\377utf8')"
    printf v > "it's"
    printf u > "$(printf 'cr\rname')"
    : > empty
    mkdir dir
    printf '%s\0' plain 'with space' "$(printf 'new\nline')" 'back\slash' \
        "$(printf 'bad\377utf8')" "it's" "$(printf 'cr\rname')" nosuch dir plain/x empty plain > list
}

# Names of lists for the tests of messages about the list itself: what
# quoting cares about (quotef for some messages, quoteaf for others).
ODD_LIST_NAMES=('a b' "it's" 'x:y' 'q"q' $'n\nl' $'\351t' -x '~h' "a'b\"c" $'it\'s\n' 'é' $'\351t\'s')

# with_each_list SCRIPT NAME...: SCRIPT once for each NAME, as $L (quoted
# for the shell), each exit status on stderr: one run of like_wc for all.
with_each_list() {
    local script=$1 n q s=
    shift
    for n; do
        printf -v q '%q' "$n"
        s+="L=$q; $script; echo \"exit \$?\" >&2; "
    done
    printf '%s' "$s"
}

sanitized() {
    [ -n "${MD5SUM_SANITIZED:-}" ]
}

# ---- what is printed for the names: GNU md5sum's ---------------------------

@test "names from a list hash as GNU hashes them as operands, in every output style" {
    odd_files
    local j o
    for j in $(job_counts 1 2); do
        ours_jobs "$j"
        for o in '' -z --tag -b -t '--tag -z' '-b -z'; do
            from_list "$o" list
        done
        from_list_merged '' list
    done
    locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || return 0
    LC_ALL=C.UTF-8 from_list_merged '' list
}

@test "the last name needs no NUL after it; a single name" {
    odd_files
    printf 'plain\0with space' > l2
    printf 'it'"'"'s' > l1
    from_list '' l2
    from_list '' l1
}

@test "a '-' in a list read from a file is standard input, as an operand" {
    odd_files
    printf 'plain\0-\0plain\0-' > l
    from_list '' l '< plain'
    "$GNU_MD5SUM" plain 'with space' > good.md5
    printf 'good.md5\0-\0good.md5\0-' > cl
    from_list -c cl '< good.md5'
}

@test "an unreadable entry, as an unprivileged user, then the others" {
    [ "$(id -u)" != 0 ] || command -v setpriv >/dev/null || skip "setpriv is missing"
    odd_files
    open_to_nobody
    printf abc > secret; chmod 000 secret; chmod 644 plain list
    printf 'plain\0secret\0plain\0' > l; chmod 644 l
    RUN_AS=as_nobody from_list_merged '' l
    grep -q "secret: Permission denied" "$BATS_TEST_TMPDIR/ours.out"
}

@test "-c: each name is a checksum list, verified as GNU verifies them as operands" {
    odd_files
    "$GNU_MD5SUM" plain 'with space' "$(printf 'new\nline')" 'back\slash' > good.md5
    "$GNU_MD5SUM" --tag plain "it's" > tagged.md5
    { "$GNU_MD5SUM" plain | tr 0-9a-f a-f0-9; echo 'not a line'
      printf '%s  gone\n' "$("$GNU_MD5SUM" < plain | cut -c1-32)"; } > bad.md5
    mkdir lists.d
    printf '%s\0' good.md5 bad.md5 tagged.md5 nosuch.md5 lists.d good.md5 > cl
    local j o
    for j in $(job_counts 1 2); do
        ours_jobs "$j"
        for o in '' --quiet --status --strict -w --ignore-missing '--quiet --strict -w'; do
            from_list "-c $o" cl
        done
        from_list_merged -c cl
        from_list_merged '-c -w' cl
    done
}

# ---- the list's own checks and messages: GNU wc's -------------------------

@test "file operands with --files0-from: wc's extra operand error, after GNU md5sum's own checks" {
    odd_files
    like_wc 'md5sum --files0-from=list a b'
    like_wc 'md5sum a --files0-from=list'
    like_wc "md5sum --files0-from=list -- '-x y' b"
    like_wc "md5sum --files0-from=list \"it's\""
    like_wc 'md5sum --files0-from=nosuch a'
    # GNU md5sum's own option checks come first, as du's do before this one.
    same_with 'md5sum --files0-from=list --tag -c a' 'md5sum --tag -c a'
    same_with 'md5sum --files0-from=list --status a' 'md5sum --status a'
    same_with 'md5sum --files0-from=list -c -z a' 'md5sum -c -z a'
    run --separate-stderr ours 'md5sum -c --files0-from=list a'
    assert_failure 1
    assert_output ''
}

@test "zero-length names: FILE:RECORD: invalid zero-length file name, the rest still processed" {
    odd_files
    printf '\0plain\0\0plain\0' > l
    printf '\0' > only
    like_wc 'md5sum --files0-from=l'
    like_wc 'md5sum --files0-from=only'
    like_wc "printf 'plain\0\0' | md5sum --files0-from=-"
    # Results and messages in list order, whatever the thread count.
    local j want
    want="$("$GNU_MD5SUM" plain)
md5sum: l5:2: invalid zero-length file name
$("$GNU_MD5SUM" plain)
md5sum: l5:4: invalid zero-length file name
$("$GNU_MD5SUM" plain)"
    printf 'plain\0\0plain\0\0plain' > l5
    for j in $(job_counts 1 2); do
        ours_jobs "$j"
        run ours 'md5sum --files0-from=l5 2>&1'
        assert_failure 1
        assert_output "$want"
    done
}

@test "'-' in a list read from standard input is refused, the rest still processed" {
    odd_files
    like_wc "printf 'plain\0-\0plain' | md5sum --files0-from=-"
    like_wc "printf -- '-\0' | md5sum --files0-from=-"
    run --separate-stderr ours "printf 'plain\0-\0plain' | md5sum --files0-from=-"
    assert_failure 1
    [ "$output" = "$("$GNU_MD5SUM" plain plain)" ]
    "$GNU_MD5SUM" plain > good.md5
    like_wc "printf 'good.md5\0-' | md5sum -c --files0-from=-"
}

@test "a list that cannot be opened: wc's message, nothing else done" {
    odd_files
    like_wc "$(with_each_list 'md5sum --files0-from="$L"' nosuch '' dir/x plain/x "${ODD_LIST_NAMES[@]}")"
    like_wc "$(with_each_list 'md5sum -c --files0-from="$L"' nosuch '' "${ODD_LIST_NAMES[@]}")"
    run --separate-stderr ours 'md5sum --files0-from=nosuch'
    assert_output ''
}

@test "a list that cannot be read as an unprivileged user: Permission denied" {
    [ "$(id -u)" != 0 ] || command -v setpriv >/dev/null || skip "setpriv is missing"
    odd_files
    open_to_nobody
    chmod 000 list
    RUN_AS=as_nobody like_wc 'md5sum --files0-from=list'
    grep -q "Permission denied" "$BATS_TEST_TMPDIR/ours.err"
}

@test "a list that fails to read: wc's read error, or 'cannot read file names' for what wc reads whole" {
    odd_files
    like_wc 'md5sum --files0-from=dir'
    like_wc 'md5sum --files0-from=- < dir'
    # EIO at its first byte; a regular file, so wc would read it whole.
    like_wc 'md5sum --files0-from=/proc/self/mem'
    like_wc 'md5sum -c --files0-from=/proc/self/mem'
    ! under_valgrind || return 0   # a closed descriptor is not closed under valgrind
    like_wc 'md5sum --files0-from=- <&-'
}

@test "the list's name quoted in its messages as wc quotes it, in C and UTF-8 locales" {
    odd_files
    mkdir f d
    local n l
    for n in "${ODD_LIST_NAMES[@]}"; do
        printf '\0\0' > "f/$n"         # a list of two empty names
        mkdir -- "d/$n"                 # a list that fails to read
    done
    for l in C C.UTF-8; do
        [ "$l" = C ] || locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || continue
        LC_ALL=$l like_wc "cd f
            $(with_each_list 'md5sum --files0-from="$L"' "${ODD_LIST_NAMES[@]}")
            cd ../d
            $(with_each_list 'md5sum --files0-from="$L"' "${ODD_LIST_NAMES[@]}")"
    done
}

@test "an empty list: nothing printed, success, as wc" {
    : > empty
    like_wc 'md5sum --files0-from=empty'
    like_wc 'md5sum --files0-from=/dev/null'
    like_wc 'md5sum --files0-from=- < /dev/null'
    like_wc 'md5sum -c --files0-from=empty'
    run --separate-stderr ours 'md5sum --files0-from=empty; md5sum -c --files0-from=- < empty'
    assert_success
    assert_output ''
}

@test "--files0-from takes an argument, abbreviates, and has no short form" {
    printf abc > f
    printf 'f\0' > l
    like_wc 'md5sum --files0-from'
    local a
    for a in --files0-from=l '--files0-from l' --files0=l --f=l; do
        run --separate-stderr ours "md5sum $a"
        assert_success
        assert_output "$("$GNU_MD5SUM" f)"
    done
    # GNU's abbreviations keep their meaning.
    same 'md5sum --t f; md5sum --st f'
}

# ---- streaming: names hashed as they arrive ---------------------------------

@test "a list whose writer waits for the first result: it is out before the rest is written" {
    printf abc > a
    printf xyz > b
    "$GNU_MD5SUM" a > a.md5
    "$GNU_MD5SUM" b > b.md5
    local j
    for j in $(job_counts 1 2); do
        ours_jobs "$j"
        # The writer waits (up to 20 s) for a first line, then writes the
        # rest; out is removed first, or the writer could see the last run's.
        run ours "rm -f out; { printf 'a\0'
                    for i in \$(seq 400); do [ -s out ] && break; sleep 0.05; done
                    echo \"lines before the rest was written: \$(wc -l < out)\" >&2
                    printf 'b\0'; } | md5sum --files0-from=- > out; echo \"exit \$?\"; cat out"
        assert_output "lines before the rest was written: 1
exit 0
$("$GNU_MD5SUM" a b)"
        run ours "rm -f out; { printf 'a.md5\0'
                    for i in \$(seq 400); do [ -s out ] && break; sleep 0.05; done
                    echo \"lines before the rest was written: \$(wc -l < out)\" >&2
                    printf 'b.md5'; } | md5sum -c --files0-from=- > out; echo \"exit \$?\"; cat out"
        assert_output "lines before the rest was written: 1
exit 0
a: OK
b: OK"
    done
}

@test "millions of names from a pipe: GNU's lines, in bounded memory" {
    # 10,000,000 names with MD5SUM_SLOW_TESTS=1; by default 1,000,000, which
    # takes seconds where opening a file costs microseconds; fewer, and no
    # memory bound, under qemu or sanitizers.
    local n=1000000 check_rss=1 kib
    [ "${MD5SUM_SLOW_TESTS:-0}" != 1 ] || n=10000000
    if [ -n "${EXEC_WRAPPER:-}" ] || sanitized; then n=20000 check_rss=0; fi
    command -v /usr/bin/time >/dev/null || check_rss=0
    mkdir s
    local i
    for i in 0 1 2 3; do printf "file $i" > "s/f$i"; done
    # GNU's four lines, repeated: what the names must give.
    local want
    want=$(yes "$("$GNU_MD5SUM" s/f0 s/f1 s/f2 s/f3)" | head -n "$n" | "$GNU_MD5SUM")
    local timed=
    [ "$check_rss" = 0 ] || timed="/usr/bin/time -f %M -o $BATS_TEST_TMPDIR/rss.txt"
    run ours "yes \$'s/f0\ns/f1\ns/f2\ns/f3' | head -n $n | tr '\n' '\0' |
              $timed md5sum --files0-from=- | $GNU_MD5SUM; echo \"\${PIPESTATUS[*]:1}\""
    assert_output "$want
0 0 0 0"
    [ "$check_rss" = 1 ] || return 0
    kib=$(cat "$BATS_TEST_TMPDIR/rss.txt")
    # Against 1,000 names: most of either is the lanes' buffers in huge
    # pages (about 16 MiB on 2 CPUs); the names must not be held.  4 MiB:
    # two huge pages more.
    yes $'s/f0\ns/f1\ns/f2\ns/f3' | head -n 1000 | tr '\n' '\0' > few
    /usr/bin/time -f %M -o "$BATS_TEST_TMPDIR/rss-few.txt" "$MD5SUM" --files0-from=few > /dev/null
    echo "$n names: peak RSS $kib KiB; 1,000: $(cat "$BATS_TEST_TMPDIR/rss-few.txt") KiB"
    [ "$kib" -le $(($(cat "$BATS_TEST_TMPDIR/rss-few.txt") + 4 * 1024)) ]
}
