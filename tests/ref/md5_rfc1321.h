/* Reference block functions for tests and benchmarks; not backends of md5sum. */
#ifndef MD5_RFC1321_H
#define MD5_RFC1321_H

#include <stddef.h>
#include <stdint.h>

/* Textbook RFC 1321 C, same contract as md5_compress_portable (compress.h). */
void md5_compress_rfc1321(uint32_t state[4], const unsigned char *p, size_t nblocks);

#endif
