/* AVX2 lane kernels: 8 messages per ymm register, one to three register
 * sets.
 *
 * One step of one set is about ten dependent-ish vector ops (AVX2 has no
 * rotate and no three-input logic), so a single set is bound by the step's
 * latency; a second, independent set fills the gaps, and a third fills
 * them further: 24 lanes cost 0.38-0.40 cycles/byte on Zen 4 against 0.44
 * for 16 (llvm-mca: 5-18% less a byte on znver2/3, haswell, skylake,
 * alderlake), though 12 state vectors leave gcc few registers to spare.
 * The transposition (a block ahead, the words read from memory by the adds)
 * is mb_ymm.h's, the block loop mb_loop.h's.
 *
 * Only these functions are compiled for AVX2 (target attribute), so the rest
 * of the program runs anywhere; md5_mb_kernels lists them only when cpuid and
 * XCR0 say the CPU and OS support AVX2.
 */
#include "mb_impl.h"

#if MD5_MB_X86
#include "md5_steps.h"

/* The round constants, those of the I round less 1 (see I1); mb_ymm.h
 * broadcasts them from here. */
#define K_OF(a, b, c, d, k, K, s) K,
#define K_LESS1(a, b, c, d, k, K, s) (K) - 1u,
static const uint32_t k_avx2[64] = {MD5_STEPS(K_OF, K_OF, K_OF, K_LESS1, K_LESS1)};
#define KTABLE k_avx2

#define INLINE static inline __attribute__((always_inline, target("avx2")))
#include "mb_ymm.h"

INLINE vec vsub(vec x, vec y) { return _mm256_sub_epi32(x, y); }
INLINE vec vxor(vec x, vec y) { return _mm256_xor_si256(x, y); }
INLINE vec vand(vec x, vec y) { return _mm256_and_si256(x, y); }
INLINE vec vandn(vec x, vec y) { return _mm256_andnot_si256(x, y); } /* ~x & y */

INLINE vec rotl(vec x, int s)
{
    /* A rotate by 16 swaps the halves of each word: one shuffle, not three ops. */
    if (s == 16)
        return _mm256_shuffle_epi8(x, _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
                                                       14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5,
                                                       10, 11, 8, 9, 14, 15, 12, 13));
    return _mm256_or_si256(_mm256_slli_epi32(x, s), _mm256_srli_epi32(x, 32 - s));
}

/* An empty asm that claims to change X: the early sum (everything but the
 * b-dependent term) is formed first, so the chain after b is short.  gcc
 * otherwise re-associates the additions and loses about 20% on one set. */
#define PIN(x) __asm__("" : "+x"(x))

#define EACH EACH3

/* F = d ^ (b & (c ^ d)). */
#define F1(j, a, b, c, d, k, s) do {                                             \
        vec t_ = vadd(vadd(a[j], wc[16 * j + k]), k_);                          \
        PIN(t_);                                                                \
        t_ = vadd(t_, vxor(d[j], vand(b[j], vxor(c[j], d[j]))));                \
        a[j] = vadd(b[j], rotl(t_, s));                                         \
    } while (0)
/* G = (b & d) | (c & ~d): the halves share no bits, so add them, c & ~d early. */
#define G1(j, a, b, c, d, k, s) do {                                             \
        vec t_ = vadd(vadd(a[j], wc[16 * j + k]), vadd(k_, vandn(d[j], c[j])));  \
        PIN(t_);                                                                \
        t_ = vadd(t_, vand(b[j], d[j]));                                        \
        a[j] = vadd(b[j], rotl(t_, s));                                         \
    } while (0)
#define H1(j, a, b, c, d, k, s) do {                                             \
        vec t_ = vadd(vadd(a[j], wc[16 * j + k]), k_);                          \
        PIN(t_);                                                                \
        t_ = vadd(t_, vxor(b[j], vxor(c[j], d[j])));                            \
        a[j] = vadd(b[j], rotl(t_, s));                                         \
    } while (0)
/* I = c ^ (b | ~d) = ~(c ^ (~b & d)), and t + ~x = t - x - 1: the -1 is in
 * the I round's constants (k_avx2) and AVX2's andnot saves the NOT. */
#define I1(j, a, b, c, d, k, s) do {                                             \
        vec t_ = vadd(vadd(a[j], wc[16 * j + k]), k_);                          \
        PIN(t_);                                                                \
        t_ = vsub(t_, vxor(c[j], vandn(b[j], d[j])));                           \
        a[j] = vadd(b[j], rotl(t_, s));                                         \
    } while (0)
/* One step for every set, then a share of the next block's transposition. */
#define STEP(X, a, b, c, d, k, s) do {                                          \
        const vec k_ = _mm256_set1_epi32((int)kp[st]);                          \
        EACH(X, a, b, c, d, k, s);                                              \
        AHEAD(st);                                                              \
        st++;                                                                   \
    } while (0);
#define F(a, b, c, d, k, K, s) STEP(F1, a, b, c, d, k, s)
#define G(a, b, c, d, k, K, s) STEP(G1, a, b, c, d, k, s)
#define H(a, b, c, d, k, K, s) STEP(H1, a, b, c, d, k, s)
#define I(a, b, c, d, k, K, s) STEP(I1, a, b, c, d, k, s)

#define MAX_SETS 3
#include "mb_loop.h"

__attribute__((target("avx2"))) void md5_mb_avx2x8(struct md5_mb_lanes *l, size_t nblocks)
{
    run(l, nblocks, 1);
}

__attribute__((target("avx2"))) void md5_mb_avx2x16(struct md5_mb_lanes *l, size_t nblocks)
{
    run(l, nblocks, 2);
}

__attribute__((target("avx2"))) void md5_mb_avx2x24(struct md5_mb_lanes *l, size_t nblocks)
{
    run(l, nblocks, 3);
}
#endif /* MD5_MB_X86 */
