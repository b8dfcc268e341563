/* The operands, one at a time: the command line's, or the names a
 * --files0-from list holds, read as they arrive, with GNU wc 9.1's checks
 * and messages for the list (GNU md5sum has no such option; wc's is the
 * model, du's words being the same but for one quote style). */
#ifndef MD5SUM_OPERANDS_H
#define MD5SUM_OPERANDS_H

#include <stdint.h>

#include "lines.h"

struct operands {
    char *const *argv;     /* from the command line: what is left of it */
    int argc;
    const char *list;      /* from --files0-from: the list's name, or NULL */
    int list_is_stdin;
    int whole;             /* a list wc would read whole before any name */
    int done;
    uintmax_t records;     /* names read so far, valid or not */
    int ok;
    struct line_reader r;
};

/* The ARGC operands at ARGV, or "-" (standard input) when there are none. */
void operands_from_argv(struct operands *o, char *const *argv, int argc);

/* The names in the list LIST ("-" is standard input), each ended by a NUL
 * byte (the last may lack it).  BEFORE_WAIT, if not NULL, is called before
 * a read of the list that would wait and before a diagnostic about it: the
 * caller lets out what it made of the names so far.  Returns 0, or -1
 * after GNU's diagnostic if LIST cannot be opened. */
int operands_from_list(struct operands *o, const char *list, void (*before_wait)(void));

/* The next operand, or NULL at the end.  Valid until the next call.  A
 * name the list may not hold (empty, or "-" in a list read from standard
 * input) is reported and skipped, as is the rest of a list that fails to
 * read. */
const char *operands_next(struct operands *o);

/* The operands are over.  Returns 1 if every one was valid and the list,
 * if any, was read to its end; 0 otherwise (each failure already reported). */
int operands_end(struct operands *o);

#endif
