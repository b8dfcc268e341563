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
 * one), at least 1; no more than QUOTA (its cgroups' CPU quota, cgroup.h;
 * 0: none) allows, but two for quotas under two CPUs. */
unsigned cpus_available(unsigned quota);

#endif
