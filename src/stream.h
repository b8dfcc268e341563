/* A large regular file hashed in a lane, one mapped window at a time.
 *
 * Two windows are asked for ahead (struct slot); when the lane has used one
 * up, it is unmapped and the one after the next is asked for in its place,
 * on the I/O thread if there is one.  The result is always what read(2) to
 * the end of the file gives, as with GNU md5sum, even when the file changes:
 * a window the file no longer covers (a SIGBUS, or fstat after the window
 * showing a new end inside it) is read again with read(2) from its start,
 * and the last partial block and anything the file grew by are read too.
 */
#ifndef MD5SUM_STREAM_H
#define MD5SUM_STREAM_H

#include "result.h"
#include "task.h"

struct outcome {
    enum result_status status;
    int err;
    unsigned char digest[MD5_DIGEST_SIZE];
};

enum stream_step {
    STREAM_WAITING,   /* its next window is not ready yet: the lane idles */
    STREAM_RUNNING,   /* its lane has blocks */
    STREAM_DONE       /* finished: OUT set, out of its lane, fd closed */
};

/* Start T (claimed, open, larger than a small file) as a stream: its first
 * windows are asked for.  T is not in a lane yet. */
void stream_start(struct worker_io *io, struct task *t);

/* T, in a lane with no blocks, gets its next window if that is ready. */
enum stream_step stream_feed(struct worker_io *io, struct lanes *s, struct task *t,
                             struct outcome *out);

/* T has used up its window's blocks. */
enum stream_step stream_window_done(struct worker_io *io, struct lanes *s, struct task *t,
                                    struct outcome *out);

/* A kernel faulted (SIGBUS) at ADDR in T's window, during a round whose
 * effects were lost: finish T by read(2) from where it was. */
void stream_fault(struct worker_io *io, struct lanes *s, struct task *t, struct outcome *out);

/* Does ADDR lie in the window T is hashing? */
int stream_holds(const struct task *t, const void *addr);

#endif
