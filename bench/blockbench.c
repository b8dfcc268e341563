/* blockbench: cycles per byte of the MD5 block functions, in process.
 *
 *   blockbench LABEL [ROUNDS]   time every function (ROUNDS x 100 samples)
 *   blockbench LABEL 0          hash the buffer once with each function,
 *                               untimed: for valgrind --tool=callgrind
 *
 * Hardware counters are not available on our machines, so the core clock is
 * measured instead (clock.h).  Each block function hashes a 64 KiB buffer
 * (cache resident) many times, one timed call per sample, interleaved with
 * clock samples; the fastest clock sample is the clock.  The machine is
 * shared and noise only ever adds time, so the figures are the minimum, the
 * 10th percentile and the median over all samples; quote the minimum.
 * A measurement, not a test: it checks only that every function agrees with
 * md5_compress_portable before timing it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/compress/compress.h"
#include "../tests/ref/md5_rfc1321.h"
#include "clock.h"

#define BUF_BLOCKS 1024          /* 64 KiB: stays in L2, about 300k cycles */
#define SAMPLES_PER_ROUND 100

static const struct subject {
    const char *name;
    md5_compress_fn *fn;
} subjects[] = {
    {"portable", md5_compress_portable},
    {"rfc1321", md5_compress_rfc1321},
};
#define N_SUBJECTS (sizeof subjects / sizeof subjects[0])

static double call_ns(md5_compress_fn *fn, uint32_t state[4], const unsigned char *buf)
{
    double t0 = bench_now_ns();
    fn(state, buf, BUF_BLOCKS);
    return bench_now_ns() - t0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    const char *label = argc > 1 ? argv[1] : "";
    int rounds = argc > 2 ? atoi(argv[2]) : 20;
    size_t n = (size_t)(rounds > 0 ? rounds : 1) * SAMPLES_PER_ROUND, i, j, k;
    unsigned char *buf = malloc(BUF_BLOCKS * 64);
    double *t = malloc(N_SUBJECTS * n * sizeof *t), ns_per_cycle = 1e30;
    uint32_t state[N_SUBJECTS][4] = {{0}};

    if (!buf || !t) {
        perror("blockbench");
        return 1;
    }
    for (i = 0; i < BUF_BLOCKS * 64; i++)
        buf[i] = (unsigned char)(i * 131 + (i >> 8));
    if (rounds == 0) {
        for (j = 0; j < N_SUBJECTS; j++)
            subjects[j].fn(state[j], buf, BUF_BLOCKS);
        printf("%s: each function hashed %d blocks once\n", label, BUF_BLOCKS);
        return 0;
    }
    for (j = 0; j < N_SUBJECTS; j++) {
        uint32_t want[4] = {1, 2, 3, 4}, got[4] = {1, 2, 3, 4};
        md5_compress_portable(want, buf, BUF_BLOCKS);
        subjects[j].fn(got, buf, BUF_BLOCKS);
        if (memcmp(want, got, sizeof got) != 0) {
            fprintf(stderr, "blockbench: %s disagrees with md5_compress_portable\n", subjects[j].name);
            return 1;
        }
        memcpy(state[j], got, sizeof got);
    }
    /* Round-robin, so slow spells of the shared machine hit every subject. */
    for (i = 0; i < n; i++) {
        double c = bench_ns_per_cycle(1);
        if (c < ns_per_cycle)
            ns_per_cycle = c;
        for (j = 0; j < N_SUBJECTS; j++)
            t[j * n + i] = call_ns(subjects[j].fn, state[j], buf);
    }
    printf("# clock %.3f GHz (dependent register adds, best of %zu); %d KiB buffer, %zu samples per function\n",
           1 / ns_per_cycle, n, BUF_BLOCKS * 64 / 1024, n);
    printf("%-24s %-10s %7s %7s %7s  %s\n", "# compiler", "function", "min", "p10", "median",
           "cycles/byte (min x 64 = cycles/block)");
    for (j = 0; j < N_SUBJECTS; j++) {
        double *s = t + j * n, cpb[3];
        const size_t at[3] = {0, n / 10, n / 2};
        qsort(s, n, sizeof *s, cmp_double);
        for (k = 0; k < 3; k++)
            cpb[k] = s[at[k]] / ns_per_cycle / (BUF_BLOCKS * 64.0);
        printf("%-24s %-10s %7.3f %7.3f %7.3f  %.0f\n", label, subjects[j].name, cpb[0], cpb[1], cpb[2],
               cpb[0] * 64);
    }
    free(t);
    free(buf);
    return 0;
}
