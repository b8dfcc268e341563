#!/usr/bin/env bats
# Option parsing: usage errors, their messages and their order of validation.
load '../helpers'

@test "an unknown short option is reported, with the Try line, status 1" {
    same 'md5sum -x f'
    same 'md5sum -q'
    same 'md5sum -bx f'
}

@test "an unknown long option is reported whole, with any =value" {
    same 'md5sum --foo'
    same 'md5sum --algorithm=md5 f'
}

@test "an ambiguous abbreviation lists the candidates in GNU's order" {
    same 'md5sum --st f'
    same 'md5sum --s f'
    same 'md5sum --t f'
}

@test "an option that takes no argument rejects =value, naming the full option" {
    same 'md5sum --tag=1 f'
    same 'md5sum --tag= f'
    same 'md5sum --bin=1 f'
}

@test "--help prints usage on stdout and exits 0, even after other options" {
    ours 'md5sum --help' > help.txt
    grep -q '^Usage: md5sum \[OPTION\]\.\.\. \[FILE\]\.\.\.$' help.txt
    run -0 --separate-stderr ours 'md5sum --tag -t --help nosuch'
    assert_equal "$stderr" ""
    assert_equal "$output" "$(cat help.txt)"
}

@test "--help mentions every option" {
    run -0 ours 'md5sum --help'
    for o in --binary --check --tag --text --zero --ignore-missing --quiet --status --strict --warn --help --version; do
        assert_output --partial -- "$o"
    done
}

@test "--version names the program, the version and the MD5 core" {
    run -0 --separate-stderr ours 'md5sum --version'
    assert_equal "$stderr" ""
    assert_line --index 0 --regexp '^md5sum \(.*\) [0-9]+\.[0-9]+'
    assert_line --regexp '^MD5 core: (portable C|aarch64 assembly)$'
    assert_line --regexp '^Many-file lane kernels: ((avx512zsx48|avx512zsx32|avx512zx48|avx512zx32|avx512zx16|avx512x32|avx512x24|avx512x16|avx2x24|avx2x16|avx2x8|scalarx2|neonx24|neonx16|neonx8)(, |$))+|none \(the MD5 core alone\)$'
}

@test "--version --help prints the version; --help --version the help" {
    run -0 ours 'md5sum --version --help'
    assert_line --index 0 --regexp '^md5sum '
    run -0 ours 'md5sum --help --version'
    assert_line --index 0 --regexp '^Usage: '
}

@test "an invalid option before --help wins; after it, --help wins" {
    same 'md5sum --foo --help'
    run -0 ours 'md5sum --help --foo'
}

@test "check-only options are rejected without -c, in GNU's order" {
    printf abc > f
    same 'md5sum --ignore-missing f'
    same 'md5sum --status f'
    same 'md5sum -w f'
    same 'md5sum --warn f'
    same 'md5sum --quiet f'
    same 'md5sum --strict f'
    same 'md5sum --strict --ignore-missing --status f'
}

@test "of --status, --quiet and --warn the last one is the one reported" {
    same 'md5sum --status --quiet f'
    same 'md5sum --quiet --status f'
    same 'md5sum --quiet --warn f'
    same 'md5sum --strict --status f'
    same 'md5sum -b -w f'
}

@test "hash-only options are rejected with -c, in GNU's order" {
    same 'md5sum -c -z f'
    same 'md5sum -c --tag f'
    same 'md5sum -c -b f'
    same 'md5sum -c -t f'
    same 'md5sum -c -z --tag f'
    same 'md5sum -c --tag -t f'
    same 'md5sum -c -t --tag f'
}

@test "usage errors read no operand" {
    mkfifo fifo
    # A read of the FIFO would block: the error must come first.
    same 'timeout 5 md5sum --strict fifo'
}

@test "the program name as GNU's takes it from argv[0]: a libtool wrapper's /.libs/ and lt- dropped, an empty one empty, a long one whole" {
    ! under_valgrind || skip "valgrind passes on only the name it is started by (helpers.bash)"
    local name long
    long=/x/$(printf 'x%.0s' {1..300})   # longer than the messages' own buffers
    for name in '' /x/.libs/lt-md5sum /x/.libs/md5sum /x/.libs/lt- lt-md5sum /x/lt-md5sum "$long"; do
        same "(exec -a '$name' md5sum nosuch --bogus); (exec -a '$name' md5sum nosuch);
              (exec -a '$name' md5sum --help) | head -n 1"
    done
}

@test "the program name in messages is argv[0] as invoked" {
    cp "$MD5SUM" other-name
    run -1 ${EXEC_WRAPPER:-} ./other-name nosuch
    assert_output "./other-name: nosuch: No such file or directory"
    run -1 ${EXEC_WRAPPER:-} "$PWD/other-name" -x
    assert_line --index 0 "$PWD/other-name: invalid option -- 'x'"
    assert_line --index 1 "Try '$PWD/other-name --help' for more information."
}
