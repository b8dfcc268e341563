#!/bin/sh
# gen-vectors.sh MD5TEST DIR EXPECTED
# Write the core-test messages into DIR with MD5TEST (run through $EXEC_WRAPPER)
# and digest them with an independent reference, the system md5sum or
# openssl, into EXPECTED.  Our own md5sum is never the reference.
set -eu
md5test=$1 dir=$2 expected=$3
rm -rf "$dir"
mkdir -p "$dir"
# shellcheck disable=SC2086  # EXEC_WRAPPER is a command line
${EXEC_WRAPPER:-} "$md5test" write-inputs "$dir"
if [ -x /usr/bin/md5sum ]; then
    (cd "$dir" && /usr/bin/md5sum -- *) | sed "s|  |  $dir/|" > "$expected"
elif command -v openssl >/dev/null 2>&1; then
    (cd "$dir" && openssl md5 -r -- *) | sed "s| \*| *$dir/|" > "$expected"
else
    echo "gen-vectors.sh: need /usr/bin/md5sum or openssl as the reference" >&2
    exit 1
fi
