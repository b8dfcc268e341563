/* An input's bytes for the engine: opened once without waiting, and read a
 * chunk at a time, with or without waiting for the storage. */
#ifndef MD5SUM_SOURCE_H
#define MD5SUM_SOURCE_H

#include <stddef.h>
#include <sys/types.h>

/* Open NAME for reading without waiting (a FIFO with no writer, a terminal)
 * and learn what it is.  Returns the descriptor, or -1 with errno set (the
 * open's error, for the user).  *SIZE is a regular file's size; *IN_ORDER
 * is set for what must be read only once every earlier result is out: "-",
 * anything that is not a regular file (reading it may wait, or its writer
 * may wait for those results), and the file standard output or standard
 * error goes to (it holds those results).  AHEAD: the input's turn has not
 * come, and what is not a regular file is not opened before it: -2, nothing
 * opened. */
int source_open(const char *name, int ahead, off_t *size, int *in_order);

/* source_open ahead, from any thread: -2 (nothing opened) also for a name
 * only the main thread may open (source_open), fdview.h's fdview_open_quick.
 * Call source_init first, in the main thread. */
int source_open_quick(const char *name, off_t *size, int *in_order);
void source_init(void);

/* What source_read found. */
enum source_got {
    SOURCE_MORE,     /* LEN bytes; the input goes on */
    SOURCE_END,      /* the input ends after the bytes got */
    SOURCE_LATER,    /* nothing got: not in memory yet (NOWAIT only) */
    SOURCE_FAILED    /* errno set */
};

/* Read the chunk of FD (a regular file of SIZE bytes when opened) at OFF
 * into BUF, which has room for CAP bytes (a multiple of the block size) and
 * a block more: CAP bytes, or up to the end.  *GOT is the bytes read, a
 * multiple of the block size unless the input ends there.  With NOWAIT
 * (not NULL) and *NOWAIT set, only what the page cache holds, never waiting
 * for the storage; a system that cannot read so clears *NOWAIT once the page
 * cache holds the rest of the file (the next reads are plain: only a page
 * evicted meanwhile would wait), and a system that can neither read so nor
 * tell what the page cache holds says SOURCE_FAILED with errno EOPNOTSUPP. */
enum source_got source_read(int fd, unsigned char *buf, size_t cap, off_t off, off_t size,
                            int *nowait, size_t *got);

/* Is all of FD from OFF to SIZE in the page cache, as far as the system can
 * tell without reading it?  1 yes, 0 no, -1 it cannot tell. */
int source_cached(int fd, off_t off, off_t size);

/* Does the storage under FD say it has no seeks: a block device whose queue
 * says it is not rotational (an SSD, NVMe, zram; under btrfs, the device
 * it was mounted from)?  1 yes; 0 if it says it is, or cannot say (no
 * block device under the file system: NFS, overlayfs, FUSE, tmpfs), and
 * is taken for a disk, which must see one stream.
 * LAST, zeroed before the first call and kept by the caller, holds the
 * answer for the last device asked about. */
struct source_storage {
    dev_t dev;
    int known, seek_free;
};
int source_seek_free(int fd, struct source_storage *last);

/* Hand a descriptor from source_open to a reader that waits: clears the
 * non-blocking mode, and for a FIFO waits until a writer has come, as the
 * blocking open GNU makes would.  0, or -1 with errno set. */
int source_wait_ready(int fd);

#endif
