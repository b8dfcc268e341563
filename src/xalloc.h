/* Allocation that cannot fail: on failure, GNU's "memory exhausted" and exit 1. */
#ifndef MD5SUM_XALLOC_H
#define MD5SUM_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);

/* A buffer of *SIZE bytes, or, when memory is short, of *SIZE / 8, / 64 ...
 * but at least MIN bytes; *SIZE is set to what was had.  NULL (and *SIZE 0)
 * if not even MIN bytes can be had: no message.  Aligned to 64 bytes, or to
 * a huge page if that large (bigbuf.h). */
void *alloc_down(size_t *size, size_t min);

/* Say "memory exhausted" as GNU does and exit 1: for callers whose own
 * fallbacks ran out. */
void xalloc_die(void);

#endif
