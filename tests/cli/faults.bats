#!/usr/bin/env bats
# Faults and hostile input, each compared with GNU md5sum: write errors in
# every mode, SIGPIPE in check mode, files that grow or shrink while they
# are read, FIFOs and slow writers, read errors of listed files and lists
# and of large files part way, binary garbage and invalid UTF-8 in check
# lists, a million-line list.
# Every case has a good operand (or list, or entry) after the faulty one:
# no fault may lose the other operands' results.  (errors.bats and
# output.bats hold the basic cases: /dev/full, closed stdout and stdin,
# SIGPIPE in hash mode, EIO, permission denied.)
load '../helpers'

# f, g, e and their digests from GNU md5sum; BAD matches nothing here.
files() {
    printf abc > f; printf xyz > g; : > e
    H_F=$("$GNU_MD5SUM" < f | cut -c1-32)
    H_G=$("$GNU_MD5SUM" < g | cut -c1-32)
    BAD=$("$GNU_MD5SUM" < /dev/null | cut -c1-32 | tr 0-9a-f a-f0-9)
    export H_F H_G BAD
}

# garbage BYTES SEED: deterministic bytes, all 256 values, NUL and LF
# included (Park-Miller in awk: exact in any awk's doubles).
garbage() {
    LC_ALL=C awk -v n="$1" -v x="$2" 'BEGIN {
        for (i = 0; i < n; i++) { x = (x * 16807) % 2147483647; printf "%c", int(x / 65536) % 256 } }'
}

# sized_files LAST: files f10 .. fLAST, every seventh of 12345 bytes (the
# size the fault injector is told to hit), the others i * 3001 bytes.
sized_files() {
    local i
    for i in $(seq 10 "$1"); do
        head -c $(( i % 7 == 0 ? 12345 : i * 3001 )) /dev/urandom > "f$i"
    done
}

# wait_for_pos PID FILE OFFSET: wait until process PID has FILE open and has
# read more than OFFSET bytes in all: "rchar" of /proc/PID/io, which counts
# read(2) and pread(2) alike (GNU reads, ours reads at offsets) and is the
# host's under qemu-user and valgrind.
# Prints "caught" or "missed", so a missed moment shows in the compared
# output.  No command runs in the loop: it must see the position while the
# reader is mid-file.
wait_for_pos() {
    local pid=$1 file=$2 min=$3 open='' f k v i
    for ((i = 0; i < 2000000; i++)); do
        if [ -z "$open" ]; then
            for f in /proc/"$pid"/fd/*; do
                if [ "$f" -ef "$file" ]; then open=1; break; fi
            done
        fi
        if [ -n "$open" ]; then
            while read -r k v; do
                if [ "$k" = rchar: ] && [ "$v" -ge "$min" ]; then
                    echo caught
                    return 0
                fi
            done < /proc/"$pid"/io 2>/dev/null
        fi
        kill -0 "$pid" 2>/dev/null || break
    done
    echo missed
    return 1
}
export -f wait_for_pos

# A sparse file of MiB mebibytes with a few marked blocks, so that its
# digest depends on which bytes were read.
sparse_file() { # NAME MiB
    rm -f "$1"
    truncate -s "$2M" "$1"
    local off
    for off in 0 3 $(($2 / 2)) $(($2 - 1)); do
        printf 'block at %d MiB' "$off" | dd of="$1" bs=1M seek="$off" conv=notrunc status=none
    done
}
export -f sparse_file

# same_shape SCRIPT SED-SCRIPT: like same, but stdout is compared after
# SED-SCRIPT has rewritten it in both runs (for output that depends on
# timing, such as the digest of a file that shrank at an unknown moment).
same_shape() {
    require_gnu
    local t=$BATS_TEST_TMPDIR rc=0
    ours "$1" 2> "$t/ours.err" | sed -E "$2" > "$t/ours.out" || true
    ours_rc=${PIPESTATUS[0]}
    gnu "$1" 2> "$t/gnu.err" | sed -E "$2" > "$t/gnu.out" || true
    gnu_rc=${PIPESTATUS[0]}
    echo "exit $ours_rc" >> "$t/ours.err"
    echo "exit $gnu_rc" >> "$t/gnu.err"
    diff "$t/gnu.out" "$t/ours.out" && diff "$t/gnu.err" "$t/ours.err" || rc=1
    return $rc
}

# ---- write errors in every mode -------------------------------------------

@test "--tag, -b, -z --tag and stdin operands to /dev/full: write error; later operands still processed" {
    files
    for mode in --tag -b "-z --tag" -bz; do
        same "md5sum $mode f nosuch g > /dev/full"
    done
    same 'md5sum - nosuch g < f > /dev/full'
}

@test "--tag, -b, -z --tag and stdin operands to a closed stdout" {
    ! under_valgrind || skip "a closed descriptor is not closed under valgrind (helpers.bash)"
    files
    for mode in --tag -b "-z --tag" -bz; do
        same "md5sum $mode f nosuch g >&-"
    done
    same 'md5sum - nosuch g < f >&-'
    same 'md5sum --version >&-'
}

@test "check mode to /dev/full: OK, FAILED and unreadable lines, -w, and a later list's errors" {
    files
    printf '%s  f\n%s  g\nbad\n%s  nosuch\n' "$H_F" "$BAD" "$H_F" > l1
    printf '%s  g\n%s  nosuch2\n' "$H_G" "$H_G" > l2
    same 'md5sum -c l1 l2 > /dev/full'
    same 'md5sum -c -w l1 nolist l2 > /dev/full'
}

@test "check mode to a closed stdout" {
    ! under_valgrind || skip "a closed descriptor is not closed under valgrind (helpers.bash)"
    files
    printf '%s  f\n%s  g\n%s  nosuch\n' "$H_F" "$BAD" "$H_F" > l1
    printf '%s  g\n' "$H_G" > l2
    same 'md5sum -c l1 l2 >&-'
    same 'md5sum -c -w l1 nolist l2 >&-'
}

@test "check --quiet to /dev/full or a closed stdout: a write error only when a line was printed" {
    files
    printf '%s  f\n%s  g\n' "$H_F" "$H_G" > ok
    printf '%s  f\n%s  g\n' "$H_F" "$BAD" > mismatch
    same 'md5sum -c --quiet ok ok > /dev/full'
    same 'md5sum -c --quiet ok mismatch ok > /dev/full'
    under_valgrind && return 0   # closed descriptors: see helpers.bash
    same 'md5sum -c --quiet ok ok >&-'
    same 'md5sum -c --quiet mismatch ok >&-'
}

@test "check --status to /dev/full or a closed stdout: never a write error" {
    files
    printf '%s  f\n%s  g\n%s  nosuch\n' "$H_F" "$BAD" "$H_F" > l
    printf '%s  f\n' "$H_F" > ok
    same 'md5sum -c --status l ok > /dev/full'
    under_valgrind && return 0   # closed descriptors: see helpers.bash
    same 'md5sum -c --status l ok >&-'
    same 'md5sum -c --status ok >&-'
}

@test "check output far beyond the output buffer, to /dev/full" {
    files
    awk -v h="$H_F" -v b="$BAD" 'BEGIN { for (i = 0; i < 5000; i++) print (i % 7 ? h : b) "  f" }' > l
    same 'md5sum -c l nosuch > /dev/full'
}

# ---- SIGPIPE --------------------------------------------------------------

@test "SIGPIPE in check mode: killed by default, write error when ignored" {
    files
    awk -v h="$H_F" 'BEGIN { for (i = 0; i < 20000; i++) print h "  f" }' > l
    same 'md5sum -c l | head -c 1; echo " ${PIPESTATUS[0]}"'
    same 'trap "" PIPE; md5sum -c l nosuch | head -c 1; echo " ${PIPESTATUS[0]}"'
}

@test "a reader gone with nothing written to it: no SIGPIPE, GNU's messages and status" {
    # GNU notices a reader that has gone only when it writes: with nothing
    # to write (--status, --quiet and every entry OK, every operand failing)
    # it ends normally.  The reader, true, is gone before the first result.
    files
    "$GNU_MD5SUM" f g > ok
    "$GNU_MD5SUM" f > half
    echo "$BAD  g" >> half
    same_jobs "1 2 8 64" '( md5sum -c --quiet ok; echo "rc=$?" >&2 ) | true'
    same_jobs "1 2 8 64" '( md5sum -c --status ok half; echo "rc=$?" >&2 ) | true'
    same_jobs "1 2 8 64" '( md5sum nosuch .; echo "rc=$?" >&2 ) | true'
    same_jobs "1 2 8 64" '( md5sum -c --quiet nosuch-list; echo "rc=$?" >&2 ) | true'
}

@test "SIGPIPE ignored with --tag and -z: write error, later operands still processed" {
    for i in $(seq 1 2000); do echo "$i" > "many$i"; done
    same 'trap "" PIPE; md5sum --tag many* nosuch | head -c 1; echo " ${PIPESTATUS[0]}"'
    same 'trap "" PIPE; md5sum -z many* nosuch | head -c 1; echo " ${PIPESTATUS[0]}"'
}

# ---- files that change while they are read ---------------------------------

@test "a FIFO fed by a slow writer, then a regular file" {
    files
    mkfifo fifo
    same '{ printf a; sleep 0.2; printf b; sleep 0.2; printf c; } > fifo & md5sum fifo f; wait'
    same '{ printf a; sleep 0.2; printf b; } > fifo & md5sum --tag fifo - g < f; wait'
}

# The next three are timed by the reader's own position, not by sleeps: the
# change is made once md5sum has read an eighth of the file, a long way
# before the end, so both programs see the same final bytes.

# resized SETUP OPERANDS AT CHANGE: a sparse 128 MiB file big, then SETUP;
# `md5sum OPERANDS`, and CHANGE once the reader is AT bytes into big; the
# digest of big must be GNU's, that of the file as it ends up.
resized() {
    same "sparse_file big 128; $1 md5sum $2 & p=\$!
          wait_for_pos \$p big \$(($3)) && $4
          wait \$p"
    grep -q '^caught$' "$BATS_TEST_TMPDIR/ours.out"
    grep -q "^$("$GNU_MD5SUM" < big | cut -c1-32)  big\$" "$BATS_TEST_TMPDIR/ours.out"
}

# shrunk_below SETUP OPERANDS: big cut to 1 MiB once 32 MiB are read.  How
# much was read then depends on timing, so the digest of big is replaced by
# its shape before the comparison.
shrunk_below() {
    same_shape "sparse_file big 128; $1 md5sum $2 & p=\$!
          wait_for_pos \$p big \$((32 << 20)) && truncate -s 1M big
          wait \$p" 's/^[0-9a-f]{32}  big$/HEX  big/'
    grep -q '^caught$' "$BATS_TEST_TMPDIR/ours.out"
    grep -q '^HEX  big$' "$BATS_TEST_TMPDIR/ours.out"
}

@test "a file that grows while it is read: the appended bytes are hashed too" {
    files
    resized '' 'big f' '16 << 20' 'head -c 65536 /dev/zero | tr "\0" g >> big'   # 128 MiB + 64 KiB
}

@test "a file truncated while it is read, above the read position: hashed to its new end" {
    files
    resized '' 'big f' '16 << 20' 'truncate -s 64M big'
}

@test "a file truncated below the read position: a digest of what was read, then the next operand" {
    files
    shrunk_below '' 'big f'
}

# The same, the file alone and in the page cache: ours reads it ahead for a
# hasher (src/flow.h), or with -j1 in a plain loop.  68 MiB less 100 bytes
# ends mid-chunk and mid-block.
@test "a lone file in the page cache that grows, or shrinks above or below the position" {
    files
    resized 'cat big > /dev/null;' big '16 << 20' 'head -c 65536 /dev/zero | tr "\0" g >> big'
    resized 'cat big > /dev/null;' big '16 << 20' 'truncate -s $(((68 << 20) - 100)) big'
    shrunk_below 'cat big > /dev/null;' big
}

# The same from a cold cache, big before a file of 20 MB: a hasher takes big
# while the pre-reader is part way through it and reads it behind the
# pre-reader (src/flow.h), to its end as it is then.
@test "a large file from a cold cache that grows or shrinks while read behind the pre-reader" {
    [ "$(stat -f -c %T .)" != tmpfs ] || skip "files on tmpfs cannot be taken out of memory"
    files
    head -c 20000000 /dev/urandom > l1
    local cold='sync l1 big; for x in l1 big; do dd if="$x" iflag=nocache count=0 status=none; done;'
    resized "$cold" 'big l1 f' '16 << 20' 'head -c 65536 /dev/zero | tr "\0" g >> big'
    resized "$cold" 'big l1 f' '16 << 20' 'truncate -s 64M big'
    shrunk_below "$cold" 'big l1 f'
}

# ---- FIFOs and slow writers in check mode ----------------------------------

@test "a check list from a FIFO written slowly, lines split across writes, then a good list" {
    files
    mkfifo fifo
    printf '%s  g\n' "$H_G" > ok
    same '{ printf "%s  f\n%s" "$H_F" "${H_G:0:7}"; sleep 0.2; printf "%s  g\n%s  e" "${H_G:7}" "$BAD"; sleep 0.2;
            printf "\n"; } > fifo & md5sum -c fifo ok; wait'
}

@test "a check list on a slow pipe with a CRLF split between writes" {
    files
    same '{ printf "%s  f\r" "$H_F"; sleep 0.2; printf "\n%s  g\r" "$H_G"; sleep 0.2; printf "\n"; } | md5sum -c -w - '
}

@test "a listed file that is a FIFO fed by a slow writer, then a regular file" {
    files
    mkfifo fifo
    printf '%s  fifo\n%s  f\n' "$H_F" "$H_F" > l   # the writer sends abc, as in f
    same '{ printf a; sleep 0.2; printf bc; } > fifo & md5sum -c l; wait'
}

# ---- read errors inside check mode -------------------------------------------

@test "listed files that fail to read (EIO), then good entries and a good list" {
    files
    printf '%s  /proc/self/mem\n%s  f\n' "$H_F" "$H_F" > l
    printf '%s  g\n' "$H_G" > ok
    same 'md5sum -c l ok'
    same 'md5sum -c --quiet l ok'
}

@test "large files that fail part way, some after moving between workers, warm or cold: GNU's errors, the rest hashed" {
    need_preload
    # 60 streams of 300 KiB to 3.3 MiB, as in engine.bats: the longest are
    # the last to end, spread over the workers mid-file.  Reads past 2 MiB
    # fail (tests/fault/fault_preload.c), so each file over 2 MiB fails
    # there, wherever it is read.  GNU's md5sum reads through stdio, out of
    # a preload's reach: it reads the same names, those that fail being
    # links to /proc/self/mem, whose first read fails with EIO.
    head -c 4194304 /dev/urandom > pool
    mkdir gnu
    local i
    for i in $(seq 10 69); do
        head -c $(( (i * 7919 % 31 + 3) * 107520 )) pool > "big$i"
        if [ "$(stat -c %s "big$i")" -gt 2097152 ]; then
            ln -s /proc/self/mem "gnu/big$i"
        else
            ln -s "../big$i" "gnu/big$i"
        fi
    done
    "$GNU_MD5SUM" big* > list
    cp list gnu/list
    # Not -j8: a debugging run saw no failing file handed over there.
    local run="FAIL_AT=2097152 LD_PRELOAD=$preload md5sum"
    same_jobs "1 2 3" "$run big* big*" 'cd gnu && md5sum big* big*'
    same_jobs "1 2 3" "$run -c list" 'cd gnu && md5sum -c list'
    # From a cold cache: with hashers on threads the reader pre-reads the
    # inputs in order (src/flow.h), and its failing reads are left to
    # whoever reads each input next.
    sync big*
    local evict='for f in big*; do dd if="$f" iflag=nocache count=0 status=none; done;'
    same_jobs "1 2 3" "$evict $run big*" 'cd gnu && md5sum big*'
}

@test "large files from a cold cache, one failing part way while read behind the pre-reader: GNU's error, the rest hashed" {
    need_preload
    [ "$(stat -f -c %T .)" != tmpfs ] || skip "files on tmpfs cannot be taken out of memory"
    # Large enough to be taken as the pre-reader reads them (src/flow.h);
    # reads past 20 MB fail, so only l3 fails, its pre-read first, then its
    # hasher's read.  GNU reads a link to /proc/self/mem for it, as above.
    mkdir gnu
    head -c 17000000 /dev/urandom > l1
    head -c 24000000 /dev/urandom > l3
    head -c 17000000 /dev/urandom > l2
    ln -s ../l1 gnu/l1 && ln -s ../l2 gnu/l2 && ln -s /proc/self/mem gnu/l3
    sync l1 l2 l3
    local evict='for f in l1 l3 l2; do dd if="$f" iflag=nocache count=0 status=none; done;'
    same_jobs "1 2 3 8" "$evict FAIL_AT=20000000 LD_PRELOAD=$preload timeout 60 md5sum l1 l3 l2" \
        'cd gnu && md5sum l1 l3 l2'
}

@test "files whose close fails (EIO, as NFS reports late), alone or among others, on every path: GNU's error, no digest, the rest hashed" {
    need_preload
    # Closing a file of 12345 bytes fails (tests/fault/fault_preload.c);
    # GNU closes through stdio, out of a preload's reach, so it reads the
    # same names, those that fail being links to /proc/self/mem, whose read
    # fails with the same EIO and the same message.  A lone file is hashed
    # plainly; many go to the hashers, or with -j1 to the caller's lanes.
    mkdir gnu
    sized_files 49
    local f
    for f in f*; do
        if [ "$(stat -c %s "$f")" = 12345 ]; then
            ln -s /proc/self/mem "gnu/$f"
        else
            ln -s "../$f" "gnu/$f"
        fi
    done
    "$GNU_MD5SUM" f* > list
    cp list gnu/list
    local run="CLOSE_FAIL_SIZE=12345 LD_PRELOAD=$preload md5sum"
    same_jobs "1 2 3" "$run f14" 'cd gnu && md5sum f14'
    same_jobs "1 2 3" "$run f14 f15" 'cd gnu && md5sum f14 f15'
    same_jobs "1 2 3" "$run f*" 'cd gnu && md5sum f*'
    same_jobs "1 2 3" "$run -c list" 'cd gnu && md5sum -c list'
}

@test "a checksum list or standard output whose close fails (EIO, as NFS reports late): GNU's diagnostic after every result, no summary, status 1" {
    need_preload
    # GNU closes both through stdio, out of a preload's reach: what it
    # prints then is from its source (digest_check: error (0, errno, "%s",
    # quotef (checkfile_name)), and no summary; close_stdout: "write
    # error"), after what its run without the failure prints.  No input has
    # the size of the list or of the output (sized_files).
    sized_files 30
    printf '%s  nothere\n' 0123456789abcdef0123456789abcdef >> list
    "$GNU_MD5SUM" f* >> list
    "$GNU_MD5SUM" f* > gnu.hash
    local rc=0 j
    "$GNU_MD5SUM" -c list > gnu.check 2> gnu.err || rc=$?
    [ "$rc" = 1 ] && grep -q 'WARNING: 1 listed file could not be read' gnu.err
    for j in $(job_counts 1 2); do
        ours_jobs "$j"
        rc=0
        ours "CLOSE_FAIL_SIZE=$(stat -c %s list) LD_PRELOAD=$preload md5sum -c list" > out 2> err || rc=$?
        cmp gnu.check out
        [ "$(cat err)" = "$(printf '%s\n' 'md5sum: nothere: No such file or directory' 'md5sum: list: Input/output error')" ]
        [ "$rc" = 1 ]
        rc=0
        ours "CLOSE_FAIL_SIZE=$(stat -c %s gnu.hash) LD_PRELOAD=$preload md5sum f* > out" 2> err || rc=$?
        cmp gnu.hash out
        [ "$(cat err)" = "md5sum: write error: Input/output error" ]
        [ "$rc" = 1 ]
    done
}

@test "files that cannot say what they are (fstat failing, as a FUSE daemon's can): hashed in order, as GNU, which never asks" {
    need_preload
    # fstat of a file of 12345 bytes fails (tests/fault/fault_preload.c).
    sized_files 49
    "$GNU_MD5SUM" f* > list
    local run="FSTAT_FAIL_SIZE=12345 LD_PRELOAD=$preload md5sum"
    same_jobs "1 2 3" "$run f14" 'md5sum f14'
    same_jobs "1 2 3" "$run f*" 'md5sum f*'
    same_jobs "1 2 3" "$run -c list" 'md5sum -c list'
}

@test "files that cannot be read at an offset (ESPIPE, as tracefs's or a FUSE daemon's nonseekable ones): read in order, as GNU reads every file" {
    need_preload
    # pread and preadv2 of a file of 12345 bytes fail with ESPIPE
    # (tests/fault/fault_preload.c); read reads it, as GNU's md5sum does.
    # 80 files: past the 64th, hashers open them by name.  Then from a cold
    # cache, where the reader reads and pre-reads them in order.
    sized_files 89
    "$GNU_MD5SUM" f* > list
    local run="NONSEEKABLE_SIZE=12345 LD_PRELOAD=$preload md5sum"
    local evict=''
    [ "$(stat -f -c %T .)" = tmpfs ] || evict="$(dirname "$MD5SUM")/evict f* &&"
    same_jobs "1 2 8" "$run f14" 'md5sum f14'
    same_jobs "1 2 8" "$run f*" 'md5sum f*'
    same_jobs "1 2 8" "$run -c list" 'md5sum -c list'
    same_jobs "1 2 8" "$evict $run f*" 'md5sum f*'
}

@test "a listed file that is unreadable, as an unprivileged user, then good entries" {
    [ "$(id -u)" != 0 ] || command -v setpriv >/dev/null || skip "setpriv is missing"
    files
    open_to_nobody
    printf abc > secret; chmod 000 secret; chmod 644 f g
    printf '%s  secret\n%s  f\n' "$H_F" "$H_F" > l
    printf '%s  g\n' "$H_G" > ok
    chmod 644 l ok
    RUN_AS=as_nobody same 'md5sum -c l ok'
    grep -q "secret: Permission denied" "$BATS_TEST_TMPDIR/ours.err"
}

@test "check lists that fail to read (EIO, a directory, stdin a directory), then a good list" {
    files
    mkdir d
    printf '%s  f\n' "$H_F" > ok
    same 'md5sum -c /proc/self/mem ok'
    same 'md5sum -c d ok'
    same 'md5sum -c - ok < d'
}

@test "a check list on a closed stdin, then a good list" {
    ! under_valgrind || skip "a closed descriptor is not closed under valgrind (helpers.bash)"
    files
    printf '%s  f\n' "$H_F" > ok
    same 'md5sum -c - ok <&-'
    same 'md5sum -c ok <&-'
}

# ---- hostile check lists ----------------------------------------------------

@test "a check list of 64 KiB of binary garbage, then a good list" {
    files
    garbage 65536 1 > junk
    printf '%s  f\n' "$H_F" > ok
    same 'md5sum -c junk ok'
    same 'md5sum -c -w junk ok'
    same 'md5sum -c --strict --quiet junk ok'
    same 'md5sum -c --status junk ok'
    locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || return 0
    LC_ALL=C.UTF-8 same 'md5sum -c -w junk ok'
}

@test "binary garbage with valid lines between, in one list and on stdin" {
    files
    printf 2 > "$(printf 'n\351m\377')"
    local i
    for i in 1 2 3 4 5 6 7 8; do
        garbage 3000 "$i"
        printf '\n%s  f\n%s  g\n%s  nosuch\n' "$H_F" "$BAD" "$H_F"
        printf 'MD5 (%s) = %s\n' "$(printf 'n\351m\377')" "$("$GNU_MD5SUM" < "$(printf 'n\351m\377')" | cut -c1-32)"
    done > mixed
    same 'md5sum -c -w mixed'
    same 'md5sum -c --ignore-missing - < mixed'
}

@test "invalid UTF-8 in listed names, in the C and UTF-8 locales" {
    files
    local n ok_names=() h
    for n in "$(printf 'caf\351')" "$(printf '\377\376')" "$(printf '\300\257')" "$(printf 'x\342\200')" \
             "$(printf '\355\240\200')" "$(printf 'ok\303\251')"; do
        printf '%s' "$n" > "$n"
        ok_names+=("$n")
    done
    for n in "${ok_names[@]}"; do
        h=$("$GNU_MD5SUM" < "$n" | cut -c1-32)
        printf '%s  %s\n%s  missing-%s\nMD5 (%s) = %s\n' "$h" "$n" "$h" "$n" "$n" "$BAD"
    done > l
    printf '\\%s  %s\\n\n' "$H_F" "$(printf 'caf\351')" >> l   # escaped, names caf\351<LF>
    printf '%s  f\n' "$H_F" >> l
    same 'md5sum -c -w l'
    locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || return 0
    LC_ALL=C.UTF-8 same 'md5sum -c -w l'
    LC_ALL=C.UTF-8 same_merged 'md5sum -c l'
}

@test "a malformed escaped line still fixes the untagged layout" {
    # The first untagged line is reversed ("HEX NAME") with a bad escape:
    # malformed, but it has decided the layout, so "HEX  f" names " f".
    files
    printf '\\%s a\\tb\n%s  f\n' "$H_F" "$H_F" > l
    same 'md5sum -c -w l'
}

@test "a list of 1,000,000 lines, then a good list" {
    # Mostly missing files skipped by --ignore-missing (one failed open
    # each), with comments, blank lines, malformed lines numbered past 2^16
    # and near the end, two mismatches and ten real entries: seconds even
    # under qemu.
    files
    awk -v h="$H_F" -v b="$BAD" 'BEGIN {
        for (i = 1; i <= 1000000; i++) {
            if (i % 100000 == 0) print h "  f"
            else if (i == 65537 || i == 131073 || i == 999999) print "bad line " i
            else if (i % 250000 == 1) print "# comment"
            else if (i % 333333 == 0) print ""
            else if (i % 499999 == 0) print b "  g"
            else print h "  nosuch"
        } }' > million
    printf '%s  g\n' "$H_G" > ok
    same 'md5sum -c -w --ignore-missing million ok'
}

@test "a list of 1,000,000 entries, each verified (slow; set MD5SUM_SLOW_TESTS=1)" {
    [ "${MD5SUM_SLOW_TESTS:-0}" = 1 ] || skip "slow test: set MD5SUM_SLOW_TESTS=1"
    files
    awk -v h="$H_F" 'BEGIN { for (i = 0; i < 1000000; i++) print h "  f" }' > million
    printf '%s  g\n' "$H_G" > ok
    same 'md5sum -c --quiet million ok'
}
