/* Hashing a sequence of named inputs, on every CPU, results in order.
 *
 * Inputs are opened strictly in submission order and each is read from
 * start to end: small regular files whole, larger ones in windows of at
 * least 1 MiB, a bounded number at a time, and hashed side by side in SIMD
 * lanes by worker threads.  Standard input and anything that is not a
 * regular file (a FIFO, a terminal, a directory) is opened and read only
 * once every result before it has been emitted.  Every result, error or
 * digest, reaches the caller's callback in submission order, in the caller's
 * thread; threads, windows and lanes are the engine's own business.
 */
#ifndef MD5SUM_ENGINE_H
#define MD5SUM_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"

/* Called once per submission, in submission order. */
typedef void engine_emit(const struct result *r, void *arg);

/* Called when every result so far has been emitted and the engine is about
 * to read or wait: the caller writes out what it made of them, so that
 * results are seen before any wait (a FIFO's writer may wait for them). */
typedef void engine_flush(void *arg);

/* Hash with N threads from now on, at most ENGINE_MAX_JOBS (1: all in the
 * caller's thread); 0, the default, is one per CPU the process may run on. */
#define ENGINE_MAX_JOBS 256
void engine_set_jobs(unsigned n);

/* Start a sequence whose results go to EMIT(r, ARG), with FLUSH(ARG) before
 * each wait.  The engine knows nothing of where results go. */
void engine_start(engine_emit *emit, engine_flush *flush, void *arg);

/* Hash NAME ("-" is standard input).  Up to 32 bytes of TAG (TAG_LEN) are
 * copied and handed back with the result.  NAME is copied too. */
void engine_submit(const char *name, const void *tag, size_t tag_len);

/* A point in the sequence with no input: its result (name NULL, tag copied)
 * is emitted after everything submitted before it. */
void engine_mark(const void *tag, size_t tag_len);

/* Emit the results of everything submitted so far, then FLUSH: before the
 * caller waits for more input of its own (a list whose writer may wait for
 * them). */
void engine_wait(void);

/* Hash and emit everything still pending; the sequence is over. */
void engine_finish(void);

/* Called back in the caller's thread, with none of the engine's locks held,
 * at most once every ENGINE_TICK_NS, and about that often while the engine
 * waits for workers, hashes in the caller's thread (between chunks) or reads
 * an input that is not a regular file (between reads): a moment to report
 * progress.  Not while the caller itself waits for input. */
#define ENGINE_TICK_NS 100000000L
typedef void engine_tick(void *arg);

/* Call TICK(ARG) from now on (before engine_start).  Until this is called
 * the engine takes no note of sizes: progress costs nothing unless asked. */
void engine_set_tick(engine_tick *tick, void *arg);

/* Where the engine is, since the program started. */
struct engine_progress {
    const char *name;        /* the oldest input not yet emitted (what a
                              * one-file-at-a-time md5sum would be hashing);
                              * NULL if none.  Valid during the tick only. */
    uintmax_t done;          /* its bytes hashed so far, a chunk at a time */
    intmax_t size;           /* its size, -1 until it is opened or if it is
                              * not a regular file */
    uintmax_t inputs_done;   /* inputs emitted */
    uintmax_t inputs_known;  /* inputs submitted */
    uintmax_t bytes_done;    /* bytes hashed over every input */
    uintmax_t bytes_known;   /* the sizes of the inputs opened, each finished
                              * one counted for the bytes it gave instead */
};

/* The engine's progress now: from a tick. */
void engine_get_progress(struct engine_progress *p);

#endif
