/* Allocation that cannot fail: on failure, GNU's "memory exhausted" and exit 1. */
#ifndef MD5SUM_XALLOC_H
#define MD5SUM_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);

/* When an allocation fails, GIVE_BACK() is asked to free memory it holds
 * (and returns 1 if it did) before the allocation is tried again. */
void xalloc_on_short(int (*give_back)(void));

/* Say "memory exhausted" as GNU does and exit 1: for callers whose own
 * fallbacks ran out. */
void xalloc_die(void);

#endif
