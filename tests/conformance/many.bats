#!/usr/bin/env bats
# Many files in one run: 300, more than the engine holds open at once (256
# inputs between opening and their result), of mixed sizes (most up to the
# 256 KiB read chunk, a few of many chunks, one of each size where the
# engine changes what it does: make_files in helpers.bash), with odd names,
# errors, standard input and a FIFO in the middle (read in order by the
# caller's thread while the lanes hash the files around them); hashing
# and check mode, stdout and stderr merged so that the order of results
# and errors is compared too.
load '../helpers'

# 300 files, f000 to f299, and a directory; sizes and names from seed 7.
make_many() {
    make_files count=300 max=3145728 large=5 seed=7 odd
    mkdir dir
}

@test "hundreds of files of mixed sizes, with errors, stdin and odd names: hashing" {
    make_many
    printf 'from stdin' > ../in
    same_merged 'md5sum -- f0[0-9]* nosuch - dir f1* f2* < ../in'
    same_merged 'md5sum --tag -- * nosuch < ../in'
    same 'md5sum -z -- * nosuch - < ../in'
}

@test "hundreds of files with a FIFO in the middle: results before it come out in order" {
    make_many
    mkfifo fifo
    same_merged '{ printf abc > fifo & } ; md5sum -- f0* fifo f1* nosuch f2*; wait'
}

@test "hundreds of files: check mode, with mismatches, missing and unreadable entries" {
    make_many
    "$GNU_MD5SUM" -- * > ../list 2>/dev/null || true
    # Break some entries: a wrong digest, a missing file, a directory.
    awk 'NR % 29 == 3 { sub(/^[0-9a-f]/, "x") } NR % 31 == 4 { sub(/  f/, "  nof") } { print }' ../list > ../list2
    printf '%s  dir\n' "$("$GNU_MD5SUM" < /dev/null | cut -c1-32)" >> ../list2
    same_merged 'md5sum -c ../list'
    same_merged 'md5sum -c -w ../list2'
    same_merged 'md5sum -c --quiet ../list2 ../list'
    same_merged 'md5sum -c --ignore-missing --status ../list2'
}
