/* Windows of large regular files mapped with mmap(2), and the guard that
 * survives a file shrinking under them.
 *
 * Touching a page of a mapping past the file's current end raises SIGBUS in
 * the thread that touched it.  Code that reads a window runs inside a guard:
 * the SIGBUS handler jumps back to where the guard was set, with the
 * faulting address, and the caller falls back to read(2) from the last
 * consistent point (GNU md5sum reads the file as it is then).  A shrink to
 * inside a window's last page raises nothing (the rest of the page reads as
 * zeros): callers compare the window with fstat after reading it.
 */
#ifndef MD5SUM_WINDOW_H
#define MD5SUM_WINDOW_H

#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

#define WINDOW_SIZE ((size_t)1 << 20)   /* a multiple of every page size */

struct window {
    const unsigned char *base;   /* NULL: not mapped */
    size_t len;
    off_t off;                   /* in the file; a multiple of WINDOW_SIZE */
};

/* Map LEN bytes of FD from OFF, read-only, and ask the system to read them
 * in (and the next window after them).  Returns 0, or -1 with errno set
 * (W->base is then NULL). */
int window_map(struct window *w, int fd, off_t off, size_t len);

/* Unmap W if it is mapped. */
void window_unmap(struct window *w);

/* Touch every page of W, so that the thread that hashes it takes no page
 * fault.  Call it inside a guard. */
void window_touch(const struct window *w);

/* Is ADDR inside W? */
int window_holds(const struct window *w, const void *addr);

struct bus_guard {
    sigjmp_buf env;
    const void *volatile fault;   /* the faulting address, after the jump */
};

/* Install the SIGBUS handler; once, before any thread is started. */
void bus_guard_install(void);

/* Use as: if (sigsetjmp(g->env, 1) == 0) { bus_guard_arm(g); ...; bus_guard_disarm(); }
 * else { the code faulted at g->fault }.  A guard covers its thread. */
void bus_guard_arm(struct bus_guard *g);
void bus_guard_disarm(void);

#endif
