/* MD5 block functions: the backend contract and the one place that chooses.
 *
 * Every backend absorbs NBLOCKS consecutive 64-byte blocks starting at P into
 * STATE.  P may have any alignment and NBLOCKS may be 0.  Backends only run the
 * block loop; buffering, padding and the length live in md5.c.  Each backend
 * is built on every target that can run it, whichever one md5_compress
 * names, so the tests can compare them: portable everywhere, aarch64 where
 * MD5_AARCH64_BUILT (elsewhere md5_aarch64.S assembles to nothing).
 */
#ifndef MD5_COMPRESS_H
#define MD5_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

/* Every backend's type; tables of backends in the tests use it too. */
typedef void md5_compress_fn(uint32_t state[4], const unsigned char *p, size_t nblocks);

/* True when this target can run the AArch64 backend (tests use it even when
 * MD5_PORTABLE_ONLY selects the portable core).  md5_aarch64.S tests the
 * same macros: it cannot include this header. */
#if defined(__aarch64__) && !defined(__AARCH64EB__)
# define MD5_AARCH64_BUILT 1
#else
# define MD5_AARCH64_BUILT 0
#endif

md5_compress_fn md5_compress_portable;
/* Two messages at once, NBLOCKS blocks each (the two-lane scalar kernel). */
void md5_compress2_portable(uint32_t s1[4], const unsigned char *p1, uint32_t s2[4],
                            const unsigned char *p2, size_t nblocks);
#if MD5_AARCH64_BUILT
md5_compress_fn md5_compress_aarch64;
#endif

/* Chosen from the compiler's target macros, so a cross compiler needs no
 * detection in make.  MD5_PORTABLE_ONLY (make IMPL=portable) forces C. */
#if defined(__aarch64__) && !defined(__AARCH64EB__) && !defined(MD5_PORTABLE_ONLY)
# define md5_compress md5_compress_aarch64
# define MD5_CORE_NAME "aarch64 assembly"
#else
# define md5_compress md5_compress_portable
# define MD5_CORE_NAME "portable C"
#endif

#endif
