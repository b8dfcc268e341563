/* The engine: see engine.h for the contract.
 *
 * The submitting thread queues jobs (queue.h) and emits their results in
 * order as they are done.  The workers (worker.h, started by pool.h) run on
 * threads of their own, or, with one job at a time, a single worker runs in
 * the submitting thread, a step at a time, whenever the submitter would
 * otherwise wait.  Inputs that are not regular files are read by the
 * submitter itself, once every result before them is out, and so is a
 * lone small file before any worker starts.  When memory is short there are
 * fewer workers, smaller arenas, no threads, and at the last the submitter
 * alone hashes each input through one buffer, as GNU md5sum does.
 *
 * For progress reports, workers note an input's bytes hashed at each of its
 * chunk's ends and at its completion, under the queue's lock those take
 * anyway, and, once a tick is set, its size when they claim it (one lock
 * more for each batch claimed); the submitter ticks between its waits and
 * steps.
 */
#include "engine.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "input.h"
#include "pool.h"
#include "queue.h"
#include "threads.h"
#include "verify.h"
#include "xalloc.h"

#define WAIT_NS ENGINE_TICK_NS   /* the submitter looks up, and ticks, this often */
/* Jobs the submitter lets pile up when it is also the worker: a worker's
 * worth, so the lanes fill, and results are not held back much longer. */
#define INLINE_AHEAD WORKER_MAX_TASKS

VERIFY(tag_fits, sizeof(uintmax_t) <= QUEUE_TAG_MAX);
VERIFY(inline_fits_queue, INLINE_AHEAD < QUEUE_CAP);

static struct queue q;
static engine_emit *emit_fn;
static engine_flush *flush_fn;
static void *emit_arg;
static unsigned jobs_wanted;
static unsigned jobs_now;              /* workers wanted in this sequence */
static int workers_started;            /* or tried: see start_workers */
static engine_tick *tick_fn;
static void *tick_arg;
static struct timespec next_tick;
static uintmax_t inputs_done, inputs_known;   /* the submitter's own */

void engine_set_jobs(unsigned n)
{
    jobs_wanted = n;
}

void engine_set_tick(engine_tick *tick, void *arg)
{
    tick_fn = tick;
    tick_arg = arg;
}

/* T, NS nanoseconds later. */
static void add_ns(struct timespec *t, long ns)
{
    t->tv_nsec += ns;
    while (t->tv_nsec >= 1000000000L) {
        t->tv_sec++;
        t->tv_nsec -= 1000000000L;
    }
}

/* The caller's tick, if ENGINE_TICK_NS have passed since the last one. */
static void tick(void)
{
    struct timespec now;

    if (!tick_fn)
        return;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec < next_tick.tv_sec ||
        (now.tv_sec == next_tick.tv_sec && now.tv_nsec < next_tick.tv_nsec))
        return;
    next_tick = now;
    add_ns(&next_tick, ENGINE_TICK_NS);
    tick_fn(tick_arg);
}

void engine_get_progress(struct engine_progress *p)
{
    p->name = NULL;
    p->done = 0;
    p->size = -1;
    queue_lock(&q);
    if (q.head < q.tail) {
        const struct job *j = queue_job(&q, q.head);

        p->name = j->name;
        p->done = j->hashed;
        p->size = j->size;
    }
    p->bytes_done = q.bytes_done;
    p->bytes_known = q.bytes_known;
    queue_unlock(&q);
    p->inputs_done = inputs_done;
    p->inputs_known = inputs_known;
}

/* The workers for this sequence (pool.h). */
static void start_workers(void)
{
    workers_started = 1;
    pool_start(&q, jobs_now);
}

void engine_start(engine_emit *emit, engine_flush *flush, void *arg)
{
    static int initialised;
    unsigned n = jobs_wanted ? jobs_wanted : cpus_available();

    if (!initialised) {
        if (queue_init(&q) != 0)
            xalloc_die();
        initialised = 1;
    }
    emit_fn = emit;
    flush_fn = flush;
    emit_arg = arg;
    q.head = q.claimed = q.tail = 0;
    q.n_deferred = q.deferred_held = 0;
    q.closing = q.submitter_waiting = 0;
    q.idle = NULL;
    q.sizes = tick_fn != NULL;
    if (n > ENGINE_MAX_JOBS)
        n = ENGINE_MAX_JOBS;
    queue_set_deferred_cap(&q, pool_tasks_each(n));
    q.streams = 0;
    jobs_now = n;
    /* Workers wait for a second job, or a large one (see hash_lone). */
    workers_started = 0;
}

/* Emit jobs [FROM, TO), all done, and free their slots' names. */
static void emit_done(size_t from, size_t to)
{
    for (; from < to; from++) {
        struct job *j = queue_job(&q, from);
        struct result r;

        r.name = j->name;
        r.status = j->status;
        r.err = j->err;
        memcpy(r.digest, j->digest, MD5_DIGEST_SIZE);
        r.tag = j->tag;
        emit_fn(&r, emit_arg);
        if (j->name)
            inputs_done++;
        free(j->name);
        j->name = NULL;
    }
}

/* Job *ARG, read by the submitter, has ABSORBED bytes hashed: say so, and
 * tick between reads. */
static void hashed_here(uint64_t absorbed, void *arg)
{
    queue_lock(&q);
    queue_hashed_locked(&q, *(const size_t *)arg, absorbed);
    queue_unlock(&q);
    tick();
}

/* Job I, read by the submitter from FD: when that is a regular file
 * (standard input redirected from one), its size from where the reading
 * starts, for progress reports. */
static void size_here(size_t i, int fd)
{
    struct stat st;
    off_t at = lseek(fd, 0, SEEK_CUR);

    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    queue_lock(&q);
    queue_sized_locked(&q, i, at >= 0 && at < st.st_size ? st.st_size - at : 0);
    queue_unlock(&q);
}

/* Hash job I, claimed by the submitter (not a regular file, or any job when
 * there is no worker), on FD: open failed when FD < 0 (errno set). */
static void hash_here(size_t i, int fd)
{
    struct md5_ctx ctx;
    unsigned char digest[MD5_DIGEST_SIZE];
    enum result_status status = RESULT_OK;
    int err = errno;
    size_t size;
    unsigned char *buf = input_buffer(&size);
    uintmax_t hashed = 0;

    if (fd < 0) {
        status = RESULT_OPEN_FAILED;
    } else {
        if (!buf)
            xalloc_die();
        md5_init(&ctx);
        if (tick_fn && queue_job(&q, i)->size < 0)
            size_here(i, fd);
        if (hash_rest(fd, &ctx, buf, size, tick_fn ? hashed_here : NULL, &i) != 0) {
            status = RESULT_READ_FAILED;
            err = errno;
        }
        hashed = ctx.length;
        if (status == RESULT_OK)
            md5_final(&ctx, digest);
        /* As GNU: a failing close is a read error too. */
        if (input_close(fd) != 0 && status == RESULT_OK) {
            status = RESULT_READ_FAILED;
            err = errno;
        }
    }
    queue_lock(&q);
    queue_complete_locked(&q, i, status, err, status == RESULT_OK ? digest : NULL, hashed);
    queue_unlock(&q);
}

/* Job I, at the head, is not a regular file: every result before it is
 * out.  Open it, and read it here. */
static void hash_special(size_t i)
{
    hash_here(i, input_open(queue_job(&q, i)->name));
}

/* queue_fits: the submitter hashes any input. */
static int fits_any(const struct claim *c, void *arg)
{
    (void)c;
    (void)arg;
    return 1;
}

/* queue_fits: a file hashed here while it is the only job, as GNU would;
 * a larger one is worth the threads (reading on one CPU, hashing on
 * another), which take about 1.5 ms to start. */
#define LONE_MAX ((off_t)16 << 20)
static int fits_lone(const struct claim *c, void *arg)
{
    (void)arg;
    return c->size <= LONE_MAX;
}

/* One job, and no workers yet: a regular file up to LONE_MAX is hashed
 * here; a larger one, deferred by the claim, starts the workers. */
static void hash_lone(void)
{
    struct claim c;
    int deferred;

    if (queue_claim(&q, &c, 1, fits_lone, NULL)) {
        hash_here(c.index, c.fd);
        return;
    }
    queue_lock(&q);
    deferred = queue_deferred_locked(&q);
    queue_unlock(&q);
    if (deferred)
        start_workers();
}

/* No worker at all: hash the next job here, a deferred one first (a
 * large file hash_lone left for workers that could not start). */
static void hash_alone(void)
{
    struct claim c;

    if (queue_take_deferred(&q, &c, 1, fits_any, NULL) ||
        queue_claim(&q, &c, 1, fits_any, NULL))
        hash_here(c.index, c.fd);
}

enum until { UNTIL_ROOM, UNTIL_EMPTY };

/* Emit what is done, in order, until U holds: room for a new job, or every
 * job emitted.  Meanwhile read the inputs that are not regular files, and,
 * without worker threads, do the work; before any wait, let the caller
 * flush what it emitted. */
static void pump(enum until u)
{
    size_t room = pool_threads() == 0 ? INLINE_AHEAD : q.cap;

    if (room > q.cap)
        room = q.cap;

    queue_lock(&q);
    for (;;) {
        size_t head = q.head, done = head;
        enum job_state state;

        while (done < q.tail && queue_job(&q, done)->state == JOB_DONE)
            done++;
        if (done > head) {
            queue_unlock(&q);
            emit_done(head, done);
            queue_lock(&q);
            q.head = done;
            continue;
        }
        if (u == UNTIL_ROOM ? q.tail - q.head < room : q.head == q.tail)
            break;
        state = queue_job(&q, head)->state;
        queue_unlock(&q);
        flush_fn(emit_arg);
        tick();
        if (state == JOB_SPECIAL)
            hash_special(head);
        else if (!workers_started)
            hash_lone();
        else if (pool_inline())
            worker_step(pool_inline());
        else if (pool_threads() == 0)
            hash_alone();
        queue_lock(&q);
        state = queue_job(&q, head)->state;
        if (pool_threads() > 0 && state != JOB_DONE && state != JOB_SPECIAL) {
            /* Not for ever: the caller's flush also notices a reader gone. */
            struct timespec until;

            clock_gettime(CLOCK_REALTIME, &until);
            add_ns(&until, WAIT_NS);
            q.submitter_waiting = 1;
            pthread_cond_timedwait(&q.head_cv, &q.lock, &until);
            q.submitter_waiting = 0;
        }
    }
    queue_unlock(&q);
}

/* Queue a job; NAME NULL makes a mark, done already. */
static void submit(const char *name, const void *tag, size_t tag_len)
{
    char *copy = NULL;
    struct job *j;
    int start = 0;

    pump(UNTIL_ROOM);
    if (name) {
        size_t len = strlen(name) + 1;

        /* Short of memory: first let every pending name go. */
        copy = malloc(len);
        if (!copy) {
            pump(UNTIL_EMPTY);
            copy = xmalloc(len);
        }
        memcpy(copy, name, len);
    }
    queue_lock(&q);
    j = queue_job(&q, q.tail);
    j->name = copy;
    memset(j->tag, 0, QUEUE_TAG_MAX);
    if (tag_len > 0)
        memcpy(j->tag, tag, tag_len < QUEUE_TAG_MAX ? tag_len : QUEUE_TAG_MAX);
    j->state = name ? JOB_QUEUED : JOB_DONE;
    j->size = -1;
    j->hashed = 0;
    q.tail++;
    queue_wake_idle_locked(&q);
    /* A second job to hash: time for the workers. */
    if (!workers_started && q.tail - q.head > 1)
        start = 1;
    queue_unlock(&q);
    if (start)
        start_workers();
}

void engine_submit(const char *name, const void *tag, size_t tag_len)
{
    submit(name, tag, tag_len);
    inputs_known++;
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
    flush_fn(emit_arg);
}

void engine_finish(void)
{
    pump(UNTIL_EMPTY);
    queue_lock(&q);
    q.closing = 1;
    queue_wake_idle_locked(&q);
    queue_unlock(&q);
    pool_stop();
    flush_fn(emit_arg);
}
