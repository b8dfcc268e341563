/* What a worker holds for each claimed job, shared by worker.c (claiming,
 * whole small files, the lanes) and stream.c (large files in windows). */
#ifndef MD5SUM_TASK_H
#define MD5SUM_TASK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "iothread.h"
#include "lanes.h"
#include "queue.h"
#include "window.h"


enum task_kind {
    TASK_FREE,
    TASK_MESSAGE,   /* a whole small file in the arena */
    TASK_STREAM     /* a large file, window by window */
};

enum slot_state {
    SLOT_IDLE,      /* nothing asked */
    SLOT_PENDING,   /* being prepared */
    SLOT_READY,     /* its window is mapped (len 0: the file's end) */
    SLOT_FAILED     /* mapping or faulting it in failed: read from its off */
};

struct task;

/* One of a stream's two windows.  Prepared by prepare_slot, on the I/O
 * thread or at once; STATE is guarded by the queue's lock. */
struct slot {
    struct io_request req;   /* first: the I/O thread hands it back */
    struct task *task;
    struct window win;       /* the window asked for, once READY */
    struct window old;       /* a used window to unmap first */
    off_t off;
    size_t len;
    enum slot_state state;
};

struct worker_io;

struct task {
    struct lane_task lt;     /* first: what the lanes see */
    struct worker_io *io;
    enum task_kind kind;
    size_t job;              /* its position in the queue */
    int fd;
    off_t size;              /* at the claim */
    int in_lane;
    struct task *next_ready; /* the list of tasks waiting for a lane */
    /* TASK_STREAM */
    struct slot slot[2];
    unsigned cur;            /* the slot being hashed */
    off_t next_off;          /* where the next window to ask for starts */
    uint32_t win_state[4];   /* the chaining state at the current window's start */
};

/* The parts of struct worker that stream.c uses. */
struct worker_io {
    struct queue *q;
    pthread_cond_t *wake;          /* the worker's own wake-up */
    int io_thread;                 /* windows prepared on the I/O thread */
    unsigned char *buf;            /* for read(2) fallbacks */
    size_t buf_len;
};

#endif
