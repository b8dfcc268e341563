/* Reading a file descriptor line by line, lines of any length, NUL bytes
 * included.  Memory: one buffer, as large as the longest line needs. */
#ifndef MD5SUM_LINES_H
#define MD5SUM_LINES_H

#include <stddef.h>

struct line_reader {
    int fd;
    char *buf;
    size_t cap;        /* bytes in buf, plus one spare for a terminating NUL */
    size_t start;      /* first byte not yet returned */
    size_t end;        /* end of the data read so far */
    size_t scanned;    /* buf[start..scanned) holds no newline */
    int eof;
    int err;           /* errno of a read error not reported yet, or 0 */
    void (*before_wait)(void);
};

/* Read lines from FD.  BEFORE_WAIT, if not NULL, is called before a read
 * that would wait for data (a pipe whose writer is slow). */
void lines_init(struct line_reader *r, int fd, void (*before_wait)(void));
void lines_free(struct line_reader *r);

/* The next line, with its '\n' if it has one, at *LINE (writable, and
 * LINE[*LEN] may be overwritten).  Returns 1 for a line, 0 at end of input,
 * -1 on a read error (errno set).  As with getline, a line cut short by a
 * read error is returned first and the error on the next call. */
int lines_next(struct line_reader *r, char **line, size_t *len);

#endif
