#!/usr/bin/env bats
# What the threaded engine must keep from a single-threaded md5sum: results
# written as soon as they are known (a FIFO's writer may wait for them),
# prompt ends, write errors, memory limits, and the -j option itself.
load '../helpers'

sanitized() {
    [ -n "${MD5SUM_SANITIZED:-}" ]
}

@test "a FIFO whose writer waits for the earlier results: they are out before it is read" {
    printf abc > a
    printf xyz > b
    mkfifo fifo
    # The writer waits (up to 20 s) for two result lines, then feeds the FIFO.
    # out is made empty first: the background shell may not have opened it
    # yet when the first wc runs, and a file left by the last run would do.
    same ': > out; md5sum a b fifo a > out & p=$!
          for i in $(seq 400); do [ "$(wc -l < out)" -ge 2 ] && break; sleep 0.05; done
          echo "lines before the FIFO was written: $(wc -l < out)"
          printf data > fifo; wait $p; echo "exit $?"; cat out'
}

@test "the same with check mode and with every thread count" {
    printf abc > a
    printf xyz > b
    mkfifo fifo
    "$GNU_MD5SUM" a b > list
    printf '%s  fifo\n' "$("$GNU_MD5SUM" < /dev/null | cut -c1-32)" >> list
    "$GNU_MD5SUM" a >> list
    same_jobs "1 2 8" ': > out; md5sum -c list > out & p=$!
          for i in $(seq 400); do [ "$(wc -l < out)" -ge 2 ] && break; sleep 0.05; done
          echo "lines before the FIFO was written: $(wc -l < out)"
          printf data > fifo; wait $p; echo "exit $?"; cat out'
}

@test "a FIFO named three times: each time the data of its next writer, as GNU opens it again" {
    printf abc > a
    mkfifo fifo
    # Each writer comes once the results before its turn are out (up to 20
    # s), and gives up after 20 s with no reader; an input opened ahead of
    # its turn would read the first writer's end of file instead.
    same_jobs "1 2 8" ': > out; md5sum fifo a fifo fifo > out & p=$!
          for n in 1 2 3; do
              timeout 20 sh -c "echo writer $n > fifo"; echo "writer $n: $?"
              for i in $(seq 400); do [ "$(wc -l < out)" -ge $((n + 1)) ] && break; sleep 0.05; done
          done
          wait $p; echo "exit $?"; cat out'
}

@test "a FIFO named twice and removed before its second turn: the open at that turn fails, as GNU's" {
    mkfifo fifo gate
    # Neither name is opened before its turn, as GNU opens them: at the
    # second's, the name is gone.  The second input, another FIFO, holds that
    # turn back until the first is removed.
    same_jobs "1 2 8" 'md5sum fifo gate fifo > out & p=$!
          timeout 20 sh -c "echo writer 1 > fifo"; echo "writer 1: $?"
          rm fifo
          timeout 20 sh -c "echo gate > gate"; echo "gate: $?"
          wait $p; echo "exit $?"; cat out; mkfifo fifo'
}

@test "a FIFO named twice past a sequence's first 64 inputs, where hashers open what they take: each time its next writer's data" {
    local i
    for i in $(seq 100 179); do echo "$i" > "r$i"; done
    mkfifo fifo
    # Past the first 64 inputs hashers open what they take, but hand the
    # FIFO back, both times, for its turn; the second writer comes only once
    # the first FIFO's line and nine more are out.
    same_jobs "1 2 8" ': > out; md5sum r1* fifo r10* fifo > out & p=$!
          for n in 81 91; do
              for i in $(seq 400); do [ "$(wc -l < out)" -ge $((n - 1)) ] && break; sleep 0.05; done
              timeout 20 sh -c "echo writer $n > fifo"; echo "writer $n: $?"
          done
          wait $p; echo "exit $?"; cat out'
}

# A FIFO's writers one after another, 0.3 s apart (a loop that serves each
# reader once; the pause keeps GNU's read of the first end of file ahead of
# the second writer, even on a busy machine), and a gate, a FIFO before it,
# written once both writers are done or after 1 s.  GNU opens the FIFO only
# after the gate: its first writer waits until then, and each of the FIFO's
# turns reads one writer.  An open ahead of its turn lets the first in at
# once, and the second after it, into the same open: its first turn reads
# both.
fifo_writers='rm -f done; { timeout 20 sh -c "echo writer 1 > fifo"; sleep 0.3; timeout 20 sh -c "echo writer 2 > fifo"; touch done; } &
    RUN & p=$!
    for i in $(seq 20); do [ -e done ] && break; sleep 0.05; done
    echo gate > gate; wait $p; echo "exit $?"; wait'

@test "a FIFO whose writers come one after another, its turn after another FIFO's: each turn reads one writer, as GNU opens it only then" {
    local i args
    for i in $(seq 100 179); do echo "$i" > "r$i"; done
    mkfifo gate fifo
    # Past a sequence's first 64 inputs hashers open what they take, by name.
    # -j 1 hashes in the caller's thread, -j 2 on threads of its own.
    for args in 'gate r100 fifo r101 fifo' 'r1* gate fifo r100 fifo'; do
        same_jobs "1 2" "${fifo_writers/RUN/timeout 20 md5sum $args}"
    done
}

@test "FIFO writers one after another, in check mode: each turn reads one writer, as GNU" {
    mkfifo gate fifo
    echo gate | "$GNU_MD5SUM" | sed 's/-$/gate/' > list
    echo writer 1 | "$GNU_MD5SUM" | sed 's/-$/fifo/' >> list
    echo writer 2 | "$GNU_MD5SUM" | sed 's/-$/fifo/' >> list
    same_jobs "1 2" "${fifo_writers/RUN/timeout 20 md5sum -c list}"
}

@test "a check list from a pipe whose writer waits for the first result: it is out before the read" {
    printf abc > a
    "$GNU_MD5SUM" a > first
    # The writer waits (up to 20 s) for the first OK, then writes the rest;
    # out is removed first, or the writer could see the last run's.
    same 'rm -f out; { cat first
                       for i in $(seq 400); do [ -s out ] && break; sleep 0.05; done
                       echo "lines before the rest was written: $(wc -l < out)" >&2
                       cat first; } | md5sum -c > out; echo "exit $?"; cat out'
}

@test "an input that is the file the results go to is read once the earlier results are written" {
    # Re-running md5sum * > SUMS where SUMS exists: GNU writes each line
    # before it opens the next input, so SUMS holds the earlier lines then.
    echo a > a
    echo b > b
    "$GNU_MD5SUM" a b > list
    echo "$("$GNU_MD5SUM" < /dev/null | cut -c1-32)  out" >> list
    "$GNU_MD5SUM" a >> list
    same_jobs "1 2 8 64" ': > out; md5sum a b out a > out; cat out'
    same_jobs "1 2 8 64" 'echo old > out; md5sum a out b >> out; cat out'
    same_jobs "1 2 8 64" ': > out; md5sum -c list > out; cat out'
    same_jobs "1 2 8 64" ': > err; md5sum nosuch a err b 2> err; cat err'
}

@test "md5sum -c LIST | head -n 1: killed at its next write once head has gone, not after the list" {
    # One 64 MiB sparse file (16 MiB under qemu or a sanitizer), listed
    # 5,000 times: all of it would take many minutes; as with GNU, the first
    # line, then the SIGPIPE at the next write (big's result) end it.
    local size=67108864
    [ -z "${EXEC_WRAPPER:-}" ] && ! sanitized || size=16777216
    printf abc > a
    truncate -s "$size" big
    "$GNU_MD5SUM" a > list
    # Any digest will do for big: the run ends at its first result.
    for i in $(seq 5000); do echo "00000000000000000000000000000000  big"; done >> list
    run ours 'timeout 120 md5sum -c list | head -n 1; echo "status ${PIPESTATUS[0]}"'
    assert_success
    assert_output "a: OK
status 141"
}

@test "output to /dev/full with every thread count: GNU's write error, every operand processed" {
    make_files max=9437184
    same_jobs "1 2 3 8" 'md5sum f* nosuch f00 > /dev/full'
    same_jobs "1 2 3 8" 'md5sum -c <(md5sum f* 2>/dev/null) > /dev/full'
}

@test "memory limits from 6 MiB up (4 MiB for one file): what GNU does, hashing and checking" {
    [ -z "${EXEC_WRAPPER:-}" ] || skip "under qemu the limit would be qemu's"
    ! sanitized || skip "sanitizers reserve far more address space"
    make_files max=9437184
    "$GNU_MD5SUM" f* > list
    head -c 17825792 /dev/zero > lone
    local lim
    for lim in 6000 8000 12000 16000 24000 32000 64000; do
        same_jobs "1 2 8" "ulimit -v $lim; md5sum f* nosuch"
        same_jobs "1 2 8" "ulimit -v $lim; md5sum -c list"
    done
    # One file past the size hashed before any worker starts: the workers
    # it is left for may not get the memory to start.  GNU hashes it down
    # to about 3 MiB; the wrapper that gives ours -j (bash) needs 4.
    for lim in 4000 4500 5000 5500 6000 8000; do
        same_jobs "1 2 8" "ulimit -v $lim; md5sum lone"
    done
}

@test "peak RSS stays under 96 MiB: many large files, many small ones, one huge one" {
    command -v /usr/bin/time >/dev/null || skip "GNU time(1) is not installed (apt-get install time)"
    [ -z "${EXEC_WRAPPER:-}" ] || skip "under qemu the RSS would be qemu's"
    ! sanitized || skip "sanitizers add their own memory"
    # Enough of each to hold every budget full: more large files than the
    # engine reads at once (64), small ones beyond the arenas (16 MiB), and
    # a file far longer than its read-ahead.
    mkdir large small
    for i in $(seq 8); do truncate -s 16777216 "large/v$i"; done
    for i in $(seq 80); do truncate -s $((3145728 + i * 4099)) "large/p$i"; done
    for i in $(seq 400); do truncate -s 262144 "small/s$i"; done
    truncate -s 268435456 huge
    local set kib
    for set in 'large/*' 'small/*' 'huge'; do
        # shellcheck disable=SC2086  # the sets are globs
        /usr/bin/time -f %M -o rss.txt "$MD5SUM" $set > /dev/null
        kib=$(cat rss.txt)
        echo "$set: peak RSS $kib KiB"
        [ "$kib" -le $((96 * 1024)) ]
    done
}

@test "-j and --jobs: a thread count from 1 to 256, abbreviations, and errors in GNU's form" {
    printf abc > f
    "$GNU_MD5SUM" f > want
    local a n=2
    local good=('-j 1 f' '-j2 f' '--jobs=3 f' '--jobs 8 f' '--jo=4 f' '--j=256 f' '-bj2 f' '-j2 -c want')
    # A leg that fixes the jobs (MD5SUM_TEST_ARGS: i686, where qemu cannot
    # start a thread) parses the same forms with a count of 1.
    [ -z "${MD5SUM_TEST_ARGS:-}" ] ||
        good=('-j 1 f' '-j1 f' '--jobs=1 f' '--jobs 1 f' '--jo=1 f' '--j=01 f' '-bj1 f' '-j1 -c want') n=1
    for a in "${good[@]}"; do
        run ours "md5sum $a"
        assert_success
    done
    run ours "md5sum -j $n f"
    assert_output "$(cat want)"
    run --separate-stderr ours 'md5sum -j 0 f'
    assert_failure 1
    assert_output ''
    [ "$stderr" = "md5sum: invalid number of jobs: '0' (1 to 256)
Try 'md5sum --help' for more information." ]
    for a in x 1x -1 257 '' 99999999999999999999; do
        run --separate-stderr ours "md5sum -j '$a' f"
        assert_failure 1
        [ "$stderr" = "md5sum: invalid number of jobs: '$a' (1 to 256)
Try 'md5sum --help' for more information." ]
    done
    run --separate-stderr ours 'md5sum f -j'
    assert_failure 1
    [ "$stderr" = "md5sum: option requires an argument -- 'j'
Try 'md5sum --help' for more information." ]
    run --separate-stderr ours 'md5sum --jobs'
    assert_failure 1
    [ "$stderr" = "md5sum: option '--jobs' requires an argument
Try 'md5sum --help' for more information." ]
}

@test "-j does not change how GNU's own options and abbreviations parse" {
    printf abc > f
    same 'md5sum --st f'
    same 'md5sum --s f'
    same 'md5sum --t f'
    same 'md5sum --ta f; md5sum --te f; md5sum --z f; md5sum --b f'
    same 'md5sum -J f'
}

@test "closed stdout and stderr are held: inputs opened never take fd 1 or 2" {
    ! under_valgrind || skip "a closed descriptor is not closed under valgrind (helpers.bash)"
    printf abc > a
    printf xyz > b
    "$GNU_MD5SUM" a b > list
    same_jobs "1 2 8" 'md5sum a b a b >&-'
    same_jobs "1 2 8" 'md5sum -c --quiet list list >&-'
    same_jobs "1 2 8" 'md5sum a nosuch b 2>&-'
    same_jobs "1 2 8" 'md5sum a b >&- 2>&-'
    same_jobs "1 2 8" 'md5sum - a b <&- >&- 2>&-'
    same_jobs "1 2 8" 'md5sum -c list nosuch 2>&-'
}

@test "one input alone: hashed at once up to 16 MiB, larger read ahead for a hasher, either way as GNU" {
    head -c 17825792 /dev/urandom > pool
    local s
    for s in 0 1 65 16777216 16777217 17825792; do
        head -c "$s" pool > "f$s"
    done
    mkdir dir
    local f
    # Standard input is hashed by the caller's thread whatever -j says
    # (past 4 MiB read beside it on a thread of its own: src/stream.h).
    for f in f0 f1 f65 f16777216 f16777217 f17825792 nosuch dir; do
        same "md5sum --tag - < $f"
    done
    for f in f0 f1 f65 f16777216 f16777217 f17825792 nosuch dir; do
        same_jobs "1 2 8" "md5sum $f"
    done
    "$GNU_MD5SUM" f16777217 > list1
    same_jobs "1 2 8" 'md5sum -c list1'
    "$GNU_MD5SUM" f17825792 f1 > list2
    same_jobs "1 2 8" 'md5sum -c list2'
}

@test "a long stream, read on a thread beside its hashing (src/stream.h): as GNU from a pipe, from a file, with a writer that pauses, and read to its first end only" {
    # A pipe is read beside past 4 MiB; a file on standard input when 16
    # MiB more are left.
    head -c 24000000 /dev/urandom > f
    same_jobs "1 2" 'cat f | md5sum'
    same_jobs "1 2" 'md5sum < f'
    # Ending just before, at and just after the bytes read before the
    # thread starts, and a file with just less and just as much left.
    local s
    for s in 4194303 4194304 4194305 20971519 20971520; do
        head -c "$s" f > "s$s"
        same "md5sum < s$s; cat s$s | md5sum"
    done
    # Nothing past the first end of file is taken from the stream.
    same 'md5sum - f - < f'
    same '(md5sum -; wc -c) < f'
    # The writer pauses where the thread starts, then writes in pieces of
    # every size.
    same '{ head -c 4194000 f; sleep 0.2; tail -c +4194001 f | dd bs=100k status=none; } | md5sum'
}

@test "more large files than lanes, of different lengths: as GNU" {
    head -c 4194304 /dev/urandom > pool
    local i
    for i in $(seq 10 69); do
        # 300 KiB to 3.3 MiB: more than one chunk each, of different
        # lengths, so that lanes empty at different times
        head -c $(( (i * 7919 % 31 + 3) * 107520 )) pool > "big$i"
    done
    "$GNU_MD5SUM" big* > list
    same_jobs "1 2 3 8" 'md5sum big*'
    same_jobs "1 2 3 8" 'md5sum -c list'
    same_jobs "1 2 3 8" 'md5sum big* big* big*'
}

# few_large: three files of 17 MB and one of 33 MB, l1 to l4, and a small
# one, s, in the page cache.
few_large() {
    local i
    for i in 1 2 3; do head -c 17000000 /dev/urandom > "l$i"; done
    head -c 33000000 /dev/urandom > l4
    head -c 300000 /dev/urandom > s
    cat l* s > /dev/null
}

@test "few large files in the page cache, fed to one hasher (src/flow.h): as GNU, and with one of them out of memory" {
    # Each read ahead by the reader for the hasher fed; seven: more than
    # may be fed, balanced as any.
    few_large
    same_jobs "1 2 3 8" 'md5sum l1 l2 l3 l4'
    same_jobs "2 8" 'md5sum -c <(md5sum l1 l2 l3 l4)'
    same_jobs "2 8" 'md5sum l1 l2 l3 l4 l1 l2 l3'
    # One out of memory: not fed, and the run turns cold as its hasher finds
    # so (MD5SUM_ENGINE_STATS: later 1, cold 1, fed 3), the three fed still
    # read side by side.
    same_jobs "2 8" 'dd if=l4 iflag=nocache count=0 status=none; md5sum l1 l2 l3 l4 s' \
        'md5sum l1 l2 l3 l4 s'
}

@test "a few large files from a cold cache, read behind the pre-reader (src/flow.h): as GNU, with every thread count, checking too" {
    [ "$(stat -f -c %T .)" != tmpfs ] || skip "files on tmpfs cannot be taken out of memory"
    few_large
    "$GNU_MD5SUM" l1 l2 l3 l4 s > list
    # Each run from a cold cache: the hashers read behind the pre-reader
    # (MD5SUM_ENGINE_STATS: reader 0), which wakes each as it reads on; a
    # hasher left asleep would hang the run (the timeout).
    local evict='for f in l1 l2 l3 l4 s; do dd if=$f iflag=nocache count=0 status=none; done'
    same_jobs "1 2 3 8" "$evict; timeout 60 md5sum \$J l1 l2 l3 l4 s" 'md5sum l1 l2 l3 l4 s'
    same_jobs "2 8" "$evict; timeout 60 md5sum \$J -c list" 'md5sum -c list'
}

@test "few large files under an address-space limit (ulimit -v): every result as GNU's" {
    [ -z "${EXEC_WRAPPER:-}" ] || skip "under qemu the limit would be qemu's"
    ! sanitized || skip "sanitizers reserve far more address space"
    few_large
    local lim
    # The reader's buffers halve with the limit, and with them how many
    # inputs are fed (MD5SUM_ENGINE_STATS here: every file plainly at 16
    # and 24 MB, threads but none fed at 40, four fed at 60).
    for lim in 16000 24000 40000 60000 120000; do
        same_jobs "1 2 8" "ulimit -v $lim; md5sum l1 l2 l3 l4 s"
    done
}
