#include "output.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

/* The threshold mirrors glibc: the st_blksize of fd 1, so -z output reaches
 * a pipe in the same chunks as GNU's.  The buffer itself is larger, so a line
 * up to OUT_CAP bytes still goes out in one write. */
#define OUT_CAP (64 * 1024)

static char buf[OUT_CAP];
static size_t used;
static size_t threshold;   /* 0 until the first write */
static int nul_records;     /* -z: no line flushing */
static int write_failed;   /* a write failed: ferror(stdout) in stdio terms */
static int last_errno;

static void set_threshold(void)
{
    struct stat st;

    threshold = 4096;
    if (fstat(STDOUT_FILENO, &st) == 0 && st.st_blksize > 0 && st.st_blksize < OUT_CAP)
        threshold = (size_t)st.st_blksize;
}

/* Write everything pending; on failure drop it, as glibc does, and remember. */
static int flush_pending(void)
{
    const char *p = buf;
    size_t n = used;

    used = 0;
    while (n > 0) {
        ssize_t w = write(STDOUT_FILENO, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            write_failed = 1;
            last_errno = errno;
            return -1;
        }
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

void out_flush(void)
{
    if (used > 0)
        flush_pending();
}

void out_records_nul(void)
{
    nul_records = 1;
}

void out_write(const void *p, size_t n)
{
    const char *s = p;

    if (threshold == 0)
        set_threshold();
    while (n > 0) {
        size_t room = OUT_CAP - used, k = n < room ? n : room;
        const char *nl = nul_records ? NULL : memchr(s, '\n', k);

        if (nl)   /* everything up to and including the newline */
            k = (size_t)(nl - s) + 1;
        memcpy(buf + used, s, k);
        used += k;
        s += k;
        n -= k;
        if (nl || used == OUT_CAP || (nul_records && used >= threshold))
            flush_pending();
    }
}

void out_char(char c)
{
    out_write(&c, 1);
}

void out_str(const char *s)
{
    out_write(s, strlen(s));
}

int out_close(void)
{
    int pending = used > 0, close_failed = 0, err = 0;

    if (pending && flush_pending() != 0) {
        close_failed = 1;
        err = last_errno;
    }
    if (close(STDOUT_FILENO) != 0 && !close_failed) {
        close_failed = 1;
        err = errno;
    }
    /* Like gnulib's close_stream: a closed stdout that was never written to
     * (EBADF, nothing pending, no earlier failure) is not an error. */
    if (write_failed || (close_failed && (pending || err != EBADF))) {
        diag(close_failed ? err : 0, "write error");
        return -1;
    }
    return 0;
}
