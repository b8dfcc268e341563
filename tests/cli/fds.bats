#!/usr/bin/env bats
# Names that reach the opening process's own descriptors: /dev/fd/N,
# /dev/stdin, /dev/stdout, /dev/stderr, /proc/self/fd/N and their kin, and
# symlinks to them.  GNU md5sum opens one input at a time, so such a name
# reaches only what the user left open (and, with -c, the list being read);
# ours holds more (inputs opened ahead, /dev/null on a closed 0, 1 or 2),
# which the names must not reach (src/fdview.c).  Every run against GNU.
#
# Left out, each for a reason:
#  - /dev/stdout or /dev/stderr open to a pipe: GNU opens the pipe's read
#    end and waits for data its own write end never sends: it hangs.
#  - /dev/stdout or /dev/stderr to a file after an earlier operand: GNU has
#    written that operand's line or diagnostic by then, ours may not have
#    (when output is written, not which descriptors names reach).
#  - a checksum list from a pipe naming /dev/stdin: what GNU's open of the
#    pipe reads depends on how much of the list the writer had written.
#  - -c with --files0-from: our list of lists holds the lowest free number,
#    GNU's md5sum -c with the same lists as operands would give it the list.
load '../helpers'

# Which names reach which descriptor cannot be told under valgrind, whose
# log takes the lowest one free (helpers.bash).
log_fd_free() {
    ! under_valgrind || skip "valgrind keeps its log open on descriptor 3 (helpers.bash)"
}

# same, with the descriptors from 3 to 9 closed first (bats keeps its own
# output on 3 and 4), so that only those the script opens are the user's.
same_fds() {
    log_fd_free
    same "exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; $1"
}

# same_fds_jobs "J..." SCRIPT: the same, with ours at each of J... (same_jobs).
same_fds_jobs() {
    log_fd_free
    same_jobs "$1" "exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; $2"
}

# ours_jobs through sh: bash started with fd 2 closed leaves its script open
# there across the exec, and /dev/stderr would reach it.  Under an
# EXEC_WRAPPER (a sh script already), ours_jobs.
ours_jobs_sh() {
    if [ -n "${EXEC_WRAPPER:-}${MD5SUM_TEST_ARGS:-}" ]; then
        ours_jobs "$1"
        return
    fi
    mkdir -p "$OURS/bin"
    [ -f "$OURS/bin/md5sum" ] || cp "$MD5SUM" "$OURS/bin/md5sum"
    rm -f "$OURS/md5sum"
    printf '#!/bin/sh\nPATH="%s/bin" exec md5sum -j %s "$@"\n' "$OURS" "$1" > "$OURS/md5sum"
    chmod 755 "$OURS/md5sum"
}

files() {
    printf aaa > a
    printf bbb > b
    printf ccc > c
    head -c 3000000 /dev/zero > big
}

@test "names of descriptors not open do not reach the inputs opened ahead" {
    files
    same_fds_jobs "1 2 8 64" 'md5sum a b c /dev/fd/3 /dev/fd/4'
    same_fds_jobs "1 2 8 64" 'md5sum big a big b /dev/fd/3 /dev/fd/4 /dev/fd/5 /dev/fd/6 c'
}

@test "inherited descriptors are reached, the numbers between them are not" {
    files
    same_fds_jobs "1 2 8 64" 'md5sum a /dev/fd/3 b /dev/fd/4 /dev/fd/5 /dev/fd/6 3<c 5<b'
    same_fds_jobs "1 2 8 64" 'md5sum a b /dev/fd/9 /dev/fd/3 /dev/fd/9 9<big'
}

@test "/dev/stdin and /dev/fd/0 closed: not open, not our placeholder" {
    files
    ! under_valgrind || skip "a closed descriptor is not closed under valgrind (helpers.bash)"
    same_fds_jobs "1 2 8 64" 'md5sum /dev/stdin <&-'
    same_fds_jobs "1 2 8 64" 'md5sum a /dev/stdin b /dev/fd/0 - <&-'
}

@test "0, 1 or 2 closed and no /dev/null to hold them with: a pipe's end holds them, and no input opened ahead passes for stdin" {
    [ "$(id -u)" = 0 ] || skip "hiding /dev/null takes a mount namespace: root"
    unshare -m true 2> /dev/null || skip "no mount namespace to be had here"
    ! under_valgrind || skip "a closed descriptor is not closed under valgrind (helpers.bash)"
    local i
    for ((i = 0; i < 100; i++)); do printf 'f%d' "$i" > "f$i"; printf 'g%d' "$i" > "g$i"; done
    # A /dev of its own, empty: ours cannot put /dev/null on the closed
    # descriptor 0, and an input opened ahead of "-" would get it unless
    # moved above 2 (src/input.c), as GNU's never is.
    same_fds_jobs "1 2 8 64" "unshare -m sh -c 'mount -t tmpfs none /dev && exec md5sum f* - g* <&-'"
    # Each of 0, 1 and 2 closed there, as GNU: a read or write of it fails.
    same_fds "unshare -m sh -c 'mount -t tmpfs none /dev
        md5sum - <&-; echo \$?; md5sum -c <&-; echo \$?; md5sum f1 >&-; echo \$? >&2
        md5sum nosuch 2>&-; echo \$?; md5sum f1 - >&- 2>&- <&-; echo \$? >&2'"
    # Nor is 0 left free then: a pipe's write end holds it (src/fdio.c).
    # Free, a hasher's input took it for the moment before its move, and
    # "-" read as that input (2 runs of 30 at -j 8, 2026-12-07).  Seen
    # while ours waits for a FIFO's writer.
    [ -z "${EXEC_WRAPPER:-}" ] || return 0
    mkfifo fifo
    unshare -m sh -c 'mount -t tmpfs none /dev && exec "$0" fifo <&-' "$MD5SUM" > out 2>&1 &
    local pid=$! held fd
    for ((i = 0; i < 200; i++)); do
        for fd in "/proc/$pid/fd/"*; do
            [[ $(readlink "$fd") != */fifo ]] || break 2
        done
        sleep 0.05
    done
    held=$(readlink "/proc/$pid/fd/0" || echo free)
    timeout 5 sh -c 'echo data > fifo' || kill "$pid"
    wait "$pid" || true
    echo "descriptor 0 while waiting: $held"
    [[ $held == pipe:* ]]
}

@test "/dev/stdout and /dev/stderr closed: not open, not our placeholders" {
    files
    ! under_valgrind || skip "a closed descriptor is not closed under valgrind (helpers.bash)"
    local j
    for j in $(job_counts 1 2 8 64); do
        ours_jobs_sh "$j"
        same_fds 'md5sum /dev/stdout a /dev/fd/1 >&-'
        same_fds 'md5sum a /dev/stderr b /dev/fd/2 2>&-'
        same_fds 'md5sum /dev/stdout /dev/stderr >&- 2>&-'
    done
}

@test "/dev/stdin, /dev/stdout and /dev/stderr open to files reach those files" {
    files
    same_fds_jobs "1 2 8 64" 'md5sum /dev/stdin a /dev/fd/0 /dev/fd/3 < b'
    same_fds_jobs "1 2 8 64" 'md5sum /dev/stdout /dev/fd/3 > out; echo "exit $?"; cat out'
    same_fds_jobs "1 2 8 64" 'md5sum /dev/stderr /dev/fd/3 2> err; echo "exit $?"; cat err'
}

@test "/dev/stdin open to a pipe reaches the pipe" {
    files
    same_fds_jobs "1 2 8 64" 'printf xyz | md5sum a /dev/stdin b /dev/fd/3'
    same_fds_jobs "1 2 8 64" 'printf xyz | md5sum - /dev/stdin /dev/fd/4 a'
}

@test "/proc/self/fd/N, /proc/thread-self/fd/N, /proc/PID/fd/N and /proc/PID/task/TID/fd/N" {
    files
    same_fds_jobs "1 2 8 64" 'md5sum a /proc/self/fd/3 b /proc/self/fd/4 /proc/thread-self/fd/3 /proc/thread-self/fd/5 3<c'
    # exec: the shell's pid becomes md5sum's; the numbers are masked.
    same_fds_jobs "1 2 8 64" 'bash -c '\''exec md5sum a b /proc/$$/fd/3 /proc/$$/task/$$/fd/3 /proc/$$/fd/4 /proc/$$/task/$$/fd/5'\'' 3<c 2>&1 |
              sed -E "s,/proc/[0-9]+/,/proc/PID/,; s,/task/[0-9]+/,/task/TID/,"; echo "exit ${PIPESTATUS[0]}"'
}

@test "another process's descriptors are its own, not ours" {
    files
    # The shell waiting for md5sum holds none from 3 up.
    same_fds_jobs "1 2 8 64" 'cd /proc/self/fd && md5sum 3 4 /dev/fd/4 3</dev/null'
    same_fds_jobs "1 2 8 64" 'exec 6< b; md5sum a b "/proc/$$/fd/6" /dev/fd/6 /dev/fd/4 2>&1 | sed "s,/proc/[0-9]*/,/proc/PID/,"; echo "exit ${PIPESTATUS[0]}"'
}

@test "symlinks to /dev/fd/N, and relative names from /dev, in operands and in a list" {
    # Valgrind 3.19 has no openat2: fdview.c's fallback, which misses these.
    ! under_valgrind || skip "no openat2 under valgrind: names reaching /dev/fd by a symlink are not checked"
    files
    ln -s /dev/fd/3 l3
    ln -s /dev/fd/4 l4
    ln -s l3 l3b
    ln -s /dev/fd l
    local h n
    h=$("$GNU_MD5SUM" < a | cut -c1-32)
    for n in l3 l4 l3b l/3 l/5; do
        printf '%s  %s\n' "$h" "$n"
    done > list
    same_fds_jobs "1 2 8 64" 'md5sum a b l3 l4 l3b l/3 l/4 3<c'
    same_fds_jobs "1 2 8 64" 'cd /dev && md5sum fd/3 fd/4 ./stdin 3<"$OLDPWD/c" <&-'
    same_fds_jobs "1 2 8 64" 'md5sum -c list'
    same_fds_jobs "1 2 8 64" 'md5sum -c - < list'
}

@test "other spellings of /dev/fd/N, and names through a directory's descriptor" {
    files
    mkdir d
    printf ddd > d/x
    same_fds_jobs "1 2 8 64" 'md5sum a b //dev/fd/3 /dev/../dev/fd/4 /proc/self/./fd/4 /proc/self/fd/../fd/5 3<c'
    same_fds_jobs "1 2 8 64" 'md5sum a /dev/fd/3/x /dev/fd/4/x /dev/fd/3/../a 3<d'
    same_fds_jobs "1 2 8 64" 'md5sum a /dev/fd/03 /dev/fd/+3 /dev/fd/3x /dev/fd/99999999999999999999 /dev/fd/4 3<c'
}

@test "a --files0-from list's descriptor is ours: not reached, as with the names as operands" {
    log_fd_free
    files
    printf 'a\0/dev/fd/3\0/dev/fd/4\0b\0/dev/fd/5\0' > names
    same_jobs "1 2 8 64" 'exec 3>&- 4>&- 5>&- 6>&-; md5sum --files0-from=names 4<c' \
              'exec 3>&- 4>&- 5>&- 6>&-; md5sum a /dev/fd/3 /dev/fd/4 b /dev/fd/5 4<c'
}

@test "in a checksum list: the list's own descriptor is reached, ours are not" {
    files
    local h n
    h=$("$GNU_MD5SUM" < a | cut -c1-32)
    for n in /dev/fd/3 /dev/fd/4 /dev/fd/5 /dev/stdin /proc/self/fd/3 /dev/fd/4; do
        printf '%s  %s\n' "$h" "$n"
    done > list
    same_fds_jobs "1 2 8 64" 'md5sum -c list'
    same_fds_jobs "1 2 8 64" 'md5sum -c list list'
    same_fds_jobs "1 2 8 64" 'md5sum -c list 3<a'
    same_fds_jobs "1 2 8 64" 'md5sum -c list 3<a 4<a 5<a'
    same_fds_jobs "1 2 8 64" 'md5sum -c list < a'
    same_fds_jobs "1 2 8 64" 'md5sum -c - < list'
    same_fds_jobs "1 2 8 64" 'md5sum -c /dev/fd/3 3<list'
}

@test "in a checksum list, stdin closed: /dev/stdin is not open" {
    files
    ! under_valgrind || skip "a closed descriptor is not closed under valgrind (helpers.bash)"
    local h n
    h=$("$GNU_MD5SUM" < a | cut -c1-32)
    for n in a /dev/stdin /dev/fd/0 /dev/fd/3 /dev/fd/4; do
        printf '%s  %s\n' "$h" "$n"
    done > list
    same_fds_jobs "1 2 8 64" 'md5sum -c list <&-'
    same_fds_jobs "1 2 8 64" 'md5sum -c list list <&-'
}

# Ours lists the user's descriptors only once it needs to (fdview_record):
# a lone input holds nothing of ours, and listing them costs a small call 6%.

@test "a lone name of an inherited descriptor reaches it, as an operand and in a list" {
    files
    local h
    h=$("$GNU_MD5SUM" < c | cut -c1-32)
    printf '%s  /dev/fd/5\n' "$h" > one
    same_fds_jobs "1 2 8" 'md5sum /dev/fd/5 5<c'
    same_fds_jobs "1 2 8" 'md5sum /proc/self/fd/5 5<c'
    same_fds_jobs "1 2 8" 'md5sum -c one 5<c'
}

@test "the first list's number, reused by an input of the next list, is not reached" {
    files
    head -c 8388608 /dev/zero > huge
    "$GNU_MD5SUM" a b > list1
    local h
    h=$("$GNU_MD5SUM" < huge | cut -c1-32)
    printf '%s  huge\n%s  /dev/fd/3\n' "$h" "$h" > list2
    same_fds_jobs "1 2 8" 'md5sum -c list1 - < list2'
}

@test "a lone large entry's number, reused by a later entry, is not reached" {
    log_fd_free
    files
    head -c 17825792 /dev/zero > huge
    local h
    h=$("$GNU_MD5SUM" < huge | cut -c1-32)
    printf '%s  huge\n' "$h" > first
    printf '%s  huge\n%s  /dev/fd/3\n' "$h" "$h" > rest
    cat first rest > list
    # The first entry alone, hashed before the rest arrives (its line is out
    # first): it is the lone input, read ahead for a hasher on its own
    # descriptor, which later entries take over.
    local feed='exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
        rm -f p out; mkfifo p
        md5sum -c - < p > out & pid=$!
        exec 6> p; cat first >&6
        SECONDS=0
        until [ -s out ] || [ "$SECONDS" -gt 60 ]; do :; done
        cat rest >&6; exec 6>&-
        wait "$pid"; rc=$?; cat out; exit "$rc"'
    same_jobs "1 2 8" "$feed" 'exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-; md5sum -c - < list'
}
