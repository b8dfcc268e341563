/* Hashing a stream read in order (standard input, a pipe, a device), its
 * reads made on a thread of their own once it proves long, so that the
 * copy out of the kernel runs beside the hashing instead of between its
 * steps (`cat big | md5sum`: 0.72 of the time, docs/PERFORMANCE.md). */
#ifndef MD5SUM_STREAM_H
#define MD5SUM_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "input.h"

/* As hash_rest; after the first STREAM_INLINE bytes, if THREADS and the
 * thread and its buffers can be had, the rest is read on a thread while
 * this one hashes: the rest of a pipe or a device, or of a regular file
 * if STREAM_FILE_REST bytes or more are left (copying from the page cache
 * costs less than a pipe's reads: a lone file of 6 MB read so took 1.06
 * of the time).  Either way the reads end at the first end of file, as
 * hash_rest's do, and EACH is called from this thread. */
#define STREAM_INLINE ((uint64_t)4 << 20)
#define STREAM_FILE_REST ((off_t)16 << 20)
int stream_hash(int fd, struct md5_ctx *ctx, unsigned char *buf, size_t size, int threads,
                hash_rest_each *each, void *arg);

/* Threads stream_hash started so far (MD5SUM_ENGINE_STATS). */
unsigned long stream_threads(void);

#endif
