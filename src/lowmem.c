#include "lowmem.h"

#include <stdlib.h>

static int (*hook)(void);

void lowmem_on_short(int (*give_back)(void))
{
    hook = give_back;
}

void *malloc_or_less(size_t n)
{
    void *p;

    while (!(p = malloc(n ? n : 1)) && hook && hook())
        continue;
    return p;
}

void *realloc_or_less(void *p, size_t n)
{
    void *q;

    while (!(q = realloc(p, n ? n : 1)) && hook && hook())
        continue;
    return q;
}
