/* A large regular file hashed in a lane, one chunk at a time.
 *
 * Two chunk buffers are kept filled ahead with positioned reads (pread), on
 * the I/O thread or on a hashing thread with nothing better to do: when the
 * lane has used one up, the chunk after the next is asked for in its place.
 * Chunks are 256 KiB, so that the chunks of every lane stay in cache until
 * they are hashed; the disk still sees windows of 1 MiB, asked for ahead
 * with POSIX_FADV_WILLNEED as a window begins.  The file is read to its end
 * as read(2) would see it, as with GNU md5sum, even if it grows or shrinks
 * meanwhile; the last chunk is padded in its buffer, so its lane's final
 * state is the digest.
 */
#ifndef MD5SUM_STREAM_H
#define MD5SUM_STREAM_H

#include "result.h"
#include "task.h"

#define STREAM_CHUNK ((size_t)256 << 10)
#define STREAM_WINDOW ((off_t)1 << 20)
/* A chunk buffer: a chunk, then room for its padding, 64-byte aligned. */
#define STREAM_BUF ((STREAM_CHUNK + MD5_PAD_MAX + 63) & ~(size_t)63)

struct outcome {
    enum result_status status;
    int err;
    unsigned char digest[MD5_DIGEST_SIZE];
};

enum stream_step {
    STREAM_WAITING,   /* its next chunk is not read yet: the lane idles */
    STREAM_RUNNING,   /* its lane has blocks */
    STREAM_DONE       /* finished: OUT set, out of its lane, fd closed */
};

/* Start T (claimed, open, larger than a small file) as a stream reading
 * through the two STREAM_BUF buffers at BUF: its first chunks are asked
 * for.  T is not in a lane yet. */
void stream_start(struct worker_io *io, struct task *t, unsigned char *buf);

/* T, in a lane with no blocks, gets its next chunk if that is read. */
enum stream_step stream_feed(struct worker_io *io, struct lanes *s, struct task *t,
                             struct outcome *out);

/* T has used up its chunk's blocks. */
enum stream_step stream_chunk_done(struct worker_io *io, struct lanes *s, struct task *t,
                                   struct outcome *out);

/* Could stream_feed do anything for T now?  With the queue's lock held. */
int stream_ready_locked(const struct task *t);

#endif
