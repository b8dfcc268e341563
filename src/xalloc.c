#include "xalloc.h"

#include <stdlib.h>

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
