/* cgroup_limits (src/cgroup.c) on made-up trees: /proc/self/cgroup,
 * /proc/self/mountinfo and the cgroup files below a scratch root, laid out
 * as the kernel documents them (Documentation/admin-guide/cgroup-v2.rst,
 * cgroup-v1/, proc(5)); the expected quotas are worked out by hand. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../src/cgroup.h"
#include "testlib.h"

static char root[4096];
static char made[64][512];   /* below ROOT, in the order made */
static int n_made;

/* Note PATH as made, to be removed by clear. */
static void note(const char *path)
{
    size_t len = strlen(path) + 1;

    if (n_made < 64 && len <= sizeof made[0])
        memcpy(made[n_made++], path, len);
}

/* Write TEXT to ROOT/PATH, making the directories on the way. */
static void put(const char *path, const char *text)
{
    char full[8192], *slash;

    snprintf(full, sizeof full, "%s/%s", root, path);
    for (slash = strchr(full + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdir(full, 0755) == 0)
            note(full);
        *slash = '/';
    }
    write_file(root, path, text, strlen(text));
    note(full);
}

/* ROOT and what was made below it, the latest first. */
static void clear(void)
{
    while (n_made > 0)
        (void)remove(made[--n_made]);
    if (root[0])
        (void)rmdir(root);
    root[0] = '\0';
}

static unsigned cpus(void)
{
    struct cgroup_limits l;

    cgroup_limits(root, 1, &l);
    return l.cpus;
}

static uintmax_t memory(void)
{
    struct cgroup_limits l;

    cgroup_limits(root, 1, &l);
    return l.memory;
}

/* A fresh ROOT below DIR for each case. */
static void fresh(const char *dir)
{
    clear();
    snprintf(root, sizeof root, "%s/cgroup-XXXXXX", dir);
    if (!mkdtemp(root)) {
        perror(root);
        exit(2);
    }
}

#define V2_MOUNT "30 22 0:27 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
#define V1_MEMORY_MOUNT "34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
#define MIB(n) ((uintmax_t)(n) << 20)
#define V1_CPU_MOUNT(root) \
    "31 30 0:28 " root " /sys/fs/cgroup/cpu,cpuacct rw,relatime master:9 - cgroup cgroup rw,cpu,cpuacct\n"

void cgroup_tests(const char *dir)
{
    fresh(dir);
    report(cpus() == 0, "cgroup: no /proc files, no quota");

    fresh(dir);
    put("proc/self/cgroup", "0::/user.slice/job\n");
    put("proc/self/mountinfo", "22 1 0:21 / /proc rw - proc proc rw\n" V2_MOUNT);
    put("sys/fs/cgroup/user.slice/job/cpu.max", "max 100000\n");
    put("sys/fs/cgroup/user.slice/cpu.max", "250000 100000\n");
    put("sys/fs/cgroup/cpu.max", "max 100000\n");
    report(cpus() == 3, "cgroup v2: a parent's quota of 2.5 CPUs, rounded up: 3 (got %u)",
           cpus());
    put("sys/fs/cgroup/user.slice/job/cpu.max", "150000 100000\n");
    report(cpus() == 2, "cgroup v2: the leaf's 1.5 under its parent's 2.5: 2 (got %u)",
           cpus());
    put("sys/fs/cgroup/user.slice/job/cpu.max", "max 100000\n");
    put("sys/fs/cgroup/user.slice/cpu.max", "max 100000\n");
    report(cpus() == 0, "cgroup v2: max all the way up, no quota (got %u)", cpus());

    /* A container's namespace: its own cgroup is "/", the mount's top. */
    fresh(dir);
    put("proc/self/cgroup", "0::/\n");
    put("proc/self/mountinfo", V2_MOUNT);
    put("sys/fs/cgroup/cpu.max", "50000 100000\n");
    report(cpus() == 1, "cgroup v2 in a namespace: half a CPU, rounded up: 1 (got %u)",
           cpus());

    /* v1, the hierarchy mounted from the container's cgroup down. */
    fresh(dir);
    put("proc/self/cgroup", "5:memory:/docker/c1\n4:cpu,cpuacct:/docker/c1\n0::/\n");
    put("proc/self/mountinfo", V2_MOUNT V1_CPU_MOUNT("/docker/c1"));
    put("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "400000\n");
    put("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
    report(cpus() == 4, "cgroup v1: 400000 us a 100000 us period: 4 (got %u)",
           cpus());
    put("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
    report(cpus() == 0, "cgroup v1: a quota of -1 is none (got %u)", cpus());

    /* Both at once (a hybrid system): the lower quota. */
    put("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "700000\n");
    put("sys/fs/cgroup/cpu.max", "200000 100000\n");
    report(cpus() == 2, "cgroup v1 and v2 both limited: the lower, 2 (got %u)",
           cpus());

    /* A cgroup outside what the mount shows: nothing can be read for it. */
    fresh(dir);
    put("proc/self/cgroup", "4:cpu,cpuacct:/other\n");
    put("proc/self/mountinfo", V1_CPU_MOUNT("/docker/c1"));
    put("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us", "100000\n");
    put("sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
    report(cpus() == 0, "cgroup v1: a cgroup the mount does not show, no quota (got %u)",
           cpus());

    /* cpuacct is not cpu: neither its line nor its mount is the quota's. */
    fresh(dir);
    put("proc/self/cgroup", "3:cpuacct:/x\n");
    put("proc/self/mountinfo", "32 30 0:29 / /sys/fs/cgroup/cpuacct rw - cgroup cgroup rw,cpuacct\n");
    put("sys/fs/cgroup/cpuacct/x/cpu.cfs_quota_us", "100000\n");
    put("sys/fs/cgroup/cpuacct/x/cpu.cfs_period_us", "100000\n");
    report(cpus() == 0, "cgroup v1: cpuacct alone sets no quota (got %u)", cpus());

    /* Memory: the limit, less what the cgroup holds but its page cache. */
    fresh(dir);
    put("proc/self/cgroup", "0::/ci/job\n");
    put("proc/self/mountinfo", V2_MOUNT);
    report(memory() == UINTMAX_MAX, "cgroup v2: no memory files, no memory limit");
    put("sys/fs/cgroup/ci/job/memory.max", "104857600\n");
    put("sys/fs/cgroup/ci/job/memory.high", "max\n");
    put("sys/fs/cgroup/ci/job/memory.current", "62914560\n");
    put("sys/fs/cgroup/ci/job/memory.stat", "anon 41943040\nfile 20971520\nkernel 0\n");
    report(memory() == MIB(60), "cgroup v2: 100 MiB less 60 held, 20 of them page cache: 60 MiB (got %ju)",
           memory() >> 20);
    put("sys/fs/cgroup/ci/job/memory.high", "83886080\n");
    report(memory() == MIB(40), "cgroup v2: memory.high below memory.max is the limit: 40 MiB (got %ju)",
           memory() >> 20);
    put("sys/fs/cgroup/ci/memory.max", "73400320\n");
    put("sys/fs/cgroup/ci/memory.current", "69206016\n");
    put("sys/fs/cgroup/ci/memory.stat", "file_mapped 0\nfile 0\n");
    report(memory() == MIB(4), "cgroup v2: a parent with 4 MiB left: 4 MiB (got %ju)", memory() >> 20);
    put("sys/fs/cgroup/ci/job/memory.max", "max\n");
    put("sys/fs/cgroup/ci/job/memory.high", "max\n");
    put("sys/fs/cgroup/ci/memory.max", "max\n");
    report(memory() == UINTMAX_MAX, "cgroup v2: max all the way up, no memory limit");

    fresh(dir);
    put("proc/self/cgroup", "6:memory:/docker/c1\n4:cpu,cpuacct:/docker/c1\n");
    put("proc/self/mountinfo", V1_CPU_MOUNT("/") V1_MEMORY_MOUNT);
    put("sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n");
    put("sys/fs/cgroup/memory/docker/c1/memory.limit_in_bytes", "67108864\n");
    put("sys/fs/cgroup/memory/docker/c1/memory.usage_in_bytes", "73400320\n");
    put("sys/fs/cgroup/memory/docker/c1/memory.stat", "cache 1048576\nrss 0\ntotal_cache 20971520\n");
    report(memory() == MIB(20), "cgroup v1: 64 MiB, 70 held, 20 of them page cache: 20 MiB (got %ju)",
           memory() >> 20);
    put("sys/fs/cgroup/memory/docker/c1/memory.limit_in_bytes", "9223372036854771712\n");
    report(memory() == UINTMAX_MAX && cpus() == 0, "cgroup v1: v1's no-limit number, no memory limit");

    /* At the usual place, mountinfo is not read (none here). */
    fresh(dir);
    put("proc/self/cgroup", "0::/a\n");
    put("sys/fs/cgroup/a/cgroup.controllers", "cpu memory\n");
    put("sys/fs/cgroup/a/cpu.max", "300000 100000\n");
    report(cpus() == 3, "cgroup v2 at /sys/fs/cgroup, no mountinfo read: 3 (got %u)", cpus());

    /* The usual place, but a container's view from its own cgroup down:
     * the cgroup is not there by its path, mountinfo says where it is. */
    fresh(dir);
    put("proc/self/cgroup", "6:memory:/docker/c1\n");
    put("proc/self/mountinfo", "34 30 0:31 /docker/c1 /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n");
    put("sys/fs/cgroup/memory/memory.limit_in_bytes", "33554432\n");
    put("sys/fs/cgroup/memory/memory.usage_in_bytes", "0\n");
    report(memory() == MIB(32), "cgroup v1 seen from a container's cgroup down: 32 MiB (got %ju)",
           memory() >> 20);
    clear();
}
