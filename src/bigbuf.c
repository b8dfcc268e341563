/* madvise and MADV_HUGEPAGE are not POSIX (posix_madvise has no such
 * advice); the feature-test macro is the documented way to ask for them. */
#define _DEFAULT_SOURCE /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#include "bigbuf.h"

#include <sys/mman.h>

void bigbuf_huge(unsigned char *p, size_t from, size_t to)
{
#ifdef MADV_HUGEPAGE
    from = (from + BIGBUF_HUGE_PAGE - 1) & ~(BIGBUF_HUGE_PAGE - 1);
    to &= ~(BIGBUF_HUGE_PAGE - 1);
    /* Advice: if it is not taken, the pages are small ones. */
    if (from < to)
        (void)madvise(p + from, to - from, MADV_HUGEPAGE);
#else
    (void)p;
    (void)from;
    (void)to;
#endif
}
