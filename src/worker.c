#include "worker.h"

#include <stdlib.h>
#include <string.h>

#include "bigbuf.h"
#include "budget.h"
#include "stream.h"
#include "whole.h"
#include "xalloc.h"

#define READ_BUF ((size_t)64 << 10)   /* for a small file that grew */

struct done {
    size_t job;
    struct outcome out;
    uintmax_t hashed;
};

struct worker {
    struct worker_io io;
    struct waiter wait;
    struct lanes lanes;
    struct task task[WORKER_MAX_TASKS];
    struct task *free_tasks;             /* linked by next_ready */
    struct task *ready, **ready_end;     /* started, waiting for a lane */
    unsigned n_tasks, max_tasks, max_streams;
    /* Chunk buffers: the two read-ahead ones if there is an I/O thread,
     * then (lane_bufs) the first of each stream's pair, then the second of
     * each (in lanes, a stream seldom needs its second: the touched ones
     * lie together).  free_bufs[0 .. n_free_bufs) are the free pairs. */
    unsigned char *stream_bufs, *lane_bufs;
    unsigned free_bufs[WORKER_MAX_TASKS], n_free_bufs;
    int huge_streams;                    /* first buffers in huge pages */
    unsigned bufs_touched;               /* pairs [0, this) hold all used so far */
    int streams_delta;                   /* started less finished, untold */
    unsigned share;                      /* streams it should read at most */
    struct arena arena;                  /* whole small files */
    off_t small_max;                     /* larger files are streams */
    struct done done[WORKER_MAX_TASKS];  /* completions not yet on the queue */
    unsigned n_done;
};

struct worker *worker_new(struct queue *q, unsigned max_tasks, unsigned max_streams, size_t arena,
                          int io_thread)
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
    arena_init(&w->arena, arena);
    lanes_init(&w->lanes, MD5_MB_MAX_LANES);
    w->small_max = budget_small_max(w->arena.cap, w->lanes.cap);
    /* Not more streams than lanes: a stream holds its lane to its end. */
    if (max_streams > w->lanes.cap)
        max_streams = w->lanes.cap;
    for (; max_streams > 0; max_streams /= 2) {
        size_t ahead = io_thread ? 2 * STREAM_AHEAD_BUF : 0;
        size_t want = 2 * STREAM_BUF * max_streams + ahead, size = want;

        w->stream_bufs = alloc_down(&size, want);
        if (w->stream_bufs)
            break;
    }
    if (!w->stream_bufs) {
        worker_free(w);
        return NULL;
    }
    w->lane_bufs = w->stream_bufs;
    if (io_thread) {
        /* A stream alone reads them through, in turn. */
        w->io.ahead_buf[0] = w->stream_bufs;
        w->io.ahead_buf[1] = w->stream_bufs + STREAM_AHEAD_BUF;
        w->lane_bufs += 2 * STREAM_AHEAD_BUF;
        bigbuf_huge(w->stream_bufs, 0, 2 * STREAM_AHEAD_BUF, 0);
    }
    /* Taken from the end: the first buffers first. */
    w->max_streams = w->n_free_bufs = max_streams;
    for (i = 0; i < max_streams; i++)
        w->free_bufs[i] = max_streams - 1 - i;
    w->ready_end = &w->ready;
    w->max_tasks = max_tasks < 1 ? 1 : max_tasks > WORKER_MAX_TASKS ? WORKER_MAX_TASKS : max_tasks;
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
    arena_free(&w->arena);
    free(w->io.buf);
    free(w);
}

/* Append T to the list whose end pointer is *END. */
static void append(struct task ***end, struct task *t)
{
    t->next_ready = NULL;
    **end = t;
    *end = &t->next_ready;
}

static void make_ready(struct worker *w, struct task *t)
{
    append(&w->ready_end, t);
}

/* Free T, finished or handed over. */
static void release(struct worker *w, struct task *t)
{
    if (t->kind == TASK_STREAM) {
        w->free_bufs[w->n_free_bufs++] = t->bufs;
        w->streams_delta--;
    }
    t->kind = TASK_FREE;
    t->next_ready = w->free_tasks;
    w->free_tasks = t;
    w->n_tasks--;
}

/* T is finished with OUT: queue its completion and free it. */
static void finish(struct worker *w, struct task *t, const struct outcome *out)
{
    struct done *d = &w->done[w->n_done++];

    d->job = t->job;
    d->out = *out;
    d->hashed = t->hashed;
    release(w, t);
}

/* W's budget, with at most SHARE streams in all. */
static void budget_of(const struct worker *w, unsigned share, struct budget *b)
{
    unsigned reading = w->max_streams - w->n_free_bufs;

    b->tasks = w->max_tasks - w->n_tasks;
    b->streams = share <= reading ? 0 : share - reading;
    if (b->streams > w->n_free_bufs)
        b->streams = w->n_free_bufs;
    b->arena = arena_room(&w->arena);
    b->small_max = w->small_max;
}

/* The streams W may have in all now (with the queue's lock held). */
static unsigned stream_share_locked(struct worker *w)
{
    unsigned share = queue_stream_share_locked(w->io.q, w->streams_delta);

    w->streams_delta = 0;
    /* Up to half its lanes, a worker's kernel runs one chain of lanes, each
     * as fast as a lane can go: spreading fewer streams over more workers
     * would add CPU time, not speed. */
    return share > w->lanes.cap / 2 ? share : w->lanes.cap / 2;
}

/* Start claim C, for which the worker has room: a small file is read whole
 * (and ready for a lane, or finished), a large one starts as a stream. */
static void take(struct worker *w, const struct budget *b, const struct claim *c)
{
    struct task *t = w->free_tasks;

    w->free_tasks = t->next_ready;
    w->n_tasks++;
    t->job = c->index;
    t->fd = c->fd;
    t->size = c->size;
    t->hashed = (uintmax_t)c->at;
    t->in_lane = 0;
    memcpy(t->start, c->state, sizeof t->start);
    if (budget_small(b, c->size)) {
        struct outcome out;

        t->kind = TASK_MESSAGE;
        if (whole_read(&w->arena, t, w->io.buf, w->io.buf_len, &out) == WHOLE_READY)
            make_ready(w, t);
        else
            finish(w, t, &out);
    } else {
        t->bufs = w->free_bufs[--w->n_free_bufs];
        if (w->bufs_touched <= t->bufs)
            w->bufs_touched = t->bufs + 1;
        w->streams_delta++;
        stream_start(t, w->lane_bufs + STREAM_BUF * t->bufs,
                     w->lane_bufs + STREAM_BUF * (w->max_streams + t->bufs), c->at);
        make_ready(w, t);
    }
}

/* Start the N claims at C.  If they fill most of a huge page of the arena,
 * or of the streams' first buffers, those go to huge pages first. */
static void take_all(struct worker *w, const struct budget *b, const struct claim *c, size_t n)
{
    size_t small = 0, streams = w->max_streams - w->n_free_bufs, i;

    for (i = 0; i < n; i++) {
        if (budget_small(b, c[i].size))
            small += arena_need(c[i].size);
        else
            streams++;
    }
    arena_expect(&w->arena, small);
    if (!w->huge_streams && streams * STREAM_BUF >= BIGBUF_HUGE_PAGE / 2) {
        size_t from = (size_t)(w->lane_bufs - w->stream_bufs);

        bigbuf_huge(w->stream_bufs, from, from + STREAM_BUF * w->max_streams,
                    from + STREAM_BUF * w->bufs_touched);
        w->huge_streams = 1;
    }
    for (i = 0; i < n; i++)
        take(w, b, &c[i]);
}

/* Start what fits: deferred claims first (the longest first), then new ones. */
static int fill(struct worker *w)
{
    struct claim c[WORKER_MAX_TASKS];
    struct budget b;
    size_t n;
    int got;

    queue_lock(w->io.q);
    w->share = stream_share_locked(w);
    queue_unlock(w->io.q);
    budget_of(w, w->share, &b);
    n = queue_take_deferred(w->io.q, c, b.tasks, budget_fits, &b);
    got = n > 0;
    take_all(w, &b, c, n);
    /* Claim only with room for some input: whatever does not fit is
     * deferred for the other workers. */
    if (b.tasks > 0 && (b.streams > 0 || b.arena > 0)) {
        n = queue_claim(w->io.q, c, b.tasks, budget_fits, &b);
        got |= n > 0;
        take_all(w, &b, c, n);
    }
    return got;
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
        lanes_add(&w->lanes, &t->lt, t->start);
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
        out.err = 0;
        arena_release(&w->arena);
        finish(w, t, &out);
    } else if (stream_chunk_done(&w->io, &w->lanes, t, &out) == STREAM_DONE) {
        finish(w, t, &out);
    } else if (w->max_streams - w->n_free_bufs > w->share &&
               stream_hand_over(&w->io, &w->lanes, t)) {
        /* More than its share: the last large files of a run are spread
         * over the workers as they end, not left to the one that took
         * them first. */
        release(w, t);
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
                              w->done[i].out.err, w->done[i].out.digest, w->done[i].hashed);
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
        arena_seal(&w->arena);
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
    struct budget b;
    unsigned share, i;

    for (i = 0; i < w->lanes.used; i++) {
        const struct task *t = (const struct task *)(const void *)w->lanes.task[i];

        if (t->lt.blocks > 0 || stream_ready_locked(t))
            return 1;
    }
    if (w->ready && lanes_free(&w->lanes) > 0)
        return 1;
    share = stream_share_locked(w);
    budget_of(w, share, &b);
    if (queue_any_deferred_fits_locked(q, budget_fits, &b))
        return 1;
    budget_of(w, share, &b);
    return b.tasks > 0 && (b.streams > 0 || b.arena > 0) && queue_claimable_locked(q);
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
            if (q->closing && q->claimed == q->tail && !queue_deferred_locked(q) &&
                w->n_tasks == 0) {
                queue_unlock(q);
                return NULL;
            }
            queue_sleep_locked(q, &w->wait);
        }
        queue_unlock(q);
    }
}
