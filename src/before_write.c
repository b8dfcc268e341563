#include "before_write.h"

static before_write_fn *hook;

void before_write_set(before_write_fn *fn)
{
    hook = fn;
}

void before_write(int fd, const void *p, size_t n)
{
    if (hook)
        hook(fd, p, n);
}
