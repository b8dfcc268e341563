#include "xalloc.h"

#include <stdlib.h>

#include "bigbuf.h"
#include "diag.h"

void xalloc_die(void)
{
    diag_out_of_memory();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        diag_out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        diag_out_of_memory();
    return p;
}

void *alloc_down(size_t *size, size_t min)
{
    for (; *size >= min; *size /= 8) {
        size_t align = *size >= BIGBUF_HUGE_PAGE ? BIGBUF_HUGE_PAGE : 64;
        void *p;

        if (posix_memalign(&p, align, *size) == 0)
            return p;
    }
    *size = 0;
    return NULL;
}
