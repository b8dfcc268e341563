/* Thread creation that fits tight memory limits, and how many CPUs we may use. */
#ifndef MD5SUM_THREADS_H
#define MD5SUM_THREADS_H

#include <pthread.h>

/* Start FN(ARG) on a new thread with a small stack (it runs no deep calls):
 * under `ulimit -v` the default 8 MiB stacks would be the first thing to
 * fail.  Returns 0, or -1 if the thread could not be made.  No signal is
 * handled, so any thread may take a signal: its default action is the
 * process's. */
int thread_start(pthread_t *t, void *(*fn)(void *), void *arg);

/* The CPUs this process may run on (its affinity mask where the system has
 * one), at least 1. */
unsigned cpus_available(void);

#endif
