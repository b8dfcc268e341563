/* How much CPU time Linux's control groups let this process use.  A
 * container limited to 2 CPUs on a host of 64 sees all 64 in its affinity
 * mask; hashers started for each would split the lanes 64 ways and spend
 * the quota on narrow kernels (docs/PERFORMANCE.md). */
#ifndef MD5SUM_CGROUP_H
#define MD5SUM_CGROUP_H

/* The CPUs' worth of time per period that this process's cgroup and those
 * above it allow, the lowest of their quotas, rounded up (a fraction of a
 * CPU is time a further thread can use): cgroup v2's cpu.max, v1's
 * cpu.cfs_quota_us over cpu.cfs_period_us.  0 if there is no quota, or
 * none that can be read.  ROOT prefixes every path read: "" in use, a tree
 * made up by the tests otherwise. */
unsigned cgroup_cpus(const char *root);

#endif
