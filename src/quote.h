/* Quoting of file names in diagnostics, exactly as GNU coreutils 9.1 does it
 * (shell-escape style, ':' also quoted; see quote.c for the rules). */
#ifndef MD5SUM_QUOTE_H
#define MD5SUM_QUOTE_H

/* NAME as GNU prints it in a diagnostic, in a new string the caller frees.
 * Depends on the locale (LC_CTYPE) for which bytes are printable. */
char *quote_name(const char *name);

#endif
