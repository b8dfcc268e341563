#!/usr/bin/env bats
# Errors on one operand are reported, processing goes on, the status is 1.
load '../helpers'

@test "a missing file is reported and the next operands are still hashed" {
    printf abc > f
    same 'md5sum nosuch f nodir/f f'
}

@test "a directory opens but fails to read: Is a directory" {
    mkdir d; printf abc > f
    same 'md5sum d f'
}

@test "a dangling symlink and a symlink loop" {
    ln -s nowhere dangling; ln -s loop2 loop1; ln -s loop1 loop2; printf abc > f
    same 'md5sum dangling loop1 f'
}

@test "a path through a regular file: Not a directory" {
    printf abc > f
    same 'md5sum f/x f'
}

@test "a name that is too long: File name too long" {
    printf abc > f
    same 'md5sum "$(printf "%0300d" 0)" f'
    same 'md5sum "$(printf "%05000d" 0 | sed "s/0000000000/d\//g")" f'
}

@test "the empty operand: No such file or directory" {
    printf abc > f
    same 'md5sum "" f'
}

@test "permission denied, as an unprivileged user" {
    [ "$(id -u)" != 0 ] || command -v setpriv >/dev/null || skip "setpriv is missing"
    open_to_nobody
    printf abc > secret; chmod 000 secret; printf abc > f; chmod 644 f
    RUN_AS=as_nobody same 'md5sum secret f'
    grep -q "secret: Permission denied" "$BATS_TEST_TMPDIR/ours.err"
    mkdir locked; chmod 000 locked
    RUN_AS=as_nobody same 'md5sum locked/x f'
    grep -q "locked/x: Permission denied" "$BATS_TEST_TMPDIR/ours.err"
}

@test "an I/O error while reading: Input/output error" {
    # Reading /proc/self/mem at offset 0 fails with EIO.
    printf abc > f
    same 'md5sum /proc/self/mem f'
}

@test "standard input that is a directory" {
    mkdir d; printf abc > f
    same 'md5sum < d'
    same 'md5sum - f - < d'
}

@test "closed standard input: the read fails and so does closing it" {
    ! under_valgrind || skip "a closed descriptor is not closed under valgrind (helpers.bash)"
    printf abc > f
    same 'md5sum <&-'
    same 'md5sum - f <&-'
}

@test "closed standard input is fine when it is not used" {
    printf abc > f
    same 'md5sum f <&-'
}

@test "files opened while stdin is closed do not become standard input" {
    ! under_valgrind || skip "a closed descriptor is not closed under valgrind (helpers.bash)"
    printf abc > f
    same 'md5sum f - <&-'
}

@test "errors and results keep their order when stdout and stderr are merged" {
    printf abc > f; mkdir d
    same_merged 'md5sum f nosuch f d f'
    same_merged 'md5sum -z f nosuch f'
}
