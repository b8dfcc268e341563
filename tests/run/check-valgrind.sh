#!/bin/sh
# check-valgrind.sh: the CLI and conformance bats suites with every run of our
# md5sum under valgrind (tests/run/valgrind-wrap.sh), then a summary of the
# logs.  Fails if a test fails, or if any run has a memcheck error or leaks
# memory (definitely, indirectly or possibly lost).  Blocks still reachable
# at exit are counted and reported, not failed.
# Environment: B (build dir with md5sum), VALGRIND_LOG_DIR (default $B/valgrind).
set -u
B=${B:-build}
cd "$(dirname "$0")/../.." || exit 2
logs=${VALGRIND_LOG_DIR:-$B/valgrind}
case $logs in /*) ;; *) logs=$PWD/$logs ;; esac
command -v valgrind >/dev/null 2>&1 || { echo "check-valgrind: valgrind is missing (apt-get install valgrind)" >&2; exit 2; }
rm -rf "$logs"
mkdir -p "$logs"
chmod 1777 "$logs"   # the permission tests run md5sum as nobody

VALGRIND_LOG_DIR=$logs MD5SUM=$B/md5sum EXEC_WRAPPER=$PWD/tests/run/valgrind-wrap.sh \
    bats --tap tests/cli tests/conformance | tee "$logs/bats.tap"
passed=$(grep -c '^ok' "$logs/bats.tap")
failed=$(grep -c '^not ok' "$logs/bats.tap")

runs=0 errors=0 leaking=0 reachable_runs=0 reachable_max=0
for f in "$logs"/vg.*.log; do
    [ -e "$f" ] || continue
    runs=$((runs + 1))
    if ! grep -q 'ERROR SUMMARY: 0 errors' "$f"; then
        errors=$((errors + 1))
        echo "# valgrind errors: $f"
        sed 's/^/#   /' "$f" | head -n 40
    fi
    if grep -Eq '(definitely|indirectly|possibly) lost: [1-9]' "$f"; then
        leaking=$((leaking + 1))
    fi
    r=$(sed -n 's/.*still reachable: \([0-9,]*\) bytes.*/\1/p' "$f" | tr -d ,)
    if [ -n "$r" ] && [ "$r" -gt 0 ]; then
        reachable_runs=$((reachable_runs + 1))
        [ "$r" -gt "$reachable_max" ] && reachable_max=$r
    fi
done
echo "# valgrind: $runs runs of md5sum, $errors with memcheck errors, $leaking leaking;" \
     "$reachable_runs ended with blocks still reachable (at most $reachable_max bytes)"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$errors" = 0 ] && [ "$leaking" = 0 ] && [ "$runs" -gt 0 ]
