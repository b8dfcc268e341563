/* Which lane kernels this CPU can run, and which one to use for a given
 * number of messages in flight.  The only file that probes the CPU. */
#include "mb_impl.h"
#include "md5_steps.h"

#include <string.h>

#if MD5_MB_X86
# include <cpuid.h>
#endif

const unsigned char md5_mb_zero_block[64];

/* The kernels broadcast the round constants from here. */
#define K_OF(a, b, c, d, k, K, s) K,
const uint32_t md5_mb_k[64] = {MD5_STEPS(K_OF, K_OF, K_OF, K_OF, K_OF)};
#undef K_OF

/* min_busy: the fewest busy lanes at which the kernel beats the scalar
 * kernels (the core for one, scalarx2 for two on x86) by about 10% or more
 * (room for the scheduler's own work).  x86 figures measured with make
 * bench BENCH=lanes, on Zen 4 but for the avx512z kernels (Zen 5, and an
 * AVX-512 Xeon), NEON modelled for Neoverse N1 with llvm-mca; see
 * docs/MULTIBUFFER.md.  Only the narrowest kernel of a set is ever picked
 * for two: where scalarx2 is faster (every x86 core measured but Intel's
 * with the zmm kernels), its min_busy is 3. */
static const struct md5_mb_kernel k_scalar = {"scalar", "scalar", 1, 1, md5_mb_scalar};
#if MD5_MB_X86
static const struct md5_mb_kernel k_scalarx2 = {"scalarx2", "scalar", 2, 2, md5_mb_scalarx2};
static const struct md5_mb_kernel k_avx512x32 = {"avx512x32", "avx512", 32, 3, md5_mb_avx512x32};
static const struct md5_mb_kernel k_avx512x24 = {"avx512x24", "avx512", 24, 2, md5_mb_avx512x24};
static const struct md5_mb_kernel k_avx512x16 = {"avx512x16", "avx512", 16, 3, md5_mb_avx512x16};
static const struct md5_mb_kernel k_avx512zx48 = {"avx512zx48", "avx512z", 48, 3, md5_mb_avx512zx48};
static const struct md5_mb_kernel k_avx512zx32 = {"avx512zx32", "avx512z", 32, 3, md5_mb_avx512zx32};
static const struct md5_mb_kernel k_avx512zx16 = {"avx512zx16", "avx512z", 16, 3, md5_mb_avx512zx16};
static const struct md5_mb_kernel k_avx512zsx48 = {"avx512zsx48", "avx512zs", 48, 3, md5_mb_avx512zsx48};
static const struct md5_mb_kernel k_avx512zsx32 = {"avx512zsx32", "avx512zs", 32, 3, md5_mb_avx512zsx32};
/* The narrowest of Intel's group (one set keeps the halves' transposition,
 * mb_zmm.h).  Intel's 1-cycle vector ops: two messages in it 2.24-2.28 c/B,
 * in scalarx2 2.46-2.60 (the Xeon of 2026-12-07; Zen 5: 4.03 against 2.28). */
static const struct md5_mb_kernel k_avx512zx16_intel = {"avx512zx16", "avx512zs", 16, 2,
                                                        md5_mb_avx512zx16};
/* Zen 4's group (it runs a zmm op as two 256-bit halves): 32 lanes on zmm,
 * fewer on ymm.  In the program the lanes' data comes from L3, where
 * avx512zx32 hashes 32 lanes at 0.27-0.29 c/B against avx512x32's
 * 0.31-0.34 (in cache the other way round: 0.26 against 0.245); 24 and 16
 * lanes run faster on ymm either way.  48 lanes (avx512zx48), with more
 * buffers, ran the 256 KiB set 1.2x slower. */
static const struct md5_mb_kernel k_avx512zx32_zen4 = {"avx512zx32", "avx512z4", 32, 3, md5_mb_avx512zx32};
static const struct md5_mb_kernel k_avx512x24_zen4 = {"avx512x24", "avx512z4", 24, 2, md5_mb_avx512x24};
static const struct md5_mb_kernel k_avx512x16_zen4 = {"avx512x16", "avx512z4", 16, 3, md5_mb_avx512x16};
static const struct md5_mb_kernel k_avx2x24 = {"avx2x24", "avx2", 24, 3, md5_mb_avx2x24};
static const struct md5_mb_kernel k_avx2x16 = {"avx2x16", "avx2", 16, 2, md5_mb_avx2x16};
static const struct md5_mb_kernel k_avx2x8 = {"avx2x8", "avx2", 8, 3, md5_mb_avx2x8};
#endif
#if MD5_MB_NEON
static const struct md5_mb_kernel k_neonx24 = {"neonx24", "neon", 24, 7, md5_mb_neonx24};
static const struct md5_mb_kernel k_neonx16 = {"neonx16", "neon", 16, 5, md5_mb_neonx16};
static const struct md5_mb_kernel k_neonx8 = {"neonx8", "neon", 8, 3, md5_mb_neonx8};
#endif

#if MD5_MB_X86
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;

    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t)hi << 32 | lo;
}

/* AVX2 needs the CPU flag and the OS saving YMM state (XCR0 bits 1-2);
 * AVX-512F and VL also need opmask and ZMM state (XCR0 bits 5-7), even for
 * ymm registers: EVEX code uses ymm16-31 and the upper state. */
static void probe_x86(int *avx2, int *avx512)
{
    unsigned a, b, c, d;
    uint64_t xcr0;

    *avx2 = *avx512 = 0;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_OSXSAVE) || !(c & bit_AVX))
        return;
    xcr0 = xgetbv0();
    if ((xcr0 & 0x6) != 0x6 || !__get_cpuid_count(7, 0, &a, &b, &c, &d))
        return;
    *avx2 = (b & bit_AVX2) != 0;
    *avx512 = *avx2 && (b & bit_AVX512F) && (b & bit_AVX512VL) && (xcr0 & 0xe6) == 0xe6;
}

/* Which group of AVX-512 kernels to prefer: only where 512-bit ops run
 * whole and the clock does not drop for them, the zmm kernels.
 * AMD: CPUID 0x8000001A EAX gives the FP/SIMD datapath width: FP128 (bit
 * 0), FP256 (bit 2), and from family 26 (Zen 5) FP512 (bit 3), which the
 * Zen 5 EPYC we measured sets instead of FP256.  Family 26 alone is not
 * enough: the Zen 5 cores of its mobile parts (Strix Point) are 256 bits
 * wide and should not set FP512 (we have none to check).  Zen 4 (family
 * 25, the first AMD family with AVX-512; FP256 set) splits zmm ops in two:
 * its own group, zmm for 32 lanes only.
 * Intel: 512-bit integer ops run on two ports where 256-bit ones have three,
 * 32 lanes of work an op against 24, and the Xeon we measured (AVX-512 with
 * AMX, Sapphire Rapids' features) hashed 32 lanes 1.2x faster in zmm.
 * Skylake-SP and Cascade Lake lower the clock for zmm code more than later
 * cores, and we have none to measure, so the zmm kernels start with Ice
 * Lake's features: AVX512-VBMI2 (CPUID 7.0 ECX bit 6) marks them.
 * A hypervisor that hides the bits gets the ymm kernels, as before. */
enum prefer { PREFER_YMM, PREFER_ZMM_AMD, PREFER_ZMM_INTEL, PREFER_ZEN4 };

static enum prefer preferred_group(void)
{
    unsigned a, b, c, d, family;

    if (!__get_cpuid(0, &a, &b, &c, &d))
        return PREFER_YMM;
    if (b == signature_INTEL_ebx && c == signature_INTEL_ecx && d == signature_INTEL_edx)
        return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (c & bit_AVX512VBMI2) ? PREFER_ZMM_INTEL
                                                                               : PREFER_YMM;
    if (b != signature_AMD_ebx || c != signature_AMD_ecx || d != signature_AMD_edx ||
        !__get_cpuid(1, &a, &b, &c, &d))
        return PREFER_YMM;
    family = (a >> 8) & 0xf;
    if (family == 0xf)
        family += (a >> 20) & 0xff;
    if (family == 25)
        return PREFER_ZEN4;
    return family >= 26 && __get_cpuid(0x8000001a, &a, &b, &c, &d) && (a & 1u << 3) ? PREFER_ZMM_AMD
                                                                                   : PREFER_YMM;
}

/* K after the N kernels in LIST, unless one of them runs the same function
 * (a CPU's own group lists kernels of the others under its name): the
 * count. */
static size_t add(const struct md5_mb_kernel **list, size_t n, const struct md5_mb_kernel *k)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (list[i]->run == k->run)
            return n;
    list[n++] = k;
    return n;
}

/* The zmm kernels after the N in LIST, each group widest first: on an
 * Intel core (INTEL) only those with the square transposition, avx512zx16
 * the narrowest of them (and for two); elsewhere those with the halves,
 * then those with the square.  Returns the count. */
static size_t list_zmm(const struct md5_mb_kernel **list, size_t n, int intel)
{
    if (intel) {
        n = add(list, n, &k_avx512zsx48);
        n = add(list, n, &k_avx512zsx32);
        return add(list, n, &k_avx512zx16_intel);
    }
    n = add(list, n, &k_avx512zx48);
    n = add(list, n, &k_avx512zx32);
    n = add(list, n, &k_avx512zx16);
    n = add(list, n, &k_avx512zsx48);
    return add(list, n, &k_avx512zsx32);
}
#endif

/* The most kernels a CPU offers (x86 with AVX-512: 5 zmm, 3 ymm, 3 AVX2,
 * 2 scalar), and the NULL that ends the list. */
static const struct md5_mb_kernel *table[14];

const struct md5_mb_kernel *const *md5_mb_kernels(void)
{
    const struct md5_mb_kernel *list[14];
    size_t n = 0;

    if (table[0])
        return table;
#if MD5_MB_X86
    {
        int avx2, avx512;
        enum prefer prefer;

        probe_x86(&avx2, &avx512);
        prefer = avx512 ? preferred_group() : PREFER_YMM;
        if (prefer == PREFER_ZEN4) {
            n = add(list, n, &k_avx512zx32_zen4);
            n = add(list, n, &k_avx512x24_zen4);
            n = add(list, n, &k_avx512x16_zen4);
        } else if (prefer != PREFER_YMM)
            n = list_zmm(list, n, prefer == PREFER_ZMM_INTEL);
        /* The groups not preferred are listed after (so tested and
         * benchmarked) but never picked: md5_mb_pick keeps to the
         * instruction set of the first kernel. */
        if (avx512) {
            n = add(list, n, &k_avx512x32);
            n = add(list, n, &k_avx512x24);
            n = add(list, n, &k_avx512x16);
            n = list_zmm(list, n, 0);
        }
        if (avx2) {
            list[n++] = &k_avx2x24;
            list[n++] = &k_avx2x16;
            list[n++] = &k_avx2x8;
        }
        list[n++] = &k_scalarx2;
    }
#endif
#if MD5_MB_NEON
    list[n++] = &k_neonx24;
    list[n++] = &k_neonx16;
    list[n++] = &k_neonx8;
#endif
    list[n++] = &k_scalar;
    /* table[0] last: it is the "already probed" flag. */
    while (n-- > 0)
        table[n] = list[n];
    return table;
}

const struct md5_mb_kernel *md5_mb_pick(unsigned busy)
{
    const struct md5_mb_kernel *const *k = md5_mb_kernels();
    const struct md5_mb_kernel *best = k[0], *scalar = NULL;

    for (; *k; k++) {
        if (strcmp((*k)->isa, best->isa) == 0 && (*k)->lanes >= busy)
            best = *k;
        if (strcmp((*k)->isa, "scalar") == 0 && (*k)->lanes >= busy)
            scalar = *k;
    }
    if (busy >= best->min_busy)
        return best;
    return scalar ? scalar : &k_scalar;
}

void md5_mb_set_lane(struct md5_mb_lanes *l, unsigned lane, const uint32_t state[4])
{
    int w;

    for (w = 0; w < 4; w++)
        l->state[w][lane] = state[w];
}

void md5_mb_get_lane(const struct md5_mb_lanes *l, unsigned lane, uint32_t state[4])
{
    int w;

    for (w = 0; w < 4; w++)
        state[w] = l->state[w][lane];
}
