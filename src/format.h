/* Output lines: hex digests and GNU's escaping of names on stdout. */
#ifndef MD5SUM_FORMAT_H
#define MD5SUM_FORMAT_H

#include "md5.h"

/* The 32 lowercase hex digits of DIGEST, NUL-terminated. */
void format_hex(char hex[2 * MD5_DIGEST_SIZE + 1], const unsigned char digest[MD5_DIGEST_SIZE]);

/* True when NAME holds a backslash, LF or CR: GNU then escapes the name and
 * starts the line with a backslash. */
int name_has_escapable(const char *name);

/* GNU's escaping of the LEN bytes at NAME into DST: '\\' -> "\\\\", LF -> "\\n",
 * CR -> "\\r", every other byte (NUL included) as it is.  DST needs room for
 * 2 * LEN bytes; no NUL is added.  Returns the bytes written.  Pure, so the
 * round trip with unescape_name (checkline.h) can be tested in memory. */
size_t escape_name(char *dst, const char *name, size_t len);

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
