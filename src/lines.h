/* Reading a file descriptor record by record, each ended by a delimiter
 * byte ('\n' for lines, '\0' for --files0-from's names), records of any
 * length holding any other byte.  Memory: one buffer, as large as the
 * longest record needs. */
#ifndef MD5SUM_LINES_H
#define MD5SUM_LINES_H

#include <stddef.h>

struct line_reader {
    int fd;
    char *buf;
    size_t cap;        /* bytes in buf, plus one spare for a terminating NUL */
    size_t start;      /* first byte not yet returned */
    size_t end;        /* end of the data read so far */
    size_t scanned;    /* buf[start..scanned) holds no delimiter */
    int delim;         /* the byte that ends a record */
    int eof;
    int err;           /* errno of a read error not reported yet, or 0 */
    void (*before_wait)(void);
};

/* Read records ended by DELIM from FD.  BEFORE_WAIT, if not NULL, is called
 * before a read that would wait for data (a pipe whose writer is slow). */
void lines_init(struct line_reader *r, int fd, char delim, void (*before_wait)(void));
void lines_free(struct line_reader *r);

/* The next record, with its delimiter if it has one (the last may not), at
 * *LINE, writable; a record without its delimiter has a spare byte after it,
 * so either way there is room for a terminating NUL.  Returns 1 for a
 * record, 0 at end of input, -1 on a read error (errno set).  As with
 * getdelim, a record cut short by a read error is returned first and the
 * error on the next call. */
int lines_next(struct line_reader *r, char **line, size_t *len);

#endif
