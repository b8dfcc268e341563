/* The core clock of the machine the benchmarks run on, measured: our machines
 * have no performance counters, so cycles are derived from time.  One
 * calibration for every in-process bench (blockbench, mb_bench). */
#ifndef BENCH_CLOCK_H
#define BENCH_CLOCK_H

/* CLOCK_MONOTONIC in nanoseconds. */
double bench_now_ns(void);

/* Nanoseconds per core cycle: the shortest of RUNS (>= 1) timed chains of
 * dependent register-register adds, one cycle per add.  Noise on a shared
 * machine only adds time, hence the minimum.  About 60 us per run at 4 GHz. */
double bench_ns_per_cycle(int runs);

#endif
