/* MAP_POPULATE is Linux's (the feature-test macro asks for it); elsewhere
 * each page faults in as it is hashed. */
#define _GNU_SOURCE /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#include "mapped.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "threads.h"

#ifndef MAP_POPULATE
#define MAP_POPULATE 0
#endif

/* Each thread that goes through a window catches its own SIGBUS: the
 * window it is in is its own.  Where the compiler has no thread-local
 * storage, no thread maps ahead. */
#if defined(__GNUC__) || defined(__clang__)
#define THREAD_LOCAL __thread
#define CAN_AHEAD 1
#else
#define THREAD_LOCAL
#define CAN_AHEAD 0
#endif

/* 4 MiB: mapped and unmapped 256 times a GiB, little under ulimit -v. */
#define WINDOW ((off_t)4 << 20)
#define LINE 64   /* bytes of a cache line, or fewer */

static THREAD_LOCAL sigjmp_buf shrunk;
static THREAD_LOCAL const unsigned char *volatile window;   /* being gone through */
static THREAD_LOCAL volatile size_t window_len;

/* The windows after the first, mapped and read through (a byte of each
 * line) by a thread of its own while the caller hashes the one before.
 * The core then finds them in cache: a cached 1 GiB file on a Zen 5 VM
 * whose memory was slow, 1.02 of the core hashing from L2 against 1.12
 * (docs/PERFORMANCE.md). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn = PTHREAD_COND_INITIALIZER;   /* a window put or taken */
static struct {
    struct thread t;
    int fd, stop, over;   /* over: it maps no more */
    off_t next, size;     /* the window it maps next; the end */
    void *p;              /* the one mapped before next, untaken, or NULL */
    size_t len;
    off_t bytes;          /* stats */
} ahead;

/* A page of a window past the end of a file that shrank: back to the
 * thread's window loop.  Any other SIGBUS (elsewhere, or sent by kill) is
 * not ours: the default action, as without this handler. */
static void on_sigbus(int sig, siginfo_t *info, void *context)
{
    const unsigned char *at = info->si_addr, *w = window;

    (void)context;
    if (w && info->si_code > 0 && at >= w && at < w + window_len) {
        window = NULL;
        siglongjmp(shrunk, 1);
    }
    signal(sig, SIG_DFL);
    raise(sig);   /* delivered once this handler returns */
}

static int catch_sigbus(void)
{
    static int caught;
    struct sigaction sa;

    if (!caught) {
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_sigbus;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        caught = sigaction(SIGBUS, &sa, NULL) == 0;
    }
    return caught;
}

/* Absorb the LEN bytes mapped at P into CTX, or (CTX NULL) read a byte of
 * each line of them.  -1 (CTX part way) if the file shrank into them. */
static int through_window(struct md5_ctx *ctx, const unsigned char *p, size_t len)
{
    volatile unsigned char sink;
    size_t i;

    if (sigsetjmp(shrunk, 1) != 0)
        return -1;
    window_len = len;
    window = p;
    if (ctx)
        md5_update(ctx, p, len);
    else
        for (i = 0; i < len; i += LINE)
            sink = p[i];
    window = NULL;
    (void)sink;
    return 0;
}

static size_t window_at(off_t off, off_t size)
{
    return (size_t)(size - off < WINDOW ? size - off : WINDOW);
}

/* The window, or MAP_FAILED. */
static void *map_window(int fd, off_t off, size_t len)
{
    return mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, off);
}

/* The thread ahead: one window mapped and gone through, waiting to be
 * taken, while it maps the next.  It stops at a window that cannot be
 * mapped or that the file shrank into: the caller's own loop goes on. */
static void *ahead_main(void *arg)
{
    off_t off;
    size_t len;
    void *p;

    (void)arg;
    pthread_mutex_lock(&lock);
    while (!ahead.stop && ahead.next < ahead.size) {
        off = ahead.next;
        len = window_at(off, ahead.size);
        pthread_mutex_unlock(&lock);
        p = map_window(ahead.fd, off, len);
        if (p == MAP_FAILED) {
            p = NULL;
        } else if (through_window(NULL, p, len) != 0) {
            munmap(p, len);
            p = NULL;
        }
        pthread_mutex_lock(&lock);
        while (p && ahead.p && !ahead.stop)
            pthread_cond_wait(&turn, &lock);
        if (!p || ahead.stop) {
            if (p)
                munmap(p, len);
            break;
        }
        ahead.p = p;
        ahead.len = len;
        ahead.next = off + (off_t)len;
        ahead.bytes += (off_t)len;
        pthread_cond_signal(&turn);
    }
    ahead.over = 1;
    pthread_cond_signal(&turn);
    pthread_mutex_unlock(&lock);
    return NULL;
}

/* Map FD's windows from OFF to SIZE ahead, if it is worth a thread. */
static int ahead_start(int fd, off_t off, off_t size)
{
    if (!CAN_AHEAD || size - off <= WINDOW)
        return 0;
    ahead.fd = fd;
    ahead.next = off;
    ahead.size = size;
    ahead.stop = ahead.over = 0;
    ahead.p = NULL;
    return thread_start(&ahead.t, ahead_main, NULL) == 0;
}

/* The window at OFF, from the thread ahead if it has it; or MAP_FAILED. */
static void *ahead_take(int fd, off_t off, size_t len)
{
    void *p;

    pthread_mutex_lock(&lock);
    while (!ahead.p && !ahead.over)
        pthread_cond_wait(&turn, &lock);
    p = ahead.p;
    ahead.p = NULL;
    pthread_cond_signal(&turn);
    pthread_mutex_unlock(&lock);
    return p ? p : map_window(fd, off, len);
}

static void ahead_stop(void)
{
    pthread_mutex_lock(&lock);
    ahead.stop = 1;
    pthread_cond_signal(&turn);
    pthread_mutex_unlock(&lock);
    thread_join(&ahead.t);
    if (ahead.p)
        munmap(ahead.p, ahead.len);
}

off_t mapped_hash(int fd, off_t off, off_t size, struct md5_ctx *ctx, hash_rest_each *each,
                  void *arg, int want_ahead)
{
    int helped = 0;

    if (!catch_sigbus())
        return off;
    while (off < size) {
        size_t len = window_at(off, size);
        struct md5_ctx before = *ctx;
        struct stat st;
        void *p = helped ? ahead_take(fd, off, len) : map_window(fd, off, len);
        int cut;

        if (p == MAP_FAILED)
            break;
        /* The first window is mapped here: the thread ahead starts on the
         * second meanwhile. */
        if (want_ahead && !helped)
            helped = ahead_start(fd, off + (off_t)len, size);
        want_ahead = 0;
        cut = through_window(ctx, p, len);
        munmap(p, len);
        /* Shrunk into the window, even within its last page (read as
         * zeros past the end, no SIGBUS): reads take the window over. */
        if (cut || fstat(fd, &st) != 0 || st.st_size < off + (off_t)len) {
            *ctx = before;
            break;
        }
        off += (off_t)len;
        if (each)
            each(ctx->length, arg);
    }
    if (helped)
        ahead_stop();
    return off;
}

off_t mapped_ahead(void)
{
    return ahead.bytes;
}
