/* Small helpers shared by the core test programs. */
#ifndef MD5_TESTLIB_H
#define MD5_TESTLIB_H

#include <stddef.h>
#include <stdint.h>

void *xmalloc(size_t n);

/* Deterministic 64-bit xorshift; never returns the same stream for two seeds. */
uint64_t xorshift(uint64_t *state);

/* Write LEN bytes to DIR/NAME or exit(2). */
void write_file(const char *dir, const char *name, const void *data, size_t len);

/* Load "HEX  DIR/NAME" lines written by a reference md5sum; 0 on success. */
int load_expected(const char *path, const char *dir);

/* True when DIGEST equals the reference digest of NAME; says why not. */
int digest_matches(const char *name, const unsigned char digest[16]);

/* Print one TAP-like result line and count it. */
void report(int ok, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

int tests_failed(void);

/* Tests of the block functions against each other (backends.c). */
void backend_tests(const unsigned char *data, size_t len);

/* AAPCS64 register checks of the AArch64 block function (abi.c); a no-op on
 * other targets. */
void abi_tests_aarch64(const unsigned char *data);

/* Tests of the multi-buffer lane kernels against the core (mb_tests.c). */
void mb_tests(const unsigned char *data, size_t len);

/* The lane scheduler (src/lanes.c) against md5.c (lanes_tests.c). */
void lanes_tests(const unsigned char *data, size_t len);

/* The hasher (src/hasher.c) through a scripted flow (hasher_tests.c). */
void hasher_tests(const unsigned char *data, size_t len);

/* The cgroup CPU quota (src/cgroup.c) on trees made up below DIR
 * (cgroup_tests.c). */
void cgroup_tests(const char *dir);

#endif
