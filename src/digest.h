/* Reading a file or standard input and hashing it.  All input goes through
 * one large aligned buffer, allocated once and reused for every file. */
#ifndef MD5SUM_DIGEST_H
#define MD5SUM_DIGEST_H

#include "md5.h"

enum digest_result {
    DIGEST_OK = 0,
    DIGEST_OPEN_FAILED,   /* errno set; ENOENT matters to --ignore-missing */
    DIGEST_READ_FAILED    /* errno set */
};

/* Open NAME for reading; "-" is standard input.  Returns the descriptor, or
 * -1 with errno set.  Never returns 1 or 2, nor 0 for a named file. */
int input_open(const char *name);

/* Close a descriptor from input_open; standard input stays open until exit.
 * Returns 0, or -1 with errno set. */
int input_close(int fd);

/* Hash the file NAME, or standard input when NAME is "-", into DIGEST. */
enum digest_result digest_file(const char *name, unsigned char digest[MD5_DIGEST_SIZE]);

/* True once standard input has been read (it must then be closed at exit). */
int digest_used_stdin(void);

#endif
