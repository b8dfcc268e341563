/* When memory runs short: the one who holds memory it can do without (the
 * engine's lanes) gives it back before an allocation is said to fail.  A
 * leaf: xalloc.c and diag.c ask, the engine answers. */
#ifndef MD5SUM_LOWMEM_H
#define MD5SUM_LOWMEM_H

#include <stddef.h>

/* From now on, when an allocation fails, GIVE_BACK() is asked to free
 * memory it holds (and returns 1 if it did) before it is tried again. */
void lowmem_on_short(int (*give_back)(void));

/* malloc, tried again as long as GIVE_BACK frees something: NULL only when
 * there is nothing more to give (the caller has another way, or dies). */
void *malloc_or_less(size_t n);

/* realloc likewise. */
void *realloc_or_less(void *p, size_t n);

#endif
