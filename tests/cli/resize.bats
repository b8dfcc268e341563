#!/usr/bin/env bats
# Files that shrink or grow while md5sum hashes them through mmap: the result
# is the digest of the bytes read(2) would give, that is GNU md5sum's digest of
# the file as it ends up, and the next operand is still hashed.  The change is
# made at a known point by tests/fault/resize_preload.c, just before the first
# mmap of a file (files over 2 MiB are mapped).
load '../helpers'

setup_resize() {
    [ -z "${EXEC_WRAPPER:-}" ] || skip "LD_PRELOAD cannot reach a program run by qemu"
    PRELOAD=$(dirname "$MD5SUM")/resize_preload.so
    [ -f "$PRELOAD" ] || skip "$PRELOAD is not built (make check builds it)"
    require_gnu
    head -c 1048576 /dev/urandom > chunk
}

# resize SIZE NEWSIZE: a SIZE-byte file f that becomes NEWSIZE bytes while ours
# hashes it; compare with GNU's output for the file as it ends up.
resize() {
    head -c "$1" /dev/zero | tr '\0' x > f
    cat chunk >> f; truncate -s "$1" f
    printf abc > g
    RESIZE_PATH=f RESIZE_TO=$2 LD_PRELOAD=$PRELOAD "$MD5SUM" f g > ours.out 2> ours.err
    echo "exit $?" >> ours.err
    [ "$(stat -c %s f)" -eq "$2" ]
    "$GNU_MD5SUM" f g > gnu.out 2> gnu.err
    echo "exit $?" >> gnu.err
    diff gnu.out ours.out
    diff gnu.err ours.err
}

@test "a mapped file that shrinks to inside the first window" {
    setup_resize
    resize 5242993 3145828
}

@test "a mapped file that shrinks inside its last page (no SIGBUS there)" {
    setup_resize
    resize 5242993 5242930
}

@test "a mapped file that shrinks to nothing" {
    setup_resize
    resize 5242993 0
}

@test "a mapped file that shrinks into its second window" {
    setup_resize
    resize 20971520 10485767
}

@test "a mapped file that grows: the appended bytes are hashed too" {
    setup_resize
    resize 5242880 7340037
}
