#include "digest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

#define READ_SIZE (256 * 1024)

static unsigned char *buffer;
static int used_stdin;

int digest_used_stdin(void)
{
    return used_stdin;
}

int input_open(const char *name)
{
    int fd, moved, saved;

    if (strcmp(name, "-") == 0) {
        used_stdin = 1;
        return STDIN_FILENO;
    }
    /* Like gnulib's open_safer: never hand out fd 0, 1 or 2, so a file opened
     * while those are closed cannot later pass for stdin or stdout. */
    fd = open(name, O_RDONLY);
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

/* Read FD to end of file into CTX; 0, or -1 with errno set. */
static int hash_fd(int fd, struct md5_ctx *ctx)
{
    if (!buffer) {
        void *p;
        int err = posix_memalign(&p, 4096, READ_SIZE);
        if (err != 0) {
            errno = err;
            return -1;
        }
        buffer = p;
    }
    for (;;) {
        ssize_t n = read(fd, buffer, READ_SIZE);
        if (n == 0)
            return 0;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        md5_update(ctx, buffer, (size_t)n);
    }
}

enum digest_result digest_file(const char *name, unsigned char digest[MD5_DIGEST_SIZE])
{
    int fd = input_open(name);
    struct md5_ctx ctx;
    int rc, saved;

    if (fd < 0)
        return DIGEST_OPEN_FAILED;
#ifdef POSIX_FADV_SEQUENTIAL
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    md5_init(&ctx);
    rc = hash_fd(fd, &ctx);
    saved = errno;
    /* As GNU: a failing close is a read error too (NFS reports late). */
    if (input_close(fd) != 0 && rc == 0) {
        rc = -1;
        saved = errno;
    }
    if (rc != 0) {
        errno = saved;
        return DIGEST_READ_FAILED;
    }
    md5_final(&ctx, digest);
    return DIGEST_OK;
}
