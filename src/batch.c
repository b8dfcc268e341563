/* Hashing many whole messages side by side in SIMD lanes.
 *
 * Each message is padded in place first, so it is whole blocks only and its
 * lane's final state is its digest.  Every busy lane runs the same number of
 * blocks per kernel call, so each call runs as many blocks as the shortest
 * busy lane has left; the lane that ends is retired and refilled with the
 * next message.  As messages run out, the narrowest kernel that still has a lane
 * for each takes over, and below its break-even point the scalar core
 * finishes the stragglers.
 */
#include "batch.h"

#include "compress/compress.h"
#include "compress/mb.h"
#include "md5.h"

struct lane_set {
    struct md5_mb_lanes l;
    size_t msg[MD5_MB_MAX_LANES];    /* message in each lane */
    size_t left[MD5_MB_MAX_LANES];   /* whole blocks it still has to run */
    unsigned busy;                   /* lanes 0 .. busy-1 are busy */
};

/* Retire lane I: finish its message and move the last busy lane into its
 * place, so the busy lanes stay 0 .. busy-1 for any kernel width. */
static void retire(struct lane_set *s, unsigned i, struct message *m)
{
    uint32_t st[4];
    unsigned last = --s->busy;

    md5_mb_get_lane(&s->l, i, st);
    md5_state_digest(st, m[s->msg[i]].digest);
    if (i != last) {
        md5_mb_get_lane(&s->l, last, st);
        md5_mb_set_lane(&s->l, i, st);
        s->l.in[i] = s->l.in[last];
        s->msg[i] = s->msg[last];
        s->left[i] = s->left[last];
    }
    s->l.in[last] = NULL;
}

/* Put message J into the next free lane. */
static void start(struct lane_set *s, struct message *m, size_t j)
{
    unsigned i = s->busy++;

    md5_mb_set_lane(&s->l, i, md5_iv);
    s->l.in[i] = m[j].data;
    s->msg[i] = j;
    s->left[i] = m[j].len / MD5_BLOCK_SIZE;
}

void hash_messages(struct message *m, size_t n)
{
    static struct lane_set s;   /* large; one batch at a time */
    size_t next = 0, j;
    unsigned i;

    /* From here on, m[j].len counts the padding: a whole number of blocks. */
    for (j = 0; j < n; j++)
        m[j].len += md5_pad(m[j].data + m[j].len, m[j].len);
    s.busy = 0;
    for (i = 0; i < MD5_MB_MAX_LANES; i++)
        s.l.in[i] = NULL;

    for (;;) {
        size_t want = s.busy + (n - next), run;
        const struct md5_mb_kernel *k =
            md5_mb_pick(want > MD5_MB_MAX_LANES ? MD5_MB_MAX_LANES : (unsigned)want);

        if (want == 0)
            return;
        if (k->lanes == 1)
            break;   /* too few messages left for SIMD to pay */
        while (s.busy < k->lanes && next < n)
            start(&s, m, next++);
        run = s.left[0];
        for (i = 1; i < s.busy; i++)
            if (s.left[i] < run)
                run = s.left[i];
        k->run(&s.l, run);
        for (i = s.busy; i-- > 0;) {
            s.left[i] -= run;
            if (s.left[i] == 0)
                retire(&s, i, m);
        }
    }

    /* The scalar core finishes the lanes still busy, then the messages not
     * started (on a target without SIMD kernels, all of them). */
    while (s.busy > 0) {
        uint32_t st[4];
        i = s.busy - 1;
        md5_mb_get_lane(&s.l, i, st);
        md5_compress(st, s.l.in[i], s.left[i]);
        md5_mb_set_lane(&s.l, i, st);
        retire(&s, i, m);
    }
    for (; next < n; next++) {
        uint32_t st[4] = {md5_iv[0], md5_iv[1], md5_iv[2], md5_iv[3]};
        md5_compress(st, m[next].data, m[next].len / MD5_BLOCK_SIZE);
        md5_state_digest(st, m[next].digest);
    }
}
