/* A worker: claims jobs from the queue in order, reads them and hashes them
 * side by side in its own SIMD lanes, and completes them on the queue.
 *
 * A small regular file is read whole into the worker's arena and hashed in
 * one chunk.  A larger one is a stream, read a chunk at a time (stream.h).
 * A worker starts only what it has room for (arena bytes, a stream's
 * buffers); the rest of what it claimed is deferred on the queue, and any
 * worker with room takes those, the longest first, before it claims more:
 * no worker sits on inputs while another idles, and the last to end are
 * short.  Large files are shared out evenly once a worker has more than
 * half its lanes of them: one with more than its share hands a stream over
 * between two chunks, its chaining state and offset deferred on the
 * queue.  A worker runs either on a thread of its own (worker_main) or,
 * with one job, in the submitting thread, one step at a time
 * (worker_step).
 */
#ifndef MD5SUM_WORKER_H
#define MD5SUM_WORKER_H

#include <stddef.h>

#include "queue.h"

/* Claimed jobs a worker holds at once: open streams and small files read. */
#define WORKER_MAX_TASKS 128

struct worker;

/* A worker on Q holding at most MAX_TASKS claimed inputs (each may hold a
 * descriptor) of which MAX_STREAMS large files are read at once, and an
 * arena of about ARENA bytes (less if memory is short).  IO_THREAD: reads
 * ahead go to the I/O thread (iothread.h), which must be running.  NULL if
 * not even its smallest buffers can be had. */
struct worker *worker_new(struct queue *q, unsigned max_tasks, unsigned max_streams, size_t arena,
                          int io_thread);
void worker_free(struct worker *w);

/* Claim what fits, run one round of the lanes, complete what ended.
 * Returns 0 if there was nothing to do. */
int worker_step(struct worker *w);

/* A worker thread's body (ARG is the worker): steps, sleeping on the queue
 * when idle, until the queue is closing and every job is claimed and done. */
void *worker_main(void *arg);

#endif
