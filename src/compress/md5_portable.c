/* Portable MD5 block function, written for the latency bound.
 *
 * One step is a = b + rotl(a + f(b,c,d) + M[k] + K, s), and only b is new in
 * each step.  So every step first sums what does not depend on b (a + M[k] + K
 * and, in G, c & ~d), pins that sum with MD5_PIN so the compiler cannot fold
 * b back in early, and only then adds the b-dependent term.  That leaves 5, 4,
 * 4 and 5 dependent operations per step in rounds F, G, H and I: 4.5 cycles
 * per byte on a machine with one-cycle ALU latency.  The last step adds b's
 * feed-forward (b0) early too, so nothing but the 64 steps is on the chain:
 * 288 cycles per block.
 */
#include "compress.h"
#include "md5_steps.h"

/* An empty asm that claims to modify X: the compiler must materialise X here
 * and cannot re-associate the additions around it.  It emits no instruction. */
#if defined(__GNUC__) || defined(__clang__)
# define MD5_PIN(x) __asm__("" : "+r"(x))
# define MD5_PREFETCH(p) __builtin_prefetch(p)
#else
# define MD5_PIN(x) ((void)0)
# define MD5_PREFETCH(p) ((void)0)
#endif

/* Bytes ahead of the block being hashed that each block asks the cache for.
 * A large file comes from memory, in 4 KiB pages scattered in it, and the
 * hardware's prefetchers stop at each page's end: one line a block, eight
 * ahead, took a 1 GiB cached file 1.5% less time (Zen 5,
 * docs/PERFORMANCE.md).  One instruction more in a block of some 600. */
#define PREFETCH_AHEAD 512

static uint32_t rotl32(uint32_t x, unsigned s)
{
    return (x << s) | (x >> (32 - s));
}

/* Little-endian load from any address; compilers turn it into one load (with
 * a byte swap on big-endian targets). */
static uint32_t load_le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#define M(k) load_le32(p + 4 * (k))

/* F: d ^ (b & (c ^ d)); c ^ d is ready before b. */
#define STEP_F(a, b, c, d, k, K, s) do {                                     \
        uint32_t t_ = a + M(k) + (K);                                        \
        MD5_PIN(t_);                                                         \
        t_ += d ^ (b & (c ^ d));                                             \
        a = b + rotl32(t_, s);                                               \
    } while (0);

/* G: (b & d) | (c & ~d).  The two halves share no bits, so OR is ADD and
 * c & ~d joins the early sum; only b & d is added last. */
#define STEP_G(a, b, c, d, k, K, s) do {                                     \
        uint32_t t_ = a + M(k) + (K) + (c & ~d);                             \
        MD5_PIN(t_);                                                         \
        t_ += b & d;                                                         \
        a = b + rotl32(t_, s);                                               \
    } while (0);

/* H: b ^ c ^ d; c ^ d is ready before b. */
#define STEP_H(a, b, c, d, k, K, s) do {                                     \
        uint32_t t_ = a + M(k) + (K);                                        \
        uint32_t u_ = c ^ d;                                                 \
        MD5_PIN(t_);                                                         \
        MD5_PIN(u_);                                                         \
        t_ += u_ ^ b;                                                        \
        a = b + rotl32(t_, s);                                               \
    } while (0);

/* I: c ^ (b | ~d); ~d is ready before b. */
#define STEP_I(a, b, c, d, k, K, s) do {                                     \
        uint32_t t_ = a + M(k) + (K);                                        \
        MD5_PIN(t_);                                                         \
        t_ += c ^ (b | ~d);                                                  \
        a = b + rotl32(t_, s);                                               \
    } while (0);

/* The block's last step, which writes b: STEP_I, but b's feed-forward b0
 * joins the other addend early instead of the result (one add less on the
 * chain). */
#define STEP_I_LAST(a, b, c, d, k, K, s) do {                                \
        uint32_t t_ = a + M(k) + (K);                                        \
        uint32_t u_ = b + b0;                                                \
        MD5_PIN(t_);                                                         \
        MD5_PIN(u_);                                                         \
        t_ += c ^ (b | ~d);                                                  \
        a = u_ + rotl32(t_, s);                                              \
    } while (0);

void md5_compress_portable(uint32_t state[4], const unsigned char *p, size_t nblocks)
{
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];

    for (; nblocks > 0; nblocks--, p += 64) {
        const uint32_t a0 = a, b0 = b, c0 = c, d0 = d;

        MD5_PREFETCH(p + PREFETCH_AHEAD);

        MD5_STEPS(STEP_F, STEP_G, STEP_H, STEP_I, STEP_I_LAST)

        a += a0;
        c += c0;
        d += d0;
        /* Keep c and d in general registers: gcc 12 on AArch64 otherwise
         * carries them across blocks in SIMD registers (to store the state
         * with one vector store) and the transfers land on the chain, 292
         * cycles per block instead of 288 in llvm-mca. */
        MD5_PIN(c);
        MD5_PIN(d);
    }
    state[0] = a;
    state[1] = b;
    state[2] = c;
    state[3] = d;
}

/* Two messages, one step of each in turn: their chains are independent, so
 * a core with ALUs to spare runs both in the time of one (Zen 5, mb_bench:
 * 2.275 cycles/byte for the two against 4.53 for one; llvm-mca 19, 288-300
 * cycles a block of each on znver3-5, icelake-server, skylake-avx512).  The
 * steps' macros name P and B0: each message's are set in a block of its
 * own. */
#define BOTH(STEP, a, b, c, d, k, K, s)                                      \
    {                                                                        \
        const unsigned char *p = p1;                                         \
        const uint32_t b0 = b01;                                             \
        (void)b0;                                                            \
        STEP(a##1, b##1, c##1, d##1, k, K, s)                                \
    }                                                                        \
    {                                                                        \
        const unsigned char *p = p2;                                         \
        const uint32_t b0 = b02;                                             \
        (void)b0;                                                            \
        STEP(a##2, b##2, c##2, d##2, k, K, s)                                \
    }
#define F2(a, b, c, d, k, K, s) BOTH(STEP_F, a, b, c, d, k, K, s)
#define G2(a, b, c, d, k, K, s) BOTH(STEP_G, a, b, c, d, k, K, s)
#define H2(a, b, c, d, k, K, s) BOTH(STEP_H, a, b, c, d, k, K, s)
#define I2(a, b, c, d, k, K, s) BOTH(STEP_I, a, b, c, d, k, K, s)
#define I2_LAST(a, b, c, d, k, K, s) BOTH(STEP_I_LAST, a, b, c, d, k, K, s)

void md5_compress2_portable(uint32_t s1[4], const unsigned char *p1, uint32_t s2[4],
                            const unsigned char *p2, size_t nblocks)
{
    uint32_t a1 = s1[0], b1 = s1[1], c1 = s1[2], d1 = s1[3];
    uint32_t a2 = s2[0], b2 = s2[1], c2 = s2[2], d2 = s2[3];

    for (; nblocks > 0; nblocks--, p1 += 64, p2 += 64) {
        const uint32_t a01 = a1, b01 = b1, c01 = c1, d01 = d1;
        const uint32_t a02 = a2, b02 = b2, c02 = c2, d02 = d2;

        MD5_STEPS(F2, G2, H2, I2, I2_LAST)

        a1 += a01;
        c1 += c01;
        d1 += d01;
        a2 += a02;
        c2 += c02;
        d2 += d02;
        MD5_PIN(c1);
        MD5_PIN(d1);
        MD5_PIN(c2);
        MD5_PIN(d2);
    }
    s1[0] = a1;
    s1[1] = b1;
    s1[2] = c1;
    s1[3] = d1;
    s2[0] = a2;
    s2[1] = b2;
    s2[2] = c2;
    s2[3] = d2;
}
