/* madvise and MAP_ANONYMOUS are not POSIX 2008; the feature-test macro is
 * the documented way to ask for them. */
#define _DEFAULT_SOURCE /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#include "flow.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "verify.h"

/* Each buffer starts 5 cache lines further into its page than the last:
 * lanes refilled together stay in step, and buffers all on page boundaries
 * would put every lane's block in one L1 set (media folder 0.94 of the wall
 * time with the stagger, docs/PERFORMANCE.md). */
#define CHUNK_ROOM (CHUNK + 4096 + 5 * 64)
#define HUGE_PAGE ((size_t)2 << 20)
#define SMALL_PAGES ((size_t)256 << 10)   /* of the buffers, kept out of huge pages */
VERIFY(room_for_a_block_and_padding, CHUNK_ROOM >= CHUNK + MD5_BLOCK_SIZE + MD5_PAD_MAX);

#define WAKE_BATCH 32  /* inputs ready to take that wake a hasher: a lane's
                        * worth (20,000 small files: 1,400 context switches,
                        * 13,000 with 4; from a cold cache, a wake-up for each
                        * input pre-read took 1.09x the time,
                        * docs/PERFORMANCE.md) */
#define WARM_AGAIN 4   /* inputs found in memory in a row: no longer cold */

struct input {
    const char *name;              /* to be opened by its hasher (fd -1 till then) */
    int fd;
    off_t size, read_off;          /* reading goes on from read_off */
    int taken, by_reader, reader_started;
    int ended, err;                /* reading is over: at the end, or ERR */
    struct chunk *first, *last;    /* read by the reader, not yet hashed */
    size_t queued;
    uintmax_t reader_bytes;
    struct flow_sleeper *owner;    /* its hasher */
    off_t counted;                 /* of its size, in its owner's bytes */
    int done, handed;              /* done; or handed back unhashed */
    int early;                     /* may be taken before older ones (flow_add) */
    off_t guess;                   /* its size, or (not opened) a guess, in
                                    * f.untaken while not taken */
    int large, fed;                /* EARLY and FEED_MIN bytes or more, not
                                    * done; fed to its owner (flow_feed) */
    int pre_read;                  /* cold: the reader went through all of it */
    int asked;                     /* given by flow_ahead (flow_reader_put) */
    unsigned pins;                 /* the reader's uses of its descriptor now */
    int close_left, close_err;     /* its hasher left the close to the last
                                    * of them (flow_closing_locked), which failed
                                    * with CLOSE_ERR */
    int follows;                   /* cold, its hasher reads behind the
                                    * pre-reader (flow_next_locked) */
    unsigned long resume;          /* ... once the pre-reader read again
                                    * after this many pre-reads */
    off_t pre_bytes, pre_gone;     /* of it, pre-read; of those, read since
                                    * by its hasher (no longer held) */
    struct result r;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    pthread_cond_t reader_cv;
    int reader_waits, cold, stopping;
    unsigned long events, seen;    /* what the reader may wait for; seen */
    struct input *in;              /* FLOW_INPUTS, made with the buffers */
    size_t head, take, rd, tail;   /* live [head, tail); the oldest not
                                    * taken; the oldest the reader may read */
    unsigned char *map;            /* the buffers: one mapping */
    size_t map_len, n_free;
    struct chunk *chunks, *free;   /* lowest address first */
    size_t reserve, own;           /* buffers the hashers may read into, hold */
    unsigned long hasher_fds;      /* inputs the hashers opened, not yet closed */
    unsigned warm_run;
    uintmax_t hashed;
    struct flow_stats stats;
    struct flow_sleeper *takers;   /* every hasher (flow_join) */
    uintmax_t sized_bytes, sized;  /* the sizes learnt as inputs were taken */
    uintmax_t untaken;             /* the guesses of the inputs not taken */
    int pre_fits;                  /* the page cache may hold PRE_READ_MAX */
    int pre_on;                    /* cold runs are pre-read (flow_pre_read) */
    size_t pre_in;                 /* the next pre-read: input, offset */
    off_t pre_off;
    uintmax_t pre_held;            /* pre-read bytes not yet read again */
    unsigned long pre_reads;       /* pre-reads made */
    size_t ahead;                  /* inputs before it looked at by flow_ahead */
    unsigned feed_most, n_large;   /* flow_feed's N; large inputs not done */
    struct flow_sleeper *fed;      /* the hasher fed, while it is */
} f;

static struct input *at(size_t i)
{
    return &f.in[i % FLOW_INPUTS];
}

/* Each page of the buffers is a fault at its first touch, dear in a VM (10
 * us a 4 KiB page, 0.1-0.14 ms a 2 MiB huge page here; docs/PERFORMANCE.md);
 * but a huge page is cleared whole, up to 4 ms where the host has not backed
 * it.  So they are handed out lowest first, and past the first SMALL_PAGES
 * (what a run of two inputs touches) offered to huge pages: 2 MiB kept
 * small cost the 256 KiB set 512 faults a run, 0.94-0.96 of its wall time. */
static int map_buffers(size_t n, size_t headroom, uintmax_t most)
{
    size_t i, skip;
    void *room;

    f.map_len = n * CHUNK_ROOM + HUGE_PAGE;   /* room to align */
    if (f.map_len > most)
        return -1;
    f.map = mmap(NULL, f.map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (f.map == MAP_FAILED)
        return -1;
    room = mmap(NULL, headroom, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    f.chunks = malloc(n * sizeof *f.chunks);
    if (room == MAP_FAILED || !f.chunks) {
        munmap(f.map, f.map_len);
        free(f.chunks);
        return -1;
    }
    munmap(room, headroom);
    skip = (HUGE_PAGE - ((uintptr_t)f.map + SMALL_PAGES) % HUGE_PAGE) % HUGE_PAGE;
#ifdef MADV_HUGEPAGE
    (void)madvise(f.map + skip + SMALL_PAGES, f.map_len - skip - SMALL_PAGES, MADV_HUGEPAGE);
#endif
    for (f.free = NULL, f.n_free = n, i = n; i-- > 0;) {
        f.chunks[i].data = f.map + skip + i * CHUNK_ROOM;
        f.chunks[i].next = f.free;
        f.free = &f.chunks[i];
    }
    return 0;
}

int flow_init(size_t n_bufs, size_t reserve, size_t headroom, uintmax_t room)
{
    static int made;
    pthread_condattr_t attr;

    if (!made && pthread_condattr_init(&attr) == 0) {
        /* Progress ticks wait by the monotonic clock. */
        (void)pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
        made = pthread_cond_init(&f.reader_cv, &attr) == 0;
        pthread_condattr_destroy(&attr);
    }
    f.in = made ? malloc(FLOW_INPUTS * sizeof *f.in) : NULL;
    if (!f.in || map_buffers(n_bufs, headroom, room) != 0) {
        free(f.in);
        return -1;
    }
    f.reserve = reserve;
    f.untaken = f.n_large = 0;
    f.fed = NULL;
    /* Pre-read bytes wait in the page cache, which a cgroup's memory limit
     * bounds too: where the buffers leave it less than twice PRE_READ_MAX,
     * they were evicted before their hashers took them, and read again
     * (docs/PERFORMANCE.md). */
    f.pre_fits = (room - f.map_len) / 2 >= PRE_READ_MAX;
    return 0;
}

void flow_pre_read(void)
{
    f.pre_on = f.pre_fits;
}

/* A failed close is a read error, as GNU's (flow_closing_locked). */
static void close_failed_locked(struct input *x, int err)
{
    x->close_err = err;
    if (x->done && x->r.status == RESULT_OK) {
        x->r.status = RESULT_READ_FAILED;
        x->r.err = err;
    }
}

/* The reader is done with X's descriptor, for now; the last to be done
 * closes it, if its hasher left the close to it.  Unlocks. */
static void unpin_unlock(struct input *x)
{
    int fd = x->fd;

    if (--x->pins > 0 || !x->close_left) {
        flow_unlock();
        return;
    }
    x->close_left = 0;
    flow_unlock();
    if (close(fd) != 0) {
        int err = errno;

        flow_lock();
        close_failed_locked(x, err);
        flow_unlock();
    }
}

unsigned flow_ahead(size_t in, size_t *ins, int *fds, unsigned most, off_t max)
{
    unsigned n = 0;
    size_t i;

    flow_lock();
    for (i = f.ahead > in ? f.ahead : in + 1; f.pre_fits && i < f.tail && i <= in + most; i++)
        if (at(i)->fd >= 0 && at(i)->size <= max && !at(i)->ended) {
            ins[n] = i;
            fds[n++] = at(i)->fd;
            at(i)->asked = 1;
            at(i)->pins++;
        }
    f.ahead = i;
    flow_unlock();
    return n;
}

void flow_unpin(size_t in)
{
    flow_lock();
    unpin_unlock(at(in));
}

int flow_closing_locked(size_t in)
{
    struct input *x = at(in);

    x->ended = 1;   /* the reader uses its descriptor no more */
    x->close_left = x->pins > 0;
    return !x->close_left;
}

void flow_feed(unsigned n)
{
    f.feed_most = n < FEED_MAX ? n : FEED_MAX;
}

void flow_end(void)
{
    munmap(f.map, f.map_len);
    free(f.chunks);
    free(f.in);
}

/* A free buffer, or NULL; one back: last out, first in (mapped, in cache). */
static struct chunk *get_locked(void)
{
    struct chunk *c = f.free;

    if (c) {
        f.free = c->next;
        f.n_free--;
    }
    return c;
}

static void put_locked(struct chunk *c)
{
    c->next = f.free;
    f.free = c;
    f.n_free++;
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
    if (s->asleep) {
        s->asleep = 0;
        f.stats.wakes++;
        pthread_cond_signal(&s->cv);
    }
}

static void wake_all_locked(void)
{
    struct flow_sleeper *s;

    for (s = f.takers; s; s = s->next)
        wake_locked(s);
}

/* Cold, may input I (X), which the pre-reader is part way through, be
 * taken now, and read behind it (flow_next_locked)?  If it is large: the
 * last large input of a run then ends soon after its last byte is read,
 * not a lane's whole hashing of it later (the media folder's videos, last:
 * 0.97 of the wall time from a cold cache, docs/PERFORMANCE.md). */
static int followable_locked(size_t i, const struct input *x)
{
    return i == f.pre_in && f.pre_off > 0 && x->size >= FEED_MIN && !x->by_reader &&
           f.pre_held < PRE_READ_MAX;
}

/* Could a hasher take the next input?  Cold, only once the reader has
 * something of it, or all of it is pre-read, or if it is to open it, or
 * if it may be read behind the pre-reader; or if the pre-reader holds all
 * it may and is part way through it (larger than PRE_READ_MAX: the reader
 * then reads it into buffers). */
static int takeable_locked(void)
{
    const struct input *x = at(f.take);

    return f.take < f.tail && !f.stopping &&
           (!f.cold || x->first || x->ended || x->fd < 0 || x->pre_read ||
            followable_locked(f.take, x) || (f.take == f.pre_in && f.pre_held >= PRE_READ_MAX));
}

/* May hasher S take inputs?  Cold, the one that joined last does not
 * while the others hold less than COLD_SLACK bytes more than it. */
static int may_take_locked(const struct flow_sleeper *s)
{
    const struct flow_sleeper *t;

    if (!f.cold || s != f.takers)
        return 1;
    for (t = s->next; t; t = t->next)
        if (t->bytes < s->bytes + COLD_SLACK)
            return 0;
    return 1;
}

/* Wake the sleeping hasher with room that holds the fewest bytes, if
 * there is an input to take. */
static void wake_taker_locked(void)
{
    struct flow_sleeper *s, *best = NULL;

    for (s = f.takers; s; s = s->next)
        if (s->asleep && s->room && may_take_locked(s) && (!best || s->bytes < best->bytes))
            best = s;
    if (best && takeable_locked())
        wake_locked(best);
}

/* Are WAKE_BATCH inputs ready to be taken, those before READY: added
 * (warm), or read by the reader, or pre-read (cold; it reads in order)?
 * Fewer wait until the caller waits (flow_wait). */
static int batch_locked(size_t ready)
{
    return ready >= f.take + WAKE_BATCH;
}

/* Is input X, just read by the reader (READY: the input after the last it
 * read in order), worth waking a hasher for: more than a chunk, or the last
 * of a batch? */
static int read_wakes_locked(const struct input *x, size_t ready)
{
    return x->size > (off_t)CHUNK || batch_locked(ready);
}

/* SIZE, a size just learnt; or (-1, an input not yet opened) the mean of
 * those learnt so far, as a guess. */
static off_t learn_locked(off_t size)
{
    if (size < 0)
        return f.sized ? (off_t)(f.sized_bytes / f.sized) : 0;
    f.sized_bytes += (uintmax_t)size;
    f.sized++;
    return size;
}

/* Input X is taken (by a hasher, or back by the caller). */
static void taken_locked(struct input *x)
{
    x->taken = 1;
    f.untaken -= (uintmax_t)x->guess;
}

/* F.TAKE past the inputs taken (some early: pick_locked). */
static void advance_take_locked(void)
{
    while (f.take < f.tail && at(f.take)->taken)
        f.take++;
}

/* Input X's pre-read bytes are no longer held for its hasher. */
static void unhold_locked(struct input *x)
{
    f.pre_held -= (uintmax_t)(x->pre_bytes - x->pre_gone);
    x->pre_bytes = x->pre_gone = 0;
}

/* Input X's hasher read on to AT: as many of its pre-read bytes are no
 * longer held, and the pre-reader may read as many more ahead of it. */
static void read_again_locked(struct input *x, off_t at)
{
    off_t n = at - x->read_off, left = x->pre_bytes - x->pre_gone;

    n = n < left ? n : left;
    if (n > 0) {
        x->pre_gone += n;
        f.pre_held -= (uintmax_t)n;
    }
}

/* Input X is over, or handed back: no longer large, nor fed. */
static void unfeed_locked(struct input *x)
{
    f.n_large -= x->large != 0;
    if (x->fed && --x->owner->fed == 0)
        f.fed = NULL;
    x->large = x->fed = 0;
}

/* Input X's owner holds BYTES of it. */
static void count_locked(struct input *x, off_t bytes)
{
    x->owner->bytes += (uintmax_t)bytes - (uintmax_t)x->counted;
    x->counted = bytes;
}

/* Warm, another hasher that holds BALANCE_SLACK bytes fewer than S, or
 * NULL: it takes the next input instead, once it has a lane free.
 * Otherwise the hasher whose lanes free up first takes whatever inputs are
 * left (the media folder's 16 MiB videos come last) and hashes them alone
 * after the others are done.  Cold, the reader's order decides. */
static struct flow_sleeper *fewer_locked(const struct flow_sleeper *s)
{
    struct flow_sleeper *t;

    for (t = f.takers; t && !f.cold; t = t->next)
        if (t != s && t->bytes + BALANCE_SLACK < s->bytes)
            return t;
    return NULL;
}

/* Written by this thread alone: no lock to read them. */
int flow_room(void)
{
    return f.tail - f.head < FLOW_INPUTS;
}

int flow_add(int fd, off_t size, const char *name, int early, size_t *in)
{
    struct input *x;

    flow_lock();
    if (fd < 0 && f.cold) {
        flow_unlock();
        return 0;
    }
    x = at(f.tail++);
    memset(x, 0, sizeof *x);
    x->name = name;
    x->fd = fd;
    x->size = size;
    x->early = early;
    x->guess = size >= 0 ? size : learn_locked(-1);
    f.untaken += (uintmax_t)x->guess;
    x->large = early && size >= FEED_MIN;
    f.n_large += x->large != 0;
    if (!f.cold && batch_locked(f.tail))
        wake_taker_locked();
    flow_unlock();
    *in = f.tail - 1;
    return 1;
}

/* Cold and pre-reading: the next chunk in input order that no one has
 * read, for the page cache only, while PRE_READ_MAX bytes are not held. */
static int pre_read_next_locked(struct flow_read *r)
{
    struct input *x;

    if (f.pre_in < f.head) {
        f.pre_in = f.head;
        f.pre_off = 0;
    }
    for (; f.pre_in < f.tail; f.pre_in++, f.pre_off = 0) {
        x = at(f.pre_in);
        if (x->read_off > f.pre_off)
            f.pre_off = x->read_off;   /* read already, by the reader or a hasher */
        if (!(x->ended || x->pre_read || (x->fd >= 0 && f.pre_off >= x->size)))
            break;
        x->pre_read = 1;
    }
    if (f.pre_in == f.tail || f.pre_held >= PRE_READ_MAX || at(f.pre_in)->fd < 0)
        return 0;   /* nothing, enough held, or its hasher opens it first */
    x = at(f.pre_in);
    r->in = f.pre_in;
    r->fd = x->fd;
    r->off = f.pre_off;
    r->size = x->size;
    r->first = f.pre_off == 0;
    r->c = NULL;
    r->may_skip = x->pre_bytes == 0;
    return 1;
}

int flow_reader_next(struct flow_read *r)
{
    size_t i;
    int found = 0;

    r->in_memory = 0;
    flow_lock();
    for (f.rd = f.rd < f.head ? f.head : f.rd; f.rd < f.tail && at(f.rd)->ended; f.rd++)
        continue;
    for (i = f.rd; i < f.tail; i++) {
        struct input *x = at(i);
        int side_by_side = !f.cold || x->fed;

        /* Cold, not before an input still to open: its hasher opens it. */
        if (x->fd < 0 && f.cold && !x->ended)
            break;
        if (x->ended || x->fd < 0 || !(x->by_reader || (!x->taken && f.cold && !f.pre_on)))
            continue;
        /* Cold, the storage sees one stream: the oldest input first, front
         * to back.  Warm, a lone input's hasher is kept AHEAD_WARM chunks
         * ahead, and so, warm or cold, is each of the inputs fed side by
         * side (flow_feed): they were in memory as they were added, and a
         * page evicted since must not leave all but one of their lanes
         * idle, each read after the other. */
        if (f.n_free + f.own > f.reserve && (!side_by_side || x->queued < AHEAD_WARM)) {
            x->by_reader = 1;
            r->first = !x->reader_started;
            x->reader_started = 1;
            r->c = get_locked();
            r->in = i;
            r->fd = x->fd;
            r->off = x->read_off;
            r->size = x->size;
            found = 1;
        }
        if (found || !side_by_side)
            break;
    }
    if (!found && f.pre_on && f.cold)
        found = pre_read_next_locked(r);
    if (found)
        at(r->in)->pins++;
    flow_unlock();
    return found;
}

void flow_reader_put(const struct flow_read *r, int failed, int err, int cached)
{
    struct input *x;

    flow_lock();
    x = at(r->in);
    if (!r->c) {
        /* Pre-read: the input can be taken once all of it is (a failed
         * read is left to whoever reads it). */
        f.pre_reads++;
        if (!failed && !x->done)
            f.pre_off += (off_t)r->len;
        if (!failed && !x->done && !r->in_memory) {
            f.pre_held += r->len;
            x->pre_bytes += (off_t)r->len;
            f.stats.pre_read_bytes += r->len;
        }
        if (failed || r->final) {
            x->pre_read = 1;
            f.pre_in++;
            f.pre_off = 0;
        }
        if (x->taken)
            wake_locked(x->owner);   /* it may read behind (flow_next_locked) */
        if (f.pre_held >= PRE_READ_MAX)
            wake_all_locked();       /* those waiting read by probes */
        /* Small inputs wake a hasher a batch at a time. */
        if ((x->pre_read && read_wakes_locked(x, f.pre_in)) ||
            f.pre_held >= PRE_READ_MAX || followable_locked(r->in, x))
            wake_taker_locked();
    } else {
        x->ended = failed || r->final;
        x->err = failed ? err : 0;
        if (failed) {
            put_locked(r->c);
        } else {
            r->c->off = r->off;
            r->c->len = r->len;
            r->c->final = r->final;
            r->c->next = NULL;
            *(x->last ? &x->last->next : &x->first) = r->c;
            x->last = r->c;
            x->queued++;
            x->read_off = r->off + (off_t)r->len;
            x->reader_bytes += r->len;
            f.stats.reader_bytes += r->len;
        }
        if (x->taken)
            wake_locked(x->owner);
        else if (read_wakes_locked(x, r->in + 1))
            wake_taker_locked();
    }
    /* An input given by flow_ahead is in memory because the storage was
     * asked for it: that says nothing of the run, which would otherwise
     * turn warm and cold again every few inputs (20,000 files of 4 KiB
     * from a cold cache: 2,000 times, 1.5x the time; docs/PERFORMANCE.md). */
    if (cached == 1 && x->asked)
        cached = -1;
    f.warm_run = cached == 1 ? f.warm_run + 1 : cached == 0 ? 0 : f.warm_run;
    if (f.cold && f.warm_run >= WARM_AGAIN) {
        f.cold = 0;
        f.stats.warm++;
        wake_all_locked();
    }
    unpin_unlock(x);
}

int flow_result(size_t in, struct result *r, int *fd, off_t *size)
{
    struct input *x;
    int done;

    flow_lock();
    x = at(in);
    done = x->done ? 1 + x->handed : 0;
    *fd = x->fd;
    *size = x->size;
    if (done) {
        *r = x->r;
        f.head = in + 1;
        f.hasher_fds -= x->handed && x->name && x->fd >= 0;
    }
    flow_unlock();
    return done;
}

unsigned long flow_hasher_fds(void)
{
    unsigned long n;

    flow_lock();
    n = f.hasher_fds;
    flow_unlock();
    return n;
}

int flow_take_back(size_t in)
{
    int yes;

    flow_lock();
    yes = in == f.head && in == f.take && !at(in)->reader_started;
    if (yes) {
        unhold_locked(at(in));
        unfeed_locked(at(in));
        f.head++;
        taken_locked(at(in));
        advance_take_locked();
    }
    flow_unlock();
    return yes;
}

uintmax_t flow_hashed(size_t in, uintmax_t *all, struct flow_stats *s)
{
    uintmax_t n;

    flow_lock();
    n = in < f.tail ? at(in)->r.hashed : 0;
    *all = f.hashed;
    if (s)
        *s = f.stats;
    flow_unlock();
    return n;
}

void flow_wait(const struct timespec *deadline)
{
    flow_lock();
    wake_taker_locked();
    f.reader_waits = 1;
    while (f.events == f.seen &&
           (deadline ? pthread_cond_timedwait(&f.reader_cv, &lock, deadline) != ETIMEDOUT
                     : pthread_cond_wait(&f.reader_cv, &lock) == 0))
        continue;
    f.reader_waits = 0;
    f.seen = f.events;
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

int flow_join(struct flow_sleeper *s)
{
    if (pthread_cond_init(&s->cv, NULL) != 0)
        return -1;
    flow_lock();
    s->next = f.takers;
    f.takers = s;
    flow_unlock();
    return 0;
}

void flow_leave(struct flow_sleeper *s)
{
    struct flow_sleeper **p = &f.takers;

    flow_lock();
    while (*p && *p != s)
        p = &(*p)->next;
    if (*p)
        *p = s->next;
    if (f.fed == s)
        f.fed = NULL;
    flow_unlock();
    pthread_cond_destroy(&s->cv);
}

/* The input to take next, from F.TAKE: warm, the largest EARLY one.  A
 * large input started late is hashed after the others end, in lanes mostly
 * idle, each round taking the chain's whole time (the media folder's
 * videos, last by name; taken first: 0.95-0.96 of the wall time). */
static size_t pick_locked(void)
{
    size_t pick = f.take, i;

    for (i = f.take + 1; at(f.take)->early && !f.cold && i < f.tail; i++)
        if (at(i)->early && !at(i)->taken && at(i)->size > at(pick)->size)
            pick = i;
    return pick;
}

int flow_take_locked(size_t *in, int *fd, off_t *size, const char **name, int alone,
                     struct flow_sleeper *s)
{
    struct input *x;
    struct flow_sleeper *other;
    int feed;

    if (!takeable_locked() || !may_take_locked(s))
        return 0;
    *in = pick_locked();
    x = at(*in);
    /* Few large inputs, warm: to the hasher fed already, if there is one
     * (balance does not hold against it), or else as balance says. */
    feed = x->large && !f.cold && f.n_large <= f.feed_most;
    other = feed && f.fed ? (f.fed == s ? NULL : f.fed) : fewer_locked(s);
    if (other) {
        wake_locked(other);
        return 0;
    }
    f.stats.early += *in != f.take;
    taken_locked(x);
    x->owner = s;
    count_locked(x, learn_locked(x->size));
    advance_take_locked();
    if (feed) {
        f.fed = s;
        s->fed++;
        x->fed = 1;
        f.stats.fed++;
    }
    /* Fed, or alone: read ahead by the reader, unless its size says one
     * chunk (and once it is opened by name, flow_tell_locked). */
    x->follows = f.cold && !x->pre_read && followable_locked(*in, x);
    x->by_reader |= feed || (f.cold && !x->pre_read && !x->follows) ||
                    (alone && f.take == f.tail && (x->fd < 0 || x->size > (off_t)CHUNK));
    *fd = x->fd;
    *size = x->size;
    *name = x->name;
    if (x->by_reader)
        tell_reader_locked();
    wake_taker_locked();   /* more for another hasher */
    return 1;
}

enum flow_next flow_next_locked(size_t in, struct chunk **c, off_t *off, int *err)
{
    struct input *x = at(in);

    if ((*c = x->first) != NULL) {
        if (!(x->first = x->first->next))
            x->last = NULL;
        /* Room to read ahead, once half of it is: the reader reads a few
         * chunks a wake-up, not one for each taken. */
        if (--x->queued <= AHEAD_WARM / 2)
            tell_reader_locked();
        return FLOW_CHUNK;
    }
    *err = x->err;
    if (x->ended)
        return x->err ? FLOW_FAILED : FLOW_WAIT;
    *off = x->read_off;
    if (x->by_reader)
        return FLOW_WAIT;
    if (!f.cold || x->pre_read)
        return FLOW_READ;
    /* Behind the pre-reader, what it read is in memory; the rest is waited
     * for while it may read on (else, the probe missing, the reader reads
     * it into buffers). */
    if (x->follows && in == f.pre_in && chunk_end(*off, x->size) <= f.pre_off &&
        f.pre_reads > x->resume)
        return FLOW_READ;
    return x->follows && in >= f.pre_in && f.pre_held < PRE_READ_MAX ? FLOW_WAIT : FLOW_PROBE;
}

struct chunk *flow_buf_locked(void)
{
    struct chunk *c = get_locked();

    f.own += c != NULL;
    return c;
}

void flow_unbuf_locked(struct chunk *c, int own)
{
    f.own -= own != 0;
    put_locked(c);
    /* A buffer for the reader again (flow_reader_next's test). */
    if (f.n_free + f.own == f.reserve + 1)
        tell_reader_locked();
}

static void progress_locked(struct input *x, uintmax_t hashed)
{
    /* Modulo 2^n, exact whichever way it moves. */
    f.hashed += hashed - x->r.hashed;
    x->r.hashed = hashed;
}

/* Input IN is over, with R. */
static void done_locked(size_t in, const struct result *r)
{
    struct input *x = at(in);
    struct chunk *c;
    off_t off;
    int err;

    f.hasher_fds -= x->name && x->fd >= 0;   /* its hasher opened and closed it */
    /* Over, whoever read it: the reader must not start on it (a hasher that
     * read the input to its end says so only here), nor the drain below
     * hand it to the reader. */
    x->ended = 1;
    while (flow_next_locked(in, &c, &off, &err) == FLOW_CHUNK)
        flow_unbuf_locked(c, 0);
    progress_locked(x, r->hashed);
    x->r = *r;
    x->done = 1;
    if (x->close_err)
        close_failed_locked(x, x->close_err);
    unhold_locked(x);
    unfeed_locked(x);
    count_locked(x, 0);
    if (r->hashed > x->reader_bytes)
        f.stats.hasher_bytes += r->hashed - x->reader_bytes;
    /* The reader waits for this one if its result is the next to emit, if
     * a hasher closed a descriptor it opened, and, cold, for whatever an
     * input's end lets it read.  Warm, the end of an input the caller
     * opened, not the oldest, would wake it for nothing, on a CPU a hasher
     * runs on (the media folder: 308 futex calls a run, 84 so; 0.99 of
     * the wall time, docs/PERFORMANCE.md). */
    if (in == f.head || x->name || f.cold)
        tell_reader_locked();
}

void flow_tell_locked(size_t in, const struct flow_report *p, int progress)
{
    struct input *x = at(in);

    if (p->opened || p->handed) {
        /* A descriptor a hasher opened is counted once, when the flow first
         * hears of it (opened, or handed back at once), until it is closed
         * or its result taken (flow_result). */
        f.hasher_fds += p->fd >= 0 && x->fd < 0;
        x->fd = p->fd;
        x->size = p->size;
        /* Reading ahead an input of one chunk would only cost its hasher a
         * wait for the reader (a checksum list read as it is written: each
         * input alone), and a buffer's huge page (hasher.c's small ones). */
        x->by_reader &= f.cold || p->size > (off_t)CHUNK;
        /* Handed back: the reader must not read it either. */
        x->done = x->handed = x->ended = p->handed;
        if (p->handed) {
            unhold_locked(x);
            unfeed_locked(x);
        }
        count_locked(x, p->handed ? 0 : learn_locked(p->size));
        f.stats.opened += !p->handed;
        f.stats.handed += p->handed != 0;
        tell_reader_locked();
    }
    if (p->read && !p->done && !p->handed) {
        read_again_locked(x, p->read_at);
        x->read_off = p->read_at;
        x->ended |= p->ended;
        x->err = p->ended ? p->err : 0;
        if (p->later) {
            /* Behind the pre-reader, a read that cannot wait misses where
             * its next read starts the storage's (a read-ahead mark on a
             * large folio; nothing asked of the storage): read on once it
             * has read again. */
            f.stats.later += p->later == 1 && !x->follows;
            x->resume = f.pre_reads;
            /* Pre-reading, the hasher reads behind the pre-reader, which
             * reads the inputs in order; otherwise the reader reads it. */
            x->follows = f.pre_on && !x->pre_read && f.pre_held < PRE_READ_MAX;
            x->by_reader = !x->follows;
            f.stats.cold += !f.cold;
            f.cold = 1;
            f.warm_run = 0;
            tell_reader_locked();
        }
    }
    if (p->done)
        done_locked(in, &p->r);
    else if (progress && !p->handed)
        progress_locked(x, p->hashed);
}

void flow_lanes_locked(uint64_t hashed, uint64_t offered, uint64_t held_back)
{
    f.stats.lane_hashed += hashed;
    f.stats.lane_offered += offered;
    f.stats.lane_held_back += held_back;
}

uintmax_t flow_queued_locked(void)
{
    const struct flow_sleeper *t;
    unsigned n = 0;

    for (t = f.takers; t; t = t->next)
        n += may_take_locked(t);
    return f.untaken / (n > 0 ? n : 1);
}

void flow_sleep_locked(struct flow_sleeper *s, int room)
{
    s->room = room;
    s->asleep = 1;
    while (s->asleep && !f.stopping)
        pthread_cond_wait(&s->cv, &lock);
    s->asleep = 0;
}
