/* The scalar lane kernel: one lane, the md5_compress core.  It is what the
 * scheduler uses when too few messages are in flight for SIMD to pay, and
 * the kernel every CPU has. */
#include "compress.h"
#include "mb_impl.h"

void md5_mb_scalar(struct md5_mb_lanes *l, size_t nblocks)
{
    uint32_t s[4];

    if (l->in[0] == NULL || nblocks == 0)
        return;
    md5_mb_get_lane(l, 0, s);
    md5_compress(s, l->in[0], nblocks);
    md5_mb_set_lane(l, 0, s);
    l->in[0] += 64 * nblocks;
}
