#!/bin/sh
# mklocales.sh DIR [--big-endian] NAME...: compile the locales NAME (such as
# de_DE.UTF-8, de_DE.ISO-8859-1, C.UTF-8) into DIR, a private LOCPATH, with
# localedef (Debian package "locales").  Nothing outside DIR changes.
#   --big-endian: for a big-endian target under qemu-user (s390x), which
#     cannot read this host's locale files.
# A locale already in DIR is kept when this host loads it (`locale charmap`
# through LOCPATH names its charset); a big-endian one cannot be tried here
# and is kept.  Each is built under a temporary name and then renamed, so an
# interrupted run leaves nothing half-built.  Status 1 if any could not be
# built (localedef's diagnostics are printed then).
set -u
dir=$1; shift
order=
if [ "${1:-}" = --big-endian ]; then order=--big-endian; shift; fi
mkdir -p "$dir" || exit 1
command -v localedef >/dev/null 2>&1 || {
    echo "mklocales: localedef is missing (apt-get install locales)" >&2; exit 1; }

status=0
for name in "$@"; do
    charset=${name#*.}
    if [ -f "$dir/$name/LC_CTYPE" ]; then
        [ -n "$order" ] && continue
        [ "$(LOCPATH=$dir LC_ALL=$name locale charmap 2>/dev/null)" = "$charset" ] && continue
    fi
    tmp=$dir/.new.$name.$$
    rm -rf "$tmp"
    # Status 1 means warnings only (the files are written): judged by LC_CTYPE.
    # shellcheck disable=SC2086  # $order is empty or one flag
    log=$(localedef $order -i "${name%%.*}" -f "$charset" "$tmp" 2>&1)
    if [ -f "$tmp/LC_CTYPE" ]; then
        rm -rf "${dir:?}/$name"
        mv "$tmp" "$dir/$name"
    else
        echo "mklocales: localedef${order:+ $order} -i ${name%%.*} -f $charset failed:" >&2
        echo "$log" | sed 's/^/  /' >&2
        rm -rf "$tmp"
        status=1
    fi
done
exit $status
