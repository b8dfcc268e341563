/* MAP_POPULATE is Linux's (the feature-test macro asks for it); elsewhere
 * each page faults in as it is hashed. */
#define _GNU_SOURCE /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#include "mapped.h"

#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#ifndef MAP_POPULATE
#define MAP_POPULATE 0
#endif

/* 4 MiB: mapped and unmapped 256 times a GiB, little under ulimit -v. */
#define WINDOW ((off_t)4 << 20)

static sigjmp_buf shrunk;
static const char *volatile window;   /* being hashed, else NULL */
static volatile size_t window_len;

/* A page of the window past the end of a file that shrank: back to
 * mapped_hash.  Any other SIGBUS (elsewhere, or sent by kill) is not ours:
 * the default action, as without this handler. */
static void on_sigbus(int sig, siginfo_t *info, void *context)
{
    const char *at = info->si_addr, *w = window;

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

/* Absorb the LEN bytes mapped at P into CTX; -1 (CTX part way) if the
 * file shrank into them. */
static int hash_window(struct md5_ctx *ctx, const unsigned char *p, size_t len)
{
    if (sigsetjmp(shrunk, 1) != 0)
        return -1;
    window_len = len;
    window = (const char *)p;
    md5_update(ctx, p, len);
    window = NULL;
    return 0;
}

off_t mapped_hash(int fd, off_t off, off_t size, struct md5_ctx *ctx, hash_rest_each *each,
                  void *arg)
{
    if (!catch_sigbus())
        return off;
    while (off < size) {
        size_t len = (size_t)(size - off < WINDOW ? size - off : WINDOW);
        struct md5_ctx before = *ctx;
        struct stat st;
        void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, off);
        int cut;

        if (p == MAP_FAILED)
            break;
        cut = hash_window(ctx, p, len);
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
    return off;
}
