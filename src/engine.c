/* The engine: see engine.h for the contract.
 *
 * Four stages, each with its own state: the caller's inputs in order (the
 * ring of jobs, here); the reading stage, also in the caller's thread: it
 * opens the inputs in order and reads what must be read in order
 * (flow.h); the hashers, on every CPU, or one in the caller's thread with
 * one job (hasher.h); the results, emitted here in order.
 *
 * Two ways to hash: with lanes (a buffer pool, and hashers), or plain: the
 * caller's thread opens each input at its turn and hashes it through one
 * buffer, as GNU md5sum does.  The plain way is for what must be read in
 * order anyway (standard input, FIFOs, terminals, the file the results go
 * to), for a lone file (no thread is worth starting for it), and for the
 * rest of a run once memory is short: the lanes' memory is given back when
 * an allocation elsewhere fails (xalloc.h), so that md5sum hashes wherever
 * GNU's does.
 */
#include "engine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compress/mb.h"
#include "flow.h"
#include "hasher.h"
#include "input.h"
#include "lowmem.h"
#include "source.h"
#include "threads.h"
#include "xalloc.h"

#define JOBS FLOW_INPUTS            /* submitted and not yet emitted, at most
                                     * (fewer if memory is short) */
#define TAG_MAX 32                  /* bytes of the caller's tag kept */
#define LONE_MAX ((off_t)16 << 20)  /* a lone file up to this is hashed plainly:
                                     * threads take about 1.5 ms to start */
#define POOL_MAX (((size_t)64 << 20) / CHUNK_ROOM)  /* chunk buffers, at most */
#define AHEAD 96                    /* buffers for the reader beyond the lanes' */
#define HEADROOM ((size_t)16 << 20) /* address space left for the rest of md5sum */
#define NEXT_AHEAD ((off_t)2 << 20) /* the next inputs' starts asked for by then */
#define SPARE_FDS 2                 /* descriptors left for the rest (catalogues) */
#define PLAIN_BUF ((size_t)256 << 10)
#define BORROW_MAX 4096             /* longer names are not copied */

enum job_state { JOB_NEW, JOB_INPUT, JOB_IN_ORDER, JOB_DONE };

struct job {
    const char *name;               /* NULL: a mark */
    char *copy;                     /* the name, when it is ours to free */
    unsigned char tag[TAG_MAX];
    enum job_state state;
    int fd;                         /* once opened */
    off_t size;                     /* once opened; -1 if not a regular file */
    size_t input;                   /* JOB_INPUT: the flow's index */
    struct result r;                /* JOB_DONE */
};

enum mode { MODE_UNDECIDED, MODE_LANES, MODE_PLAIN };

static struct {
    struct job *ring;               /* cap of them, made at the first start */
    size_t cap;
    size_t head, opened, tail;      /* emitted < head <= opened <= tail */
    engine_emit *emit;
    engine_flush *flush;
    void *arg;
    unsigned jobs_wanted;
    enum mode mode;
    struct hasher *hashers[ENGINE_MAX_JOBS];
    struct thread threads[ENGINE_MAX_JOBS];
    unsigned n_threads;
    struct hasher *inline_hasher;   /* -j1: stepped in this thread */
    unsigned fds;                   /* inputs open, not yet emitted */
    size_t advised;                 /* inputs whose start the reader asked for */
    long fd_limit;
    engine_tick *tick;
    void *tick_arg;
    struct timespec next_tick;
    unsigned inputs_pending;        /* undecided: inputs not yet emitted */
    unsigned long plain, fd_waits, gave_back, asked;  /* for engine_stats */
    uintmax_t inputs_done, inputs_known, bytes_known, bytes_here, head_here;
} e;

static struct job *job(size_t i)
{
    return &e.ring[i % e.cap];
}

void engine_set_jobs(unsigned n)
{
    e.jobs_wanted = n;
}

void engine_set_tick(engine_tick *tick, void *arg)
{
    e.tick = tick;
    e.tick_arg = arg;
}

static int before(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* The caller's tick, if ENGINE_TICK_NS have passed since the last one. */
static void tick(void)
{
    struct timespec now;

    if (!e.tick)
        return;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (before(&now, &e.next_tick))
        return;
    e.next_tick = now;
    e.next_tick.tv_nsec += ENGINE_TICK_NS;
    if (e.next_tick.tv_nsec >= 1000000000L) {
        e.next_tick.tv_sec++;
        e.next_tick.tv_nsec -= 1000000000L;
    }
    e.tick(e.tick_arg);
}

void engine_get_progress(struct engine_progress *p)
{
    const struct job *j = e.head < e.tail ? job(e.head) : NULL;
    uintmax_t all, mine = flow_hashed(j && j->state == JOB_INPUT ? j->input : (size_t)-1, &all);

    p->name = j ? j->name : NULL;
    p->size = j && j->state != JOB_NEW ? j->size : -1;
    p->done = j && j->state == JOB_INPUT ? mine : e.head_here;
    p->inputs_done = e.inputs_done;
    p->inputs_known = e.inputs_known;
    p->bytes_done = all + e.bytes_here;
    p->bytes_known = e.bytes_known;
}

/* ---- the lanes: memory, hashers ---- */

/* Hash with lanes from now on, on N hashers (0: one in this thread), as
 * many lanes each as the widest kernel has, fewer if memory is short.
 * Returns 0, or -1 if not even one lane's memory can be had. */
static int lanes_start(unsigned n)
{
    unsigned lanes = md5_mb_kernels()[0]->lanes, each = n ? n : 1, i;

    for (; lanes > 0; lanes /= 2) {
        size_t bufs = (size_t)lanes * each + AHEAD;

        if (bufs > POOL_MAX)
            continue;
        if (flow_init(bufs, (size_t)lanes * each) != 0)
            continue;
        if (bufs_room(HEADROOM))
            break;
        flow_end();
    }
    if (lanes == 0)
        return -1;
    for (i = 0; i < n; i++) {
        e.hashers[i] = hasher_new(lanes, e.tick != NULL);
        if (!e.hashers[i] || thread_start(&e.threads[i], hasher_main, e.hashers[i]) != 0)
            break;
        e.n_threads++;
    }
    if (n == 0 || e.n_threads == 0) {
        if (n > 0 && e.hashers[0])
            hasher_free(e.hashers[0]);
        e.inline_hasher = hasher_new(lanes, e.tick != NULL);
        if (!e.inline_hasher) {
            flow_end();
            return -1;
        }
    }
    return 0;
}

/* Memory elsewhere is short: stop the hashers, give the lanes' memory
 * back, and hash what they had, and the rest of the run, plainly.  Each
 * input they had not finished keeps its descriptor and is read again from
 * its start.  Returns 1 if memory was freed. */
static int give_memory_back(void)
{
    size_t i;
    unsigned t;

    if (e.mode != MODE_LANES)
        return 0;
    flow_stop();
    for (t = 0; t < e.n_threads; t++) {
        thread_join(&e.threads[t]);
        hasher_free(e.hashers[t]);
    }
    e.n_threads = 0;
    if (e.inline_hasher)
        hasher_free(e.inline_hasher);
    e.inline_hasher = NULL;
    for (i = e.head; i < e.opened; i++) {
        struct job *j = job(i);

        if (j->state == JOB_INPUT)
            j->state = flow_result(j->input, &j->r) ? JOB_DONE : JOB_IN_ORDER;
    }
    flow_end();
    e.mode = MODE_PLAIN;
    e.gave_back++;
    return 1;
}

/* Hash with lanes from now on, or plainly if their memory cannot be had. */
static void lanes_or_plain(void)
{
    unsigned n = e.jobs_wanted ? e.jobs_wanted : cpus_available(), cpus = cpus_available();

    /* One hasher in this thread with -j1; otherwise threads, no more than
     * CPUs: more would only split the lanes. */
    if (n > 1 && n > cpus)
        n = cpus;
    e.mode = lanes_start(e.jobs_wanted == 1 ? 0 : n) == 0 ? MODE_LANES : MODE_PLAIN;
}

/* ---- the jobs ---- */

static void done(struct job *j, enum result_status status, int err)
{
    j->state = JOB_DONE;
    j->r.status = status;
    j->r.err = err;
}

/* Open job J, or leave it to a later try (0): a descriptor is short and
 * inputs of ours are open (as one ends, one is freed), or the flow is full. */
static int open_job(struct job *j)
{
    int fd, in_order, err;
    off_t size;

    if (j->state == JOB_DONE)   /* a mark */
        return 1;
    if (e.mode == MODE_LANES && !flow_room())
        return 0;
    fd = source_open(j->name, &size, &in_order);
    err = errno;
    if (fd < 0 && (err == EMFILE || err == ENFILE) && e.fds > 0) {
        e.fd_waits++;
        return 0;
    }
    /* The last few descriptors are left to the rest of md5sum. */
    if (fd >= 0 && e.fds > 0 && e.fd_limit > 0 && fd >= e.fd_limit - SPARE_FDS) {
        close(fd);
        e.fd_waits++;
        return 0;
    }
    if (fd < 0) {
        done(j, RESULT_OPEN_FAILED, err);
        return 1;
    }
    e.fds++;
    j->fd = fd;
    j->size = size;
    e.bytes_known += size > 0 ? (uintmax_t)size : 0;
    j->state = JOB_IN_ORDER;
    /* A lone file is worth threads only if large; in order anyway if it
     * must be. */
    if (e.mode == MODE_UNDECIDED && !in_order && size > LONE_MAX && e.jobs_wanted != 1)
        lanes_or_plain();
    if (e.mode == MODE_LANES && !in_order) {
        j->state = JOB_INPUT;
        j->input = flow_add(fd, size);
    }
    return 1;
}

/* hash_rest: ABSORBED bytes of the head are hashed; tick between reads. */
static void hashed_here(uint64_t absorbed, void *arg)
{
    (void)arg;
    e.bytes_here += absorbed - e.head_here;
    e.head_here = absorbed;
    tick();
}

/* The job at the head, to be read in order: hash it here, plainly, as GNU
 * would, through a buffer to the input's measure (a fresh page costs a
 * fault), made for it and freed after: nothing is held between jobs. */
static void hash_plain(struct job *j)
{
    unsigned char small[4096 + 128], *buf = small;
    size_t cap = 4096, want = j->size >= 0 && (size_t)j->size < PLAIN_BUF ? (size_t)j->size : PLAIN_BUF;
    struct md5_ctx ctx;
    enum result_status status = RESULT_OK;
    int err = 0;

    want = (want + 4095) & ~(size_t)4095;
    if (want > cap && (buf = malloc(want + 128)) != NULL)
        cap = want;
    else
        buf = small;
    md5_init(&ctx);
    e.head_here = 0;
    e.plain++;
    if (j->fd == STDIN_FILENO) {
        /* Its size, from where reading starts, if a file: for progress. */
        struct stat st;
        off_t at = lseek(j->fd, 0, SEEK_CUR);

        if (e.tick && fstat(j->fd, &st) == 0 && S_ISREG(st.st_mode))
            e.bytes_known += (uintmax_t)(j->size = at >= 0 && at < st.st_size ? st.st_size - at : 0);
    }
    if (j->size >= 0 && j->fd != STDIN_FILENO) {
        size_t got;
        enum source_got how;

        do {
            how = source_read(j->fd, buf, cap, (off_t)ctx.length, j->size, 0, &got);
            if (how == SOURCE_FAILED)
                break;
            md5_update(&ctx, buf, got);
            hashed_here(ctx.length, NULL);
        } while (how == SOURCE_MORE);
        if (how == SOURCE_FAILED) {
            status = RESULT_READ_FAILED;
            err = errno;
        }
    } else if (source_wait_ready(j->fd) != 0 ||
               hash_rest(j->fd, &ctx, buf, cap, hashed_here, NULL) != 0) {
        status = RESULT_READ_FAILED;
        err = errno;
    }
    if (status == RESULT_OK)
        md5_final(&ctx, j->r.digest);
    /* As GNU: a failing close is a read error too. */
    if (input_close(j->fd) != 0 && status == RESULT_OK) {
        status = RESULT_READ_FAILED;
        err = errno;
    }
    j->r.hashed = ctx.length;
    done(j, status, err);
    if (buf != small)
        free(buf);
}

/* Emit what is done at the head. */
static int emit_done(void)
{
    int any = 0;

    while (e.head < e.tail) {
        struct job *j = job(e.head);

        if (!(j->state == JOB_DONE || (j->state == JOB_INPUT && flow_result(j->input, &j->r))))
            break;
        if (j->state != JOB_NEW && j->fd >= 0 && j->name) {
            e.fds--;
            e.bytes_known += j->r.hashed - (j->size > 0 ? (uintmax_t)j->size : 0);
        }
        j->r.name = j->name;
        j->r.tag = j->tag;
        e.head++;
        if (e.opened < e.head)
            e.opened = e.head;
        if (j->name && e.inputs_pending > 0)
            e.inputs_pending--;
        e.head_here = 0;
        e.emit(&j->r, e.arg);
        if (j->name)
            e.inputs_done++;
        free(j->copy);
        j->name = j->copy = NULL;
        any = 1;
    }
    return any;
}

/* The reader read input IN at OFF, its last read: the next input's start is
 * asked for now (up to NEXT_AHEAD bytes), so that the storage has it queued
 * while this one is hashed: kernel read-ahead stops at a file's end, and
 * small files would be read one request at a time, the storage idle in
 * between.  Asked only after this one's last byte, and one input ahead:
 * the storage still sees one stream, in order. */
static void ask_next(size_t in, off_t off, off_t size)
{
    int fd;

    if (size - off <= (off_t)(CHUNK + MD5_BLOCK_SIZE) && e.advised <= in + 1 &&
        flow_reader_peek(in + 1, &fd, &size)) {
        posix_fadvise(fd, 0, size < NEXT_AHEAD ? size : NEXT_AHEAD, POSIX_FADV_WILLNEED);
        e.advised = in + 2;
        e.asked++;
    }
}

/* The reader comes to input IN (FD, from OFF to SIZE): is the rest of the
 * run in memory again?  The inputs it asked for are, by its own asking: it
 * looks at the first one it has not asked for instead. */
static void warm_again(size_t in, int fd, off_t off, off_t size)
{
    if (e.advised > in && flow_reader_peek(e.advised, &fd, &size))
        off = 0;
    else if (e.advised > in)
        return;
    flow_reader_cached(source_cached(fd, off, size) == 1);
}

/* One thing the caller's thread can do now, in this order: hash the head
 * plainly, open the next input, read a chunk for the reader, run the
 * lanes here.  Returns 0 if there is nothing. */
static int step(void)
{
    struct job *j = job(e.head);
    struct chunk *c;
    size_t in;
    off_t off, size;
    int fd, first;

    if (e.head < e.tail && j->state == JOB_IN_ORDER) {
        e.flush(e.arg);
        hash_plain(j);
        return 1;
    }
    /* Plainly, an input is opened at its turn, as GNU opens it. */
    if (e.opened < e.tail && (e.mode != MODE_PLAIN || e.opened == e.head) &&
        open_job(job(e.opened))) {
        e.opened++;
        return 1;
    }
    if (e.mode != MODE_LANES)
        return 0;
    if (flow_reader_next(&in, &fd, &off, &size, &c, &first)) {
        enum source_got how;

        if (first) {
            warm_again(in, fd, off, size);
            /* As GNU and cat ask: a larger read-ahead for what is read
             * front to back. */
            posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
        }
        e.flush(e.arg);
        how = source_read(fd, c->data, CHUNK, off, size, 0, &c->len);
        ask_next(in, off, size);
        c->off = off;
        c->final = how == SOURCE_END;
        flow_reader_put(in, c, how == SOURCE_FAILED, errno);
        return 1;
    }
    return e.inline_hasher && hasher_step(e.inline_hasher) > 0;
}

enum until { UNTIL_ROOM, UNTIL_EMPTY };

/* Emit what is done, in order, until U holds: room for a new job, or every
 * job emitted.  Meanwhile work; before any wait, let the caller flush. */
static void pump(enum until u)
{
    for (;;) {
        unsigned long seen = e.mode == MODE_LANES ? flow_events() : 0;

        emit_done();
        tick();
        if (u == UNTIL_ROOM ? e.tail - e.head < e.cap : e.head == e.tail)
            return;
        if (step())
            continue;
        flow_kick();
        e.flush(e.arg);
        flow_wait(seen, e.tick ? &e.next_tick : NULL);
    }
}

/* What each mechanism did, on stderr at exit: for tests that check that it
 * works, and fails when it is switched off (docs/RELIABILITY.md). */
static void print_stats(void)
{
    struct flow_stats f;

    flow_get_stats(&f);
    fprintf(stderr,
            "md5sum engine: threads %u, inline %d, plain %lu, reader %ju, hashers %ju, later %lu, "
            "cold %lu, warm %lu, asked %lu, fd waits %lu, gave back %lu\n",
            e.n_threads, e.inline_hasher != NULL, e.plain, f.reader_bytes, f.hasher_bytes, f.later,
            f.cold, f.warm, e.asked, e.fd_waits, e.gave_back);
}

void engine_start(engine_emit *emit, engine_flush *flush, void *arg)
{
    struct rlimit rl;

    e.emit = emit;
    e.flush = flush;
    e.arg = arg;
    /* Made now rather than static: under a tight ulimit -v, the space is
     * better left to the catalogues loaded at start. */
    if (!e.ring) {
        if (getenv("MD5SUM_ENGINE_STATS"))
            atexit(print_stats);
        for (e.cap = JOBS; e.cap > 0 && !(e.ring = malloc(e.cap * sizeof *e.ring)); e.cap /= 16)
            continue;
        if (!e.ring)
            xalloc_die();
    }
    if (e.fd_limit == 0)
        e.fd_limit = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ?
                         (long)rl.rlim_cur : -1;
    lowmem_on_short(give_memory_back);
}

/* Queue a job; NAME NULL makes a mark, done already. */
static void submit(const char *name, const void *tag, size_t tag_len)
{
    char *copy = NULL;
    struct job *j;
    size_t len;

    /* A job with a long name (one that cannot be opened: PATH_MAX), or any
     * job once plain, is over before submit returns: its name is not copied,
     * so a list's long line is held no more than GNU holds it.  With no
     * memory for a copy, the lanes' is given back, and then it is plain. */
    if (name && e.mode != MODE_PLAIN && (len = strlen(name) + 1) <= BORROW_MAX) {
        copy = malloc_or_less(len);
        if (copy)
            memcpy(copy, name, len);
        else if (e.mode != MODE_PLAIN)
            xalloc_die();
    }
    pump(UNTIL_ROOM);
    j = job(e.tail++);
    memset(j, 0, sizeof *j);
    j->name = copy ? copy : name;
    j->copy = copy;
    j->fd = -1;
    j->size = -1;
    if (tag_len > 0)
        memcpy(j->tag, tag, tag_len < TAG_MAX ? tag_len : TAG_MAX);
    if (!name) {
        done(j, RESULT_OK, 0);
        return;
    }
    /* A second input: the lanes are worth it.  A lone one waits: its size,
     * once it is opened, tells. */
    if (e.mode == MODE_UNDECIDED && ++e.inputs_pending > 1)
        lanes_or_plain();
    if (e.mode == MODE_PLAIN || !copy)
        pump(UNTIL_EMPTY);
    while (e.mode == MODE_LANES && e.opened < e.tail && open_job(job(e.opened)))
        e.opened++;
}

void engine_submit(const char *name, const void *tag, size_t tag_len)
{
    submit(name, tag, tag_len);
    e.inputs_known++;
}

void engine_mark(const void *tag, size_t tag_len)
{
    submit(NULL, tag, tag_len);
}

void engine_wait(void)
{
    pump(UNTIL_EMPTY);
    /* pump flushes only before waits of its own; the caller's wait is one
     * too, and the results just emitted must be seen before it. */
    e.flush(e.arg);
}

void engine_finish(void)
{
    pump(UNTIL_EMPTY);
    e.flush(e.arg);
}
