#include "xalloc.h"

#include <stdlib.h>

#include "diag.h"

void xalloc_die(void)
{
    diag_out_of_memory();
}

static int (*short_hook)(void);

void xalloc_on_short(int (*give_back)(void))
{
    short_hook = give_back;
}

/* Memory is short: is there some to be had back? */
static void retry(void)
{
    if (!short_hook || !short_hook())
        diag_out_of_memory();
}

void *xmalloc(size_t n)
{
    void *p;

    while (!(p = malloc(n ? n : 1)))
        retry();
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q;

    while (!(q = realloc(p, n ? n : 1)))
        retry();
    return q;
}
