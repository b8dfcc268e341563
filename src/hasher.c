#include "hasher.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flow.h"
#include "lanes.h"
#include "source.h"

/* An input in a lane, from its first chunk to its result; then, out of the
 * lanes, until the flow hears of its end at the next lock. */
struct task {
    struct lane_task lt;      /* first: what the lanes see */
    size_t in;                /* the flow's index */
    const char *name;         /* to open, outside the lock (fd -1 till then) */
    struct flow_report rep;   /* the input as this hasher knows it */
    off_t fed_to;             /* where the chunk in its lane ends */
    struct chunk *ck;         /* in the lane, or to read into */
    int own;                  /* ck is its own, to read into again */
    int reading;              /* read ck at rep.read_at, outside the lock */
    int probe;                /* ... if the page cache holds it (FLOW_PROBE) */
    int nowait;               /* its reads must not wait (source_read) */
    int final;                /* ck is its last chunk */
    int closing;              /* over, its descriptor to close (close_ended) */
    struct task *next;        /* on the free list, or the list of those over */
};

/* An input of a page or less is read into a small buffer of its task's,
 * not into its chunk buffer: a run of small files touches these alone, 4
 * KiB a lane, where a page of each chunk buffer would keep 12 MiB of huge
 * pages on 2 CPUs (peak RSS on 20,000 files of 4 KiB: 2.7 MiB, not 16.6;
 * docs/PERFORMANCE.md).  Room for the padding, a multiple of a cache line. */
#define SMALL_READ ((size_t)4096)
#define SMALL_ROOM ((SMALL_READ + MD5_BLOCK_SIZE + MD5_PAD_MAX + 63) / 64 * 64)

struct hasher {
    struct flow_sleeper sleeper;
    struct lanes lanes;
    struct task task[MD5_MB_MAX_LANES], *free_tasks, *over;
    int progress;
    unsigned char *small;   /* task i's small buffer at i * SMALL_ROOM */
    unsigned char small_room[(MD5_MB_MAX_LANES + 1) * SMALL_ROOM];   /* one more: to align */
};

struct hasher *hasher_new(unsigned lanes, int progress)
{
    struct hasher *h = calloc(1, sizeof *h);
    unsigned i;

    if (!h || flow_join(&h->sleeper) != 0) {
        free(h);
        return NULL;
    }
    lanes_init(&h->lanes, lanes);
    for (i = MD5_MB_MAX_LANES; i-- > 0;) {
        h->task[i].next = h->free_tasks;
        h->free_tasks = &h->task[i];
    }
    h->progress = progress;
    h->small = h->small_room + (64 - (uintptr_t)h->small_room % 64) % 64;
    return h;
}

void hasher_free(struct hasher *h)
{
    flow_leave(&h->sleeper);
    free(h);
}

static struct task *task_of(struct lane_task *lt)
{
    return (struct task *)(void *)lt;
}

/* Give T's chunk, LEN bytes of its input from OFF in DATA (FINAL: the
 * last), to its lane: its whole blocks, and the padding after the last
 * one, written in place (the buffer has room); and the blocks its size
 * says come after (lanes_run weighs them). */
static void feed(struct hasher *h, struct task *t, unsigned char *data, off_t off, size_t len,
                 int final)
{
    off_t end = off + (off_t)len;

    t->final = final;
    t->fed_to = end;
    if (final)
        len += md5_pad(data + len, (uint64_t)end);
    lanes_feed(&h->lanes, &t->lt, data, len / MD5_BLOCK_SIZE,
               !final && t->rep.size > end ? (uint64_t)(t->rep.size - end) / MD5_BLOCK_SIZE : 0);
}

/* T leaves the lanes (its chaining state in STATE): the flow hears of it,
 * and has its buffer back, at the next lock. */
static void leave(struct hasher *h, struct task *t, uint32_t state[4])
{
    lanes_remove(&h->lanes, &t->lt, state);
    t->reading = 0;
    t->next = h->over;
    h->over = t;
}

/* T is over, with STATUS and ERR. */
static void end_task(struct hasher *h, struct task *t, enum result_status status, int err)
{
    uint32_t state[4];

    leave(h, t, state);
    t->rep.done = 1;
    t->rep.r.status = status;
    t->rep.r.err = err;
    t->rep.r.hashed = t->rep.hashed;
    md5_state_digest(state, t->rep.r.digest);
    t->closing = t->rep.fd >= 0;
}

/* The inputs that ended in this step are closed (the flow asked once for
 * them all whether each may be: the reader may still be using one, and
 * then closes it; one lock a step, not one an input, docs/PERFORMANCE.md).
 * As GNU: a failing close is a read error too (NFS reports late). */
static void close_ended(struct hasher *h)
{
    struct task *t;
    int any = 0;

    for (t = h->over; t && !any; t = t->next)
        any = t->closing;
    if (!any)
        return;
    flow_lock();
    for (t = h->over; t; t = t->next)
        t->closing = t->closing && flow_closing_locked(t->in);
    flow_unlock();
    for (t = h->over; t; t = t->next) {
        if (t->closing && close(t->rep.fd) != 0 && t->rep.r.status == RESULT_OK) {
            t->rep.r.status = RESULT_READ_FAILED;
            t->rep.r.err = errno;
        }
        t->closing = 0;
    }
}

/* T leaves the lanes unhashed, handed back to the caller to hash in order
 * (its descriptor, or -1 for the caller to open). */
static void hand_back(struct hasher *h, struct task *t)
{
    uint32_t state[4];

    t->rep.handed = 1;
    leave(h, t, state);
}

/* T ends with ERR, a read's error; or, where the file cannot be read at an
 * offset (ESPIPE: tracefs's files, a FUSE file opened nonseekable; nothing
 * was read then), it is handed back, for the caller to read in order as
 * GNU reads every file. */
static void read_failed(struct hasher *h, struct task *t, int err)
{
    if (err == ESPIPE)
        hand_back(h, t);
    else
        end_task(h, t, RESULT_READ_FAILED, err);
}

/* T, just opened (FD, SIZE, IN_ORDER; FD -1 with ERR, or -2), if it is a
 * regular file to hash in lanes, stays; otherwise it leaves them: with the
 * open's error, or handed back to the caller to hash in order (what is not
 * a regular file, the output, a name only the caller may open, or no
 * descriptor left: the caller waits for one). */
static void opened(struct hasher *h, struct task *t, int fd, off_t size, int in_order, int err)
{
    t->name = NULL;
    if (fd >= 0 && !in_order) {
        t->rep.fd = fd;
        t->rep.size = size;
        t->rep.opened = 1;
    } else if (fd == -1 && err != EMFILE && err != ENFILE) {
        end_task(h, t, RESULT_OPEN_FAILED, err);
    } else {
        t->rep.fd = fd < 0 ? -1 : fd;
        t->rep.size = size;
        hand_back(h, t);
    }
}

/* T holds no buffer (locked). */
static void drop_locked(struct task *t)
{
    if (t->ck)
        flow_unbuf_locked(t->ck, t->own);
    t->ck = NULL;
    t->own = 0;
}

/* T's lane is out of blocks, T not over: its next chunk, from the reader or
 * to be read here into a buffer of its own; or its end; or it waits,
 * holding no buffer. */
static void next_chunk_locked(struct hasher *h, struct task *t)
{
    struct chunk *c;
    int err;
    enum flow_next next = flow_next_locked(t->in, &c, &t->rep.read_at, &err);

    t->probe = next == FLOW_PROBE;
    switch (next) {
    case FLOW_CHUNK:
        drop_locked(t);
        t->ck = c;
        feed(h, t, c->data, c->off, c->len, c->final);
        break;
    case FLOW_READ:
    case FLOW_PROBE:
        if (!t->own) {
            drop_locked(t);
            t->ck = flow_buf_locked();
            t->own = t->ck != NULL;
        }
        t->reading = t->own;
        break;
    case FLOW_FAILED:   /* ended outside the lock (work): it closes */
        t->rep.err = err;
        break;
    case FLOW_WAIT:
        drop_locked(t);
        break;
    }
}

/* Locked: hand back what happened (reads, results, buffers), find each
 * idle lane's next chunk, take inputs into free lanes.  Returns 1 if there
 * is work outside the lock (lanes to run, chunks to read). */
static int gather_locked(struct hasher *h)
{
    unsigned i;
    size_t in;
    int fd, busy = 0;
    off_t size;
    const char *name;
    struct task *t;
    uint64_t hashed, offered, held_back;

    lanes_take_counts(&h->lanes, &hashed, &offered, &held_back);
    flow_lanes_locked(hashed, offered, held_back);
    lanes_expect(&h->lanes, flow_queued_locked() / MD5_BLOCK_SIZE);
    for (i = 0; i < h->lanes.used; i++) {
        t = task_of(h->lanes.task[i]);
        flow_tell_locked(t->in, &t->rep, h->progress);
        t->rep.opened = t->rep.read = t->rep.later = 0;
    }
    for (t = h->over; t; t = h->over) {
        h->over = t->next;
        flow_tell_locked(t->in, &t->rep, h->progress);
        drop_locked(t);
        t->next = h->free_tasks;
        h->free_tasks = t;
    }
    for (i = 0; i < h->lanes.used; i++) {
        t = task_of(h->lanes.task[i]);
        if (t->lt.blocks == 0 && !t->reading && !t->name)
            next_chunk_locked(h, t);   /* never takes T out of its lane */
    }
    /* A task that ended above (a read that failed) left its lane but holds
     * its slot until the next lock: a free lane needs a free slot too. */
    while (h->free_tasks && lanes_free(&h->lanes) > 0 &&
           flow_take_locked(&in, &fd, &size, &name, h->lanes.used == 0, &h->sleeper)) {
        t = h->free_tasks;
        h->free_tasks = t->next;
        memset(t, 0, sizeof *t);
        t->in = in;
        t->rep.fd = fd;
        t->rep.size = size;
        t->name = name;
        t->nowait = 1;
        lanes_add(&h->lanes, &t->lt, md5_iv);
        next_chunk_locked(h, t);   /* to open first: read just after */
    }
    for (i = 0; i < h->lanes.used; i++)
        busy |= h->lanes.task[i]->blocks > 0 || task_of(h->lanes.task[i])->reading ||
                task_of(h->lanes.task[i])->name || task_of(h->lanes.task[i])->rep.err;
    return busy || h->over != NULL;
}

/* T's chunk, read here without waiting for the storage; or, PROBE, only if
 * the page cache tells it holds the chunk (asking it costs a system call,
 * and a read that misses asks the storage for the chunk). */
static void read_here(struct hasher *h, struct task *t, int probe)
{
    size_t got;
    unsigned char *buf;
    int small;
    struct flow_report *p = &t->rep;
    enum source_got how;
    off_t end = chunk_end(p->read_at, p->size);

    p->read = 1;
    if (probe && source_cached(p->fd, p->read_at, end) != 1) {
        p->later = 2;
        /* A hole in an input the page cache holds otherwise (what came
         * before was read from it, or it holds all that comes after: pages
         * evicted from a set in memory): the storage is asked for it now,
         * so that the reader, which reads the holes in order, one after
         * another, finds them on their way (256 KiB set with 30% of its
         * files holed: 0.82 of the time, docs/PERFORMANCE.md).  Never for
         * an input cold from its start: nothing is asked out of order. */
        if (p->read_at > 0 || (end < p->size && source_cached(p->fd, end, p->size) == 1))
            (void)posix_fadvise(p->fd, p->read_at, (off_t)CHUNK, POSIX_FADV_WILLNEED);
        return;
    }
    small = p->read_at == 0 && p->size >= 0 && p->size <= (off_t)SMALL_READ;
    buf = small ? h->small + (size_t)(t - h->task) * SMALL_ROOM : t->ck->data;
    how = source_read(p->fd, buf, small ? SMALL_READ : CHUNK, p->read_at, p->size, &t->nowait, &got);
    if (how == SOURCE_LATER || (how == SOURCE_FAILED && errno == EOPNOTSUPP)) {
        p->later = 1;   /* the reader reads it from here on */
    } else if (how == SOURCE_FAILED) {
        p->ended = 1;
        p->err = errno;
    } else {
        p->ended = how == SOURCE_END;
        feed(h, t, buf, p->read_at, got, p->ended);
        p->read_at += (off_t)got;
    }
}

/* Outside the lock: the reads, then one round of the lanes. */
static void work(struct hasher *h)
{
    struct lane_task *ended[MD5_MB_MAX_LANES];
    unsigned i, n;
    int later = 0;

    /* Inputs taken by name are opened first (the caller's thread would
     * otherwise open every input, one after another).  One that leaves the
     * lanes moves another into lane i. */
    for (i = 0; i < h->lanes.used; i++) {
        struct task *t = task_of(h->lanes.task[i]);
        off_t size;
        int in_order, fd;

        if (t->name) {
            fd = source_open_quick(t->name, &size, &in_order);
            opened(h, t, fd, size, in_order, errno);
            i -= i < h->lanes.used && task_of(h->lanes.task[i]) != t;
        }
    }
    /* Once a read finds its chunk not in memory (it asked the storage for
     * it, as read-ahead), the run is cold and the reader reads in order:
     * the others read only what the page cache holds, so that they ask
     * nothing out of order. */
    for (i = 0; i < h->lanes.used; i++) {
        struct task *t = task_of(h->lanes.task[i]);

        if (t->reading)
            read_here(h, t, t->probe || later);
        t->reading = 0;
        later |= t->rep.later;
    }
    for (i = 0; i < h->lanes.used; i++) {
        struct task *t = task_of(h->lanes.task[i]);

        if (t->rep.err && t->lt.blocks == 0) {
            read_failed(h, t, t->rep.err);
            i--;   /* another task moved into lane i */
        }
    }
    n = lanes_run(&h->lanes, ended);
    for (i = 0; i < n; i++) {
        struct task *t = task_of(ended[i]);

        t->rep.hashed = (uintmax_t)t->fed_to;
        if (t->final)
            end_task(h, t, RESULT_OK, 0);
    }
    close_ended(h);
}

/* One step; SLEEP: wait on the flow when there is nothing to do. */
static int step(struct hasher *h, int sleep)
{
    int busy;

    flow_lock();
    while (!(busy = gather_locked(h)) && sleep && !flow_stopping_locked())
        flow_sleep_locked(&h->sleeper, lanes_free(&h->lanes) > 0);
    if (flow_stopping_locked())
        busy = -1;
    flow_unlock();
    if (busy > 0)
        work(h);
    return busy;
}

int hasher_step(struct hasher *h)
{
    return step(h, 0);
}

void *hasher_main(void *arg)
{
    while (step(arg, 1) >= 0)
        continue;
    return NULL;
}
