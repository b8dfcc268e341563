/* Large buffers the engine keeps for a whole run (arenas, chunk buffers),
 * in huge pages where the system offers them.
 *
 * Memory is mapped in at its first touch, a page fault for each page.  In a
 * virtual machine whose hypervisor shadows the page tables each fault is
 * dear: on the AMD EPYC VM of docs/PERFORMANCE.md, reading into 8 MiB of
 * new 4 KiB pages took 25 ms, against 0.5 ms once they were mapped, and
 * 1 ms in new 2 MiB pages.  But a huge page is cleared whole when first
 * touched, up to 4 ms when the host has not backed it yet: it pays only
 * where most of it will be used.  So buffers of 2 MiB and more are aligned
 * to 2 MiB (alloc_down, xalloc.h), and their owners offer the parts they
 * fill when busy to Linux's transparent huge pages (madvise); elsewhere,
 * or if it declines, they are ordinary memory.
 */
#ifndef MD5SUM_BIGBUF_H
#define MD5SUM_BIGBUF_H

#include <stddef.h>

#define BIGBUF_HUGE_PAGE ((size_t)2 << 20)

/* Bytes [FROM, TO) of buffer P (from alloc_down, which aligns buffers of
 * BIGBUF_HUGE_PAGE or more to it) will mostly be used: in huge pages where
 * they can be, the whole ones that fit.  Bytes [FROM, TOUCHED) may have
 * been touched already, in small pages: a fault in a huge page's range
 * where any small page is mapped maps a small one too, so the huge pages
 * they lie in are made now (Linux's MADV_COLLAPSE, where there is one),
 * keeping what they hold. */
void bigbuf_huge(unsigned char *p, size_t from, size_t to, size_t touched);

#endif
