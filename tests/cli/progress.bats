#!/usr/bin/env bats
# --progress: a line on standard error when it is a terminal, erased before
# anything else reaches that terminal and at exit; nothing at all otherwise.
# Runs under a pseudo-terminal use script(1) from util-linux; the bytes the
# terminal got are parsed by `render` below.
load '../helpers'

setup_file() {
    command -v script >/dev/null || skip "script (util-linux) is not installed"
    command -v perl >/dev/null || skip "perl is not installed"
    # The scripts below wait for what happened, never for a fixed time:
    #
    # $FEED FIFO [--until-file FILE | --for SECONDS]: write 1,000,000 zero
    # bytes to FIFO: 100,000 at once, then a byte at a time (each read that
    # returns lets md5sum draw, from 0.5 s on) until ours has drawn a line
    # on the terminal ($TTY_RAW; at once where none can be: GNU's run, no
    # $P), until FILE exists, or for SECONDS (where nothing may be drawn:
    # a run that long would be), then the rest.  A FIFO never opened (a
    # failing test) is given up after 30 s.
    #
    # $AWAIT CONDITION...: wait until each holds in turn (30 s at most, then
    # a message on stderr and status 1):
    #   drawn[=REGEX]   ours drew a line (matching REGEX, perl) on the
    #                   terminal; at once where none can be (no $P)
    #   open=PIDFILE,FILE   the process whose pid PIDFILE holds has FILE open
    cat > "$BATS_FILE_TMPDIR/feed" <<'EOF'
#!/usr/bin/perl
use strict;
use warnings;
use File::Basename;
use Time::HiRes qw(time sleep);

my $DEADLINE = time + 30;

# A line ours drew on the terminal (as render parses it), matching RE.
sub drawn {
    my ($re) = @_;
    return 1 unless $ENV{P} && $ENV{TTY_RAW};
    open my $t, '<', $ENV{TTY_RAW} or return 0;
    local $/;
    my $s = <$t> // '';
    while ($s =~ /\r([^\r\n\e]+)\e\[K/g) {
        return 1 if !defined $re || $1 =~ /$re/;
    }
    return 0;
}

sub has_open {
    my ($pidfile, $file) = @_;
    open my $p, '<', $pidfile or return 0;
    my $pid = <$p> // '';
    chomp $pid;
    my @want = stat $file or return 0;
    for my $fd (glob "/proc/$pid/fd/*") {
        my @st = stat $fd or next;
        return 1 if $st[0] == $want[0] && $st[1] == $want[1];
    }
    return 0;
}

if (basename($0) eq 'await') {
    for my $c (@ARGV) {
        my $ok = $c =~ /^drawn(?:=(.*))?$/s ? do { my $re = $1; sub { drawn($re) } }
               : $c =~ /^open=([^,]+),(.+)$/s ? do { my ($p, $f) = ($1, $2); sub { has_open($p, $f) } }
               : die "await: unknown condition $c\n";
        until ($ok->()) {
            if (time > $DEADLINE) { print STDERR "await: $c not seen in 30 s\n"; exit 1 }
            sleep 0.01;
        }
    }
    exit 0;
}

my ($fifo, $mode, $arg) = @ARGV;
$mode //= '';
$SIG{PIPE} = 'IGNORE';          # md5sum gone: the writes fail, and we end
$SIG{ALRM} = sub { exit 1 };
alarm 30;                       # a FIFO never opened: given up
open my $f, '>', $fifo or exit 1;
alarm 0;
my ($total, $sent) = (1000000, 0);
sub put {
    my $buf = "\0" x shift;
    while (length $buf) {
        my $n = syswrite $f, $buf;
        exit 0 unless defined $n;
        substr($buf, 0, $n) = '';
        $sent += $n;
    }
}
put(100000);
my $start = time;
my $held = $mode eq '--until-file' ? sub { !-e $arg }
         : $mode eq '--for' ? sub { time - $start < $arg }
         : sub { !drawn() };
while ($sent < $total - 1000 && time < $DEADLINE && $held->()) {
    put(1);
    sleep 0.01;
}
put($total - $sent);
EOF
    chmod 755 "$BATS_FILE_TMPDIR/feed"
    ln -s feed "$BATS_FILE_TMPDIR/await"
}

T=$BATS_TEST_TMPDIR
export FEED=$BATS_FILE_TMPDIR/feed AWAIT=$BATS_FILE_TMPDIR/await

# on_tty WHO SCRIPT: run SCRIPT with bash under a pseudo-terminal of $COLS
# columns (80 by default), "md5sum" being WHO's (ours or gnu) and $P
# --progress for ours, empty for GNU's.  What the terminal got goes to
# $T/WHO.raw (also $TTY_RAW, as it comes), the status to $T/WHO.rc.
on_tty() {
    local dir=$GNU p='' rc=0
    if [ "$1" = ours ]; then dir=$OURS p=--progress; fi
    P=$p PATH=$dir:$PATH SHELL=/bin/bash TERM=xterm TTY_RAW=$T/$1.raw \
        script -qefc "stty cols ${COLS:-80}; $2" /dev/null < /dev/null > "$T/$1.raw" 2>&1 || rc=$?
    echo "$rc" > "$T/$1.rc"
}

# render WHO: parse $T/WHO.raw as a terminal of $COLS columns shows it
# (UTF-8, wide characters taking two columns),
# and fail unless the progress line keeps its rules: drawn as "\r", the line
# and "\033[K", at the start of a line, no wider than the terminal (less one
# column); erased by "\r\033[K" before any other byte; erased at the end.
# Prints the text that remains (CRLF as LF); the lines drawn go to
# $T/WHO.draws, one a line.
render() {
    COLS=${COLS:-80} DRAWS=$T/$1.draws perl -MEncode -e '
        # The columns of a line in UTF-8: two for a wide character.
        sub width { my $u = decode("UTF-8", shift); length($u) + (() = $u =~ /[\p{EA=W}\p{EA=F}]/g) }
        local $/; my $s = <STDIN>; $s =~ s/\r\n/\n/g;
        my ($text, $shown, @draws) = ("", 0);
        while (length $s) {
            if ($s =~ s/^\r\e\[K//) {
                $shown or die "erased with no line drawn\n";
                $shown = 0;
            } elsif ($s =~ s/^\r([^\r\n\e]+)\e\[K//) {
                my $line = $1;
                $text eq "" || $text =~ /\n\z/ or die "drawn after a partial line: $line\n";
                width($line) < $ENV{COLS} or die "wider than the terminal: $line\n";
                push @draws, $line;
                $shown = 1;
            } elsif ($s =~ s/^([^\r\e]+)//) {
                !$shown or die "written over the line: $1\n";
                $text .= $1;
            } else {
                die "stray control bytes: " . substr($s, 0, 20) . "\n";
            }
        }
        !$shown or die "left drawn at the end\n";
        open my $d, ">", $ENV{DRAWS} or die; print $d "$_\n" for @draws;
        print $text;' < "$T/$1.raw"
}

# tty_same SCRIPT: SCRIPT under a terminal with our md5sum ($P --progress)
# and GNU's: the terminal shows the same text (ours with lines drawn and
# erased by the rules of render, GNU's with none), and the status is the
# same.  The lines ours drew are in $T/ours.draws.
tty_same() {
    require_gnu
    on_tty ours "$1"
    on_tty gnu "$1"
    render ours > "$T/ours.txt" || { echo "ours, progress line: $(render ours 2>&1 >/dev/null)"; return 1; }
    render gnu > "$T/gnu.txt"
    [ ! -s "$T/gnu.draws" ]
    if ! cmp -s "$T/ours.txt" "$T/gnu.txt" || ! cmp -s "$T/ours.rc" "$T/gnu.rc"; then
        echo "the terminal shows something else than GNU's for: $1"
        diff "$T/gnu.txt" "$T/ours.txt" | head -n 40
        echo "status: GNU $(cat "$T/gnu.rc"), ours $(cat "$T/ours.rc")"
        return 1
    fi
}

# tty_again SCRIPT: SCRIPT under a terminal with our md5sum alone: the
# terminal must show what GNU's showed in the last tty_same.
tty_again() {
    on_tty ours "$1"
    render ours > "$T/ours.txt" || { echo "ours, progress line: $(render ours 2>&1 >/dev/null)"; return 1; }
    cmp "$T/ours.txt" "$T/gnu.txt" && cmp "$T/ours.rc" "$T/gnu.rc"
}

# drawn REGEX: some line drawn matches REGEX (perl).
drawn() {
    perl -ne "\$n++ if /$1/; END { exit !\$n }" "$T/ours.draws" || {
        echo "no line drawn matches /$1/; drawn:"
        cat "$T/ours.draws"
        return 1
    }
}

# same_p SCRIPT: like `same` (stdout, stderr and status byte for byte), with
# $P --progress for ours, empty for GNU's; and no \r or ESC from ours.
same_p() {
    same_with "P=--progress; $1" "P=; $1" || return 1
    ! grep -q $'[\r\033]' "$BATS_TEST_TMPDIR/ours.out" "$BATS_TEST_TMPDIR/ours.err"
}

@test "on a terminal, -j1 and -j2: the line is drawn, erased before each result and diagnostic and at exit" {
    local j
    printf abc > a
    printf xyz > b
    mkfifo fifo
    for j in $(job_counts 1 2); do
        ours_jobs "$j"
        tty_same '$FEED fifo & md5sum $P a fifo nosuch b; wait'
        # The FIFO is the input being hashed: its bytes so far, 1 of 4 done.
        drawn '^fifo  [0-9.]+ [KM]iB  \(1\/4 files, '
    done
}

@test "stdout to a file: GNU's bytes there, and the terminal shows only the line and diagnostics" {
    printf abc > a
    printf xyz > b
    mkfifo fifo
    # Nothing written to the terminal after the line: erased at exit.
    tty_same '$FEED fifo & md5sum $P a fifo b > out; s=$?; wait; cat out; exit $s'
    drawn '^fifo  '
    tty_same '$FEED fifo & md5sum $P a fifo nosuch b > out; s=$?; wait; cat out; exit $s'
    drawn '^fifo  '
    # The diagnostic came while the line was drawn: erased just before it.
    grep -q $'\r\033\\[Kmd5sum: nosuch: No such file or directory\r$' "$T/ours.raw"
}

@test "stderr not a terminal: nothing but GNU's bytes, whether stdout is a terminal or not" {
    printf abc > a
    mkfifo fifo
    # Runs of a second, while the FIFO is fed: on a terminal, lines would
    # be drawn.
    same_p '$FEED fifo --for 1 & md5sum $P a fifo nosuch a; s=$?; wait; exit $s'
    same_p '$FEED fifo --for 1 & md5sum $P -c <(printf "%032d  a\n%032d  fifo\n" 0 0); s=$?; wait; exit $s'
    tty_same '$FEED fifo --for 1 & md5sum $P a fifo nosuch 2> err; s=$?; wait; cat err; exit $s'
    [ ! -s "$T/ours.draws" ]
}

@test "a run shorter than half a second draws nothing" {
    printf abc > a
    printf xyz > b
    mkfifo fifo
    # A FIFO written for 0.25 s: the engine ticks every 0.1 s meanwhile, and
    # no line may be drawn.  Timed by the script itself: a run that took
    # half a second (a slow build on a busy machine) may draw, and only then.
    tty_same 'n=$(date +%s%N); $FEED fifo --for 0.25 & md5sum $P a fifo nosuch b; s=$?; wait
        echo $((($(date +%s%N) - n) / 1000000)) > ms${P:+.ours}; exit $s'
    echo "ours took $(cat ms.ours) ms"
    if [ "$(cat ms.ours)" -lt 500 ]; then
        [ ! -s "$T/ours.draws" ]
        ! grep -q $'\033' "$T/ours.raw"
    fi
}

@test "-c, -j1 and -j2: the list's entries, done over those read so far" {
    local j
    printf abc > a
    printf xyz > b
    mkfifo fifo
    {
        "$GNU_MD5SUM" a
        printf '%s  fifo\n' "$(head -c 1000000 /dev/zero | "$GNU_MD5SUM" | cut -c1-32)"
        "$GNU_MD5SUM" b
        echo "00000000000000000000000000000000  nosuch"
    } > list
    for j in $(job_counts 1 2); do
        ours_jobs "$j"
        tty_same '$FEED fifo & md5sum $P -c list; s=$?; wait; exit $s'
        drawn '^fifo  [0-9.]+ [KM]iB  \(1\/4 files, '
    done
}

@test "sizes with the locale's decimal separator (de_DE: a comma)" {
    local mk=$BATS_TEST_DIRNAME/../run/mklocales.sh bin=${MD5SUM:?} sep
    case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
    LOCPATH=${bin%/*}/locale-host
    mkdir -p "$LOCPATH" 2>/dev/null && [ -w "$LOCPATH" ] || LOCPATH=$BATS_TEST_TMPDIR/locale
    export LOCPATH
    "$mk" "$LOCPATH" de_DE.UTF-8 || return 1
    if [ -n "${OURS_LOCPATH:-}" ]; then
        "$mk" "$OURS_LOCPATH" ${OURS_LOCALEDEF:-} de_DE.UTF-8 || return 1
    fi
    # The separator from GNU's printf, not from us.
    sep=$(LC_ALL=de_DE.UTF-8 /usr/bin/printf '%.1f' 0.5)
    sep=${sep:1:1}
    [ "$sep" = , ]
    mkfifo fifo
    LC_ALL=de_DE.UTF-8 tty_same '$FEED fifo & md5sum $P fifo; wait'
    drawn "^fifo  [0-9]+${sep}[0-9] [KM]iB"
}

@test "-j1 and -j2: a large file's bytes as they are hashed, with its size and percent" {
    # Long enough to be drawn a few times: 1 to 3 s natively, under qemu
    # (aarch64, i686; s390x 5 s) and under sanitizers.
    local size=1073741824
    [ -z "${EXEC_WRAPPER:-}" ] || size=536870912
    [ -z "${MD5SUM_SANITIZED:-}" ] || size=268435456
    truncate -s "$size" big
    ours_jobs 1
    tty_same 'md5sum $P big'
    # Some draw in the middle: bytes come from the worker between chunks.
    drawn '^big  [0-9.]+ [KMG]iB \/ [0-9.]+ [MG]iB  [1-9][0-9]?%'
    [ "$(job_counts 2)" = 2 ] || return 0
    ours_jobs 2
    tty_again 'md5sum $P big'
    drawn '^big  [0-9.]+ [KMG]iB \/ [0-9.]+ [MG]iB  [1-9][0-9]?%'
}

@test "standard input redirected from a file: its size too, so a percent" {
    local size=1073741824
    [ -z "${EXEC_WRAPPER:-}" ] || size=536870912
    [ -z "${MD5SUM_SANITIZED:-}" ] || size=268435456
    truncate -s "$size" big
    tty_same 'md5sum $P - < big'
    drawn '^-  [0-9.]+ [KMG]iB \/ [0-9.]+ [MG]iB  [1-9][0-9]?%'
}

@test "the name is quoted as in diagnostics and cut to the terminal's width, which it follows" {
    local long
    long=$(printf 'n%.0s' $(seq 100))
    mkfifo "$long" $'f\nifo'
    COLS=40 tty_same '$FEED "'"$long"'" & md5sum $P "'"$long"'"; wait'
    drawn '^n{16,}  '
    if drawn "^n{40}" > /dev/null; then
        fail "a name 40 columns wide was drawn on a terminal 40 columns wide"
    fi
    tty_same '$FEED "f
ifo" & md5sum $P "f
ifo"; wait'
    drawn "^'f'\\$'\\\\n''ifo'  [0-9.]+ [KM]iB"
    # Narrowed from 80 to 30 columns once a line is drawn, while the FIFO
    # is read: it is fed until a line that fits is drawn.
    tty_same 'rm -f narrow; $FEED "'"$long"'" --until-file narrow &
        { $AWAIT drawn; stty cols 30 < /dev/tty; $AWAIT "drawn=^.{1,29}\$"; : > narrow; } &
        md5sum $P "'"$long"'"; wait'
    drawn '^.{40,}$'
    tail -n 1 "$T/ours.draws" | grep -qE '^.{1,29}$'
}

@test "names in UTF-8 are cut by the columns their characters take" {
    local accented wide
    accented=$(printf '\303\251%.0s' $(seq 60))   # e-acute: one column
    wide=$(printf '\346\227\245%.0s' $(seq 60))   # a CJK ideograph: two
    mkfifo "$accented" "$wide"
    LC_ALL=C.UTF-8 COLS=40 tty_same '$FEED "'"$accented"'" & md5sum $P "'"$accented"'"; wait'
    drawn '^(?:\xc3\xa9){16,}  '
    LC_ALL=C.UTF-8 COLS=40 tty_same '$FEED "'"$wide"'" & md5sum $P "'"$wide"'"; wait'
    drawn '^(?:\xe6\x97\xa5){8,}  '
}

@test "-z records on the terminal: nothing is drawn over a line not ended" {
    local i
    # Enough records for output.c to write some before the FIFO is read.
    for i in $(seq 300); do echo "$i" > "file-with-a-longer-name-$i"; done
    mkfifo fifo
    # A run of a second, while the FIFO is fed: long enough to draw.  render
    # fails a line drawn after a record, which ends in no newline.  A line
    # drawn before the first record is out is within the rules (a slow
    # build, ThreadSanitizer's, may take the half second to get there).
    tty_same '$FEED fifo --for 1 & md5sum -z $P file-* fifo; s=$?; wait; exit $s'
}

@test "exit through SIGPIPE or a write error: the line is erased first" {
    printf abc > a
    mkfifo fifo
    # The reader leaves once the line is drawn (GNU's, which writes to a
    # pipe only at exit, at once), and only then is the FIFO fed to its end.
    tty_same 'rm -f gone; $FEED fifo --until-file gone &
        md5sum $P a fifo a | { $AWAIT drawn; exec <&-; : > gone; }; echo "status ${PIPESTATUS[0]}"; wait'
    drawn '^fifo  '
    tty_same 'trap "" PIPE; rm -f gone; $FEED fifo --until-file gone &
        md5sum $P a fifo a | { $AWAIT drawn; exec <&-; : > gone; }; echo "status ${PIPESTATUS[0]}"; wait'
    drawn '^fifo  '
    tty_same '$FEED fifo & md5sum $P a fifo > /dev/full; s=$?; wait; exit $s'
    drawn '^fifo  '
}

@test "ended by Ctrl-C or kill (SIGINT, SIGTERM): the line is erased first" {
    printf abc > a
    mkfifo fifo
    # The signal comes while the FIFO is read (GNU's run) and the line is
    # drawn (ours), and only then is the FIFO fed to its end.  md5sum runs
    # in the foreground (in the terminal's foreground group, where it
    # draws; SIGINT not ignored as in a background job), its pid in a file.
    for sig in INT TERM; do
        tty_same "rm -f pid gone; \$FEED fifo --until-file gone &
            { \$AWAIT open=pid,fifo drawn; kill -s $sig \$(cat pid); : > gone; } &
            sh -c 'echo \$\$ > pid; exec md5sum \"\$@\"' md5sum \$P a fifo; echo \"status \$?\"; wait"
        drawn '^fifo  '
    done
}

@test "--help shows --progress" {
    run ours 'md5sum --help'
    assert_success
    assert_output --partial '      --progress        show progress on standard error when it is a terminal'
}
