/* AVX2 lane kernels: 8 messages per ymm register, one or two register sets.
 *
 * One step of one set is about ten dependent-ish vector ops (AVX2 has no
 * rotate and no three-input logic), so a single set is bound by the step's
 * latency; a second, independent set fills the gaps and the pair runs near
 * the vector ALUs' throughput.  Message words are transposed in registers
 * (16-byte loads, then unpacks): vpgatherdd is slower on every core we know.
 *
 * Only these functions are compiled for AVX2 (target attribute), so the rest
 * of the program runs anywhere; md5_mb_kernels lists them only when cpuid and
 * XCR0 say the CPU and OS support AVX2.
 */
#include "mb_impl.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

#define INLINE static inline __attribute__((always_inline, target("avx2")))

typedef __m256i vec;

INLINE vec add(vec x, vec y) { return _mm256_add_epi32(x, y); }
INLINE vec sub(vec x, vec y) { return _mm256_sub_epi32(x, y); }
INLINE vec xor(vec x, vec y) { return _mm256_xor_si256(x, y); }
INLINE vec and(vec x, vec y) { return _mm256_and_si256(x, y); }
INLINE vec andn(vec x, vec y) { return _mm256_andnot_si256(x, y); } /* ~x & y */
INLINE vec k32(uint32_t k) { return _mm256_set1_epi32((int)k); }

INLINE vec rotl(vec x, int s)
{
    /* A rotate by 16 swaps the halves of each word: one shuffle, not three ops. */
    if (s == 16)
        return _mm256_shuffle_epi8(x, _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
                                                       14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5,
                                                       10, 11, 8, 9, 14, 15, 12, 13));
    return _mm256_or_si256(_mm256_slli_epi32(x, s), _mm256_srli_epi32(x, 32 - s));
}

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

/* An empty asm that claims to change X: the early sum (everything but the
 * b-dependent term) is formed first, so the chain after b is short.  gcc
 * otherwise re-associates the additions and loses about 20% on one set. */
#define PIN(x) __asm__("" : "+x"(x))

/* X(j, ...) for each register set j; SETS is a constant after inlining, so
 * the state arrays below become registers. */
#define EACH(X, ...) do { X(0, __VA_ARGS__); if (SETS > 1) X(1, __VA_ARGS__); } while (0)

/* F = d ^ (b & (c ^ d)). */
#define F1(j, a, b, c, d, k, K, s) do {                                          \
        vec t_ = add(add(a[j], w[j][k]), k32(K));                               \
        PIN(t_);                                                                \
        t_ = add(t_, xor(d[j], and(b[j], xor(c[j], d[j]))));                    \
        a[j] = add(b[j], rotl(t_, s));                                          \
    } while (0)
/* G = (b & d) | (c & ~d): the halves share no bits, so add them, c & ~d early. */
#define G1(j, a, b, c, d, k, K, s) do {                                          \
        vec t_ = add(add(a[j], w[j][k]), add(k32(K), andn(d[j], c[j])));        \
        PIN(t_);                                                                \
        t_ = add(t_, and(b[j], d[j]));                                          \
        a[j] = add(b[j], rotl(t_, s));                                          \
    } while (0)
#define H1(j, a, b, c, d, k, K, s) do {                                          \
        vec t_ = add(add(a[j], w[j][k]), k32(K));                               \
        PIN(t_);                                                                \
        t_ = add(t_, xor(b[j], xor(c[j], d[j])));                               \
        a[j] = add(b[j], rotl(t_, s));                                          \
    } while (0)
/* I = c ^ (b | ~d) = ~(c ^ (~b & d)), and t + ~x = t - x - 1: the -1 joins
 * K and AVX2's andnot saves the NOT. */
#define I1(j, a, b, c, d, k, K, s) do {                                          \
        vec t_ = add(add(a[j], w[j][k]), k32((K) - 1u));                        \
        PIN(t_);                                                                \
        t_ = sub(t_, xor(c[j], andn(b[j], d[j])));                              \
        a[j] = add(b[j], rotl(t_, s));                                          \
    } while (0)
#define F(a, b, c, d, k, K, s) EACH(F1, a, b, c, d, k, K, s);
#define G(a, b, c, d, k, K, s) EACH(G1, a, b, c, d, k, K, s);
#define H(a, b, c, d, k, K, s) EACH(H1, a, b, c, d, k, K, s);
#define I(a, b, c, d, k, K, s) EACH(I1, a, b, c, d, k, K, s);

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
        a[j] = add(a[j], a0[j]), b[j] = add(b[j], b0[j]);                       \
        c[j] = add(c[j], c0[j]), d[j] = add(d[j], d0[j]);                       \
    } while (0)

INLINE void run(struct md5_mb_lanes *l, size_t nblocks, const int SETS)
{
    struct mb_frame f;
    vec a[2], b[2], c[2], d[2], a0[2], b0[2], c0[2], d0[2];
    vec w[2][16];
    size_t n;

    if (nblocks == 0)
        return;
    mb_begin(&f, l, 8 * (unsigned)SETS);
    EACH(LOAD, l);
    for (n = nblocks; n > 0; n--) {
        EACH(NEXT_BLOCK, f);
        MD5_MB_STEPS(F, G, H, I)
        EACH(ADD_BACK, 0);
    }
    EACH(STORE, l);
    mb_end(&f, l, 8 * (unsigned)SETS, nblocks);
}

__attribute__((target("avx2"))) void md5_mb_avx2x8(struct md5_mb_lanes *l, size_t nblocks)
{
    run(l, nblocks, 1);
}

__attribute__((target("avx2"))) void md5_mb_avx2x16(struct md5_mb_lanes *l, size_t nblocks)
{
    run(l, nblocks, 2);
}
#else
void md5_mb_avx2x8(struct md5_mb_lanes *l, size_t nblocks) { (void)l, (void)nblocks; }
void md5_mb_avx2x16(struct md5_mb_lanes *l, size_t nblocks) { (void)l, (void)nblocks; }
#endif
