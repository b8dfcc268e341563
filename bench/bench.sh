#!/bin/sh
# bench.sh: the performance figures quoted in docs/PERFORMANCE.md.
# A measurement, never a test: `make check` does not run it, and it fails only
# when something cannot be built or a function disagrees with the portable core.
#
#   bench/bench.sh [SECTION...]        (make bench [BENCH="SECTION..."])
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
#   sets    20,000 files of 4 KiB, 2,000 of 256 KiB and a media folder (100
#           photos of 3-4 MiB, 24 videos of 16 MiB), hashing and -c over a
#           list of each, $B/md5sum (all CPUs and --jobs=1) against GNU
#           md5sum, interleaved, medians, ratios; and the floor: the system
#           calls the engine makes for the set, alone, on every CPU
#           (bench/sysfloor.c), which no md5sum can beat here
#   cold    the media folder evicted from the page cache before each run
#           (POSIX_FADV_DONTNEED): $B/md5sum, GNU md5sum and cat
#
# Environment: B (build dir: binaries go to $B/bench), CFLAGS (default -O2),
#   BENCH_CCS (compilers, default "cc clang"), BENCH_ROUNDS (x 100 timed
#   samples per function, default 20), BENCH_DATA (where the test files are
#   made and kept, default ${TMPDIR:-/tmp}/md5sum-bench), BENCH_RUNS (runs
#   per program in the whole-process sections, default 11).
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
ALL_SECTIONS="block lanes bigfile sets cold"
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
build_runcmd() {
    [ -x "$out/runcmd" ] || cc -O2 -o "$out/runcmd" bench/runcmd.c
}

build_sysfloor() {
    [ -x "$out/sysfloor" ] || cc -O2 -pthread -o "$out/sysfloor" bench/sysfloor.c
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

section_bigfile() {
    echo "## bigfile: one 1 GiB file in the page cache, $BENCH_RUNS runs each, interleaved"
    build_runcmd
    build_coretime
    mkdir -p "$BENCH_DATA"
    big=$BENCH_DATA/1g
    [ -s "$big" ] || head -c 1073741824 /dev/urandom > "$big"
    # A defined cache state: dropped, then read once, as a file is after a
    # first read (how the file was written would otherwise decide).
    dd if="$big" iflag=nocache count=0 status=none
    cat "$big" > /dev/null
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

# make_files DIR COUNT SIZE: COUNT files of SIZE random bytes, f00000 on, once
make_files() {
    [ -f "$1/f$(printf %05d $(($2 - 1)))" ] && return
    mkdir -p "$1"
    head -c $(($2 * $3)) /dev/urandom | (cd "$1" && split -b "$3" -a 5 -d - f)
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

# set_dir NAME: the directory of a file set, made if needed
set_dir() {
    case $1 in
        media) make_media "$BENCH_DATA/media" ;;
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
    for set in 20000x4096 2000x262144 media; do
        dir=$(set_dir "$set")
        cat "$dir"/* > /dev/null
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
        echo "# $set: $(ls "$dir" | wc -l) files, $(du -sm "$dir" | cut -f1) MiB"
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

section_cold() {
    echo "## cold: the media set read from disk (evicted before each run), $BENCH_RUNS runs each, interleaved"
    build_runcmd
    dir=$(set_dir media)
    rm -f "$out"/cold-*.times
    i=0
    while [ "$i" -lt "$BENCH_RUNS" ]; do
        # shellcheck disable=SC2046  # the file names have no blanks
        for p in ours gnu cat; do
            evict "$dir"
            case $p in
                ours) time_run cold-ours "$dir" "$PWD/$B/md5sum" -- $(cd "$dir" && ls) ;;
                gnu) time_run cold-gnu "$dir" /usr/bin/md5sum -- $(cd "$dir" && ls) ;;
                cat) time_run cold-cat "$dir" cat -- $(cd "$dir" && ls) ;;
            esac
        done
        i=$((i + 1))
    done
    report_times cold-ours cold-gnu cold-cat
    echo "# ours vs GNU, wall: $(ratio cold-ours cold-gnu 1)x; ours / cat: $(ratio cold-cat cold-ours 1)"
}

sections=${*:-$ALL_SECTIONS}
cpu=$(lscpu 2>/dev/null | awk -F': *' '/^Model name/ { m = $2 } /^CPU family/ { f = $2 }
    /^Model:/ { n = $2 } END { printf "%s (family %s, model %s)", m, f, n }')
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $cpu; $(nproc) CPUs"
for s in $sections; do
    "section_$s"
done
