/* Private to the lane kernels: the lane bookkeeping every kernel shares
 * (idle lanes, pointer advance). */
#ifndef MD5_MB_IMPL_H
#define MD5_MB_IMPL_H

#include "mb.h"

/* An idle lane reads this zero block again and again, so a kernel never
 * tests for NULL inside its loop. */
extern const unsigned char md5_mb_zero_block[64];

/* The 64 round constants of MD5 in step order (md5_steps.h), for kernels
 * that broadcast them from memory. */
extern const uint32_t md5_mb_k[64];

/* What a kernel needs to undo for its idle lanes, and where each lane reads. */
struct mb_frame {
    const unsigned char *p[MD5_MB_MAX_LANES];
    size_t step[MD5_MB_MAX_LANES];             /* 64, or 0 for an idle lane */
    uint32_t saved[4][MD5_MB_MAX_LANES];       /* idle lanes' state */
};

static inline void mb_begin(struct mb_frame *f, const struct md5_mb_lanes *l, unsigned lanes)
{
    unsigned i, w;

    for (i = 0; i < lanes; i++) {
        f->p[i] = l->in[i] ? l->in[i] : md5_mb_zero_block;
        f->step[i] = l->in[i] ? 64 : 0;
        for (w = 0; w < 4; w++)
            f->saved[w][i] = l->state[w][i];
    }
}

/* Restore idle lanes (the kernel hashed zeros into them) and advance the
 * busy lanes' pointers past the blocks absorbed. */
static inline void mb_end(const struct mb_frame *f, struct md5_mb_lanes *l, unsigned lanes,
                          size_t nblocks)
{
    unsigned i, w;

    for (i = 0; i < lanes; i++) {
        if (l->in[i])
            l->in[i] += 64 * nblocks;
        else
            for (w = 0; w < 4; w++)
                l->state[w][i] = f->saved[w][i];
    }
}

/* X(j, ...) for each register set j < SETS, for kernels of up to two, three,
 * four or six sets (each indexes only arrays of its MAX_SETS); SETS is a
 * constant after inlining. */
#define EACH2(X, ...) do {                                                      \
        X(0, __VA_ARGS__);                                                      \
        if (SETS > 1) X(1, __VA_ARGS__);                                        \
    } while (0)
#define EACH3(X, ...) do {                                                      \
        EACH2(X, __VA_ARGS__);                                                  \
        if (SETS > 2) X(2, __VA_ARGS__);                                        \
    } while (0)
#define EACH4(X, ...) do {                                                      \
        EACH3(X, __VA_ARGS__);                                                  \
        if (SETS > 3) X(3, __VA_ARGS__);                                        \
    } while (0)
#define EACH6(X, ...) do {                                                      \
        EACH4(X, __VA_ARGS__);                                                  \
        if (SETS > 4) X(4, __VA_ARGS__);                                        \
        if (SETS > 5) X(5, __VA_ARGS__);                                        \
    } while (0)

#endif
