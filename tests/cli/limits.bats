#!/usr/bin/env bats
# Resource limits against GNU (issue 21, items 3, 5 and 6): few descriptors
# (ulimit -n, descriptors inherited open), little address space (ulimit -v)
# and thousands of checksum lists.  Wherever GNU's md5sum runs to the end,
# ours must give its output byte for byte at every -j; where GNU fails for
# want of the resource, ours must fail as it does.  The limits here are a
# subset: scripts/limits-sweep.sh runs every MiB from 6 to 512 and every
# descriptor limit from 6 to 64, with -j up to 256 (about two hours).
#
# Scripts call "md5sum $J": J is "-j N" for ours and empty for GNU's, so
# that no wrapper (a shell, with its own descriptors and memory) runs under
# the limit.
load '../helpers'

# After GNU's run in same_jobs (helpers.bash), whose note it sets: where
# GNU's getline failed for want of memory, GNU takes its list as ended ("no
# properly formatted checksum lines found"), dropping the line it could
# not read; ours must say "memory exhausted" (exit 1), and nothing else.
gnu_kept() {
    local t=$BATS_TEST_TMPDIR
    if grep -q 'no properly formatted checksum lines found' "$t/gnu.err"; then
        : > "$t/gnu.out"
        printf 'md5sum: memory exhausted\nexit 1\n' > "$t/gnu.err"
        # shellcheck disable=SC2034  # same_jobs' (helpers.bash)
        note=" (GNU's getline ran out of memory: ours must say memory exhausted)"
    fi
}

# Under qemu or valgrind (EXEC_WRAPPER) the limits would be theirs too:
# their own descriptors, address space and stack.
require_native_fds() {
    [ -z "${EXEC_WRAPPER:-}" ] || skip "under $EXEC_WRAPPER the limits would be its own"
}

# The sanitizers also reserve terabytes of address space.
require_native_mem() {
    require_native_fds
    [ -z "${MD5SUM_SANITIZED:-}" ] || skip "sanitizers reserve far more address space"
}

# The thread counts and descriptor limits of the loops: fewer
# under the sanitizers, where each run with threads takes over a second
# (-j above the CPU count runs as many threads as CPUs anyway).
grid_jobs() {
    if [ -n "${MD5SUM_SANITIZED:-}" ]; then job_counts 1 2; else job_counts "$@"; fi
}
grid_limits() {
    if [ -n "${MD5SUM_SANITIZED:-}" ]; then echo 6 64; else echo "$@"; fi
}

# fds N F: shell commands that set ulimit -n N and leave F descriptors free
# when md5sum starts: 0-2 open as the test left them, 3 to N-F-1 open
# (inherited, on the file "empty"), N-F to N-1 closed.
fds() {
    echo "ulimit -n $1; for ((d = 3; d < $1; d++)); do
              if [ \$d -lt $(($1 - $2)) ]; then eval \"exec \$d<empty\"; else eval \"exec \$d<&-\"; fi
          done"
}

# 120 files of make_files' sizes, up to 1 MiB + 1 (a few past the 128 KiB
# read whole), their list, their names NUL-ended, and a list of lists.
files() {
    : > empty
    make_files count=120 max=1048577 names=names0
    "$GNU_MD5SUM" f* > list
    printf '%s\0' list list > lists0
}

# 100,000 n's: a name too long for any file system.
long_name() {
    head -c 100000 /dev/zero | tr '\0' n
}

# line_list FILE MB: a checksum list whose first line names a missing file
# of MB million x's, and whose second is "empty" (empty: OK).
line_list() {
    { printf 'd41d8cd98f00b204e9800998ecf8427e  '
      head -c $(($2 * 1000000)) /dev/zero | tr '\0' x
      printf '\nd41d8cd98f00b204e9800998ecf8427e  empty\n'; } > "$1"
}

# ---- descriptors (item 3) ----

@test "ulimit -n 10: 100 small files hashed as GNU, at every -j" {
    require_native_fds
    local i
    for i in $(seq 100); do echo "small file $i" > "s$i"; done
    same_jobs "$(grid_jobs 1 2 8 64)" 'ulimit -n 10; md5sum $J s*'
}

@test "ulimit -n 8 to 16 with -j1: 320 files, a quarter past 256 KiB, hashed as GNU" {
    require_native_fds
    mkdir many
    head -c 300000 /dev/urandom > pool
    local i n
    for i in $(seq 320); do
        if [ $((i % 4)) = 0 ]; then head -c $((262144 + i * 100)) pool; else head -c $((i * 10)) pool; fi > "many/f$i"
    done
    for n in 8 10 12 16; do
        same_jobs 1 "ulimit -n $n; md5sum \$J many/*"
    done
}

@test "990 descriptors inherited under ulimit -n 1024: hashing and -c as GNU" {
    require_native_fds
    files
    same_jobs "$(grid_jobs 1 2 8 64)" "$(fds 1024 31); md5sum \$J f*"
    same_jobs "$(grid_jobs 1 2 8 64)" "$(fds 1024 31); md5sum \$J -c list"
}

# each_fd_limit ARGS: md5sum $J ARGS as GNU under ulimit -n from 6 up, with
# 1, 2, 4 or all descriptors free, at -j 1, 2, 8 and 64.
each_fd_limit() {
    local n f
    for n in $(grid_limits 6 7 8 12 16 64); do
        for f in 1 2 4 $((n - 3)); do
            [ "$f" -le $((n - 3)) ] || continue
            same_jobs "$(grid_jobs 1 2 8 64)" "$(fds "$n" "$f"); md5sum \$J $1"
        done
    done
}

@test "ulimit -n from 6 up, 1, 2, 4 or all descriptors free: small and large files hashed as GNU" {
    require_native_fds
    files
    each_fd_limit 'f* nosuch'
}

@test "ulimit -n from 6 up, 1, 2, 4 or all descriptors free: -c as GNU, Too many open files where GNU has none left" {
    require_native_fds
    files
    # One free: the list takes it, and every file fails to open, for GNU
    # as for ours.
    each_fd_limit '-c list'
}

@test "ulimit -n from 6 up: --files0-from as GNU given the names as operands, hashing and -c" {
    require_native_fds
    files
    local n f
    # The list of names holds one descriptor more than GNU's operands do:
    # two free for hashing, three for -c (lists0 names the list twice).
    for n in $(grid_limits 6 8 64); do
        for f in 2 3 $((n - 3)); do
            [ "$f" -le $((n - 3)) ] || continue
            same_jobs "$(grid_jobs 1 2 8 64)" "$(fds "$n" "$f"); md5sum \$J --files0-from=names0" \
                "$(fds "$n" "$f"); md5sum f*"
            [ "$f" -ge 3 ] || continue
            same_jobs "$(grid_jobs 1 2 8 64)" "$(fds "$n" "$f"); md5sum \$J -c --files0-from=lists0" \
                "$(fds "$n" "$f"); md5sum -c list list"
        done
    done
}

# A FIFO's writer, let in by the open of a reader, may write and leave at
# once; a reader that then closed it unread (opened ahead of its turn on a
# descriptor kept spare) lost its bytes, and opened again, waited for a
# writer that never came (found by difffuzz).  A FIFO is now opened only at
# its turn (source_open); the preload stalls each close of a FIFO, so that
# a writer let in early would surely have left by then.
@test "ulimit -n 6 to 8: FIFOs after a large file, their writers gone long before their turn, hashing and -c as GNU" {
    require_native_fds
    need_preload
    head -c 1048577 /dev/urandom > big
    head -c 1000 /dev/urandom > src
    head -c 3000 /dev/urandom > src2
    echo small > small
    { "$GNU_MD5SUM" big; "$GNU_MD5SUM" src | sed 's/src$/fifo/'
      "$GNU_MD5SUM" src2 | sed 's/src2$/fifo2/'; "$GNU_MD5SUM" small; } > list
    local n args feed='rm -f fifo fifo2; mkfifo fifo fifo2
        timeout 20 sh -c "cat src > fifo" & timeout 20 sh -c "cat src2 > fifo2" &'
    for n in $(grid_limits 6 7 8); do
        for args in 'big fifo small fifo2' 'small big fifo fifo2' '-c list'; do
            same_jobs "$(grid_jobs 1 2 8)" \
                "$feed $(fds "$n" $((n - 3))); FIFO_CLOSE_DELAY_MS=100 LD_PRELOAD=$preload timeout 20 md5sum \$J $args; wait" \
                "$feed $(fds "$n" $((n - 3))); timeout 20 md5sum \$J $args; wait"
        done
    done
}

# Nor does a FIFO hold a descriptor before its turn, where the last two are
# left to the rest of md5sum (a catalogue that an error message loads).
# Ours waits on the first FIFO, whose writer waits for "go"; its
# descriptors are counted meanwhile: 0-2 and that FIFO's.
@test "ulimit -n 7: FIFOs not opened before their turn, descriptors stay free" {
    require_native_fds
    require_gnu
    head -c 1000 /dev/urandom > src
    local i j f pid call fds pids
    for f in slow fifo2 fifo3 fifo4; do "$GNU_MD5SUM" src | sed "s/src\$/$f/"; done > expected
    for j in $(grid_jobs 1 2 8); do
        rm -f slow fifo2 fifo3 fifo4 go && mkfifo slow fifo2 fifo3 fifo4
        # Its own jobs waited for by number: bats' BATS_TEST_TIMEOUT
        # watchdog is a job of this shell too.
        timeout 20 sh -c '{ until [ -e go ]; do sleep 0.01; done; cat src; } > slow' &
        pids=$!
        for f in fifo2 fifo3 fifo4; do timeout 20 sh -c "cat src > $f" & pids="$pids $!"; done
        ( eval "$(fds 7 4)"; exec timeout 20 "$MD5SUM" -j "$j" slow fifo2 fifo3 fifo4 > out ) &
        pids="$pids $!"
        # Until it waits for the first to be written (poll, or ppoll: x86-64
        # 7 and 271, aarch64 73), or 20 s have passed.
        for ((i = 0; i < 2000; i++)); do
            pid=$(pgrep -P "${pids##* }") && read -r call _ < "/proc/$pid/syscall" &&
                [[ " 7 271 73 " == *" $call "* ]] && break
            sleep 0.01
        done
        fds=$(ls "/proc/$pid/fd" | awk '$1 < 7' | wc -l)
        touch go
        # shellcheck disable=SC2086  # a list of numbers
        wait $pids
        echo "-j $j: $fds descriptors of 7 open"
        [ "$fds" -le 4 ]
        cmp out expected
    done
}

# ---- address space (item 5) ----

@test "ulimit -v 6 to 512 MiB: a 100,000-character name between good files, File name too long and the rest, as GNU" {
    require_native_mem
    head -c 20000000 /dev/urandom > big
    echo small > small
    long_name > name
    local lim
    # The issue's: prlimit --as=$((24 << 20)) md5sum big small "$n" small
    for lim in 6 8 12 16 20 24 32 64 128 512; do
        same_jobs "1 2 64" "n=\$(cat name); ulimit -v $((lim << 10)); md5sum \$J big small \"\$n\" small"
    done
}

@test "ulimit -v 6 to 512 MiB: a 1 MB list line naming a missing file, then empty: OK, as GNU" {
    require_native_mem
    : > empty
    line_list list 1
    local lim
    for lim in 6 8 12 16 24 32 64 128 512; do
        same_jobs "1 2 64" "ulimit -v $((lim << 10)); md5sum \$J -c list"
    done
}

@test "ulimit -v: list lines of 8, 32 and 100 MB, as GNU where it reads them, out of memory where it cannot" {
    require_native_mem
    : > empty
    line_list list8 8
    line_list list32 32
    line_list list100 100
    local lim
    # Around the limits GNU needs (on this machine: 8 MB, 19 MiB; 32 MB,
    # 66 MiB; 100 MB, 227 MiB), and well past them.
    for lim in 6 16 24 512; do
        same_jobs "1 2 64" "ulimit -v $((lim << 10)); md5sum \$J -c list8"
    done
    for lim in 64 96; do
        same_jobs "1 2 64" "ulimit -v $((lim << 10)); md5sum \$J -c list32"
    done
    same_jobs "1 64" "ulimit -v $((256 << 10)); md5sum \$J -c list100"
}

@test "ulimit -v 6 to 512 MiB: small and large files hashed and checked as GNU" {
    require_native_mem
    files
    # A stream long enough to be read on a thread beside its hashing
    # (src/stream.h), where its thread and buffers can be had.
    head -c 24000000 /dev/urandom > stream
    local lim
    for lim in 6 8 12 16 24 32 64 128 512; do
        same_jobs "1 2 64" "ulimit -v $((lim << 10)); md5sum \$J f* nosuch"
        same_jobs "1 2 64" "ulimit -v $((lim << 10)); md5sum \$J -c list"
        same_jobs "2" "ulimit -v $((lim << 10)); md5sum \$J - < stream"
    done
}

# ---- stack ----

@test "ulimit -s 24 KiB: small and large files hashed and checked as GNU" {
    # GNU's md5sum runs from about 16 KiB of stack, the environment's
    # strings included: the limit is set by a shell started without make's
    # and bats' (several KiB), which then becomes md5sum.  Reading the
    # cgroup's limits took 17 KiB of ours (src/cgroup.c), and runs crashed
    # below 32.  The sanitizers need far more; under qemu the stack would
    # be qemu's.
    require_native_fds
    [ -z "${MD5SUM_SANITIZED:-}" ] || skip "sanitizers need far more stack"
    files
    local run='env -i PATH="$PATH" J="$J" sh -c "ulimit -s 24; exec md5sum \$J'
    same_jobs "1 2 64" "$run f* nosuch\""
    same_jobs "1 2 64" "$run -c list\""
    head -c 24000000 /dev/urandom > stream
    same_jobs "2" "$run - < stream\""
}

# ---- thousands of checksum lists (item 6) ----

# 3,000 lists of two entries, as /var/lib/dpkg/info/*.md5sums, over 200
# files; one entry does not match and one names a missing file.
lists() {
    mkdir d
    local i
    for i in $(seq 0 199); do echo "package file $i" > "d/f$i"; done
    (cd d && "$GNU_MD5SUM" f*) | sed 's,  ,  d/,' > all
    awk '{ line[NR - 1] = $0 }
         END { for (i = 1; i <= 3000; i++) {
                   f = sprintf("l%04d.md5sums", i)
                   print line[i % 200] > f
                   print line[(i * 7 + 3) % 200] > f
                   close(f) } }' all
    sed -i 's/^./0/' l1500.md5sums
    sed -i 's,d/f7$,d/gone,' l2000.md5sums
    printf '%s\0' l*.md5sums > lists0
}

@test "-c over 3,000 two-entry lists: GNU's output at -j 1, 2, 16 and 64" {
    lists
    same_jobs "$(grid_jobs 1 2 16 64)" 'md5sum $J -c l*.md5sums'
    same_jobs "$(grid_jobs 1 2 16 64)" 'md5sum $J -c --quiet l*.md5sums'
}

@test "--files0-from with -c over 3,000 two-entry lists: as GNU given them as operands" {
    lists
    same_jobs "$(grid_jobs 1 2 16 64)" 'md5sum $J -c --files0-from=lists0' 'md5sum -c l*.md5sums'
}

@test "-c over many lists starts each thread once, not a pool for each list" {
    [ -z "${EXEC_WRAPPER:-}" ] || skip "under qemu strace would trace qemu"
    [ -z "${MD5SUM_SANITIZED:-}" ] || skip "sanitizers start threads of their own"
    command -v strace >/dev/null || skip "strace is not installed"
    strace -f -qq -o /dev/null true 2>/dev/null || skip "strace cannot trace here"
    lists
    # 99 lists are enough: a pool for each would start threads 99 times.
    printf '%s\0' l00*.md5sums > some0
    local j n
    for j in 2 16 64; do
        strace -f -qq -e trace=clone,clone3 -o trace "$MD5SUM" -j "$j" -c l00*.md5sums > /dev/null 2>&1 || true
        n=$(grep -c clone trace || true)
        echo "-j $j: $n threads started"
        [ "$n" -le "$j" ]
        strace -f -qq -e trace=clone,clone3 -o trace "$MD5SUM" -j "$j" -c --files0-from=some0 > /dev/null 2>&1 || true
        n=$(grep -c clone trace || true)
        echo "-j $j --files0-from: $n threads started"
        [ "$n" -le "$j" ]
    done
}

# ---- peak RSS (issue 19: at most 96 MiB) ----

@test "peak RSS under 96 MiB checking lists, and hashing at -j 1 and 64: large files, small ones, one huge one" {
    command -v /usr/bin/time >/dev/null || skip "GNU time(1) is not installed (apt-get install time)"
    require_native_mem
    # As engine.bats' test of hashing at the default -j: more large files
    # than are read at once, small ones beyond the buffers, and a file far
    # longer than its read-ahead (sparse: only our buffers count).
    mkdir large small huge
    local i
    for i in $(seq 8); do truncate -s 16777216 "large/v$i"; done
    for i in $(seq 80); do truncate -s $((3145728 + i * 4099)) "large/p$i"; done
    for i in $(seq 400); do truncate -s 262144 "small/s$i"; done
    truncate -s 268435456 huge/h
    local set j kib
    for set in large small huge; do
        "$MD5SUM" "$set"/* > "$set.md5"
        for j in $(job_counts 1 2 64); do
            /usr/bin/time -f %M -o rss.txt "$MD5SUM" -j "$j" -c "$set.md5" > /dev/null
            kib=$(tail -n 1 rss.txt)
            echo "-c $set -j $j: peak RSS $kib KiB"
            [ "$kib" -le $((96 * 1024)) ]
            # Hashing at the default (-j 2 here) is engine.bats'.
            [ "$j" != 2 ] || continue
            /usr/bin/time -f %M -o rss.txt "$MD5SUM" -j "$j" "$set"/* > /dev/null
            kib=$(tail -n 1 rss.txt)
            echo "$set -j $j: peak RSS $kib KiB"
            [ "$kib" -le $((96 * 1024)) ]
        done
    done
}
