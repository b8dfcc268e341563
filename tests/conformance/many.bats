#!/usr/bin/env bats
# Many files in one run, as the engine batches them: hundreds of files of
# mixed sizes (empty to over the 2 MiB batching limit, so some are batched
# into SIMD lanes and some mapped), odd names, errors, standard input and a
# FIFO in the middle; hashing and check mode, stdout and stderr merged so
# that the order of results and errors is compared too.
load '../helpers'

# 300 files; sizes and names from a fixed awk generator.
make_many() {
    head -c 3145728 /dev/urandom > ../pool
    awk 'BEGIN {
        srand(7)
        split("0 1 55 56 63 64 65 100 1000 4096 4097 65536 262144 300000", small, " ")
        for (i = 0; i < 300; i++) {
            r = rand()
            if (r < 0.03) size = 2097152 + int(rand() * 3) - 1   # around the batching limit
            else if (r < 0.05) size = 3145728                     # mapped
            else size = small[1 + int(rand() * 14)]
            name = sprintf("f%03d", i)
            if (i % 37 == 5) name = name " space"
            if (i % 41 == 7) name = name "\\back"
            if (i % 43 == 9) name = name "\nnewline"
            if (i % 47 == 11) name = "-" name
            printf "%d\t%s%c", size, name, 0
        }
    }' | while IFS=$'\t' read -r -d '' size name; do
        head -c "$size" ../pool > "./$name"
    done
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
