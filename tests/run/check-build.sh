#!/bin/sh
# check-build.sh: tests of the build itself, as TAP-like lines.
#   - warning-free under -Werror with gcc and clang (when present), with
#     translations and with make NLS=0, which must not call gettext at all
#   - the man page is mandoc -Tlint clean
#   - make install / uninstall honour PREFIX and DESTDIR
set -u
cd "$(dirname "$0")/../.." || exit 2
MAKE=${MAKE:-make}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for cc in gcc clang; do
    if ! command -v "$cc" >/dev/null 2>&1; then
        echo "ok - $cc -Werror build # SKIP $cc is not installed"
        continue
    fi
    # SANITIZE= : these are the plain builds, even under make check SANITIZE=1.
    if env -u MAKEFLAGS "$MAKE" -s B="$tmp/$cc" CC="$cc" CFLAGS="-O2 -Werror" SANITIZE= \
            "$tmp/$cc/md5sum" "$tmp/$cc/md5test" "$tmp/$cc/flowtest" > "$tmp/$cc.log" 2>&1; then
        echo "ok - $cc builds with -Wall -Wextra -Wpedantic ... -Werror"
    else
        echo "not ok - $cc builds with -Wall -Wextra -Wpedantic ... -Werror"
        sed 's/^/# /' "$tmp/$cc.log"
    fi
    b=$tmp/$cc-nls0
    if ! env -u MAKEFLAGS "$MAKE" -s B="$b" CC="$cc" CFLAGS="-O2 -Werror" SANITIZE= NLS=0 \
            "$b/md5sum" > "$b.log" 2>&1; then
        echo "not ok - $cc builds with NLS=0 and -Werror"
        sed 's/^/# /' "$b.log"
    elif nm -u "$b/md5sum" | grep -q 'textdomain\|gettext'; then
        echo "not ok - $cc builds with NLS=0: the binary still calls gettext"
    else
        echo "ok - $cc builds with NLS=0 and -Werror, without gettext"
    fi
done

if command -v mandoc >/dev/null 2>&1; then
    if out=$(mandoc -Tlint -W warning man/md5sum.1 2>&1) && [ -z "$out" ]; then
        echo "ok - man/md5sum.1 is mandoc -Tlint clean"
    else
        echo "not ok - man/md5sum.1 is mandoc -Tlint clean"
        echo "$out" | sed 's/^/# /'
    fi
else
    echo "ok - man page lint # SKIP mandoc is not installed (apt-get install mandoc)"
fi

d=$tmp/dest
if env -u MAKEFLAGS "$MAKE" -s B="$tmp/gcc" SANITIZE= PREFIX=/opt/m5 DESTDIR="$d" install >/dev/null 2>&1 &&
   [ -x "$d/opt/m5/bin/md5sum" ] && [ -f "$d/opt/m5/share/man/man1/md5sum.1" ] &&
   env -u MAKEFLAGS "$MAKE" -s PREFIX=/opt/m5 DESTDIR="$d" uninstall >/dev/null 2>&1 &&
   [ ! -e "$d/opt/m5/bin/md5sum" ] && [ ! -e "$d/opt/m5/share/man/man1/md5sum.1" ]; then
    echo "ok - make install and uninstall honour PREFIX and DESTDIR"
else
    echo "not ok - make install and uninstall honour PREFIX and DESTDIR"
fi
