/* Hashing a large regular file through mmap(2) windows.
 *
 * Mapping saves the kernel's copy into a buffer: measured, about 4% of the
 * CPU time of a cached file (docs/PERFORMANCE.md).  The result must still be
 * what read(2) to end of file gives, as with GNU md5sum, when the file
 * changes under us:
 *   - it shrinks: touching a page past the new end raises SIGBUS, and the
 *     part of a page past the end reads as zeros.  So the state is saved at
 *     the start of each window; on SIGBUS, or when fstat shows that the file
 *     now ends inside a window already hashed, the state goes back to the
 *     start of that window and read(2) takes over from there;
 *   - it grows: after the windows, read(2) goes on to end of file.
 * Where mapping fails (some special filesystems), read(2) does all of it.
 */
#include "mapped.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"

#define WINDOW ((off_t)8 << 20)

/* The recovery point of the window being hashed.  Static, not automatic:
 * what siglongjmp returns to must not live in registers. */
static sigjmp_buf recover;
static volatile sig_atomic_t armed;
static struct md5_ctx saved;      /* the state at the window's start */
static void *map;
static size_t map_len;

static void on_sigbus(int sig)
{
    if (armed) {
        armed = 0;
        siglongjmp(recover, 1);
    }
    /* A SIGBUS outside a mapped window is a real fault: die of it. */
    signal(sig, SIG_DFL);
    raise(sig);
}

static void catch_sigbus(void)
{
    static int done;
    struct sigaction sa;

    if (done)
        return;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigbus;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGBUS, &sa, NULL);
    done = 1;
}

/* read(2) from offset AT to end of file, on top of CTX. */
static int read_from(int fd, off_t at, struct md5_ctx *ctx)
{
    if (lseek(fd, at, SEEK_SET) < 0)
        return -1;
    return hash_rest(fd, ctx);
}

int hash_mapped(int fd, off_t size, struct md5_ctx *ctx)
{
    volatile off_t at = 0;   /* read after siglongjmp */

    catch_sigbus();
    while (at < size) {
        struct stat st;

        map_len = (size_t)(size - at < WINDOW ? size - at : WINDOW);
        map = mmap(NULL, map_len, PROT_READ, MAP_PRIVATE, fd, at);
        if (map == MAP_FAILED)
            return read_from(fd, at, ctx);
        posix_madvise(map, map_len, POSIX_MADV_SEQUENTIAL);
        saved = *ctx;
        if (sigsetjmp(recover, 1)) {
            /* The file ended inside this window: start it again by read. */
            munmap(map, map_len);
            *ctx = saved;
            return read_from(fd, at, ctx);
        }
        armed = 1;
        md5_update(ctx, map, map_len);
        armed = 0;
        munmap(map, map_len);
        /* Zeros past a new end raise no SIGBUS inside its last page. */
        if (fstat(fd, &st) == 0 && st.st_size < at + (off_t)map_len) {
            *ctx = saved;
            return read_from(fd, at, ctx);
        }
        at += (off_t)map_len;
    }
    return read_from(fd, size, ctx);
}
