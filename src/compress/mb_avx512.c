/* AVX-512 lane kernels: 8 messages per ymm register (AVX-512VL), two or
 * four register sets (16 or 32 in flight); and 16 per zmm register, one or
 * two sets (the "avx512z" kernels).
 *
 * AVX-512 has the two things AVX2 lacks for MD5: a rotate (vprold) and any
 * three-input logic function in one op (vpternlogd), so a step is six ops,
 * four of them on the chain (logic, add, rotate, add), against about ten for
 * AVX2.  Which register width wins depends on the core.  Zen 4 runs a zmm
 * op as two halves, and zmm measured slower there (16 lanes in one zmm set
 * 0.44 cycles/byte, 32 in two 0.33, against 0.40 and 0.28 with ymm), while
 * AVX-512VL gives ymm the rotate, the ternary logic and 32 registers for
 * four sets.  Zen 5 (EPYC) runs zmm ops whole, but every vector op on the
 * chain takes 2 cycles, so a set is bound by its chain (512 cycles a block)
 * and two zmm sets carry 32 lanes at 0.28 against 0.33 for four ymm sets.
 * mb_dispatch.c prefers the zmm kernels only where CPUID says 512-bit ops
 * run whole.  Listed only when cpuid and XCR0 say the CPU and OS support
 * AVX-512F and VL with the opmask and ZMM state.
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
 * logic, add, rotate and add follow b. */
#define PIN(x) __asm__("" : "+v"(x))
#define EACH EACH4

#define STEP1(j, tt, a, b, c, d, k, K, s) do {                                   \
        vec t_ = vadd(vadd(a[j], w[j][k]), k32(K));                             \
        PIN(t_);                                                                \
        t_ = vadd(t_, _mm256_ternarylogic_epi32(b[j], c[j], d[j], tt));         \
        a[j] = vadd(b[j], _mm256_rol_epi32(t_, s));                             \
    } while (0)
#define F(a, b, c, d, k, K, s) EACH(STEP1, TT_F, a, b, c, d, k, K, s);
#define G(a, b, c, d, k, K, s) EACH(STEP1, TT_G, a, b, c, d, k, K, s);
#define H(a, b, c, d, k, K, s) EACH(STEP1, TT_H, a, b, c, d, k, K, s);
#define I(a, b, c, d, k, K, s) EACH(STEP1, TT_I, a, b, c, d, k, K, s);

#define MAX_SETS 4
#include "mb_loop.h"

__attribute__((target("avx512f,avx512vl,avx2"))) void md5_mb_avx512x16(struct md5_mb_lanes *l, size_t nblocks)
{
    run(l, nblocks, 2);
}

__attribute__((target("avx512f,avx512vl,avx2"))) void md5_mb_avx512x32(struct md5_mb_lanes *l, size_t nblocks)
{
    run(l, nblocks, 4);
}

/* The zmm kernels: the same steps, 16 lanes per register, one or two sets. */
#include "mb_zmm.h"

#define ZSTEP1(j, tt, a, b, c, d, k, K, s) do {                                  \
        zvec t_ = zadd(zadd(a[j], w[j][k]), zk32(K));                           \
        PIN(t_);                                                                \
        t_ = zadd(t_, _mm512_ternarylogic_epi32(b[j], c[j], d[j], tt));         \
        a[j] = zadd(b[j], _mm512_rol_epi32(t_, s));                             \
    } while (0)
#define EACH EACH2
#define F(a, b, c, d, k, K, s) EACH(ZSTEP1, TT_F, a, b, c, d, k, K, s);
#define G(a, b, c, d, k, K, s) EACH(ZSTEP1, TT_G, a, b, c, d, k, K, s);
#define H(a, b, c, d, k, K, s) EACH(ZSTEP1, TT_H, a, b, c, d, k, K, s);
#define I(a, b, c, d, k, K, s) EACH(ZSTEP1, TT_I, a, b, c, d, k, K, s);

#define MAX_SETS 2
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
#endif /* MD5_MB_X86 */
