/* What the AVX2 and AVX-512 lane kernels share: 8 lanes per ymm register,
 * message words transposed in registers (16-byte loads, then unpacks;
 * vpgatherdd is slower on every core we know), and the per-set macros of the
 * block loop (mb_loop.h).  Included by each kernel file after it defines
 * INLINE with its own target attribute; the file then adds EACH, MAX_SETS
 * and the round macros, and includes mb_loop.h. */
#ifndef MD5_MB_YMM_H
#define MD5_MB_YMM_H

#include <immintrin.h>

typedef __m256i vec;
#define VEC_LANES 8

INLINE vec vadd(vec x, vec y) { return _mm256_add_epi32(x, y); }
INLINE vec k32(uint32_t k) { return _mm256_set1_epi32((int)k); }

INLINE __m128i load128(const unsigned char *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* Words 4q..4q+3 of lanes p[0..7] into w[4q..4q+3] (lane i in element i):
 * rows [lane m | lane m+4] of 4 words, then a 4x4 transpose inside each
 * 128-bit half. */
INLINE void load_quarter(vec w[16], const unsigned char *const p[8], int q)
{
    vec r0 = _mm256_inserti128_si256(_mm256_castsi128_si256(load128(p[0] + 16 * q)), load128(p[4] + 16 * q), 1);
    vec r1 = _mm256_inserti128_si256(_mm256_castsi128_si256(load128(p[1] + 16 * q)), load128(p[5] + 16 * q), 1);
    vec r2 = _mm256_inserti128_si256(_mm256_castsi128_si256(load128(p[2] + 16 * q)), load128(p[6] + 16 * q), 1);
    vec r3 = _mm256_inserti128_si256(_mm256_castsi128_si256(load128(p[3] + 16 * q)), load128(p[7] + 16 * q), 1);
    vec t0 = _mm256_unpacklo_epi32(r0, r1), t1 = _mm256_unpackhi_epi32(r0, r1);
    vec t2 = _mm256_unpacklo_epi32(r2, r3), t3 = _mm256_unpackhi_epi32(r2, r3);

    w[4 * q + 0] = _mm256_unpacklo_epi64(t0, t2);
    w[4 * q + 1] = _mm256_unpackhi_epi64(t0, t2);
    w[4 * q + 2] = _mm256_unpacklo_epi64(t1, t3);
    w[4 * q + 3] = _mm256_unpackhi_epi64(t1, t3);
}

/* The next block of lanes p[0..7], then step each pointer on. */
INLINE void next_block(vec w[16], const unsigned char *p[8], const size_t step[8])
{
    int i;

    load_quarter(w, p, 0);
    load_quarter(w, p, 1);
    load_quarter(w, p, 2);
    load_quarter(w, p, 3);
    for (i = 0; i < 8; i++)
        p[i] += step[i];
}

/* Per register set J, for mb_loop.h: state in and out of the lanes, the next
 * block's words, the feed-forward at the end of a block.  The round
 * constants are immediates (k32), so a block declares nothing. */
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
#define NEXT_BLOCK(j, f) do {                                                    \
        next_block(w[j], f.p + 8 * j, f.step + 8 * j);                          \
        a0[j] = a[j], b0[j] = b[j], c0[j] = c[j], d0[j] = d[j];                 \
    } while (0)
#define ADD_BACK(j, unused) do {                                                 \
        a[j] = vadd(a[j], a0[j]), b[j] = vadd(b[j], b0[j]);                     \
        c[j] = vadd(c[j], c0[j]), d[j] = vadd(d[j], d0[j]);                     \
    } while (0)
#define BLOCK_LOCALS

#endif
