/* madvise and MADV_HUGEPAGE are not POSIX (posix_madvise has no such
 * advice); the feature-test macro is the documented way to ask for them. */
#define _DEFAULT_SOURCE /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#include "bigbuf.h"

#include <sys/mman.h>
#ifdef __linux__
#include <linux/mman.h>   /* MADV_COLLAPSE, which glibc 2.36 lacks */
#endif

/* N rounded down, or up, to a whole huge page. */
static size_t huge_down(size_t n)
{
    return n & ~(BIGBUF_HUGE_PAGE - 1);
}

static size_t huge_up(size_t n)
{
    return huge_down(n + BIGBUF_HUGE_PAGE - 1);
}

void bigbuf_huge(unsigned char *p, size_t from, size_t to, size_t touched)
{
#ifdef MADV_HUGEPAGE
    from = huge_up(from);
    to = huge_down(to);
    /* Advice: if it is not taken, the pages are small ones. */
    if (from >= to || madvise(p + from, to - from, MADV_HUGEPAGE) != 0)
        return;
#ifdef MADV_COLLAPSE
    touched = huge_up(touched) < to ? huge_up(touched) : to;
    if (from < touched)
        (void)madvise(p + from, touched - from, MADV_COLLAPSE);
#else
    (void)touched;
#endif
#else
    (void)p;
    (void)from;
    (void)to;
    (void)touched;
#endif
}
