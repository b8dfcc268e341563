/* Hashing a sequence of named inputs, on every CPU, results in order.
 *
 * The storage sees the inputs read in submission order, each front to
 * back; what the page cache holds is read and hashed on every CPU, side by
 * side in SIMD lanes.  Standard input, anything that is not a regular file
 * (a FIFO, a terminal) and the file the results go to are read only once
 * every result before them is out; what is not a regular file is opened
 * only then too (a FIFO's open lets its writer in).  Every result, error
 * or digest, reaches the caller's callback in submission order, in the
 * caller's thread; threads, buffers and lanes are the engine's own
 * business.
 */
#ifndef MD5SUM_ENGINE_H
#define MD5SUM_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"

/* Called once per submission, in submission order. */
typedef void engine_emit(const struct result *r, void *arg);

/* Called when the results so far are emitted and the engine is about to
 * read or wait: the caller writes out what it made of them, so that they
 * are seen before any wait (a FIFO's writer may wait for them). */
typedef void engine_flush(void *arg);

/* Hash on at most N threads (1: all in the caller's thread, none started;
 * never more than there are CPUs, nor than a cgroup's CPU quota allows,
 * threads.h); 0, the default: one per CPU the process may run on. */
#define ENGINE_MAX_JOBS 256
void engine_set_jobs(unsigned n);

/* Start a sequence whose results go to EMIT(r, ARG), with FLUSH(ARG) before
 * each wait.  Threads and buffers, once made, serve every sequence. */
void engine_start(engine_emit *emit, engine_flush *flush, void *arg);

/* Hash NAME ("-" is standard input).  Up to 32 bytes of TAG (TAG_LEN) are
 * copied and handed back with the result; NAME, valid until the call
 * returns, is kept as long as needed. */
void engine_submit(const char *name, const void *tag, size_t tag_len);

/* A point in the sequence with no input: its result (name NULL, tag copied)
 * is emitted after everything submitted before it. */
void engine_mark(const void *tag, size_t tag_len);

/* Emit the results of everything submitted so far, then FLUSH: at the end
 * of a sequence, and before the caller waits for more input of its own (a
 * list whose writer may wait for them). */
void engine_wait(void);

/* Called back in the caller's thread, with none of the engine's locks held,
 * about every ENGINE_TICK_NS while the engine waits or hashes (not while
 * the caller waits for input): a moment to report progress. */
#define ENGINE_TICK_NS 100000000L
typedef void engine_tick(void *arg);

/* Call TICK(ARG) from now on (before engine_start).  Until this is called
 * the engine takes no note of sizes: progress costs nothing unless asked. */
void engine_set_tick(engine_tick *tick, void *arg);

/* Where the engine is, since the program started. */
struct engine_progress {
    const char *name;        /* the oldest input not yet emitted (what a
                              * one-file-at-a-time md5sum would be hashing),
                              * NULL if none: valid during the tick only */
    uintmax_t done;          /* its bytes hashed so far, a chunk at a time */
    intmax_t size;           /* its size; -1 until opened, or not a file */
    uintmax_t inputs_done, inputs_known;   /* emitted, submitted */
    uintmax_t bytes_done;    /* bytes hashed over every input */
    uintmax_t bytes_known;   /* the sizes of the inputs opened, each finished
                              * one counted for the bytes it gave instead */
};
void engine_get_progress(struct engine_progress *p);

#endif
