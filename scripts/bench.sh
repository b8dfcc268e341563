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
#
# Environment: B (build dir: binaries go to $B/bench), CFLAGS (default -O2),
#   BENCH_CCS (compilers, default "cc clang"), BENCH_ROUNDS (x 100 timed
#   samples per function, default 20).
# The machines are shared: run it two or three times and quote min and median.
set -eu
cd "$(dirname "$0")/.."
B=${B:-build}
CFLAGS=${CFLAGS:--O2}
BENCH_CCS=${BENCH_CCS:-cc clang}
BENCH_ROUNDS=${BENCH_ROUNDS:-20}
ALL_SECTIONS="block"
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
        -o "$out/blockbench-$1" scripts/bench/blockbench.c scripts/bench/md5_rfc1321.c \
        src/compress/md5_portable.c
}

section_block() {
    echo "## block: MD5 block functions in process (64 KiB buffer, CFLAGS=$CFLAGS)"
    echo "#   portable = src/compress/md5_portable.c; rfc1321 = textbook C (scripts/bench/md5_rfc1321.c)"
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

sections=${*:-$ALL_SECTIONS}
cpu=$(lscpu 2>/dev/null | awk -F': *' '/^Model name/ { m = $2 } /^CPU family/ { f = $2 }
    /^Model:/ { n = $2 } END { printf "%s (family %s, model %s)", m, f, n }')
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $cpu; $(nproc) CPUs"
for s in $sections; do
    "section_$s"
done
