#!/bin/bash
# difffuzz.sh [CASES [SEED]]: random cases run by our md5sum and by GNU's,
# stdout, stderr and exit status compared byte for byte (make fuzz-gnu).
# Each case draws files (odd names, sizes at block boundaries and past where
# a stream's reads move to a thread, now and then hundreds of small ones or
# a few of 16 MiB and more, directories, dangling links), a mode (hashing; -c
# over a list GNU wrote and then mutated: flipped digits, upper case, CRLF,
# tags, escapes, comments, broken lines), options (valid and conflicting),
# operands (missing, repeated, "-" from a file, a FIFO fed by a writer, or
# named twice and fed by two in turn), a locale with GNU's messages, and
# where the output goes (a file, /dev/full, closed), now and then with few
# descriptors (ulimit -n) or little address space (ulimit -v) for both, and
# how the page cache holds the files as ours runs: all of them, none (a
# cold run), or all but a 128 KiB range here and there (build/evict; not
# where the files are on tmpfs).  Ours runs with a random --jobs, and
# sometimes reads its operands by --files0-from; GNU, which has neither
# option, runs without, its operands on its command line.  Both run through
# links named md5sum, so the program name in diagnostics is the same.  The
# first difference stops the run: the case is printed, its files kept under
# $WORK.
# Environment: MD5SUM (ours, default build/md5sum), GNU_MD5SUM (default
# /usr/bin/md5sum), WORK (default a fresh directory under $TMPDIR),
# FUZZ_LOCALES (default: C, C.UTF-8, POSIX and those tests/cli/
# translations.bats uses, compiled as it does into a private LOCPATH beside
# our md5sum; where they cannot be, C and POSIX only), FUZZ_LIMITS=0 (no
# ulimit: a sanitized md5sum needs far more address space).
# A fixed SEED gives the same cases on the same machine.
set -u
cases=${1:-500}
RANDOM=${2:-$$}
cd "$(dirname "$0")/../.." || exit 2
ours=$(realpath "${MD5SUM:-build/md5sum}")
gnu=${GNU_MD5SUM:-/usr/bin/md5sum}
"$gnu" --version 2>/dev/null | grep -q 'GNU coreutils' || {
    echo "difffuzz: $gnu is not GNU md5sum" >&2; exit 2; }
work=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/difffuzz.XXXXXX")}
# A FIFO's writer (one_case) does not outlive the run, however it stops.
writer=
trap '[ -z "${writer:-}" ] || kill "$writer" 2> /dev/null' EXIT
mkdir -p "$work/ours-bin" "$work/gnu-bin"
ln -sf "$ours" "$work/ours-bin/md5sum"
ln -sf "$(realpath "$gnu")" "$work/gnu-bin/md5sum"

locales=${FUZZ_LOCALES:-C.UTF-8 de_DE.UTF-8 fr_FR.UTF-8 pl_PL.UTF-8 ja_JP.UTF-8 es_ES.UTF-8 de_DE.ISO-8859-1}
export LOCPATH=${ours%/*}/locale-host
# shellcheck disable=SC2086  # a word list
tests/run/mklocales.sh "$LOCPATH" $locales > /dev/null 2>&1 || {
    echo "difffuzz: the locales could not be compiled (package locales): C and POSIX only" >&2
    locales=; }
read -r -a locales <<< "C POSIX $locales"

pick() { # pick WORD...: one of them
    local a=("$@")
    echo "${a[RANDOM % ${#a[@]}]}"
}
chance() { [ $((RANDOM % 100)) -lt "$1" ]; } # chance PERCENT
evict=${ours%/*}/evict

# set_cache STATE DIR: DIR's regular files warm, out of the page cache
# (cold), or out of it only for a 128 KiB range in a few (holes).  Not a
# FIFO: opened, it would take the place of md5sum for its writer.
set_cache() {
    local f size files=()
    for f in "$2"/*; do [ ! -f "$f" ] || files+=("$f"); done
    [ ${#files[@]} -gt 0 ] || return 0
    case $1 in
        cold) "$evict" "${files[@]}" 2> /dev/null ;;
        holes)
            for f in "${files[@]}"; do
                size=$(stat -c %s "$f")
                [ "$size" -gt 131072 ] && chance 30 || continue
                "$evict" -r $((RANDOM % (size / 131072) * 131072)):131072 "$f" 2> /dev/null
            done ;;
    esac
    return 0
}

# Names: plain, with blanks, backslashes, newlines, CR, a leading dash or
# star, non-ASCII bytes (valid UTF-8 and not), long.
name_pool=(a b.txt 'two words' 'back\slash' $'new\nline' $'car\rret' -dash '*star'
    $'caf\xc3\xa9' $'lat\xe9' 'x(1) = y' 'MD5 (n) = 0' "$(printf 'l%.0s' {1..250})" '  lead' 'trail ')
sizes=(0 1 3 55 56 57 63 64 65 119 120 128 1000 4096 65536 131071 131073 262144 1048577 4194305)

# make_files DIR: a random set of inputs in DIR; their names in FILES.
make_files() {
    local i n name size
    FILES=()
    n=$((1 + RANDOM % 12))
    for ((i = 0; i < n; i++)); do
        name=$(pick "${name_pool[@]}")$((RANDOM % 3))
        size=$(pick "${sizes[@]}")
        [ -e "$1/$name" ] && continue
        head -c "$size" /dev/urandom > "$1/$name"
        FILES+=("$name")
    done
    # Now and then more files than the engine holds open at once (256),
    # cut from a random pool by the shell alone (a process for each, a
    # command substitution included, took 8 ms).
    if chance 5; then
        local few=(0 1 64 100 4096 70000)
        [ -n "${pool:-}" ] || pool=$(head -c 105000 /dev/urandom | base64 -w 0)
        n=$((260 + RANDOM % 300))
        for ((i = 0; i < n; i++)); do
            printf '%s' "${pool:RANDOM % 60000:${few[RANDOM % ${#few[@]}]}}" > "$1/m$i"
            FILES+=("m$i")
        done
    fi
    # Now and then a few large ones (16 MiB and more), fed to one hasher
    # while they are few and in the page cache (src/flow.h).
    if chance 3; then
        n=$((2 + RANDOM % 6))
        for ((i = 0; i < n; i++)); do
            head -c $((16777216 + RANDOM % 3 * 4194305)) /dev/urandom > "$1/L$i"
            FILES+=("L$i")
        done
    fi
    if chance 20; then mkdir "$1/dir"; FILES+=(dir); fi
    if chance 15; then ln -s nowhere "$1/dangling"; FILES+=(dangling); fi
}

# mutate_list FILE: the checksum list changed line by line, some lines at random.
mutate_list() {
    local line out=() hex
    while IFS= read -r line || [ -n "$line" ]; do
        if chance 25; then
            case $((RANDOM % 14)) in
                0) hex=${line:0:1}; line=$([ "$hex" = 0 ] && echo 1 || echo 0)${line:1} ;;
                1) line=${line^^} ;;
                2) line="$line"$'\r' ;;
                3) out+=("# a comment") ;;
                4) out+=("") ;;
                5) line=${line:0:31}${line:32} ;;
                6) line=${line/  / *} ;;
                7) line=${line/  / } ;;
                8) line="MD5 (${line:34}) = ${line:0:32}" ;;
                9) line="SHA1 (${line:34}) = ${line:0:32}" ;;
                10) line="\\$line" ;;
                11) line="${line:0:34}missing$RANDOM" ;;
                12) line="garbage line $RANDOM" ;;
                13) out+=("$line") ;;   # twice
            esac
        fi
        out+=("$line")
    done < "$1"
    if chance 10; then out+=("MD5 (a0) = "); fi
    if [ ${#out[@]} -gt 0 ]; then printf '%s\n' "${out[@]}"; else :; fi > "$1.new"
    if chance 15; then printf '%s' "$(cat "$1.new")" > "$1.new"; fi   # no final newline
    mv "$1.new" "$1"
}

hash_opts=(-b -t -z --tag --binary --text --zero --ignore-missing --quiet --strict -w --status)
check_opts=(--quiet --status --strict -w --warn --ignore-missing -z --tag -b -t)
# Options GNU refuses, with the same words in ours (no prefix of ours alone:
# --j, --f and --p name options GNU does not have).
bad_opts=(-x --bogus --tag=1 --s --st --t --ta --b --check=x -)

# one_case N: make, run and compare case N.  Returns 1 on a difference.
one_case() {
    local dir=$work/case cmd=() ops=() i n opts=() jobs loc lang out_to in_from files0=0 limits
    local fifo_from='' fifo_again='' cache=warm
    rm -rf "$dir" && mkdir -p "$dir/in"
    make_files "$dir/in"
    if [ -x "$evict" ] && [ "$(stat -f -c %T "$dir/in")" != tmpfs ]; then
        if chance 15; then cache=cold; elif chance 10; then cache=holes; fi
    fi
    if chance 55; then
        # Hashing.
        for o in "${hash_opts[@]}"; do chance 12 && opts+=("$o"); done
        n=$((RANDOM % 8))
        [ ${#FILES[@]} -lt 100 ] || n=$((${#FILES[@]} + RANDOM % 8))
        for ((i = 0; i < n; i++)); do
            if chance 10; then ops+=(nosuch); elif chance 8; then ops+=(-); else ops+=("${FILES[RANDOM % ${#FILES[@]}]}"); fi
        done
        # A FIFO, fed a file by a writer; now and then named twice, and fed
        # another by a second writer that comes 0.3 s after the first left
        # (GNU opens it at each turn: each reads one writer's file).
        if chance 10; then
            i=$((RANDOM % (${#ops[@]} + 1)))
            ops=("${ops[@]:0:i}" fifo "${ops[@]:i}")
            fifo_from=$(pick "${FILES[@]}")
            if chance 40; then
                i=$((i + 1 + RANDOM % (${#ops[@]} - i)))
                ops=("${ops[@]:0:i}" fifo "${ops[@]:i}")
                fifo_again=$(pick "${FILES[@]}")
            fi
        fi
        cmd=("${opts[@]}")
        [ ${#ops[@]} -eq 0 ] || cmd+=(-- "${ops[@]}")
        # Ours may read the operands from a list (--files0-from, which GNU's
        # md5sum lacks): GNU gets them on the command line.
        if [ ${#ops[@]} -gt 0 ] && [[ " ${ops[*]} " != *" - "* ]] && chance 15; then
            printf '%s\0' "${ops[@]}" > "$dir/names0"
            files0=1
        fi
    else
        # -c over a list GNU wrote (of files that exist), then mutated.
        local gen=()
        chance 30 && gen+=(--tag)
        chance 20 && gen+=(-b)
        chance 10 && gen+=(-z)
        (cd "$dir/in" && "$gnu" "${gen[@]}" -- "${FILES[@]}" > ../list 2> /dev/null)
        chance 70 && mutate_list "$dir/list"
        for o in "${check_opts[@]}"; do chance 12 && opts+=("$o"); done
        cmd=(-c "${opts[@]}")
        if chance 80; then cmd+=(../list); else cmd+=(- ); fi
        chance 10 && cmd+=(../list)
    fi
    if [ "$files0" = 0 ] && chance 6; then
        i=$((RANDOM % (${#cmd[@]} + 1)))
        cmd=("${cmd[@]:0:i}" "$(pick "${bad_opts[@]}")" "${cmd[@]:i}")
    fi
    jobs=$(pick 1 2 3 8)
    loc=$(pick "${locales[@]}")
    lang=$(pick '' '' fr de ja pl es pt_BR)
    out_to=$(pick file file file file full closed)
    in_from=$(pick list list file closed dir)
    [ "$in_from" != file ] || in_from=$(pick "${FILES[@]}")
    # Now and then few descriptors or little address space, for both.
    limits=:
    chance 10 && limits="ulimit -n $(pick 6 7 8 9 10 12 16)"
    chance 10 && limits="$limits; ulimit -v $(($(pick 8 10 12 16 24 32 48 64) << 10))"
    [ "${FUZZ_LIMITS:-1}" = 1 ] || limits=:
    printf '%s\0' "${cmd[@]}" > "$dir/cmd"
    for who in ours gnu; do
        local args=("${cmd[@]}") rc
        if [ -n "$fifo_from" ]; then
            rm -f "$dir/in/fifo" && mkfifo "$dir/in/fifo"
            # timeout: killed, it takes its group with it (a cat waiting).
            timeout 60 sh -c 'cat "$1" > "$3"; [ -z "$2" ] || { sleep 0.3; cat "$2" > "$3"; }' \
                sh "$dir/in/$fifo_from" "${fifo_again:+$dir/in/$fifo_again}" "$dir/in/fifo" 2> /dev/null &
            writer=$!
        fi
        [ "$who" = gnu ] || [ "$files0" = 0 ] || args=("${opts[@]}" --files0-from=../names0)
        [ "$who" = gnu ] || args=(--jobs="$jobs" "${args[@]}")
        [ "$who" = gnu ] || set_cache "$cache" "$dir/in"
        (
            cd "$dir/in" || exit 99
            case $in_from in
                list) exec < ../list ;;
                closed) exec <&- ;;
                dir) exec < . ;;
                *) exec < "$in_from" ;;
            esac 2> /dev/null
            case $out_to in
                file) exec > "../$who.out" ;;
                full) exec > /dev/full ;;
                closed) exec >&- ;;
            esac
            eval "$limits"
            # With a FIFO, a hang is a failure too (status 124 from timeout).
            exec env LC_ALL="$loc" LANGUAGE="$lang" PATH="$work/$who-bin:$PATH" \
                ${fifo_from:+timeout 60} md5sum "${args[@]}"
        ) 2> "$dir/$who.err"
        rc=$?
        # A writer whose FIFO was never opened (an option refused) ends here.
        if [ -n "$fifo_from" ]; then
            kill "$writer" 2> /dev/null
            wait "$writer" 2> /dev/null
            writer=
        fi
        echo "exit $rc" >> "$dir/$who.err"
        [ -e "$dir/$who.out" ] || : > "$dir/$who.out"
    done
    if ! cmp -s "$dir/ours.out" "$dir/gnu.out" || ! cmp -s "$dir/ours.err" "$dir/gnu.err"; then
        echo "difffuzz: case $1 differs (kept in $dir)"
        echo "  LC_ALL=$loc LANGUAGE=$lang stdout=$out_to stdin=$in_from limits=$limits cache=$cache" \
             "${fifo_from:+fifo fed $fifo_from${fifo_again:+ then $fifo_again} }--jobs=$jobs (ours only)" \
             "$([ "$files0" = 0 ] || echo "--files0-from (ours only, the operands)")"
        printf '  md5sum'; printf ' %q' "${cmd[@]}"; echo
        diff <(od -c "$dir/gnu.out") <(od -c "$dir/ours.out") | head -20
        diff "$dir/gnu.err" "$dir/ours.err" | head -20
        return 1
    fi
}

for ((c = 1; c <= cases; c++)); do
    one_case "$c" || exit 1
done
rm -rf "$work"
echo "difffuzz: $cases cases, stdout, stderr and exit status as GNU's in each"
