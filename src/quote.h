/* Quoting of file names in diagnostics, exactly as GNU coreutils 9.1 does it
 * (shell-escape style; see quote.c for the rules). */
#ifndef MD5SUM_QUOTE_H
#define MD5SUM_QUOTE_H

/* NAME as GNU's quotef prints it in a diagnostic (quoted only when it needs
 * to be, ':' counting as needing it), in a new string the caller frees.
 * Depends on the locale (LC_CTYPE) for which bytes are printable. */
char *quote_name(const char *name);

/* NAME as GNU's quoteaf prints it: like quote_name, but quoted even when it
 * needs no quotes ('-' is printed '-').  For messages that always quote. */
char *quote_name_always(const char *name);

#endif
