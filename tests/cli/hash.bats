#!/usr/bin/env bats
# Hashing mode: operands, standard input, sizes, output formats.
load '../helpers'

@test "files are hashed and printed in operand order" {
    printf abc > f; : > empty; printf 'x\n' > g
    same 'md5sum f empty g f'
}

@test "no operand reads standard input" {
    printf abc > f
    same 'md5sum < f'
    same 'printf "hello\n" | md5sum'
}

@test "- reads standard input; a second - reads on from where it stopped" {
    printf abc > f
    same 'md5sum - f - < f'
    same 'printf abc | md5sum - -'
}

@test "-- ends options; - and a second -- stay operands" {
    printf abc > ./-b; printf x > ./--
    same 'md5sum -- -b'
    same 'md5sum -- -b -- -- < /dev/null'
    same 'md5sum -- - < ./-b'
}

@test "a file named like an option is hashed after --" {
    printf q > ./-z
    same 'md5sum -- -z ./-z'
}

@test "options after operands are options (permutation)" {
    printf abc > f
    same 'md5sum f -b'
    same 'md5sum f --tag f'
}

@test "POSIXLY_CORRECT stops option parsing at the first operand" {
    printf abc > f; printf x > ./-b
    same 'POSIXLY_CORRECT=1 md5sum f -b'
    same 'POSIXLY_CORRECT=1 md5sum -b f --tag'
}

@test "boundary sizes around 55/56 and 64-byte blocks" {
    head -c 2000000 /dev/urandom > pool
    for n in 0 1 2 3 55 56 57 63 64 65 $(seq 119 129) 511 512 513 4095 4096 4097 65535 65536 65537 131071 131072 131073 1048577; do
        head -c "$n" pool > "size-$n"
    done
    same 'md5sum size-*'
}

@test "sizes around the 128 KiB read chunk and its multiples, from a file and from a pipe" {
    head -c 800000 /dev/urandom > pool
    for n in 131071 131072 131073 262143 262144 262145 524288 524289; do
        head -c "$n" pool > "s$n"
    done
    same 'md5sum s*'
    same 'cat s524289 | md5sum'
}

@test "all 256 byte values, alone and together" {
    for i in $(seq 0 255); do
        printf "$(printf '\\%03o' "$i")" > "byte-$i"
        cat "byte-$i" >> all
    done
    same 'md5sum all byte-*'
}

@test "--binary marks lines with *, --text with a space, the last one wins" {
    printf abc > f
    same 'md5sum -b f; md5sum -t f; md5sum -bt f; md5sum -tb f; md5sum --binary --text f'
}

@test "--tag prints BSD-style lines, with -b or after -t" {
    printf abc > f
    same 'md5sum --tag f; md5sum -b --tag f; md5sum -t --tag f; md5sum --tag -b f; md5sum --tag --tag f'
}

@test "--tag followed by -t is rejected" {
    printf abc > f
    same 'md5sum --tag -t f'
    same 'md5sum --tag --text f'
}

@test "-z ends lines with NUL, in every format" {
    printf abc > f
    same 'md5sum -z f; md5sum -zb f; md5sum -z --tag f; md5sum --zero f - < f'
}

@test "short options can be bundled" {
    printf abc > f
    same 'md5sum -bz f; md5sum -zb f; md5sum -zt f'
}

@test "long options can be abbreviated" {
    printf abc > f
    same 'md5sum --ta f; md5sum --bin f; md5sum --b f; md5sum --te f; md5sum --ze f'
}

@test "repeating an option is allowed" {
    printf abc > f
    same 'md5sum -z -z f; md5sum --tag --tag --binary -b f'
}

@test "character devices, FIFOs and symlinks are read like files" {
    printf abc > f; ln -s f link; mkfifo fifo
    same 'md5sum /dev/null link'
    same '(printf hello > fifo &) ; md5sum fifo'
}

@test "procfs files, whose size says 0, are read to their end among other files" {
    # procfs makes such a file as it is read, a page or so a read: a short
    # read is not its end.  Read first (the caller opens them) and past the
    # 64th input (a hasher opens them by name), hashing and -c.
    local f procs=()
    for f in /proc/crypto /proc/kallsyms; do
        [ "$(stat -c %s "$f" 2>/dev/null)" = 0 ] && [ "$(head -c 9000 "$f" 2>/dev/null | wc -c)" = 9000 ] &&
            procs+=("$f")
    done
    [ ${#procs[@]} -gt 0 ] || skip "no procfs file of more than 8 KiB to read here"
    make_files count=70 max=300000
    local names=("${procs[@]}" f[0-9]* "${procs[@]}")
    printf '%s\n' "${names[@]}" > names
    "$GNU_MD5SUM" "${names[@]}" > list
    same_jobs "1 2 8" 'md5sum $(cat names); md5sum -c list | grep -v ": OK$"; echo "exit $?"'
}

@test "a slow writer on a pipe is read to the end" {
    same '{ printf a; sleep 0.2; printf b; sleep 0.2; printf c; } | md5sum'
}

@test "standard input that is a terminal is read to end of file" {
    command -v script >/dev/null || skip "script(1) is not installed"
    # script(1) runs md5sum on a pseudo-terminal; ^D ends the input.
    same 'printf "abc\n\004" | script -qec md5sum /dev/null'
}

@test "a sparse file over 4 GiB: sizes and offsets past 32 bits" {
    # The 32-bit leg (i686) is where they matter; the other qemu legs are
    # 64-bit, as the native one, and hashing 4 GiB there costs up to 45 s.
    case ${EXEC_WRAPPER:-} in
    *qemu-aarch64* | *qemu-s390x*) skip "a 64-bit leg under qemu: the native leg runs it" ;;
    esac
    truncate -s 4294967297 big
    printf end >> big
    # GNU md5sum 9.1's line for this file, computed once (it takes GNU 15 s
    # here, ours 6 s natively and 9-43 s under qemu): with MD5SUM_SLOW_TESTS=1
    # GNU computes it again.
    local want='943bee530b1e7a2e4d839ec1afefd784  big'
    [ "${MD5SUM_SLOW_TESTS:-0}" != 1 ] || want=$("$GNU_MD5SUM" big)
    run ours 'md5sum big'
    assert_success
    assert_output "$want"
}
