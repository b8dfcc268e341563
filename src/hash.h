/* Hashing mode: a digest line, or a diagnostic, for each operand. */
#ifndef MD5SUM_HASH_H
#define MD5SUM_HASH_H

#include "format.h"

/* Start a run whose lines are printed in STYLE (which must outlive it).
 * Operands then come one at a time, as they are known: from the command
 * line, or read from a list while it is still being written. */
void hash_begin(const struct line_style *style);

/* Hash NAME ("-" is standard input).  GNU's line for it, or GNU's
 * diagnostic if it cannot be read, is printed in operand order, perhaps
 * after later operands have been given. */
void hash_operand(const char *name);

/* Print what is still pending; the run is over.  Returns 1 if every
 * operand was hashed, 0 otherwise. */
int hash_end(void);

#endif
