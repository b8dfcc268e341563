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
#include "result.h"


/* How a task ended. */
struct outcome {
    enum result_status status;
    int err;
    unsigned char digest[MD5_DIGEST_SIZE];
};

enum task_kind {
    TASK_FREE,
    TASK_MESSAGE,   /* a whole small file in the arena */
    TASK_STREAM     /* a large file, window by window */
};

enum slot_state {
    SLOT_IDLE,      /* nothing asked */
    SLOT_PENDING,   /* being read */
    SLOT_READY,     /* read: GOT bytes, FINAL if the file ends there */
    SLOT_FAILED     /* the read failed with ERR */
};

struct task;

/* One of a stream's two chunk buffers, filled by read_slot on whichever
 * thread takes the request.  STATE is guarded by the queue's lock. */
struct slot {
    struct io_request req;   /* first: the request hands it back */
    struct task *task;
    unsigned char *buf;      /* of the chunk being read or read */
    off_t off;               /* where the chunk starts in the file */
    size_t len;              /* the bytes asked for */
    size_t got;
    int final, err;
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
    uintmax_t hashed;        /* bytes of it read and hashed, or being hashed */
    int in_lane;
    uint32_t start[4];       /* its chaining state as it enters a lane */
    struct task *next_ready; /* the list of tasks waiting for a lane */
    /* TASK_STREAM */
    struct slot slot[2];
    unsigned bufs;           /* its pair of chunk buffers in the worker's */
    unsigned char *chunk_buf[2];
    unsigned cur;            /* the slot being hashed */
    off_t next_off;          /* where the next chunk to ask for starts */
};

/* The parts of struct worker that stream.c uses. */
struct worker_io {
    struct queue *q;
    pthread_cond_t *wake;          /* the worker's own wake-up */
    int io_thread;                 /* chunks read ahead on the I/O thread */
    unsigned char *ahead_buf[2];   /* STREAM_AHEAD_BUF each, if io_thread */
    unsigned char *buf;            /* for a small file that grew */
    size_t buf_len;
};

#endif
