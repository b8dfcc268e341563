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
#   bigfile one 1 GiB cached file: $B/md5sum, GNU md5sum and openssl md5,
#           interleaved, medians of CPU and wall time, ratios, peak RSS
#   many    20,000 files of 4 KiB and 2,000 of 256 KiB, hashing and -c over
#           the list, $B/md5sum against GNU md5sum interleaved, medians, ratios
#
# Environment: B (build dir: binaries go to $B/bench), CFLAGS (default -O2),
#   BENCH_CCS (compilers, default "cc clang"), BENCH_ROUNDS (x 100 timed
#   samples per function, default 20), BENCH_DATA (where the test files are
#   made and kept, default ${TMPDIR:-/tmp}/md5sum-bench), BENCH_RUNS (runs
#   per program in the whole-process sections, default 11).
# The machines are shared: run it two or three times and quote min and median.
set -eu
cd "$(dirname "$0")/.."
B=${B:-build}
CFLAGS=${CFLAGS:--O2}
BENCH_CCS=${BENCH_CCS:-cc clang}
BENCH_ROUNDS=${BENCH_ROUNDS:-20}
BENCH_DATA=${BENCH_DATA:-${TMPDIR:-/tmp}/md5sum-bench}
BENCH_RUNS=${BENCH_RUNS:-11}
ALL_SECTIONS="block lanes bigfile many"
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

section_bigfile() {
    echo "## bigfile: one 1 GiB file in the page cache, $BENCH_RUNS runs each, interleaved"
    build_runcmd
    mkdir -p "$BENCH_DATA"
    big=$BENCH_DATA/1g
    [ -s "$big" ] || head -c 1073741824 /dev/urandom > "$big"
    # A defined cache state: dropped, then read once, as a file is after a
    # first read (readahead caches it in large folios; how the file was
    # written would otherwise decide, and mmap's cost depends on it).
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
    rm -f "$out"/big-*.times
    i=0
    while [ "$i" -lt "$BENCH_RUNS" ]; do
        time_run big-ours . "./$B/md5sum" "$big"
        time_run big-gnu . /usr/bin/md5sum "$big"
        time_run big-openssl . openssl md5 "$big"
        i=$((i + 1))
    done
    report_times big-ours big-gnu big-openssl
    echo "# ours vs GNU: $(ratio big-ours big-gnu 2)x CPU, $(ratio big-ours big-gnu 1)x wall;" \
         "vs openssl md5: $(ratio big-ours big-openssl 2)x CPU, $(ratio big-ours big-openssl 1)x wall"
    awk -v ms="$(median 2 "$out/big-ours.cols")" 'BEGIN { printf "# ours: %.0f MB/s of CPU time\n", 1073.741824 / ms * 1000 }'
}

# make_files DIR COUNT SIZE: COUNT files of SIZE random bytes, f00000 on, once
make_files() {
    [ -f "$1/f$(printf %05d $(($2 - 1)))" ] && return
    mkdir -p "$1"
    head -c $(($2 * $3)) /dev/urandom | (cd "$1" && split -b "$3" -a 5 -d - f)
}

section_many() {
    echo "## many: many files in one invocation, $BENCH_RUNS runs each, interleaved"
    build_runcmd
    for set in 20000x4096 2000x262144; do
        n=${set%x*} size=${set#*x} dir=$BENCH_DATA/$set
        make_files "$dir" "$n" "$size"
        cat "$dir"/* > /dev/null
        # shellcheck disable=SC2046  # the file names are f00000 ...
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
            time_run "$set-gnu" "$dir" /usr/bin/md5sum -- $(cd "$dir" && ls)
            time_run "$set-ours-c" "$dir" "$PWD/$B/md5sum" -c "$PWD/$out/$set.md5"
            time_run "$set-gnu-c" "$dir" /usr/bin/md5sum -c "$PWD/$out/$set.md5"
            i=$((i + 1))
        done
        echo "# $n files of $size bytes"
        report_times "$set-ours" "$set-gnu" "$set-ours-c" "$set-gnu-c"
        echo "# ours vs GNU, wall: hashing $(ratio "$set-ours" "$set-gnu" 1)x, -c $(ratio "$set-ours-c" "$set-gnu-c" 1)x"
    done
    awk -v a="$(ratio 20000x4096-ours 20000x4096-gnu 1)" -v b="$(ratio 2000x262144-ours 2000x262144-gnu 1)" \
        'BEGIN { printf "# geometric mean of the two sets, hashing, wall: %.2fx\n", sqrt(a * b) }'
}

sections=${*:-$ALL_SECTIONS}
cpu=$(lscpu 2>/dev/null | awk -F': *' '/^Model name/ { m = $2 } /^CPU family/ { f = $2 }
    /^Model:/ { n = $2 } END { printf "%s (family %s, model %s)", m, f, n }')
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $cpu; $(nproc) CPUs"
for s in $sections; do
    "section_$s"
done
