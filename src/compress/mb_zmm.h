/* What the zmm lane kernels need for the block loop (mb_loop.h): 16 lanes
 * per zmm register and the per-set macros, the zmm twins of mb_ymm.h's
 * under their own names (zvec, zadd, ...) so that one file can hold both,
 * and the steps (ZSTEP, with the includer's PIN and vpternlogd tables TT_F
 * to TT_I), for up to three sets.  mb_avx512.c includes it after its ymm
 * kernels, with INLINE still defined, then includes mb_loop.h again under
 * RUN.  What the template #undefs is defined at each inclusion, so the file
 * may be included once for each of the two transpositions below:
 * ZMM_SQUARE defined picks the second.
 *
 * The words are transposed a block ahead, in one of two ways.  Halves (the
 * first): mb_ymm.h's code, each half of the 16 lanes in ymm registers,
 * stored as the low or high halves of the zmm words, 96 shuffles a set a
 * block spread over its steps.  Zen 4 runs a 128-bit insert into a zmm at
 * one a cycle, into a ymm at two, and a zmm unpack as two ymm ones: 32 lanes
 * in two zmm sets, 0.28 cycles/byte with zmm rows (two ymm inserts and one
 * 256-bit insert a row), 0.27 so.  Zen 5 (full-width zmm) measured 0.28
 * with 128-bit inserts into zmm rows at each block's start, 0.29 from
 * 64-byte loads and a 16x16 transpose through vshufi32x4, 0.50 with
 * vpgatherqd, 0.26 with no message loads at all (32 lanes); these halves
 * read 0.252 there (32 lanes, two sets, at their chains' bound) and 0.173
 * (48 lanes, three sets), 2026-12-03.
 *
 * Square (ZMM_SQUARE, for Intel): a set's 16 lanes loaded whole, 64 bytes
 * each, and transposed as a 16x16 square of words in zmm registers, 64
 * shuffles, all at one step of the set's share of the block.  Intel runs
 * 512-bit shuffles and steps on the same two ports, where six step ops and
 * the transposition's shuffles bound a block: 64 shuffles against 96 are
 * 0.219 cycles/byte against 0.234.  The Xeon of 2026-12-07 night (AVX-512
 * with Sapphire Rapids' features): 48 lanes 0.243 against 0.262 cycles/byte
 * (16,820 against 15,630 MB/s), 32 lanes 0.251 against 0.263; for one set
 * the square's burst delays its lone chain (16 lanes 0.90 of the halves'
 * speed), and no set should wait on a chain, so avx512zx16 keeps the
 * halves.  Zen 5 keeps them all (the 16x16 transpose measured slower there,
 * above).
 */
#ifndef MD5_MB_ZMM_H
#define MD5_MB_ZMM_H

#ifndef MD5_MB_YMM_H
# error "mb_zmm.h: include mb_ymm.h first (its transposition, AHEAD and OPAQUE)"
#endif

typedef __m512i zvec;

INLINE zvec zadd(zvec x, zvec y) { return _mm512_add_epi32(x, y); }

/* A step for set J, as mb_avx512.c's ymm STEP1; then, for every set, the
 * share of the next block's transposition. */
#define ZSTEP1(j, tt, a, b, c, d, k, s) do {                                     \
        zvec t_ = zadd(zadd(a[j], wc[16 * j + k]), k_);                         \
        PIN(t_);                                                                \
        t_ = zadd(t_, _mm512_ternarylogic_epi32(b[j], c[j], d[j], tt));         \
        a[j] = zadd(b[j], _mm512_rol_epi32(t_, s));                             \
    } while (0)
#define ZSTEP(tt, a, b, c, d, k, s) do {                                         \
        const zvec k_ = _mm512_set1_epi32((int)kp[st]);                         \
        EACH(ZSTEP1, tt, a, b, c, d, k, s);                                     \
        ZAHEAD(st);                                                             \
        st++;                                                                   \
    } while (0);

/* The square transposition of set J's next block into W (word K of set J is
 * the zmm at 16 * J + K), from its lanes' pointers P[16 * J ...]: 64-byte
 * rows, then words, pairs of words, and 128-bit quarters interleaved in
 * four rounds of 16 shuffles.  After the second round R[4 * B + M] holds,
 * in its 128-bit quarter Q, word 4 * Q + M of lanes 4 * B .. 4 * B + 3. */
INLINE void square_job(zvec *w, const unsigned char *const *p, int j)
{
    zvec r[16], t[16];
    int i;

    p += 16 * j;
    w += 16 * j;
    _Pragma("GCC unroll 16") for (i = 0; i < 16; i += 2) {
        zvec x = _mm512_loadu_si512((const void *)p[i]), y = _mm512_loadu_si512((const void *)p[i + 1]);

        t[i] = _mm512_unpacklo_epi32(x, y);
        t[i + 1] = _mm512_unpackhi_epi32(x, y);
    }
    _Pragma("GCC unroll 16") for (i = 0; i < 16; i += 4) {
        r[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
        r[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
        r[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
        r[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    /* Quarters 0 and 1, then 2 and 3, of lanes 0-3 beside those of 4-7 (and
     * of 8-11 beside 12-15); then every other quarter of two of those: a
     * word of all 16 lanes, in order. */
    _Pragma("GCC unroll 4") for (i = 0; i < 4; i++) {
        zvec lo0 = _mm512_shuffle_i32x4(r[i], r[4 + i], 0x44), hi0 = _mm512_shuffle_i32x4(r[i], r[4 + i], 0xee);
        zvec lo1 = _mm512_shuffle_i32x4(r[8 + i], r[12 + i], 0x44);
        zvec hi1 = _mm512_shuffle_i32x4(r[8 + i], r[12 + i], 0xee);

        w[i] = _mm512_shuffle_i32x4(lo0, lo1, 0x88);
        w[4 + i] = _mm512_shuffle_i32x4(lo0, lo1, 0xdd);
        w[8 + i] = _mm512_shuffle_i32x4(hi0, hi1, 0x88);
        w[12 + i] = _mm512_shuffle_i32x4(hi0, hi1, 0xdd);
    }
}

#endif

/* For mb_loop.h: the round macros, and per register set J as in mb_ymm.h;
 * ZAHEAD(st) is the share of the next block's transposition that step ST
 * does. */
#undef ZAHEAD
#define VEC zvec
#define VEC_LANES 16
#define MAX_SETS 3
#define EACH EACH3
#define F(a, b, c, d, k, K, s) ZSTEP(TT_F, a, b, c, d, k, s)
#define G(a, b, c, d, k, K, s) ZSTEP(TT_G, a, b, c, d, k, s)
#define H(a, b, c, d, k, K, s) ZSTEP(TT_H, a, b, c, d, k, s)
#define I(a, b, c, d, k, K, s) ZSTEP(TT_I, a, b, c, d, k, s)
#if defined(ZMM_SQUARE)
/* One set's square every 64 / SETS steps (ST is a constant once the steps
 * are unrolled). */
# define ZAHEAD(st) do {                                                         \
        if ((st) % (64 / SETS) == 0 && (st) / (64 / SETS) < SETS)               \
            square_job(wn, f.p, (st) / (64 / SETS));                            \
    } while (0)
# define FIRST_BLOCK(f) do {                                                     \
        int j_;                                                                 \
        for (j_ = 0; j_ < SETS; j_++)                                           \
            square_job(wbuf[0], f.p, j_);                                       \
    } while (0)
#else
# define ZAHEAD(st) AHEAD(st)
# define FIRST_BLOCK(f) AHEAD_ALL(wbuf[0])
#endif
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
