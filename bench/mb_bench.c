/* mb_bench: aggregate cycles per byte of each lane kernel this CPU runs, by
 * number of messages in flight.  A measurement, not a test.
 *
 *   mb_bench [SAMPLES [KIB]]      (default 300 samples of 8 KiB per message)
 *
 * Each sample is one kernel call over KIB KiB in each busy lane (the other
 * lanes idle), timed with clock_gettime; we print the minimum and the median
 * over the samples, because the machine is shared and noise only adds time.
 * Cycles come from the clock measured before and after (clock.h).
 *
 * The default, 8 KiB a lane (256 KiB for 32), stays in L2: the kernels'
 * own speed.  KIB 256 gives each of the 32 lanes its own 256 KiB (8 MiB),
 * the data coming from L3 or DRAM as it does from files; each sample's busy
 * lanes take the next buffers in turn, so with few in flight the reads still
 * sweep all 8 MiB and do not settle in L2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/compress/mb.h"
#include "clock.h"

#define CLOCK_RUNS 1000 /* about 60 ms of clock measurement */
#define WARM_NS 200e6   /* 200 ms */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Seconds of SAMPLES calls of K over BLOCKS blocks with BUSY lanes busy,
 * each call's lanes reading the next BUSY buffers in turn: sorted into T. */
static void time_kernel(const struct md5_mb_kernel *k, unsigned busy, size_t blocks,
                        unsigned char *const buf[], double *t, int samples)
{
    struct md5_mb_lanes l;
    unsigned i, next = 0;
    int s;

    memset(&l, 0, sizeof l);
    for (s = -3; s < samples; s++) { /* three warm-up calls */
        double t0;

        for (i = 0; i < MD5_MB_MAX_LANES; i++)
            l.in[i] = i < busy ? buf[next++ % MD5_MB_MAX_LANES] : NULL;
        t0 = bench_now_ns();
        k->run(&l, blocks);
        if (s >= 0)
            t[s] = bench_now_ns() - t0;
    }
    qsort(t, (size_t)samples, sizeof *t, cmp_double);
}

/* Runs KERNEL on all its lanes for WARM_NS first: the first kernel timed
 * otherwise ran while the core was still changing its clock (on Zen 4 its
 * medians were half again its minima, the other kernels' a few percent). */
static void warm_up(const struct md5_mb_kernel *k, unsigned char *const buf[], size_t blocks)
{
    struct md5_mb_lanes l;
    double t0 = bench_now_ns();
    unsigned i;

    memset(&l, 0, sizeof l);
    while (bench_now_ns() - t0 < WARM_NS) {
        for (i = 0; i < k->lanes; i++)
            l.in[i] = buf[i];
        k->run(&l, blocks);
    }
}

int main(int argc, char **argv)
{
    static const unsigned flights[] = {1, 2, 4, 8, 16, 24, 32, 48};
    const struct md5_mb_kernel *const *k;
    unsigned char *buf[MD5_MB_MAX_LANES];
    int samples = argc > 1 ? atoi(argv[1]) : 300, kib = argc > 2 ? atoi(argv[2]) : 8;
    size_t blocks = (size_t)kib * 1024 / 64, room;
    unsigned char *region;
    double *t, cyc_before, cyc_after;
    unsigned i, f;

    if (samples < 1 || kib < 1 || kib > 1 << 20) {
        fprintf(stderr, "usage: mb_bench [SAMPLES [KIB]]\n");
        return 2;
    }
    t = malloc((size_t)samples * sizeof *t);
    /* One region, each buffer 5 cache lines further into its page than the
     * last, as the engine's are (flow.c): buffers that all start at the
     * same place in a page put every lane's block in the same L1 set, and
     * 48 lanes thrash its 12 ways (128 KiB a lane: 0.41 cycles/byte
     * against 0.26 so staggered). */
    room = (64 * blocks + 4095) / 4096 * 4096 + 5 * 64;
    if (posix_memalign((void **)&region, 4096, room * MD5_MB_MAX_LANES) != 0 || !t) {
        perror("mb_bench");
        return 2;
    }
    for (i = 0; i < MD5_MB_MAX_LANES; i++) {
        size_t j;

        buf[i] = region + i * room;
        for (j = 0; j < 64 * blocks; j++)
            buf[i][j] = (unsigned char)(j * 131 + i * 7);
    }
    warm_up(md5_mb_kernels()[0], buf, blocks);
    cyc_before = bench_ns_per_cycle(CLOCK_RUNS);
    printf("# clock %.3f GHz (dependent register adds, best of %d); %d samples of %d KiB per message,"
           " %d KiB of buffers\n", 1 / cyc_before, CLOCK_RUNS, samples, kib, kib * MD5_MB_MAX_LANES);
    printf("%-11s %9s %9s %9s %10s\n", "kernel", "in-flight", "min c/B", "med c/B", "MB/s(min)");
    for (k = md5_mb_kernels(); *k; k++)
        for (f = 0; f < sizeof flights / sizeof flights[0]; f++) {
            unsigned busy = flights[f];
            double bytes = (double)busy * (double)blocks * 64;

            /* The scalar kernel has one lane: more in flight only queue. */
            if (busy > (*k)->lanes)
                break;
            time_kernel(*k, busy, blocks, buf, t, samples);
            printf("%-11s %9u %9.3f %9.3f %10.0f\n", (*k)->name, busy, t[0] / cyc_before / bytes,
                   t[samples / 2] / cyc_before / bytes, bytes / t[0] * 1e3);
            fflush(stdout);
        }
    cyc_after = bench_ns_per_cycle(CLOCK_RUNS);
    printf("# clock after: %.3f GHz\n", 1 / cyc_after);
    return 0;
}
