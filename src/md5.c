/* Buffering, padding, the bit count and the digest's byte order: once, here,
 * for every backend. */
#include "md5.h"

#include <string.h>

#include "compress/compress.h"

const uint32_t md5_iv[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};

void md5_init(struct md5_ctx *ctx)
{
    memcpy(ctx->state, md5_iv, sizeof ctx->state);
    ctx->length = 0;
}

void md5_update(struct md5_ctx *ctx, const void *data, size_t len)
{
    const unsigned char *p = data;
    size_t used = (size_t)(ctx->length % MD5_BLOCK_SIZE);

    ctx->length += len;
    if (used > 0) {
        size_t room = MD5_BLOCK_SIZE - used;
        if (len < room) {
            memcpy(ctx->block + used, p, len);
            return;
        }
        memcpy(ctx->block + used, p, room);
        md5_compress(ctx->state, ctx->block, 1);
        p += room;
        len -= room;
    }
    if (len >= MD5_BLOCK_SIZE) {
        md5_compress(ctx->state, p, len / MD5_BLOCK_SIZE);
        p += len - len % MD5_BLOCK_SIZE;
        len %= MD5_BLOCK_SIZE;
    }
    if (len > 0)
        memcpy(ctx->block, p, len);
}

static void store_le32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

size_t md5_pad(unsigned char *p, uint64_t len)
{
    uint64_t bits = len << 3;
    size_t used = (size_t)(len % MD5_BLOCK_SIZE);
    size_t zeros = (used < 56 ? 55 : 119) - used;

    p[0] = 0x80;
    memset(p + 1, 0, zeros);
    store_le32(p + 1 + zeros, (uint32_t)bits);
    store_le32(p + 5 + zeros, (uint32_t)(bits >> 32));
    return zeros + 9;
}

void md5_state_digest(const uint32_t state[4], unsigned char digest[MD5_DIGEST_SIZE])
{
    int i;

    for (i = 0; i < 4; i++)
        store_le32(digest + 4 * i, state[i]);
}

void md5_final(struct md5_ctx *ctx, unsigned char digest[MD5_DIGEST_SIZE])
{
    unsigned char pad[MD5_PAD_MAX];

    md5_update(ctx, pad, md5_pad(pad, ctx->length));
    md5_state_digest(ctx->state, digest);
}

const char *md5_core_name(void)
{
    return MD5_CORE_NAME;
}
