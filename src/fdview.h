/* Which descriptors names given by the user may reach.  On Linux, /dev/fd/N,
 * /dev/stdin, /proc/self/fd/N and their kin open the descriptors of the
 * process that opens them.  GNU md5sum, opening one input at a time, has
 * open then only what the user left open (and, with -c, the list it reads);
 * we hold more (inputs opened ahead, /dev/null on a closed 0, 1 or 2).
 * Such names must see what GNU's process would.  A leaf: it prints nothing. */
#ifndef MD5SUM_FDVIEW_H
#define MD5SUM_FDVIEW_H

#include <stddef.h>

/* Start.  Call first thing in main, before any descriptor of ours is
 * opened (the placeholders for a closed 0, 1 or 2 included) and before any
 * thread starts. */
void fdview_init(void);

/* Record the descriptors open now as the user's, but OURS (-1: none) and
 * the one shown; only the first call counts.  Until then every descriptor
 * open is the user's or the one shown, and names open as they are: call it
 * before holding any other of ours while names may still be opened (a
 * second input, a --files0-from list, a placeholder) and before any
 * thread starts.  Listing them costs a call to md5sum 6% on a small file. */
void fdview_record(int ours);

/* open(NAME, FLAGS), no O_CREAT, as GNU's process would see it: -1 with
 * errno ENOENT (as for a descriptor not open) if NAME reaches, through a
 * procfs fd link, one of ours that is neither the user's nor shown.  Any
 * thread may call it; it costs the open alone unless NAME crosses a magic link. */
int fdview_open(const char *name, int flags);

/* NAME opened as fdview_open would, where the kernel can refuse magic links
 * itself (openat2): any thread, at any time, fdview_show included.  -2 when
 * only fdview_open can tell (NAME crosses a magic link, or openat2 is
 * missing: fdview_quick() says 0). */
int fdview_open_quick(const char *name, int flags);
int fdview_quick(void);

/* How many descriptors the user left open (after fdview_record). */
size_t fdview_held(void);

/* Let names reach FD, ours, until fdview_hide(FD): the checksum list being
 * verified, which GNU's process has open too.  One at a time; main thread
 * only, while no fdview_open runs (before the entries are handed out). */
void fdview_show(int fd);

/* Undo fdview_show(FD), once no fdview_open that may name FD still runs. */
void fdview_hide(int fd);

#endif
