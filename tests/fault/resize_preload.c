/* LD_PRELOAD fault injector for tests/cli/resize.bats: just before the
 * program's first read of the file named by $RESIZE_PATH that reaches past
 * offset $RESIZE_AT (read(2) or pread(2), from any thread), the file is
 * truncated or extended to $RESIZE_TO bytes.  The file then changes at a
 * known point of its reading, and the result can be compared with GNU
 * md5sum's digest of the file as it ends up. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

typedef ssize_t pread_fn(int, void *, size_t, off64_t);
typedef ssize_t read_fn(int, void *, size_t);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int done;

/* Resize now if FD is the file, a read of N bytes at AT reaches past
 * $RESIZE_AT, and it was not done.  A read racing from another thread
 * waits until the file has its new size. */
static void maybe_resize(int fd, off64_t at, size_t n)
{
    const char *path = getenv("RESIZE_PATH"), *to = getenv("RESIZE_TO"),
               *from = getenv("RESIZE_AT");
    struct stat a, b;

    if (!path || !to || !from || at + (off64_t)n <= (off64_t)strtoll(from, NULL, 10) || fstat(fd, &a) != 0 ||
        stat(path, &b) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino)
        return;
    pthread_mutex_lock(&lock);
    if (!done && truncate(path, (off_t)strtoll(to, NULL, 10)) != 0)
        abort();
    done = 1;
    pthread_mutex_unlock(&lock);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    maybe_resize(fd, off, n);
    return ((pread_fn *)dlsym(RTLD_NEXT, "pread"))(fd, buf, n, off);
}

/* With _FILE_OFFSET_BITS=64 the program calls pread64. */
ssize_t pread64(int fd, void *buf, size_t n, off64_t off)
{
    maybe_resize(fd, off, n);
    return ((pread_fn *)dlsym(RTLD_NEXT, "pread64"))(fd, buf, n, off);
}

ssize_t read(int fd, void *buf, size_t n)
{
    maybe_resize(fd, lseek64(fd, 0, SEEK_CUR), n);
    return ((read_fn *)dlsym(RTLD_NEXT, "read"))(fd, buf, n);
}
