/* The scalar lane kernels: one lane, the md5_compress core, which every CPU
 * has; and on x86, two lanes in one loop (md5_compress2_portable).  The
 * scheduler uses them when too few messages are in flight for SIMD to pay. */
#include "compress.h"
#include "mb_impl.h"

/* Lane LANE, if busy, through the md5_compress core. */
static void run_one(struct md5_mb_lanes *l, unsigned lane, size_t nblocks)
{
    uint32_t s[4];

    if (l->in[lane] == NULL || nblocks == 0)
        return;
    md5_mb_get_lane(l, lane, s);
    md5_compress(s, l->in[lane], nblocks);
    md5_mb_set_lane(l, lane, s);
    l->in[lane] += 64 * nblocks;
}

void md5_mb_scalar(struct md5_mb_lanes *l, size_t nblocks)
{
    run_one(l, 0, nblocks);
}

#if MD5_MB_X86
void md5_mb_scalarx2(struct md5_mb_lanes *l, size_t nblocks)
{
    uint32_t s0[4], s1[4];

    if (l->in[0] == NULL || l->in[1] == NULL || nblocks == 0) {
        run_one(l, 0, nblocks);
        run_one(l, 1, nblocks);
        return;
    }
    md5_mb_get_lane(l, 0, s0);
    md5_mb_get_lane(l, 1, s1);
    md5_compress2_portable(s0, l->in[0], s1, l->in[1], nblocks);
    md5_mb_set_lane(l, 0, s0);
    md5_mb_set_lane(l, 1, s1);
    l->in[0] += 64 * nblocks;
    l->in[1] += 64 * nblocks;
}
#endif
