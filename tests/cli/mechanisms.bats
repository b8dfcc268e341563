#!/usr/bin/env bats
# Each mechanism of the engine, shown at work by the counters it prints at
# exit under MD5SUM_ENGINE_STATS (src/engine.c), with the output compared
# with GNU's in the same test.  Each test fails when its mechanism is
# switched off (docs/RELIABILITY.md lists which change each one catches).
load '../helpers'

# stats ARGS...: run our md5sum with ARGS in counting mode (output to
# /dev/null; after the shell commands in $STATS_SETUP, if set) and set THREADS INLINE PLAIN READER PRE_READ HASHERS LATER COLD WARM
# FD_WAITS GAVE_BACK TAKEN_BACK OPENED HANDED EARLY LANE_HASHED LANE_OFFERED HELD_BACK
# STREAMS FED TOLD from its last line on stderr.
stats() {
    local line
    # Only 0-2 open (bats keeps others), as the limits in STATS_SETUP expect.
    MD5SUM_ENGINE_STATS=1 bash -c 'exec 2> "$1" > /dev/null; shift
        for f in /proc/$$/fd/*; do n=${f##*/}; [ "$n" -le 2 ] || eval "exec $n>&-"; done
        '"${STATS_SETUP:-}"'
        exec "$@"' _ "$BATS_TEST_TMPDIR/stats" "$MD5SUM" "$@" || true
    line=$(tail -n 1 "$BATS_TEST_TMPDIR/stats")
    echo "$line"
    [[ $line =~ ^md5sum\ engine:\ threads\ ([0-9]+),\ inline\ ([01]),\ plain\ ([0-9]+),\ reader\ ([0-9]+),\ pre-read\ ([0-9]+),\ hashers\ ([0-9]+),\ later\ ([0-9]+),\ cold\ ([0-9]+),\ warm\ ([0-9]+),\ fd\ waits\ ([0-9]+),\ gave\ back\ ([0-9]+),\ taken\ back\ ([0-9]+),\ opened\ by\ hashers\ ([0-9]+),\ handed\ back\ ([0-9]+),\ taken\ early\ ([0-9]+),\ lane\ blocks\ ([0-9]+)\ of\ ([0-9]+),\ held\ back\ ([0-9]+),\ streams\ read\ ahead\ ([0-9]+),\ fed\ ([0-9]+),\ told\ ([0-9]+),\ wakes\ ([0-9]+)$ ]] ||
        { echo "no counters in: $line"; return 1; }
    THREADS=${BASH_REMATCH[1]} INLINE=${BASH_REMATCH[2]} PLAIN=${BASH_REMATCH[3]}
    READER=${BASH_REMATCH[4]} PRE_READ=${BASH_REMATCH[5]} HASHERS=${BASH_REMATCH[6]}
    LATER=${BASH_REMATCH[7]} COLD=${BASH_REMATCH[8]} WARM=${BASH_REMATCH[9]}
    FD_WAITS=${BASH_REMATCH[10]} GAVE_BACK=${BASH_REMATCH[11]} TAKEN_BACK=${BASH_REMATCH[12]}
    OPENED=${BASH_REMATCH[13]} HANDED=${BASH_REMATCH[14]} EARLY=${BASH_REMATCH[15]}
    LANE_HASHED=${BASH_REMATCH[16]} LANE_OFFERED=${BASH_REMATCH[17]} HELD_BACK=${BASH_REMATCH[18]}
    STREAMS=${BASH_REMATCH[19]} FED=${BASH_REMATCH[20]} TOLD=${BASH_REMATCH[21]}
    WAKES=${BASH_REMATCH[22]}
}

# files N SIZE [PREFIX]: N files of SIZE random bytes.
files() {
    local i
    for ((i = 0; i < $1; i++)); do head -c "$2" /dev/urandom > "${3:-f}$i"; done
}

# warm FILE...: in the page cache.  cold [-r OFFSET:LENGTH] FILE...: out of
# it, or only those bytes (written back first: dirty pages cannot be
# dropped; tests/fault/evict.c); a test that needs it is skipped where the
# files are on tmpfs (a /tmp of Debian 13's), whose pages are the files
# themselves.
warm() { cat "$@" > /dev/null; }
cold() {
    [ "$(stat -f -c %T "${@: -1}")" != tmpfs ] || skip "files on tmpfs cannot be taken out of memory"
    "$(dirname "$MD5SUM")/evict" "$@"
}

cpus() { nproc; }

# What a test mounted, and its directory outside $BATS_TEST_TMPDIR (on
# tmpfs): unmounted and removed however the test ends.
teardown() {
    [ -z "${CG:-}" ] || rmdir "$CG"
    [ -z "${OVERLAY:-}" ] || umount "$OVERLAY"
    [ -z "${FUSE_MNT:-}" ] || umount "$FUSE_MNT"
    [ -z "${SHM_DIR:-}" ] || rm -rf "$SHM_DIR"
    cd "$BATS_TEST_TMPDIR" || return 1
    [ -z "${LOOP_MNT:-}" ] || umount "$LOOP_MNT"
    [ -z "${LOOP:-}" ] || losetup -d "$LOOP"
}

@test "a lone file up to 16 MiB is hashed plainly, no thread started" {
    files 1 3000000
    same 'md5sum f0'
    stats f0
    [ "$THREADS" = 0 ]
    [ "$INLINE" = 0 ]
    [ "$PLAIN" = 1 ]
}

# read_alone BYTES: the counters of a run in which the reader read all
# BYTES of a lone input ahead for one hasher, which only hashed.
read_alone() {
    [ "$THREADS" -ge 1 ]
    [ "$PLAIN" = 0 ]
    [ "$READER" = "$1" ]
    [ "$HASHERS" = 0 ]
}

@test "a lone larger file from the storage: the reader reads it ahead, one hasher only hashes" {
    files 1 20000000
    same 'md5sum f0'
    cold f0
    stats -j2 f0
    read_alone 20000000
    # Given to the reader as it is taken, alone: its hasher never asked the
    # storage for it (it would, and find it cold, if left to read it).
    [ "$LATER" = 0 ]
}

@test "a lone larger file in the page cache: read ahead by the reader too, one hasher only hashes; -j1 plainly" {
    files 1 20000000
    same 'md5sum f0'
    # The copy from the page cache is the reader's, on another CPU, as from
    # the storage; with -j1, a plain loop.
    warm f0
    stats -j2 f0
    read_alone 20000000
    warm f0
    stats -j1 f0
    [ "$THREADS" = 0 ]
    [ "$INLINE" = 0 ]
    [ "$PLAIN" = 1 ]
}

@test "few large inputs in the page cache: one hasher hashes them side by side, the reader reads them ahead; -j1, or from the storage, as before" {
    files 3 17000000
    same 'md5sum f*'
    # A lane's chain bounds them, whatever the hasher: the second would
    # only double the CPU time, and the copy is the reader's, on another CPU.
    warm f*
    stats -j2 f*
    [ "$THREADS" -ge 1 ]
    # Where there are no lane kernels, three are not hashed side by side.
    if "$MD5SUM" --version | grep -q '^Many-file lane kernels: none'; then
        [ "$FED" = 0 ]
    else
        [ "$FED" = 3 ]
        [ "$READER" = $((3 * 17000000)) ]
        [ "$HASHERS" = 0 ]
    fi
    warm f*
    stats -j1 f*
    [ "$INLINE" = 1 ]
    [ "$FED" = 0 ]
    # From the storage, they are read in order, one after another, as any.
    cold f*
    stats -j2 f*
    [ "$FED" = 0 ]
}

@test "warm inputs are read by their hashers, the reader at most the last" {
    files 64 300000
    same 'md5sum f*'
    warm f*
    stats -j2 f*
    [ "$COLD" = 0 ]
    # The last input, if a hasher with nothing else takes it, is a lone one:
    # the reader reads it ahead.
    [ "$READER" = 0 ] || [ "$READER" = 300000 ]
    [ "$HASHERS" = $((64 * 300000 - READER)) ]
}

# slow_list FILE N: 2 x N lines checking FILE, the first N at once, then
# a line each 10 ms, as a list written while it is read: once the burst
# has started the lanes, each later input reaches them alone.
slow_list() {
    local h i
    h=$("$GNU_MD5SUM" < "$1" | cut -c1-32)
    yes "$h  $1" | head -n "$2"   # one write
    for ((i = 0; i < $2; i++)); do
        echo "$h  $1"
        sleep 0.01
    done
}

@test "a lone input of one chunk is read by its hasher, a larger one read ahead by the reader" {
    files 1 3000 s
    files 1 100000 m
    files 1 300000 l
    same 'md5sum s0 m0 l0'
    warm s0 m0 l0
    slow_list s0 100 > list
    same 'md5sum -c list'
    # The trickle's inputs are opened by name, by the hashers (past the
    # first 64 of a sequence): the size learnt then settles it.  (Those
    # the caller opens, their size known, it mostly hashes itself rather
    # than wake a hasher: TAKEN_BACK.)
    stats -j2 -c - < <(slow_list s0 100)
    [ "$THREADS" = 2 ]
    [ "$OPENED" -ge 50 ]
    [ "$READER" = 0 ]
    [ $((HASHERS + 3000 * PLAIN)) = $((200 * 3000)) ]
    # Inputs the caller opens, too large to hash itself: the size known as
    # each is taken settles it.
    stats -j2 -c - < <(slow_list m0 30)
    [ "$THREADS" = 2 ]
    [ "$OPENED" = 0 ]
    [ "$READER" = 0 ]
    [ "$HASHERS" = $((60 * 100000)) ]
    # A lone input of more than a chunk is still read ahead.
    stats -j2 -c - < <(slow_list l0 30)
    [ "$THREADS" = 2 ]
    [ "$READER" -ge $((15 * 300000)) ]
}

@test "cold inputs: the reader reads them, in order, and each hasher asks the storage once at most" {
    need_preload
    files 40 1000000
    cold f*
    same 'md5sum f*'
    # On a disk, whatever this machine's says (storage without seeks is
    # also asked for the inputs ahead: below).
    local STATS_SETUP="export LD_PRELOAD=$preload ROTATIONAL=1"
    cold f*
    stats -j2 f*
    [ "$COLD" -ge 1 ]
    [ "$LATER" -ge 1 ]
    [ "$LATER" -le "$THREADS" ]
    [ "$WARM" = 0 ]
    # Hashers on threads: all but what they read before the first miss is
    # pre-read, for the page cache, in order, and read again by the hashers,
    # behind the pre-reader (the inputs they had taken too): nothing read
    # into buffers but maybe the last input, alone in its hasher's lanes.
    [ "$PRE_READ" -ge $((38 * 1000000)) ]
    [ "$READER" -le 1000000 ]
    [ "$HASHERS" -gt 0 ]
    # One hasher, in this thread: the reader reads it into the buffers.
    cold f*
    stats -j1 f*
    [ "$COLD" -ge 1 ]
    [ "$LATER" = 1 ]
    [ "$PRE_READ" = 0 ]
    [ "$READER" -ge $((38 * 1000000)) ]
}

# cold_small_wakes [SETUP]: 600 files of 4 KiB hashed from a cold cache
# with -j2 on a disk (as tests/fault makes it say), after SETUP: the run is
# cold, and its hashers are woken a batch of inputs at a time (one wake-up
# for each input with the rule off: 569-601, 2026-12-07, Xeon).  Under
# twice the flow's 256 inputs in descriptors no hasher opens an input by
# name (engine.c): those opened so before the run turns cold would be read
# into buffers by the reader, a wake-up each, up to 192 of them here.
cold_small_wakes() {
    files 600 4096
    local STATS_SETUP="${1:-}${1:+; }export LD_PRELOAD=$preload ROTATIONAL=1; ulimit -n 500"
    cold f*
    stats -j2 f*
    [ "$COLD" -ge 1 ]
    [ "$OPENED" = 0 ]
    [ "$WAKES" -le 150 ]
}

@test "cold small inputs wake a hasher a batch at a time, not one each as they are pre-read" {
    need_preload
    cold_small_wakes
    [ "$PRE_READ" -ge $((500 * 4096)) ]
}

@test "cold small inputs read by the reader into buffers (a cgroup's memory leaves no room to pre-read) wake a hasher a batch at a time too" {
    [ -z "${MD5SUM_SANITIZED:-}" ] || skip "sanitizers' shadow memory is charged to the cgroup"
    ! under_valgrind || skip "valgrind's memory is charged to the cgroup (helpers.bash)"
    need_preload
    own_cgroup memory
    memory_limit 256
    cold_small_wakes "echo \$\$ > $CG/cgroup.procs"
    [ "$PRE_READ" = 0 ]
    [ "$READER" -ge $((500 * 4096)) ]
}

@test "storage without seeks is asked for the small inputs ahead of the reader, a disk for nothing out of order, as the disk says (made to say it by tests/fault)" {
    need_preload
    files 300 3000
    cold f*
    same "ROTATIONAL=0 LD_PRELOAD=$preload md5sum f*"
    local STATS_SETUP="export LD_PRELOAD=$preload ROTATIONAL=0"
    cold f*
    stats -j1 f*
    [ "$TOLD" -ge 250 ]
    [ "$WARM" = 0 ]
    STATS_SETUP="export LD_PRELOAD=$preload ROTATIONAL=1"
    cold f*
    stats -j1 f*
    [ "$COLD" -ge 1 ]
    [ "$TOLD" = 0 ]
}

# Storage without seeks (a loop device whose flag says it does not rotate,
# under a file system of type FS, made by mkfs.FS with ARGS) is asked for
# the small inputs ahead of the reader; a disk that rotates, for nothing out
# of order.
asked_ahead_on_loop() { # FS ARGS...
    local fs=$1
    shift
    [ "$(id -u)" = 0 ] || skip "a file system on a loop device needs root"
    command -v losetup > /dev/null && command -v "mkfs.$fs" > /dev/null || skip "losetup or mkfs.$fs missing"
    truncate -s 128M "$BATS_TEST_TMPDIR/disk"
    "mkfs.$fs" "$@" "$BATS_TEST_TMPDIR/disk"
    LOOP=$(losetup -f --show "$BATS_TEST_TMPDIR/disk") || skip "no loop device to be had"
    mkdir "$BATS_TEST_TMPDIR/mnt"
    mount "$LOOP" "$BATS_TEST_TMPDIR/mnt" || skip "no mount of a loop device here"
    LOOP_MNT=$BATS_TEST_TMPDIR/mnt
    local flag=/sys/block/${LOOP#/dev/}/queue/rotational
    cd "$LOOP_MNT" || return 1
    files 300 3000
    echo 0 > "$flag"
    cold f*
    same 'md5sum f*'
    # -j1: every input opened by the caller, each told but those the reader
    # had started; with hashers on threads, only those not opened by them.
    # Found in memory because they were asked for, they do not turn the run
    # warm (and hashers open by name only while it is).
    cold f*
    stats -j1 f*
    [ "$COLD" -ge 1 ]
    [ "$TOLD" -ge 250 ]
    [ "$WARM" = 0 ]
    cold f*
    stats -j2 f*
    [ "$TOLD" -ge 1 ]
    [ "$WARM" = 0 ]
    echo 1 > "$flag"
    cold f*
    same 'md5sum f*'
    cold f*
    stats -j1 f*
    [ "$COLD" -ge 1 ]
    [ "$TOLD" = 0 ]
    cold f*
    stats -j2 f*
    [ "$TOLD" = 0 ]
}

@test "storage without seeks (a disk that says it does not rotate) is asked for the small inputs ahead of the reader; a disk that rotates, for nothing out of order" {
    asked_ahead_on_loop ext4 -q -F
}

@test "the same under btrfs, whose files' device numbers name no device: the one it was mounted from says (mountinfo)" {
    asked_ahead_on_loop btrfs -q -f
}

@test "a cold run turns warm again once the reader finds inputs in memory" {
    # More inputs than the lanes hold: those not yet taken when the run
    # turns cold are what the reader finds in memory again.
    files 8 1000000 a
    files 200 100000 b
    cold a*
    warm b*
    same 'md5sum a* b*'
    cold a*
    warm b*
    stats -j2 a* b*
    [ "$COLD" -ge 1 ]
    [ "$WARM" -ge 1 ]
    [ "$HASHERS" -gt 0 ]
}

@test "in the page cache but for a few pages: hashers read on where it holds their inputs, the storage is asked only for the holes" {
    # More inputs than the lanes hold (each opened by the caller: a
    # megabyte), two of the first with their second chunk out of memory:
    # the run turns cold there.
    files 110 1048576
    same 'md5sum f*'
    warm f*
    cold -r 131072:131072 f1 f2
    stats -j2 f*
    [ "$COLD" -ge 1 ]
    # The inputs in the lanes go on being read by their hashers, each chunk
    # once the page cache tells it holds it: the reader reads the two from
    # their holes on (and maybe the last input, alone in its hasher's
    # lanes), not every input in flight.
    [ "$READER" -le $((2 * (1048576 - 131072) + 1048576)) ]
    # The inputs not yet taken are pre-read only from where the page cache
    # lacks them: at most the two from their holes on, not every input until
    # the run turns warm.
    [ "$PRE_READ" -le $((2 * (1048576 - 131072))) ]
}

@test "a hole a hasher finds in an input the page cache holds otherwise is asked of the storage at once; nothing of a cold input is" {
    local preload path off len
    local -a mid start
    need_preload
    files 110 1048576
    "$GNU_MD5SUM" f* > want
    # Holes in inputs the hashers take while the run is warm (the first
    # few): in the second chunk of 20 (what came before read from memory),
    # in the first of 10 (all that comes after in memory).  Each is told to
    # the storage (WILLNEED, logged by tests/fault/fault_preload.c) as a
    # hasher finds it, or asked for by the read that found it, where the run
    # turns cold.  With -j1, so that the one hasher takes them all (48
    # lanes) before it reads any: with hashers on threads, one that woke
    # early could read a hole before the rest were taken, and they were
    # then taken cold, read by the reader (a CI run on a loaded machine).
    set -- f*
    mid=("${@:3:20}")
    start=("${@:23:10}")
    warm f*
    cold -r 131072:131072 "${mid[@]}"
    cold -r 0:131072 "${start[@]}"
    FADVISE_LOG=$PWD/log LD_PRELOAD=$preload ROTATIONAL=1 "$MD5SUM" -j1 f* > got
    cmp want got
    grep WILLNEED log > hints || true
    cat hints
    while read -r path off len _; do
        { printf '%s\n' "${mid[@]}" | grep -qx "${path##*/}" && [ "$off" = 131072 ]; } ||
            { printf '%s\n' "${start[@]}" | grep -qx "${path##*/}" && [ "$off" = 0 ]; } ||
            { echo "not a hole: $path $off"; return 1; }
        [ "$len" = 131072 ]
    done < hints
    grep -q ' 131072 131072 WILLNEED$' hints
    grep -q ' 0 131072 WILLNEED$' hints
    # A cold set is asked for in order, by the reader's reads alone: no hint
    # of where a hasher found an input missing, whether more of the input
    # comes after that chunk or not (inputs of one chunk among the first).
    # Both on a disk (ROTATIONAL=1), whatever this machine's says: storage
    # without seeks is also asked for the inputs ahead.
    files 30 4096 a
    "$GNU_MD5SUM" a* f* > want
    cold a* f*
    rm log
    FADVISE_LOG=$PWD/log LD_PRELOAD=$preload ROTATIONAL=1 "$MD5SUM" -j2 a* f* > got
    cmp want got
    ! grep WILLNEED log
}

@test "a file system that cannot read without waiting (tmpfs, ext2, FUSE): warm inputs still read by their hashers, cold ones by the reader" {
    need_preload
    files 64 300000
    # Every read that must not wait is refused, as tmpfs refuses it
    # (tests/fault/fault_preload.c): the page cache is asked instead.
    same "NOWAIT_UNSUPPORTED=1 LD_PRELOAD=$preload md5sum f*"
    warm f*
    STATS_SETUP="export NOWAIT_UNSUPPORTED=1 LD_PRELOAD=$preload" stats -j2 f*
    [ "$COLD" = 0 ]
    [ "$LATER" = 0 ]
    [ "$READER" = 0 ] || [ "$READER" = 300000 ]
    [ "$HASHERS" = $((64 * 300000 - READER)) ]
    # The page cache is asked once an input, not once a chunk: eight inputs
    # of 16 chunks, at most 32 cachestat calls (the engine asks of large
    # inputs too) where each chunk would make 128 more.
    if command -v strace >/dev/null; then
        files 8 2000000 g
        warm g*
        strace -f -E LD_PRELOAD="$preload" -E NOWAIT_UNSUPPORTED=1 -o trace.txt "$MD5SUM" -j2 g* > /dev/null
        local asked
        asked=$(grep -cE '(syscall_0x1c3|cachestat)\(' trace.txt || true)
        echo "cachestat calls: $asked"
        [ "$asked" -ge 8 ]
        [ "$asked" -le 32 ]
        rm g* trace.txt
    fi
    # Not in memory: a disk still sees one stream, in order.
    cold f*
    STATS_SETUP="export NOWAIT_UNSUPPORTED=1 LD_PRELOAD=$preload ROTATIONAL=1" stats -j2 f*
    [ "$COLD" -ge 1 ]
    [ "$LATER" -ge 1 ]
    [ "$LATER" -le "$THREADS" ]
    [ $((READER + PRE_READ)) -ge $((60 * 300000)) ]
}

@test "files on tmpfs in the page cache are read by the hashers, as on any other file system" {
    local shm=/dev/shm
    [ -d "$shm" ] && [ -w "$shm" ] && [ "$(stat -f -c %T "$shm")" = tmpfs ] || skip "no writable tmpfs at /dev/shm"
    SHM_DIR=$(mktemp -d "$shm/md5sum-test.XXXXXX")
    ( cd "$SHM_DIR" && files 64 300000 )
    same "md5sum $SHM_DIR/f*"
    stats -j2 "$SHM_DIR"/f*
    [ "$COLD" = 0 ]
    [ "$READER" = 0 ] || [ "$READER" = 300000 ]
    [ "$HASHERS" = $((64 * 300000 - READER)) ]
}

@test "Linux before 6.5, no cachestat (or a seccomp filter refusing it): the page cache is asked through mappings (mincore), every mechanism that asks it still works" {
    local preload setup how
    need_preload
    # More inputs than the lanes hold: those not yet taken when the run
    # turns cold are what the reader finds in memory again.
    files 200 100000
    # ENOSYS, as on Linux 6.1; EPERM, as from Docker's older filter.
    for how in ENOSYS EPERM; do
        setup="export CACHESTAT_UNSUPPORTED=$how LD_PRELOAD=$preload"
        same "CACHESTAT_UNSUPPORTED=$how LD_PRELOAD=$preload md5sum f*"
        # Warm inputs: read by their hashers; a cold run turns warm again.
        warm f*
        STATS_SETUP="$setup NOWAIT_UNSUPPORTED=1" stats -j2 f*
        [ "$COLD" = 0 ]
        [ "$HASHERS" = $((200 * 100000 - READER)) ]
        cold f0 f1 f2 f3
        STATS_SETUP=$setup stats -j2 f*
        [ "$COLD" -ge 1 ]
        [ "$WARM" -ge 1 ]
    done
}

@test "a file system where nothing tells what the page cache holds (no RWF_NOWAIT, no cachestat, no mappings): read in order by the reader, as from a disk" {
    local preload setup
    need_preload
    files 64 300000
    "$GNU_MD5SUM" f* > list
    # As on a FUSE file system reading directly (direct_io) under Linux
    # before 6.5: a hasher's read that never waits is refused, and neither
    # cachestat nor mincore (which needs a mapping) can say what is cached.
    setup="NOWAIT_UNSUPPORTED=1 CACHESTAT_UNSUPPORTED=ENOSYS MMAP_UNSUPPORTED=1 LD_PRELOAD=$preload"
    same "$setup md5sum f*"
    same "$setup md5sum -c list"
    warm f*
    STATS_SETUP="export $setup" stats -j2 f*
    [ "$COLD" = 1 ]
    [ "$WARM" = 0 ]
    [ "$HASHERS" = 0 ]
}

@test "overlayfs, as in a container: files in the page cache are read by the hashers" {
    [ "$(id -u)" = 0 ] || skip "mounting an overlay needs root"
    mkdir lower upper work merged
    ( cd lower && files 64 300000 )
    mount -t overlay overlay -o lowerdir=lower,upperdir=upper,workdir=work merged 2>/dev/null ||
        skip "overlayfs cannot be mounted here"
    OVERLAY=$PWD/merged
    same "md5sum merged/f*"
    warm merged/f*
    stats -j2 merged/f*
    [ "$COLD" = 0 ]
    [ "$READER" = 0 ] || [ "$READER" = 300000 ]
    [ "$HASHERS" = $((64 * 300000 - READER)) ]
    cold lower/f*
    stats -j2 merged/f*
    [ "$COLD" -ge 1 ]
    [ $((READER + PRE_READ)) -ge $((60 * 300000)) ]
}

@test "a FUSE file system (bindfs): every result as GNU's, warm and cold, many files and a lone large one" {
    [ "$(id -u)" = 0 ] || skip "mounting bindfs needs root"
    command -v bindfs > /dev/null || skip "bindfs is not installed (apt-get install bindfs)"
    # Storage of another kind: FUSE refuses reads that never wait (the page
    # cache is asked instead), and bindfs, as most FUSE file systems, drops
    # a file's pages at each open (a run here turns cold: the reader reads).
    mkdir src fuse
    ( cd src && files 70 300000 && files 1 20000000 big )
    bindfs src fuse 2>/dev/null || skip "FUSE cannot be mounted here"
    FUSE_MNT=$PWD/fuse
    "$GNU_MD5SUM" fuse/f* > list
    local j
    for j in $(job_counts 1 2 8); do
        ours_jobs "$j"
        same 'md5sum fuse/f*'
        same 'md5sum -c list'
        same 'md5sum fuse/big0'
        cold src/*
        same 'md5sum fuse/f* fuse/big0'
    done
}

@test "-j1: one hasher in this thread, lanes all the same" {
    files 64 100000
    same 'md5sum f*'
    warm f*
    stats -j1 f*
    [ "$THREADS" = 0 ]
    [ "$INLINE" = 1 ]
    [ "$HASHERS" = $((64 * 100000)) ]
    # Occupancy counted: every block of the files (and their padding) went
    # through the lanes; equal files keep them all busy but for the ends.
    [ $((LANE_HASHED * 64)) -ge $((64 * 100000)) ]
    [ "$LANE_HASHED" -le "$LANE_OFFERED" ]
    [ $((LANE_HASHED * 10)) -ge $((LANE_OFFERED * 9)) ]
}

@test "the lanes' occupancy counts the idle lanes of a kernel wider than the inputs in flight" {
    files 3 1000000
    same 'md5sum f*'
    warm f*
    stats -j1 f*
    [ "$HASHERS" = $((3 * 1000000)) ]
    # Every block of the three (and their padding) went through the lanes.
    [ "$LANE_HASHED" = $((3 * (1000000 / 64 + 1))) ]
    # Three in flight run on a kernel of 8 lanes or more, or on the MD5 core
    # alone (one lane a message) where there are no lane kernels.
    if "$MD5SUM" --version | grep -q '^Many-file lane kernels: none'; then
        [ "$LANE_OFFERED" = "$LANE_HASHED" ]
    else
        [ $((LANE_HASHED * 2)) -lt "$LANE_OFFERED" ]
    fi
}

@test "long inputs beside short ones: while the longest bounds the rounds, a narrower kernel runs them" {
    files 4 6000000 v
    files 44 100000 p
    same 'md5sum v* p*'
    warm v* p*
    stats -j1 v* p*
    [ "$HASHERS" = $((4 * 6000000 + 44 * 100000)) ]
    if "$MD5SUM" --version | grep -q '^Many-file lane kernels: none'; then
        [ "$HELD_BACK" = 0 ]
        return
    fi
    # 48 in flight on the widest kernel (24 with AVX2) would take as many
    # rounds as the long ones' 94,000 blocks, each round longer: the rounds
    # run the lanes with most left in a narrower kernel instead.
    [ "$HELD_BACK" -gt 0 ]
}

@test "no more hashers than CPUs, whatever -j asks" {
    files 16 100000
    local j
    for j in 2 8 64 256; do
        stats -j$j f*
        [ "$THREADS" -le "$(cpus)" ] || { echo "-j$j: $THREADS threads on $(cpus) CPUs"; return 1; }
    done
}

@test "no affinity mask to be had (a seccomp filter): one hasher for each CPU online" {
    local online preload
    need_preload
    online=$(getconf _NPROCESSORS_ONLN)
    [ "$online" -ge 2 ] || skip "one CPU online: no thread either way"
    files 16 100000
    same "AFFINITY_UNSUPPORTED=1 LD_PRELOAD=$preload md5sum f*"
    STATS_SETUP="export AFFINITY_UNSUPPORTED=1 LD_PRELOAD=$preload" stats f*
    [ "$THREADS" = "$online" ]
}

# own_cgroup CONTROLLER: a cgroup of the test's own under CONTROLLER (cpu,
# memory), made by scripts/mkcgroup.sh: its directory in CG, its kind
# (cgroup: v1, or cgroup2) in CG_TYPE.  Skipped where none can be made.
own_cgroup() {
    [ "$(id -u)" = 0 ] || skip "making a cgroup needs root"
    local got
    got=$("$BATS_TEST_DIRNAME/../../scripts/mkcgroup.sh" "$1" "md5sum-test-$$") ||
        skip "no cgroup with the $1 controller can be made here"
    CG_TYPE=${got%% *} CG=${got#* }
}

# quota N: N CPUs of time a 100 ms period, or (none) no limit.
quota() {
    if [ "$CG_TYPE" = cgroup ]; then
        echo 100000 > "$CG/cpu.cfs_period_us"
        echo "$([ "$1" = none ] && echo -1 || echo "$1"00000)" > "$CG/cpu.cfs_quota_us"
    else
        echo "$([ "$1" = none ] && echo max || echo "$1"00000) 100000" > "$CG/cpu.max"
    fi
}
# memory_limit MIB
memory_limit() {
    echo $(($1 << 20)) > "$CG/$([ "$CG_TYPE" = cgroup ] && echo memory.limit_in_bytes || echo memory.max)"
}

@test "a cgroup's CPU quota: as many hashers as it allows, two at least, however many CPUs a container sees" {
    local in_cg n preload
    need_preload
    own_cgroup cpu
    # A container limited to a few CPUs on a host of 64 sees all 64.
    in_cg="echo \$\$ > $CG/cgroup.procs; export AFFINITY_CPUS=64 LD_PRELOAD=$preload"
    files 16 100000
    for n in 3 1 none; do
        quota $n
        same "$in_cg; md5sum f*"
        STATS_SETUP=$in_cg stats f*
        [ "$THREADS" = "$(case $n in none) echo 64 ;; 1) echo 2 ;; *) echo $n ;; esac)" ] ||
            { echo "quota $n: $THREADS threads"; return 1; }
    done
}

@test "a cgroup's memory limit: the lanes' buffers and pre-reads within what it leaves, or every file hashed plainly, as GNU" {
    [ -z "${MD5SUM_SANITIZED:-}" ] || skip "sanitizers' shadow memory is charged to the cgroup"
    ! under_valgrind || skip "valgrind's memory is charged to the cgroup (helpers.bash)"
    own_cgroup memory
    local in_cg="echo \$\$ > $CG/cgroup.procs"
    # Enough inputs to fill every lane: the lanes' buffers would take 13 MiB.
    files 100 262144
    warm f*
    memory_limit 8
    same "$in_cg; md5sum f*"
    STATS_SETUP=$in_cg stats f*
    [ "$PLAIN" = 100 ]
    [ "$THREADS" = 0 ]
    [ "$INLINE" = 0 ]
    memory_limit 256
    STATS_SETUP=$in_cg stats f*
    [ "$PLAIN" = 0 ]
    # 32 MiB leave about 20: fewer lanes, and fewer buffers for the reader
    # with them (its full 24 MiB would leave no lane at all).
    memory_limit 32
    same "$in_cg; md5sum f*"
    STATS_SETUP=$in_cg stats f*
    [ "$PLAIN" = 0 ]
    [ "$LANE_HASHED" -gt 0 ]
    # Cold, the page cache there could not hold what pre-reading would put
    # in it: the reader reads into the buffers instead.
    cold f*
    same "$in_cg; md5sum f*"
    cold f*
    STATS_SETUP=$in_cg stats f*
    [ "$PLAIN" = 0 ]
    [ "$COLD" -ge 1 ]
    [ "$PRE_READ" = 0 ]
    [ "$READER" -gt 0 ]
}

@test "an address-space limit (ulimit -v): the lanes fit with the reader's buffers fewer, as GNU" {
    [ -z "${MD5SUM_SANITIZED:-}" ] || skip "sanitizers reserve far more address space"
    ! under_valgrind || skip "valgrind reserves far more address space (helpers.bash)"
    local base lim
    files 100 262144
    warm f*
    # The least address space a plain run needs here (libraries, locale),
    # in MiB: the limits below are counted from it.
    for ((lim = 2; lim <= 128; lim++)); do
        if bash -c "ulimit -v $((lim << 10)); exec \"\$0\" -j1 f0" "$MD5SUM" > /dev/null 2>&1; then
            base=$lim
            break
        fi
    done
    [ -n "${base:-}" ]
    # 30 MiB more: the lanes at 12 a hasher and the reader's 48 buffers take
    # 28 with the 16 left to the rest (src/engine.c); the reader's full 192
    # buffers (25 MiB) would leave no room for even one lane.
    lim=$(((base + 30) << 10))
    ours_jobs 2
    same "ulimit -v $lim; md5sum f*"
    STATS_SETUP="ulimit -v $lim" stats -j2 f*
    [ "$PLAIN" = 0 ]
    [ "$LANE_HASHED" -gt 0 ]
}

@test "threads that cannot be made: the lanes run on those that could, or in the caller's thread" {
    local preload
    need_preload
    [ "$(cpus)" -ge 2 ] || skip "one CPU: no thread is started to fail"
    # ThreadSanitizer starts a thread of its own at md5sum's first
    # pthread_create, through the preload's: the count is not ours (THREADS
    # 0 where THREADS_FAIL_FROM=2 leaves 1).
    [ -z "${MD5SUM_SANITIZED:-}" ] || skip "ThreadSanitizer's own thread is counted by the preload"
    files 64 100000
    "$GNU_MD5SUM" f* > list
    # pthread_create fails from its Nth call on (tests/fault/fault_preload.c),
    # as past a cgroup's pids.max: every result all the same, and no hang.
    ours_jobs 2
    same "THREADS_FAIL_FROM=1 LD_PRELOAD=$preload timeout 60 md5sum f*"
    same "THREADS_FAIL_FROM=1 LD_PRELOAD=$preload timeout 60 md5sum -c list"
    same "THREADS_FAIL_FROM=2 LD_PRELOAD=$preload timeout 60 md5sum f*"
    STATS_SETUP="export THREADS_FAIL_FROM=1 LD_PRELOAD=$preload" stats -j2 f*
    [ "$THREADS" = 0 ]
    [ "$INLINE" = 1 ]
    [ "$LANE_HASHED" -gt 0 ]
    STATS_SETUP="export THREADS_FAIL_FROM=2 LD_PRELOAD=$preload" stats -j2 f*
    [ "$THREADS" = 1 ]
    [ "$INLINE" = 0 ]
}

@test "memory to be had only in small pieces: a smaller ring of jobs, no lanes, every file hashed plainly as GNU" {
    local preload i j
    need_preload
    [ -z "${MD5SUM_SANITIZED:-}" ] || skip "a sanitizer's allocator comes before the preload's"
    # 40 files of 3 to 120 KB: more than a ring of 16 jobs holds, most of
    # them larger than the 4 KiB buffer the plain loop then has.
    for ((i = 1; i <= 40; i++)); do head -c $((i * 3000)) /dev/urandom > "f$i"; done
    "$GNU_MD5SUM" f* > list
    # GNU's own buffer is one of these (tests/fault/fault_preload.c), so
    # it runs without the preload.  Mallocs of 8 KiB or more fail: the ring
    # of jobs, the flow's inputs, the plain loop's buffer.  Callocs of 1 KiB
    # or more: the hashers.
    for j in 1 2 3; do
        ours_jobs $j
        for fail in MALLOC_FAIL_MIN=8192 CALLOC_FAIL_MIN=1024; do
            same_with "$fail LD_PRELOAD=$preload timeout 60 md5sum f*" 'md5sum f*'
            same_with "$fail LD_PRELOAD=$preload timeout 60 md5sum -c list" 'md5sum -c list'
            STATS_SETUP="export $fail LD_PRELOAD=$preload" stats -j$j f*
            [ "$THREADS" = 0 ]
            [ "$INLINE" = 0 ]
            [ "$PLAIN" = 40 ]
        done
    done
}

@test "threads start once and serve every checksum list of a run" {
    local i
    for ((i = 0; i < 30; i++)); do
        printf 'a%s' "$i" > "a$i"
        printf 'b%s' "$i" > "b$i"
        "$GNU_MD5SUM" "a$i" "b$i" > "l$i"
    done
    same 'md5sum -c l*'
    stats -j2 -c l*
    [ "$THREADS" -ge 1 ]
    [ "$THREADS" -le 2 ]
}

@test "the small inputs a list ends with are hashed in the caller's thread, no hasher woken for them" {
    local i
    for ((i = 0; i < 30; i++)); do
        head -c 3000 /dev/urandom > "a$i"
        head -c 70000 /dev/urandom > "b$i"
        "$GNU_MD5SUM" "a$i" "b$i" > "l$i"
    done
    same 'md5sum -c l*'
    stats -j2 -c l*
    # Each list's a file (3000 bytes) is taken back and hashed plainly, unless
    # a hasher still awake took it first (one list in ten runs or so, more
    # on a busy machine: a woken hasher may run late); its b (over 64 KiB)
    # is left to the lanes (read by a hasher or the reader).  Without the
    # mechanism, none is taken back.
    [ "$TAKEN_BACK" -ge 25 ]
    [ "$PLAIN" = "$TAKEN_BACK" ]
    [ $((READER + HASHERS)) = $(((30 - TAKEN_BACK) * 3000 + 30 * 70000)) ]
}

@test "out of descriptors: an early open waits for one of ours to close, as GNU gets its own" {
    ! under_valgrind || skip "valgrind's log takes one of the few descriptors (helpers.bash)"
    # ulimit -n 6: 0-2, then 3 for an input; the engine keeps two spare
    # (catalogues), so the second input waits for the first to close.
    files 20 5000
    warm f*
    same 'ulimit -n 6; md5sum f*'
    STATS_SETUP='ulimit -n 6' stats -j2 f*
    [ "$FD_WAITS" -gt 0 ]
}

@test "memory short elsewhere: the lanes' memory is given back, the rest hashed plainly" {
    [ -z "${MD5SUM_SANITIZED:-}" ] || skip "sanitizers reserve far more address space"
    ! under_valgrind || skip "valgrind reserves far more address space (helpers.bash)"
    # Two files start the lanes (tens of MiB of buffers); a 30 MB line then
    # needs that memory, as it needs it in GNU (which has no lanes): at
    # 70 MiB GNU succeeds, and so must ours.
    files 2 1000000
    : > empty
    "$GNU_MD5SUM" f0 f1 > list
    awk 'BEGIN { printf "%032d  ", 0; for (i = 0; i < 300000; i++) printf "%0100d", i; print "" }' >> list
    "$GNU_MD5SUM" empty >> list
    same 'prlimit --as=$((70 << 20)) md5sum -c list'
    STATS_SETUP='ulimit -v $((70 << 10))' stats -j2 -c list
    [ "$GAVE_BACK" = 1 ]
    [ "$PLAIN" -ge 1 ]
    # With -j1 the lanes run in this thread: its hasher is given back too.
    ours_jobs 1
    same 'prlimit --as=$((70 << 20)) md5sum -c list'
    STATS_SETUP='ulimit -v $((70 << 10))' stats -j1 -c list
    [ "$GAVE_BACK" = 1 ]
    [ "$INLINE" = 0 ]
    [ "$PLAIN" -ge 1 ]
}

@test "inputs of a megabyte and more in the page cache: the largest taken first, results in order" {
    files 20 1100000 s
    files 3 4000000 v
    same 'md5sum s* v*'
    # 23 inputs, fewer than wake a hasher: all are there when one first
    # takes, the caller's sizes known (mean over 1 MiB: it opens them all).
    # Unless the caller is held up while submitting them and a hasher
    # takes the first in order before the large ones come (EARLY 1, once,
    # in a make check beside the qemu legs).  So up to three runs; with the
    # mechanism off, each gives EARLY 0.
    local i
    warm s* v*
    for i in 1 2 3; do
        stats -j2 s* v*
        [ "$COLD" != 0 ] || [ "$EARLY" -lt 3 ] || break
    done
    [ "$COLD" = 0 ]
    [ "$EARLY" -ge 3 ]
    # From the storage, in order: the disk sees one stream.
    cold s* v*
    stats -j2 s* v*
    [ "$EARLY" = 0 ]
    # Smaller on average: in order.
    files 20 100000 t
    warm t* v*
    stats -j2 t* v*
    [ "$EARLY" = 0 ]
    # Past a sequence's first 64 inputs, inputs this large are opened by the
    # caller too, their sizes known as they are added (the next test: smaller
    # ones, by the hashers).
    for ((i = 100; i < 170; i++)); do truncate -s 1100000 "z$i"; done
    same 'md5sum z*'
    stats -j2 z*
    [ "$OPENED" = 0 ]
}

@test "past a sequence's first 64 inputs, hashers open them; what only the caller may open, it does, in order" {
    files 300 5000
    mkfifo p
    ln -s /proc/self/fd/0 viafd
    warm f*
    # A FIFO (not a regular file: opened only at its turn), a name through a
    # magic link (only the caller's fdview may open it), a missing file,
    # among them: each handed back or failed in its place.
    same '(printf "fifo data" > p &); md5sum f1?? p f2?? viafd nosuch f0* < /dev/null'
    (printf 'fifo data' > p &)
    stats -j2 f1?? p f2?? viafd nosuch f0* < /dev/null
    # 204 inputs: the first 64 opened by the caller; of the other 140, all
    # but the FIFO, the magic link and the missing file by the hashers.
    [ "$OPENED" = 137 ]
    [ "$HANDED" = 2 ]
    # The file the results go to, last: handed back, and read once every
    # result before it is written.
    same ': > out; md5sum f1?? f2?? out > out; cat out'
    stats -j1 f*
    [ "$OPENED" = 0 ]
}

@test "a set of small files partly out of the page cache: every result, in order, no hang" {
    # 20,000 files of 4 KiB, one in 23 evicted before each run: the run
    # turns cold and warm again hundreds of times, and a hasher that read
    # an input to its end hands its result over while the reader may look
    # at it.  The reader once took such an input for one of its own, and
    # each buffer it read into was lost; the buffers ran out and every
    # thread slept (a hang in about one run in four).
    head -c $((20000 * 4096)) /dev/urandom | split -b 4096 -a 5 - f
    "$GNU_MD5SUM" f* > want
    local i some
    for ((i = 0; i < 8; i++)); do
        mapfile -t some < <(printf '%s\n' f* | awk -v s="$i" 'NR % (23 + s) == 0')
        cold "${some[@]}"
        run timeout 30 "$MD5SUM" -j2 f*
        [ "$status" -eq 0 ] || { echo "run $i: status $status, ${#lines[@]} lines"; return 1; }
        [ "$output" = "$(cat want)" ] || { echo "run $i: output differs"; return 1; }
    done
}

@test "a long stream (a pipe past 4 MiB, a file on standard input with 16 MiB more) is read on a thread beside its hashing; a short one, -j1, one CPU, or no thread or memory for one: read in the caller's thread" {
    local preload
    # Their output, GNU's, every way: engine.bats.
    files 1 24000000
    head -c 3000000 f0 > short
    head -c 10000000 f0 > mid
    STATS_SETUP='exec < <(cat f0)' stats
    [ "$STREAMS" = 1 ]
    [ "$THREADS" = 0 ]
    STATS_SETUP='exec < f0' stats - short -
    [ "$STREAMS" = 1 ]
    STATS_SETUP='exec < f0' stats -j1
    [ "$STREAMS" = 0 ]
    STATS_SETUP='exec < short' stats
    [ "$STREAMS" = 0 ]
    # 10 MB: through a pipe, read beside; from the file, where a copy out
    # of the page cache costs less than a thread's start saves, not.
    STATS_SETUP='exec < <(cat mid)' stats
    [ "$STREAMS" = 1 ]
    STATS_SETUP='exec < mid' stats
    [ "$STREAMS" = 0 ]
    need_preload
    STATS_SETUP="exec < f0; export AFFINITY_CPUS=1 LD_PRELOAD=$preload" stats
    [ "$STREAMS" = 0 ]
    # No thread, or no memory for its buffers: read here, the same digest.
    same "THREADS_FAIL_FROM=1 LD_PRELOAD=$preload md5sum < f0"
    STATS_SETUP="exec < f0; export THREADS_FAIL_FROM=1 LD_PRELOAD=$preload" stats
    [ "$STREAMS" = 0 ]
    [ -n "${MD5SUM_SANITIZED:-}" ] ||
        same_with "MALLOC_FAIL_MIN=1048576 LD_PRELOAD=$preload md5sum < f0" 'md5sum < f0'
    [ -n "${MD5SUM_SANITIZED:-}" ] || {
        STATS_SETUP="exec < f0; export MALLOC_FAIL_MIN=1048576 LD_PRELOAD=$preload" stats
        [ "$STREAMS" = 0 ]
    }
    # A read that fails on the thread (past 6 MB, tests/fault/fault_preload.c):
    # GNU's error, the next file hashed.  GNU reads through stdio, out of
    # the preload's reach, and no file at hand fails on standard input: its
    # message is that of a file whose first read fails with the same EIO
    # (/proc/self/mem), named "-".
    run ours "FAIL_AT=6000000 LD_PRELOAD=$preload md5sum - short < f0 2> err"
    [ "$status" = 1 ]
    [ "$output" = "$("$GNU_MD5SUM" short)" ]
    gnu 'md5sum /proc/self/mem' 2>&1 >/dev/null | sed 's|/proc/self/mem|-|' | cmp - err
}
