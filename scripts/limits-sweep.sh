#!/bin/bash
# limits-sweep.sh: our md5sum against GNU md5sum 9.1 under resource limits,
# at every limit of a range and every -j (issue 21, items 3 and 5).  Too
# slow for make check (about two hours on 2 CPUs, most of it in the 32 and
# 100 MB lines): tests/cli/limits.bats runs a subset.  A check to run by
# hand, not a measurement: nothing is timed.
#
#   scripts/limits-sweep.sh [MD5SUM]       (default build/md5sum)
#
# mem (ulimit -v, every MiB from FROM to TO), one row per limit and case:
#   names    md5sum big small N small   (big: 20 MB; N: a 100,000-character
#            name, "File name too long")
#   line1    md5sum -c LIST, LIST's first line naming a missing file of a
#   line8    1,000,000-character name (8, 32, 100 MB for line8 ...), its
#   line32   second "empty"
#   line100
#   hash     md5sum F... nosuch   (110 files of 0 bytes to 9 MiB, one of 20 MB)
#   check    md5sum -c LIST       (a list of the same files)
# fd (ulimit -n N for N from FD_FROM to FD_TO, with N - F descriptors open
# when md5sum starts: 0-2 and inherited ones, F of F_FREE free), one row per
# limit, free count and case: hash and check as above, files0
# (--files0-from=LIST of the names, against GNU given them as operands;
# F >= 2, since the list holds a descriptor of its own).
#
# Each row: GNU's outcome, then for each -j "same" (stdout, stderr and exit
# status byte for byte), "oom" (GNU's getline failed and ours said "memory
# exhausted", exit 1, and nothing else: the one difference
# tests/cli/limits.bats accepts) or "DIFF".  GNU's outcomes: ok (it ran to
# the end), oom ("memory exhausted"), eof (its getline failed for want of
# memory and it took the list as ended: "no properly formatted checksum
# lines found"), emfile ("Too many open files"), other.  A summary at the
# end gives, for each case and -j, the limits where ours differs, with both
# outcomes there.
#
# Environment: GNU_MD5SUM (default /usr/bin/md5sum), SWEEP (mem fd, default
# both), FROM, TO, STEP (MiB, default 6, 512, 1), JOBS (default 1 2 8 64
# 256), CASES (the mem cases, default all), FD_FROM, FD_TO (default 6, 64),
# F_FREE (default 1 2 3 4 8), TMPDIR.  Exit status 1 if any row differs
# where GNU ran to the end.
set -u
OURS=$(realpath "${1:-build/md5sum}") || exit 2
GNU_MD5SUM=${GNU_MD5SUM:-/usr/bin/md5sum}
SWEEP=${SWEEP:-mem fd}
FROM=${FROM:-6} TO=${TO:-512} STEP=${STEP:-1}
JOBS=${JOBS:-1 2 8 64 256}
CASES=${CASES:-names line1 line8 line32 line100 hash check}
FD_FROM=${FD_FROM:-6} FD_TO=${FD_TO:-64}
F_FREE=${F_FREE:-1 2 3 4 8}
[ -x "$OURS" ] || { echo "limits-sweep: $OURS is not a program" >&2; exit 2; }
"$GNU_MD5SUM" --version 2>/dev/null | head -n 1 | grep -q 'GNU coreutils' ||
    { echo "limits-sweep: $GNU_MD5SUM is not GNU md5sum" >&2; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/limits-sweep.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
cd "$dir" || exit 2

# The files, made once.
echo "# making the files in $dir" >&2
head -c 20000000 /dev/urandom > big
echo small > small
: > empty
name=$(head -c 100000 /dev/zero | tr '\0' n)
for mb in 1 8 32 100; do
    { printf 'd41d8cd98f00b204e9800998ecf8427e  '
      head -c $((mb * 1000000)) /dev/zero | tr '\0' x
      printf '\nd41d8cd98f00b204e9800998ecf8427e  empty\n'; } > "line$mb"
done
mkdir mix
head -c 9437184 /dev/urandom > pool
i=0
for s in 0 3 64 4096 262144 1048575 1048577 3145728 9437184; do
    head -c "$s" pool > "mix/f$i"
    i=$((i + 1))
done
for i in $(seq 10 109); do head -c $((i * 37)) pool > "mix/f$i"; done
cp big mix/f200
rm pool
"$GNU_MD5SUM" mix/* > mixlist
printf '%s\0' mix/* > names0

# args CASE: the operands of a case, in the array A.
args() {
    case $1 in
        names) A=(big small "$name" small) ;;
        line*) A=(-c "$1") ;;
        hash) A=(mix/* nosuch) ;;
        check) A=(-c mixlist) ;;
        files0) A=(--files0-from=names0) ;;
    esac
}

# run OUT PROG LIMITS J CASE: run PROG (with -j J unless J is "gnu") as
# "md5sum" on CASE's operands after the shell commands LIMITS; stdout to
# OUT.out, stderr and "exit N" to OUT.err.  GNU is given the files0 case's
# names as operands.
run() {
    local out=$1 prog=$2 limits=$3 j=$4 c=$5
    local -a jopt=()
    args "$c"
    if [ "$j" = gnu ]; then
        [ "$c" = files0 ] && A=(mix/*)
    else
        jopt=(-j "$j")
    fi
    ( eval "$limits"; exec -a md5sum "$prog" "${jopt[@]}" "${A[@]}" ) > "$out.out" 2> "$out.err"
    echo "exit $?" >> "$out.err"
}

outcome() { # OUT: GNU's (or ours') outcome, in a word
    if grep -q 'memory exhausted' "$1.err"; then echo oom
    elif grep -q 'no properly formatted' "$1.err"; then echo eof
    elif grep -q 'Too many open files' "$1.err"; then echo emfile
    elif grep -q 'exit 12[0-9]\|error while loading' "$1.err"; then echo other
    else echo ok
    fi
}

# row SECTION KEY LIMITS CASE: one row of the table; records DIFFs for the summary.
declare -A diffs=()
bad=0 eofs=0
row() {
    local sec=$1 key=$2 limits=$3 c=$4 j g cells=''
    run gnu "$GNU_MD5SUM" "$limits" gnu "$c"
    g=$(outcome gnu)
    for j in $JOBS; do
        run ours "$OURS" "$limits" "$j" "$c"
        if cmp -s gnu.out ours.out && cmp -s gnu.err ours.err; then
            cells="$cells $(printf '%-5s' same)"
        elif [ "$g" = eof ] && [ ! -s ours.out ] &&
             [ "$(cat ours.err)" = "md5sum: memory exhausted
exit 1" ]; then
            cells="$cells $(printf '%-5s' oom)"
            eofs=$((eofs + 1))
        else
            cells="$cells $(printf '%-5s' DIFF)"
            diffs["$sec $c j$j"]+=" $key:$g/$(outcome ours)"
            [ "$g" = ok ] && bad=1
        fi
    done
    printf '%-18s %-8s %-7s%s\n' "$key" "$c" "$g" "$cells"
}

header() { # FIRST-COLUMN
    local j
    printf '%-18s %-8s %-7s' "$1" case gnu
    for j in $JOBS; do printf ' %-5s' "j$j"; done
    echo
}

# ranges "K:G/O ...": consecutive limits with the same outcomes as
# "FROM-TO (gnu G, ours O)".
ranges() {
    tr ' ' '\n' | awk -F'[:/]' 'NF == 3 {
        if (n && $1 == last + ('"$STEP"') && $2 == g && $3 == o) { last = $1; next }
        if (n) { printf "%s%s (gnu %s, ours %s)", sep, (first == last ? first : first "-" last), g, o; sep = "; " }
        n = 1; first = last = $1; g = $2; o = $3 }
        END { if (n) printf "%s%s (gnu %s, ours %s)", sep, (first == last ? first : first "-" last), g, o; print "" }'
}

echo "# ours: $OURS ($("$OURS" --version | head -n 1)); GNU: $GNU_MD5SUM"
echo "# CPU: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1), $(nproc) CPUs available"
case " $SWEEP " in *" mem "*)
    echo "## mem: ulimit -v, MiB $FROM to $TO step $STEP"
    header "limit MiB"
    for ((m = FROM; m <= TO; m += STEP)); do
        for c in $CASES; do
            row mem "$m" "ulimit -v $((m * 1024))" "$c"
        done
    done ;;
esac
case " $SWEEP " in *" fd "*)
    echo "## fd: ulimit -n N, N - F descriptors open at start (0-2 and inherited), F free"
    header "N/F"
    for ((n = FD_FROM; n <= FD_TO; n++)); do
        for f in $F_FREE; do
            [ "$f" -le $((n - 3)) ] || continue
            # Descriptors 3 to N-F-1 open (on a file), N-F to N-1 closed.
            lim="ulimit -n $n; for ((d = 3; d < $n; d++)); do
                     if [ \$d -lt $((n - f)) ]; then eval \"exec \$d<empty\"; else eval \"exec \$d<&-\"; fi
                 done"
            for c in hash check files0; do
                # --files0-from holds a descriptor GNU given operands has not.
                [ "$c" = files0 ] && [ "$f" -lt 2 ] && continue
                row fd "$n/$f" "$lim" "$c"
            done
        done
    done ;;
esac

echo "## summary: where ours differs (limit or N/F: gnu's outcome / ours')"
echo "# $eofs runs where GNU's getline ran out of memory and ours said so (oom)"
if [ ${#diffs[@]} -eq 0 ]; then
    echo "no difference"
else
    for k in "${!diffs[@]}"; do
        case $k in
            fd*) list=${diffs[$k]} ;;
            *) list=$(echo "${diffs[$k]}" | ranges) ;;
        esac
        printf '%-14s %s\n' "$k:" "$list"
    done | sort
fi
exit "$bad"
