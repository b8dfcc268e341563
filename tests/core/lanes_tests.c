/* The lane scheduler (src/lanes.c) against md5.c.  Messages of mixed
 * lengths are fed to lanes in chunks of random sizes, some tasks idle
 * (waiting, no blocks) for random rounds and come back, lanes are refilled
 * as tasks end, and the set is capped at every width from 1 to the widest
 * kernel's: kernels narrow and widen, lanes are swapped around, and each
 * digest must still be what md5.c gives for the whole message. */
#include <stdlib.h>
#include <string.h>

#include "../../src/lanes.h"
#include "../../src/md5.h"
#include "testlib.h"

#define MSGS 96
#define MAX_LEN 20000

struct msg {
    struct lane_task t;      /* first: lanes hand back &t */
    const unsigned char *data;
    size_t blocks, sent;     /* padded length in blocks, blocks fed so far */
    int waiting;             /* rounds to idle before the next chunk */
    unsigned char want[MD5_DIGEST_SIZE];
    int done, right;
};

/* The next chunk of M: 1 to all of its remaining blocks. */
static void next_chunk(struct lanes *s, struct msg *m, uint64_t *seed)
{
    size_t left = m->blocks - m->sent, n = 1 + (size_t)(xorshift(seed) % left);

    if (xorshift(seed) % 3 == 0)
        n = left;
    lanes_feed(s, &m->t, m->data + MD5_BLOCK_SIZE * m->sent, n, m->blocks - m->sent - n);
    m->sent += n;
}

/* Hash every message through lanes capped at CAP, the blocks of those not
 * yet in a lane queued; returns the wrong ones, and adds the rounds run
 * narrower than their busy lanes to *HELD_BACK. */
static size_t run(struct msg *m, size_t n, unsigned cap, uint64_t *seed, uint64_t *held_back)
{
    struct lanes s;
    struct lane_task *ended[MD5_MB_MAX_LANES];
    size_t next = 0, finished = 0, wrong = 0, i;
    uint64_t queued = 0, hashed, offered, held;

    lanes_init(&s, cap);
    for (i = 0; i < n; i++)
        queued += m[i].blocks;
    while (finished < n) {
        unsigned e, k;

        while (next < n && lanes_free(&s) > 0) {
            queued -= m[next].blocks;
            lanes_add(&s, &m[next].t, md5_iv);
            lanes_feed(&s, &m[next].t, NULL, 0, m[next].blocks);   /* waits */
            m[next].waiting = (int)(xorshift(seed) % 3);
            next++;
        }
        lanes_expect(&s, queued);
        /* Idle tasks come back after their rounds. */
        for (k = 0; k < s.used; k++) {
            struct msg *x = (struct msg *)(void *)s.task[k];
            if (x->t.blocks == 0 && x->waiting-- <= 0)
                next_chunk(&s, x, seed);
        }
        e = lanes_run(&s, ended);
        for (k = 0; k < e; k++) {
            struct msg *x = (struct msg *)(void *)ended[k];

            if (x->sent < x->blocks) {
                x->waiting = (int)(xorshift(seed) % 3) - 1;
                if (x->waiting < 0)
                    next_chunk(&s, x, seed);
            } else {
                uint32_t st[4];
                unsigned char got[MD5_DIGEST_SIZE];

                lanes_remove(&s, &x->t, st);
                md5_state_digest(st, got);
                x->done = 1;
                x->right = memcmp(got, x->want, MD5_DIGEST_SIZE) == 0;
                finished++;
            }
        }
    }
    for (i = 0; i < n; i++)
        wrong += !m[i].done || !m[i].right;
    lanes_take_counts(&s, &hashed, &offered, &held);
    *held_back += held;
    return wrong;
}

/* The narrowest kernel of the set md5_mb_pick chooses from. */
static const struct md5_mb_kernel *narrowest(void)
{
    const struct md5_mb_kernel *const *k = md5_mb_kernels(), *best = k[0];

    for (; *k; k++)
        if (strcmp((*k)->isa, best->isa) == 0 && (*k)->lanes < best->lanes)
            best = *k;
    return best;
}

/* Every lane of the widest kernel busy, one message LONG blocks long and
 * the others SHORT: one round, whose kernel width (offered blocks over the
 * round's) and held-back count must be WIDTH and HELD. */
static int one_round(size_t lng, size_t shrt, unsigned width, uint64_t held)
{
    static unsigned char zeros[64 * 64];
    static struct lane_task t[MD5_MB_MAX_LANES];
    struct lane_task *ended[MD5_MB_MAX_LANES];
    struct lanes s;
    unsigned i, w = md5_mb_kernels()[0]->lanes;

    lanes_init(&s, w);
    for (i = 0; i < w; i++) {
        lanes_add(&s, &t[i], md5_iv);
        lanes_feed(&s, &t[i], zeros, 1, (i == w / 2 ? lng : shrt) - 1);
    }
    (void)lanes_run(&s, ended);
    return s.offered == width && s.held_back == held && t[w / 2].blocks == 0;
}

void lanes_tests(const unsigned char *data, size_t len)
{
    static struct msg m[MSGS];
    unsigned char *copies = xmalloc(MSGS * (MAX_LEN + MD5_PAD_MAX + 16));
    uint64_t seed = 99, held_back = 0;
    unsigned cap, w = md5_mb_kernels()[0]->lanes, narrow = narrowest()->lanes;
    size_t wrong = 0, total = 0, j;

    for (cap = 1; cap <= MD5_MB_MAX_LANES; cap++) {
        size_t n = 1 + (size_t)(xorshift(&seed) % MSGS);

        for (j = 0; j < n; j++) {
            uint64_t r = xorshift(&seed);
            size_t max = r % 7 == 0 ? MAX_LEN : r % 7 == 1 ? 64 : 300;
            size_t mlen = (size_t)(xorshift(&seed) % (max + 1));
            unsigned char *p = copies + j * (MAX_LEN + MD5_PAD_MAX + 16) + r % 16;
            struct md5_ctx ctx;

            if (r % 11 == 0)
                mlen &= ~(size_t)63;   /* a whole number of blocks */
            /* A copy at any alignment, padded in place as the engine does. */
            memcpy(p, data + (size_t)(xorshift(&seed) % (len - mlen)), mlen);
            md5_init(&ctx);
            md5_update(&ctx, p, mlen);
            md5_final(&ctx, m[j].want);
            m[j].data = p;
            m[j].blocks = (mlen + md5_pad(p + mlen, mlen)) / MD5_BLOCK_SIZE;
            m[j].sent = 0;
            m[j].done = m[j].right = 0;
        }
        wrong += run(m, n, cap, &seed, &held_back);
        total += n;
    }
    free(copies);
    report(wrong == 0 && (held_back > 0 || narrow == w),
           "lanes: %zu messages in random chunks, idling and refilled, every cap from 1 to %d lanes, hash as md5.c does (%zu wrong; %ju rounds held lanes back)",
           total, MD5_MB_MAX_LANES, wrong, (uintmax_t)held_back);
    /* One message as long as all the others together at the narrowest
     * width: that kernel runs it, with the others it has room for.  Equal
     * lengths: the widest, every lane. */
    report(one_round((size_t)1000 * w, 2, narrow, narrow < w) && one_round(2, 2, w, 0),
           "lanes: a message that alone takes the rounds all take runs in the narrowest kernel (%u lanes of %u), equal ones in the widest",
           narrow, w);
}
