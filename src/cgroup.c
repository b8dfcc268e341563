/* cgroup.h: the limits are read where the kernel says the process's cgroup
 * is (/proc/self/cgroup) and where its hierarchy is mounted
 * (/proc/self/mountinfo), from that cgroup up to the mount's top.  The
 * files are read with plain read(2) and parsed in place (through stdio, a
 * call spent 320-385 us here, against 250-345; most of it is the kernel's).
 * A path with a space (written \040 in those files) is not unescaped: it is
 * not found, and there is no quota.  The buffers are the heap's, not the
 * stack's: GNU md5sum hashes with 16 KiB of stack (ulimit -s 16), and these
 * took 17 KiB of it. */
#include "cgroup.h"

#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fdio.h"

#define PATH_LEN 4096
#define TEXT_LEN 4096      /* of /proc/self/cgroup and of memory.stat read */
#define MOUNTS_LEN 32768   /* of /proc/self/mountinfo read: the mounts a
                            * container or a desktop has, and the cgroup ones
                            * come early */
#define MOST_CPUS 65536U   /* a quota above this is no limit we would reach */
#define NO_LIMIT_V1 (1LL << 62)   /* v1's memory limit from here up: none */

/* The lower of two quotas, 0 being none. */
static unsigned lower(unsigned low, unsigned q)
{
    return q > 0 && (low == 0 || q < low) ? q : low;
}

/* Is TOKEN one of the comma-separated LIST? */
static int has_token(const char *list, const char *token)
{
    size_t n = strlen(token);

    for (; list; list = strchr(list, ','), list = list ? list + 1 : NULL)
        if (strncmp(list, token, n) == 0 && (list[n] == ',' || list[n] == '\0'))
            return 1;
    return 0;
}

/* The buffers of one cgroup_limits call. */
struct scratch {
    char path[PATH_LEN];     /* read_text's, usual_mount's */
    char dir[PATH_LEN];      /* walk's */
    char text[TEXT_LEN];     /* dir_room's */
    char cgroups[TEXT_LEN];  /* cgroup_limits': /proc/self/cgroup */
};

/* The whole lines of DIR/FILE, up to CAP - 1 bytes, in BUF: BUF, or NULL.
 * ONCE: one read, all a cgroup's file of a few bytes gives (a system call
 * costs a few us here, and each file took four). */
static char *read_text(struct scratch *s, const char *dir, const char *file, char *buf, size_t cap,
                       int once)
{
    char *path = s->path, *end;
    ssize_t n;
    size_t got;
    int fd;

    if ((size_t)snprintf(path, PATH_LEN, "%s/%s", dir, file) >= PATH_LEN ||
        (fd = open(path, O_RDONLY)) < 0)
        return NULL;
    n = once ? read_some(fd, buf, cap - 1) : read_full(fd, buf, cap - 1);
    close(fd);
    got = n > 0 ? (size_t)n : 0;
    buf[got] = '\0';
    /* A line cut short by CAP is left out: "rw,cpuacct" cut to "rw,cpu". */
    if (got == cap - 1 && (end = strrchr(buf, '\n')) != NULL)
        end[1] = '\0';
    return buf;
}

/* The number DIR/FILE starts with: 1, or 0. */
static int read_number(struct scratch *s, const char *dir, const char *file, long long *n)
{
    char text[64], *end;

    if (!read_text(s, dir, file, text, sizeof text, 1))
        return 0;
    *n = strtoll(text, &end, 10);
    return end != text;
}

/* DIR's own quota, in CPUs rounded up; 0: none. */
static unsigned dir_quota(struct scratch *s, const char *dir, int v2)
{
    char text[64], *end;
    long long quota, period;

    if (v2) {
        /* "max 100000", or "200000 100000" */
        if (!read_text(s, dir, "cpu.max", text, sizeof text, 1))
            return 0;
        quota = strtoll(text, &end, 10);
        period = end == text ? 0 : strtoll(end, NULL, 10);
    } else if (!read_number(s, dir, "cpu.cfs_quota_us", &quota) ||
               !read_number(s, dir, "cpu.cfs_period_us", &period)) {
        return 0;
    }
    if (quota <= 0 || period <= 0)
        return 0;
    return quota / period >= (long long)MOST_CPUS ? MOST_CPUS
                                                  : (unsigned)((quota + period - 1) / period);
}

/* The value KEY has in a memory.stat's TEXT ("KEY VALUE" lines), or 0. */
static uintmax_t stat_value(const char *text, const char *key)
{
    size_t n = strlen(key);

    for (; text; text = strchr(text, '\n'), text = text ? text + 1 : NULL)
        if (strncmp(text, key, n) == 0 && text[n] == ' ')
            return strtoumax(text + n + 1, NULL, 10);
    return 0;
}

/* The bytes DIR's own memory limit leaves: the limit, less what the cgroup
 * holds, its page cache counted back in (reclaimed before anything is
 * killed); UINTMAX_MAX if it has no limit. */
static uintmax_t dir_room(struct scratch *s, const char *dir, int v2)
{
    char *text = s->text, *end;
    long long limit, high, usage;

    if (v2) {
        /* "max", or bytes; memory.high throttles the cgroup past it.  No
         * memory.max: no memory controller here, no memory.high either. */
        if (!read_text(s, dir, "memory.max", text, TEXT_LEN, 1))
            return UINTMAX_MAX;
        if ((limit = strtoll(text, &end, 10)) < 0 || end == text)
            limit = -1;
        if (read_number(s, dir, "memory.high", &high) && (limit < 0 || high < limit))
            limit = high;
    } else if (!read_number(s, dir, "memory.limit_in_bytes", &limit) || limit >= NO_LIMIT_V1) {
        limit = -1;   /* v1 writes "no limit" as a huge number */
    }
    if (limit < 0)
        return UINTMAX_MAX;
    if (!read_number(s, dir, v2 ? "memory.current" : "memory.usage_in_bytes", &usage) || usage < 0)
        usage = limit;
    return (uintmax_t)(limit > usage ? limit - usage : 0) +
           (read_text(s, dir, "memory.stat", text, TEXT_LEN, 0) ? stat_value(text, v2 ? "file" : "total_cache")
                                                              : 0);
}

/* A hierarchy's mount: its root within the hierarchy, its mount point. */
struct mount {
    const char *root, *point;
};

/* From ROOT/proc/self/mountinfo, read into TEXT (MOUNTS_LEN bytes), where
 * the v2 hierarchy (M[V2]) and v1's with the cpu (M[V1_CPU]) and memory
 * (M[V1_MEMORY]) controllers are mounted. */
enum { V2, V1_CPU, V1_MEMORY };
static void find_mounts(struct scratch *s, const char *root, char *text, struct mount m[3])
{
    char *line, *next, *field[6], *save, *type, *opts;
    int i, k;

    m[V2].root = m[V1_CPU].root = m[V1_MEMORY].root = NULL;
    if (!text || !read_text(s, root, "proc/self/mountinfo", text, MOUNTS_LEN, 0))
        return;
    /* "ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER" */
    for (line = text; line && *line; line = next) {
        if ((next = strchr(line, '\n')) != NULL)
            *next++ = '\0';
        for (i = 0, field[0] = strtok_r(line, " ", &save); i < 5 && field[i]; i++)
            field[i + 1] = strtok_r(NULL, " ", &save);
        while (i == 5 && field[5] && strcmp(field[5], "-") != 0)
            field[5] = strtok_r(NULL, " ", &save);
        type = i == 5 && field[5] ? strtok_r(NULL, " ", &save) : NULL;
        opts = type && strtok_r(NULL, " ", &save) ? strtok_r(NULL, " ", &save) : NULL;
        for (k = V2; opts && k <= V1_MEMORY; k++)
            if (!m[k].root && (k == V2 ? strcmp(type, "cgroup2") == 0
                                       : strcmp(type, "cgroup") == 0 &&
                                             has_token(opts, k == V1_CPU ? "cpu" : "memory"))) {
                m[k].root = field[3];
                m[k].point = field[4];
            }
    }
}

/* Where hierarchy K is mounted, if at its usual place (systemd's, Docker's
 * and Kubernetes'): CGROUP is there, seen from the hierarchy's top (not a
 * container's view from its own cgroup down), with a file only K's kind
 * has.  1 and M, or 0.  Reading mountinfo instead cost a call 150-250 us
 * here, and each system call 5-10. */
static int usual_mount(struct scratch *s, const char *root, int k, const char *cgroup,
                       struct mount *m)
{
    static const char *const point[][2] = {{"/sys/fs/cgroup", "/sys/fs/cgroup/unified"},
                                           {"/sys/fs/cgroup/cpu", NULL},
                                           {"/sys/fs/cgroup/memory", NULL}};
    static const char *const kind[] = {"cgroup.controllers", "cpu.cfs_period_us", "memory.limit_in_bytes"};
    int i;

    for (i = 0; i < 2 && point[k][i]; i++)
        if ((size_t)snprintf(s->path, PATH_LEN, "%s%s%s/%s", root, point[k][i], cgroup, kind[k]) <
                PATH_LEN &&
            access(s->path, F_OK) == 0) {
            m->root = "/";
            m->point = point[k][i];
            return 1;
        }
    return 0;
}

/* Into L, the lowest limits of CGROUP, a path in the hierarchy mounted at
 * M, and of those above it, as far as M shows them: its CPU quota if CPU,
 * its memory room if MEMORY. */
static void walk(struct scratch *s, const char *root, const struct mount *m, int v2,
                 const char *cgroup, int cpu, int memory, struct cgroup_limits *l)
{
    char *dir = s->dir, *slash;
    size_t top, n;
    uintmax_t room;

    if (!m->root)
        return;
    /* The mount shows the hierarchy from its root down (a container's own). */
    n = strcmp(m->root, "/") == 0 ? 0 : strlen(m->root);
    if (strncmp(cgroup, m->root, n) != 0 || (cgroup[n] != '/' && cgroup[n] != '\0'))
        return;
    cgroup += n;
    top = (size_t)snprintf(dir, PATH_LEN, "%s%s", root, strcmp(m->point, "/") == 0 ? "" : m->point);
    if (top >= PATH_LEN ||
        (size_t)snprintf(dir + top, PATH_LEN - top, "%s", strcmp(cgroup, "/") == 0 ? "" : cgroup) >=
            PATH_LEN - top)
        return;
    for (;;) {
        if (cpu)
            l->cpus = lower(l->cpus, dir_quota(s, dir, v2));
        if (memory && (room = dir_room(s, dir, v2)) < l->memory)
            l->memory = room;
        if (!(slash = strrchr(dir + top, '/')))
            return;
        *slash = '\0';
    }
}

void cgroup_limits(const char *root, int cpus, struct cgroup_limits *l)
{
    char *mounts = NULL, *line, *next, *controllers, *cgroup;
    int k, v2, found = 0;
    struct mount m[3], at;
    struct scratch *s = malloc(sizeof *s);

    l->cpus = 0;
    l->memory = UINTMAX_MAX;
    if (!s || !read_text(s, root, "proc/self/cgroup", s->cgroups, TEXT_LEN, 0)) {
        free(s);
        return;
    }
    /* "0::PATH" for v2; "ID:CONTROLLERS:PATH" for each v1 hierarchy */
    for (line = s->cgroups; line && *line; line = next) {
        if ((next = strchr(line, '\n')) != NULL)
            *next++ = '\0';
        if (!(controllers = strchr(line, ':')) || !(cgroup = strchr(++controllers, ':')))
            continue;
        *cgroup++ = '\0';
        v2 = strncmp(line, "0:", 2) == 0 && *controllers == '\0';
        for (k = V2; k <= V1_MEMORY; k++) {
            if (k == V2 ? !v2 : v2 || !has_token(controllers, k == V1_CPU ? "cpu" : "memory"))
                continue;
            if (k == V1_CPU && !cpus)
                continue;
            if (!usual_mount(s, root, k, cgroup, &at)) {
                if (!found++)
                    find_mounts(s, root, mounts = malloc(MOUNTS_LEN), m);
                at = m[k];
            }
            walk(s, root, &at, v2, cgroup, cpus && k != V1_MEMORY, k != V1_CPU, l);
        }
    }
    free(mounts);
    free(s);
}
