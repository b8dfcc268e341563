/* coretime GIB: wall milliseconds for the MD5 core md5sum uses
 * (md5_compress, compress.h) to absorb GIB GiB from a 256 KiB buffer, in
 * one thread: the floor for one large file.  A measurement, not a test. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../src/compress/compress.h"

#define BUF ((size_t)256 << 10)

int main(int argc, char **argv)
{
    static unsigned char buf[BUF];
    uint32_t state[4] = {1, 2, 3, 4};
    size_t n = (size_t)(argc > 1 ? atoi(argv[1]) : 1) << 30, i;
    struct timespec t0, t1;

    for (i = 0; i < BUF; i++)
        buf[i] = (unsigned char)(i * 131);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (i = 0; i < n; i += BUF)
        md5_compress(state, buf, BUF / 64);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.1f %08x\n", (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6,
           (unsigned)state[0]);
    return 0;
}
