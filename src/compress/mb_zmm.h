/* What the zmm lane kernels need for the block loop (mb_loop.h): 16 lanes
 * per zmm register and the per-set macros, the zmm twins of mb_ymm.h's
 * under their own names (zvec, zadd, ...) so that one file can hold both.
 * mb_avx512.c includes it after its ymm kernels, with INLINE still defined,
 * then adds EACH, MAX_SETS and the round macros and includes mb_loop.h again
 * under RUN and VEC.
 *
 * The words are transposed a block ahead as in mb_ymm.h, with its code:
 * each half of the 16 lanes in ymm registers, stored as the low or high
 * halves of the zmm words.  Zen 4 runs a 128-bit insert into a zmm at one a
 * cycle, into a ymm at two, and a zmm unpack as two ymm ones: 32 lanes in
 * two zmm sets, 0.28 cycles/byte with zmm rows (two ymm inserts and one
 * 256-bit insert a row), 0.27 so.  Zen 5 (full-width zmm) measured 0.28
 * with 128-bit inserts into zmm rows at each block's start, 0.29 from
 * 64-byte loads and a 16x16 transpose through vshufi32x4, 0.50 with
 * vpgatherqd, 0.26 with no message loads at all (32 lanes); these halves
 * read 0.252 there (32 lanes, two sets, at their chains' bound) and 0.173
 * (48 lanes, three sets), 2026-12-03.
 */
#ifndef MD5_MB_ZMM_H
#define MD5_MB_ZMM_H

#ifndef MD5_MB_YMM_H
# error "mb_zmm.h: include mb_ymm.h first (its transposition, AHEAD and OPAQUE)"
#endif

typedef __m512i zvec;
#define VEC zvec
#define VEC_LANES 16

INLINE zvec zadd(zvec x, zvec y) { return _mm512_add_epi32(x, y); }

/* Per register set J, for mb_loop.h, as in mb_ymm.h. */
#define RUN_LOCALS zvec wbuf[2][MAX_SETS * 16], ffbuf[MAX_SETS * 4];
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
#define FIRST_BLOCK(f) AHEAD_ALL(wbuf[0])
#define NEXT_BLOCK(j, f) do {                                                    \
        AHEAD_STEP(j);                                                          \
        ff[4 * j + 0] = a[j], ff[4 * j + 1] = b[j];                             \
        ff[4 * j + 2] = c[j], ff[4 * j + 3] = d[j];                             \
    } while (0)
#define ADD_BACK(j, unused) do {                                                 \
        a[j] = zadd(a[j], ff[4 * j + 0]), b[j] = zadd(b[j], ff[4 * j + 1]);     \
        c[j] = zadd(c[j], ff[4 * j + 2]), d[j] = zadd(d[j], ff[4 * j + 3]);     \
    } while (0)
#define BLOCK_LOCALS                                                             \
    const uint32_t *kp = md5_mb_k;                                              \
    const zvec *wc = wbuf[(nblocks - n) & 1];                                   \
    zvec *wn = wbuf[(nblocks - n + 1) & 1], *ff = ffbuf;                        \
    int st = 0;                                                                 \
    OPAQUE(kp);                                                                 \
    OPAQUE(wc);                                                                 \
    OPAQUE(wn);                                                                 \
    OPAQUE(ff);

#endif
