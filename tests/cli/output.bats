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
    local long=$(printf 'n%.0s' $(seq 1 200))
    for i in $(seq 1 50); do printf '%s' "$i" > "$long-$i"; done
    ours 'for j in 1 2 3 4 5 6 7 8; do md5sum -- *-* & done; wait' > all.txt
    [ "$(wc -l < all.txt)" -eq 400 ]
    run grep -cvE "^[0-9a-f]{32}  $long-[0-9]+\$" all.txt
    assert_output 0
}

@test "each result is written as soon as it is ready (line buffered)" {
    command -v strace >/dev/null || skip "strace is not installed"
    [ -z "${EXEC_WRAPPER:-}" ] || skip "strace of a qemu process shows qemu's calls"
    printf abc > f
    # LeakSanitizer cannot run under ptrace: off here in a SANITIZE=1 build.
    ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
        strace -f -e trace=write -o trace.txt "$MD5SUM" f f f > /dev/null
    [ "$(grep -c '^[0-9]* *write(1, ' trace.txt)" -eq 3 ]
}
