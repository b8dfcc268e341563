#!/bin/sh
# bench-mb.sh [SAMPLES]: aggregate cycles/byte of the multi-buffer lane
# kernels by messages in flight (build/mb_bench), with the date and CPU so a
# figure can be quoted.  A measurement, not a test: make check never runs it.
# On a shared machine run it two or three times and quote the minima.
set -eu
B=${B:-build}
cd "$(dirname "$0")/.."
[ -x "$B/mb_bench" ] || ${MAKE:-make} -s B="$B" "$B/mb_bench"
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $(uname -m); $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'); ${CC:-cc} $(${CC:-cc} -dumpversion 2>/dev/null)"
# shellcheck disable=SC2086  # EXEC_WRAPPER is a command line
${EXEC_WRAPPER:-} "$B/mb_bench" "$@"
