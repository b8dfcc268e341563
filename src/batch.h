/* Hashing a batch of whole messages at once, in SIMD lanes where that pays. */
#ifndef MD5SUM_BATCH_H
#define MD5SUM_BATCH_H

#include <stddef.h>

#include "md5.h"

struct message {
    unsigned char *data;   /* any alignment; MD5_PAD_MAX writable bytes follow */
    size_t len;
    unsigned char digest[MD5_DIGEST_SIZE];   /* out */
};

/* Set the digest of each of the N messages M[0..N-1]; the same digests md5.c
 * gives, whatever the lane kernels this CPU offers.  The padding is written
 * after each message, so that the lanes hash it too, and LEN grows by it. */
void hash_messages(struct message *m, size_t n);

#endif
