/* Standard output with GNU md5sum's buffering and write-error semantics.
 *
 * In line mode every completed line is written at once, in one write(2) when
 * it fits the buffer, so lines from processes sharing a pipe or an O_APPEND
 * file never interleave inside a line.  Without newlines (-z) records collect
 * until the buffer is full, as GNU's line-buffered stdio does.  A failed write
 * does not stop the program: it is reported once, by out_close. */
#ifndef MD5SUM_OUTPUT_H
#define MD5SUM_OUTPUT_H

#include <stddef.h>

/* Select -z behaviour: records end with NUL, so output is flushed only when
 * the buffer fills, before a diagnostic, and at exit. */
void out_records_nul(void);

/* Append N bytes / one byte / a string to stdout. */
void out_write(const void *p, size_t n);
void out_char(char c);
void out_str(const char *s);

/* Write out everything pending (before a diagnostic, and at exit). */
void out_flush(void);

/* The exit check GNU does with close_stdout: flush, close fd 1, and report
 * "PROG: write error[: strerror]" if any write failed.  Returns 0 if all output
 * was written, -1 (after the message) otherwise. */
int out_close(void);

#endif
