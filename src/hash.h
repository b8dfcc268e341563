/* Hashing mode: a digest line, or a diagnostic, for each operand. */
#ifndef MD5SUM_HASH_H
#define MD5SUM_HASH_H

#include "format.h"

/* Hash the N files NAMES ("-" is standard input) and print GNU's line for
 * each, in order, in STYLE, or GNU's diagnostic for one that cannot be read.
 * Returns 1 if every file was hashed, 0 otherwise. */
int hash_files(char *const *names, int n, const struct line_style *style);

#endif
