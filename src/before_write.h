/* A hook run just before bytes are written to standard output (output.c) or
 * standard error (diag.c), so that something drawn on a terminal between
 * those writes (a progress line) can be erased first.  The writers know
 * nothing of what it does; with no hook set (the default) it does nothing. */
#ifndef MD5SUM_BEFORE_WRITE_H
#define MD5SUM_BEFORE_WRITE_H

#include <stddef.h>

/* Told that the N bytes at P are about to be written to FD. */
typedef void before_write_fn(int fd, const void *p, size_t n);

/* Call FN before each such write from now on (NULL: nothing). */
void before_write_set(before_write_fn *fn);

/* Called by the writers: N bytes at P are about to go to FD. */
void before_write(int fd, const void *p, size_t n);

#endif
