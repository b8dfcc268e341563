#include "worker.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fdio.h"
#include "input.h"
#include "stream.h"

#define SMALL_MAX ((size_t)1 << 20)   /* larger files are streams */
#define READ_BUF ((size_t)64 << 10)   /* for read(2) fallbacks */

struct done {
    size_t job;
    struct outcome out;
};

struct worker {
    struct worker_io io;
    struct waiter wait;
    struct lanes lanes;
    struct task task[WORKER_MAX_TASKS];
    struct task *free_tasks;             /* linked by next_ready */
    struct task *ready, **ready_end;     /* claimed, waiting for a lane */
    struct task *pending, **pending_end; /* small files waiting for arena room */
    unsigned n_tasks, n_streams, max_streams;
    /* Two chunk buffers for each stream; free_bufs[0 .. n_free_bufs) are
     * the free pairs. */
    unsigned char *stream_bufs;
    unsigned free_bufs[WORKER_MAX_TASKS], n_free_bufs;
    /* Whole small files with room for their padding, 64-byte aligned so
     * lanes load whole cache lines; emptied when the last one is hashed. */
    unsigned char *arena;
    size_t arena_cap, arena_used, small_max;
    unsigned arena_live;
    struct done done[WORKER_MAX_TASKS];  /* completions not yet on the queue */
    unsigned n_done;
};

static void *alloc_down(size_t *size, size_t min)
{
    for (; *size >= min; *size /= 8) {
        void *p;
        if (posix_memalign(&p, 64, *size) == 0)
            return p;
    }
    *size = 0;
    return NULL;
}

struct worker *worker_new(struct queue *q, unsigned max_streams, size_t arena, int io_thread)
{
    struct worker *w = malloc(sizeof *w);
    unsigned i;

    if (!w)
        return NULL;
    memset(w, 0, sizeof *w);
    w->io.buf_len = READ_BUF;
    w->io.buf = alloc_down(&w->io.buf_len, 4096);
    if (!w->io.buf || pthread_cond_init(&w->wait.cv, NULL) != 0) {
        free(w->io.buf);
        free(w);
        return NULL;
    }
    w->io.q = q;
    w->io.wake = &w->wait.cv;
    w->io.io_thread = io_thread;
    w->arena_cap = arena;
    w->arena = alloc_down(&w->arena_cap, (size_t)64 << 10);
    /* A small file takes at most a quarter of the arena. */
    w->small_max = w->arena_cap / 4 < SMALL_MAX ? w->arena_cap / 4 : SMALL_MAX;
    lanes_init(&w->lanes, MD5_MB_MAX_LANES);
    /* Not more streams than lanes: a stream holds its lane to its end. */
    if (max_streams > w->lanes.cap)
        max_streams = w->lanes.cap;
    while (max_streams > 0 && !(w->stream_bufs = malloc(2 * STREAM_BUF * max_streams)))
        max_streams /= 2;
    if (!w->stream_bufs) {
        worker_free(w);
        return NULL;
    }
    w->max_streams = w->n_free_bufs = max_streams;
    for (i = 0; i < max_streams; i++)
        w->free_bufs[i] = i;
    w->ready_end = &w->ready;
    w->pending_end = &w->pending;
    for (i = WORKER_MAX_TASKS; i-- > 0;) {
        w->task[i].io = &w->io;
        w->task[i].next_ready = w->free_tasks;
        w->free_tasks = &w->task[i];
    }
    return w;
}

void worker_free(struct worker *w)
{
    pthread_cond_destroy(&w->wait.cv);
    free(w->stream_bufs);
    free(w->arena);
    free(w->io.buf);
    free(w);
}

static void make_ready(struct worker *w, struct task *t)
{
    t->next_ready = NULL;
    *w->ready_end = t;
    w->ready_end = &t->next_ready;
}

/* T is finished with OUT: queue its completion and free it. */
static void finish(struct worker *w, struct task *t, const struct outcome *out)
{
    struct done *d = &w->done[w->n_done++];

    d->job = t->job;
    d->out = *out;
    if (t->kind == TASK_STREAM) {
        w->n_streams--;
        w->free_bufs[w->n_free_bufs++] = t->bufs;
    }
    t->kind = TASK_FREE;
    t->next_ready = w->free_tasks;
    w->free_tasks = t;
    w->n_tasks--;
}

static void finish_error(struct worker *w, struct task *t, int err)
{
    struct outcome out;

    out.status = RESULT_READ_FAILED;
    out.err = err;
    close(t->fd);
    finish(w, t, &out);
}

static unsigned char *arena_take(struct worker *w, size_t n)
{
    size_t at = (w->arena_used + 63) & ~(size_t)63;

    if (!w->arena || at + n > w->arena_cap)
        return NULL;
    w->arena_used = at + n;
    w->arena_live++;
    return w->arena + at;
}

static void arena_release(struct worker *w)
{
    if (--w->arena_live == 0)
        w->arena_used = 0;
}

/* Read small file T whole into the arena, padded, ready for a lane; or
 * leave it pending until the arena empties. */
static void read_small(struct worker *w, struct task *t)
{
    /* One byte more than the size: a file that grew since the claim is then
     * finished by reading on, like any stream. */
    size_t want = (size_t)t->size + 1;
    unsigned char *data = arena_take(w, want + MD5_PAD_MAX);
    ssize_t got;

    if (!data) {
        t->next_ready = NULL;
        *w->pending_end = t;
        w->pending_end = &t->next_ready;
        return;
    }
    /* A read that returns the whole size has reached the end of a regular
     * file: no second read to see end of file. */
    got = read_some(t->fd, data, want);
    if (got >= 0 && (size_t)got < (size_t)t->size) {
        ssize_t more = read_full(t->fd, data + got, want - (size_t)got);
        got = more < 0 ? more : got + more;
    }
    if (got < 0) {
        arena_release(w);
        finish_error(w, t, errno);
    } else if ((size_t)got == want) {
        struct md5_ctx ctx;
        struct outcome out;

        md5_init(&ctx);
        md5_update(&ctx, data, want);
        arena_release(w);
        if (hash_rest(t->fd, &ctx, w->io.buf, w->io.buf_len) != 0) {
            finish_error(w, t, errno);
            return;
        }
        md5_final(&ctx, out.digest);
        out.status = RESULT_OK;
        if (close(t->fd) != 0) {
            out.status = RESULT_READ_FAILED;
            out.err = errno;
        }
        finish(w, t, &out);
    } else if (close(t->fd) != 0) {
        /* As GNU: a failing close is a read error too. */
        arena_release(w);
        finish(w, t, &(struct outcome){RESULT_READ_FAILED, errno, {0}});
    } else {
        size_t len = (size_t)got;

        len += md5_pad(data + len, len);
        t->kind = TASK_MESSAGE;
        t->lt.p = data;
        t->lt.blocks = len / MD5_BLOCK_SIZE;
        make_ready(w, t);
    }
}

static void take(struct worker *w, const struct claim *c)
{
    struct task *t = w->free_tasks;

    w->free_tasks = t->next_ready;
    w->n_tasks++;
    t->job = c->index;
    t->fd = c->fd;
    t->size = c->size;
    t->in_lane = 0;
    if ((size_t)c->size <= w->small_max && c->size >= 0) {
        t->kind = TASK_MESSAGE;
        read_small(w, t);
    } else {
        w->n_streams++;
        t->bufs = w->free_bufs[--w->n_free_bufs];
        stream_start(t, w->stream_bufs + 2 * STREAM_BUF * t->bufs);
        make_ready(w, t);
    }
}

/* Claim jobs while there is room for any kind of input, after the small
 * files that waited for the arena to empty. */
static int fill(struct worker *w)
{
    struct claim c[WORKER_MAX_TASKS];
    size_t room, n, i;
    int got = 0;

    if (w->pending && w->arena_live == 0) {
        struct task *t = w->pending;

        w->pending = NULL;
        w->pending_end = &w->pending;
        while (t) {
            struct task *next = t->next_ready;
            read_small(w, t);
            t = next;
        }
        got = 1;
    }
    if (w->pending)
        return got;
    room = WORKER_MAX_TASKS - w->n_tasks;
    if (room > w->max_streams - w->n_streams)
        room = w->max_streams - w->n_streams;
    n = room ? queue_claim(w->io.q, c, room) : 0;
    for (i = 0; i < n; i++)
        take(w, &c[i]);
    return got || n > 0;
}

/* Streams whose lane waits: feed those whose window is ready. */
static int feed_waiting(struct worker *w)
{
    unsigned i;
    int progress = 0;

    for (i = 0; i < w->lanes.used; i++) {
        struct task *t = (struct task *)(void *)w->lanes.task[i];
        struct outcome out;
        enum stream_step step;

        if (t->lt.blocks > 0)
            continue;
        step = stream_feed(&w->io, &w->lanes, t, &out);
        if (step == STREAM_DONE) {
            finish(w, t, &out);
            i--;   /* another task moved into lane i */
        }
        progress |= step != STREAM_WAITING;
    }
    return progress;
}

static void start_ready(struct worker *w)
{
    while (w->ready && lanes_free(&w->lanes) > 0) {
        struct task *t = w->ready;

        w->ready = t->next_ready;
        if (!w->ready)
            w->ready_end = &w->ready;
        t->in_lane = 1;
        lanes_add(&w->lanes, &t->lt, md5_iv);
    }
}

static void chunk_ended(struct worker *w, struct task *t)
{
    struct outcome out;

    if (t->kind == TASK_MESSAGE) {
        uint32_t state[4];

        lanes_remove(&w->lanes, &t->lt, state);
        md5_state_digest(state, out.digest);
        out.status = RESULT_OK;
        arena_release(w);
        finish(w, t, &out);
    } else if (stream_chunk_done(&w->io, &w->lanes, t, &out) == STREAM_DONE) {
        finish(w, t, &out);
    }
}

/* One round of the lanes. */
static void run_round(struct worker *w)
{
    struct lane_task *ended[MD5_MB_MAX_LANES];
    unsigned n = lanes_run(&w->lanes, ended), i;

    for (i = 0; i < n; i++)
        chunk_ended(w, (struct task *)(void *)ended[i]);
}

static void flush_done(struct worker *w)
{
    unsigned i;

    if (w->n_done == 0)
        return;
    queue_lock(w->io.q);
    for (i = 0; i < w->n_done; i++)
        queue_complete_locked(w->io.q, w->done[i].job, w->done[i].out.status,
                              w->done[i].out.err, w->done[i].out.digest);
    queue_unlock(w->io.q);
    w->n_done = 0;
}

/* Is some lane waiting for its stream's next chunk? */
static int lane_waiting(const struct worker *w)
{
    unsigned i;

    for (i = 0; i < w->lanes.used; i++)
        if (w->lanes.task[i]->blocks == 0)
            return 1;
    return 0;
}

int worker_step(struct worker *w)
{
    int progress = fill(w);

    start_ready(w);
    progress |= feed_waiting(w);
    /* A round with lanes waiting runs them idle: first do the reads that
     * are queued (any worker's: they all have to be done), then feed. */
    while (lane_waiting(w) && iothread_help()) {
        progress = 1;
        feed_waiting(w);
    }
    if (lanes_runnable(&w->lanes)) {
        run_round(w);
        progress = 1;
    }
    flush_done(w);
    return progress;
}

/* With the queue locked: could a step do anything now? */
static int has_work_locked(struct worker *w)
{
    struct queue *q = w->io.q;
    unsigned i;

    for (i = 0; i < w->lanes.used; i++) {
        const struct task *t = (const struct task *)(const void *)w->lanes.task[i];

        if (t->lt.blocks > 0 || stream_ready_locked(t))
            return 1;
    }
    if (w->ready && lanes_free(&w->lanes) > 0)
        return 1;
    return !w->pending && w->n_tasks < WORKER_MAX_TASKS && w->n_streams < w->max_streams &&
           q->claimed < q->tail;
}

void *worker_main(void *arg)
{
    struct worker *w = arg;
    struct queue *q = w->io.q;

    for (;;) {
        /* Nothing to hash: read for any worker, this one included. */
        if (worker_step(w) || iothread_help())
            continue;
        queue_lock(q);
        if (!has_work_locked(w)) {
            if (q->closing && q->claimed == q->tail && w->n_tasks == 0) {
                queue_unlock(q);
                return NULL;
            }
            queue_sleep_locked(q, &w->wait);
        }
        queue_unlock(q);
    }
}
