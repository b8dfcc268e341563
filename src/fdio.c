#include "fdio.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

int fd_hold_closed(int fd, int flags)
{
    return fcntl(fd, F_GETFD) < 0 && errno == EBADF && open("/dev/null", flags) == fd;
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
