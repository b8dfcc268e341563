/* The progress line: see progress.h.
 *
 * It is drawn from the engine's ticks (engine.h) and erased from the hook
 * the writers call (before_write.h): both in the submitting thread, the
 * only one that writes to stdout or stderr.  Draws and erases are each one
 * write(2): "\r", the line, then erase to the end of it ("\033[K"); "\r\033[K"
 * alone erases. */
/* wcwidth is an XSI function. */
#define _XOPEN_SOURCE 700 /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#include "progress.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "before_write.h"
#include "engine.h"
#include "fdio.h"
#include "quote.h"

#define DELAY 0.5             /* seconds: nothing is drawn for shorter runs */
#define RATE_SAMPLES 30       /* the rate is over the last 30 draws: about 3 s */
#define MAX_COLUMNS 512       /* of a line, however wide the terminal */
#define ERASE "\r\033[K"

struct sample {
    double t;                 /* seconds since the start */
    uintmax_t bytes;          /* bytes done then */
};

static struct timespec start;
static int stdout_tty, stdin_tty;
static volatile sig_atomic_t shown;   /* a line is drawn: read by on_fatal_signal */
/* The cursor is at the start of a line as far as the writes we see tell:
 * after -z records on the terminal it is not, and nothing is drawn. */
static int line_start = 1;
static int broken;                    /* a draw failed: the terminal is gone */
static struct sample samples[RATE_SAMPLES];
static unsigned n_samples, oldest;

static void erase(void)
{
    if (shown) {
        shown = 0;
        if (write_all(STDERR_FILENO, ERASE, sizeof ERASE - 1) != 0)
            broken = 1;
    }
}

/* Something is about to be written: if to the terminal, erase the line
 * first, and note where the cursor will be. */
static void before_writing(int fd, const void *p, size_t n)
{
    if (fd != STDERR_FILENO && !(fd == STDOUT_FILENO && stdout_tty))
        return;
    erase();
    if (n > 0)
        line_start = ((const char *)p)[n - 1] == '\n';
}

/* Killed by a signal (stdout's reader gone, Ctrl-C, kill), the run would
 * leave its line behind: erase it, then die of the signal as before (the
 * handler was reset on entry; the signal raised again is delivered as the
 * handler returns). */
static void on_fatal_signal(int sig)
{
    if (shown) {
        ssize_t rc = write(STDERR_FILENO, ERASE, sizeof ERASE - 1);
        (void)rc;
    }
    raise(sig);
}

static double since_start(void)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start.tv_sec) + (double)(now.tv_nsec - start.tv_nsec) / 1e9;
}

/* Append to BUF (CAP bytes, AT used) as printf would; returns the bytes
 * used then, never more than fit. */
static size_t add(char *buf, size_t cap, size_t at, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (at + 1 >= cap)
        return at;
    va_start(ap, fmt);
    n = vsnprintf(buf + at, cap - at, fmt, ap);
    va_end(ap);
    if (n < 0)
        return at;
    return at + (size_t)n < cap ? at + (size_t)n : cap - 1;
}

/* N bytes as people read them: "512 B", "12.3 MiB". */
static const char *human(char buf[32], uintmax_t n)
{
    static const char units[] = "KMGTPE";
    double v = (double)n / 1024;
    int u = 0;

    if (n < 1024) {
        snprintf(buf, 32, "%ju B", n);
        return buf;
    }
    while (v >= 1023.95 && u < 5) {
        v /= 1024;
        u++;
    }
    snprintf(buf, 32, "%.1f %ciB", v, units[u]);
    return buf;
}

/* SECS as m:ss, or h:mm:ss from an hour on. */
static const char *duration(char buf[32], double secs)
{
    uintmax_t s = (uintmax_t)(secs + 0.5);

    if (s >= 3600)
        snprintf(buf, 32, "%ju:%02u:%02u", s / 3600, (unsigned)(s / 60 % 60), (unsigned)(s % 60));
    else
        snprintf(buf, 32, "%u:%02u", (unsigned)(s / 60), (unsigned)(s % 60));
    return buf;
}

/* Bytes a second over the last draws, now that T seconds in BYTES are done;
 * 0 until some time has passed. */
static double rate(double t, uintmax_t bytes)
{
    const struct sample *o = &samples[oldest];
    double r = t > o->t && bytes >= o->bytes ? (double)(bytes - o->bytes) / (t - o->t) : 0;
    struct sample *s = &samples[(oldest + n_samples) % RATE_SAMPLES];

    if (n_samples == RATE_SAMPLES)
        oldest = (oldest + 1) % RATE_SAMPLES;
    else
        n_samples++;
    s->t = t;
    s->bytes = bytes;
    return r;
}

/* The bytes of S, printable as quote_name makes it, that fit in COLS
 * columns and MAX bytes; *USED is set to their columns, as wcwidth gives
 * them (a character it does not know counts as two, the most a terminal
 * gives one: the line may come out a little short, never so long that it
 * wraps). */
static size_t fit(const char *s, size_t cols, size_t max, size_t *used_cols)
{
    size_t len = strlen(s), i = 0, used = 0;
    mbstate_t st;

    memset(&st, 0, sizeof st);
    while (i < len) {
        size_t n = 1, w = 1;

        if ((unsigned char)s[i] >= 0x80 && MB_CUR_MAX > 1) {
            wchar_t wc;
            int cw;

            n = mbrtowc(&wc, s + i, len - i, &st);
            if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
                n = 1;
                memset(&st, 0, sizeof st);
                cw = -1;
            } else {
                cw = wcwidth(wc);
            }
            w = cw < 0 ? 2 : (size_t)cw;
        }
        if (used + w > cols || i + n > max)
            break;
        used += w;
        i += n;
    }
    *used_cols = used;
    return i;
}

static size_t columns(void)
{
    struct winsize ws;

    if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        return ws.ws_col < MAX_COLUMNS ? ws.ws_col : MAX_COLUMNS;
    return 80;
}

/* The figures that follow the name, each a string ("" when unknown). */
struct figures {
    char cur[80];     /* the input's bytes done, of its size, percent */
    char files[48];   /* with several inputs: how many are done */
    char all[72];     /* and the bytes done over all those known */
    char rate[40];
    char left[40];    /* the time left for the bytes known */
};

/* Parts of the line a narrow terminal goes without, first to last. */
enum { PART_ALL = 1, PART_LEFT = 2, PART_RATE = 4, PART_FILES = 8, PARTS = 15 };

/* The name gets at least this many columns while parts can be dropped. */
#define NAME_MIN 16

static void figures(struct figures *f, const struct engine_progress *p, double t)
{
    char a[32], b[32];
    uintmax_t known = p->bytes_known > p->bytes_done ? p->bytes_known : p->bytes_done;
    uintmax_t size = (uintmax_t)p->size, left = 0;
    int several = p->inputs_known > 1;
    double bps = rate(t, p->bytes_done);

    memset(f, 0, sizeof *f);
    if (p->size >= 0) {
        if (size < p->done)
            size = p->done;
        snprintf(f->cur, sizeof f->cur, "%s / %s  %ju%%", human(a, p->done), human(b, size),
                 size ? p->done * 100 / size : (uintmax_t)100);
        left = size - p->done;
    } else {
        human(f->cur, p->done);
    }
    if (several) {
        snprintf(f->files, sizeof f->files, "%ju/%ju files", p->inputs_done, p->inputs_known);
        snprintf(f->all, sizeof f->all, "%s / %s", human(a, p->bytes_done), human(b, known));
        left = known - p->bytes_done;
    }
    if (bps > 0) {
        snprintf(f->rate, sizeof f->rate, "%s/s", human(a, (uintmax_t)bps));
        /* Not while the input's size is unknown (there is no telling
         * how much is left), nor for a guess of 100 days or more. */
        if (p->size >= 0 && (double)left / bps < 8640000)
            snprintf(f->left, sizeof f->left, "%s left", duration(a, (double)left / bps));
    }
}

/* The figures in BUF (CAP bytes), with the PARTS asked for; returns their
 * length. */
static size_t join(char *buf, size_t cap, const struct figures *f, unsigned parts)
{
    size_t at = add(buf, cap, 0, "%s", f->cur);

    if ((parts & PART_FILES) && f->files[0]) {
        at = add(buf, cap, at, "  (%s", f->files);
        if ((parts & PART_ALL) && f->all[0])
            at = add(buf, cap, at, ", %s", f->all);
        at = add(buf, cap, at, ")");
    }
    if ((parts & PART_RATE) && f->rate[0])
        at = add(buf, cap, at, "  %s", f->rate);
    if ((parts & PART_LEFT) && f->left[0])
        at = add(buf, cap, at, "  %s", f->left);
    return at;
}

static void draw(const struct engine_progress *p, double t)
{
    struct figures f;
    char st[256], line[4 * MAX_COLUMNS + 16];
    char *q = quote_name(p->name);
    size_t avail = columns() - 1, name_w, slen, at = 1;
    unsigned parts = PARTS, drop = 1;

    /* A short name is shown whole, a long one in NAME_MIN columns at least,
     * as long as there are parts to drop for it. */
    fit(q, NAME_MIN, 2 * MAX_COLUMNS, &name_w);
    figures(&f, p, t);
    while ((slen = join(st, sizeof st, &f, parts)) + 2 + name_w > avail && parts) {
        parts &= ~drop;
        drop <<= 1;
    }
    line[0] = '\r';
    if (slen + 3 <= avail) {
        size_t n = fit(q, avail - slen - 2, 2 * MAX_COLUMNS, &name_w);

        memcpy(line + at, q, n);
        at += n;
        memcpy(line + at, "  ", 2);
        at += 2;
    }
    free(q);
    if (slen > avail)
        slen = avail;
    memcpy(line + at, st, slen);
    at += slen;
    memcpy(line + at, "\033[K", 3);
    at += 3;
    shown = 1;
    if (write_all(STDERR_FILENO, line, at) != 0)
        broken = 1;
}

static void tick(void *arg)
{
    struct engine_progress p;
    double t = since_start();
    pid_t fg;

    (void)arg;
    if (broken || !line_start || t < DELAY)
        return;
    /* In the background the terminal is not ours (and, with stty tostop,
     * writing to it would stop us). */
    fg = tcgetpgrp(STDERR_FILENO);
    if (fg != -1 && fg != getpgrp())
        return;
    engine_get_progress(&p);
    if (!p.name)
        return;
    /* Reading the terminal itself: the user types there. */
    if (stdin_tty && strcmp(p.name, "-") == 0) {
        erase();
        return;
    }
    draw(&p, t);
}

void progress_start(void)
{
    static const int fatal[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    struct sigaction sa;
    size_t i;

    if (!isatty(STDERR_FILENO))
        return;
    stdout_tty = isatty(STDOUT_FILENO);
    stdin_tty = isatty(STDIN_FILENO);
    clock_gettime(CLOCK_MONOTONIC, &start);
    n_samples = 1;   /* nothing done at the start */
    engine_set_tick(tick, NULL);
    before_write_set(before_writing);
    atexit(erase);
    /* A signal that is ignored stays so: a SIGPIPE then ends the run
     * through a write error, and the line is erased before it is reported;
     * an ignored SIGINT (a background job's) does nothing. */
    for (i = 0; i < sizeof fatal / sizeof *fatal; i++) {
        if (sigaction(fatal[i], NULL, &sa) == 0 && sa.sa_handler == SIG_DFL) {
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = on_fatal_signal;
            sigemptyset(&sa.sa_mask);
            sa.sa_flags = SA_RESETHAND;
            sigaction(fatal[i], &sa, NULL);
        }
    }
}
