/* A small regular file read whole into an arena, with room for its padding
 * after it: one chunk for a lane, whose final state is then the digest.
 * The arena is a bump allocator, emptied when its last file is hashed.  It
 * takes files in batches: once hashing begins it is sealed until it is
 * empty, so a stream of small files reuses its first bytes over and over
 * instead of touching all of it. */
#ifndef MD5SUM_WHOLE_H
#define MD5SUM_WHOLE_H

#include <stddef.h>

#include "task.h"

struct arena {
    unsigned char *buf;   /* 64-byte aligned, so lanes load whole cache lines */
    size_t cap, used;
    unsigned live;        /* files in it not yet hashed */
    int sealed;           /* takes nothing until it is empty */
    size_t touched;       /* the most it has held: bytes touched so far */
    int huge;             /* in huge pages from now on (bigbuf.h) */
};

/* An arena of about WANT bytes, less if memory is short (none at all:
 * CAP 0, and every file is a stream). */
void arena_init(struct arena *a, size_t want);
void arena_free(struct arena *a);

/* Bytes a file of SIZE takes in an arena. */
size_t arena_need(off_t size);

/* Files of N bytes in all (arena_need) are about to be read into A: if
 * they fill most of a huge page, A is in huge pages from now on, before it
 * is touched; batches of a few small files keep to small pages. */
void arena_expect(struct arena *a, size_t n);

/* Bytes free in A for files now: none while it is sealed. */
size_t arena_room(const struct arena *a);

/* Hashing begins: take no more files until those in it are hashed. */
void arena_seal(struct arena *a);

/* One file of the arena is hashed; the last one empties it. */
void arena_release(struct arena *a);

enum whole_step {
    WHOLE_READY,     /* T's chunk is its data and padding; its fd is closed */
    WHOLE_DONE       /* finished (a read error, or it grew and was hashed
                      * here through BUF): OUT set, fd closed */
};

/* Read T (claimed, open, its size at the claim small) whole into A, which
 * has room for it (arena_room, arena_need). */
enum whole_step whole_read(struct arena *a, struct task *t, unsigned char *buf, size_t buf_len,
                           struct outcome *out);

#endif
