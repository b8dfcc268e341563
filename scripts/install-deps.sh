#!/bin/sh
# install-deps.sh: make sure the test tools exist.  As root with apt-get, the
# missing Debian packages are installed (and we say so); otherwise we print
# what to install and carry on, and the legs that need them are skipped.
#   usage: install-deps.sh [cross]   ("cross" adds the cross compilers, qemu
#   and musl)
set -u

need=""
want() { # want PACKAGE TEST-COMMAND...
    pkg=$1; shift
    "$@" >/dev/null 2>&1 || need="$need $pkg"
}
want bats command -v bats
want bats-support test -f /usr/lib/bats/bats-support/load.bash
want bats-assert test -f /usr/lib/bats/bats-assert/load.bash
want mandoc command -v mandoc
# a FUSE file system, and btrfs on a loop device, for tests/cli/mechanisms.bats
want bindfs command -v bindfs
want btrfs-progs command -v mkfs.btrfs
# localedef, for the locales of tests/cli/translations.bats (and s390x's C.UTF-8)
want locales test -f /usr/share/i18n/locales/C
if [ "${1:-}" = cross ]; then
    want gcc-aarch64-linux-gnu command -v aarch64-linux-gnu-gcc
    want libc6-dev-arm64-cross test -d /usr/aarch64-linux-gnu/include
    want gcc-s390x-linux-gnu command -v s390x-linux-gnu-gcc
    want libc6-dev-s390x-cross test -d /usr/s390x-linux-gnu/include
    want gcc-i686-linux-gnu command -v i686-linux-gnu-gcc
    want libc6-dev-i386-cross test -d /usr/i686-linux-gnu/include
    want qemu-user command -v qemu-aarch64
    want musl-tools command -v musl-gcc
fi
[ -n "$need" ] || exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "install-deps: installing missing test packages:$need"
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    if apt-get install -y --no-install-recommends $need >/dev/null 2>&1 ||
       { apt-get update >/dev/null 2>&1 &&
         apt-get install -y --no-install-recommends $need >/dev/null 2>&1; }; then
        echo "install-deps: installed$need"
        exit 0
    fi
    echo "install-deps: apt-get could not install:$need" >&2
else
    echo "install-deps: missing test packages:$need" >&2
    echo "install-deps: install them with: sudo apt-get install$need" >&2
fi
exit 1
