#!/bin/sh
# lint.sh: static analysis of src/, tests/core, tests/fuzz and tests/ref (the
# textbook block function the fuzzers use); silent and status 0 when clean.
#   cppcheck 2.10: warning, style, performance and portability checks with the
#     POSIX library, in the x86-64 and the AArch64 configuration;
#   clang-tidy 14: the checks in .clang-tidy (the clang static analyzer,
#     bugprone, cert, misc, performance, portability), for x86-64 and, when
#     the AArch64 headers are installed, for AArch64 (--target);
#   ShellCheck 0.9: its warnings and errors, in the shell scripts and the
#     bats tests (in bats, a test's "! command" does not fail it: SC2314).
# Suppressions, each with its reason: scripts/lint/cppcheck.supp, .clang-tidy,
# and the per-file exceptions below.  Benchmarks (bench/) are measurement
# code and not linted.
# Environment: CPPCHECK, CLANG_TIDY, JOBS (parallel clang-tidy runs).
set -u
CPPCHECK=${CPPCHECK:-cppcheck}
CLANG_TIDY=${CLANG_TIDY:-clang-tidy}
SHELLCHECK=${SHELLCHECK:-shellcheck}
DEFS="-D_POSIX_C_SOURCE=200809L -D_FILE_OFFSET_BITS=64"

# Worker: lint.sh --tidy FILE, with TIDY_ARGS and TIDY_CFLAGS set.  Prints
# the findings only (not clang's "N warnings generated").
if [ "${1:-}" = --tidy ]; then
    extra='' checks=''
    case $2 in tests/core/*) extra=-D_DEFAULT_SOURCE ;; esac   # MAP_ANONYMOUS
    # Per-file exceptions of the static analyzer, each a false positive:
    case $2 in
        src/compress/mb_avx2.c | src/compress/mb_avx512.c | src/compress/mb_neon.c)
            # It takes the inline run() as an entry point with any SETS, 0
            # included, where mb_begin sets no lane pointer and the loads
            # read garbage.  Every caller passes a constant: 1, 2 or 3
            # sets (AVX2; AVX-512's zmm kernels), 2, 3 or 4 (its ymm
            # kernels), 2, 4 or 6 (NEON).
            checks=--checks=-clang-analyzer-core.UndefinedBinaryOperatorResult ;;
        src/compress/mb_dispatch.c)
            # It assumes md5_mb_kernels() may return an empty list, so that
            # md5_mb_pick dereferences NULL; the list always ends with the
            # scalar kernel.
            checks=--checks=-clang-analyzer-core.NullDereference ;;
    esac
    # shellcheck disable=SC2086  # word lists
    "$CLANG_TIDY" --quiet $checks "$2" -- -std=c99 $DEFS $extra $TIDY_CFLAGS 2>&1 |
        grep -v '^[0-9]* warnings\{0,1\} generated\.$'
    exit 0
fi

cd "$(dirname "$0")/.." || exit 2
JOBS=${JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
status=0
for tool in "$CPPCHECK" "$CLANG_TIDY" "$SHELLCHECK"; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "lint: $tool is missing (apt-get install cppcheck clang-tidy shellcheck)" >&2
        exit 2
    fi
done

# The two configurations run beside the rest, each one thread: one after
# the other they took 125 s of lint's 262 here (Zen 3, 2 CPUs); their
# findings are printed at the end.
logs=$(mktemp -d) || exit 2
for arch in __x86_64__ __aarch64__; do
    # shellcheck disable=SC2086
    { "$CPPCHECK" --std=c99 --enable=warning,style,performance,portability --library=posix \
        --inline-suppr --suppressions-list=scripts/lint/cppcheck.supp --quiet \
        --error-exitcode=1 $DEFS -D$arch -D__GNUC__ \
        src tests/core tests/fuzz tests/ref > "$logs/$arch" 2>&1; echo $? > "$logs/$arch.rc"; } &
done

# tidy "COMPILER-FLAGS" FILE...: every file, JOBS at a time.
tidy() {
    TIDY_CFLAGS=$1
    export TIDY_CFLAGS CLANG_TIDY
    shift
    out=$(printf '%s\n' "$@" | xargs -P "$JOBS" -n 1 "$0" --tidy)
    if [ -n "$out" ]; then
        printf '%s\n' "$out"
        status=1
    fi
}

# The scripts, then the tests: bats assigns $stderr (run --separate-stderr),
# which shellcheck cannot see (SC2154).
"$SHELLCHECK" -S warning .ci/run scripts/*.sh tests/run/*.sh || status=1
"$SHELLCHECK" -S warning -e SC2154 tests/helpers.bash tests/cli/*.bats tests/conformance/*.bats || status=1

files=$(ls src/*.c src/compress/*.c tests/core/*.c tests/fuzz/*.c tests/ref/*.c)
# shellcheck disable=SC2086
tidy "" $files
if [ -d /usr/aarch64-linux-gnu/include ]; then
    # shellcheck disable=SC2086
    tidy --target=aarch64-linux-gnu $files
else
    echo "lint: no AArch64 headers (libc6-dev-arm64-cross): AArch64 clang-tidy pass skipped" >&2
fi
wait
for arch in __x86_64__ __aarch64__; do
    cat "$logs/$arch"
    [ "$(cat "$logs/$arch.rc" 2>/dev/null)" = 0 ] || status=1
done
rm -rf "$logs"
exit "$status"
