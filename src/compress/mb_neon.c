/* NEON lane kernels (body to come). */
#include "mb_impl.h"

void md5_mb_neonx8(struct md5_mb_lanes *l, size_t nblocks) { (void)l, (void)nblocks; }
void md5_mb_neonx16(struct md5_mb_lanes *l, size_t nblocks) { (void)l, (void)nblocks; }
