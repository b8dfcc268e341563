/* Program name, GNU-style diagnostics and allocation that cannot fail. */
#ifndef MD5SUM_UTIL_H
#define MD5SUM_UTIL_H

#include <stddef.h>

/* argv[0] as invoked, as GNU tools print it; "md5sum" if argv[0] is missing. */
extern const char *program_name;
void set_program_name(const char *argv0);

/* Print "PROG: MESSAGE" and, when ERRNUM is non-zero, ": strerror(ERRNUM)" on
 * stderr in one write, after flushing pending stdout output so that the two
 * streams stay in order when they go to the same place. */
void diag(int errnum, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Print "Try 'PROG --help' for more information." on stderr and exit 1. */
void try_help_and_exit(void);

/* True once a write to stderr has failed (checked at exit, as GNU does). */
int stderr_failed(void);

/* Write all N bytes at P to FD, across short writes and EINTR.  Returns 0,
 * or -1 with errno set. */
int write_all(int fd, const void *p, size_t n);

/* malloc/realloc that print "memory exhausted" and exit 1 on failure. */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);

#endif
