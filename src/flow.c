#include "flow.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Untaken inputs that wake a sleeping hasher: fewer are left to the
 * caller's thread, which takes them before it waits (flow_kick), so that a
 * list of two files wakes no thread. */
#define WAKE_BATCH 4
/* Chunks the reader reads ahead of a warm input's hasher. */
#define AHEAD_WARM 8
/* Inputs found in memory in a row that end a cold run. */
#define WARM_AGAIN 4

struct input {
    int fd;
    off_t size;
    off_t read_off;              /* reading goes on from here */
    int taken, by_reader, reader_started;
    int ended, err;              /* reading is over: at the end, or ERR */
    struct chunk *first, *last;  /* read by the reader, not yet hashed */
    size_t queued;
    uintmax_t by_the_reader;     /* bytes it read of it (statistics) */
    struct flow_sleeper *owner;  /* its hasher */
    int done;
    enum result_status status;
    int result_err;
    unsigned char digest[MD5_DIGEST_SIZE];
    uintmax_t hashed;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    pthread_cond_t reader_cv;
    int reader_waits;
    unsigned long events;
    struct input *in;             /* FLOW_INPUTS of them, with the buffers */
    size_t head, take, rd, tail;  /* live [head, tail); next to take; the
                                   * oldest the reader may still read */
    struct bufs bufs;
    size_t reserve, own;          /* buffers the hashers may read into, hold */
    int cold, stopping;
    unsigned warm_run;
    uintmax_t hashed;             /* over every input, for progress */
    struct flow_stats stats;
    struct flow_sleeper *asleep;
} f;

static struct input *at(size_t i)
{
    return &f.in[i % FLOW_INPUTS];
}

int flow_init(size_t n_bufs, size_t reserve)
{
    static int made;
    pthread_condattr_t attr;

    if (!made) {
        if (pthread_condattr_init(&attr) != 0)
            return -1;
        /* Progress ticks wait by the monotonic clock, where it can be set. */
        (void)pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
        made = pthread_cond_init(&f.reader_cv, &attr) == 0;
        pthread_condattr_destroy(&attr);
        if (!made)
            return -1;
    }
    f.in = malloc(FLOW_INPUTS * sizeof *f.in);
    if (!f.in || bufs_init(&f.bufs, n_bufs) != 0) {
        free(f.in);
        f.in = NULL;
        return -1;
    }
    f.reserve = reserve;
    f.own = 0;
    f.cold = f.stopping = 0;
    return 0;
}

void flow_end(void)
{
    bufs_end(&f.bufs);
    free(f.in);
    f.in = NULL;
}

void flow_lock(void)
{
    pthread_mutex_lock(&lock);
}

void flow_unlock(void)
{
    pthread_mutex_unlock(&lock);
}

/* Something the reader may wait for happened. */
static void tell_reader_locked(void)
{
    f.events++;
    if (f.reader_waits)
        pthread_cond_signal(&f.reader_cv);
}

static void wake_locked(struct flow_sleeper *s)
{
    struct flow_sleeper **p = &f.asleep;

    while (*p && *p != s)
        p = &(*p)->next;
    if (*p) {
        *p = s->next;
        s->asleep = 0;
        pthread_cond_signal(&s->cv);
    }
}

static void wake_all_locked(void)
{
    while (f.asleep)
        wake_locked(f.asleep);
}

/* Could a hasher take the next input now?  Cold, only once the reader has
 * something of it. */
static int takeable_locked(void)
{
    const struct input *x = at(f.take);

    return f.take < f.tail && !f.stopping && (!f.cold || x->first || x->ended);
}

/* Wake a sleeping hasher with room, for an input to take. */
static void wake_taker_locked(void)
{
    struct flow_sleeper *s = f.asleep;

    while (s && !s->room)
        s = s->next;
    if (s && takeable_locked())
        wake_locked(s);
}

int flow_room(void)
{
    int room;

    flow_lock();
    room = f.tail - f.head < FLOW_INPUTS;
    flow_unlock();
    return room;
}

size_t flow_add(int fd, off_t size)
{
    struct input *x;
    size_t i;

    flow_lock();
    i = f.tail++;
    x = at(i);
    memset(x, 0, sizeof *x);
    x->fd = fd;
    x->size = size;
    if (f.tail - f.take >= WAKE_BATCH)
        wake_taker_locked();
    flow_unlock();
    return i;
}

void flow_kick(void)
{
    flow_lock();
    flow_pass_on_locked();
    flow_unlock();
}

void flow_pass_on_locked(void)
{
    wake_taker_locked();
}

int flow_reader_next(size_t *in, int *fd, off_t *off, off_t *size, struct chunk **c, int *first)
{
    size_t i;

    flow_lock();
    if (f.rd < f.head)
        f.rd = f.head;
    while (f.rd < f.tail && at(f.rd)->ended)
        f.rd++;
    for (i = f.rd; i < f.tail; i++) {
        struct input *x = at(i);

        if (x->ended || !(x->by_reader || (!x->taken && f.cold)))
            continue;
        /* Cold, the storage sees one stream: the oldest input first, front
         * to back.  Warm, a lone input's hasher is kept a few chunks ahead. */
        if (f.bufs.n_free + f.own <= f.reserve || (!f.cold && x->queued >= AHEAD_WARM)) {
            if (f.cold)
                break;
            continue;
        }
        x->by_reader = 1;
        *first = !x->reader_started;
        x->reader_started = 1;
        *c = bufs_get(&f.bufs);
        *in = i;
        *fd = x->fd;
        *off = x->read_off;
        *size = x->size;
        flow_unlock();
        return 1;
    }
    flow_unlock();
    return 0;
}

void flow_reader_put(size_t in, struct chunk *c, int failed, int err)
{
    struct input *x;

    flow_lock();
    x = at(in);
    x->ended = failed || c->final;
    if (failed) {
        x->err = err;
        bufs_put(&f.bufs, c);
    } else {
        c->next = NULL;
        if (x->last)
            x->last->next = c;
        else
            x->first = c;
        x->last = c;
        x->queued++;
        x->read_off = c->off + (off_t)c->len;
        f.stats.reader_bytes += c->len;
        x->by_the_reader += c->len;
    }
    if (x->taken)
        wake_locked(x->owner);
    else
        flow_pass_on_locked();
    flow_unlock();
}

int flow_reader_peek(size_t in, int *fd, off_t *size)
{
    const struct input *x;
    int yes;

    flow_lock();
    x = at(in);
    yes = in >= f.head && in < f.tail && x->read_off == 0 && !x->ended &&
          (x->by_reader || (!x->taken && f.cold));
    *fd = x->fd;
    *size = x->size;
    flow_unlock();
    return yes;
}

void flow_reader_cached(int yes)
{
    flow_lock();
    f.warm_run = yes ? f.warm_run + 1 : 0;
    if (f.cold && f.warm_run >= WARM_AGAIN) {
        f.cold = 0;
        f.stats.warm++;
        wake_all_locked();
    }
    flow_unlock();
}

int flow_result(size_t in, struct result *r)
{
    struct input *x;
    int done;

    flow_lock();
    x = at(in);
    done = x->done;
    if (done) {
        r->status = x->status;
        r->err = x->result_err;
        memcpy(r->digest, x->digest, MD5_DIGEST_SIZE);
        r->hashed = x->hashed;
        f.head = in + 1;
    }
    flow_unlock();
    return done;
}

uintmax_t flow_hashed(size_t in, uintmax_t *all)
{
    uintmax_t n;

    flow_lock();
    n = in < f.tail ? at(in)->hashed : 0;
    *all = f.hashed;
    flow_unlock();
    return n;
}

unsigned long flow_events(void)
{
    unsigned long e;

    flow_lock();
    e = f.events;
    flow_unlock();
    return e;
}

void flow_wait(unsigned long seen, const struct timespec *deadline)
{
    flow_lock();
    f.reader_waits = 1;
    while (f.events == seen) {
        if (!deadline)
            pthread_cond_wait(&f.reader_cv, &lock);
        else if (pthread_cond_timedwait(&f.reader_cv, &lock, deadline) == ETIMEDOUT)
            break;
    }
    f.reader_waits = 0;
    flow_unlock();
}

void flow_get_stats(struct flow_stats *s)
{
    flow_lock();
    *s = f.stats;
    flow_unlock();
}

void flow_stop(void)
{
    flow_lock();
    f.stopping = 1;
    wake_all_locked();
    flow_unlock();
}

int flow_stopping_locked(void)
{
    return f.stopping;
}

int flow_take_locked(size_t *in, int *fd, off_t *size, int alone, struct flow_sleeper *s)
{
    struct input *x;

    if (!takeable_locked())
        return 0;
    x = at(f.take);
    x->taken = 1;
    x->owner = s;
    if (f.cold || (alone && f.take + 1 == f.tail))
        x->by_reader = 1;
    *in = f.take++;
    *fd = x->fd;
    *size = x->size;
    if (x->by_reader)
        tell_reader_locked();
    return 1;
}

struct chunk *flow_chunk_locked(size_t in)
{
    struct input *x = at(in);
    struct chunk *c = x->first;

    if (c) {
        x->first = c->next;
        if (!x->first)
            x->last = NULL;
        x->queued--;
        tell_reader_locked();   /* room to read ahead */
    }
    return c;
}

int flow_may_read_locked(size_t in, off_t *off)
{
    struct input *x = at(in);

    if (x->by_reader || x->ended)
        return 0;
    if (f.cold) {
        x->by_reader = 1;
        tell_reader_locked();
        return 0;
    }
    *off = x->read_off;
    return 1;
}

void flow_read_locked(size_t in, off_t off, int ended, int err, int later)
{
    struct input *x = at(in);

    x->read_off = off;
    if (ended) {
        x->ended = 1;
        x->err = err;
    }
    if (later) {
        x->by_reader = 1;
        f.stats.later++;
        f.stats.cold += !f.cold;
        f.cold = 1;
        f.warm_run = 0;
        tell_reader_locked();
    }
}

int flow_ended_locked(size_t in, int *err)
{
    const struct input *x = at(in);

    *err = x->err;
    return x->ended && !x->first;
}

struct chunk *flow_buf_locked(void)
{
    struct chunk *c = bufs_get(&f.bufs);

    f.own += c != NULL;
    return c;
}

void flow_unbuf_locked(struct chunk *c, int own)
{
    f.own -= own != 0;
    bufs_put(&f.bufs, c);
    tell_reader_locked();
}

void flow_done_locked(size_t in, enum result_status status, int err,
                      const unsigned char digest[MD5_DIGEST_SIZE], uintmax_t hashed)
{
    struct input *x = at(in);

    while (x->first)
        flow_unbuf_locked(flow_chunk_locked(in), 0);
    if (hashed > x->by_the_reader)
        f.stats.hasher_bytes += hashed - x->by_the_reader;
    x->done = 1;
    x->status = status;
    x->result_err = err;
    if (digest)
        memcpy(x->digest, digest, MD5_DIGEST_SIZE);
    flow_progress_locked(in, hashed);
    tell_reader_locked();
}

void flow_progress_locked(size_t in, uintmax_t hashed)
{
    /* Modulo 2^n, exact whichever way it moves. */
    f.hashed += hashed - at(in)->hashed;
    at(in)->hashed = hashed;
}

void flow_sleep_locked(struct flow_sleeper *s, int room)
{
    s->room = room;
    s->asleep = 1;
    s->next = f.asleep;
    f.asleep = s;
    while (s->asleep && !f.stopping)
        pthread_cond_wait(&s->cv, &lock);
    if (s->asleep)
        wake_locked(s);   /* stopping: off the list */
}
