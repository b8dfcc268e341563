#!/bin/sh
# bench.sh: the performance figures quoted in docs/PERFORMANCE.md.
# A measurement, never a test: `make check` does not run it, and it fails only
# when something cannot be built or a function disagrees with the portable core.
#
#   scripts/bench.sh [SECTION...]        (make bench [BENCH="SECTION..."])
#
# Sections, run in this order by default; each is a shell function named
# section_NAME that prints its own "## NAME" header.  To add one, write the
# function below the others and add its name to ALL_SECTIONS.
#   block   in-process cycles/byte of the block functions, one build per
#           compiler, then instructions per block counted by callgrind
#   lanes   in-process aggregate cycles/byte of the multi-buffer lane kernels
#           by messages in flight (bench/mb_bench.c): 8 KiB a lane, in L2;
#           then 256 KiB a lane (8 MiB of buffers), from L3 or DRAM
#   bigfile one 1 GiB cached file: $B/md5sum (all CPUs and --jobs=1), GNU
#           md5sum and openssl md5, interleaved, medians of CPU and wall
#           time, ratios, peak RSS, and the MD5 core alone on 1 GiB
#   stream  the same file on standard input, redirected from it and through
#           a pipe from cat: $B/md5sum (all CPUs, and --jobs=1, which reads
#           in the hashing thread) and GNU md5sum, interleaved, medians
#   few     two, three and four files of 128 MiB in the page cache, as a
#           folder of disk images or backups: $B/md5sum (all CPUs and
#           --jobs=1) and GNU md5sum, interleaved, medians, ratios
#   sets    20,000 files of 4 KiB, 2,000 of 256 KiB and a media folder (100
#           photos of 3-4 MiB, 24 videos of 16 MiB), hashing and -c over a
#           list of each, $B/md5sum (all CPUs and --jobs=1) against GNU
#           md5sum, interleaved, medians, ratios; and the floor: the system
#           calls the engine makes for the set, alone, on every CPU
#           (bench/sysfloor.c), which no md5sum can beat here; and how the
#           page cache holds each set (bench/folios.c, as root): freshly
#           written files sit in large folios, files read back in single
#           pages, and ours is up to 1.45 times slower on the latter
#   cold    the media folder, the 4 KiB and 256 KiB sets, then 2 and 4
#           files of 128 MiB (few's), evicted from the page cache before
#           each run (POSIX_FADV_DONTNEED), on the disk as it says it is:
#           $B/md5sum, GNU md5sum and cat
#   seekfree  the 4 KiB, 256 KiB, mixed and media sets, evicted before each
#           run, with the disk under them said to have no seeks (its queue's
#           rotational flag set to 0, as an SSD's, and put back after; root):
#           $B/md5sum, GNU md5sum and cat; prints "# SKIP seekfree: why"
#           where it cannot
#   holes   the 256 KiB set and the media folder in the page cache but for
#           a 128 KiB range dropped from HOLES percent of their files (a
#           draw of its own for each round, the same for both programs), as
#           memory pressure leaves a set: $B/md5sum against GNU md5sum,
#           interleaved, medians
#   disk    the media folder and a mixed one (3,000 files of 1-64 KiB with
#           30 of 2-16 MiB among them, by name), each program once from a
#           cold cache with the block requests it causes traced (tracefs,
#           block_rq_complete): $B/md5sum (all CPUs and --jobs=1), GNU md5sum
#           (twice, to show the spread), cat; hashing and -c.  The reads that
#           fall in the set's files (filefrag) are replayed in the order the
#           device completed them on a spinning disk: seeks x SEEK_MS +
#           bytes / MBPS.  The disk says it rotates meanwhile, as a spinning
#           one does.  Needs root (which mounts tracefs if it is not);
#           prints "# SKIP disk: why" otherwise
#   occupancy  the lanes' occupancy on the sets (warm): blocks hashed over
#           lane-blocks the kernels ran (MD5SUM_ENGINE_STATS), hashing with
#           all CPUs and --jobs=1, BENCH_RUNS runs each, median
#   calls   one file per call, as scripts call md5sum (find -exec, make):
#           CALLS calls of `md5sum FILE` a sample (bench/runcmd -n), ours and
#           GNU's alternately, BENCH_PAIRS pairs, for files of 0 B to 4 MB;
#           the median of the pairs' wall-time ratios (ours / GNU)
#   fs      the 256 KiB set and the media folder on file systems that cannot
#           read without waiting: copied to a tmpfs mount (root; else
#           /dev/shm) and seen through an overlayfs mount (root), warm,
#           $B/md5sum (all CPUs and --jobs=1) against GNU md5sum, hashing,
#           interleaved, medians, ratios, and who read the bytes (the engine's
#           reader in order, or the hashers from the page cache)
#   uring   run only when named (issue 20, an experiment): the floor's system
#           calls through io_uring (bench/uringfloor.c: open, stat, read and
#           close of many files a call, modes and files in flight as in
#           docs/PERFORMANCE.md) against bench/sysfloor.c on 1 thread and on
#           every CPU, on the 4 KiB and 256 KiB sets, interleaved, medians,
#           spread and ratios; every reading is checked to read every file
#           whole and the same bytes first
#   memlimit  run only when named: the media folder, warm and cold (evicted
#           before each run), in a memory cgroup of its own (root; v1 or v2)
#           limited to each of MEMLIMITS MiB: $B/md5sum against GNU md5sum,
#           interleaved, medians, ratios; and the files ours hashed plainly
#           (MD5SUM_ENGINE_STATS), without lanes
#
# Environment: B (build dir: binaries go to $B/bench), CFLAGS (default -O2),
#   BENCH_CCS (compilers, default "cc clang"), BENCH_ROUNDS (x 100 timed
#   samples per function, default 20), BENCH_DATA (where the test files are
#   made and kept, default ${TMPDIR:-/tmp}/md5sum-bench), BENCH_RUNS (runs
#   per program in the whole-process sections, default 11), SEEK_MS and MBPS
#   (the disk model: milliseconds a seek, default 8, and MB/s, default 180),
#   TRACEFS (where tracefs is mounted, default /sys/kernel/tracing), CALLS
#   (calls a sample, default 200), BENCH_PAIRS (default 11) and MEMLIMITS
#   (default "16 32 256").
# The machines are shared: run it two or three times and quote min and median.
# Every run names the CPU model and the CPUs it had; quote them with figures.
set -eu
cd "$(dirname "$0")/.."
B=${B:-build}
CFLAGS=${CFLAGS:--O2}
BENCH_CCS=${BENCH_CCS:-cc clang}
BENCH_ROUNDS=${BENCH_ROUNDS:-20}
BENCH_DATA=${BENCH_DATA:-${TMPDIR:-/tmp}/md5sum-bench}
BENCH_RUNS=${BENCH_RUNS:-11}
SEEK_MS=${SEEK_MS:-8}
MBPS=${MBPS:-180}
TRACEFS=${TRACEFS:-/sys/kernel/tracing}
CALLS=${CALLS:-200}
BENCH_PAIRS=${BENCH_PAIRS:-11}
MEMLIMITS=${MEMLIMITS:-16 32 256}
HOLES=${HOLES:-0 10 30}
ALL_SECTIONS="block lanes bigfile stream few sets occupancy cold seekfree holes disk calls fs"
out=$B/bench
mkdir -p "$out"

# "gcc 12.2.0" or "clang 14.0.6" for compiler $1.
cc_label() {
    if "$1" --version 2>/dev/null | grep -q clang; then
        echo "clang $("$1" -dumpversion)"
    else
        echo "gcc $("$1" -dumpfullversion 2>/dev/null || "$1" -dumpversion)"
    fi
}

# Build the block-function bench with compiler $1 into $out/blockbench-$1.
build_blockbench() {
    # shellcheck disable=SC2086  # CFLAGS is a word list
    "$1" -std=c99 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Wpedantic $CFLAGS \
        -o "$out/blockbench-$1" bench/blockbench.c bench/clock.c tests/ref/md5_rfc1321.c \
        src/compress/md5_portable.c
}

section_block() {
    echo "## block: MD5 block functions in process (64 KiB buffer, CFLAGS=$CFLAGS)"
    echo "#   portable = src/compress/md5_portable.c; rfc1321 = textbook C (tests/ref/md5_rfc1321.c)"
    for cc in $BENCH_CCS; do
        if ! command -v "$cc" >/dev/null 2>&1; then
            echo "# SKIP $cc: not installed"
            continue
        fi
        build_blockbench "$cc"
        "$out/blockbench-$cc" "$(cc_label "$cc") $CFLAGS" "$BENCH_ROUNDS"
    done
    if ! command -v valgrind >/dev/null 2>&1; then
        echo "# SKIP instruction counts: valgrind is missing"
        return
    fi
    echo "# instructions per 64-byte block (valgrind --tool=callgrind, 1024 blocks per function)"
    for cc in $BENCH_CCS; do
        [ -x "$out/blockbench-$cc" ] || continue
        cg=$out/callgrind.$cc.out
        valgrind -q --tool=callgrind --callgrind-out-file="$cg" "$out/blockbench-$cc" x 0 >/dev/null
        callgrind_annotate "$cg" 2>/dev/null | tr -d , |
            awk -v l="$(cc_label "$cc") $CFLAGS" '
                /md5_compress_(portable|rfc1321)/ {
                    f = $0; sub(/.*md5_compress_/, "", f); sub(/[ \t].*/, "", f)
                    printf "%-24s %-10s %7.1f insns/block\n", l, f, $1 / 1024 }'
    done
}

section_lanes() {
    echo "## lanes: multi-buffer lane kernels in process, aggregate cycles/byte"
    ${MAKE:-make} -s B="$B" "$B/mb_bench"
    "$B/mb_bench"
    echo "## lanes from memory: 256 KiB a lane, 8 MiB of buffers"
    "$B/mb_bench" 100 256
}

# The whole-process sections time one process at a time with runcmd (fork,
# exec, wait4: no shell in the measurement) and alternate the programs run
# by run, so that drift on a shared machine hits them all alike.
# newer FILE SOURCE: FILE exists and is newer than SOURCE (test's -nt is not
# POSIX sh's).
newer() { [ -n "$(find "$1" -newer "$2" 2> /dev/null)" ]; }

build_runcmd() {
    newer "$out/runcmd" bench/runcmd.c || cc -O2 -o "$out/runcmd" bench/runcmd.c
}

build_sysfloor() {
    [ -x "$out/sysfloor" ] || cc -O2 -pthread -o "$out/sysfloor" bench/sysfloor.c
}

# How the page cache holds a set (bench/folios.c): its warm figures depend
# on it, ours far more than GNU's.
build_folios() {
    newer "$out/folios" bench/folios.c || cc -std=c99 -O2 -o "$out/folios" bench/folios.c
}

# time_runs LABEL DIR CMD...: one timed run in DIR, appended to $out/LABEL.
time_run() {
    label=$1 dir=$2
    shift 2
    (cd "$dir" && "$OLDPWD/$out/runcmd" "$@") >> "$out/$label.times"
}

# median COLUMN FILE: median of a column of numbers
median() {
    sort -n -k "$1" "$2" | awk -v c="$1" '{ v[NR] = $c } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# report LABEL...: median wall and CPU (user + sys) time of each label
report_times() {
    printf '%-26s %10s %10s %10s %8s\n' program "wall ms" "cpu ms" "user ms" "rss KiB"
    for l in "$@"; do
        awk '{ print $1, $2 + $3, $2, $4 }' "$out/$l.times" > "$out/$l.cols"
        printf '%-26s %10.1f %10.1f %10.1f %8d\n' "$l" "$(median 1 "$out/$l.cols")" \
            "$(median 2 "$out/$l.cols")" "$(median 3 "$out/$l.cols")" "$(median 4 "$out/$l.cols")"
    done
}

# ratio A B COLUMN: median of B / median of A (how many times faster A is)
ratio() {
    awk -v a="$(median "$3" "$out/$1.cols")" -v b="$(median "$3" "$out/$2.cols")" 'BEGIN { printf "%.2f", b / a }'
}

# The core md5sum uses, alone on 1 GiB, in one thread: the floor for one file.
build_coretime() {
    ${MAKE:-make} -s B="$B" "$B/compress/md5_portable.o" "$B/compress/md5_aarch64.o"
    # shellcheck disable=SC2086  # CFLAGS is a word list
    cc -std=c99 -D_POSIX_C_SOURCE=200809L $CFLAGS -o "$out/coretime" bench/coretime.c \
        "$B/compress/md5_portable.o" "$B/compress/md5_aarch64.o"
}

# warm FILE...: read into the page cache again.  A memory monitor may evict
# pages of files left alone for a while (this VM's DAMON "pageout" scheme),
# and one page missing turns a run cold (src/flow.h): each round of a warm
# section starts with its files read again.
warm() { cat -- "$@" > /dev/null; }

# big_file: $big, 1 GiB of random bytes, in a defined cache state: dropped,
# then read once, as a file is after a first read (how the file was written
# would otherwise decide).
big_file() {
    mkdir -p "$BENCH_DATA"
    big=$BENCH_DATA/1g
    [ -s "$big" ] || head -c 1073741824 /dev/urandom > "$big"
    dd if="$big" iflag=nocache count=0 status=none
    warm "$big"
}

section_bigfile() {
    echo "## bigfile: one 1 GiB file in the page cache, $BENCH_RUNS runs each, interleaved"
    build_runcmd
    build_coretime
    big_file
    ours=$(./"$B"/md5sum "$big" | cut -c1-32)
    gnu=$(/usr/bin/md5sum "$big" | cut -c1-32)
    ossl=$(openssl md5 -r "$big" | cut -c1-32)
    if [ "$ours" != "$gnu" ] || [ "$ours" != "$ossl" ]; then
        echo "DIGESTS DISAGREE: ours $ours, GNU $gnu, openssl $ossl" >&2
        exit 1
    fi
    echo "# all three digests agree: $ours"
    rm -f "$out"/big-*.times "$out/core.ms"
    i=0
    while [ "$i" -lt "$BENCH_RUNS" ]; do
        warm "$big"
        time_run big-ours . "./$B/md5sum" "$big"
        time_run big-ours-j1 . "./$B/md5sum" -j1 "$big"
        time_run big-gnu . /usr/bin/md5sum "$big"
        time_run big-openssl . openssl md5 "$big"
        "$out/coretime" 1 | cut -d' ' -f1 >> "$out/core.ms"
        i=$((i + 1))
    done
    report_times big-ours big-ours-j1 big-gnu big-openssl
    core=$(median 1 "$out/core.ms")
    echo "# the MD5 core alone on 1 GiB in one thread: $core ms (median)"
    echo "# ours vs GNU: $(ratio big-ours big-gnu 2)x CPU, $(ratio big-ours big-gnu 1)x wall;" \
         "vs openssl md5: $(ratio big-ours big-openssl 2)x CPU, $(ratio big-ours big-openssl 1)x wall"
    awk -v w="$(median 1 "$out/big-ours.cols")" -v c="$core" \
        'BEGIN { printf "# ours, wall, against the core alone: %.3f (1.000 is the limit)\n", w / c }'
}

section_stream() {
    echo "## stream: the 1 GiB file on standard input, redirected and through a pipe from cat,"
    echo "#   $BENCH_RUNS runs each, interleaved; -j1 reads in the hashing thread (src/stream.h)"
    build_runcmd
    big_file
    rm -f "$out"/stream-*.times
    i=0
    while [ "$i" -lt "$BENCH_RUNS" ]; do
        warm "$big"
        for p in ours:"./$B/md5sum" ours-j1:"./$B/md5sum -j1" gnu:/usr/bin/md5sum; do
            # shellcheck disable=SC2016  # expanded by the inner shell
            time_run "stream-${p%%:*}-file" . sh -c 'exec $0 < "$1"' "${p#*:}" "$big"
            # shellcheck disable=SC2016
            time_run "stream-${p%%:*}-pipe" . sh -c 'cat "$1" | $0' "${p#*:}" "$big"
        done
        i=$((i + 1))
    done
    report_times stream-ours-file stream-ours-j1-file stream-gnu-file \
        stream-ours-pipe stream-ours-j1-pipe stream-gnu-pipe
    for how in file pipe; do
        echo "# $how: ours vs GNU, wall: $(ratio "stream-ours-$how" "stream-gnu-$how" 1)x;" \
             "vs -j1: $(ratio "stream-ours-$how" "stream-ours-j1-$how" 1)x"
    done
}

# make_files DIR COUNT SIZE: COUNT files of SIZE random bytes, f00000 on, once
make_files() {
    [ -f "$1/f$(printf %05d $(($2 - 1)))" ] && return
    mkdir -p "$1"
    head -c $(($2 * $3)) /dev/urandom | (cd "$1" && split -b "$3" -a 5 -d - f)
}

section_few() {
    echo "## few: 2, 3 and 4 files of 128 MiB in the page cache, $BENCH_RUNS runs each, interleaved"
    build_runcmd
    dir=$BENCH_DATA/few
    make_files "$dir" 4 134217728
    rm -f "$out"/few-*.times
    i=0
    while [ "$i" -lt "$BENCH_RUNS" ]; do
        for n in 2 3 4; do
            set -- f00000 f00001 f00002 f00003
            [ "$n" = 4 ] || shift $((4 - n))
            (cd "$dir" && warm "$@")
            time_run "few-$n-ours" "$dir" "$PWD/$B/md5sum" "$@"
            time_run "few-$n-ours-j1" "$dir" "$PWD/$B/md5sum" -j1 "$@"
            time_run "few-$n-gnu" "$dir" /usr/bin/md5sum "$@"
        done
        i=$((i + 1))
    done
    for n in 2 3 4; do
        report_times "few-$n-ours" "few-$n-ours-j1" "few-$n-gnu"
        echo "# $n files: ours vs GNU $(ratio "few-$n-ours" "few-$n-gnu" 1)x wall," \
             "$(ratio "few-$n-ours" "few-$n-gnu" 2)x CPU; vs -j1 $(ratio "few-$n-ours" "few-$n-ours-j1" 1)x wall"
    done
}

# make_media DIR: a camera folder, once: 100 photos of 3-4 MiB, then 24
# videos of 16 MiB (739 MiB), named so that the videos sort last.
make_media() {
    [ -f "$1/VID_0024.MP4" ] && return
    mkdir -p "$1"
    for n in $(seq 1 100); do
        head -c $((3145728 + (n * 104729) % 1048576)) /dev/urandom > "$1/IMG_0$(printf %03d "$n").JPG"
    done
    for n in $(seq 1 24); do
        head -c 16777216 /dev/urandom > "$1/VID_00$(printf %02d "$n").MP4"
    done
}

# make_mixed DIR: a folder of documents with media among them, once: 3,000
# files written in name order, F0001.DAT on; every 100th (from F0050) of 2-16
# MiB, the others of 1-64 KiB (355 MiB in all), so that they interleave.
make_mixed() {
    [ -f "$1/F3000.DAT" ] && return
    mkdir -p "$1"
    for n in $(seq 1 3000); do
        if [ $((n % 100)) -eq 50 ]; then
            size=$((1048576 + (n * 2654435) % 15728640))
        else
            size=$((1024 + (n * 7919) % 64512))
        fi
        head -c "$size" /dev/urandom > "$1/F$(printf %04d "$n").DAT"
    done
}

# set_dir NAME: the directory of a file set, made if needed
set_dir() {
    case $1 in
        media) make_media "$BENCH_DATA/media" ;;
        mixed) make_mixed "$BENCH_DATA/mixed" ;;
        *) make_files "$BENCH_DATA/$1" "${1%x*}" "${1#*x}" ;;
    esac
    echo "$BENCH_DATA/$1"
}

section_sets() {
    echo "## sets: many files in one invocation, page cache warm, $BENCH_RUNS runs each, interleaved"
    echo "#   ours = all CPUs (default --jobs), ours-j1 = --jobs=1; -c = checking a list of the set;"
    echo "#   floor = stat, open, preads to the end and close of each file on $(nproc) threads, no hashing"
    build_runcmd
    build_sysfloor
    build_folios
    for set in 20000x4096 2000x262144 media; do
        dir=$(set_dir "$set")
        warm "$dir"/*
        # shellcheck disable=SC2046  # the file names have no blanks
        (cd "$dir" && /usr/bin/md5sum -- $(ls) > "$OLDPWD/$out/$set.md5")
        # shellcheck disable=SC2046
        if ! (cd "$dir" && "$OLDPWD/$B/md5sum" -- $(ls)) | cmp -s - "$out/$set.md5"; then
            echo "OUTPUT DIFFERS from GNU md5sum for $set" >&2
            exit 1
        fi
        rm -f "$out/$set"-*.times
        i=0
        while [ "$i" -lt "$BENCH_RUNS" ]; do
            warm "$dir"/*
            # shellcheck disable=SC2046
            time_run "$set-ours" "$dir" "$PWD/$B/md5sum" -- $(cd "$dir" && ls)
            # shellcheck disable=SC2046
            time_run "$set-ours-j1" "$dir" "$PWD/$B/md5sum" -j1 -- $(cd "$dir" && ls)
            # shellcheck disable=SC2046
            time_run "$set-gnu" "$dir" /usr/bin/md5sum -- $(cd "$dir" && ls)
            time_run "$set-ours-c" "$dir" "$PWD/$B/md5sum" -c "$PWD/$out/$set.md5"
            time_run "$set-ours-j1-c" "$dir" "$PWD/$B/md5sum" -j1 -c "$PWD/$out/$set.md5"
            time_run "$set-gnu-c" "$dir" /usr/bin/md5sum -c "$PWD/$out/$set.md5"
            # shellcheck disable=SC2046
            time_run "$set-floor" "$dir" "$PWD/$out/sysfloor" "$(nproc)" $(cd "$dir" && ls)
            i=$((i + 1))
        done
        # shellcheck disable=SC2012  # the file names have no blanks
        echo "# $set: $(ls "$dir" | wc -l) files, $(du -sm "$dir" | cut -f1) MiB; $("$out/folios" "$dir"/*)"
        report_times "$set-ours" "$set-ours-j1" "$set-gnu" "$set-ours-c" "$set-ours-j1-c" "$set-gnu-c" \
            "$set-floor"
        echo "# ours vs GNU, wall: hashing $(ratio "$set-ours" "$set-gnu" 1)x, -c $(ratio "$set-ours-c" "$set-gnu-c" 1)x;" \
             "CPU, all jobs / --jobs=1: $(ratio "$set-ours-j1" "$set-ours" 2)"
        echo "# the floor vs GNU, wall: $(ratio "$set-floor" "$set-gnu" 1)x (the most any md5sum could be here);" \
             "ours / floor: $(ratio "$set-floor" "$set-ours" 1)"
    done
}

# evict DIR: drop DIR's files from the page cache (POSIX_FADV_DONTNEED)
evict() {
    for f in "$1"/*; do dd if="$f" iflag=nocache count=0 status=none; done
}

# cold_runs SET DIR FILES: FILES of DIR read from the storage (evicted
# before each run) by ours, GNU's and cat, interleaved, and the ratios.
cold_runs() {
    rm -f "$out"/cold-*.times
    i=0
    while [ "$i" -lt "$BENCH_RUNS" ]; do
        for p in ours gnu cat; do
            evict "$2"
            # shellcheck disable=SC2086  # the file names have no blanks
            case $p in
                ours) time_run cold-ours "$2" "$PWD/$B/md5sum" -- $3 ;;
                gnu) time_run cold-gnu "$2" /usr/bin/md5sum -- $3 ;;
                cat) time_run cold-cat "$2" cat -- $3 ;;
            esac
        done
        i=$((i + 1))
    done
    echo "# $1:"
    report_times cold-ours cold-gnu cold-cat
    echo "# ours vs GNU, wall: $(ratio cold-ours cold-gnu 1)x; ours / cat: $(ratio cold-cat cold-ours 1)"
}

section_cold() {
    echo "## cold: the media, 4 KiB and 256 KiB sets, and 2 and 4 files of 128 MiB, read from disk (evicted before each run), $BENCH_RUNS runs each, interleaved"
    # What the disk says of itself decides whether ours asks ahead (seekfree).
    if flag=$(rotational_flag "$BENCH_DATA"); then
        echo "#   $flag: $(cat "$flag")"
    fi
    build_runcmd
    make_files "$BENCH_DATA/few" 4 134217728
    for set in media 20000x4096 2000x262144; do
        dir=$(set_dir "$set")
        cold_runs "$set" "$dir" "$(cd "$dir" && ls)"
    done
    cold_runs few-2 "$BENCH_DATA/few" "f00002 f00003"
    cold_runs few-4 "$BENCH_DATA/few" "f00000 f00001 f00002 f00003"
}

# rotational_flag DIR: the file in which the disk under DIR (a partition's
# own disk) says whether it rotates; fails where DIR is on no block device.
rotational_flag() {
    sys=/sys/dev/block/$(stat -c '%Hd:%Ld' "$1")
    [ ! -e "$sys/partition" ] || sys=$sys/..
    [ -e "$sys/queue/rotational" ] && echo "$sys/queue/rotational"
}

section_seekfree() {
    echo "## seekfree: the 4 KiB, 256 KiB, mixed and media sets read from the storage (evicted before each run), $BENCH_RUNS runs each, interleaved,"
    echo "#   the disk said to have no seeks (its rotational flag 0, as an SSD's), so that ours asks for the small inputs ahead"
    mkdir -p "$BENCH_DATA"
    if [ "$(id -u)" -ne 0 ] || ! flag=$(rotational_flag "$BENCH_DATA") || ! was=$(cat "$flag") ||
        ! echo 0 2>/dev/null > "$flag"; then
        echo "# SKIP seekfree: needs root, and a disk under $BENCH_DATA whose rotational flag can be set"
        return
    fi
    trap 'echo "$was" > "$flag"' EXIT
    trap 'exit 1' HUP INT TERM
    echo "#   $flag: $was, 0 for this section"
    build_runcmd
    for set in 20000x4096 2000x262144 mixed media; do
        dir=$(set_dir "$set")
        cold_runs "$set" "$dir" "$(cd "$dir" && ls)"
    done
    echo "$was" > "$flag"
    trap - EXIT HUP INT TERM
}

# punch DIR PCT SEED: a 128 KiB range dropped from the page cache in PCT
# percent of DIR's files, the files and ranges drawn from SEED.
punch() {
    (cd "$1" && ls -l) | awk -v p="$2" -v s="$3" 'BEGIN { srand(s) }
        NF >= 9 { if (rand() * 100 < p) print $9, int(rand() * int(($5 + 131071) / 131072)) }' |
        while read -r f block; do
            dd if="$1/$f" iflag=nocache bs=128K skip="$block" count=1 of=/dev/null status=none
        done
}

section_holes() {
    echo "## holes: the 256 KiB set and the media set in the page cache but for a 128 KiB range in HOLES% of their files ($HOLES), $BENCH_RUNS runs each, interleaved"
    build_runcmd
    for set in 2000x262144 media; do
        dir=$(set_dir $set)
        files=$(cd "$dir" && ls)
        for pct in $HOLES; do
            rm -f "$out"/holes-*.times
            i=0
            while [ "$i" -lt "$BENCH_RUNS" ]; do
                for p in ours gnu; do
                    # shellcheck disable=SC2086  # the file names have no blanks
                    (cd "$dir" && warm $files)
                    punch "$dir" "$pct" "$i"
                    prog=$PWD/$B/md5sum
                    [ "$p" = ours ] || prog=/usr/bin/md5sum
                    # shellcheck disable=SC2086
                    time_run "holes-$p" "$dir" "$prog" -- $files
                done
                i=$((i + 1))
            done
            echo "# $set, $pct% of the files with a hole:"
            report_times holes-ours holes-gnu
            echo "# ours vs GNU, wall: $(ratio holes-ours holes-gnu 1)x"
        done
    done
}

# disk_device DIR: "MAJ,MIN START": the disk whose requests the trace shows
# for DIR's file system, as the trace names it, and the sector of that disk
# where the file system starts (a partition's offset; 0 on a whole disk).
# Fails, saying why, where the requests would be traced on some other device.
disk_device() {
    sys=/sys/dev/block/$(stat -c '%Hd:%Ld' "$1")
    if [ ! -e "$sys/dev" ]; then
        echo "$1 is not on a block device"
        return 1
    fi
    disk=$sys first=0
    if [ -e "$sys/partition" ]; then
        disk=$sys/.. first=$(cat "$sys/start")
    fi
    if [ -n "$(ls "$disk/slaves" 2>/dev/null)" ]; then
        echo "$1 is on $(basename "$(cd -P "$disk" && pwd)"), a device over others (device-mapper, md)"
        return 1
    fi
    echo "$(tr : , < "$disk/dev") $first"
}

# disk_extents FIRST FILE...: the sectors FILEs hold on the disk, "FIRST END"
# a line, file by file in the order given: filefrag's 512-byte units from the
# file system's start, plus FIRST (where the file system starts)
disk_extents() {
    first=$1
    shift
    filefrag -v -b512 "$@" | awk -v first="$first" '
        /^ *[0-9]+:/ && !/unknown_loc|delalloc|inline/ {
            gsub(/\.\./, " "); gsub(/:/, " ")
            printf "%.0f %.0f\n", first + $4, first + $5 + 1 }'
}

# disk_ranges EXTENTS: the same sectors as sorted ranges, adjacent ones merged
disk_ranges() {
    sort -n -k 1,1 "$1" | awk '
        NR > 1 && $1 <= e { if ($2 > e) e = $2; next }
        NR > 1 { printf "%.0f %.0f\n", s, e }
        { s = $1; e = $2 }
        END { if (NR) printf "%.0f %.0f\n", s, e }'
}

# disk_replay DEV RANGES TRACE: "KEPT DROPPED SEEKS BYTES LOST" for the read
# requests TRACE shows completed on DEV: kept when they overlap RANGES (from
# disk_ranges), dropped otherwise (metadata, other processes' files); a seek
# is a kept request that does not start where the previous one ended (the
# first one is a seek too); LOST counts the events the trace buffer lost.
disk_replay() {
    awk -v dev="$1" -v n=0 '
        FILENAME == ARGV[1] { s[n] = $1; e[n] = $2; n++; next }
        /entries-in-buffer\/entries-written:/ { split($3, c, "/"); lost = c[2] - c[1] }
        !/block_rq_complete: / { next }
        {
            sub(/.*block_rq_complete: /, "")
            if ($1 != dev || $2 !~ /^R/) next
            for (i = 3; i < NF && $i != "+"; i++) ;
            first = $(i - 1); end = first + $(i + 1)
            lo = 0; hi = n - 1      # the last range starting before end
            while (lo < hi) { m = int((lo + hi + 1) / 2); if (s[m] < end) lo = m; else hi = m - 1 }
            if (n == 0 || s[lo] >= end || e[lo] <= first) { dropped++; next }
            if (kept++ == 0 || first != last) seeks++
            last = end; bytes += 512 * (end - first)
        }
        END { printf "%d %d %d %.0f %d\n", kept, dropped, seeks, bytes, lost }' "$2" "$3"
}

# disk_table SETBYTES ROWS: the replayed runs of one set on the model, each
# against GNU md5sum's (hashing, or -c for the -c rows); then what to doubt
disk_table() {
    awk -v seek_ms="$SEEK_MS" -v mbps="$MBPS" -v set="$1" '
        function model(r) { return sk[r] * seek_ms / 1000 + by[r] / (mbps * 1e6) }
        function per_gib(r) { return by[r] ? sk[r] / (by[r] / 1073741824) : 0 }
        function x(a, b) { return b ? sprintf("%.2f", a / b) : "-" }
        {
            r[NR] = $1; kept[$1] = $2; drop[$1] = $3; sk[$1] = $4; by[$1] = $5
            lost[$1] = $6; wall[$1] = $7; status[$1] = $8
        }
        END {
            printf "%-12s %8s %7s %6s %8s %6s %9s %6s %7s %6s %8s\n", "program", "requests", "dropped",
                "seeks", "MiB read", "of set", "seeks/GiB", "x GNU", "model s", "x GNU", "wall ms"
            for (i = 1; i <= NR; i++) {
                p = r[i]; g = p ~ /-c$/ ? "gnu-c" : "gnu"
                printf "%-12s %8d %7d %6d %8.1f %5.1f%% %9.1f %6s %7.2f %6s %8.1f\n", p, kept[p], drop[p],
                    sk[p], by[p] / 1048576, 100 * by[p] / set, per_gib(p), x(per_gib(p), per_gib(g)),
                    model(p), x(model(p), model(g)), wall[p]
            }
            for (i = 1; i <= NR; i++) {
                p = r[i]; share = 100 * by[p] / set
                if (lost[p]) printf "# WARNING: %s: the trace lost %d events\n", p, lost[p]
                if (status[p]) printf "# WARNING: %s exited with status %d\n", p, status[p]
                if (share < 95) printf "# WARNING: %s read %.1f%% of the set: not all evicted\n", p, share
                if (share > 105) printf "# WARNING: %s read %.1f%% of the set: someone else too?\n", p, share
            }
        }' "$2"
}

section_disk() {
    echo "## disk: reads from a cold cache in the order the device completed them, on a spinning disk"
    echo "#   model: $SEEK_MS ms a seek (SEEK_MS), $MBPS MB/s (MBPS): time = seeks x SEEK_MS + bytes / MBPS,"
    echo "#   a seek being a request that does not start where the previous one ended (the first one too)"
    if [ "$(id -u)" -ne 0 ]; then
        echo "# SKIP disk: tracing block requests needs root"
        return
    fi
    # A fresh machine may have tracefs unmounted: root mounts it where asked.
    if [ ! -d "$TRACEFS/events" ] && [ -d "$TRACEFS" ]; then
        mount -t tracefs nodev "$TRACEFS" 2>/dev/null && echo "# mounted tracefs on $TRACEFS"
    fi
    if [ ! -d "$TRACEFS/events/block/block_rq_complete" ]; then
        echo "# SKIP disk: no $TRACEFS/events/block/block_rq_complete (mount tracefs, or TRACEFS=DIR)"
        return
    fi
    if ! command -v filefrag >/dev/null 2>&1; then
        echo "# SKIP disk: filefrag is missing (e2fsprogs)"
        return
    fi
    mkdir -p "$BENCH_DATA"
    if ! where=$(disk_device "$BENCH_DATA"); then
        echo "# SKIP disk: $where"
        return
    fi
    dev=${where% *} start=${where#* }
    # An instance of our own: its buffer, clock and events are nobody else's.
    inst=$TRACEFS/instances/md5sum-bench-$$
    if ! mkdir "$inst" 2>/dev/null; then
        echo "# SKIP disk: cannot make a trace instance in $TRACEFS/instances"
        return
    fi
    # A spinning disk says it rotates: ours then asks for nothing out of
    # order (src/engine.c), whatever this machine's disk says.
    flag=$(rotational_flag "$BENCH_DATA") && was=$(cat "$flag") && echo 1 2>/dev/null > "$flag" ||
        flag=
    trap 'rmdir "$inst"; [ -z "$flag" ] || echo "$was" > "$flag"' EXIT
    trap 'exit 1' HUP INT TERM
    echo 0 > "$inst/tracing_on"
    echo global > "$inst/trace_clock"   # one clock for both CPUs' completions
    echo 8192 > "$inst/buffer_size_kb"
    echo 1 > "$inst/events/block/block_rq_complete/enable"
    name=$(basename "$(cd -P "/sys/dev/block/$(echo "$dev" | tr , :)" && pwd)")
    echo "#   trace: block_rq_complete on $dev ($name), the file system from its sector $start; reads"
    echo "#   outside the set's files (metadata, other processes' I/O) dropped; in $out/disk-SET.PROGRAM.trace"
    echo "#   x GNU: against GNU md5sum hashing (-c rows: GNU md5sum -c); gnu-again: GNU hashing once more,"
    echo "#   its spread; wall ms: this machine's disk, informative only"
    build_runcmd
    for set in media mixed; do
        dir=$(set_dir "$set")
        files=$(cd "$dir" && ls)
        list=$PWD/$out/disk-$set.md5
        # shellcheck disable=SC2086  # the file names have no blanks
        (cd "$dir" && /usr/bin/md5sum -- $files) > "$list"
        sync
        # shellcheck disable=SC2086
        (cd "$dir" && disk_extents "$start" $files) > "$out/disk-$set.extents"
        disk_ranges "$out/disk-$set.extents" > "$out/disk-$set.ranges"
        setbytes=$(awk '{ b += 512 * ($2 - $1) } END { printf "%.0f", b }' "$out/disk-$set.ranges")
        mib=$(awk -v b="$setbytes" 'BEGIN { printf "%.1f", b / 1048576 }')
        echo "# $set: $(echo "$files" | wc -l) files, $mib MiB" \
             "in $(wc -l < "$out/disk-$set.ranges") runs of adjacent sectors"
        awk -v b="$setbytes" -v seek_ms="$SEEK_MS" -v mbps="$MBPS" '
            $1 != e { n++ }
            { e = $2 }
            END { printf "#   read in name order, each file front to back: %d seeks (%.1f/GiB), %.2f s modelled\n",
                n, n / (b / 1073741824), n * seek_ms / 1000 + b / (mbps * 1e6) }' "$out/disk-$set.extents"
        rm -f "$out/disk-$set".*.times "$out/disk-$set.rows"
        for p in gnu ours ours-j1 cat gnu-c ours-c ours-j1-c gnu-again; do
            sync
            evict "$dir"
            echo > "$inst/trace"
            echo 1 > "$inst/tracing_on"
            # shellcheck disable=SC2086
            case $p in
                gnu | gnu-again) time_run "disk-$set.$p" "$dir" /usr/bin/md5sum -- $files ;;
                ours) time_run "disk-$set.$p" "$dir" "$PWD/$B/md5sum" -- $files ;;
                ours-j1) time_run "disk-$set.$p" "$dir" "$PWD/$B/md5sum" -j1 -- $files ;;
                cat) time_run "disk-$set.$p" "$dir" cat -- $files ;;
                gnu-c) time_run "disk-$set.$p" "$dir" /usr/bin/md5sum -c "$list" ;;
                ours-c) time_run "disk-$set.$p" "$dir" "$PWD/$B/md5sum" -c "$list" ;;
                ours-j1-c) time_run "disk-$set.$p" "$dir" "$PWD/$B/md5sum" -j1 -c "$list" ;;
            esac
            echo 0 > "$inst/tracing_on"
            cat "$inst/trace" > "$out/disk-$set.$p.trace"
            echo "$p $(disk_replay "$dev" "$out/disk-$set.ranges" "$out/disk-$set.$p.trace")" \
                 "$(awk '{ print $1, $5 }' "$out/disk-$set.$p.times")" >> "$out/disk-$set.rows"
        done
        disk_table "$setbytes" "$out/disk-$set.rows"
        awk '$1 ~ /^gnu(-again)?$/ { s[$1] = $4 }
            END { printf "# GNU md5sum twice: %d and %d seeks\n", s["gnu"], s["gnu-again"] }' \
            "$out/disk-$set.rows"
    done
    rmdir "$inst"
    [ -z "$flag" ] || echo "$was" > "$flag"
    trap - EXIT HUP INT TERM
}

section_occupancy() {
    echo "## occupancy: blocks hashed / lane-blocks the kernels ran, page cache warm, median of $BENCH_RUNS runs"
    printf '%-12s %12s %12s\n' set "all CPUs" "--jobs=1"
    for set in 20000x4096 2000x262144 media; do
        dir=$(set_dir "$set")
        for j in "" -j1; do
            i=0
            while [ "$i" -lt "$BENCH_RUNS" ]; do
                warm "$dir"/*
                # shellcheck disable=SC2046  # the file names have no blanks
                (cd "$dir" && MD5SUM_ENGINE_STATS=1 "$OLDPWD/$B/md5sum" $j -- $(ls) 2>&1 >/dev/null) |
                    sed -n 's/.*lane blocks \([0-9]*\) of \([0-9]*\),.*/\1 \2/p' |
                    awk '{ printf "%.1f\n", 100 * $1 / $2 }'
                i=$((i + 1))
            done > "$out/occupancy$j.runs"
        done
        printf '%-12s %11s%% %11s%%\n' "$set" "$(median 1 "$out/occupancy.runs")" \
            "$(median 1 "$out/occupancy-j1.runs")"
    done
}

section_calls() {
    echo "## calls: one file a call, $CALLS calls a sample, $BENCH_PAIRS pairs, ours and GNU alternately"
    echo "#   ms a call (medians), and the median of the pairs' ratios, ours / GNU (below 1: faster)"
    build_runcmd
    mkdir -p "$BENCH_DATA"
    printf '%-9s %12s %12s %12s %12s\n' bytes "ours ms" "GNU ms" "wall ratio" "CPU ratio"
    for size in 0 4096 65536 200000 300000 1000000 4000000; do
        f=$BENCH_DATA/call-$size
        [ -f "$f" ] || head -c "$size" /dev/urandom > "$f"
        rm -f "$out"/calls-*.times
        i=0
        while [ "$i" -lt "$BENCH_PAIRS" ]; do
            warm "$f"
            # Which goes first alternates: drift hits both alike.
            if [ $((i % 2)) = 0 ]; then
                "$out/runcmd" -n "$CALLS" "./$B/md5sum" "$f" >> "$out/calls-ours.times"
                "$out/runcmd" -n "$CALLS" /usr/bin/md5sum "$f" >> "$out/calls-gnu.times"
            else
                "$out/runcmd" -n "$CALLS" /usr/bin/md5sum "$f" >> "$out/calls-gnu.times"
                "$out/runcmd" -n "$CALLS" "./$B/md5sum" "$f" >> "$out/calls-ours.times"
            fi
            i=$((i + 1))
        done
        paste "$out/calls-ours.times" "$out/calls-gnu.times" |
            awk '{ print $1 / $6, ($2 + $3) / ($7 + $8) }' > "$out/calls.ratios"
        printf '%-9s %12.3f %12.3f %12.3f %12.3f\n' "$size" \
            "$(median 1 "$out/calls-ours.times" | awk -v n="$CALLS" '{ print $1 / n }')" \
            "$(median 1 "$out/calls-gnu.times" | awk -v n="$CALLS" '{ print $1 / n }')" \
            "$(median 1 "$out/calls.ratios")" "$(median 2 "$out/calls.ratios")"
    done
}

build_uringfloor() {
    newer "$out/uringfloor" bench/uringfloor.c ||
        cc -std=c99 -O2 -Wall -Wextra -pthread -o "$out/uringfloor" bench/uringfloor.c
}

# The uring section's programs, "LABEL COMMAND..." a line (the files are
# added): the floor on 1 and on all CPUs, then uringfloor's modes by files
# in flight, on all CPUs, and with a polling thread (pinned to the last CPU,
# the submitter spinning on the others; or unpinned, waiting in the kernel).
uring_variants() {
    n=$(nproc)
    u="$PWD/$out/uringfloor"
    echo "floor-j1 $PWD/$out/sysfloor 1"
    echo "floor-j$n $PWD/$out/sysfloor $n"
    echo "uring-plain $u -m plain"
    echo "uring-plain-t$n $u -m plain -t $n"
    for m in stat fstat statx nostat; do
        for k in 8 32 128; do
            echo "uring-$m-n$k $u -m $m -n $k"
        done
    done
    for m in stat fstat nostat; do
        echo "uring-$m-n32-t$n $u -m $m -n 32 -t $n"
    done
    if [ "$n" -gt 1 ]; then
        echo "uring-fstat-n32-sqpoll $u -m fstat -n 32 -s -a $((n - 1))"
        echo "uring-nostat-n32-sqpoll $u -m nostat -n 32 -s -a $((n - 1))"
    fi
    echo "uring-fstat-n32-sqwait $u -m fstat -n 32 -S"
}

section_uring() {
    n=$(nproc)
    echo "## uring: the floor through io_uring (issue 20), page cache warm, $BENCH_RUNS runs each, interleaved"
    echo "#   floor-jN = bench/sysfloor.c on N threads; uring-MODE-nK = bench/uringfloor.c -m MODE with K"
    echo "#   files in flight (-tN: N threads, a ring each; -sqpoll: a polling thread, the submitter spinning;"
    echo "#   -sqwait: waiting in io_uring_enter); uring-plain: its fallback, the engine's calls (open, fstat,"
    echo "#   preads, close; the floor stats, then opens: two walks of each name)"
    echo "#   $(uname -sr); x j1, x j$n: the floor's median wall on 1 or $n threads / this one's (over 1: faster)"
    build_runcmd
    build_sysfloor
    build_uringfloor
    uring_variants > "$out/uring.variants"
    for set in 20000x4096 2000x262144; do
        dir=$(set_dir "$set")
        files=$(cd "$dir" && ls)
        # shellcheck disable=SC2086  # the file names have no blanks
        bytes=$(cd "$dir" && cat $files | wc -c)   # the set's size, and warm
        # Every reading first: every file whole (the set's bytes), no error,
        # and the same bytes as the plain path (a hash of each file, summed).
        want='' err=$PWD/$out/uring.err
        while read -r label cmd; do
            case $label in floor-*) continue ;; esac
            # shellcheck disable=SC2086
            got=$(cd "$dir" && $cmd -c $files 2> "$err" < /dev/null | awk '{ print $4, $6, $8, $NF }') || true
            [ -n "$want" ] || want=$got
            if [ "$got" != "$(echo "$files" | wc -l) $bytes 0 ${want##* }" ]; then
                echo "READS DIFFER: $label on $set: files, bytes, errors, hash: $got (want $want)" >&2
                exit 1
            fi
            grep 'plain path' "$err" | sed "s/^/# $label: /" || true
        done < "$out/uring.variants"
        echo "# $set: $(echo "$files" | wc -l) files, $bytes bytes; every reading read them all, the same bytes"
        rm -f "$out/uring-$set".*.times
        i=0
        while [ "$i" -lt "$BENCH_RUNS" ]; do
            while read -r label cmd; do
                # shellcheck disable=SC2086
                time_run "uring-$set.$label" "$dir" $cmd $files < /dev/null
            done < "$out/uring.variants"
            i=$((i + 1))
        done
        j1=$(median 1 "$out/uring-$set.floor-j1.times")
        jn=$(median 1 "$out/uring-$set.floor-j$n.times")
        printf '%-24s %8s %17s %8s %8s %6s %6s\n' program "wall ms" "wall min-max" "cpu ms" \
            "sys ms" "x j1" "x j$n"
        while read -r label cmd; do
            f=$out/uring-$set.$label.times
            awk '{ print $1, $2 + $3, $3 }' "$f" > "$out/uring.cols"
            w=$(median 1 "$out/uring.cols")
            printf '%-24s %8.1f %8.1f-%-8.1f %8.1f %8.1f %6.2f %6.2f\n' "$label" "$w" \
                "$(sort -n "$f" | head -n 1 | cut -d' ' -f1)" "$(sort -n "$f" | tail -n 1 | cut -d' ' -f1)" \
                "$(median 2 "$out/uring.cols")" "$(median 3 "$out/uring.cols")" \
                "$(awk -v a="$j1" -v b="$w" 'BEGIN { print a / b }')" \
                "$(awk -v a="$jn" -v b="$w" 'BEGIN { print a / b }')"
            if awk '$5 != 0 { bad = 1 } END { exit !bad }' "$f"; then
                echo "# WARNING: $label exited with an error in some runs"
            fi
        done < "$out/uring.variants"
    done
}

# fs_unmount: what section_fs mounted
fs_unmount() {
    for m in "$BENCH_DATA/fs-overlay/merged" "$BENCH_DATA/fs-tmpfs"; do
        if mountpoint -q "$m" 2>/dev/null; then umount "$m"; fi
    done
}

section_fs() {
    echo "## fs: sets on file systems that cannot read without waiting, page cache warm, $BENCH_RUNS runs each, interleaved"
    build_runcmd
    fs_unmount
    trap fs_unmount EXIT
    tmp=$BENCH_DATA/fs-tmpfs
    mkdir -p "$tmp"
    if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=2g tmpfs "$tmp"; then
        tmp=/dev/shm/md5sum-bench-fs
        mkdir -p "$tmp"
    fi
    for set in 2000x262144 media; do
        dir=$(set_dir "$set")
        where="tmpfs:$tmp/$set"
        rm -rf "${tmp:?}/$set"
        cp -r "$dir" "$tmp/$set"
        o=$BENCH_DATA/fs-overlay
        mkdir -p "$o/upper-$set" "$o/work-$set" "$o/merged"
        if [ "$(id -u)" = 0 ] && mount -t overlay overlay \
                -o "lowerdir=$dir,upperdir=$o/upper-$set,workdir=$o/work-$set" "$o/merged"; then
            where="$where overlay:$o/merged"
        else
            echo "# SKIP overlay: mounting one needs root and overlayfs"
        fi
        for w in $where; do
            fs=${w%%:*} d=${w#*:}
            # shellcheck disable=SC2046  # the file names have no blanks
            (cd "$d" && /usr/bin/md5sum -- $(ls)) > "$out/fs.md5"
            # shellcheck disable=SC2046
            if ! (cd "$d" && "$OLDPWD/$B/md5sum" -- $(ls)) | cmp -s - "$out/fs.md5"; then
                echo "OUTPUT DIFFERS from GNU md5sum for $set on $fs" >&2
                exit 1
            fi
            rm -f "$out/fs-$fs-$set"-*.times
            i=0
            while [ "$i" -lt "$BENCH_RUNS" ]; do
                warm "$d"/*
                # shellcheck disable=SC2046
                time_run "fs-$fs-$set-ours" "$d" "$PWD/$B/md5sum" -- $(cd "$d" && ls)
                # shellcheck disable=SC2046
                time_run "fs-$fs-$set-ours-j1" "$d" "$PWD/$B/md5sum" -j1 -- $(cd "$d" && ls)
                # shellcheck disable=SC2046
                time_run "fs-$fs-$set-gnu" "$d" /usr/bin/md5sum -- $(cd "$d" && ls)
                i=$((i + 1))
            done
            echo "# $set on $fs ($(stat -f -c %T "$d"))"
            report_times "fs-$fs-$set-ours" "fs-$fs-$set-ours-j1" "fs-$fs-$set-gnu"
            # shellcheck disable=SC2046
            echo "# ours vs GNU, wall: $(ratio "fs-$fs-$set-ours" "fs-$fs-$set-gnu" 1)x," \
                 "--jobs=1 $(ratio "fs-$fs-$set-ours-j1" "fs-$fs-$set-gnu" 1)x; bytes read by:" \
                 "$( (cd "$d" && MD5SUM_ENGINE_STATS=1 "$OLDPWD/$B/md5sum" -- $(ls) 2>&1 >/dev/null) |
                     grep -o 'reader [0-9]*, pre-read [0-9]*, hashers [0-9]*')"
        done
        if mountpoint -q "$o/merged"; then umount "$o/merged"; fi
        rm -rf "${tmp:?}/$set" "$o"
    done
    trap - EXIT
    fs_unmount
    [ "$tmp" != /dev/shm/md5sum-bench-fs ] || rmdir "$tmp"
}

# mem_cgroup: a memory cgroup of our own in $cg, its limit file in $cg_limit
# (v1's hierarchy, or v2's where the root hands memory down); or say why not.
mem_cgroup() {
    [ "$(id -u)" = 0 ] || { echo "# SKIP memlimit: making a cgroup needs root"; return 1; }
    cg=$(scripts/mkcgroup.sh memory "md5sum-bench-$$") ||
        { echo "# SKIP memlimit: no cgroup with the memory controller can be made here"; return 1; }
    case $cg in cgroup2\ *) cg_limit=memory.max ;; *) cg_limit=memory.limit_in_bytes ;; esac
    cg=${cg#* }
}

section_memlimit() {
    echo "## memlimit: the media set in a memory cgroup of MEMLIMITS MiB ($MEMLIMITS), warm and cold, $BENCH_RUNS runs each, interleaved"
    build_runcmd
    mem_cgroup || return 0
    dir=$(set_dir media)
    files=$(cd "$dir" && ls)
    in_cg="echo \$\$ > $cg/cgroup.procs && exec \"\$@\""
    for lim in $MEMLIMITS; do
        echo $((lim << 20)) > "$cg/$cg_limit"
        for mode in warm cold; do
            rm -f "$out"/mem-*.times
            i=0
            while [ "$i" -lt "$BENCH_RUNS" ]; do
                for p in ours gnu; do
                    # shellcheck disable=SC2086  # the file names have no blanks
                    if [ "$mode" = warm ]; then (cd "$dir" && warm $files); else evict "$dir"; fi
                    prog=$PWD/$B/md5sum
                    [ "$p" = ours ] || prog=/usr/bin/md5sum
                    # shellcheck disable=SC2086
                    time_run "mem-$p" "$dir" sh -c "$in_cg" sh "$prog" -- $files
                done
                i=$((i + 1))
            done
            echo "# $lim MiB, $mode:"
            report_times mem-ours mem-gnu
            # shellcheck disable=SC2086
            echo "# ours vs GNU, wall: $(ratio mem-ours mem-gnu 1)x; ours hashed plainly:" \
                 "$( (cd "$dir" && MD5SUM_ENGINE_STATS=1 sh -c "$in_cg" sh "$OLDPWD/$B/md5sum" -- $files 2>&1 >/dev/null) |
                     grep -o 'plain [0-9]*') of $(echo $files | wc -w) files"
        done
    done
    rmdir "$cg"
}

sections=${*:-$ALL_SECTIONS}
cpu=$(lscpu 2>/dev/null | awk -F': *' '/^Model name/ { m = $2 } /^CPU family/ { f = $2 }
    /^Model:/ { n = $2 } END { printf "%s (family %s, model %s)", m, f, n }')
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $cpu; $(nproc) CPUs"
for s in $sections; do
    "section_$s"
done
