#!/usr/bin/env bash
# mca-report.sh: model the AArch64 block functions; a measurement, not a test
# (make check never runs it).  Prints a Markdown table with, for each core,
# llvm-mca cycles per 64-byte block and cycles/byte on three LLVM 19 CPU
# models, and the exact instructions executed per block under qemu.
#
#   scripts/mca-report.sh            run from anywhere inside the repository
#
# Cores:  (a) src/compress/md5_aarch64.S
#         (b) src/compress/md5_portable.c, $GCC -O2
#         (c) src/compress/md5_portable.c, $CLANG -O2 --target=aarch64-linux-gnu
#         (d) tests/ref/md5_rfc1321.c (plain RFC 1321), $GCC -O2
# Environment: TOOLS (directory of mca.sh and icount.sh; default ../shared/tools
# next to the project root: the team's shared tools, not in this repository),
# GCC (aarch64-linux-gnu-gcc), CLANG (clang-19),
# CPUS ("neoverse-n1 neoverse-v1 cortex-a72"), QEMU, MCA, OBJDUMP (passed on).
# mca.sh OBJ SYM prints llvm-mca's steady-state cycles per iteration of SYM's
# loop for each CPU model in MCA_CPUS; icount.sh BIN SYM N counts the
# instructions qemu-aarch64 executes inside SYM when BIN runs with argument N.
#
# Instructions per block = (count over 2N blocks - count over N blocks) / N,
# counted by icount.sh over the function's whole symbol range, so the call
# overhead cancels and the figure is exact.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
TOOLS=${TOOLS:-$root/../shared/tools}
GCC=${GCC:-aarch64-linux-gnu-gcc}
CLANG=${CLANG:-clang-19}
CPUS=${CPUS:-neoverse-n1 neoverse-v1 cortex-a72}
N=100
export MCA=${MCA:-llvm-mca-19}
for t in "$TOOLS/mca.sh" "$TOOLS/icount.sh"; do
    [ -x "$t" ] || { echo "mca-report.sh: $t not found (set TOOLS=)" >&2; exit 2; }
done
tmp=$(mktemp -d -t mca-report.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
read -r -a cpus <<< "$CPUS"

# label|object build command|symbol
cores=(
    "(a) assembly|$GCC -c|src/compress/md5_aarch64.S|md5_compress_aarch64"
    "(b) portable C, gcc -O2|$GCC -O2 -std=c99 -c|src/compress/md5_portable.c|md5_compress_portable"
    "(c) portable C, clang -O2|$CLANG --target=aarch64-linux-gnu -O2 -std=c99 -c|src/compress/md5_portable.c|md5_compress_portable"
    "(d) textbook C, gcc -O2|$GCC -O2 -std=c99 -c|tests/ref/md5_rfc1321.c|md5_compress_rfc1321"
)

# blocks per iteration = 1 for every core here: each loops once per block
measure() { # index label cc src sym
    local i=$1 label=$2 cc=$3 src=$4 sym=$5 obj=$tmp/$1.o bin=$tmp/$1.bin out c1 c2
    # shellcheck disable=SC2086  # cc is a command line
    $cc -o "$obj" "$root/$src"
    out=$(MCA_CPUS="$CPUS" "$TOOLS/mca.sh" "$obj" "$sym")
    grep '^# WARNING' <<< "$out" | sed "s|^|$label: |" >&2 || true
    "$GCC" -O2 -std=c99 -static -no-pie -DMD5_BENCH_FN="$sym" -o "$bin" \
        "$root/bench/icount_main.c" "$obj"
    c1=$("$TOOLS/icount.sh" "$bin" "$sym" "$N" | awk '{ print $2 }')
    c2=$("$TOOLS/icount.sh" "$bin" "$sym" $((2 * N)) | awk '{ print $2 }')
    # one line: label, then cyc/blk and cpb per cpu, then insn/blk
    awk -v label="$label" -v cpus="$CPUS" -v c1="$c1" -v c2="$c2" -v n="$N" '
        { cyc[$1] = $4 }
        END {
            k = split(cpus, cpu, " "); line = label
            for (j = 1; j <= k; j++)
                line = line sprintf("|%.1f|%.3f", cyc[cpu[j]], cyc[cpu[j]] / 64)
            printf "%s|%.1f\n", line, (c2 - c1) / n
        }' <<< "$out" > "$tmp/row.$i"
}

i=0
for c in "${cores[@]}"; do
    IFS='|' read -r label cc src sym <<< "$c"
    measure "$i" "$label" "$cc" "$src" "$sym"
    i=$((i + 1))
done

head="| core |"; rule="| --- |"
for cpu in "${cpus[@]}"; do
    head="$head $cpu cyc/blk | cpb |"; rule="$rule ---: | ---: |"
done
echo "$head insn/blk (qemu) |"
echo "$rule ---: |"
cat "$tmp"/row.* | awk -F'|' '{ s = "| " $1; for (j = 2; j <= NF; j++) s = s " | " $j; print s " |" }'

# Speed-ups of the assembly core, per model (cycles of the other / cycles of (a)).
echo
cat "$tmp"/row.* | awk -F'|' -v cpus="$CPUS" '
    { for (j = 2; j <= NF; j++) v[NR, j] = $j; name[NR] = $1 }
    END {
        k = split(cpus, cpu, " ")
        for (r = 2; r <= NR; r++) {
            s = "(a) vs " name[r] ":"
            for (j = 1; j <= k; j++) s = s sprintf(" %s %.3fx", cpu[j], v[r, 2 * j] / v[1, 2 * j])
            print s
        }
    }'
echo
echo "llvm-mca: $("$MCA" --version | grep -o 'LLVM version [0-9.]*'); $("$GCC" --version | head -1); $("$CLANG" --version | head -1)"
echo "insn/blk: qemu-aarch64 instruction count, ($((2 * N)) blocks - $N blocks) / $N, whole function"
