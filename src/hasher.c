#include "hasher.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flow.h"
#include "lanes.h"
#include "source.h"

/* An input in a lane, from its first chunk to its result. */
struct task {
    struct lane_task lt;      /* first: what the lanes see */
    size_t in;                /* the flow's index */
    int fd;
    off_t size;
    struct chunk *ck;         /* the chunk in the lane, or one to read into */
    int own;                  /* ck is ours to read into again */
    int reading;              /* ck is to be read at read_at, outside the lock */
    off_t read_at;
    int final;                /* ck is the input's last chunk */
    int told;                 /* the flow knows of the reads so far */
    int later;                /* a read found the chunk not in memory */
    int ended, err;           /* the reading is over: at the end, or ERR */
    uintmax_t hashed;         /* bytes of it in the lane so far */
    struct task *next_free;
};

/* A result not yet handed to the flow. */
struct ended {
    size_t in;
    enum result_status status;
    int err;
    unsigned char digest[MD5_DIGEST_SIZE];
    uintmax_t hashed;
};

struct hasher {
    struct flow_sleeper sleeper;
    struct lanes lanes;
    struct task task[MD5_MB_MAX_LANES];
    struct task *free_tasks;
    struct ended ended[MD5_MB_MAX_LANES];
    unsigned n_ended;
    struct chunk *spent[2];   /* buffers of tasks over, for the flow: the
                               * reader's, and its own */
    int progress;
};

struct hasher *hasher_new(unsigned lanes, int progress)
{
    struct hasher *h = calloc(1, sizeof *h);
    unsigned i;

    if (!h || pthread_cond_init(&h->sleeper.cv, NULL) != 0) {
        free(h);
        return NULL;
    }
    lanes_init(&h->lanes, lanes);
    for (i = MD5_MB_MAX_LANES; i-- > 0;) {
        h->task[i].next_free = h->free_tasks;
        h->free_tasks = &h->task[i];
    }
    h->progress = progress;
    return h;
}

void hasher_free(struct hasher *h)
{
    pthread_cond_destroy(&h->sleeper.cv);
    free(h);
}

static struct task *task_of(struct lane_task *lt)
{
    return (struct task *)(void *)lt;
}

/* Give T's chunk to its lane: its whole blocks, and the padding after the
 * last one, written in place (the buffer has room). */
static void feed(struct hasher *h, struct task *t)
{
    size_t len = t->ck->len;

    t->final = t->ck->final;
    if (t->final)
        len += md5_pad(t->ck->data + len, (uint64_t)t->ck->off + len);
    lanes_feed(&h->lanes, &t->lt, t->ck->data, len / MD5_BLOCK_SIZE);
}

/* T is over: its result and its buffer go to the flow at the next lock,
 * its lane and slot are free now. */
static void end_task(struct hasher *h, struct task *t, enum result_status status, int err)
{
    struct ended *e = &h->ended[h->n_ended++];
    uint32_t state[4];

    lanes_remove(&h->lanes, &t->lt, state);
    e->in = t->in;
    e->status = status;
    e->err = err;
    e->hashed = t->hashed;
    if (status == RESULT_OK)
        md5_state_digest(state, e->digest);
    /* As GNU: a failing close is a read error too (NFS reports late). */
    if (close(t->fd) != 0 && status == RESULT_OK) {
        e->status = RESULT_READ_FAILED;
        e->err = errno;
    }
    if (t->ck) {
        t->ck->next = h->spent[t->own];
        h->spent[t->own] = t->ck;
    }
    t->next_free = h->free_tasks;
    h->free_tasks = t;
}

/* Tell the flow what happened since the last lock: reads, results. */
static void tell_locked(struct hasher *h)
{
    unsigned i;

    for (i = 0; i < h->lanes.used; i++) {
        struct task *t = task_of(h->lanes.task[i]);

        if (!t->told) {
            flow_read_locked(t->in, t->read_at, t->ended, t->err, t->later);
            t->told = 1;
            t->later = 0;
        }
        if (h->progress)
            flow_progress_locked(t->in, t->hashed);
    }
    for (i = 0; i < 2; i++)
        while (h->spent[i]) {
            struct chunk *c = h->spent[i];

            h->spent[i] = c->next;
            flow_unbuf_locked(c, (int)i);
        }
    for (i = 0; i < h->n_ended; i++) {
        const struct ended *e = &h->ended[i];

        flow_done_locked(e->in, e->status, e->err, e->status == RESULT_OK ? e->digest : NULL,
                         e->hashed);
    }
    h->n_ended = 0;
}

/* T holds no buffer (the lock held). */
static void drop_locked(struct task *t)
{
    if (t->ck)
        flow_unbuf_locked(t->ck, t->own);
    t->ck = NULL;
    t->own = 0;
}

/* T's lane is out of blocks and T not over: its next chunk, queued by the
 * reader or to be read here into a buffer of its own; or its reading
 * failed; or it waits for the reader, holding no buffer. */
static void next_chunk_locked(struct hasher *h, struct task *t)
{
    struct chunk *c = flow_chunk_locked(t->in);
    off_t at;
    int err;

    if (c) {
        drop_locked(t);
        t->ck = c;
        feed(h, t);
    } else if (!t->ended && flow_may_read_locked(t->in, &at)) {
        if (!t->own) {
            drop_locked(t);
            t->ck = flow_buf_locked();
            t->own = t->ck != NULL;
        }
        t->reading = t->own;
        t->read_at = at;
    } else if (flow_ended_locked(t->in, &err) && err) {
        end_task(h, t, RESULT_READ_FAILED, err);
    } else {
        drop_locked(t);
    }
}

/* Under the lock: hand back what ended, find every lane's next chunk, take
 * new inputs into free lanes.  Returns 1 if there is work outside the lock
 * (lanes to run, chunks to read). */
static int gather_locked(struct hasher *h)
{
    unsigned i;
    size_t in;
    int fd, busy = 0;
    off_t size;

    tell_locked(h);
    for (i = 0; i < h->lanes.used; i++) {
        struct task *t = task_of(h->lanes.task[i]);

        if (t->lt.blocks == 0 && !t->reading) {
            next_chunk_locked(h, t);
            if (i < h->lanes.used && task_of(h->lanes.task[i]) != t)
                i--;   /* T ended: another task moved into lane i */
        }
    }
    while (lanes_free(&h->lanes) > 0 &&
           flow_take_locked(&in, &fd, &size, h->lanes.used == 0, &h->sleeper)) {
        struct task *t = h->free_tasks;

        h->free_tasks = t->next_free;
        memset(t, 0, sizeof *t);
        t->in = in;
        t->fd = fd;
        t->size = size;
        t->told = 1;
        lanes_add(&h->lanes, &t->lt, md5_iv);
        next_chunk_locked(h, t);
    }
    flow_pass_on_locked();
    for (i = 0; i < h->lanes.used; i++) {
        const struct task *t = task_of(h->lanes.task[i]);

        busy |= t->lt.blocks > 0 || t->reading;
    }
    return busy || h->n_ended > 0;
}

/* T's chunk, read here without waiting for the storage. */
static void read_here(struct hasher *h, struct task *t)
{
    size_t got;
    enum source_got how = source_read(t->fd, t->ck->data, CHUNK, t->read_at, t->size, 1, &got);

    t->reading = 0;
    t->told = 0;
    if (how == SOURCE_LATER || (how == SOURCE_FAILED && errno == EOPNOTSUPP)) {
        t->later = 1;   /* the reader reads it from here on */
        return;
    }
    if (how == SOURCE_FAILED) {
        t->ended = 1;
        t->err = errno;
        return;
    }
    t->ck->off = t->read_at;
    t->ck->len = got;
    t->ck->final = how == SOURCE_END;
    t->read_at += (off_t)got;
    t->ended = t->ck->final;
    feed(h, t);
}

/* Outside the lock: the reads, then one round of the lanes. */
static void work(struct hasher *h)
{
    struct lane_task *ended[MD5_MB_MAX_LANES];
    unsigned i, n;
    int later = 0;

    /* Reads that never wait: once one finds its chunk not in memory (the
     * read asked the storage for it, as read-ahead), the run is cold and
     * the reader reads in order; the others are not tried, so that they
     * ask nothing out of order. */
    for (i = 0; i < h->lanes.used; i++) {
        struct task *t = task_of(h->lanes.task[i]);

        t->reading = t->reading && !later;
        if (t->reading)
            read_here(h, t);
        later |= t->later;
    }
    /* A read that failed ends its task now (its lane is idle). */
    for (i = 0; i < h->lanes.used; i++) {
        struct task *t = task_of(h->lanes.task[i]);

        if (t->err && t->lt.blocks == 0) {
            end_task(h, t, RESULT_READ_FAILED, t->err);
            i--;
        }
    }
    n = lanes_run(&h->lanes, ended);
    for (i = 0; i < n; i++) {
        struct task *t = task_of(ended[i]);

        t->hashed = (uintmax_t)t->ck->off + t->ck->len;
        if (t->final)
            end_task(h, t, RESULT_OK, 0);
    }
}

/* One step; SLEEP: wait on the flow when there is nothing to do. */
static int step(struct hasher *h, int sleep)
{
    int busy;

    flow_lock();
    while (!(busy = gather_locked(h)) && sleep && !flow_stopping_locked())
        flow_sleep_locked(&h->sleeper, lanes_free(&h->lanes) > 0);
    if (flow_stopping_locked()) {
        flow_unlock();
        return -1;
    }
    flow_unlock();
    if (busy)
        work(h);
    return busy;
}

int hasher_step(struct hasher *h)
{
    return step(h, 0);
}

void *hasher_main(void *arg)
{
    struct hasher *h = arg;

    while (step(h, 1) >= 0)
        continue;
    return NULL;
}
