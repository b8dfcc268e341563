/* AVX-512 lane kernels: 8 messages per ymm register (AVX-512VL), two to
 * four register sets (16, 24 or 32 in flight); and 16 per zmm register, one
 * to three sets (the "avx512z" kernels, 16, 32 or 48 in flight), two or
 * three with the square transposition ("avx512zs", 32 or 48: mb_zmm.h).
 *
 * AVX-512 has the two things AVX2 lacks for MD5: a rotate (vprold) and any
 * three-input logic function in one op (vpternlogd), so a step is six ops,
 * four of them on the chain (logic, add, rotate, add), against about ten for
 * AVX2.  No fewer will do: a + f + M[k] + K is three adds, then the rotate
 * and b's add.  So four vector pipes need 64 * 6 / 4 = 96 cycles a block for
 * each register's worth of lanes: 0.1875 cycles/byte for the steps alone,
 * and the transposition adds 48 shuffles (mb_ymm.h).
 *
 * Which register width comes nearest depends on the core.  Zen 4 splits a
 * zmm op into two 256-bit halves, and its rotate takes 2 cycles, so a step's
 * chain takes 5.  Four ymm sets give the pipes 24 ops a step against that
 * chain, but Zen 4 keeps its four pipes busy only about 80% of the time with
 * one-cycle ymm ops (hand-scheduled steps alone, four sets: 0.24
 * cycles/byte).  With the transposition: 32 lanes on ymm 0.25, on zmm 0.27
 * (two sets wait on their chains), in cache; from L3, where the program's
 * lanes find their data, zmm 0.27-0.29 against 0.31-0.34, so Zen 4 has a
 * group of its own (mb_dispatch.c).  Zen 5 (EPYC) runs zmm ops whole, but
 * every vector op on the chain takes 2 cycles, so a set is bound by its
 * chain (512 cycles a block): two zmm sets carry 32 lanes at 0.25-0.28
 * against 0.33 for four ymm sets, and three carry 48 at 0.173 (the chains
 * still bound them: 18 step ops a step fill 4.5 of the 8 cycles' pipes).
 * mb_dispatch.c prefers the zmm kernels where CPUID says 512-bit ops run
 * whole, and for Zen 4's 32 lanes.  Listed only when cpuid and XCR0 say the
 * CPU and OS support AVX-512F and VL with the opmask and ZMM state.
 */
#include "mb_impl.h"

#if MD5_MB_X86
#define INLINE static inline __attribute__((always_inline, target("avx512f,avx512vl,avx2")))
#include "mb_ymm.h"

/* vpternlogd truth tables, inputs (b, c, d) = bits (4, 2, 1) of the index. */
#define TT_F 0xca /* b ? c : d */
#define TT_G 0xe4 /* d ? b : c */
#define TT_H 0x96 /* b ^ c ^ d */
#define TT_I 0x39 /* c ^ (b | ~d) */

/* The early sum a + M[k] + K goes first, pinned by an empty asm, so only
 * logic, add, rotate and add follow b.  After the step of every set, a
 * share of the next block's transposition. */
#define PIN(x) __asm__("" : "+v"(x))
#define EACH EACH4

#define STEP1(j, tt, a, b, c, d, k, s) do {                                      \
        vec t_ = vadd(vadd(a[j], wc[16 * j + k]), k_);                          \
        PIN(t_);                                                                \
        t_ = vadd(t_, _mm256_ternarylogic_epi32(b[j], c[j], d[j], tt));         \
        a[j] = vadd(b[j], _mm256_rol_epi32(t_, s));                             \
    } while (0)
#define STEP(tt, a, b, c, d, k, s) do {                                          \
        const vec k_ = _mm256_set1_epi32((int)kp[st]);                          \
        EACH(STEP1, tt, a, b, c, d, k, s);                                      \
        AHEAD(st);                                                              \
        st++;                                                                   \
    } while (0);
#define F(a, b, c, d, k, K, s) STEP(TT_F, a, b, c, d, k, s)
#define G(a, b, c, d, k, K, s) STEP(TT_G, a, b, c, d, k, s)
#define H(a, b, c, d, k, K, s) STEP(TT_H, a, b, c, d, k, s)
#define I(a, b, c, d, k, K, s) STEP(TT_I, a, b, c, d, k, s)

#define MAX_SETS 4
#include "mb_loop.h"

__attribute__((target("avx512f,avx512vl,avx2"))) void md5_mb_avx512x16(struct md5_mb_lanes *l, size_t nblocks)
{
    run(l, nblocks, 2);
}

/* Three sets: a round of 17 to 24 messages on Zen 4 in less time than
 * four sets take (the pipes, not the chains, bound both). */
__attribute__((target("avx512f,avx512vl,avx2"))) void md5_mb_avx512x24(struct md5_mb_lanes *l, size_t nblocks)
{
    run(l, nblocks, 3);
}

__attribute__((target("avx512f,avx512vl,avx2"))) void md5_mb_avx512x32(struct md5_mb_lanes *l, size_t nblocks)
{
    run(l, nblocks, 4);
}

/* The zmm kernels: the same steps (mb_zmm.h's ZSTEP), 16 lanes per
 * register, one to three sets.  Three sets hold 12 zmm of state, the words
 * and the feed-forward copy stay in memory, so nothing spills (gcc 12: 192
 * vprold/vprord, 192 vpternlogd, no stack traffic but wbuf and ffbuf). */
#include "mb_zmm.h"
#define RUN run_zmm
#include "mb_loop.h"

__attribute__((target("avx512f,avx512vl,avx2"))) void md5_mb_avx512zx16(struct md5_mb_lanes *l, size_t nblocks)
{
    run_zmm(l, nblocks, 1);
}

__attribute__((target("avx512f,avx512vl,avx2"))) void md5_mb_avx512zx32(struct md5_mb_lanes *l, size_t nblocks)
{
    run_zmm(l, nblocks, 2);
}

/* Where vector ops take 2 cycles (Zen 5) a set waits on its chain, and a
 * third set fills the pipes the first two leave idle: 48 lanes at 0.173
 * cycles/byte against 32 at 0.252.  Where they take 1 (Intel) two zmm
 * ports bound both, and 48 lanes cost what 32 do per lane (llvm-mca 19,
 * sapphirerapids: 587 cycles a block against 392). */
__attribute__((target("avx512f,avx512vl,avx2"))) void md5_mb_avx512zx48(struct md5_mb_lanes *l, size_t nblocks)
{
    run_zmm(l, nblocks, 3);
}

/* The same steps with the square transposition (mb_zmm.h), for Intel. */
#define ZMM_SQUARE
#include "mb_zmm.h"
#define RUN run_zmm_square
#include "mb_loop.h"

__attribute__((target("avx512f,avx512vl,avx2"))) void md5_mb_avx512zsx32(struct md5_mb_lanes *l, size_t nblocks)
{
    run_zmm_square(l, nblocks, 2);
}

__attribute__((target("avx512f,avx512vl,avx2"))) void md5_mb_avx512zsx48(struct md5_mb_lanes *l, size_t nblocks)
{
    run_zmm_square(l, nblocks, 3);
}
#endif /* MD5_MB_X86 */
