/* hash_messages (src/batch.c) against md5.c: batches of every size from 0 to
 * 80 messages, lengths mixing empty, sub-block, block-multiple and long, so
 * lanes retire at different times, kernels narrow as messages run out and
 * the scalar core finishes the stragglers. */
#include <stdlib.h>
#include <string.h>

#include "../../src/batch.h"
#include "../../src/md5.h"
#include "testlib.h"

void batch_tests(const unsigned char *data, size_t len)
{
    static struct message m[80];
    static unsigned char want[80][MD5_DIGEST_SIZE];
    unsigned char *copies = xmalloc(80 * (20000 + MD5_PAD_MAX + 16));
    uint64_t seed = 99;
    size_t n, j, wrong = 0, total = 0;

    for (n = 0; n <= 80; n++) {
        for (j = 0; j < n; j++) {
            uint64_t r = xorshift(&seed);
            size_t max = r % 7 == 0 ? 20000 : r % 7 == 1 ? 64 : 300;
            struct md5_ctx ctx;

            m[j].len = (size_t)(xorshift(&seed) % (max + 1));
            if (r % 11 == 0)
                m[j].len &= ~(size_t)63;   /* a whole number of blocks */
            /* A copy at any alignment, with room for the padding after it. */
            m[j].data = copies + j * (20000 + MD5_PAD_MAX + 16) + r % 16;
            memcpy(m[j].data, data + (size_t)(xorshift(&seed) % (len - m[j].len)), m[j].len);
            md5_init(&ctx);
            md5_update(&ctx, m[j].data, m[j].len);
            md5_final(&ctx, want[j]);
        }
        hash_messages(m, n);
        for (j = 0; j < n; j++) {
            wrong += memcmp(want[j], m[j].digest, MD5_DIGEST_SIZE) != 0;
            total++;
        }
    }
    free(copies);
    report(wrong == 0, "batches of 0-80 messages of mixed lengths hash as md5.c does (%zu of %zu wrong)",
           wrong, total);
}
