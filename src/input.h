/* Opening inputs, and hashing a stream through a buffer with read(2). */
#ifndef MD5SUM_INPUT_H
#define MD5SUM_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "md5.h"

/* Open NAME for reading; "-" is standard input.  Returns the descriptor, or
 * -1 with errno set.  Never returns 1 or 2, nor 0 for a named file. */
int input_open(const char *name);

/* Open the file NAME (not "-") with open(2)'s FLAGS, as input_open does. */
int input_open_flags(const char *name, int flags);

/* FD, from an open(2) of ours, moved above standard error if it is 0, 1
 * or 2 (a negative FD is returned as it is). */
int input_above_std(int fd);

/* Close a descriptor from input_open; standard input stays open until exit.
 * Returns 0, or -1 with errno set. */
int input_close(int fd);

/* True once standard input has been opened (it must then be closed at exit). */
int input_used_stdin(void);

/* If fd 0 is closed, hold it with a descriptor that cannot be read (EBADF,
 * as when closed): otherwise a file opened by one thread could sit on fd 0
 * for a moment, and another thread reading standard input would read it.
 * Call before any thread starts. */
void input_hold_stdin(void);

/* Close standard input at exit: 0, or -1 with errno set (EBADF if it was
 * closed when we started, as close(2) would say). */
int input_close_stdin(void);

/* Told, after each read, the bytes CTX has absorbed so far. */
typedef void hash_rest_each(uint64_t absorbed, void *arg);

/* Absorb the rest of FD into CTX, reading through the SIZE bytes at BUF,
 * until end of file or until CTX has absorbed UNTIL bytes, and call
 * EACH(absorbed, ARG) after each read unless EACH is NULL.  0 at end of
 * file, 1 at UNTIL, or -1 with errno set. */
int hash_rest(int fd, struct md5_ctx *ctx, unsigned char *buf, size_t size, uint64_t until,
              hash_rest_each *each, void *arg);

#endif
