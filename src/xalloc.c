#include "xalloc.h"

#include <stdlib.h>

#include "diag.h"
#include "lowmem.h"

void xalloc_die(void)
{
    diag_out_of_memory();
}

void *xmalloc(size_t n)
{
    void *p = malloc_or_less(n);

    if (!p)
        diag_out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc_or_less(p, n);

    if (!q)
        diag_out_of_memory();
    return q;
}
