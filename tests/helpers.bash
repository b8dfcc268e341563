# Shared set-up for the bats suites.
#
# Environment: MD5SUM (the binary under test, required), EXEC_WRAPPER (e.g.
# "qemu-aarch64 -L /usr/aarch64-linux-gnu" for a cross build), GNU_MD5SUM (the
# reference, default /usr/bin/md5sum).  GNU wc 9.1 from PATH is the reference
# for --files0-from (like_wc).
#
# Each test runs in its own empty directory.  Two directories hold a program
# called "md5sum": $OURS (ours, wrapped in qemu if needed) and $GNU (the
# reference).  Scripts given to `ours`, `gnu` and `same` call plain `md5sum`,
# so both programs see argv[0] = "md5sum" and their messages compare byte for
# byte without rewriting.

bats_require_minimum_version 1.5.0

# load_library NAME: what bats_load_library NAME loads.  Every test loads
# these afresh, and the libraries' own load.bash forks $(dirname) once for
# each of their 15 files: 0.13 s a test on this VM (make check from a clean
# clone went from 801 s to 755 s without them).  Their src/*.bash hold only functions, so the files are
# sourced directly, with the library's loader kept for another layout.
load_library() {
    local dir f
    local -a dirs
    IFS=: read -ra dirs <<< "$BATS_LIB_PATH"
    for dir in "${dirs[@]}"; do
        if [ -f "$dir/$1/load.bash" ] && [ -d "$dir/$1/src" ]; then
            for f in "$dir/$1"/src/*.bash; do
                # shellcheck disable=SC1090  # the library's own files
                source "$f" || return 1
            done
            return 0
        fi
    done
    bats_load_library "$1"
}
load_library bats-support
load_library bats-assert

GNU_MD5SUM=${GNU_MD5SUM:-/usr/bin/md5sum}

setup() {
    : "${MD5SUM:?set MD5SUM to the md5sum binary under test}"
    case $MD5SUM in /*) ;; *) MD5SUM=$PWD/$MD5SUM ;; esac
    OURS=$BATS_TEST_TMPDIR/ours
    GNU=$BATS_TEST_TMPDIR/gnu
    mkdir -p "$OURS" "$GNU" "$BATS_TEST_TMPDIR/w"
    install_ours "$MD5SUM"
    ln -s "$GNU_MD5SUM" "$GNU/md5sum"
    cd "$BATS_TEST_TMPDIR/w" || return 1
    export LC_ALL=${TEST_LOCALE:-C}
}

# Put our program at $OURS/md5sum, running BINARY (under $EXEC_WRAPPER if
# set, and given $MD5SUM_TEST_ARGS first if set: the i686 leg passes -j1,
# since qemu-i386 7.2 hangs in every pthread_create); OURS_RUNS says which.
install_ours() {
    OURS_RUNS="$1 ${MD5SUM_TEST_ARGS:-}"
    rm -f "$OURS/md5sum"
    if [ -n "${EXEC_WRAPPER:-}" ]; then
        # qemu's -0 sets argv[0], so the program name stays "md5sum".
        printf '#!/bin/sh\nexec %s -0 md5sum "%s" %s "$@"\n' "$EXEC_WRAPPER" "$1" \
            "${MD5SUM_TEST_ARGS:-}" > "$OURS/md5sum"
        chmod 755 "$OURS/md5sum"
    elif [ -n "${MD5SUM_TEST_ARGS:-}" ]; then
        printf '#!/bin/bash\nexec -a md5sum "%s" %s "$@"\n' "$1" "$MD5SUM_TEST_ARGS" > "$OURS/md5sum"
        chmod 755 "$OURS/md5sum"
    else
        ln -s "$1" "$OURS/md5sum"
    fi
}

# Our md5sum as "md5sum" again, given -j N before the script's arguments
# (GNU's md5sum has no -j: scripts stay the same for both).
ours_jobs() {
    local bin=$OURS/md5sum.bin
    [ -f "$bin" ] || { cp "$MD5SUM" "$bin"; chmod 755 "$bin"; }
    MD5SUM_TEST_ARGS="-j $1" install_ours "$bin"
}

# True where the leg gives md5sum -j1 itself (MD5SUM_TEST_ARGS: qemu-i386
# hangs in pthread_create): it runs no other thread count.
one_job_leg() {
    [ -n "${MD5SUM_TEST_ARGS:-}" ]
}

# job_counts J...: the thread counts of J... this leg can run, for loops
# over ours_jobs.
job_counts() {
    if one_job_leg; then echo 1; else echo "$@"; fi
}

# The sizes where the engine and MD5 change what they do, for file sets:
# MD5's block (55 and 56 bytes end in one block or two), a page, 64 KiB,
# the engine's read chunk (CHUNK, 128 KiB: a file up to it is one read) and
# its multiples, up to a few MiB.
FILE_EDGES=(0 1 3 55 56 63 64 65 127 128 4095 4096 4097 65535 65536 65537
            131071 131072 131073 262143 262144 262145 524288 1048575 1048576 1048577
            2097151 2097152 2097153 3145728)

# make_files [count=N] [max=BYTES] [large=PERCENT] [seed=S] [odd] [names=FILE]
# N files in the current directory, named f00, f01, ... (f000, ... from
# 101 files on), cut from one pool of random bytes.  Sizes: each of
# FILE_EDGES up to BYTES (default 3 MiB), in order, then one between BYTES/2
# and BYTES, then (awk's srand(S), default 1) PERCENT (default 10) past the
# chunk, up to 4 MiB or BYTES, and the others up to the chunk: a boundary,
# or whole blocks.  N defaults to the boundaries and the large one: a file
# of each class.  With "odd", some names hold a space, a backslash or a
# newline, or start with "-".  names=FILE: the names in order, each ended
# by a NUL.
make_files() {
    local count='' max=3145728 large=10 seed=1 odd=0 names=/dev/null a e edges=()
    for a; do
        case $a in
            count=*) count=${a#*=} ;;
            max=*) max=${a#*=} ;;
            large=*) large=${a#*=} ;;
            seed=*) seed=${a#*=} ;;
            names=*) names=${a#*=} ;;
            odd) odd=1 ;;
            *) echo "make_files: $a?" >&2; return 1 ;;
        esac
    done
    for e in "${FILE_EDGES[@]}"; do [ "$e" -gt "$max" ] || edges+=("$e"); done
    : "${count:=$((${#edges[@]} + 1))}"
    local pool=$BATS_TEST_TMPDIR/pool
    [ "$(stat -c %s "$pool" 2>/dev/null || echo -1)" -ge "$max" ] ||
        head -c "$max" /dev/urandom > "$pool"
    local size name
    awk -v n="$count" -v max="$max" -v large="$large" -v seed="$seed" -v odd="$odd" \
        -v edges="${edges[*]}" 'BEGIN {
        srand(seed)
        ne = split(edges, edge, " ")
        chunk = 262144; cap = max < 4194304 ? max : 4194304
        for (small = 0; small < ne && edge[small + 1] <= chunk + 1; small++)
            continue
        w = n > 100 ? 3 : 2
        for (i = 0; i < n; i++) {
            if (i < ne) size = edge[i + 1]
            else if (i == ne) size = max - int(rand() * (max / 2))
            else if (rand() * 100 < large && cap > chunk + 1)
                size = chunk + 2 + int(rand() * (cap - chunk - 1))
            else if (rand() < 0.5) size = edge[1 + int(rand() * small)]
            else size = 64 * int(rand() * (chunk / 64 + 1))
            name = sprintf("f%0" w "d", i)
            if (odd && i % 7 == 3) name = name " sp"
            if (odd && i % 11 == 5) name = name "\\bs"
            if (odd && i % 13 == 6) name = name "\nnl"
            if (odd && i % 17 == 8) name = "-" name
            printf "%d\t%s%c", size, name, 0
        }
    }' | while IFS=$'\t' read -r -d '' size name; do
        head -c "$size" "$pool" > "./$name"
        printf '%s\0' "$name"
    done > "$names"
}

# ours SCRIPT / gnu SCRIPT: run SCRIPT with bash, "md5sum" being ours / GNU's,
# as $RUN_AS (a command prefix such as as_nobody) when that is set.
# need_preload: the fault injector (tests/fault/fault_preload.c) in
# $preload; the test is skipped under qemu, which LD_PRELOAD cannot reach.
need_preload() {
    [ -z "${EXEC_WRAPPER:-}" ] || skip "LD_PRELOAD cannot reach a program run by qemu"
    preload=$(dirname "$MD5SUM")/fault_preload.so
    [ -f "$preload" ] || skip "$preload is not built (make check builds it)"
}

ours() { PATH=$OURS:$PATH ${RUN_AS:-} bash -c "$1"; }
gnu() { PATH=$GNU:$PATH ${RUN_AS:-} bash -c "$1"; }

# Asked once a test (same calls it each time, often in loops).
is_gnu_reference() {
    if [ -z "${gnu_is_reference:-}" ]; then
        gnu_is_reference=no
        if "$GNU_MD5SUM" --version 2>/dev/null | head -n 1 | grep -q 'GNU coreutils'; then
            gnu_is_reference=yes
        fi
    fi
    [ "$gnu_is_reference" = yes ]
}

require_gnu() {
    is_gnu_reference || skip "reference $GNU_MD5SUM is not GNU md5sum: differential test skipped"
}

# Version-specific behaviour: only GNU coreutils 9.1 is the specification.
require_gnu_91() {
    require_gnu
    "$GNU_MD5SUM" --version | head -n 1 | grep -q ' 9\.1$' ||
        skip "reference is $("$GNU_MD5SUM" --version | head -n 1), not coreutils 9.1"
}

# same SCRIPT: run SCRIPT with our md5sum and with GNU's, in the same
# directory, and fail unless stdout (bytes), stderr (bytes) and the exit
# status are identical.  The script must be repeatable (it runs twice).
same() {
    same_with "$1" "$1"
}

# same_with SCRIPT GNU_SCRIPT: like same, but GNU's md5sum runs GNU_SCRIPT,
# for what ours is asked in a way GNU's has no option for (names read from a
# --files0-from list, against the same names as operands).
same_with() {
    require_gnu
    kept_run ours "$1"
    kept_run gnu "$2"
    kept_same "$1"
}

# same_jobs "N..." SCRIPT [GNU_SCRIPT]: like same (same_with), with ours at
# each thread count N of job_counts N... in turn, and GNU's run once: it has
# no -j, so its output is the same for each.  Each script runs with J set:
# "-j N" for ours, empty for GNU's.  A script that names $J gives ours -j
# itself ("md5sum $J ..."), so that no wrapper runs under its limits (a
# shell, with descriptors, memory and stack of its own); any other is run
# with ours given -j by ours_jobs, and ours stays at the last count.  A
# test may define gnu_kept, run after GNU's run: it may change what was
# kept of it, and set note, added to the failure messages.  No subshell or
# command beyond the runs where none is needed: limits.bats makes hundreds
# of calls.
same_jobs() {
    require_gnu
    local j note='' counts=$1
    ! one_job_leg || counts=1
    kept_run gnu "J=; ${3:-$2}"
    ! declare -F gnu_kept > /dev/null || gnu_kept
    for j in $counts; do
        case $2 in
        *'$J'*) [ "$OURS_RUNS" = "$MD5SUM ${MD5SUM_TEST_ARGS:-}" ] || install_ours "$MD5SUM" ;;
        *) ours_jobs "$j" ;;
        esac
        kept_run ours "J='-j $j'; $2"
        kept_same "$2" " at -j $j" "$note" || return 1
    done
}

# kept_run WHO SCRIPT: WHO (ours or gnu) runs SCRIPT; its stdout, and its
# stderr with the exit status after it, are kept for kept_same.
kept_run() {
    local t=$BATS_TEST_TMPDIR rc=0
    "$1" "$2" > "$t/$1.out" 2> "$t/$1.err" || rc=$?
    echo "exit $rc" >> "$t/$1.err"
}

# kept_same SCRIPT [WHERE [NOTE]]: fail unless the outputs kept of ours and
# of GNU are identical, byte for byte; the difference is shown from the
# first 64 KiB of each (an output may be hundreds of MB).
kept_same() {
    local t=$BATS_TEST_TMPDIR
    if ! cmp -s "$t/ours.out" "$t/gnu.out"; then
        echo "stdout differs${2:-} for: $1${3:-}"
        cmp "$t/gnu.out" "$t/ours.out"
        diff <(head -c 65536 "$t/gnu.out" | od -An -c) <(head -c 65536 "$t/ours.out" | od -An -c) |
            head -n 40
        return 1
    fi
    if ! cmp -s "$t/ours.err" "$t/gnu.err"; then
        echo "stderr or exit status differs${2:-} for: $1${3:-}"
        diff <(head -c 65536 "$t/gnu.err") <(head -c 65536 "$t/ours.err") | head -n 40
        return 1
    fi
}

# like_wc SCRIPT: run SCRIPT with our md5sum and with GNU wc 9.1 called
# "md5sum" (a symbolic link, so its messages name md5sum), and fail unless
# stderr and the exit status are identical: for what md5sum takes from wc
# (--files0-from).  stdout is not compared: wc counts where md5sum hashes.
like_wc() {
    local t=$BATS_TEST_TMPDIR rc=0
    mkdir -p "$t/wc"
    ln -sf "$(command -v wc)" "$t/wc/md5sum"
    # Through the link: a multi-call coreutils would run its md5sum.
    "$t/wc/md5sum" --version 2>/dev/null | head -n 1 | grep -q '^wc (GNU coreutils) 9\.1$' ||
        skip "wc is not GNU wc 9.1 (or not when called md5sum): comparison with it skipped"
    ours "$1" > /dev/null 2> "$t/ours.err" || rc=$?
    echo "exit $rc" >> "$t/ours.err"
    rc=0
    PATH=$t/wc:$PATH ${RUN_AS:-} bash -c "$1" > /dev/null 2> "$t/wc.err" || rc=$?
    echo "exit $rc" >> "$t/wc.err"
    if ! cmp -s "$t/ours.err" "$t/wc.err"; then
        echo "stderr or exit status differs from wc's for: $1"
        diff "$t/wc.err" "$t/ours.err" | head -n 40
        return 1
    fi
}

# same_merged SCRIPT: like same, with stderr sent into stdout, so the
# interleaving of the two streams is compared too.
same_merged() {
    same "{ $1 ; } 2>&1"
}

# True when our md5sum runs under valgrind (tests/run/check-valgrind.sh).
# Valgrind opens files of its own on any of descriptors 0-2 that are closed
# when it starts, so "stdin or stdout closed" cannot be tested through it:
# GNU's md5sum under valgrind misses the same errors.  It also keeps its log
# open on the lowest descriptor free (3 where a test closes 3-9), reserves
# far more address space and memory, and passes on only the name it is
# started by.
under_valgrind() {
    case ${EXEC_WRAPPER:-} in *valgrind*) return 0 ;; esac
    return 1
}

# Run as an unprivileged user when we are root (permission tests need it).
as_nobody() {
    if [ "$(id -u)" = 0 ]; then
        setpriv --reuid=65534 --regid=65534 --clear-groups -- "$@"
    else
        "$@"
    fi
}

# Let as_nobody reach the test directory and a copy of our binary (the build
# tree may sit under a private home directory).
open_to_nobody() {
    local d=$BATS_TEST_TMPDIR/w
    while [ "$d" != "$BATS_RUN_TMPDIR" ] && [ "$d" != / ]; do
        chmod a+rx "$d"
        d=$(dirname "$d")
    done
    chmod a+rx "$BATS_RUN_TMPDIR" "$OURS" "$GNU"
    cp "$MD5SUM" "$OURS/md5sum.bin"
    chmod 755 "$OURS/md5sum.bin"
    install_ours "$OURS/md5sum.bin"
}
