#!/usr/bin/env bats
# Standard output: write errors, SIGPIPE, lines written whole.
load '../helpers'

@test "md5sum f >/dev/full: write error, status 1" {
    printf abc > f
    same 'md5sum f > /dev/full'
}

@test "-z output to /dev/full: write error with the errno text" {
    printf abc > f
    same 'md5sum -z f > /dev/full'
    for i in $(seq 1 200); do echo "$i" > "many$i"; done
    same 'md5sum -z many* > /dev/full'
}

@test "write errors do not stop processing: later errors are still reported" {
    printf abc > f
    same 'md5sum f nosuch f > /dev/full'
}

@test "closed stdout: write error: Bad file descriptor" {
    ! under_valgrind || skip "a closed descriptor is not closed under valgrind (helpers.bash)"
    printf abc > f
    same 'md5sum f >&-'
    same 'md5sum -z f >&-'
}

@test "closed stdout with nothing to write is not an error" {
    same 'md5sum nosuch >&-'
}

@test "--help and --version to /dev/full or a closed stdout: write error" {
    same 'md5sum --help > /dev/full'
    same 'md5sum --version > /dev/full'
    under_valgrind || same 'md5sum --help >&-'   # see under_valgrind
}

@test "stderr that cannot be written makes the status 1, as GNU" {
    printf abc > f
    same 'md5sum f 2> /dev/full'
    same 'md5sum nosuch f 2> /dev/full'
}

@test "SIGPIPE: killed by default when the reader goes away" {
    for i in $(seq 1 2000); do echo "$i" > "many$i"; done
    same 'md5sum many* | head -c 1; echo " ${PIPESTATUS[0]}"'
}

@test "SIGPIPE ignored: write error, status 1" {
    for i in $(seq 1 2000); do echo "$i" > "many$i"; done
    same 'trap "" PIPE; md5sum many* | head -c 1; echo " ${PIPESTATUS[0]}"'
}

@test "each line is written with one write(2), so parallel runs never interleave inside a line" {
    # Lines longer than PIPE_BUF/8 make a torn write likely if lines were
    # written in pieces.  Eight runs share one pipe.
    local long
    long=$(printf 'n%.0s' $(seq 1 200))
    for i in $(seq 1 50); do printf '%s' "$i" > "$long-$i"; done
    ours 'for j in 1 2 3 4 5 6 7 8; do md5sum -- *-* & done; wait' > all.txt
    [ "$(wc -l < all.txt)" -eq 400 ]
    run grep -cvE "^[0-9a-f]{32}  $long-[0-9]+\$" all.txt
    assert_output 0
}

@test "results so far are written before standard input is read" {
    # The producer of md5sum's stdin waits until the line for f has reached
    # the output file: if md5sum held it back while waiting for stdin, the
    # producer would give up after 5 seconds and say so.
    printf abc > f
    ours '{ i=0; while ! grep -q "  f\$" out 2>/dev/null; do
              i=$((i + 1)); [ "$i" -lt 100 ] || { echo gave up > timeout; break; }; sleep 0.05
            done; printf xyz; } | md5sum f - > out'
    [ ! -e timeout ]
    [ "$(wc -l < out)" -eq 2 ]
}

@test "with one job, a line is written as soon as it is made, while a longer input is still read" {
    command -v strace >/dev/null || skip "strace is not installed"
    [ -z "${EXEC_WRAPPER:-}" ] || skip "strace of a qemu process shows qemu's calls"
    # GNU's stdout is line buffered: a's line is out before big is read.  Ours
    # hashes a and c beside big's first chunk; a's line must not wait for big.
    printf abc > a
    head -c 8388608 /dev/zero > big
    printf xyz > c
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
        strace -e trace=write,read,pread64,preadv,preadv2 -e signal=none -o trace.txt \
        "$MD5SUM" -j1 a big c > out
    "$GNU_MD5SUM" a big c | cmp - out
    # The reads of big after the first write to stdout (none if a's line
    # waited for the end): at least half its 64 chunks.
    run awk '/^write\(1, / && !w { w = NR; next } w && /^(p?read)/ { r++ } END { print r + 0 }' trace.txt
    [ "$output" -ge 32 ]
}

@test "writes to stdout hold whole lines, at most 4096 bytes unless one line is longer" {
    command -v strace >/dev/null || skip "strace is not installed"
    [ -z "${EXEC_WRAPPER:-}" ] || skip "strace of a qemu process shows qemu's calls"
    for i in $(seq 1 300); do printf '%s' "$i" > "file-with-a-longish-name-$i"; done
    # A 6000-byte name that does not exist: its FAILED line is one long line.
    { printf '%s  ' "$("$GNU_MD5SUM" < /dev/null | cut -c1-32)"; printf 'n%.0s' $(seq 1 6000); echo; } > list
    "$GNU_MD5SUM" -- file-* >> list
    # LeakSanitizer cannot run under ptrace: off here in a SANITIZE=1 build.
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
        strace -e trace=write -e signal=none -s 70000 -o trace.txt "$MD5SUM" -c list > /dev/null 2>&1 || true
    # Each write(1, "...", N): the data ends with a newline; N <= 4096 or it
    # is a single line.
    run awk -F', ' '/^write\(1, / {
            n = $NF; sub(/\).*/, "", n); data = $0
            if (data !~ /\\n", [0-9]+\) = /) bad++
            else if (n + 0 > 4096 && gsub(/\\n/, "", data) > 1) bad++
            writes++ }
        END { print writes + 0, bad + 0 }' trace.txt
    assert_output --regexp '^[0-9]+ 0$'
    [ "${output% *}" -ge 3 ]
}
