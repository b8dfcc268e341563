/* The clock is a chain of dependent adds, one cycle each on every x86-64 and
 * AArch64 core we target.  The addend is a register the compiler cannot see
 * the value of: Intel cores since Golden Cove fold chains of add-immediate
 * (x += 1) at rename, several per cycle, and such a chain reads ~12 GHz. */
#include "clock.h"

#include <stdint.h>
#include <time.h>

#if !defined(__GNUC__) && !defined(__clang__)
# error "bench/clock.c pins the chain with GNU C inline asm"
#endif

#define CHAIN_ITERS 4096 /* x 64 adds per run */

/* Forces X into a register here, so the adds around it cannot be merged. */
#define PIN(x) __asm__ volatile("" : "+r"(x))

static volatile uint32_t sink;

double bench_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Nanoseconds for CHAIN_ITERS x 64 dependent adds, i.e. that many cycles;
 * the loop counter runs alongside, off the chain. */
static double chain_ns(void)
{
#define ADD1 x += y; PIN(x)
#define ADD8 ADD1; ADD1; ADD1; ADD1; ADD1; ADD1; ADD1; ADD1
    uint32_t x = 0, y = 1;
    unsigned i;
    double t0;

    PIN(y);
    t0 = bench_now_ns();
    for (i = 0; i < CHAIN_ITERS; i++) {
        ADD8; ADD8; ADD8; ADD8; ADD8; ADD8; ADD8; ADD8;
    }
    t0 = bench_now_ns() - t0;
    sink = x;
    return t0;
#undef ADD8
#undef ADD1
}

double bench_ns_per_cycle(int runs)
{
    double best = chain_ns();

    while (--runs > 0) {
        double t = chain_ns();

        if (t < best)
            best = t;
    }
    return best / (CHAIN_ITERS * 64.0);
}
