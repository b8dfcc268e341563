/* What the zmm lane kernels need for the block loop (mb_loop.h): 16 lanes
 * per zmm register, message words transposed in registers, and the per-set
 * macros.  The zmm twin of mb_ymm.h, with its own names (zvec, zadd, ...)
 * so that one file can hold both: mb_avx512.c includes it after its ymm
 * kernels, with INLINE still defined, then adds EACH, MAX_SETS and the round
 * macros and includes mb_loop.h again under RUN and VEC.
 *
 * The transpose: 16-byte loads inserted four to a register, then unpacks
 * inside each 128-bit lane, 80 shuffles a block for 16 lanes.  On Zen 5,
 * 32 lanes: 0.28 cycles/byte this way; 0.29 from 64-byte loads and a 16x16
 * transpose of unpacks and vshufi32x4 (64 shuffles, but slower ones); 0.50
 * with vpgatherqd; 0.26 with no message loads at all, the bound.  Loading
 * the next block a whole block early gained nothing.
 */
#ifndef MD5_MB_ZMM_H
#define MD5_MB_ZMM_H

#include <immintrin.h>

typedef __m512i zvec;
#define VEC zvec
#define VEC_LANES 16

INLINE zvec zadd(zvec x, zvec y) { return _mm512_add_epi32(x, y); }
INLINE zvec zk32(uint32_t k) { return _mm512_set1_epi32((int)k); }

INLINE __m128i zload128(const unsigned char *p)
{
    return _mm_loadu_si128((const __m128i *)(const void *)p);
}

/* Row m of quarter q: words 4q..4q+3 of lanes m, m+4, m+8, m+12 in the
 * register's four 128-bit lanes. */
INLINE zvec zrow(const unsigned char *const p[16], int m, int q)
{
    zvec r = _mm512_castsi128_si512(zload128(p[m] + 16 * q));

    r = _mm512_inserti32x4(r, zload128(p[m + 4] + 16 * q), 1);
    r = _mm512_inserti32x4(r, zload128(p[m + 8] + 16 * q), 2);
    return _mm512_inserti32x4(r, zload128(p[m + 12] + 16 * q), 3);
}

/* Words 4q..4q+3 of lanes p[0..15] into w[4q..4q+3] (lane i in element i):
 * four rows, then a 4x4 transpose inside each 128-bit lane. */
INLINE void zload_quarter(zvec w[16], const unsigned char *const p[16], int q)
{
    zvec r0 = zrow(p, 0, q), r1 = zrow(p, 1, q), r2 = zrow(p, 2, q), r3 = zrow(p, 3, q);
    zvec t0 = _mm512_unpacklo_epi32(r0, r1), t1 = _mm512_unpackhi_epi32(r0, r1);
    zvec t2 = _mm512_unpacklo_epi32(r2, r3), t3 = _mm512_unpackhi_epi32(r2, r3);

    w[4 * q + 0] = _mm512_unpacklo_epi64(t0, t2);
    w[4 * q + 1] = _mm512_unpackhi_epi64(t0, t2);
    w[4 * q + 2] = _mm512_unpacklo_epi64(t1, t3);
    w[4 * q + 3] = _mm512_unpackhi_epi64(t1, t3);
}

/* The next block of lanes p[0..15], then step each pointer on. */
INLINE void znext_block(zvec w[16], const unsigned char *p[16], const size_t step[16])
{
    int i;

    zload_quarter(w, p, 0);
    zload_quarter(w, p, 1);
    zload_quarter(w, p, 2);
    zload_quarter(w, p, 3);
    for (i = 0; i < 16; i++)
        p[i] += step[i];
}

/* Per register set J, for mb_loop.h, as in mb_ymm.h. */
#define LOAD(j, l) do {                                                          \
        a[j] = _mm512_loadu_si512((const void *)&l->state[0][16 * j]);          \
        b[j] = _mm512_loadu_si512((const void *)&l->state[1][16 * j]);          \
        c[j] = _mm512_loadu_si512((const void *)&l->state[2][16 * j]);          \
        d[j] = _mm512_loadu_si512((const void *)&l->state[3][16 * j]);          \
    } while (0)
#define STORE(j, l) do {                                                         \
        _mm512_storeu_si512((void *)&l->state[0][16 * j], a[j]);                \
        _mm512_storeu_si512((void *)&l->state[1][16 * j], b[j]);                \
        _mm512_storeu_si512((void *)&l->state[2][16 * j], c[j]);                \
        _mm512_storeu_si512((void *)&l->state[3][16 * j], d[j]);                \
    } while (0)
#define NEXT_BLOCK(j, f) do {                                                    \
        znext_block(w[j], f.p + 16 * j, f.step + 16 * j);                       \
        a0[j] = a[j], b0[j] = b[j], c0[j] = c[j], d0[j] = d[j];                 \
    } while (0)
#define ADD_BACK(j, unused) do {                                                 \
        a[j] = zadd(a[j], a0[j]), b[j] = zadd(b[j], b0[j]);                     \
        c[j] = zadd(c[j], c0[j]), d[j] = zadd(d[j], d0[j]);                     \
    } while (0)
#define BLOCK_LOCALS

#endif
