/* The program name and GNU-style diagnostics on standard error. */
#ifndef MD5SUM_DIAG_H
#define MD5SUM_DIAG_H

/* argv[0] as invoked, as GNU tools print it (a libtool wrapper's directory
 * and prefix dropped); "md5sum" if argv[0] is missing. */
extern const char *program_name;
void set_program_name(const char *argv0);

/* Look up now, after i18n_start, what must be printable when
 * memory has run out: gettext needs memory to load a catalogue, and GNU's
 * md5sum, which allocates far less, still has some when it says it. */
void diag_load_messages(void);

/* Print "PROG: MESSAGE" and, when ERRNUM is non-zero, ": strerror(ERRNUM)" on
 * stderr in one write, after writing out pending stdout output, so that the
 * two streams stay in order when they go to the same place.  This is the one
 * place that flushes stdout for stderr's sake. */
void diag(int errnum, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Print LINE and a newline on stderr, with no program name (after pending
 * stdout, as diag): the plain lines GNU prints with fprintf (stderr). */
void diag_plain(const char *line);

/* Print "PROG: memory exhausted", translated (after pending stdout, as GNU's
 * xalloc_die does through error()), and exit 1. */
void diag_out_of_memory(void);

/* Print "Try 'PROG --help' for more information." on stderr, in the
 * catalogue's words when one is installed, and exit 1. */
void try_help_and_exit(void);

/* If stderr is closed, hold fd 2 (fd_hold_closed): diagnostics then fail
 * with EBADF as on the closed descriptor, and no input can take fd 2 while
 * one is written.  Call at start, after out_hold_stdout. */
void diag_hold_stderr(void);

/* True once a write to stderr has failed (checked at exit, as GNU does). */
int stderr_failed(void);

#endif
