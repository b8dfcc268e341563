#include "output.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "before_write.h"
#include "fdio.h"
#include "verify.h"

/* Whole lines go out in writes of at most LINE_CHUNK bytes (PIPE_BUF on
 * Linux), so they stay whole even on a pipe shared with other writers; a
 * single longer line goes out in one write of its own.  With -z, records are
 * flushed when THRESHOLD bytes are pending, the st_blksize of fd 1, as GNU's
 * stdio does. */
#define OUT_CAP (64 * 1024)
#define LINE_CHUNK 4096

/* A full chunk of lines must fit in the buffer with room to spare. */
VERIFY(chunk_fits_buffer, LINE_CHUNK < OUT_CAP);

static char buf[OUT_CAP];
static size_t used;
static size_t threshold;   /* 0 until the first write */
static int nul_records;     /* -z: records end with NUL, not newline */
static int write_failed;   /* a write failed: ferror(stdout) in stdio terms */
static int last_errno;
static int stdout_was_closed;

void out_hold_stdout(void)
{
    stdout_was_closed = fd_hold_closed(STDOUT_FILENO, O_RDONLY);
}

static void set_threshold(void)
{
    struct stat st;

    threshold = 4096;
    if (fstat(STDOUT_FILENO, &st) == 0 && st.st_blksize > 0 && st.st_blksize < OUT_CAP)
        threshold = (size_t)st.st_blksize;
}

/* Write the first N pending bytes; on failure they are dropped, as glibc
 * drops a buffer it could not write, and the failure is remembered. */
static int write_out(size_t n)
{
    int rc;

    before_write(STDOUT_FILENO, buf, n);
    rc = write_all(STDOUT_FILENO, buf, n);

    if (rc != 0) {
        write_failed = 1;
        last_errno = errno;
    }
    memmove(buf, buf + n, used - n);
    used -= n;
    return rc;
}

/* Length of the next chunk of whole lines: as many as fit in LINE_CHUNK
 * bytes, or one longer line; 0 if no line is complete. */
static size_t next_chunk(void)
{
    size_t limit = used < LINE_CHUNK ? used : LINE_CHUNK, i;
    const char *nl;

    for (i = limit; i > 0; i--)
        if (buf[i - 1] == '\n')
            return i;
    nl = memchr(buf, '\n', used);
    return nl ? (size_t)(nl - buf) + 1 : 0;
}

/* Write out every complete line (nothing with -z). */
static void push_lines(void)
{
    size_t n;

    if (nul_records)
        return;
    while ((n = next_chunk()) > 0)
        write_out(n);
}

void out_sync(void)
{
    if (threshold == 0)
        set_threshold();
    push_lines();
}

void out_flush(void)
{
    if (used > 0)
        write_out(used);
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
        size_t k = OUT_CAP - used < n ? OUT_CAP - used : n;

        memcpy(buf + used, s, k);
        used += k;
        s += k;
        n -= k;
        if (nul_records) {
            if (used >= threshold)
                write_out(used);
        } else if (used >= LINE_CHUNK) {
            push_lines();
            if (used == OUT_CAP)   /* one line longer than the buffer */
                write_out(used);
        }
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
    int pending, close_failed = 0, err = 0;

    /* GNU writes each line as it is made, so for it a failure to write a line
     * is an earlier write error, not one of the final flush.  Only -z records
     * are still pending in GNU's buffer at exit. */
    push_lines();
    pending = used > 0;
    if (pending && write_out(used) != 0) {
        close_failed = 1;
        err = last_errno;
    }
    if (stdout_was_closed) {
        if (!close_failed) {
            close_failed = 1;
            err = EBADF;
        }
    } else if (close(STDOUT_FILENO) != 0 && !close_failed) {
        close_failed = 1;
        err = errno;
    }
    /* Like gnulib's close_stream: a closed stdout that was never written to
     * (EBADF, nothing pending, no earlier failure) is not an error. */
    if (write_failed || (close_failed && (pending || err != EBADF))) {
        errno = close_failed ? err : 0;
        return -1;
    }
    return 0;
}
