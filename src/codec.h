/* The text forms of names and digests in checksum lines, both ways: hex
 * digits, and GNU's escaping of names holding '\\', LF or CR.  Pure
 * functions on memory, so each round trip can be tested in isolation. */
#ifndef MD5SUM_CODEC_H
#define MD5SUM_CODEC_H

#include <stddef.h>

#include "md5.h"

/* The 32 lowercase hex digits of DIGEST, NUL-terminated. */
void format_hex(char hex[2 * MD5_DIGEST_SIZE + 1], const unsigned char digest[MD5_DIGEST_SIZE]);

/* The value of the hex digit C (either case), or -1. */
int hex_value(char c);

/* Do the 32 hex digits at HEX (valid already, either case) spell DIGEST? */
int hex_matches(const char *hex, const unsigned char digest[MD5_DIGEST_SIZE]);

/* True when NAME holds a backslash, LF or CR: GNU then escapes the name and
 * starts the line with a backslash. */
int name_has_escapable(const char *name);

/* GNU's escaping of the LEN bytes at NAME into DST: '\\' -> "\\\\", LF -> "\\n",
 * CR -> "\\r", every other byte (NUL included) as it is.  DST needs room for
 * 2 * LEN bytes; no NUL is added.  Returns the bytes written. */
size_t escape_name(char *dst, const char *name, size_t len);

/* Undo name escaping in place over the LEN bytes at S (\\ -> \, \n -> LF,
 * \r -> CR).  A result shorter than LEN is NUL-terminated here; one of LEN
 * bytes (nothing was escaped) relies on the caller's S[LEN] being NUL, as in
 * GNU's filename_unescape.  Returns 0 if S is not validly escaped: a
 * backslash before anything else or at the end, or a NUL byte. */
int unescape_name(char *s, size_t len);

#endif
