#!/usr/bin/env bats
# Files that shrink or grow while md5sum reads them: the result is the digest
# of the bytes read(2) gives, that is GNU md5sum's digest of the file as it
# ends up, and the next operand is still hashed.  The change is made at a
# known point by tests/fault/fault_preload.c: just before the first read
# that reaches past a given offset (two files: read in chunks of 128 KiB
# by their hasher, or by the reader in order when the storage must wait).
load '../helpers'

setup_resize() {
    need_preload
    require_gnu
    head -c 1048576 /dev/urandom > chunk
}

# resize SIZE AT NEWSIZE [OPTIONS]: a SIZE-byte file f that becomes NEWSIZE
# bytes when ours first reads past offset AT (NEWSIZE >= AT, so nothing read
# so far is cut off); compare with GNU's output for the file as it ends up.
resize() {
    head -c "$1" /dev/zero | tr '\0' x > f
    cat chunk >> f; truncate -s "$1" f
    printf abc > g
    RESIZE_PATH=f RESIZE_AT=$2 RESIZE_TO=$3 LD_PRELOAD=$preload "$MD5SUM" ${4:-} f g > ours.out 2> ours.err
    echo "exit $?" >> ours.err
    [ "$(stat -c %s f)" -eq "$3" ]
    "$GNU_MD5SUM" f g > gnu.out 2> gnu.err
    echo "exit $?" >> gnu.err
    diff gnu.out ours.out
    diff gnu.err ours.err
}

@test "a large file that shrinks before its first chunk is read" {
    setup_resize
    resize 5242993 0 3145828
}

@test "a large file that shrinks to nothing" {
    setup_resize
    resize 5242993 0 0
}

@test "a large file that shrinks inside a chunk it has not read yet" {
    setup_resize
    resize 5242993 1048576 1300000
}

@test "a large file that shrinks to a chunk boundary" {
    setup_resize
    resize 20971520 2097152 10485760
}

@test "a large file that grows: the appended bytes are hashed too" {
    setup_resize
    resize 5242880 4194304 7340037
}

@test "a large file that grows, on one thread" {
    setup_resize
    resize 5242880 4194304 7340037 -j1
}

@test "a large file that shrinks, on one thread" {
    setup_resize
    resize 5242993 1048576 1300000 -j1
}

# A file of a page or less is read by its hasher into a small buffer of its
# own (hasher.c); one that grew meanwhile is read on from there.
# resize_small SIZE NEWSIZE [OPTIONS]: as resize, the read that changes f
# its first, f before 100 files of 4 KiB, so that a hasher takes it (two
# inputs alone would be hashed plainly).
resize_small() {
    local i
    for ((i = 10; i < 110; i++)); do head -c 4096 /dev/urandom > "p$i"; done
    head -c "$1" /dev/urandom > f
    RESIZE_PATH=f RESIZE_AT=0 RESIZE_TO=$2 LD_PRELOAD=$preload "$MD5SUM" ${3:-} f p* > ours.out 2> ours.err
    echo "exit $?" >> ours.err
    [ "$(stat -c %s f)" -eq "$2" ]
    "$GNU_MD5SUM" f p* > gnu.out 2> gnu.err
    echo "exit $?" >> gnu.err
    diff gnu.out ours.out
    diff gnu.err ours.err
}

@test "a small file that grows past a page before it is read" {
    setup_resize
    resize_small 3000 200000
    resize_small 4096 4161
}

@test "a small file that grows by less than a block, or shrinks, before it is read" {
    setup_resize
    resize_small 4000 4100
    resize_small 4000 10
}

@test "a small file that grows past a page, on one thread" {
    setup_resize
    resize_small 3000 200000 -j1
}
