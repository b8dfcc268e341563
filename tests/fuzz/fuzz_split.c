/* Fuzz target: md5_update split invariance, and every block function and
 * lane kernel this host runs, against each other.
 *
 * Input: one byte N, N control bytes, then the message.  The control bytes
 * (used in turn, over and over) choose piece sizes, lane offsets, idle lanes
 * and how many blocks each kernel call takes.  The reference is md5.c over
 * the message in one piece; each of these must give the same digest:
 *   - md5.c over the message in pieces, each piece in its own buffer that
 *     ends exactly where the piece does, at offsets 0..15;
 *   - every block function (portable, the textbook RFC 1321 one from
 *     tests/ref, aarch64 where built) with the padding done here, so
 *     neither md5.c nor the tuned core is its own oracle;
 *   - every lane kernel of md5_mb_kernels(): lane L hashes the message from
 *     byte L * STRIDE on (STRIDE 0: every lane the same message), some lanes
 *     idle, some refilled with a second message when they finish, each call
 *     taking 1..(fewest blocks left) blocks.  Each lane's digest must be
 *     md5.c's for its message; idle lanes and lanes past the kernel's width
 *     must keep their state and pointer.
 *   - the lane scheduler (src/lanes.c, the engine's): up to 40 messages cut
 *     from the message at control-chosen starts and lengths, padded in
 *     place (each with exactly MD5_PAD_MAX bytes of room after it), fed to
 *     lanes capped at a control-chosen width in chunks of control-chosen
 *     sizes, some idling for a round between chunks.
 * Every message copy ends at the end of its allocation, so ASan sees any
 * read past a lane's or a piece's last byte.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ref/md5_rfc1321.h"
#include "../../src/compress/compress.h"
#include "../../src/compress/mb.h"
#include "../../src/lanes.h"
#include "../../src/md5.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What is being checked, for the report: "split", a block function or a
 * lane kernel's name. */
static const char *stage = "";

#define REQUIRE(cond)                                                          \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "fuzz_split: %s: %s:%d: %s\n", stage, __FILE__, \
                    __LINE__, #cond);                                          \
            abort();                                                           \
        }                                                                      \
    } while (0)

static const struct {
    const char *name;
    md5_compress_fn *fn;
} block_functions[] = {
    {"portable", md5_compress_portable},
    {"rfc1321", md5_compress_rfc1321},
#if MD5_AARCH64_BUILT
    {"aarch64", md5_compress_aarch64},
#endif
};

struct ctl {
    const uint8_t *p;
    size_t n, i;
};

static unsigned next(struct ctl *c)
{
    return c->n ? c->p[c->i++ % c->n] : 255;
}

/* A copy of N bytes at offset OFF of a fresh allocation that ends with them. */
static unsigned char *copy_at_end(const unsigned char *p, size_t n, size_t off, unsigned char **block)
{
    *block = malloc(off + n + 1);
    REQUIRE(*block != NULL);
    memcpy(*block + 1 + off, p, n);
    return *block + 1 + off;
}

static void md5_of(const unsigned char *p, size_t n, unsigned char out[MD5_DIGEST_SIZE])
{
    struct md5_ctx ctx;

    md5_init(&ctx);
    md5_update(&ctx, p, n);
    md5_final(&ctx, out);
}

static void split_updates(const unsigned char *msg, size_t len, struct ctl *c,
                          const unsigned char want[MD5_DIGEST_SIZE])
{
    unsigned char got[MD5_DIGEST_SIZE];
    struct md5_ctx ctx;
    size_t pos = 0, pieces = 0;

    md5_init(&ctx);
    while (pos < len) {
        /* 0..127 bytes, or whole blocks (plus one byte when odd) up to 8 KiB. */
        unsigned b = next(c);
        size_t n = b < 128 ? b : (b - 128) * 64 + (b & 1);
        unsigned char *block, *piece;

        if (n == 0) {   /* an empty update, then at least one byte */
            piece = copy_at_end(msg + pos, 0, pieces++ % 16, &block);
            md5_update(&ctx, piece, 0);
            free(block);
            n = 1;
        }
        if (n > len - pos)
            n = len - pos;
        piece = copy_at_end(msg + pos, n, pieces++ % 16, &block);
        md5_update(&ctx, piece, n);
        free(block);
        pos += n;
    }
    md5_final(&ctx, got);
    REQUIRE(memcmp(got, want, MD5_DIGEST_SIZE) == 0);
}

/* MD5 with FN for the blocks and this file's own padding. */
static void block_function(md5_compress_fn *fn, const unsigned char *msg, size_t len,
                           const unsigned char want[MD5_DIGEST_SIZE])
{
    uint32_t st[4];
    unsigned char pad[128], got[MD5_DIGEST_SIZE], *block;
    size_t tail = len % 64, padded = tail < 56 ? 64 : 128, i;
    const unsigned char *copy = copy_at_end(msg, len, 0, &block);
    uint64_t bits = (uint64_t)len * 8;

    memcpy(st, md5_iv, sizeof st);
    fn(st, copy, len / 64);
    memset(pad, 0, sizeof pad);
    memcpy(pad, copy + len - tail, tail);
    pad[tail] = 0x80;
    for (i = 0; i < 8; i++)
        pad[padded - 8 + i] = (unsigned char)(bits >> (8 * i));
    fn(st, pad, padded / 64);
    for (i = 0; i < MD5_DIGEST_SIZE; i++)
        got[i] = (unsigned char)(st[i / 4] >> (8 * (i % 4)));
    free(block);
    REQUIRE(memcmp(got, want, MD5_DIGEST_SIZE) == 0);
}

/* One lane's current message. */
struct lane {
    unsigned char *block;          /* the allocation holding the copy */
    const unsigned char *msg;
    size_t len, left;              /* bytes; whole blocks not yet absorbed */
    int busy;
    unsigned messages;             /* started so far (at most 2) */
    uint32_t kept[4];              /* the state an idle lane must keep */
};

static void lane_start(struct md5_mb_lanes *l, struct lane *ln, unsigned i, const unsigned char *msg,
                       size_t len, size_t off)
{
    if (off > len)
        off = len;
    ln->msg = copy_at_end(msg + off, len - off, 0, &ln->block);
    ln->len = len - off;
    ln->left = ln->len / 64;
    ln->busy = 1;
    ln->messages++;
    md5_mb_set_lane(l, i, md5_iv);
    l->in[i] = ln->msg;
}

/* The lane's whole blocks are in its state: finish with md5.c and compare. */
static void lane_finish(struct md5_mb_lanes *l, struct lane *ln, unsigned i)
{
    unsigned char got[MD5_DIGEST_SIZE], want[MD5_DIGEST_SIZE];
    size_t whole = ln->len - ln->len % 64;
    struct md5_ctx ctx;

    md5_mb_get_lane(l, i, ctx.state);
    ctx.length = whole;
    md5_update(&ctx, ln->msg + whole, ln->len - whole);
    md5_final(&ctx, got);
    md5_of(ln->msg, ln->len, want);
    REQUIRE(memcmp(got, want, MD5_DIGEST_SIZE) == 0);
    free(ln->block);
    ln->busy = 0;
    l->in[i] = NULL;
    md5_mb_get_lane(l, i, ln->kept);
}

static void lane_kernel(const struct md5_mb_kernel *k, const unsigned char *msg, size_t len,
                        struct ctl *c)
{
    static struct lane lanes[MD5_MB_MAX_LANES];
    struct md5_mb_lanes l;
    size_t stride = next(c), outside_state_check;
    unsigned i, w;

    REQUIRE(k->lanes >= 1 && k->lanes <= MD5_MB_MAX_LANES);
    memset(lanes, 0, sizeof lanes);
    for (i = 0; i < MD5_MB_MAX_LANES; i++) {
        uint32_t sentinel[4] = {0xdead0000u + i, 0xbeef0000u + i, ~i, i};

        md5_mb_set_lane(&l, i, sentinel);
        memcpy(lanes[i].kept, sentinel, sizeof sentinel);
        /* Lanes past the width hold a pointer the kernel must not touch. */
        l.in[i] = i < k->lanes ? NULL : msg;
        if (i < k->lanes && next(c) % 8 != 0)
            lane_start(&l, &lanes[i], i, msg, len, i * stride);
    }
    for (;;) {
        size_t fewest = (size_t)-1, nb;

        for (i = 0; i < k->lanes; i++) {
            /* Retire finished lanes; maybe refill once with another message. */
            while (lanes[i].busy && lanes[i].left == 0) {
                lane_finish(&l, &lanes[i], i);
                if (lanes[i].messages < 2 && next(c) % 2 == 0)
                    lane_start(&l, &lanes[i], i, msg, len, (i * stride) / 2 + 1);
            }
            if (lanes[i].busy && lanes[i].left < fewest)
                fewest = lanes[i].left;
        }
        if (fewest == (size_t)-1)
            break;
        nb = 1 + next(c) % fewest;
        {
            const unsigned char *before[MD5_MB_MAX_LANES];

            memcpy(before, l.in, sizeof before);
            k->run(&l, nb);
            for (i = 0; i < MD5_MB_MAX_LANES; i++) {
                int busy = i < k->lanes && lanes[i].busy;

                REQUIRE(l.in[i] == (busy ? before[i] + 64 * nb : before[i]));
                if (busy)
                    lanes[i].left -= nb;
            }
        }
        outside_state_check = 0;
        for (i = 0; i < MD5_MB_MAX_LANES; i++)
            if (i >= k->lanes || !lanes[i].busy)
                for (w = 0; w < 4; w++)
                    outside_state_check += l.state[w][i] != lanes[i].kept[w];
        REQUIRE(outside_state_check == 0);
    }
}

struct piece {
    struct lane_task t;   /* first: the lanes hand back &t */
    unsigned char *mem;
    size_t blocks, sent;
    unsigned char want[MD5_DIGEST_SIZE];
};

/* Feed P its next chunk: 1 to all of its blocks left, or none this round. */
static void feed(struct lanes *s, struct piece *p, struct ctl *c)
{
    unsigned v = next(c);
    size_t left = p->blocks - p->sent, n = v % 4 == 0 ? 0 : 1 + v % left;

    lanes_feed(s, &p->t, p->mem + MD5_BLOCK_SIZE * p->sent, n, p->blocks - p->sent - n);
    p->sent += n;
}

/* Has some lane blocks to run?  (lanes_run does nothing otherwise.) */
static int any_running(const struct lanes *s)
{
    unsigned k;

    for (k = 0; k < s->used; k++)
        if (s->task[k]->blocks > 0)
            return 1;
    return 0;
}

/* Messages cut from MSG, through lanes.c in control-chosen chunks. */
static void scheduled(const unsigned char *msg, size_t len, struct ctl *c)
{
    struct piece m[40];
    struct lane_task *ended[MD5_MB_MAX_LANES];
    struct lanes s;
    size_t n = next(c) % 41, started = 0, finished = 0, j;
    unsigned k;

    for (j = 0; j < n; j++) {
        size_t start = len ? (next(c) * 257u + next(c)) % len : 0;
        size_t l = (next(c) * 131u + next(c)) % (len - start + 1);

        m[j].mem = malloc(l + MD5_PAD_MAX);
        REQUIRE(m[j].mem != NULL);
        memcpy(m[j].mem, msg + start, l);
        md5_of(m[j].mem, l, m[j].want);
        m[j].blocks = (l + md5_pad(m[j].mem + l, l)) / MD5_BLOCK_SIZE;
        m[j].sent = 0;
    }
    lanes_init(&s, 1 + next(c) % MD5_MB_MAX_LANES);
    while (finished < n) {
        while (started < n && lanes_free(&s) > 0)
            lanes_add(&s, &m[started++].t, md5_iv);
        /* An idle task may get a chunk now; one always does, so each round
         * has work. */
        for (k = 0; k < s.used; k++) {
            struct piece *p = (struct piece *)(void *)s.task[k];
            if (p->t.blocks == 0 && p->sent < p->blocks)
                feed(&s, p, c);
        }
        for (k = 0; !any_running(&s); k++) {
            struct piece *p = (struct piece *)(void *)s.task[k];
            if (p->sent < p->blocks)
                lanes_feed(&s, &p->t, p->mem + MD5_BLOCK_SIZE * p->sent, p->blocks - p->sent, 0),
                    p->sent = p->blocks;
        }
        for (k = lanes_run(&s, ended); k-- > 0;) {
            struct piece *p = (struct piece *)(void *)ended[k];
            uint32_t st[4];
            unsigned char got[MD5_DIGEST_SIZE];

            if (p->sent < p->blocks)
                continue;   /* fed again next round */
            lanes_remove(&s, &p->t, st);
            md5_state_digest(st, got);
            REQUIRE(memcmp(got, p->want, MD5_DIGEST_SIZE) == 0);
            free(p->mem);
            finished++;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char want[MD5_DIGEST_SIZE];
    const struct md5_mb_kernel *const *k;
    struct ctl c = {data + 1, 0, 0};
    const unsigned char *msg;
    size_t len, i;

    if (size == 0)
        return 0;
    c.n = data[0] < size - 1 ? data[0] : size - 1;
    msg = data + 1 + c.n;
    len = size - 1 - c.n;

    md5_of(msg, len, want);
    stage = "split";
    split_updates(msg, len, &c, want);
    for (i = 0; i < sizeof block_functions / sizeof block_functions[0]; i++) {
        stage = block_functions[i].name;
        block_function(block_functions[i].fn, msg, len, want);
    }
    for (k = md5_mb_kernels(); *k; k++) {
        stage = (*k)->name;
        lane_kernel(*k, msg, len, &c);
    }
    stage = "lanes";
    scheduled(msg, len, &c);
    return 0;
}
