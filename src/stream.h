/* A large regular file hashed in a lane, one chunk at a time.
 *
 * Chunks are read with positioned reads (pread) into one of two buffers.
 * In lanes with other files, the next chunk is read when the lane needs it,
 * by the hashing thread: every CPU is busy anyway, and the chunk is still in
 * cache when it is hashed.  A stream alone in its lanes keeps the next
 * chunk read ahead on the I/O thread (or whichever thread is free first),
 * so its hashing thread runs MD5 alone; its chunks are 4 MiB, to hand off
 * seldom.  Chunks hashed in lanes are 128 KiB, so the chunks of every lane
 * stay in cache; the disk still sees windows of 1 MiB, asked for ahead
 * with POSIX_FADV_WILLNEED as a chunk reaches a new window.  The file is
 * read to its end as read(2) would see it, as with GNU md5sum, even if it
 * grows or shrinks meanwhile; the last chunk is padded in its buffer, so
 * its lane's final state is the digest.
 */
#ifndef MD5SUM_STREAM_H
#define MD5SUM_STREAM_H

#include "task.h"

#define STREAM_CHUNK ((size_t)128 << 10)        /* read when a lane needs it */
/* Read ahead for a stream alone: 4 MiB less room for the padding, so that
 * its two buffers fill whole huge pages (bigbuf.h). */
#define STREAM_AHEAD_CHUNK (((size_t)4 << 20) - 128)
#define STREAM_WINDOW ((off_t)1 << 20)          /* what the disk is asked for */
/* Chunk buffers: a chunk, then room for its padding, 64-byte aligned.
 * Each stream has two for chunks read in lanes; a worker has two for the
 * chunks read ahead for the stream alone in its lanes, if any. */
#define STREAM_BUF ((STREAM_CHUNK + MD5_PAD_MAX + 63) & ~(size_t)63)
#define STREAM_AHEAD_BUF ((STREAM_AHEAD_CHUNK + MD5_PAD_MAX + 63) & ~(size_t)63)

enum stream_step {
    STREAM_WAITING,   /* its next chunk is not read yet: the lane idles */
    STREAM_RUNNING,   /* its lane has blocks */
    STREAM_DONE       /* finished: OUT set, out of its lane, fd closed */
};

/* Start T (claimed, open, larger than a small file) as a stream reading
 * through the STREAM_BUF buffers BUF0 and BUF1 (or, alone in its lanes,
 * its worker's read-ahead buffers), from offset AT (0, or where another
 * worker handed it over).  Its first chunk is read when it is first fed,
 * in a lane. */
void stream_start(struct task *t, unsigned char *buf0, unsigned char *buf1, off_t at);

/* T, in a lane with no blocks, gets its next chunk if that is read. */
enum stream_step stream_feed(struct worker_io *io, struct lanes *s, struct task *t,
                             struct outcome *out);

/* T has used up its chunk's blocks: done, or waiting to be fed the next. */
enum stream_step stream_chunk_done(struct worker_io *io, struct lanes *s, struct task *t,
                                   struct outcome *out);

/* Hand T, waiting between chunks with none read ahead, over to any worker:
 * it is deferred on the queue as a claim that goes on where it stands,
 * and leaves its lane; its descriptor is the new owner's.  Returns 0 if it
 * cannot be (a read ahead, or no room on the queue): T goes on here. */
int stream_hand_over(struct worker_io *io, struct lanes *s, struct task *t);

/* Could stream_feed do anything for T now?  With the queue's lock held. */
int stream_ready_locked(const struct task *t);

#endif
