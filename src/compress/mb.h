/* Multi-buffer MD5: lane kernels that advance many independent messages at
 * once, one message per 32-bit SIMD lane.
 *
 * A kernel only runs the block loop, like md5_compress: each busy lane absorbs
 * the same number of whole 64-byte blocks from its own pointer.  Padding and
 * the tail of each message stay with the caller: copy the lane's state into
 * a struct md5_ctx whose length is the bytes absorbed, then md5_update the
 * tail and md5_final.  A scheduler keeps a struct md5_mb_lanes,
 * puts a message in a free lane, calls the kernel for as many blocks as the
 * shortest busy lane has left, and retires or refills lanes between calls.
 */
#ifndef MD5_MB_H
#define MD5_MB_H

#include <stddef.h>
#include <stdint.h>

/* The widest kernel's lane count; every struct md5_mb_lanes has this many. */
#define MD5_MB_MAX_LANES 48

/* The lanes of one kernel, structure-of-arrays: word W of lanes 8j..8j+7 is
 * one 32-byte vector load from state[W] + 8j. */
struct md5_mb_lanes {
    uint32_t state[4][MD5_MB_MAX_LANES];       /* A, B, C, D of each lane */
    const unsigned char *in[MD5_MB_MAX_LANES]; /* next block; NULL = idle lane */
};

/* For each lane L < LANES with in[L] != NULL: absorb NBLOCKS 64-byte blocks
 * from in[L] (any alignment, no byte read outside them) into state[0..3][L]
 * exactly as md5_compress would, and advance in[L] by 64 * NBLOCKS.  Idle
 * lanes and lanes >= LANES are left untouched.  NBLOCKS may be 0. */
typedef void md5_mb_fn(struct md5_mb_lanes *l, size_t nblocks);

struct md5_mb_kernel {
    const char *name;      /* e.g. "avx2x16": instruction set x lanes */
    const char *isa;       /* "avx2", "avx512", "avx512z" (on zmm), "avx512zs" (zmm,
                            * square transposition), "neon", "scalar" */
    unsigned lanes;        /* lanes 0 .. lanes-1 are used */
    unsigned min_busy;     /* with fewer busy lanes the scalar kernels are faster */
    md5_mb_fn *run;
};

/* Every kernel this CPU and OS can run, NULL-terminated, grouped by
 * instruction set: the set md5_mb_pick chooses from first, then the others,
 * faster first, each group widest first.  The last group is "scalar": on
 * x86 "scalarx2" (two messages in one loop), and always last "scalar" (one
 * lane, the md5_compress core).  Probes the CPU on the first call, which
 * should come before any second thread does. */
const struct md5_mb_kernel *const *md5_mb_kernels(void);

/* The fastest kernel for BUSY messages in flight: the narrowest kernel of
 * the best instruction set that still has a lane for each (the widest if
 * none has), unless BUSY is below its min_busy (a SIMD kernel runs each of
 * a few messages no faster than its chain): then the narrowest scalar
 * kernel with a lane for each, or scalar. */
const struct md5_mb_kernel *md5_mb_pick(unsigned busy);

/* Copy one lane's state in or out of the structure-of-arrays form. */
void md5_mb_set_lane(struct md5_mb_lanes *l, unsigned lane, const uint32_t state[4]);
void md5_mb_get_lane(const struct md5_mb_lanes *l, unsigned lane, uint32_t state[4]);

/* Which kernel families this target builds, tested by every file that
 * defines, lists or tests a kernel: the x86 kernels need GCC or clang (target
 * attributes, <cpuid.h>), NEON is baseline on little-endian AArch64.  A kernel
 * file includes this header before its test, so where the test fails its
 * translation unit still holds these declarations (ISO C forbids an empty
 * one). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
# define MD5_MB_X86 1
#else
# define MD5_MB_X86 0
#endif
#if defined(__aarch64__) && !defined(__AARCH64EB__)
# define MD5_MB_NEON 1
#else
# define MD5_MB_NEON 0
#endif

/* The kernels, each declared only where it is built: naming one elsewhere is
 * a compile error, not a kernel that silently does nothing. */
void md5_mb_scalar(struct md5_mb_lanes *l, size_t nblocks);
#if MD5_MB_X86
void md5_mb_scalarx2(struct md5_mb_lanes *l, size_t nblocks);
void md5_mb_avx2x8(struct md5_mb_lanes *l, size_t nblocks);
void md5_mb_avx2x16(struct md5_mb_lanes *l, size_t nblocks);
void md5_mb_avx2x24(struct md5_mb_lanes *l, size_t nblocks);
void md5_mb_avx512x16(struct md5_mb_lanes *l, size_t nblocks);
void md5_mb_avx512x24(struct md5_mb_lanes *l, size_t nblocks);
void md5_mb_avx512x32(struct md5_mb_lanes *l, size_t nblocks);
void md5_mb_avx512zx16(struct md5_mb_lanes *l, size_t nblocks);
void md5_mb_avx512zx32(struct md5_mb_lanes *l, size_t nblocks);
void md5_mb_avx512zx48(struct md5_mb_lanes *l, size_t nblocks);
void md5_mb_avx512zsx32(struct md5_mb_lanes *l, size_t nblocks);
void md5_mb_avx512zsx48(struct md5_mb_lanes *l, size_t nblocks);
#endif
#if MD5_MB_NEON
void md5_mb_neonx8(struct md5_mb_lanes *l, size_t nblocks);
void md5_mb_neonx16(struct md5_mb_lanes *l, size_t nblocks);
void md5_mb_neonx24(struct md5_mb_lanes *l, size_t nblocks);
#endif

#endif
