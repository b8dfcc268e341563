#!/usr/bin/env bats
# Threads change nothing a user sees: random mixes of inputs, hashed and
# checked with --jobs 1, 2, 3 and 8, against GNU md5sum (which has no
# --jobs), stdout and stderr merged so that the order of results and
# diagnostics is compared too.  Each seed makes 30 to 49 files (make_files
# in helpers.bash): one of each size where the engine changes what it does
# (MD5's blocks, the 256 KiB read chunk, the 2 MiB read-ahead of the next
# input), one of 20 to 40 MiB, in its lane while the others come and go,
# and more at random, two in five of them longer than a chunk; odd names
# and repeated operands; and among them missing and unreadable entries, a
# directory, standard input twice and a FIFO (these three read in order by
# the caller's thread, between the others).  Two seeds a run: seed 1, and
# a new one each run (JOBS_SEED to repeat one; a failure prints it), so
# that CI runs add up to many mixes.  Under qemu and sanitizers, where
# every byte costs ten times more, files are of at most 4 MiB (still past
# every boundary).
load '../helpers'

slow() {
    [ -n "${EXEC_WRAPPER:-}${MD5SUM_SANITIZED:-}" ]
}

seeds() {
    echo "1 ${JOBS_SEED:=$((RANDOM * 32768 + RANDOM + 2))}"
}

# make_mix SEED: files in the current directory, "names" (theirs, each
# ended by a NUL), "ops" (the operands, NUL-separated) and "stdin" (what
# standard input holds).
make_mix() {
    local max=41943040
    ! slow || max=4194304
    make_files count=$((30 + $1 % 20)) max="$max" large=40 seed="$1" odd names=names
    head -c 100000 "$BATS_TEST_TMPDIR/pool" | tail -c 777 > stdin
    mkdir -p dir
    # The operands: every file, some twice, shuffled by the seed, with the
    # special entries put in.
    awk -v seed="$1" 'BEGIN { RS = "\0"; srand(seed * 7 + 1) }
        { name[n++] = $0 }
        END {
            for (i = 0; i < n; i++) { ops[m++] = name[i]; if (rand() < 0.1) ops[m++] = name[i] }
            for (i = m - 1; i > 0; i--) { j = int(rand() * (i + 1)); t = ops[i]; ops[i] = ops[j]; ops[j] = t }
            split("nosuch dir - fifo - locked", extra, " ")
            for (k = 1; k <= 6; k++) { p = int(rand() * m); for (i = m; i > p; i--) ops[i] = ops[i - 1]; ops[p] = extra[k]; m++ }
            for (i = 0; i < m; i++) printf "%s%c", ops[i], 0
        }' names > ops
    mkfifo fifo
    chmod a+rw fifo
    printf 'locked' > locked
    chmod 000 locked
}

# The operands as a quoted shell word list.
ops_words() {
    local w='' x
    while IFS= read -r -d '' x; do w+=" $(printf '%q' "$x")"; done < ops
    echo "$w"
}

# compare_jobs SCRIPT [fifo]: ours with -j 1, 2, 3 and 8 (those the leg
# can run) against GNU, merged streams; with "fifo", a writer feeds the
# FIFO once (a run that never opens it fails after 30 s instead of hanging).
compare_jobs() {
    local s=$1
    [ "${2:-}" != fifo ] || s="{ timeout 30 sh -c 'printf fifo-data > fifo' & } ; $s ; wait"
    same_jobs "1 2 3 8" "{ $s ; } 2>&1"
}

@test "random mixes, hashing: --jobs 1, 2, 3 and 8 print what GNU prints" {
    local seed
    # shellcheck disable=SC2034  # read by ours and gnu (helpers.bash)
    RUN_AS=as_nobody
    open_to_nobody
    for seed in $(seeds); do
        echo "seed $seed (JOBS_SEED=$seed repeats it)"
        mkdir -p "s$seed" && cd "s$seed"
        chmod a+rwx .
        make_mix "$seed"
        compare_jobs "md5sum -- $(ops_words) < stdin" fifo
        compare_jobs "md5sum --tag -- $(ops_words) < stdin" fifo
        cd ..
    done
}

@test "random mixes, check mode: --jobs 1, 2, 3 and 8 print what GNU prints" {
    local seed
    # shellcheck disable=SC2034  # read by ours and gnu (helpers.bash)
    RUN_AS=as_nobody
    open_to_nobody
    for seed in $(seeds); do
        echo "seed $seed (JOBS_SEED=$seed repeats it)"
        mkdir -p "s$seed" && cd "s$seed"
        chmod a+rwx .
        make_mix "$seed"
        xargs -0 "$GNU_MD5SUM" -- < names > list 2>/dev/null || true
        # A wrong digest, a missing entry, unreadable and special entries,
        # and an improperly formatted line.
        awk 'NR % 5 == 2 { sub(/^[0-9a-f]/, "x") } NR % 7 == 3 { sub(/  f/, "  nof") } { print }' list > list2
        h=$("$GNU_MD5SUM" < /dev/null | cut -c1-32)
        printf '%s  dir\n%s  locked\n%s  fifo\nnot a line\n%s  nosuch\n' "$h" "$h" "$h" "$h" >> list2
        chmod a+r list list2
        compare_jobs "md5sum -c list"
        compare_jobs "md5sum -c -w list2 list" fifo
        compare_jobs "md5sum -c --quiet - < list2" fifo
        cd ..
    done
}
