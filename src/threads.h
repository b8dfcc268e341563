/* Thread creation that fits tight memory limits, and how many CPUs we may use. */
#ifndef MD5SUM_THREADS_H
#define MD5SUM_THREADS_H

#include <pthread.h>

/* A thread, and the stack it runs on. */
struct thread {
    pthread_t id;
    void *stack;
    size_t stack_len;
};

/* Start FN(ARG) on a new thread T with a small stack of its own (it runs no
 * deep calls): under `ulimit -v` the default 8 MiB stacks would be the first
 * thing to fail, and a stack the C library made would be kept for reuse
 * after the thread ends, where ours is given back.  Returns 0, or -1 if the
 * thread could not be made.  No signal is handled, so any thread may take a
 * signal: its default action is the process's. */
int thread_start(struct thread *t, void *(*fn)(void *), void *arg);

/* Wait for T to end, and free its stack. */
void thread_join(struct thread *t);

/* The CPUs this process may run on (its affinity mask where the system has
 * one), at least 1. */
unsigned cpus_available(void);

/* Of CPUS, those a cgroup's CPU QUOTA (cgroup.h; 0: none) lets us use: no
 * more than it, but QUOTA_MIN at least: a quota is spent over a period
 * (100 ms), and a run shorter than that ends sooner on two CPUs than on one
 * (the 256 KiB set under a quota of one CPU of two: 0.68 of the wall time),
 * where a longer one loses 10% (docs/PERFORMANCE.md). */
#define QUOTA_MIN 2
unsigned cpus_within_quota(unsigned cpus, unsigned quota);

#endif
