/* Hashing a large regular file through mmap(2), safe against the file
 * shrinking (SIGBUS) or growing while it is hashed. */
#ifndef MD5SUM_MAPPED_H
#define MD5SUM_MAPPED_H

#include <sys/types.h>

#include "md5.h"

/* Absorb the regular file FD, SIZE bytes long when fstat was called and not
 * read yet, into CTX, to its end: the same bytes read(2) to end of file would
 * give.  Returns 0, or -1 with errno set. */
int hash_mapped(int fd, off_t size, struct md5_ctx *ctx);

#endif
