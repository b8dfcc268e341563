#include "fdio.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int fd_hold_closed(int fd, int flags)
{
    int end[2], keep, other;

    if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
        return 0;
    if (open("/dev/null", flags) == fd)
        return 1;
    /* No /dev/null (a chroot, a minimal container's /dev): the end of a
     * pipe that fails as FLAGS says (the write end where FD is read, the
     * read end where it is written), the other end closed.  Left free, FD
     * would be taken by an input a worker opens, until moved above 2
     * (input.h): a moment in which a read of FD reads that input. */
    if (pipe(end) != 0)
        return 0;
    keep = flags == O_WRONLY ? end[1] : end[0];
    other = keep == end[1] ? end[0] : end[1];
    if (keep != fd) {   /* OTHER may be on FD: dup2 closes it there */
        if (dup2(keep, fd) != fd) {
            close(end[0]);
            close(end[1]);
            return 0;
        }
        close(keep);
    }
    if (other != fd)
        close(other);
    return 1;
}

int write_all(int fd, const void *p, size_t n)
{
    const char *s = p;

    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        s += w;
        n -= (size_t)w;
    }
    return 0;
}

ssize_t read_some(int fd, void *buf, size_t n)
{
    ssize_t r;

    do
        r = read(fd, buf, n);
    while (r < 0 && errno == EINTR);
    return r;
}

ssize_t read_full(int fd, void *buf, size_t n)
{
    unsigned char *p = buf;
    size_t got = 0;

    while (got < n) {
        ssize_t r = read_some(fd, p + got, n - got);
        if (r <= 0) {
            if (r < 0)
                return -1;
            break;
        }
        got += (size_t)r;
    }
    return (ssize_t)got;
}
