/* Opening and reading inputs.  Streams are hashed through one large aligned
 * buffer, allocated once and reused for every file. */
#ifndef MD5SUM_INPUT_H
#define MD5SUM_INPUT_H

#include "md5.h"

/* Open NAME for reading; "-" is standard input.  Returns the descriptor, or
 * -1 with errno set.  Never returns 1 or 2, nor 0 for a named file. */
int input_open(const char *name);

/* Close a descriptor from input_open; standard input stays open until exit.
 * Returns 0, or -1 with errno set. */
int input_close(int fd);

/* True once standard input has been opened (it must then be closed at exit). */
int input_used_stdin(void);

/* Absorb the rest of FD, to end of file, into CTX.  0, or -1 with errno set. */
int hash_rest(int fd, struct md5_ctx *ctx);

#endif
