/* Driver for icount.sh: one call of a block function over N blocks.
 *   icount_main [N]      (default 100)
 * Build with -DMD5_BENCH_FN=<function> and link that function's object,
 * statically and without PIE.  Prints state[0] so the call cannot vanish. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void MD5_BENCH_FN(uint32_t state[4], const unsigned char *p, size_t nblocks);

int main(int argc, char **argv)
{
    size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100, i;
    unsigned char *buf = malloc(64 * n + 1);
    uint32_t state[4] = {1, 2, 3, 4};   /* any state: the count is the same */

    if (!buf)
        return 2;
    for (i = 0; i < 64 * n; i++)
        buf[i] = (unsigned char)(i % 251);
    MD5_BENCH_FN(state, buf, n);
    printf("%08x\n", (unsigned)state[0]);
    free(buf);
    return 0;
}
