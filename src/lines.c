#include "lines.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xalloc.h"

#define INITIAL_SIZE (64 * 1024)

void lines_init(struct line_reader *r, int fd, char delim, void (*before_wait)(void))
{
    r->fd = fd;
    r->delim = (unsigned char)delim;
    r->before_wait = before_wait;
    /* Smaller when memory is short: it grows with the longest record anyway. */
    for (r->cap = INITIAL_SIZE; !(r->buf = malloc(r->cap + 1)) && r->cap > 4096; r->cap /= 16)
        continue;
    if (!r->buf)
        r->buf = xmalloc(r->cap + 1);
    r->start = r->end = r->scanned = 0;
    r->eof = 0;
    r->err = 0;
}

void lines_free(struct line_reader *r)
{
    free(r->buf);
    r->buf = NULL;
}

/* Would a read of FD return at once?  (Regular files always do.) */
static int readable_now(int fd)
{
    struct pollfd p;

    p.fd = fd;
    p.events = POLLIN;
    p.revents = 0;
    return poll(&p, 1, 0) != 0;
}

static int take(struct line_reader *r, size_t upto, char **line, size_t *len)
{
    *line = r->buf + r->start;
    *len = upto - r->start;
    r->start = r->scanned = upto;
    return 1;
}

int lines_next(struct line_reader *r, char **line, size_t *len)
{
    for (;;) {
        char *at = memchr(r->buf + r->scanned, r->delim, r->end - r->scanned);
        ssize_t n;

        if (at)
            return take(r, (size_t)(at - r->buf) + 1, line, len);
        r->scanned = r->end;
        if (r->err || r->eof) {
            if (r->end > r->start)
                return take(r, r->end, line, len);
            if (r->err) {
                errno = r->err;
                r->err = 0;
                return -1;
            }
            return 0;
        }
        /* Make room: drop what was returned, grow for a long record. */
        if (r->start > 0) {
            memmove(r->buf, r->buf + r->start, r->end - r->start);
            r->end -= r->start;
            r->scanned -= r->start;
            r->start = 0;
        }
        if (r->end == r->cap) {
            r->cap *= 2;
            r->buf = xrealloc(r->buf, r->cap + 1);
        }
        if (r->before_wait && !readable_now(r->fd))
            r->before_wait();
        n = read(r->fd, r->buf + r->end, r->cap - r->end);
        if (n > 0)
            r->end += (size_t)n;
        else if (n == 0)
            r->eof = 1;
        else if (errno != EINTR)
            r->err = errno;
    }
}
