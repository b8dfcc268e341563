/* sched_getaffinity is a GNU extension; the rest is POSIX.  The
 * feature-test macro is the documented way to ask for it. */
#define _GNU_SOURCE /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#include "threads.h"

#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

#define STACK_SIZE ((size_t)256 << 10)
int thread_start(struct thread *t, void *(*fn)(void *), void *arg)
{
    long page = sysconf(_SC_PAGESIZE);
    pthread_attr_t attr;
    int rc = -1;

    t->stack_len = STACK_SIZE + (size_t)(page > 0 ? page : 4096);
    t->stack = mmap(NULL, t->stack_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (t->stack == MAP_FAILED)
        return -1;
    /* Its lowest page is a guard: an overflow faults, as on any stack. */
    if (mprotect(t->stack, t->stack_len - STACK_SIZE, PROT_NONE) == 0 &&
        pthread_attr_init(&attr) == 0) {
        if (pthread_attr_setstack(&attr, (char *)t->stack + t->stack_len - STACK_SIZE,
                                  STACK_SIZE) == 0)
            rc = pthread_create(&t->id, &attr, fn, arg) == 0 ? 0 : -1;
        pthread_attr_destroy(&attr);
    }
    if (rc != 0)
        munmap(t->stack, t->stack_len);
    return rc;
}

void thread_join(struct thread *t)
{
    pthread_join(t->id, NULL);
    munmap(t->stack, t->stack_len);
}

unsigned cpus_within_quota(unsigned cpus, unsigned quota)
{
    unsigned most = quota < QUOTA_MIN ? QUOTA_MIN : quota;

    return quota == 0 || cpus < most ? cpus : most;
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
