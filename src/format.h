/* Result lines on stdout: names escaped as GNU does, hash-mode lines. */
#ifndef MD5SUM_FORMAT_H
#define MD5SUM_FORMAT_H

#include "md5.h"

/* Write NAME to stdout, escaped by escape_name when ESCAPE, raw otherwise. */
void out_name(const char *name, int escape);

struct line_style {
    int tag;        /* --tag: "MD5 (NAME) = HEX" */
    int binary;     /* '*' marker instead of ' ' (untagged only) */
    char eol;       /* '\n', or '\0' with -z (which also disables escaping) */
};

/* Print one hash-mode result line for NAME, in one piece. */
void print_digest_line(const char *name, const unsigned char digest[MD5_DIGEST_SIZE],
                       const struct line_style *style);

#endif
