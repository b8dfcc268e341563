/* MD5 message digest (RFC 1321): init / update / final over the block
 * function that compress.h selects for the target. */
#ifndef MD5_H
#define MD5_H

#include <stddef.h>
#include <stdint.h>

#define MD5_BLOCK_SIZE 64
#define MD5_DIGEST_SIZE 16
#define MD5_PAD_MAX 72       /* the longest padding: 0x80, 63 zeros, 8 length bytes */

struct md5_ctx {
    uint32_t state[4];
    uint64_t length;                     /* bytes absorbed so far, mod 2^64 */
    unsigned char block[MD5_BLOCK_SIZE]; /* pending bytes: length % 64 of them */
};

/* The initial state of RFC 1321 (A, B, C, D), for md5_init and the lanes. */
extern const uint32_t md5_iv[4];

/* Start a new message. */
void md5_init(struct md5_ctx *ctx);

/* Absorb LEN bytes at DATA (any alignment; LEN may be 0).  Makes at most two
 * block-function calls: one to finish a pending block, one for all the whole
 * blocks left, read straight from DATA. */
void md5_update(struct md5_ctx *ctx, const void *data, size_t len);

/* Pad, absorb the bit length and write the 16-byte digest.  CTX must be
 * initialised again before reuse. */
void md5_final(struct md5_ctx *ctx, unsigned char digest[MD5_DIGEST_SIZE]);

/* Write at P the padding that follows a message of LEN bytes (0x80, zeros,
 * the bit length): 9 to MD5_PAD_MAX bytes, returned.  The message and its
 * padding make a whole number of blocks, whose final state gives the digest. */
size_t md5_pad(unsigned char *p, uint64_t len);

/* The digest for the final STATE of a padded message. */
void md5_state_digest(const uint32_t state[4], unsigned char digest[MD5_DIGEST_SIZE]);

/* The name of the block function in use, for --version and the tests. */
const char *md5_core_name(void);

#endif
