/* The engine's chunk buffers: one mapping for a whole run, handed out
 * lowest address first, so that a run touches only as many as it uses.
 *
 * Memory is mapped in at its first touch, a page fault for each page, and
 * in a virtual machine whose hypervisor shadows the page tables each fault
 * is dear: on the AMD EPYC VM of docs/PERFORMANCE.md, filling 8 MiB of new
 * 4 KiB pages took 25 ms, against 1 ms in new 2 MiB pages.  A huge page is
 * cleared whole at its first touch, though, which only pays where most of
 * it is used: the first BUFS_SMALL_PAGES bytes (what a run of a few files
 * uses) stay in small pages, the rest is offered to Linux's transparent
 * huge pages.  Not thread-safe: the owner locks.
 */
#ifndef MD5SUM_BUFS_H
#define MD5SUM_BUFS_H

#include <stddef.h>
#include <sys/types.h>

#include "md5.h"

/* Bytes read at once.  A buffer holds a chunk and a block more (a read
 * that may find a file grown by a block, see source.h) and the padding. */
#define CHUNK ((size_t)256 << 10)
#define CHUNK_ROOM (CHUNK + 4096)
#define BUFS_SMALL_PAGES ((size_t)2 << 20)

/* A buffer and, once read, what it holds of an input. */
struct chunk {
    struct chunk *next;      /* the owner's list */
    unsigned char *data;     /* CHUNK_ROOM bytes */
    off_t off;               /* where the bytes start in the input */
    size_t len;              /* bytes read */
    int final;               /* the input ends with them */
};

struct bufs {
    struct chunk *chunk;     /* one for each buffer */
    struct chunk *free;      /* lowest address first */
    size_t n, n_free;
    unsigned char *map;
    size_t map_len;
};

/* Map N buffers (N >= 1).  Returns 0, or -1 if the memory cannot be had. */
int bufs_init(struct bufs *b, size_t n);
void bufs_end(struct bufs *b);

/* Is there room in the address space for N bytes more?  (For the rest of
 * the program, beside the buffers: its long names, lines, catalogues.) */
int bufs_room(size_t n);

/* A free buffer, or NULL; bufs_put gives one back. */
struct chunk *bufs_get(struct bufs *b);
void bufs_put(struct bufs *b, struct chunk *c);

#endif
