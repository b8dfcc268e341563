/* madvise and MADV_HUGEPAGE are not POSIX (posix_madvise has no such
 * advice); the feature-test macro is the documented way to ask for them. */
#define _DEFAULT_SOURCE /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#include "bigbuf.h"

#include <stdlib.h>
#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

void *bigbuf_alloc(size_t *size, size_t min)
{
    for (; *size >= min; *size /= 8) {
        size_t align = 64, len = *size;
        void *p;

#ifdef MADV_HUGEPAGE
        if (len >= HUGE_PAGE) {
            align = HUGE_PAGE;
            len = (len + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
        }
#endif
        if (posix_memalign(&p, align, len) != 0)
            continue;
#ifdef MADV_HUGEPAGE
        /* Advice: if it is not taken, the pages are small ones. */
        if (align == HUGE_PAGE)
            (void)madvise(p, len, MADV_HUGEPAGE);
#endif
        return p;
    }
    *size = 0;
    return NULL;
}
