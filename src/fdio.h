/* Plain descriptor I/O that retries on EINTR and across short transfers.
 * A leaf: it reports failures (errno) and prints nothing. */
#ifndef MD5SUM_FDIO_H
#define MD5SUM_FDIO_H

#include <stddef.h>
#include <sys/types.h>

/* Write all N bytes at P to FD, across short writes and EINTR.  Returns 0,
 * or -1 with errno set. */
int write_all(int fd, const void *p, size_t n);

/* One read(2) of up to N bytes, retried on EINTR.  Returns the bytes read
 * (0 at end of file), or -1 with errno set. */
ssize_t read_some(int fd, void *buf, size_t n);

/* Read up to N bytes into BUF, across short reads and EINTR, stopping early
 * only at end of file.  Returns the bytes read, or -1 with errno set. */
ssize_t read_full(int fd, void *buf, size_t n);

/* If FD is closed, open /dev/null on it with FLAGS (O_RDONLY or O_WRONLY),
 * or where there is none the end of a pipe that is so, and return 1 (else
 * 0).  Held open for reading only, writes fail with EBADF; for writing only,
 * reads do: as on the closed descriptor.  Holding it keeps the number from
 * being given to an input a worker opens and closes, while the main thread
 * still writes to it, reads it, or polls it.  Call for 0, 1, 2 in that
 * order: open takes the lowest free number. */
int fd_hold_closed(int fd, int flags);

#endif
