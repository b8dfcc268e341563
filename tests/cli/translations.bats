#!/usr/bin/env bats
# Every message md5sum 9.1 can print, in languages other than English: GNU's
# own catalogues (text domain "coreutils") give both programs the words, so
# each case must match GNU byte for byte, stdout, stderr and exit status, in
# each locale below.  The locales are compiled into a private LOCPATH
# (tests/run/mklocales.sh), once per build directory; nothing on the system
# changes.  Both programs see the same LOCPATH, LC_ALL and LANGUAGE, except
# on a big-endian target under qemu: there ours reads big-endian copies
# (OURS_LOCPATH, given to qemu by tests/run/check.sh; OURS_LOCALEDEF is
# --big-endian).  Under qemu, de_DE.ISO-8859-1 is left out (see NO_GCONV).
load '../helpers'

# pl_PL: three plural forms; ja_JP: one; fr_FR: 0 and 1 singular;
# de_DE.ISO-8859-1: the catalogues' UTF-8 converted by gettext, and names
# quoted by a single-byte locale's isprint.
NLS_LOCALES="de_DE.UTF-8 fr_FR.UTF-8 pl_PL.UTF-8 ja_JP.UTF-8 es_ES.UTF-8 de_DE.ISO-8859-1"
ALL_LOCALES=$NLS_LOCALES

# Under qemu-user the target's gettext converts only to the charsets its C
# library has built in (UTF-8, ASCII): Debian's cross C libraries
# (libc6-*-cross) ship no gconv modules, so in de_DE.ISO-8859-1 it finds no
# converter and prints English, as GNU's md5sum built for the target would.
# A real target's libc6 has them.
NO_GCONV="under qemu-user: the cross C library ships no gconv modules for ISO-8859-1"
case ${EXEC_WRAPPER:-} in *qemu*) NLS_LOCALES=${NLS_LOCALES% de_DE.ISO-8859-1} ;; esac

setup_file() {
    [ -f /usr/share/locale/de/LC_MESSAGES/coreutils.mo ] ||
        skip "GNU's catalogues are not installed (/usr/share/locale/de/LC_MESSAGES/coreutils.mo, package coreutils)"
    local mk=$BATS_TEST_DIRNAME/../run/mklocales.sh bin=${MD5SUM:?}
    case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
    LOCPATH=${bin%/*}/locale-host
    mkdir -p "$LOCPATH" 2>/dev/null && [ -w "$LOCPATH" ] || LOCPATH=$BATS_FILE_TMPDIR/locale
    export LOCPATH
    export LANGUAGE=''   # each test chooses: a user's setting would override LC_ALL
    # shellcheck disable=SC2086  # lists of names
    "$mk" "$LOCPATH" $ALL_LOCALES C.UTF-8 || return 1
    if [ -n "${OURS_LOCPATH:-}" ]; then
        # shellcheck disable=SC2086
        "$mk" "$OURS_LOCPATH" ${OURS_LOCALEDEF:-} $ALL_LOCALES C.UTF-8 || return 1
    fi
}

# in_each SCRIPT: `same SCRIPT` in every locale of NLS_LOCALES.
in_each() {
    local l
    for l in $NLS_LOCALES; do
        export LC_ALL=$l
        same "$1" || { echo "(in LC_ALL=$l)"; return 1; }
    done
}

# f, e, a directory d, a name with a newline; $H_F: f's digest, $BAD: no
# file's; l: a list giving every status word and a malformed line.
files() {
    printf abc > f; : > e; mkdir d; printf abc > "$(printf 'n\nl')"
    H_F=$("$GNU_MD5SUM" < f | cut -c1-32)
    BAD=$("$GNU_MD5SUM" < /dev/null | cut -c1-32 | tr 0-9a-f a-f0-9)
    printf '%s  f\n%s  e\nbad line\n%s  nosuch\n%s  d\n%s  n\\nl\n' \
        "$H_F" "$BAD" "$H_F" "$H_F" "$BAD" > l
    sed -i '6s/^/\\/' l
}

@test "the compiled locales and GNU's catalogues are in use: GNU's words differ from English" {
    files
    LC_ALL=C gnu 'md5sum -c l' > english 2>&1 || true
    local l
    for l in $NLS_LOCALES; do
        LC_ALL=$l LANGUAGE='' gnu 'md5sum -c l' > translated 2>&1 || true
        if cmp -s english translated; then
            echo "GNU md5sum prints English in $l: the locale did not load (LOCPATH=$LOCPATH)"
            return 1
        fi
    done
    in_each 'md5sum -c l'
}

@test "the status words OK, FAILED and FAILED open or read, -w lines and the summary" {
    files
    in_each 'md5sum -c l; echo $?; md5sum -c -w l; echo $?; md5sum -c --quiet --strict l; echo $?'
    in_each 'md5sum -c --status l; echo $?; md5sum -c -w l 2>&1'
}

@test "the three plural warnings with 1, 2, 5 and 22 (Polish has three forms)" {
    files
    local n i
    for n in 1 2 5 22; do
        { echo "$H_F  f"
          for i in $(seq "$n"); do
              echo "bad $i"; echo "$H_F  nosuch$i"; echo "$BAD  f"
          done; } > "l$n"
    done
    in_each 'for n in 1 2 5 22; do md5sum -c l$n; echo $?; done'
}

@test "a list on standard input is called 'standard input' in the user's language" {
    files
    printf '%s  -\n%s  f\nbad\n' "$H_F" "$H_F" > dash
    echo "$BAD  nosuch" > missing
    in_each 'md5sum -c < /dev/null; echo $?; md5sum -c -w - < dash; echo $?'
    in_each 'md5sum -c --ignore-missing - < dash; md5sum -c --ignore-missing < missing; echo $?'
}

@test "lists that cannot be opened or read, hold no checksum line, or verify no file" {
    files
    : > 'my list'; echo "$H_F  nosuch" > "it's.md5"
    in_each 'md5sum -c nosuch.md5 d /dev/null "my list"; echo $?'
    in_each 'md5sum -c --ignore-missing "it'\''s.md5" l; echo $?'
}

@test "hashing errors: names quoted as GNU does in each locale's charset" {
    printf abc > f; mkdir odd
    local n
    for n in 'a b' "it's" 'x:y' 'café' '日本' $'\xe9t\xe9' $'\xa0' $'\x80x' $'a\tb' $'a\nb' "\$'\xe9'"; do
        mkdir "odd/$n"
    done
    in_each 'md5sum f odd/* nosuch "no such" f; echo $?'
}

@test "standard input that is closed: '-' and 'standard input' at exit" {
    ! under_valgrind || skip "a closed descriptor is not closed under valgrind (helpers.bash)"
    files
    in_each 'md5sum <&-; echo $?; md5sum -c <&-; echo $?'
}

@test "usage errors, getopt's own messages and the Try line" {
    printf abc > f
    in_each 'md5sum --tag -t f; md5sum -c -z; md5sum -c --tag; md5sum -c -b
             md5sum --ignore-missing f; md5sum --status f; md5sum -w f; md5sum --quiet f
             md5sum --strict f; echo $?'
    in_each 'md5sum --bogus; md5sum -q; md5sum -bx f; md5sum --st; md5sum --t f
             md5sum --tag=1; md5sum --bin= f; echo $?'
}

@test "write errors: /dev/full in both modes, -z, --help, --version" {
    files
    in_each 'md5sum f nosuch > /dev/full; echo $?; md5sum -z f > /dev/full; echo $?
             md5sum -c l > /dev/full; echo $?; md5sum --help > /dev/full; echo $?
             md5sum --version > /dev/full; echo $?'
    under_valgrind || in_each 'md5sum f >&-; echo $?'   # see under_valgrind
}

# --files0-from's messages are wc's (GNU md5sum has no such option): the
# catalogues hold them under wc's ids, and wc called md5sum is the reference.
@test "--files0-from's messages, as wc prints them in each locale" {
    printf abc > f; mkdir d
    printf 'f\0\0f' > l
    local l
    for l in $NLS_LOCALES; do
        export LC_ALL=$l
        { like_wc 'md5sum --files0-from=l f' &&
          like_wc 'md5sum --files0-from=l; echo $? >&2; md5sum --files0-from=nosuch; echo $? >&2
                   md5sum --files0-from=d; echo $? >&2; md5sum --files0-from=/proc/self/mem
                   echo $? >&2; printf "f\0-" | md5sum --files0-from=-'; } ||
            { echo "(in LC_ALL=$l)"; return 1; }
    done
    # Translated, not English in both.
    LC_ALL=de_DE.UTF-8 run ours 'md5sum --files0-from=l 2>&1 >/dev/null'
    assert_output "md5sum: l:2: ungültiger Dateiname der Länge 0"
}

# GNU runs out of memory quoting a 3 MB name for its diagnostic; ours may run
# out elsewhere and at another limit, so each program's limits are scanned
# for a run that says so, and the words must be the same.  GNU loads its
# catalogue only then, and just above the lowest limits it has no memory for
# it and says "memory exhausted" in English: its line is taken from the
# highest limit at which it still runs out.  Ours looks the words up at start.
@test "memory exhausted, in the user's language" {
    [ -z "${EXEC_WRAPPER:-}" ] || skip "under ${EXEC_WRAPPER%% *} the limit would be the wrapper's"
    [ -z "${MD5SUM_SANITIZED:-}" ] || skip "sanitizers reserve far more address space"
    require_gnu
    { printf '%s  ' "$("$GNU_MD5SUM" < /dev/null | cut -c1-32)"; head -c 3000000 /dev/zero | tr '\0' a
      echo; } > big.md5
    local l who lim rc
    for l in $NLS_LOCALES; do
        export LC_ALL=$l
        for who in gnu ours; do
            : > "$who.oom"
            for lim in $(seq 6000 1000 64000); do
                rc=0
                "$who" "ulimit -v $lim; md5sum -c big.md5" > out 2> err || rc=$?
                # Memory exhausted: exit 1, one line, and no name or list in it.
                if [ "$rc" = 1 ] && [ ! -s out ] && [ "$(wc -l < err)" = 1 ] &&
                   ! grep -q 'big\.md5\|aaaa' err; then
                    cp err "$who.oom"
                    [ "$who" = gnu ] || break
                elif [ -s "$who.oom" ]; then
                    break
                fi
            done
        done
        [ -s gnu.oom ] || skip "GNU md5sum did not run out of memory between 6 and 64 MB in $l"
        echo "$l: GNU: $(cat gnu.oom) ours: $(cat ours.oom)"
        cmp gnu.oom ours.oom
    done
}

@test "LANGUAGE and LC_MESSAGES choose the language, LC_CTYPE the charset" {
    files
    export LC_ALL=fr_FR.UTF-8
    same 'LANGUAGE=pl:de md5sum -c -w l; LANGUAGE=xx md5sum -c -w l; md5sum --bogus'
    export LC_ALL=C.UTF-8
    same 'md5sum -c -w l; LANGUAGE=de md5sum -c -w l'
    export LC_ALL=C
    same 'md5sum -c -w l; LANGUAGE=de md5sum -c -w l'
    unset LC_ALL
    same 'LANG=C LC_MESSAGES=de_DE.UTF-8 md5sum -c -w l; LANG=ja_JP.UTF-8 LC_MESSAGES=C md5sum -c l'
    same 'LC_CTYPE=C LANG=pl_PL.UTF-8 md5sum -c -w l'
}

# Ours loads only the categories it uses when the others would make no
# difference (src/i18n.c); what setlocale(LC_ALL, "") does must not change:
# one category's locale missing leaves every category "C".
@test "a locale for each category: all or nothing, as setlocale(LC_ALL, \"\") does" {
    files
    local name
    name=$(printf 'nosuch\303\251')   # e-acute: quoted unless LC_CTYPE is UTF-8
    unset LC_ALL LC_CTYPE LC_NUMERIC LC_TIME LC_COLLATE LC_MONETARY LC_MESSAGES LC_PAPER \
          LC_NAME LC_ADDRESS LC_TELEPHONE LC_MEASUREMENT LC_IDENTIFICATION
    same "LANG=de_DE.UTF-8 md5sum -c -w l $name"
    same "LANG=de_DE.UTF-8 LC_TIME=xx_XX.UTF-8 md5sum -c -w l $name"
    same "LANG=de_DE.UTF-8 LC_PAPER=fr_FR.UTF-8 md5sum -c -w l $name"
    same "LANG=de_DE.UTF-8 LC_TIME=POSIX LC_COLLATE=C md5sum -c -w l $name"
    same "LC_CTYPE=de_DE.UTF-8 LC_MESSAGES=xx_XX.UTF-8 md5sum -c -w l $name"
    same "LC_CTYPE=xx_XX.UTF-8 LC_MESSAGES=de_DE.UTF-8 md5sum -c -w l $name"
    same "LC_NUMERIC=xx_XX.UTF-8 LANG=de_DE.UTF-8 md5sum -c -w l $name"
    same "LANG=fr_FR.UTF-8 LC_MESSAGES=de_DE.UTF-8 LC_TIME=pl_PL.UTF-8 md5sum -c -w l $name"
    same "LC_MESSAGES=pl_PL.UTF-8 md5sum -c -w l $name"
    same "LANGUAGE=fr LANG=de_DE.UTF-8 LC_MONETARY=xx_XX.UTF-8 md5sum -c -w l $name"
    same "LANGUAGE=fr LANG=de_DE.UTF-8 LC_MONETARY= md5sum -c -w l $name"
}

@test "de_DE.ISO-8859-1: the catalogues' UTF-8 comes out in ISO-8859-1" {
    case ${EXEC_WRAPPER:-} in *qemu*) skip "$NO_GCONV" ;; esac
    files
    export LC_ALL=de_DE.ISO-8859-1
    same 'md5sum -c -w l'
    # "Prüfsummenzeile" with ü as the single byte 0xfc.
    grep -q "Pr$(printf '\374')fsummenzeile" "$BATS_TEST_TMPDIR/ours.err"
    unset LC_ALL
    same 'LANG=de_DE.ISO-8859-1 LC_MESSAGES=ja_JP.UTF-8 md5sum -c -w l'
}

# The locales above have their own tests; this one goes through every
# catalogue Debian's coreutils ships (LANGUAGE chooses it, the messages come
# out in UTF-8): the status words, the warnings' plural forms (1, 2 and 5:
# Russian, Czech, Slovenian... have their own), a hashing error and getopt's.
@test "every language coreutils has a catalogue for, by LANGUAGE" {
    files
    local n i lang mo translated=0 langs=0
    for n in 1 2 5; do
        { echo "$H_F  f"
          for i in $(seq "$n"); do echo "bad $i"; echo "$H_F  nosuch$i"; echo "$BAD  f"; done
        } > "l$n"
    done
    export LC_ALL=de_DE.UTF-8
    LANGUAGE='' LC_ALL=C gnu 'md5sum -c -w l1' > english 2>&1 || true
    for mo in /usr/share/locale/*/LC_MESSAGES/coreutils.mo; do
        lang=${mo#/usr/share/locale/} lang=${lang%%/*}
        export LANGUAGE=$lang
        same 'md5sum -c -w l1; md5sum -c l2; md5sum -c --quiet l5; md5sum f nosuch d; md5sum --bogus' ||
            { echo "(in LANGUAGE=$lang)"; return 1; }
        gnu 'md5sum -c -w l1' > translated 2>&1 || true
        cmp -s english translated || translated=$((translated + 1))
        langs=$((langs + 1))
    done
    # Most catalogues translate these messages (af, kk, ms and ro did not,
    # in coreutils 9.1): if they all came out in English, none was in use.
    echo "$translated of $langs languages translated"
    [ "$langs" -ge 40 ] && [ "$translated" -ge 30 ]
}
