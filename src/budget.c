#include "budget.h"

#include "md5.h"
#include "whole.h"

#define SMALL_MAX ((size_t)256 << 10) /* larger files are streams */

off_t budget_small_max(size_t cap, unsigned lanes)
{
    size_t each = cap / lanes & ~(size_t)63;   /* as arena_need rounds */

    if (each < arena_need(0))
        return -1;
    each -= 1 + MD5_PAD_MAX;
    return (off_t)(each < SMALL_MAX ? each : SMALL_MAX);
}

int budget_small(const struct budget *b, off_t size)
{
    return size >= 0 && size <= b->small_max;
}

int budget_fits(const struct claim *c, void *arg)
{
    struct budget *b = arg;

    if (b->tasks == 0)
        return 0;
    if (budget_small(b, c->size)) {
        size_t need = arena_need(c->size);

        if (need > b->arena)
            return 0;
        b->arena -= need;
    } else {
        if (b->streams == 0)
            return 0;
        b->streams--;
    }
    b->tasks--;
    return 1;
}
