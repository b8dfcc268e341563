/* Allocation that cannot fail: on failure (once memory that could be given
 * back was, lowmem.h), GNU's "memory exhausted" and exit 1. */
#ifndef MD5SUM_XALLOC_H
#define MD5SUM_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);

/* Say "memory exhausted" as GNU does and exit 1: for callers whose own
 * fallbacks ran out. */
void xalloc_die(void);

#endif
