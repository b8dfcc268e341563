/* Hashing a sequence of named inputs, many at a time, results in order.
 *
 * Inputs are opened and read strictly in submission order, each from start to
 * end.  A small regular file is read whole into memory (at most ENGINE_BUDGET
 * bytes are held at once) and hashed later, side by side with others, in SIMD
 * lanes.  Anything else (a large file, standard input, a pipe, a device) is
 * hashed as it is read, after everything submitted before it.  Every result,
 * error or digest, reaches the caller's callback in submission order.
 */
#ifndef MD5SUM_ENGINE_H
#define MD5SUM_ENGINE_H

#include <stddef.h>

#include "md5.h"

enum result_status {
    RESULT_OK = 0,
    RESULT_OPEN_FAILED,   /* err set; ENOENT matters to --ignore-missing */
    RESULT_READ_FAILED    /* err set */
};

struct result {
    const char *name;        /* NULL for a mark (engine_mark) */
    enum result_status status;
    int err;                 /* errno when status is not RESULT_OK */
    unsigned char digest[MD5_DIGEST_SIZE];
    const void *tag;         /* the caller's bytes given at submission */
};

/* Called once per submission, in submission order. */
typedef void engine_emit(const struct result *r, void *arg);

/* Called when every result so far has been emitted and the engine is about
 * to read or wait: the caller writes out what it made of them, so that
 * results are seen before any wait (a FIFO's writer may wait for them). */
typedef void engine_flush(void *arg);

/* Start a sequence whose results go to EMIT(r, ARG), with FLUSH(ARG) before
 * each wait.  The engine knows nothing of where results go. */
void engine_start(engine_emit *emit, engine_flush *flush, void *arg);

/* Hash NAME ("-" is standard input).  TAG_LEN bytes at TAG are copied and
 * handed back with the result.  NAME is copied too. */
void engine_submit(const char *name, const void *tag, size_t tag_len);

/* A point in the sequence with no input: its result (name NULL, tag copied)
 * is emitted after everything submitted before it. */
void engine_mark(const void *tag, size_t tag_len);

/* Hash and emit everything still pending; the sequence is over. */
void engine_finish(void);

#endif
