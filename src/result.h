/* What the engine reports for each input, in submission order. */
#ifndef MD5SUM_RESULT_H
#define MD5SUM_RESULT_H

#include <stdint.h>

#include "md5.h"

enum result_status {
    RESULT_OK = 0,
    RESULT_OPEN_FAILED,   /* err set; ENOENT matters to --ignore-missing */
    RESULT_READ_FAILED    /* err set */
};

struct result {
    const char *name;        /* NULL for a mark (engine_mark) */
    enum result_status status;
    int err;                 /* errno when status is not RESULT_OK */
    unsigned char digest[MD5_DIGEST_SIZE];
    uintmax_t hashed;        /* its bytes read and hashed */
    const void *tag;         /* the caller's bytes given at submission */
};

#endif
