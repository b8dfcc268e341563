/* preadv2 and RWF_NOWAIT (reading only what the page cache holds), the
 * cachestat system call, mincore, fstatfs and sysfs are Linux's; the
 * feature-test macro is the documented way to ask for them.  Elsewhere
 * every read may wait, and all storage is taken for a disk. */
#define _GNU_SOURCE /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#if !defined(SYS_cachestat) && (defined(__x86_64__) || defined(__aarch64__) || defined(__i386__) || defined(__s390x__))
#define SYS_cachestat 451   /* Linux 6.5; C libraries older than it lack the name */
#endif
#endif

#include "fdview.h"
#include "input.h"
#include "md5.h"

/* Is ST the file fd 1 or fd 2 goes to?  Those are looked up once: they
 * stay the same for the whole run. */
static int is_output(const struct stat *st)
{
    static struct stat out[2];
    static int looked, n;
    int i;

    if (!looked) {
        for (i = 1; i <= 2; i++)
            if (fstat(i, &out[n]) == 0 && S_ISREG(out[n].st_mode))
                n++;
        looked = 1;
    }
    for (i = 0; i < n; i++)
        if (st->st_dev == out[i].st_dev && st->st_ino == out[i].st_ino)
            return 1;
    return 0;
}

void source_init(void)
{
    struct stat st;

    memset(&st, 0, sizeof st);
    (void)is_output(&st);
}

/* What the descriptor FD, just opened, is (source_open).  One that cannot
 * be asked (fstat failing: a FUSE daemon's error) is read in order, as
 * anything of unknown size: GNU's only fstat is its stdio's, sizing a
 * buffer, which goes on without, and it reads the file. */
static int classify(int fd, off_t *size, int *in_order)
{
    struct stat st;

    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        *size = st.st_size;
        *in_order = is_output(&st);
    }
    return fd;
}

/* NAME opened ahead of its turn, by OPENER: only a regular file, as stat
 * tells by name (its size a guess, as any size is: a file may change while
 * read).  Anything else waits for its turn (-2, nothing opened): the open of
 * a FIFO lets its writer in, and one that wrote and left before the turn
 * would let the next writer in too, where GNU, opening at the turn, reads
 * one writer's data.  The path walked twice costs the 4 KiB set 1.02-1.05
 * of the time; a stat before the open and an fstat after it, 1.15
 * (docs/PERFORMANCE.md). */
static int open_ahead(const char *name, int (*opener)(const char *, int), off_t *size, int *in_order)
{
    struct stat st;

    /* A name that is not there is not there for GNU's process either (a
     * path through a descriptor of ours would end there for it: fdview.h).
     * Any other error its open tells, as GNU's process would see it. */
    if (stat(name, &st) != 0)
        return errno == ENOENT ? -1 : classify(opener(name, O_RDONLY | O_NONBLOCK), size, in_order);
    if (!S_ISREG(st.st_mode))
        return -2;
    *size = st.st_size;
    *in_order = is_output(&st);
    return opener(name, O_RDONLY | O_NONBLOCK);
}

/* fdview_open_quick, above the standard descriptors. */
static int open_quick(const char *name, int flags)
{
    return input_above_std(fdview_open_quick(name, flags));
}

int source_open(const char *name, int ahead, off_t *size, int *in_order)
{
    *size = -1;
    *in_order = 1;
    if (strcmp(name, "-") == 0)
        return input_open(name);
    if (ahead)
        return open_ahead(name, input_open_flags, size, in_order);
    return classify(input_open_flags(name, O_RDONLY | O_NONBLOCK), size, in_order);
}

int source_open_quick(const char *name, off_t *size, int *in_order)
{
    *size = -1;
    *in_order = 1;
    return strcmp(name, "-") == 0 ? -2 : open_ahead(name, open_quick, size, in_order);
}

/* pread, or with *NOWAIT a read that never waits for the storage: preadv2
 * with RWF_NOWAIT.  Where the file system cannot read so (tmpfs, ext2, FUSE,
 * overlayfs; old kernels), the page cache is asked whether it holds the rest
 * of the file, up to SIZE: if it does, the file is read plainly from then on
 * (*NOWAIT cleared).  Taking the refusal for "not in memory" left every read
 * of a tmpfs file to the one reader: the media folder took 2.5 times as long
 * there as on ext4 (docs/PERFORMANCE.md). */
static ssize_t read_at(int fd, unsigned char *buf, size_t len, off_t off, off_t size, int *nowait)
{
    if (!nowait || !*nowait)
        return pread(fd, buf, len, off);
#ifdef RWF_NOWAIT
    {
        struct iovec v;
        ssize_t n;

        v.iov_base = buf;
        v.iov_len = len;
        n = preadv2(fd, &v, 1, off, RWF_NOWAIT);
        if (n >= 0 || (errno != EOPNOTSUPP && errno != ENOSYS && errno != EINVAL))
            return n;
    }
#endif
    switch (source_cached(fd, off, size)) {
    case 1:
        *nowait = 0;
        return pread(fd, buf, len, off);
    case 0:
        errno = EAGAIN;
        return -1;
    default:
        errno = EOPNOTSUPP;
        return -1;
    }
}

enum source_got source_read(int fd, unsigned char *buf, size_t cap, off_t off, off_t size,
                            int *nowait, size_t *got)
{
    /* Where the rest fits, a block more is asked for: the end is then seen
     * by this read, a short one, and a file grown meanwhile by less than a
     * block ends here too (as GNU's next read would find it, give or take
     * the moment). */
    size_t want = size - off <= (off_t)cap ? cap + MD5_BLOCK_SIZE : cap;

    *got = 0;
    while (*got < want) {
        ssize_t n = read_at(fd, buf + *got, want - *got, off + (off_t)*got, size, nowait);

        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN && nowait && *nowait) {
            /* Part of it in memory: keep its whole blocks. */
            *got -= *got % MD5_BLOCK_SIZE;
            return *got > 0 ? SOURCE_MORE : SOURCE_LATER;
        }
        if (n < 0)
            return SOURCE_FAILED;
        if (n == 0)
            return SOURCE_END;
        *got += (size_t)n;
        /* Short at or past its size: the end, no further read to see 0.
         * Not where the size says 0: procfs and sysfs make such files as
         * they are read, a page a read, and only a read of 0 ends them. */
        if (*got < want && size > 0 && off + (off_t)*got >= size)
            return SOURCE_END;
    }
    return SOURCE_MORE;
}

#ifdef __linux__
#define RESIDENT_WINDOW 4096   /* pages mapped at once by resident() */

/* source_cached by mincore on mappings of FD's pages from OFF to SIZE, a
 * window at a time (nothing is faulted in): where cachestat cannot tell
 * (Linux before 6.5), or tells of the wrong file (overlayfs, below). */
static int resident(int fd, off_t off, off_t size, long page)
{
    unsigned char vec[RESIDENT_WINDOW];
    off_t at = off - off % page;
    size_t len, i;
    void *p;
    int all = 1;

    for (; all && at < size; at += (off_t)len) {
        len = size - at < (off_t)sizeof vec * page ? (size_t)(size - at) : sizeof vec * (size_t)page;
        p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, at);
        if (p == MAP_FAILED)
            return -1;
        if (mincore(p, len, vec) != 0)
            all = -1;
        for (i = 0; all == 1 && i < (len + (size_t)page - 1) / (size_t)page; i++)
            all = vec[i] & 1;
        munmap(p, len);
    }
    return all;
}

/* Is FD on overlayfs (a container's files)?  Its reads go to the file
 * below, and so does its page cache: cachestat of FD finds nothing. */
static int on_overlay(int fd)
{
    struct statfs fs;

    return fstatfs(fd, &fs) == 0 && fs.f_type == 0x794c7630;   /* OVERLAYFS_SUPER_MAGIC */
}
#endif

int source_cached(int fd, off_t off, off_t size)
{
#ifdef __linux__
    struct { uint64_t off, len; } range;
    struct { uint64_t cache, dirty, writeback, evicted, recently_evicted; } got;
    long page = sysconf(_SC_PAGESIZE);

    if (off >= size)
        return 1;
    if (page <= 0)
        return -1;
    range.off = (uint64_t)off;
    range.len = (uint64_t)(size - off);
#ifdef SYS_cachestat
    /* ENOSYS before Linux 6.5; EPERM where a container's seccomp filter
     * refuses the calls it does not know (Docker's before 20.10). */
    if (syscall(SYS_cachestat, fd, &range, &got, 0) != 0)
        return errno == ENOSYS || errno == EPERM ? resident(fd, off, size, page) : -1;
    if (got.cache >= (uint64_t)((size - 1) / page - off / page + 1))
        return 1;
    return on_overlay(fd) ? resident(fd, off, size, page) : 0;
#else
    (void)range;
    (void)got;
    return resident(fd, off, size, page);
#endif
#else
    (void)fd;
    (void)off;
    (void)size;
    return -1;
#endif
}

int source_wait_ready(int fd)
{
    struct stat st;
    struct pollfd p;
    int flags;

    if (fd == STDIN_FILENO)   /* the user's, as they left it */
        return 0;
    flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
        return -1;
    if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode))
        return 0;
    /* Opened without waiting, a FIFO reads as empty until its first writer
     * comes: wait for data, or for a writer that came and went. */
    p.fd = fd;
    p.events = POLLIN;
    while (poll(&p, 1, -1) < 0)
        if (errno != EINTR)
            return -1;
    return 0;
}

#if defined(__linux__) && defined(major)
/* The block device under FD's file system where its device number names
 * none (btrfs gives each subvolume a number of its own, with major 0, not
 * even the one /proc/self/mountinfo shows): the mount FD is on, found by
 * /proc/self/fdinfo's mnt_id, names its source in /proc/self/mountinfo
 * (field 1, and field 2 past " - ").  0 if that is no block device
 * (overlayfs, NFS, tmpfs, FUSE) or cannot be found. */
static dev_t mounted_from(int fd)
{
    char path[64], *line = NULL, *src;
    size_t cap = 0;
    long id = -1;
    struct stat st;
    dev_t found = 0;
    FILE *f;

    (void)snprintf(path, sizeof path, "/proc/self/fdinfo/%d", fd);
    if ((f = fopen(path, "r")) != NULL) {
        while (id < 0 && getline(&line, &cap, f) > 0)
            if (strncmp(line, "mnt_id:", 7) == 0)
                id = strtol(line + 7, NULL, 10);
        fclose(f);
    }
    f = id < 0 ? NULL : fopen("/proc/self/mountinfo", "r");
    while (f && getline(&line, &cap, f) > 0) {
        src = strstr(line, " - ");   /* spaces in names are written \040 */
        if (!src || strtol(line, NULL, 10) != id)
            continue;
        if ((src = strchr(src + 3, ' ')) != NULL) {
            src[1 + strcspn(src + 1, " \n")] = '\0';
            if (src[1] == '/' && stat(src + 1, &st) == 0 && S_ISBLK(st.st_mode))
                found = st.st_rdev;
        }
        break;
    }
    free(line);
    if (f)
        fclose(f);
    return found;
}
#endif

/* Linux says in sysfs, for FD's device or (a partition) the disk it is on;
 * for a file system without a device of its own, for the one it is on. */
static int says_not_rotational(int fd, dev_t dev)
{
#if defined(__linux__) && defined(major)
    static const char *const up[] = {"", "/.."};
    char path[80], c = '1';
    unsigned i;
    int flag = -1;

    if (major(dev) == 0 && (dev = mounted_from(fd)) == 0)
        return 0;
    for (i = 0; i < sizeof up / sizeof *up && flag < 0; i++) {
        (void)snprintf(path, sizeof path, "/sys/dev/block/%u:%u%s/queue/rotational",
                       (unsigned)major(dev), (unsigned)minor(dev), up[i]);
        flag = open(path, O_RDONLY | O_CLOEXEC);
    }
    if (flag >= 0) {
        if (read(flag, &c, 1) != 1)
            c = '1';
        close(flag);
    }
    return c == '0';
#else
    (void)fd;
    (void)dev;
    return 0;
#endif
}

int source_seek_free(int fd, struct source_storage *last)
{
    struct stat st;

    if (fstat(fd, &st) != 0)
        return 0;
    if (!last->known || st.st_dev != last->dev) {
        last->dev = st.st_dev;
        last->known = 1;
        last->seek_free = says_not_rotational(fd, st.st_dev);
    }
    return last->seek_free;
}
