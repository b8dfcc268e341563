/* NEON lane kernels: 4 messages per 128-bit register, two, four or six
 * register sets (8, 16 or 24 messages in flight).
 *
 * A step's chain (select, add, shift, shift-insert, add) is about 10 cycles
 * on Neoverse cores, whose ASIMD adds take 2 cycles, while one set keeps
 * two vector pipes busy for only about 4: so two sets are still bound by
 * latency, and four run near throughput where there are two pipes (N1, N2,
 * A72).  V1 and V2 have four: there four sets are still bound by latency
 * and six are not (llvm-mca, 24 lanes: V1 0.546 cycles/byte against 0.701
 * for 16, V2 0.550 against 0.699; N1 1.126 against 1.108, N2 1.101 against
 * 1.096, A72 1.263 against 1.267).  Rotates are SHL + SRI, a rotate by
 * 16 is REV32; F and G are one BSL (plus a copy, since all three inputs live
 * on).  NEON is baseline on AArch64: no run-time probe.
 */
#if defined(__aarch64__) && defined(__GNUC__) && !defined(__clang__)
/* gcc's pre-register-allocation scheduler hoists the loads and early sums of
 * many steps ahead, runs out of registers and spills the chain: modelled on
 * Neoverse N1 that is 2.06 cycles/byte for 16 lanes, 1.06 without it (gcc
 * 12, llvm-mca 19).  The pragma covers this file only. */
# pragma GCC optimize("no-schedule-insns")
#endif
#include "mb_impl.h"
#include "md5_steps.h"

#if MD5_MB_NEON
#include <arm_neon.h>

#define INLINE static inline __attribute__((always_inline))

typedef uint32x4_t vec;
#define VEC_LANES 4

/* The round constants, each repeated in 4 lanes, in step order: one LDR Q
 * per step serves every set. */
#define KV(a, b, c, d, k, K, s) K, K, K, K,
static const uint32_t kv[64 * 4] = {MD5_STEPS(KV, KV, KV, KV, KV)};

/* The early sum (all but the b-dependent term) must be formed first; an
 * empty asm stops the compiler from re-associating the additions. */
#define PIN(x) __asm__("" : "+w"(x))
#define EACH EACH6

INLINE vec rot16(vec x)
{
    return vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(x)));
}

/* A macro: the shift counts must be constant expressions for clang. */
#define ROTL(x, s) ((s) == 16 ? rot16(x) : vsriq_n_u32(vshlq_n_u32(x, s), x, 32 - (s)))

/* Words 4q..4q+3 of lanes p[0..3] into w[4q..4q+3] (lane i in element i):
 * a 4x4 transpose of 32-bit words. */
INLINE void load_quarter(vec w[16], const unsigned char *const p[4], int q)
{
    vec r0 = vreinterpretq_u32_u8(vld1q_u8(p[0] + 16 * q));
    vec r1 = vreinterpretq_u32_u8(vld1q_u8(p[1] + 16 * q));
    vec r2 = vreinterpretq_u32_u8(vld1q_u8(p[2] + 16 * q));
    vec r3 = vreinterpretq_u32_u8(vld1q_u8(p[3] + 16 * q));
    uint64x2_t t0 = vreinterpretq_u64_u32(vtrn1q_u32(r0, r1));
    uint64x2_t t1 = vreinterpretq_u64_u32(vtrn2q_u32(r0, r1));
    uint64x2_t t2 = vreinterpretq_u64_u32(vtrn1q_u32(r2, r3));
    uint64x2_t t3 = vreinterpretq_u64_u32(vtrn2q_u32(r2, r3));

    w[4 * q + 0] = vreinterpretq_u32_u64(vtrn1q_u64(t0, t2));
    w[4 * q + 1] = vreinterpretq_u32_u64(vtrn1q_u64(t1, t3));
    w[4 * q + 2] = vreinterpretq_u32_u64(vtrn2q_u64(t0, t2));
    w[4 * q + 3] = vreinterpretq_u32_u64(vtrn2q_u64(t1, t3));
}

/* The next block of lanes p[0..3], then step each pointer on.  Written out,
 * not looped: gcc keeps such loops, and llvm-mca would count them once. */
INLINE void next_block(vec w[16], const unsigned char *p[4], const size_t step[4])
{
    load_quarter(w, p, 0);
    load_quarter(w, p, 1);
    load_quarter(w, p, 2);
    load_quarter(w, p, 3);
    p[0] += step[0], p[1] += step[1], p[2] += step[2], p[3] += step[3];
}

#define STEP1(j, fn, a, b, c, d, k, s) do {                                     \
        vec t_ = vaddq_u32(vaddq_u32(a[j], w[j][k]), k_);                       \
        PIN(t_);                                                                \
        t_ = vaddq_u32(t_, fn(b[j], c[j], d[j]));                               \
        a[j] = vaddq_u32(b[j], ROTL(t_, s));                                    \
    } while (0)
#define FF(b, c, d) vbslq_u32(b, c, d)                   /* b ? c : d */
#define GG(b, c, d) vbslq_u32(d, b, c)                   /* d ? b : c */
#define HH(b, c, d) veorq_u32(b, veorq_u32(c, d))
#define II(b, c, d) veorq_u32(c, vornq_u32(b, d))        /* c ^ (b | ~d) */
#define STEP(fn, a, b, c, d, k, s) do {                                         \
        const vec k_ = vld1q_u32(kp);                                           \
        kp += 4;                                                                \
        EACH(STEP1, fn, a, b, c, d, k, s);                                      \
    } while (0);
#define F(a, b, c, d, k, K, s) STEP(FF, a, b, c, d, k, s)
#define G(a, b, c, d, k, K, s) STEP(GG, a, b, c, d, k, s)
#define H(a, b, c, d, k, K, s) STEP(HH, a, b, c, d, k, s)
#define I(a, b, c, d, k, K, s) STEP(II, a, b, c, d, k, s)

/* Per register set J, for mb_loop.h: state in and out of the lanes, the next
 * block's words (loaded at the block's start), the feed-forward at the end
 * of a block. */
#define RUN_LOCALS vec a0[MAX_SETS], b0[MAX_SETS], c0[MAX_SETS], d0[MAX_SETS], w[MAX_SETS][16];
#define FIRST_BLOCK(f) (void)0
#define LOAD(j, l) do {                                                          \
        a[j] = vld1q_u32(&l->state[0][4 * j]), b[j] = vld1q_u32(&l->state[1][4 * j]); \
        c[j] = vld1q_u32(&l->state[2][4 * j]), d[j] = vld1q_u32(&l->state[3][4 * j]); \
    } while (0)
#define STORE(j, l) do {                                                         \
        vst1q_u32(&l->state[0][4 * j], a[j]), vst1q_u32(&l->state[1][4 * j], b[j]); \
        vst1q_u32(&l->state[2][4 * j], c[j]), vst1q_u32(&l->state[3][4 * j], d[j]); \
    } while (0)
#define NEXT_BLOCK(j, f) do {                                                    \
        next_block(w[j], f.p + 4 * j, f.step + 4 * j);                          \
        a0[j] = a[j], b0[j] = b[j], c0[j] = c[j], d0[j] = d[j];                 \
    } while (0)
#define ADD_BACK(j, unused) do {                                                 \
        a[j] = vaddq_u32(a[j], a0[j]), b[j] = vaddq_u32(b[j], b0[j]);           \
        c[j] = vaddq_u32(c[j], c0[j]), d[j] = vaddq_u32(d[j], d0[j]);           \
    } while (0)
/* kp: where STEP loads the next round constant; each block starts at kv. */
#define BLOCK_LOCALS const uint32_t *kp = kv;

#define MAX_SETS 6
#include "mb_loop.h"

void md5_mb_neonx8(struct md5_mb_lanes *l, size_t nblocks)
{
    run(l, nblocks, 2);
}

void md5_mb_neonx16(struct md5_mb_lanes *l, size_t nblocks)
{
    run(l, nblocks, 4);
}

void md5_mb_neonx24(struct md5_mb_lanes *l, size_t nblocks)
{
    run(l, nblocks, 6);
}
#endif /* MD5_MB_NEON */
