/* LD_PRELOAD fault injector for tests/cli/resize.bats and faults.bats.
 * Reads are read(2), pread(2) and preadv2(2) (the engine's reads that take
 * only what the page cache holds), from any thread.
 * - Resizing: just before the program's first read of the file named by
 *   $RESIZE_PATH that reaches past offset $RESIZE_AT, the file is truncated
 *   or extended to $RESIZE_TO bytes.  The file then changes at a known
 *   point of its reading, and the result can be compared with GNU md5sum's
 *   digest of the file as it ends up.
 * - Failing: with $FAIL_AT set, every read that reaches past that offset of
 *   a regular file larger than it fails with EIO, as a bad disk sector would
 *   make it, whichever thread reads and wherever the reading began.
 * - No reads that never wait: with $NOWAIT_UNSUPPORTED set, preadv2 with
 *   RWF_NOWAIT fails with EOPNOTSUPP, as on tmpfs or ext2.
 * - No cachestat: with $CACHESTAT_UNSUPPORTED set, syscall(451) fails with
 *   ENOSYS, as on Linux before 6.5 (Debian 12's 6.1); set to EPERM, with
 *   EPERM, as a container's seccomp filter may refuse it.
 * - Failing closes: with $CLOSE_FAIL_SIZE set, closing a regular file of
 *   that many bytes closes it and then fails with EIO, as NFS reports a
 *   write-back or server error late.
 * - Slow FIFO closes: with $FIFO_CLOSE_DELAY_MS set, closing a FIFO first
 *   waits that many milliseconds, as a busy machine may stall between two
 *   calls: a writer that an open let in has written and left meanwhile.
 * - Failing fstat: with $FSTAT_FAIL_SIZE set, fstat of a regular file of
 *   that many bytes fails with EIO, as a FUSE daemon's getattr can.
 * - Failing threads: with $THREADS_FAIL_FROM=N set, the Nth call of
 *   pthread_create and every later one fail with EAGAIN, as they do when a
 *   cgroup's pids.max or RLIMIT_NPROC is reached.
 * - No affinity mask: with $AFFINITY_UNSUPPORTED set, sched_getaffinity
 *   fails with EPERM, as a container's seccomp filter may refuse it.
 * - Many CPUs: with $AFFINITY_CPUS=N set, sched_getaffinity reports CPUs 0
 *   to N-1, as a container on a host of N CPUs sees them.
 * - Failing allocations: with $MALLOC_FAIL_MIN=N set, malloc and realloc
 *   of N bytes or more fail with ENOMEM; with $CALLOC_FAIL_MIN=N, calloc
 *   so.  Memory runs out where it is asked for in large pieces first.  Only
 *   in a program named md5sum: the shells that run it must not fail.
 * - No mappings of files: with $MMAP_UNSUPPORTED set, mmap of a file
 *   descriptor fails with ENODEV, as on a FUSE file system that reads
 *   directly (direct_io), in a program named md5sum.
 * - Not seekable: with $NONSEEKABLE_SIZE set, pread and preadv2 of a
 *   regular file of that many bytes fail with ESPIPE, as for a file opened
 *   nonseekable (tracefs's, a FUSE daemon's); read reads it.
 * - Advice logged: with $FADVISE_LOG=FILE set, each posix_fadvise call
 *   adds a line "PATH OFFSET LENGTH ADVICE" to FILE (PATH as /proc/self/fd
 *   names it, ADVICE WILLNEED or the number), then is made.
 * - A disk that rotates, or not: with $ROTATIONAL set to 1 or 0, opening a
 *   block device's queue/rotational in sysfs (open, open64) gives a pipe
 *   that reads that digit, whatever this machine's disk says. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <stdarg.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

typedef ssize_t pread_fn(int, void *, size_t, off64_t);
typedef ssize_t read_fn(int, void *, size_t);
typedef ssize_t preadv2_fn(int, const struct iovec *, int, off64_t, int);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int done;

typedef int fstat_fn(int, struct stat *);
typedef int fstat64_fn(int, struct stat64 *);

/* fstat itself, for what this file asks (fstat below may be made to fail). */
static int real_fstat(int fd, struct stat *st)
{
    return ((fstat_fn *)dlsym(RTLD_NEXT, "fstat"))(fd, st);
}

/* Should an fstat of FD fail, by $FSTAT_FAIL_SIZE? */
static int fstat_fails(int fd)
{
    const char *size = getenv("FSTAT_FAIL_SIZE");
    struct stat st;

    return size && real_fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
           st.st_size == (off_t)strtoll(size, NULL, 10);
}

int fstat(int fd, struct stat *st)
{
    if (fstat_fails(fd)) {
        errno = EIO;
        return -1;
    }
    return real_fstat(fd, st);
}

/* Where a program calls it by this name (32-bit, _FILE_OFFSET_BITS=64). */
int fstat64(int fd, struct stat64 *st)
{
    if (fstat_fails(fd)) {
        errno = EIO;
        return -1;
    }
    return ((fstat64_fn *)dlsym(RTLD_NEXT, "fstat64"))(fd, st);
}

/* Resize now if FD is the file, a read of N bytes at AT reaches past
 * $RESIZE_AT, and it was not done.  A read racing from another thread
 * waits until the file has its new size. */
static void maybe_resize(int fd, off64_t at, size_t n)
{
    const char *path = getenv("RESIZE_PATH"), *to = getenv("RESIZE_TO"),
               *from = getenv("RESIZE_AT");
    struct stat a, b;

    if (!path || !to || !from || at + (off64_t)n <= (off64_t)strtoll(from, NULL, 10) || real_fstat(fd, &a) != 0 ||
        stat(path, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino)
        return;
    pthread_mutex_lock(&lock);
    if (!done && truncate(path, (off_t)strtoll(to, NULL, 10)) != 0)
        abort();
    done = 1;
    pthread_mutex_unlock(&lock);
}

/* Should a read of N bytes at AT from FD fail, by $FAIL_AT? */
static int fails(int fd, off64_t at, size_t n)
{
    const char *from = getenv("FAIL_AT");
    struct stat st;
    off64_t limit;

    if (!from || n == 0)
        return 0;
    limit = (off64_t)strtoll(from, NULL, 10);
    return at + (off64_t)n > limit && real_fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
           st.st_size > limit;
}

/* What every read does first: resize, or fail (-1, errno EIO). */
static int fault(int fd, off64_t at, size_t n)
{
    maybe_resize(fd, at, n);
    if (!fails(fd, at, n))
        return 0;
    errno = EIO;
    return -1;
}

/* What every read at an offset does first: fail (-1, errno ESPIPE) if FD
 * is not seekable by $NONSEEKABLE_SIZE, or fault. */
static int fault_at(int fd, off64_t at, size_t n)
{
    const char *size = getenv("NONSEEKABLE_SIZE");
    struct stat st;

    if (size && real_fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
        st.st_size == (off_t)strtoll(size, NULL, 10)) {
        errno = ESPIPE;
        return -1;
    }
    return fault(fd, at, n);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    if (fault_at(fd, off, n) != 0)
        return -1;
    return ((pread_fn *)dlsym(RTLD_NEXT, "pread"))(fd, buf, n, off);
}

/* With _FILE_OFFSET_BITS=64 the program calls pread64. */
ssize_t pread64(int fd, void *buf, size_t n, off64_t off)
{
    if (fault_at(fd, off, n) != 0)
        return -1;
    return ((pread_fn *)dlsym(RTLD_NEXT, "pread64"))(fd, buf, n, off);
}

ssize_t read(int fd, void *buf, size_t n)
{
    if (fault(fd, lseek64(fd, 0, SEEK_CUR), n) != 0)
        return -1;
    return ((read_fn *)dlsym(RTLD_NEXT, "read"))(fd, buf, n);
}

/* The engine reads one buffer at a time. */
static size_t iov_len(const struct iovec *v, int n)
{
    size_t len = 0;
    int i;

    for (i = 0; i < n; i++)
        len += v[i].iov_len;
    return len;
}

/* Is FLAGS a read that never waits, on a file system made to refuse it? */
static int refused(int flags)
{
    if (!(flags & RWF_NOWAIT) || !getenv("NOWAIT_UNSUPPORTED"))
        return 0;
    errno = EOPNOTSUPP;
    return 1;
}

ssize_t preadv2(int fd, const struct iovec *v, int n, off_t off, int flags)
{
    if (refused(flags) || fault_at(fd, off, iov_len(v, n)) != 0)
        return -1;
    return ((preadv2_fn *)dlsym(RTLD_NEXT, "preadv2"))(fd, v, n, off, flags);
}

ssize_t preadv64v2(int fd, const struct iovec *v, int n, off64_t off, int flags)
{
    if (refused(flags) || fault_at(fd, off, iov_len(v, n)) != 0)
        return -1;
    return ((preadv2_fn *)dlsym(RTLD_NEXT, "preadv64v2"))(fd, v, n, off, flags);
}

typedef int close_fn(int);

int close(int fd)
{
    const char *size = getenv("CLOSE_FAIL_SIZE");
    struct stat st;
    const char *delay = getenv("FIFO_CLOSE_DELAY_MS");
    int fail = size && real_fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
               st.st_size == (off_t)strtoll(size, NULL, 10);

    if (delay && real_fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
        long ms = atol(delay);
        struct timespec ts = {ms / 1000, ms % 1000 * 1000000L};

        nanosleep(&ts, NULL);
    }

    if (((close_fn *)dlsym(RTLD_NEXT, "close"))(fd) != 0)
        return -1;
    if (!fail)
        return 0;
    errno = EIO;
    return -1;
}

typedef int pthread_create_fn(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
    static long calls;
    const char *from = getenv("THREADS_FAIL_FROM");
    long n;

    pthread_mutex_lock(&lock);
    n = ++calls;
    pthread_mutex_unlock(&lock);
    if (from && n >= strtol(from, NULL, 10))
        return EAGAIN;
    return ((pthread_create_fn *)dlsym(RTLD_NEXT, "pthread_create"))(t, attr, fn, arg);
}

typedef int sched_getaffinity_fn(pid_t, size_t, cpu_set_t *);

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
    const char *cpus = getenv("AFFINITY_CPUS");
    int i;

    if (getenv("AFFINITY_UNSUPPORTED")) {
        errno = EPERM;
        return -1;
    }
    if (cpus) {
        CPU_ZERO_S(size, set);
        for (i = 0; i < atoi(cpus) && (size_t)i < 8 * size; i++)
            CPU_SET_S((size_t)i, size, set);
        return 0;
    }
    return ((sched_getaffinity_fn *)dlsym(RTLD_NEXT, "sched_getaffinity"))(pid, size, set);
}

/* md5sum is built with _FILE_OFFSET_BITS=64 (the Makefile): it calls
 * mmap64, never mmap. */
typedef void *mmap_fn(void *, size_t, int, int, int, off64_t);

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
    if (fd >= 0 && getenv("MMAP_UNSUPPORTED") && strcmp(program_invocation_short_name, "md5sum") == 0) {
        errno = ENODEV;
        return MAP_FAILED;
    }
    return ((mmap_fn *)dlsym(RTLD_NEXT, "mmap64"))(addr, len, prot, flags, fd, off);
}

typedef long syscall_fn(long, ...);

/* syscall(2) passes on up to six arguments, each as wide as a long. */
long syscall(long n, ...)
{
    long a[6];
    va_list ap;
    int i;

    va_start(ap, n);
    for (i = 0; i < 6; i++)
        a[i] = va_arg(ap, long);
    va_end(ap);
    if (n == 451 && getenv("CACHESTAT_UNSUPPORTED")) {
        errno = strcmp(getenv("CACHESTAT_UNSUPPORTED"), "EPERM") == 0 ? EPERM : ENOSYS;
        return -1;
    }
    return ((syscall_fn *)dlsym(RTLD_NEXT, "syscall"))(n, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* glibc's own allocator, by the names it exports for this: dlsym may itself
 * allocate. */
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

/* Should an allocation of N bytes fail, by the variable VAR? */
static int alloc_fails(const char *var, size_t n)
{
    const char *min = getenv(var);

    if (!min || n < (size_t)strtoull(min, NULL, 10) ||
        strcmp(program_invocation_short_name, "md5sum") != 0)
        return 0;
    errno = ENOMEM;
    return 1;
}

void *malloc(size_t n)
{
    return alloc_fails("MALLOC_FAIL_MIN", n) ? NULL : __libc_malloc(n);
}

void *realloc(void *p, size_t n)
{
    return alloc_fails("MALLOC_FAIL_MIN", n) ? NULL : __libc_realloc(p, n);
}

void *calloc(size_t n, size_t size)
{
    return n > 0 && alloc_fails("CALLOC_FAIL_MIN", n * size) ? NULL : __libc_calloc(n, size);
}

typedef int fadvise_fn(int, off_t, off_t, int);
typedef int fadvise64_fn(int, off64_t, off64_t, int);

static void log_advice(int fd, off64_t off, off64_t len, int advice)
{
    const char *log = getenv("FADVISE_LOG");
    char link[64], path[4096], line[4300], what[16];
    ssize_t n;
    int out;

    if (!log)
        return;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    n = readlink(link, path, sizeof path - 1);
    path[n < 0 ? 0 : n] = '\0';
    snprintf(what, sizeof what, "%d", advice);
    n = snprintf(line, sizeof line, "%s %lld %lld %s\n", path, (long long)off, (long long)len,
                 advice == POSIX_FADV_WILLNEED ? "WILLNEED" : what);
    /* One write a line, appended: lines from threads do not mix. */
    out = open(log, O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (out >= 0) {
        if (write(out, line, (size_t)n) != n)
            abort();
        close(out);
    }
}

int posix_fadvise(int fd, off_t off, off_t len, int advice)
{
    log_advice(fd, off, len, advice);
    return ((fadvise_fn *)dlsym(RTLD_NEXT, "posix_fadvise"))(fd, off, len, advice);
}

/* Where a program calls it by this name (32-bit, _FILE_OFFSET_BITS=64). */
int posix_fadvise64(int fd, off64_t off, off64_t len, int advice)
{
    log_advice(fd, off, len, advice);
    return ((fadvise64_fn *)dlsym(RTLD_NEXT, "posix_fadvise64"))(fd, off, len, advice);
}

typedef int open_fn(const char *, int, ...);

/* A pipe that reads $ROTATIONAL, if PATH is a queue's rotational flag and it
 * is set; or -1. */
static int rotational(const char *path, int flags)
{
    static const char end[] = "/queue/rotational";
    const char *v = getenv("ROTATIONAL");
    size_t n = strlen(path);
    int p[2];

    if (!v || n < sizeof end - 1 || strcmp(path + n - (sizeof end - 1), end) != 0 ||
        pipe2(p, flags & O_CLOEXEC) != 0)
        return -1;
    if (write(p[1], v, strlen(v)) < 0)
        abort();
    close(p[1]);
    return p[0];
}

/* The open named NAME, or the pipe above; the mode, in AP, is there only
 * with O_CREAT or O_TMPFILE. */
static int open_by(const char *name, const char *path, int flags, va_list ap)
{
    int fd = rotational(path, flags);
    mode_t mode = 0;

    if (fd >= 0)
        return fd;
    if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
        mode = (mode_t)va_arg(ap, int);
    return ((open_fn *)dlsym(RTLD_NEXT, name))(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    int fd;

    va_start(ap, flags);
    fd = open_by("open", path, flags, ap);
    va_end(ap);
    return fd;
}

int open64(const char *path, int flags, ...)
{
    va_list ap;
    int fd;

    va_start(ap, flags);
    fd = open_by("open64", path, flags, ap);
    va_end(ap);
    return fd;
}
