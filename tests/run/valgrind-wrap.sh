#!/bin/sh
# valgrind-wrap.sh [-0 NAME] PROGRAM [ARG]...: run PROGRAM under valgrind (memcheck,
# full leak check), with NAME as its argv[0], one log per process in
# $VALGRIND_LOG_DIR.  An EXEC_WRAPPER for the bats suites: tests/helpers.bash
# runs "$EXEC_WRAPPER -0 md5sum BINARY ARGS...", the way qemu-user is called.
#
# Valgrind never writes to the program's stderr (the tests compare it byte
# for byte), and an error makes the process exit with status
# $VALGRIND_ERROR_EXITCODE (default 99): not 1, which md5sum itself returns on
# any failure, so that a test expecting status 1 still notices.  The logs are
# the record either way; tests/run/check-valgrind.sh reads them.
set -u
logdir=${VALGRIND_LOG_DIR:?set VALGRIND_LOG_DIR to a writable directory}
supp=$(cd "$(dirname "$0")" && pwd)/valgrind.supp
vg() {
    exec valgrind --tool=memcheck --leak-check=full --show-leak-kinds=all --suppressions="$supp" \
        --error-exitcode="${VALGRIND_ERROR_EXITCODE:-99}" --log-file="$logdir/vg.%p.log" "$@"
}
# Without -0 the program's argv[0] is PROGRAM as written, as without a wrapper.
[ "${1:-}" = -0 ] || vg "$@"
argv0=$2
prog=$3
shift 3
case $prog in /*) ;; *) prog=$PWD/$prog ;; esac
# Valgrind gives the program the name it was given, so the program is found
# by NAME through PATH.  When the file has another name (the copy the tests
# make for an unprivileged user), a symlink gives it one.
if [ "${prog##*/}" = "$argv0" ]; then
    dir=${prog%/*}
else
    dir=$logdir/argv0/$(id -u)-$(printf '%s' "$prog" | cksum | cut -d' ' -f1)
    [ -e "$dir/$argv0" ] || { mkdir -p "$dir" && ln -s "$prog" "$dir/$argv0"; } 2>/dev/null
fi
PATH=$dir:$PATH vg "$argv0" "$@"
