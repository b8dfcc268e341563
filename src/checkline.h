/* Parsing one line of a checksum list, by GNU md5sum 9.1's grammar:
 *   [blanks][\]HEX32<blank>[ |*]NAME     untagged (GNU or reversed layout)
 *   [blanks][\]MD5[ ](NAME)[blanks]=[blanks]HEX32      tagged (BSD, OpenSSL)
 * A leading backslash means NAME is escaped (\\, \n, \r). */
#ifndef MD5SUM_CHECKLINE_H
#define MD5SUM_CHECKLINE_H

#include <stddef.h>

/* Which untagged layout the run has committed to.  The first untagged line
 * decides, for every later line of every later list (GNU's rule: a list
 * cannot mix "HEX  NAME" and "HEX NAME"). */
enum layout { LAYOUT_UNDECIDED, LAYOUT_GNU, LAYOUT_REVERSED };

struct check_line {
    const char *hex;    /* 32 hex digits, either case */
    const char *name;   /* NUL-terminated: it ends at the first NUL */
};

/* Parse the LEN bytes at S (line ending already removed; S[LEN] must be
 * writable).  S is modified in place.  Returns 1 and fills OUT for a
 * well-formed line, 0 for an improperly formatted one.  Updates *LAYOUT. */
int parse_check_line(char *s, size_t len, struct check_line *out, enum layout *layout);

#endif
