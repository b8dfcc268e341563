#include "window.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>

#include "threadlocal.h"

/* The armed guard of each thread; NULL when none is. */
static THREAD_LOCAL struct bus_guard *armed;

int window_map(struct window *w, int fd, off_t off, size_t len)
{
    void *p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, off);

    if (p == MAP_FAILED) {
        w->base = NULL;
        return -1;
    }
    w->base = p;
    w->len = len;
    w->off = off;
    posix_madvise(p, len, POSIX_MADV_SEQUENTIAL);
    /* Keep the disk busy: this window and the next are read ahead now, and
     * the next one is already on its way when it is mapped. */
    posix_fadvise(fd, off, (off_t)(2 * WINDOW_SIZE), POSIX_FADV_WILLNEED);
    return 0;
}

void window_unmap(struct window *w)
{
    if (w->base) {
        munmap((void *)w->base, w->len);
        w->base = NULL;
    }
}

void window_touch(const struct window *w)
{
    const volatile unsigned char *p = w->base;
    size_t i;

    for (i = 0; i < w->len; i += 4096)
        (void)p[i];
}

int window_holds(const struct window *w, const void *addr)
{
    const unsigned char *a = addr;

    return w->base && a >= w->base && a < w->base + w->len;
}

static void on_sigbus(int sig, siginfo_t *info, void *context)
{
    struct bus_guard *g = armed;

    (void)context;
    if (g) {
        armed = NULL;
        g->fault = info->si_addr;
        siglongjmp(g->env, 1);
    }
    /* A SIGBUS outside a guard is a real fault: die of it. */
    signal(sig, SIG_DFL);
    raise(sig);
}

void bus_guard_install(void)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
}

void bus_guard_arm(struct bus_guard *g)
{
    g->fault = NULL;
    armed = g;
}

void bus_guard_disarm(void)
{
    armed = NULL;
}
