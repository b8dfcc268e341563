/* madvise and MADV_HUGEPAGE are not POSIX (posix_madvise has no such
 * advice); the feature-test macro is the documented way to ask for them. */
#define _DEFAULT_SOURCE /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#include "bufs.h"

#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "verify.h"

VERIFY(room_for_a_block_and_padding, CHUNK_ROOM >= CHUNK + MD5_BLOCK_SIZE + MD5_PAD_MAX);
VERIFY(whole_blocks, CHUNK % MD5_BLOCK_SIZE == 0 && BUFS_SMALL_PAGES % 4096 == 0);

int bufs_init(struct bufs *b, size_t n)
{
    size_t i, skip;

    b->map_len = n * CHUNK_ROOM + BUFS_SMALL_PAGES;   /* room to align */
    b->chunk = malloc(n * sizeof *b->chunk);
    b->map = mmap(NULL, b->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (!b->chunk || b->map == MAP_FAILED) {
        if (b->map != MAP_FAILED)
            munmap(b->map, b->map_len);
        free(b->chunk);
        return -1;
    }
    /* Huge pages begin on their boundaries: align the buffers' start. */
    skip = (BUFS_SMALL_PAGES - (uintptr_t)b->map % BUFS_SMALL_PAGES) % BUFS_SMALL_PAGES;
#ifdef MADV_HUGEPAGE
    if (n * CHUNK_ROOM > BUFS_SMALL_PAGES) {
        size_t from = skip + BUFS_SMALL_PAGES;
        /* Advice: if it is not taken, the pages are small ones. */
        (void)madvise(b->map + from, b->map_len - from, MADV_HUGEPAGE);
    }
#endif
    b->n = b->n_free = n;
    b->free = NULL;
    for (i = n; i-- > 0;) {
        b->chunk[i].data = b->map + skip + i * CHUNK_ROOM;
        b->chunk[i].next = b->free;
        b->free = &b->chunk[i];
    }
    return 0;
}

void bufs_end(struct bufs *b)
{
    munmap(b->map, b->map_len);
    free(b->chunk);
    b->chunk = NULL;
    b->free = NULL;
    b->n = b->n_free = 0;
}

int bufs_room(size_t n)
{
    void *p = mmap(NULL, n, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (p == MAP_FAILED)
        return 0;
    munmap(p, n);
    return 1;
}

struct chunk *bufs_get(struct bufs *b)
{
    struct chunk *c = b->free;

    if (c) {
        b->free = c->next;
        b->n_free--;
    }
    return c;
}

void bufs_put(struct bufs *b, struct chunk *c)
{
    /* Last out, first in: the buffer just used is mapped and in cache. */
    c->next = b->free;
    b->free = c;
    b->n_free++;
}
