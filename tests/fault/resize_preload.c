/* LD_PRELOAD fault injector for the tests: just before the program's first
 * mmap(2) of a file, the file named by $RESIZE_PATH is truncated or extended
 * to $RESIZE_TO bytes.  The file then shrinks or grows at a known point while
 * md5sum hashes it through mmap, and the result can be compared with GNU
 * md5sum's digest of the file as it ends up. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

typedef void *mmap_fn(void *, size_t, int, int, int, off64_t);

/* With _FILE_OFFSET_BITS=64 the program calls mmap64; catch both names. */
static void *resize_then_map(const char *name, void *addr, size_t len, int prot,
                             int flags, int fd, off64_t off)
{
    static int done;
    const char *path = getenv("RESIZE_PATH"), *to = getenv("RESIZE_TO");
    mmap_fn *real = (mmap_fn *)dlsym(RTLD_NEXT, name);

    if (!done && fd >= 0 && path && to) {
        done = 1;
        if (truncate(path, (off_t)strtoll(to, NULL, 10)) != 0)
            abort();
    }
    return real(addr, len, prot, flags, fd, off);
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    return resize_then_map("mmap", addr, len, prot, flags, fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
    return resize_then_map("mmap64", addr, len, prot, flags, fd, off);
}
