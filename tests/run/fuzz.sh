#!/bin/sh
# fuzz.sh TARGET...: build the libFuzzer targets of tests/fuzz with clang,
# ASan and UBSan (make SANITIZE=fuzzer, in build-fuzz), then run each for
# FUZZ_SECONDS seconds, one after the other.  Fails on any finding: a crash,
# a broken invariant (the targets abort), a leak, a timeout or an OOM.  The
# input that caused it is left in build-fuzz/artifacts/.
#
# Seeds come from tests/fuzz/corpus/TARGET (read only); what the fuzzer
# learns goes to build-fuzz/corpus/TARGET and is reused by the next run.
# Environment: FUZZ_CC (clang), FUZZ_SECONDS (60), MAKE, FUZZ_FLAGS (extra
# libFuzzer flags, e.g. -jobs=2).
set -u
cd "$(dirname "$0")/../.." || exit 2
B=build-fuzz
CC=${FUZZ_CC:-clang}
SECONDS_EACH=${FUZZ_SECONDS:-60}
MAKE=${MAKE:-make}

if ! env -u MAKEFLAGS -u MFLAGS "$MAKE" -s B="$B" CC="$CC" CFLAGS="-O1 -g" SANITIZE=fuzzer \
        fuzz-build; then
    echo "fuzz: building the targets with $CC failed (clang and libclang-rt-dev needed)" >&2
    exit 1
fi
mkdir -p "$B/artifacts"
failed=0
for t in "$@"; do
    mkdir -p "$B/corpus/$t"
    case $t in
        split) opts="-max_len=9000" ;;   # up to 140 blocks, with room for control bytes
        *) opts="-max_len=4096" ;;
    esac
    dict=
    [ -f "tests/fuzz/$t.dict" ] && dict="-dict=tests/fuzz/$t.dict"
    log=$B/$t.log
    # shellcheck disable=SC2086  # option lists
    "$B/fuzz/$t" $opts $dict -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=1 -artifact_prefix="$B/artifacts/$t-" ${FUZZ_FLAGS:-} \
        "$B/corpus/$t" "tests/fuzz/corpus/$t" > "$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    if [ "$rc" = 0 ]; then
        echo "ok - fuzz $t: ${runs:-?} executions in ${SECONDS_EACH} s, no finding"
    else
        failed=1
        echo "not ok - fuzz $t: exit status $rc after ${runs:-?} executions (log: $log)"
        grep -E 'ERROR|runtime error|fuzz_[a-z]*: |Test unit written|SUMMARY' "$log" | head -n 20 | sed 's/^/# /'
    fi
done
exit "$failed"
