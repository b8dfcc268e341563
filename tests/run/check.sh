#!/bin/sh
# check.sh: every test layer, then one "N passed, N failed" line.
#   0. the build: -Werror with gcc and clang, man page lint, install
#   1. core tests (tests/core, C) of the build in $B
#   2. CLI tests (tests/cli, bats) and GNU conformance (tests/conformance);
#      a driver or bats run that stops early (status, TAP plan) is a failure
#   2b. the same two layers built with ThreadSanitizer (clang), the tsan leg:
#      a race report changes stderr and the exit status, so any race fails;
#      its CLI layer is the suites that drive threads hardest (CLI_THREADS)
#   3. the same two layers for cross builds run under qemu-user, when the
#      cross compiler and qemu are present or can be installed: aarch64 (the
#      assembly core, NEON lanes, threads), s390x (big-endian) and i686
#      (32-bit), each built with -Werror.  qemu makes every suite cost
#      minutes, and option parsing, messages and faults do not change with
#      the target: they run the suites where byte order, word size and the
#      lanes show (CLI_PORTABLE), and aarch64 those of the engine too
#      (CLI_AARCH64)
#   4. the same two layers built against musl (musl-gcc), run natively: the
#      suites where the C library's own words (strerror's, getopt_long's,
#      its gettext's) and the encodings glibc alone has do not show
#      (CLI_MUSL)
# Environment: B (build dir), MAKE, CHECK_LANES (1: one leg at a time),
# IMPL, EXPECT_IMPL, EXPECT_MB (lane kernels the native leg must offer; default: the widest this CPU reports, see
# native_mb; set it empty to expect none), EXPECT_MB_FIRST (the one it must
# pick for full lanes; default native_mb_first), REQUIRE_CROSS=1 (a cross
# leg that cannot run is a failure instead of a skip; CI sets it), LEGS (the
# layers to run, default all: "build native tsan aarch64 s390x i686 musl"),
# CLI_SUITES (the bats files the native leg runs: default all of them, or
# CLI_ASAN's under SANITIZE=1; the other legs choose their own), SANITIZE=1
# (the native leg is the ASan+UBSan build in $B; build checks and cross legs
# stay plain: they test warnings and targets, and sanitizer runtimes do not
# run under qemu-user).  Sanitized legs set MD5SUM_SANITIZED for the tests
# that measure memory.
set -u
B=${B:-build}
MAKE=${MAKE:-make}
LEGS=${LEGS:-build native tsan aarch64 s390x i686 musl}
cd "$(dirname "$0")/../.." || exit 2
results=$(mktemp)
trap 'rm -f "$results"' EXIT

note() { echo "$*" | tee -a "$results"; }

# run_tap BUILD_DIR WRAPPER PROGRAM ARGS...: a C test program's TAP lines;
# a crash, or a sanitizer stopping it, ends it with no "not ok": one is added.
run_tap() {
    dir=$1 wrapper=$2 prog=$3
    shift 3
    # shellcheck disable=SC2086  # the wrapper is a command line
    $wrapper "$dir/$prog" "$@" > "$dir/$prog.tap"
    rc=$?
    cat "$dir/$prog.tap"
    if [ "$rc" != 0 ] && ! grep -q '^not ok' "$dir/$prog.tap"; then
        echo "not ok - core tests: $prog ended with status $rc before reporting a failure"
    fi
}

core_tests() { # BUILD_DIR WRAPPER
    if EXEC_WRAPPER=$2 tests/run/gen-vectors.sh "$1/md5test" "$1/vectors" "$1/vectors.txt"; then
        run_tap "$1" "$2" md5test check "$1/vectors" "$1/vectors.txt"
    else
        echo "not ok - core tests: reference digests could not be generated"
    fi
    run_tap "$1" "$2" flowtest
}

# The CLI suites of a leg: every one, the threaded ones, the portable ones.
CLI_ALL="tests/cli tests/conformance"
CLI_THREADS="tests/cli/engine.bats tests/cli/faults.bats tests/cli/resize.bats
    tests/cli/progress.bats tests/cli/files0.bats tests/cli/fds.bats tests/conformance/jobs.bats
    tests/conformance/many.bats tests/cli/limits.bats"
CLI_PORTABLE="tests/cli/hash.bats tests/cli/check.bats tests/cli/names.bats
    tests/cli/output.bats tests/cli/memory.bats tests/conformance/gnu.bats
    tests/conformance/many.bats"
CLI_AARCH64="$CLI_PORTABLE tests/cli/engine.bats tests/cli/files0.bats tests/cli/progress.bats
    tests/conformance/jobs.bats"
CLI_MUSL="tests/cli/hash.bats tests/cli/output.bats tests/cli/memory.bats tests/conformance/gnu.bats
    tests/conformance/many.bats tests/conformance/jobs.bats"
# Under ASan each run of md5sum costs a fifth of a second to start here, half
# a second with its threads: the threaded suites and those of diagnostics
# and memory (the parsers have their own ASan fuzzers; translations only
# change which catalogue string diag formats).
CLI_ASAN="$CLI_THREADS tests/cli/errors.bats tests/cli/memory.bats tests/cli/output.bats"

cli_tests() { # BUILD_DIR WRAPPER (suites: $CLI_SUITES, default all)
    if ! command -v bats >/dev/null 2>&1; then
        echo "not ok - CLI tests not run: bats is missing (apt-get install bats bats-assert bats-support)"
        return
    fi
    # Streamed through tee for progress; the status is kept in a file, since
    # a pipeline's status is its last command's.  A test that hangs fails
    # after BATS_TEST_TIMEOUT seconds (the slowest, under qemu, take about
    # a minute) instead of stalling the run.
    { MD5SUM=$1/md5sum EXEC_WRAPPER=$2 BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-300} \
          bats --tap --timing ${CLI_SUITES:-$CLI_ALL}
      echo $? > "$1/cli.rc"; } | tee "$1/cli.tap"
    rc=$(cat "$1/cli.rc")
    # A test file that crashes or stops early loses its remaining tests
    # without a "not ok": compare the plan with the results seen, and bats'
    # status with what the lines say.
    plan=$(sed -n 's/^1\.\.\([0-9][0-9]*\)$/\1/p' "$1/cli.tap" | head -n 1)
    seen=$(grep -cE '^(not )?ok ' "$1/cli.tap")
    if [ -z "$plan" ]; then
        echo "not ok - CLI tests: bats printed no plan (status $rc)"
    elif [ "$plan" != "$seen" ]; then
        echo "not ok - CLI tests: bats planned $plan tests and reported $seen"
    fi
    if [ "$rc" != 0 ] && ! grep -q '^not ok' "$1/cli.tap"; then
        echo "not ok - CLI tests: bats ended with status $rc before reporting a failure"
    fi
}

# Seconds since check.sh started: each leg says when it began and ended,
# for balancing the two lanes below.
started=$(date +%s)
since() { echo $(($(date +%s) - started)); }

leg() { # NAME BUILD_DIR WRAPPER
    echo "# ===== $1 ===== (at $(since) s)"
    { core_tests "$2" "$3"; cli_tests "$2" "$3"; } 2>&1 | tee -a "$results"
    echo "# ===== $1 ended (at $(since) s)"
}

# The lane kernels the native CPU must offer (md5test fails when a named one
# is missing, so a CPU probe that falls back to scalar is caught): the widest
# that /proc/cpuinfo reports, by the names in src/compress/mb_dispatch.c.
cpuinfo() { sed -n "s/^$1[[:space:]]*: //p" /proc/cpuinfo 2>/dev/null | head -n 1; }
has_flag() { case " $(cpuinfo flags) " in *" $1 "*) return 0 ;; esac; return 1; }
native_mb() {
    case $(uname -m) in
        x86_64)
            if has_flag avx512f && has_flag avx512vl; then
                echo "avx512zsx48 avx512zsx32 avx512zx48 avx512zx32 avx512zx16 avx512x32 avx512x24 avx512x16 avx2x24 avx2x16 avx2x8 scalarx2"
            elif has_flag avx2; then
                echo "avx2x24 avx2x16 avx2x8 scalarx2"
            else
                echo "scalarx2"
            fi ;;
        aarch64) echo "neonx24 neonx16 neonx8" ;;   # NEON is baseline on AArch64
    esac
}
# The kernel the native CPU must pick for full lanes (md5test fails on
# another, so a preference that the probe lost is caught), where
# /proc/cpuinfo tells: mb_dispatch.c's preferred_group.  AMD with AVX-512 before
# family 26 is Zen 4 (family 25), with its own group; from family 26 it is
# told by CPUID 0x8000001A, which cpuinfo does not show: nothing expected.
native_mb_first() {
    case $(uname -m) in
        x86_64)
            vendor=$(cpuinfo vendor_id) family=$(cpuinfo 'cpu family')
            if has_flag avx512f && has_flag avx512vl; then
                if [ "$vendor" = GenuineIntel ]; then
                    if has_flag avx512_vbmi2; then echo avx512zsx48; else echo avx512x32; fi
                elif [ "$vendor" = AuthenticAMD ] && [ "${family:-26}" -lt 26 ]; then
                    echo avx512zx32
                fi
            elif has_flag avx2; then
                echo avx2x24
            fi ;;
        aarch64) echo neonx24 ;;
    esac
}

# A cross leg: build out of tree with the cross compiler (warnings are
# errors), run under qemu.  EXPECTED-MB: the lane kernels the target must
# offer (qemu-user's CPU, not the host's), the one it must pick for full
# lanes first.  QEMU-ARGS are added to qemu's command line.
cross_leg() { # NAME GCC QEMU SYSROOT EXPECTED-CORE EXPECTED-MB [QEMU-ARGS]
    if ! command -v "$2" >/dev/null 2>&1 || ! command -v "$3" >/dev/null 2>&1; then
        if [ "${REQUIRE_CROSS:-0}" = 1 ]; then
            note "not ok - $1 leg not run: $2 or $3 is missing"
        else
            echo "# SKIP $1 leg: $2 or $3 is missing (see scripts/install-deps.sh)"
        fi
        return
    fi
    dir=build-$1
    if ! env -u MAKEFLAGS -u MFLAGS "$MAKE" -s B="$dir" CC="$2" CFLAGS="${CFLAGS:--O2} -Werror" \
            ${IMPL:+IMPL=$IMPL} SANITIZE= "$dir/md5sum" "$dir/md5test" "$dir/flowtest"; then
        note "not ok - $1 cross build with -Werror failed"
        return
    fi
    note "ok - $1 cross build with $2 -Werror"
    EXPECT_IMPL=$5 EXPECT_MB=$6 EXPECT_MB_FIRST=${6%% *} leg "$1 (under $3)" "$dir" "$3 -L $4${7:+ $7}"
}

# Locale files are in the target's byte order: qemu-user on a big-endian
# target cannot use the host's C.UTF-8, and setlocale would fall back to C
# (GNU's md5sum built for s390x would do the same).  Build a big-endian one
# for the leg's programs alone (LOCPATH given through qemu -E).  The
# translation tests add theirs to the same directory (OURS_LOCPATH).
be_locale() { # DIR
    tests/run/mklocales.sh "$1" --big-endian C.UTF-8 >/dev/null 2>&1 ||
        note "not ok - s390x: localedef --big-endian C.UTF-8 failed (package locales); UTF-8 tests will fail"
}

want() { case " $LEGS " in *" $1 "*) return 0 ;; esac; return 1; }

if want aarch64 || want s390x || want i686 || want musl; then
    scripts/install-deps.sh cross || true
else
    scripts/install-deps.sh || true
fi
# The checks of the build itself: -Werror builds, man page lint, install.
build_leg() {
    if want build; then
        echo "# ===== build, man page, install ===== (at $(since) s)"
        tests/run/check-build.sh 2>&1 | tee -a "$results"
    fi
}

# The legs of this machine's CPU: native, tsan.
native_leg() {
    if want native; then
        # Given by the user (even empty), EXPECT_MB is used as it is.
        mb=${EXPECT_MB-$(native_mb)} first=${EXPECT_MB_FIRST-$(native_mb_first)}
        if [ "${SANITIZE:-}" = 1 ]; then
            MD5SUM_SANITIZED=1 EXPECT_MB=$mb EXPECT_MB_FIRST=$first CLI_SUITES=${CLI_SUITES:-$CLI_ASAN} \
                leg "native, ASan+UBSan" "$B" ""
        else
            EXPECT_MB=$mb EXPECT_MB_FIRST=$first leg native "$B" ""
        fi
    fi
}
tsan_leg() {
    if want tsan; then
        if ! command -v clang >/dev/null 2>&1; then
            note "not ok - tsan leg not run: clang is missing (apt-get install clang)"
        elif ! env -u MAKEFLAGS -u MFLAGS "$MAKE" -s B=build-tsan CC=clang SANITIZE=thread \
                build-tsan/md5sum build-tsan/md5test build-tsan/flowtest build-tsan/fault_preload.so \
                build-tsan/evict; then
            note "not ok - tsan leg: the ThreadSanitizer build failed"
        else
            # TSan sleeps a second (atexit_sleep_ms) at the exit of every
            # run whose threads are still alive, for them to race meanwhile.
            # Our hashers are asleep by a normal exit (50 ms is left for an
            # early one), and those seconds were three quarters of this leg
            # (fds.bats 132 s, 33 s with 50 ms).
            MD5SUM_SANITIZED=1 TSAN_OPTIONS="halt_on_error=1 atexit_sleep_ms=50 ${TSAN_OPTIONS:-}" CLI_SUITES=$CLI_THREADS \
                EXPECT_MB=${EXPECT_MB-$(native_mb)} EXPECT_MB_FIRST=${EXPECT_MB_FIRST-$(native_mb_first)} \
                leg "native, ThreadSanitizer" build-tsan ""
        fi
    fi
}

# The legs under qemu.
aarch64_leg() {
    if [ "${IMPL:-}" = portable ]; then aarch64_core=portable; else aarch64_core=aarch64; fi
    want aarch64 && CLI_SUITES=$CLI_AARCH64 cross_leg aarch64 aarch64-linux-gnu-gcc qemu-aarch64 /usr/aarch64-linux-gnu "$aarch64_core" \
        "neonx24 neonx16 neonx8"
}
s390x_leg() {
    if want s390x; then
        be_locale "$PWD/build-s390x/locale"
        OURS_LOCPATH=$PWD/build-s390x/locale OURS_LOCALEDEF=--big-endian CLI_SUITES=$CLI_PORTABLE \
            cross_leg s390x s390x-linux-gnu-gcc qemu-s390x /usr/s390x-linux-gnu portable "" \
            "-E LOCPATH=$PWD/build-s390x/locale"
    fi
}
i686_leg() {
    # qemu-i386 7.2 hangs in pthread_create (any program's), so md5sum runs
    # with -j1 there: the 32-bit build is tested, threads are not.
    want i686 && MD5SUM_TEST_ARGS=-j1 CLI_SUITES=$CLI_PORTABLE cross_leg i686 i686-linux-gnu-gcc qemu-i386 /usr/i686-linux-gnu portable ""
}

# Built against musl (README: what a C library words stays its own), run
# natively; with -Werror, as the cross builds.
musl_leg() {
    want musl || return 0
    if ! command -v musl-gcc >/dev/null 2>&1; then
        if [ "${REQUIRE_CROSS:-0}" = 1 ]; then
            note "not ok - musl leg not run: musl-gcc is missing (apt-get install musl-tools)"
        else
            echo "# SKIP musl leg: musl-gcc is missing (see scripts/install-deps.sh)"
        fi
        return 0
    fi
    if ! env -u MAKEFLAGS -u MFLAGS "$MAKE" -s B=build-musl CC=musl-gcc CFLAGS="${CFLAGS:--O2} -Werror" \
            ${IMPL:+IMPL=$IMPL} SANITIZE= build-musl/md5sum build-musl/md5test build-musl/flowtest; then
        note "not ok - musl build with -Werror failed"
        return 0
    fi
    note "ok - musl build with musl-gcc -Werror"
    CLI_SUITES=$CLI_MUSL EXPECT_MB=${EXPECT_MB-$(native_mb)} EXPECT_MB_FIRST=${EXPECT_MB_FIRST-$(native_mb_first)} \
        leg musl build-musl ""
}

# Two lanes at once: a leg keeps about one CPU busy (bats runs one test at
# a time, and much of a test is waiting).  The second lane's output and
# results are held back and added after.  Its legs are chosen for the lanes
# to end together: in CI on a Zen 5 VM on 2026-12-07 (each leg's builds
# included, as the "(at N s)" lines show) the build checks took 81 s,
# native 656, s390x 116, tsan 475, aarch64 280, i686 132 and musl 83.  With
# musl in the second lane the first ended 164 s before it; in the first, the
# lanes ended at 983 and 953 s.  CHECK_LANES=1 runs them one after the
# other.
if [ "${CHECK_LANES:-2}" = 1 ]; then
    build_leg
    native_leg
    tsan_leg
    aarch64_leg
    s390x_leg
    i686_leg
    musl_leg
else
    lane_log=$(mktemp) lane_results=$(mktemp)
    # A subshell: results names its own file there only.
    { results=$lane_results; tsan_leg; aarch64_leg; i686_leg; } > "$lane_log" 2>&1 &
    lane_pid=$!
    build_leg
    native_leg
    s390x_leg
    musl_leg
    wait "$lane_pid"
    cat "$lane_log"
    cat "$lane_results" >> "$results"
    rm -f "$lane_log" "$lane_results"
fi

passed=$(grep -c '^ok' "$results")
failed=$(grep -c '^not ok' "$results")
skipped=$(grep -c '^ok.*# [Ss][Kk][Ii][Pp]' "$results")
echo "$((passed - skipped)) passed, $failed failed${skipped:+, $skipped skipped}" | sed 's/, 0 skipped$//'
[ "$failed" = 0 ]
