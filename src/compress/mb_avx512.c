/* AVX-512 lane kernels: 8 messages per ymm register (AVX-512VL), two or
 * four register sets (16 or 32 in flight).
 *
 * AVX-512 has the two things AVX2 lacks for MD5: a rotate (vprold) and any
 * three-input logic function in one op (vpternlogd), so a step is six ops,
 * four of them on the chain (logic, add, rotate, add), against about ten for
 * AVX2.  The registers are 256-bit on purpose: Zen 4 runs a zmm op as two
 * halves, and zmm kernels measured slower here (16 lanes in one zmm set 0.44
 * cycles/byte, 32 in two 0.33, against 0.40 and 0.28 with ymm), while
 * AVX-512VL gives ymm the rotate, the ternary logic and 32 registers for
 * four sets.  Listed only when cpuid and XCR0 say the CPU and OS support
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
#endif /* MD5_MB_X86 */
