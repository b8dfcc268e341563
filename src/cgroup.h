/* What Linux's control groups let this process use.  A container limited
 * to 2 CPUs on a host of 64 sees all 64 in its affinity mask: hashers
 * started for each would split the lanes 64 ways and spend the quota on
 * narrow kernels.  And a container's memory limit is not an address-space
 * limit: the lanes' buffers are mapped whatever it is, and past it, as they
 * are touched, the process is killed (docs/PERFORMANCE.md). */
#ifndef MD5SUM_CGROUP_H
#define MD5SUM_CGROUP_H

#include <stdint.h>

/* The limits of the process's cgroup and of those above it, the lowest of
 * each: cgroup v2's cpu.max, memory.max and memory.high; v1's
 * cpu.cfs_quota_us over cpu.cfs_period_us and memory.limit_in_bytes. */
struct cgroup_limits {
    unsigned cpus;     /* CPUs' worth of time a period, rounded up (a
                        * fraction of a CPU is time a further thread can
                        * use); 0: no quota, or none that can be read */
    uintmax_t memory;  /* bytes the limit leaves: the limit less what the
                        * cgroup holds, its page cache counted back in (it
                        * is reclaimed before anything is killed);
                        * UINTMAX_MAX: no limit */
};

/* Read them into L, the CPU quota only if CPUS (0 otherwise: each file read
 * costs a call).  ROOT prefixes every path read: "" in use, a tree made up
 * by the tests otherwise. */
void cgroup_limits(const char *root, int cpus, struct cgroup_limits *l);

#endif
