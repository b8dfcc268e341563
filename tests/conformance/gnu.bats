#!/usr/bin/env bats
# Conformance: a generated corpus (odd names, boundary sizes, error cases)
# hashed by our md5sum and by GNU md5sum in every output mode; stdout,
# stderr and exit status must be identical byte for byte.
load '../helpers'

# Files whose names hold every awkward character class, at boundary sizes,
# plus entries that fail in each way.
make_corpus() {
    local sizes="0 1 55 56 57 63 64 65 119 120 127 128 129 4095 4096 4097 1048577"
    local names=("plain" "with space" "a\\b" "$(printf 'nl\nx')" "$(printf 'cr\rx')"
                 "$(printf 'tab\tx')" "it's" "a:b" "*star" " lead" "trail " "x) = y"
                 "$(printf 'hi\351')" "\$dollar" "#hash" "{" "MD5 (f) = 0" "-dash")
    local i=0 n s
    head -c 1048577 /dev/urandom > ../pool
    for n in "${names[@]}"; do
        set -- $sizes
        shift $((i % 17))
        s=$1
        head -c "$s" ../pool > "./$n"
        i=$((i + 1))
    done
    mkdir dir; ln -s nowhere dangling; ln -s plain link
    : > empty
}

corpus_same() { # MODE-OPTIONS
    same "md5sum $1 -- * nosuch dir/x"
}

@test "corpus: default mode" { make_corpus; corpus_same ""; }
@test "corpus: --binary" { make_corpus; corpus_same "-b"; }
@test "corpus: --text" { make_corpus; corpus_same "-t"; }
@test "corpus: --tag" { make_corpus; corpus_same "--tag"; }
@test "corpus: -z" { make_corpus; corpus_same "-z"; }
@test "corpus: -z --tag" { make_corpus; corpus_same "-z --tag"; }
@test "corpus: -bz" { make_corpus; corpus_same "-bz"; }

@test "corpus: merged stdout and stderr keep GNU's order" {
    make_corpus
    same_merged 'md5sum -- * nosuch dir/x'
    same_merged 'md5sum -z -- * nosuch'
}

@test "corpus: UTF-8 locale" {
    locale -a 2>/dev/null | grep -qi '^c\.utf-\?8$' || skip "no C.UTF-8 locale"
    make_corpus
    LC_ALL=C.UTF-8 corpus_same ""
    LC_ALL=C.UTF-8 corpus_same "--tag"
}

@test "corpus: read through standard input and pipes" {
    make_corpus
    same 'for f in *; do [ -f "$f" ] && md5sum < "$f"; done; cat -- * 2>/dev/null | md5sum'
}

@test "corpus: write errors" {
    make_corpus
    same 'md5sum -- * > /dev/full'
    same 'md5sum -z -- * > /dev/full'
}
