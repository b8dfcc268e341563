/* Opening and reading inputs.  Streams are hashed through one large aligned
 * buffer, allocated once and reused for every file. */
#ifndef MD5SUM_DIGEST_H
#define MD5SUM_DIGEST_H

#include <stddef.h>
#include <sys/types.h>

#include "md5.h"

enum digest_result {
    DIGEST_OK = 0,
    DIGEST_OPEN_FAILED,   /* errno set; ENOENT matters to --ignore-missing */
    DIGEST_READ_FAILED    /* errno set */
};

/* Open NAME for reading; "-" is standard input.  Returns the descriptor, or
 * -1 with errno set.  Never returns 1 or 2, nor 0 for a named file. */
int input_open(const char *name);

/* Close a descriptor from input_open; standard input stays open until exit.
 * Returns 0, or -1 with errno set. */
int input_close(int fd);

/* True once standard input has been opened (it must then be closed at exit). */
int digest_used_stdin(void);

/* One read(2) of up to N bytes, retried on EINTR.  Returns the bytes read
 * (0 at end of file), or -1 with errno set. */
ssize_t read_some(int fd, void *buf, size_t n);

/* Read up to N bytes into BUF, across short reads and EINTR, stopping early
 * only at end of file.  Returns the bytes read, or -1 with errno set. */
ssize_t read_full(int fd, void *buf, size_t n);

/* Absorb the rest of FD, to end of file, into CTX.  0, or -1 with errno set. */
int hash_rest(int fd, struct md5_ctx *ctx);

#endif
