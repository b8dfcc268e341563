/* AAPCS64 register preservation of the AArch64 block function, through the
 * assembly probe in abi_aarch64.S. */
#include <stdio.h>
#include <string.h>

#include "../../src/compress/compress.h"
#include "testlib.h"

#if MD5_AARCH64_BUILT
unsigned long abi_probe_aarch64(md5_compress_fn *fn, uint32_t state[4], const unsigned char *p,
                                size_t nblocks);
md5_compress_fn abi_clobber_aarch64;

/* Bit n of a probe mask names register probe_names[n]. */
static const char *const probe_names[] = {
    "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29",
    "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "sp", "x30", "x18",
};
#define N_PROBED (sizeof probe_names / sizeof probe_names[0])

static void print_clobbered(const char *what, unsigned long mask)
{
    size_t i;

    printf("# %s changed:", what);
    for (i = 0; i < N_PROBED; i++)
        if (mask >> i & 1)
            printf(" %s", probe_names[i]);
    putchar('\n');
}
#endif

void abi_tests_aarch64(const unsigned char *data)
{
#if MD5_AARCH64_BUILT
    static const size_t counts[] = {0, 1, 2, 7};
    const unsigned long want_bad = 1ul << 0 | 1ul << 18; /* x19, d15 */
    uint32_t s[4] = {1, 2, 3, 4}, ref[4];
    unsigned long mask, all = 0;
    size_t i;
    int wrong = 0;

    /* The probe is sharp: a callee that clobbers x19 and d15 is reported,
     * and nothing else is. */
    mask = abi_probe_aarch64(abi_clobber_aarch64, s, data, 1);
    if (mask != want_bad)
        print_clobbered("probe self-test", mask);
    report(mask == want_bad, "ABI probe catches a callee that clobbers x19 and d15");

    /* md5_compress_aarch64 keeps x18-x29, d8-d15 and sp, returns through an
     * intact x30, on the early-return path (0 blocks) and the block loop,
     * and still computes what portable computes when called this way. */
    for (i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        memcpy(ref, s, sizeof s);
        md5_compress_portable(ref, data, counts[i]);
        mask = abi_probe_aarch64(md5_compress_aarch64, s, data, counts[i]);
        if (mask)
            print_clobbered("md5_compress_aarch64", mask);
        all |= mask;
        wrong += memcmp(ref, s, sizeof s) != 0;
    }
    report(all == 0 && wrong == 0,
           "aarch64 keeps x18-x29, d8-d15, sp, x30 (AAPCS64) and matches portable: 0, 1, 2, 7 blocks");
#else
    (void)data; /* nothing to probe on other targets */
#endif
}
