/* Standard output with GNU md5sum's write-error semantics.
 *
 * Output is made of whole lines: they are written in chunks of whole lines,
 * at most 4096 bytes each (a longer line alone), so lines from processes
 * sharing a pipe or an O_APPEND file never interleave inside a line.  Lines
 * go out when 4096 bytes are pending, when out_sync is called (the modes do
 * so whenever the engine is about to wait or read something that may
 * block), before a diagnostic, and at exit.  With -z, records collect until st_blksize bytes
 * are pending, as with GNU's stdio.  A failed write does not stop the
 * program: out_close tells the caller, who reports it once, in GNU's words. */
#ifndef MD5SUM_OUTPUT_H
#define MD5SUM_OUTPUT_H

#include <stddef.h>

/* If stdout is closed, hold fd 1 (fd_hold_closed) so that no input can take
 * it while the output is still written to; writes then fail with EBADF, and
 * out_close reports what closing a closed stdout would.  Call at start, after
 * input_hold_stdin and before any thread starts. */
void out_hold_stdout(void);

/* Select -z behaviour: records end with NUL and are not pushed as lines. */
void out_records_nul(void);

/* Append N bytes / one byte / a string to stdout. */
void out_write(const void *p, size_t n);
void out_char(char c);
void out_str(const char *s);

/* Write out every complete line, as the engine waits for more results.
 * A reader that has gone is noticed by the write, as GNU notices it: a run
 * with nothing to write (--status, every operand failing) ends normally. */
void out_sync(void);

/* Write out everything pending: before a diagnostic, so that stdout and
 * stderr stay in order when they go to the same place. */
void out_flush(void);

/* The exit check GNU does with close_stdout: flush and close fd 1.  Returns
 * 0 if all output was written; otherwise -1 with errno set to the error the
 * caller reports as "write error: strerror", or to 0 when an earlier write
 * failed and the close did not (then GNU says just "write error").  It prints
 * nothing: reporting is the caller's (gnulib's closeout pattern). */
int out_close(void);

#endif
