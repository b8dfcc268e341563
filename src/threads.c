/* sched_getaffinity is a GNU extension; the rest is POSIX.  The
 * feature-test macro is the documented way to ask for it. */
#define _GNU_SOURCE /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#include "threads.h"

#include <sched.h>
#include <unistd.h>

#define STACK_SIZE ((size_t)256 << 10)

int thread_start(pthread_t *t, void *(*fn)(void *), void *arg)
{
    pthread_attr_t attr;
    int rc;

    if (pthread_attr_init(&attr) != 0)
        return -1;
    pthread_attr_setstacksize(&attr, STACK_SIZE);
    rc = pthread_create(t, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    return rc == 0 ? 0 : -1;
}

unsigned cpus_available(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;

    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return (unsigned)CPU_COUNT(&set);
#endif
    {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        return n > 0 ? (unsigned)n : 1;
    }
}
