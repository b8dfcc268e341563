/* Hashing a regular file in the page cache through read-only mappings of
 * it, a window at a time: no copy, so one thread hashes a cached file at
 * the MD5 core's speed (docs/PERFORMANCE.md).  A file that shrinks while
 * mapped raises SIGBUS, caught here: the window is then left to reads.
 * One caller at a time; no other thread may touch the mappings. */
#ifndef MD5SUM_MAPPED_H
#define MD5SUM_MAPPED_H

#include <sys/types.h>

#include "input.h"
#include "md5.h"

/* Absorb FD's bytes from OFF up to SIZE into CTX, calling EACH(absorbed,
 * ARG) after each window (EACH may be NULL).  Stops early at a window that
 * cannot be mapped, or that the file shrank into while it was hashed: that
 * window is left out of CTX.  Returns the offset reached, where reads go on
 * (the rest of a file that grew, or what a shrunk one still has).  AHEAD:
 * a thread of its own may map the windows after the first and bring their
 * bytes in from memory while the one before is hashed (a CPU otherwise
 * idle). */
off_t mapped_hash(int fd, off_t off, off_t size, struct md5_ctx *ctx, hash_rest_each *each,
                  void *arg, int ahead);

/* Bytes of the windows mapped ahead so far (stats). */
off_t mapped_ahead(void);

#endif
