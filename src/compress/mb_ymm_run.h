/* The block loop of the ymm lane kernels, over SETS register sets (at most
 * MB_SETS).  Included by mb_avx2.c and mb_avx512.c once they have defined
 * the round macros F, G, H, I and EACH for their instruction set, which this
 * body expands: a template by inclusion, so the loop is written once. */
#include "md5_steps.h"

INLINE void run(struct md5_mb_lanes *l, size_t nblocks, const int SETS)
{
    struct mb_frame f;
    vec a[MB_SETS], b[MB_SETS], c[MB_SETS], d[MB_SETS];
    vec a0[MB_SETS], b0[MB_SETS], c0[MB_SETS], d0[MB_SETS];
    vec w[MB_SETS][16];
    size_t n;

    if (nblocks == 0)
        return;
    mb_begin(&f, l, 8 * (unsigned)SETS);
    EACH(LOAD, l);
    for (n = nblocks; n > 0; n--) {
        EACH(NEXT_BLOCK, f);
        MD5_STEPS(F, G, H, I, I)
        EACH(ADD_BACK, 0);
    }
    EACH(STORE, l);
    mb_end(&f, l, 8 * (unsigned)SETS, nblocks);
}
