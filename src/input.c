#include "input.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fdio.h"
#include "fdview.h"

static int used_stdin, stdin_was_closed;

void input_hold_stdin(void)
{
    stdin_was_closed = fd_hold_closed(STDIN_FILENO, O_WRONLY);
}

int input_close_stdin(void)
{
    if (stdin_was_closed) {
        errno = EBADF;
        return -1;
    }
    return close(STDIN_FILENO);
}

int input_used_stdin(void)
{
    return used_stdin;
}

int input_open(const char *name)
{
    if (strcmp(name, "-") == 0) {
        used_stdin = 1;
        return STDIN_FILENO;
    }
    return input_open_flags(name, O_RDONLY);
}

int input_open_flags(const char *name, int flags)
{
    return input_above_std(fdview_open(name, flags));
}

int input_above_std(int fd)
{
    int moved, saved;

    /* Like gnulib's open_safer: never hand out fd 0, 1 or 2, so a file opened
     * while those are closed cannot later pass for stdin or stdout. */
    if (fd < 0 || fd > STDERR_FILENO)
        return fd;
    moved = fcntl(fd, F_DUPFD, STDERR_FILENO + 1);
    saved = errno;
    close(fd);
    errno = saved;
    return moved;
}

int input_close(int fd)
{
    return fd == STDIN_FILENO ? 0 : close(fd);
}

int hash_rest(int fd, struct md5_ctx *ctx, unsigned char *buf, size_t size, uint64_t until,
              hash_rest_each *each, void *arg)
{
    int advised = 0;

    while (ctx->length < until) {
        ssize_t n = read_some(fd, buf, size);
        if (n <= 0)
            return (int)n;
        /* A file that fills the buffer is long: ask for aggressive readahead
         * (pipes refuse, harmlessly). */
        if (!advised && (size_t)n == size) {
            posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
            advised = 1;
        }
        md5_update(ctx, buf, (size_t)n);
        if (each)
            each(ctx->length, arg);
    }
    return 1;
}
