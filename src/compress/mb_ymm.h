/* What the AVX2 and AVX-512 lane kernels share: 8 lanes per ymm register,
 * the transposition of the message words, and the per-set macros of the
 * block loop (mb_loop.h).  Included by each kernel file after it defines
 * INLINE with its own target attribute; the file then adds EACH, MAX_SETS
 * and the round macros, and includes mb_loop.h.  mb_zmm.h adds the zmm
 * twins of the per-set macros and uses the transposition here.
 *
 * The words of a block are transposed one block ahead, into memory: while
 * the steps of block N run, their round macros call AHEAD every few steps,
 * each time transposing a quarter of block N + 1 for 8 lanes (16-byte loads,
 * two of them a row, then a 4x4 transpose of unpacks in each 128-bit half;
 * vpgatherdd is slower on every core we know).  So the shuffles share the
 * vector pipes with the steps instead of queueing behind one another at
 * each block's start.  Each step reads its word from memory (the operand of
 * an add), so the words take no registers, nor does the feed-forward copy
 * of the state, and the round constant is broadcast from memory, one load a
 * step for every set.  On Zen 4, 32 lanes in four ymm sets: 0.285
 * cycles/byte transposing each block at its start with the words and the
 * copy in registers (gcc spilled them, and some of the state), 0.25 so.
 */
#ifndef MD5_MB_YMM_H
#define MD5_MB_YMM_H

#include <immintrin.h>

typedef __m256i vec;
#define VEC_LANES 8

INLINE vec vadd(vec x, vec y) { return _mm256_add_epi32(x, y); }

INLINE __m128i load128(const unsigned char *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* Words 4q..4q+3 of lanes p[0..7] into o[0], o[stride], o[2 * stride] and
 * o[3 * stride] (lane i in element i): rows [lane m | lane m+4] of 4 words,
 * then a 4x4 transpose inside each 128-bit half. */
INLINE void store_rows(__m256i *o, int stride, const unsigned char *const p[8], int q)
{
    vec r0 = _mm256_inserti128_si256(_mm256_castsi128_si256(load128(p[0] + 16 * q)), load128(p[4] + 16 * q), 1);
    vec r1 = _mm256_inserti128_si256(_mm256_castsi128_si256(load128(p[1] + 16 * q)), load128(p[5] + 16 * q), 1);
    vec r2 = _mm256_inserti128_si256(_mm256_castsi128_si256(load128(p[2] + 16 * q)), load128(p[6] + 16 * q), 1);
    vec r3 = _mm256_inserti128_si256(_mm256_castsi128_si256(load128(p[3] + 16 * q)), load128(p[7] + 16 * q), 1);
    vec t0 = _mm256_unpacklo_epi32(r0, r1), t1 = _mm256_unpackhi_epi32(r0, r1);
    vec t2 = _mm256_unpacklo_epi32(r2, r3), t3 = _mm256_unpackhi_epi32(r2, r3);

    _mm256_store_si256(o, _mm256_unpacklo_epi64(t0, t2));
    _mm256_store_si256(o + stride, _mm256_unpackhi_epi64(t0, t2));
    _mm256_store_si256(o + 2 * stride, _mm256_unpacklo_epi64(t1, t3));
    _mm256_store_si256(o + 3 * stride, _mm256_unpackhi_epi64(t1, t3));
}

/* Job JOB of the 4 * GROUPS * SETS that transpose a block for SETS sets of
 * GROUPS * 8 lanes (a zmm word is GROUPS = 2 ymm halves), into W: word k of
 * set j, lanes 8g..8g+7, is the ymm at (16 * j + k) * GROUPS + g.  The sets
 * take turns, so each set's quarters are spread over the block. */
INLINE void ahead_job(__m256i *w, const unsigned char *const *p, int groups, int sets, int job)
{
    int j = job % sets, g = job / sets % groups, q = job / sets / groups;

    store_rows(w + (16 * j + 4 * q) * groups + g, groups, p + 8 * (groups * j + g), q);
}

#define AHEAD_JOBS (4 * (VEC_LANES / 8) * SETS)
#define AHEAD_GAP (64 / AHEAD_JOBS)
/* The share of the next block's transposition that step ST does: a job
 * every AHEAD_GAP steps (ST is a constant once the steps are unrolled). */
#define AHEAD(st) do {                                                           \
        if ((st) % AHEAD_GAP == 0 && (st) / AHEAD_GAP < AHEAD_JOBS)             \
            ahead_job((__m256i *)(void *)wn, f.p, VEC_LANES / 8, SETS, (st) / AHEAD_GAP); \
    } while (0)
/* Block 0, before the loop. */
#define AHEAD_ALL(w) do {                                                        \
        int job_;                                                               \
        for (job_ = 0; job_ < AHEAD_JOBS; job_++)                               \
            ahead_job((__m256i *)(void *)(w), f.p, VEC_LANES / 8, SETS, job_);  \
    } while (0)
/* f.p moves to the next block of set J's lanes, or to the zero block after
 * the last: the steps transpose a block ahead, and must not read past the
 * lanes' blocks. */
#define AHEAD_STEP(j) do {                                                       \
        int i_;                                                                 \
        if (n > 1)                                                              \
            for (i_ = VEC_LANES * j; i_ < VEC_LANES * (j + 1); i_++)            \
                f.p[i_] += f.step[i_];                                          \
        else                                                                    \
            for (i_ = VEC_LANES * j; i_ < VEC_LANES * (j + 1); i_++)            \
                f.p[i_] = md5_mb_zero_block;                                    \
    } while (0)

/* Hides where a pointer points from the compiler, so that it keeps what is
 * read through it in memory, an operand of the add, instead of holding it
 * in registers (or folding the round constants into immediates). */
#define OPAQUE(p) __asm__("" : "+r"(p))

/* Per register set J, for mb_loop.h: wbuf holds two blocks of words, the one
 * being hashed (wc: word K of set J is wc[16 * J + K]) and the next (wn);
 * ff the feed-forward copy.  kp points at the round constants: KTABLE, the
 * kernel file's own, or md5_mb_k; st counts the steps. */
#define RUN_LOCALS vec wbuf[2][MAX_SETS * 16], ffbuf[MAX_SETS * 4];
#define LOAD(j, l) do {                                                          \
        a[j] = _mm256_loadu_si256((const vec *)(const void *)&l->state[0][8 * j]); \
        b[j] = _mm256_loadu_si256((const vec *)(const void *)&l->state[1][8 * j]); \
        c[j] = _mm256_loadu_si256((const vec *)(const void *)&l->state[2][8 * j]); \
        d[j] = _mm256_loadu_si256((const vec *)(const void *)&l->state[3][8 * j]); \
    } while (0)
#define STORE(j, l) do {                                                         \
        _mm256_storeu_si256((vec *)(void *)&l->state[0][8 * j], a[j]);          \
        _mm256_storeu_si256((vec *)(void *)&l->state[1][8 * j], b[j]);          \
        _mm256_storeu_si256((vec *)(void *)&l->state[2][8 * j], c[j]);          \
        _mm256_storeu_si256((vec *)(void *)&l->state[3][8 * j], d[j]);          \
    } while (0)
#define FIRST_BLOCK(f) AHEAD_ALL(wbuf[0])
#define NEXT_BLOCK(j, f) do {                                                    \
        AHEAD_STEP(j);                                                          \
        ff[4 * j + 0] = a[j], ff[4 * j + 1] = b[j];                             \
        ff[4 * j + 2] = c[j], ff[4 * j + 3] = d[j];                             \
    } while (0)
#define ADD_BACK(j, unused) do {                                                 \
        a[j] = vadd(a[j], ff[4 * j + 0]), b[j] = vadd(b[j], ff[4 * j + 1]);     \
        c[j] = vadd(c[j], ff[4 * j + 2]), d[j] = vadd(d[j], ff[4 * j + 3]);     \
    } while (0)
#ifndef KTABLE
# define KTABLE md5_mb_k
#endif
#define BLOCK_LOCALS                                                             \
    const uint32_t *kp = KTABLE;                                                \
    const vec *wc = wbuf[(nblocks - n) & 1];                                    \
    vec *wn = wbuf[(nblocks - n + 1) & 1], *ff = ffbuf;                         \
    int st = 0;                                                                 \
    OPAQUE(kp);                                                                 \
    OPAQUE(wc);                                                                 \
    OPAQUE(wn);                                                                 \
    OPAQUE(ff);

#endif
