/* The engine (engine.h): the jobs in order, opened here (or, past a
 * sequence's first few while warm, by the hashers: one thread opening every
 * small file was the bottleneck), read here where they must be read in
 * order (flow.h), hashed by the hashers (hasher.h), emitted here in order.
 * What must be read in order anyway, a lone file up to LONE_MAX and the
 * rest of a run once memory is short (lowmem.h) are hashed plainly, one at
 * a time through one buffer, as GNU md5sum does (a long stream's reads made
 * beside the hashing: stream.h).
 */
#include "engine.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "compress/mb.h"
#include "fdview.h"
#include "flow.h"
#include "hasher.h"
#include "input.h"
#include "lanes.h"
#include "lowmem.h"
#include "source.h"
#include "stream.h"
#include "threads.h"
#include "xalloc.h"

#define TAG_MAX 32                   /* bytes of the caller's tag kept */
#define LONE_MAX ((off_t)16 << 20)   /* a lone file up to this is hashed plainly
                                      * (threads take about 1.5 ms to start); a
                                      * larger one the reader reads ahead for a
                                      * hasher, the copy off the hashing CPU */
#define POOL_MAX (((size_t)64 << 20) / CHUNK)   /* buffers, at most */
#define AHEAD 192                    /* buffers for the reader beyond the lanes' (24 MiB) */
#define AHEAD_MIN 16                 /* ... halved with the lanes where memory is short,
                                      * down to this (2 MiB): under a container's 32 MiB
                                      * the lanes then fit, 24 a hasher */
#define HEADROOM ((size_t)16 << 20)  /* address space left to the rest of md5sum */
#define SLACK ((size_t)8 << 20)      /* memory (a cgroup's limit) left to the rest:
                                      * its resident size is 2-4 MiB */
#define SPARE_FDS 2                  /* descriptors left to the rest (catalogues) */
#define PLAIN_BUF ((size_t)32 << 10)    /* as GNU; 256 KiB cost a call 64 page faults */
#define BORROW_MAX 4096              /* longer names are not copied (PATH_MAX) */
#define TAKE_BACK_MAX ((off_t)64 << 10)   /* an input hashed here rather than
                                           * wake a hasher for it (pump) */
#define BY_NAME_AFTER 64             /* inputs of a sequence the caller opens
                                      * before hashers open the rest */
#define TELL_AHEAD 64                /* inputs after the one the reader starts
                                      * that storage without seeks is asked
                                      * for at once (16: 20,000 files of 4 KiB
                                      * from a cold cache 1.8x the time; 128:
                                      * 1.2x), ... */
#define TELL_MAX ((off_t)1 << 20)    /* ... if no larger: a larger one is a
                                      * stream the kernel reads ahead (up to
                                      * 16 MiB: the media folder no faster) */
#define EARLY_MIN ((off_t)1 << 20)   /* while the inputs so far average this
                                      * size, every one is opened here (few,
                                      * and large: each open costs little
                                      * beside its hashing), its size known as
                                      * it is added; a cached one this large
                                      * may be taken early (flow_add) */

enum job_state { JOB_NEW, JOB_INPUT, JOB_IN_ORDER, JOB_DONE };
enum mode { MODE_UNDECIDED, MODE_LANES, MODE_PLAIN };

struct job {
    const char *name;                /* NULL: a mark */
    char *copy;                      /* the name, when it is ours to free */
    unsigned char tag[TAG_MAX];
    enum job_state state;
    int fd;                          /* once opened */
    off_t size;                      /* once opened; -1: not a regular file */
    size_t input;                    /* JOB_INPUT: the flow's index */
    struct result r;                 /* JOB_DONE */
};

static struct {
    struct job *ring;                /* cap of them, made at the first start */
    size_t cap, head, opened, tail;  /* emitted < head <= opened <= tail */
    engine_emit *emit;
    engine_flush *flush;
    void *arg;
    enum mode mode;
    unsigned jobs_wanted, inputs_pending;   /* the latter while undecided */
    struct hasher *hashers[ENGINE_MAX_JOBS], *inline_hasher;   /* -j1 */
    struct thread threads[ENGINE_MAX_JOBS];
    unsigned n_threads, fds;         /* inputs open and not yet emitted */
    long fd_limit;                   /* RLIMIT_NOFILE once lanes start; -1: none */
    int by_name;                     /* hashers may open inputs (lanes_start) */
    uintmax_t in_sequence;           /* inputs submitted since engine_start */
    engine_tick *tick;
    void *tick_arg;
    struct timespec next_tick;
    uintmax_t inputs_done, inputs_known, bytes_known, bytes_here, head_here;
    unsigned long started, plain, fd_waits, gave_back, taken_back, told;   /* engine stats */
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

/* The caller's tick, if ENGINE_TICK_NS have passed since the last one. */
static void tick(void)
{
    struct timespec now;

    if (!e.tick || clock_gettime(CLOCK_MONOTONIC, &now) != 0 ||
        (now.tv_sec == e.next_tick.tv_sec ? now.tv_nsec < e.next_tick.tv_nsec
                                          : now.tv_sec < e.next_tick.tv_sec))
        return;
    e.next_tick.tv_sec = now.tv_sec + (now.tv_nsec + ENGINE_TICK_NS) / 1000000000L;
    e.next_tick.tv_nsec = (now.tv_nsec + ENGINE_TICK_NS) % 1000000000L;
    e.tick(e.tick_arg);
}

void engine_get_progress(struct engine_progress *p)
{
    const struct job *j = e.head < e.tail ? job(e.head) : NULL;
    int in_flow = j && j->state == JOB_INPUT;
    uintmax_t all, mine = flow_hashed(in_flow ? j->input : (size_t)-1, &all, NULL);

    p->name = j ? j->name : NULL;
    p->size = j && j->state != JOB_NEW ? j->size : -1;
    p->done = in_flow ? mine : e.head_here;
    p->inputs_done = e.inputs_done;
    p->inputs_known = e.inputs_known;
    p->bytes_done = all + e.bytes_here;
    p->bytes_known = e.bytes_known;
}

/* Hash with lanes from now on: as many as the widest kernel has on each
 * hasher, fewer if memory is short (address space, or what a cgroup's
 * limit leaves), the reader's buffers fewer with them; or plainly, if not
 * even one lane's memory can be had.  The hashers: one in this thread with
 * -j1; otherwise threads, as -j asks but no more than CPUs (more would
 * only split the lanes).  OPEN: the descriptor of the input open now, or
 * -1. */
static void lanes_start(int open)
{
    struct cgroup_limits lim;
    unsigned cpus, n, each, threads, i, lanes = md5_mb_kernels()[0]->lanes, ahead = AHEAD;
    struct rlimit rl;

    /* A quota matters only where the mask shows more CPUs than it leaves,
     * and -j1 asks for one. */
    cpus = cpus_available();
    cgroup_limits("", cpus > QUOTA_MIN && e.jobs_wanted != 1, &lim);
    cpus = cpus_within_quota(cpus, lim.cpus);
    n = e.jobs_wanted ? e.jobs_wanted : cpus;
    each = n > cpus ? cpus : n;
    threads = n == 1 ? 0 : each;

    /* Descriptors matter from now on: more than one input is held. */
    fdview_record(open);
    e.fd_limit = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ?
                     (long)rl.rlim_cur : -1;

    /* Many CPUs: as many lanes each as the buffers allow (halving 48 on 7
     * CPUs would leave 24, where 45 fit). */
    if (lanes * each + AHEAD > POOL_MAX)
        lanes = each < POOL_MAX - AHEAD ? (unsigned)((POOL_MAX - AHEAD) / each) : 1;
    while (lanes > 0 && flow_init((size_t)lanes * each + ahead, (size_t)lanes * each, HEADROOM,
                                  lim.memory > SLACK ? lim.memory - SLACK : 0)) {
        lanes /= 2;
        ahead = ahead / 2 > AHEAD_MIN ? ahead / 2 : AHEAD_MIN;
    }
    e.mode = lanes > 0 ? MODE_LANES : MODE_PLAIN;
    for (i = 0; lanes > 0 && i < threads && (e.hashers[i] = hasher_new(lanes, e.tick != NULL)); i++) {
        if (thread_start(&e.threads[i], hasher_main, e.hashers[i]) != 0) {
            hasher_free(e.hashers[i]);
            break;
        }
        e.n_threads++;
        e.started++;
    }
    /* Few large inputs fed to one hasher: as many as its lanes hash side
     * by side, each kept AHEAD_WARM chunks ahead by the reader's buffers. */
    if (e.n_threads > 0) {
        flow_pre_read();
        flow_feed(lanes_side_by_side(lanes < ahead / AHEAD_WARM ? lanes : ahead / AHEAD_WARM));
    }
    if (lanes > 0 && e.n_threads == 0 && !(e.inline_hasher = hasher_new(lanes, e.tick != NULL))) {
        flow_end();
        e.mode = MODE_PLAIN;
    }
    /* Hashers open inputs by name when they are threads of their own, when
     * progress does not want each size as soon as it can be had, when the
     * kernel keeps names off our descriptors by itself (fdview.h), and when
     * descriptors are plenty: beyond those the user left open, twice those
     * the inputs in the flow and in every lane may hold. */
    e.by_name = e.n_threads > 0 && !e.tick && fdview_quick() &&
                (e.fd_limit < 0 || e.fd_limit - (long)fdview_held() >
                                       2 * (long)(FLOW_INPUTS + (size_t)e.n_threads * lanes));
}

/* J's input, in the flow: done, or (handed back, or ALL: the flow is
 * ending) the caller's to hash in order with its descriptor, or to open
 * (JOB_NEW, at its turn).  Returns 0 if it is still the flow's. */
static int from_flow(struct job *j, int all)
{
    int fd, mine = j->fd >= 0;
    off_t size;
    int got = flow_result(j->input, &j->r, &fd, &size);

    if (got == 1) {
        j->state = JOB_DONE;
        return 1;
    }
    if (got == 0 && !all)
        return 0;
    j->fd = fd;
    j->size = size;
    j->state = fd >= 0 ? JOB_IN_ORDER : JOB_NEW;
    if (!mine && fd >= 0) {
        e.fds++;
        e.bytes_known += size > 0 ? (uintmax_t)size : 0;
    }
    return 1;
}

/* Memory elsewhere is short: stop the hashers, give the lanes' memory back,
 * and hash what they had (read again from its start, its descriptor kept)
 * and the rest of the run plainly.  Returns 1 if memory was freed. */
static int give_memory_back(void)
{
    size_t i;

    if (e.mode != MODE_LANES)
        return 0;
    flow_stop();
    for (; e.n_threads > 0; e.n_threads--) {
        thread_join(&e.threads[e.n_threads - 1]);
        hasher_free(e.hashers[e.n_threads - 1]);
    }
    if (e.inline_hasher)
        hasher_free(e.inline_hasher);
    e.inline_hasher = NULL;
    for (i = e.head; i < e.opened; i++)
        if (job(i)->state == JOB_INPUT)
            from_flow(job(i), 1);
    flow_end();
    e.mode = MODE_PLAIN;
    e.gave_back++;
    return 1;
}

/* Do the inputs opened so far average EARLY_MIN bytes or more? */
static int large_inputs(void)
{
    return e.inputs_known > 0 && e.bytes_known / e.inputs_known >= (uintmax_t)EARLY_MIN;
}

/* Open job I, or leave it to a later try (0): the flow is full, or a
 * descriptor is short while inputs of ours are open (one will be freed).
 * Past the first inputs of a sequence, hashers may open it instead.  What
 * is not a regular file is opened only at its turn (source_open).
 * AT_HEAD: I is the oldest, handed back; it is hashed here, in order. */
static int open_job(size_t i, int at_head)
{
    struct job *j = job(i);
    int fd, in_order, err;
    off_t size;

    if (j->state == JOB_DONE)   /* a mark */
        return 1;
    if (at_head ? 0 : e.mode == MODE_LANES && !flow_room())
        return 0;
    if (!at_head && e.by_name && j->copy && e.in_sequence > BY_NAME_AFTER &&
        !large_inputs() && flow_add(-1, -1, j->copy, 0, &j->input)) {
        j->state = JOB_INPUT;
        return 1;
    }
    fd = source_open(j->name, i != e.head, &size, &in_order);
    err = errno;
    if (fd == -2)   /* JOB_NEW, opened at its turn (step) */
        return 1;
    /* The last few descriptors are left to the rest of md5sum. */
    if ((fd < 0 ? err == EMFILE || err == ENFILE : e.fd_limit > 0 && fd >= e.fd_limit - SPARE_FDS) &&
        ((!at_head && e.fds > 0) || (e.mode == MODE_LANES && flow_hasher_fds() > 0))) {
        if (fd >= 0)
            close(fd);
        e.fd_waits++;
        return 0;
    }
    errno = err;
    j->state = JOB_DONE;
    j->r.status = RESULT_OPEN_FAILED;
    j->r.err = errno;
    if (fd < 0)
        return 1;
    e.fds++;
    j->fd = fd;
    j->size = size;
    e.bytes_known += size > 0 ? (uintmax_t)size : 0;
    j->state = JOB_IN_ORDER;
    /* A lone file is worth threads only if large (flow.h: the reader reads
     * it ahead, and its hasher only hashes). */
    if (e.mode == MODE_UNDECIDED && !in_order && size > LONE_MAX && e.jobs_wanted != 1)
        lanes_start(fd);
    if (e.mode == MODE_LANES && !in_order && !at_head) {
        j->state = JOB_INPUT;
        (void)flow_add(fd, size, NULL,
                       size >= EARLY_MIN && large_inputs() && source_cached(fd, 0, size) == 1,
                       &j->input);
    }
    return 1;
}

/* stream_hash: ABSORBED bytes of the head are hashed; tick between reads. */
static void hashed_here(uint64_t absorbed, void *arg)
{
    (void)arg;
    e.bytes_here += absorbed - e.head_here;
    e.head_here = absorbed;
    tick();
}

/* The job at the head, to be read in order: hash it here, plainly, as GNU
 * would, through a buffer to the input's measure (a fresh page costs a
 * fault), made for it and freed after: nothing is held between jobs.  The
 * small one is static, not on the stack: this thread alone hashes plainly,
 * and under a tight `ulimit -s` its 4 KiB mattered (16 KiB: a crash in a
 * third of the runs of `md5sum FILE`, where GNU's ran). */
static void hash_plain(struct job *j)
{
    static unsigned char small[4096];
    unsigned char *buf;
    size_t cap = j->size >= 0 && j->size < (off_t)PLAIN_BUF ? (size_t)j->size + 1 : PLAIN_BUF;
    struct md5_ctx ctx;
    struct stat st;
    off_t at;

    if (cap <= sizeof small || !(buf = malloc(cap))) {
        buf = small;
        cap = sizeof small;
    }
    md5_init(&ctx);
    e.plain++;
    /* Standard input from a file: its size from where reading starts. */
    if (j->fd == STDIN_FILENO && e.tick && fstat(j->fd, &st) == 0 && S_ISREG(st.st_mode) &&
        (at = lseek(j->fd, 0, SEEK_CUR)) >= 0)
        e.bytes_known += (uintmax_t)(j->size = at < st.st_size ? st.st_size - at : 0);
    j->r.status = RESULT_OK;
    if (source_wait_ready(j->fd) != 0 ||
        stream_hash(j->fd, &ctx, buf, cap, e.jobs_wanted != 1, hashed_here, NULL) != 0)
        j->r.status = RESULT_READ_FAILED;
    j->r.err = errno;
    /* As GNU: a failing close is a read error too. */
    if (input_close(j->fd) != 0 && j->r.status == RESULT_OK) {
        j->r.status = RESULT_READ_FAILED;
        j->r.err = errno;
    }
    md5_final(&ctx, j->r.digest);
    j->r.hashed = ctx.length;
    j->state = JOB_DONE;
    if (buf != small)
        free(buf);
}

/* Emit what is done at the head, in order. */
static void emit_done(void)
{
    struct job *j;

    while (e.head < e.tail && ((j = job(e.head))->state == JOB_DONE ||
                               (j->state == JOB_INPUT && from_flow(j, 0) && j->state == JOB_DONE))) {
        if (j->fd >= 0) {
            e.fds--;
            e.bytes_known += j->r.hashed - (j->size > 0 ? (uintmax_t)j->size : 0);
        }
        e.head++;
        e.opened = e.opened < e.head ? e.head : e.opened;
        e.head_here = 0;
        e.inputs_pending -= j->name && e.inputs_pending > 0;
        e.inputs_done += j->name != NULL;
        j->r.name = j->name;
        j->r.tag = j->tag;
        e.emit(&j->r, e.arg);
        free(j->copy);
    }
}

/* The reader starts input IN (FD), which is not all in memory.  Storage
 * without seeks serves many requests at once, in any order: the small
 * inputs after it are asked for now, so that each is in memory by its
 * turn (20,000 files of 4 KiB from a cold cache in 0.19 of the time, 2,000
 * of 256 KiB in 0.63, docs/PERFORMANCE.md).  A disk, or storage that
 * cannot say what it is, is asked for nothing out of order: on a spinning
 * disk such requests cost the mixed set 3.95x GNU's seeks. */
static void tell_ahead(size_t in, int fd)
{
    static struct source_storage storage;
    size_t ins[TELL_AHEAD];
    int fds[TELL_AHEAD];
    unsigned i, n;

    if (!source_seek_free(fd, &storage))
        return;
    n = flow_ahead(in, ins, fds, TELL_AHEAD, TELL_MAX);
    for (i = 0; i < n; i++) {
        if (source_seek_free(fds[i], &storage) &&
            posix_fadvise(fds[i], 0, 0, POSIX_FADV_WILLNEED) == 0)
            e.told++;
        flow_unpin(ins[i]);
    }
}

/* One read for the reader, in order: into a buffer for a hasher, or (a
 * pre-read, flow.h) into a scratch buffer, for the page cache.  At the start
 * of an input: while the run is cold, is it in memory again?  And as GNU and
 * cat ask, a larger read-ahead.  Nothing more is asked of a disk: asking for
 * the next input's start as one ends (WILLNEED) made no seek fewer and cost
 * the media folder 8% from a cold cache here, and asking for the next 256
 * MiB (pre-reading without reading) made requests complete out of order
 * (docs/PERFORMANCE.md); storage without seeks is asked for the small
 * inputs ahead (tell_ahead). */
static int read_step(void)
{
    static unsigned char scratch[CHUNK + MD5_BLOCK_SIZE];   /* pre-reads */
    struct flow_read r;
    int cached = -1;
    enum source_got how;

    if (!flow_reader_next(&r))
        return 0;
    if (r.first) {
        cached = source_cached(r.fd, r.off, r.size) == 1;
        posix_fadvise(r.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
        if (!cached)
            tell_ahead(r.in, r.fd);
    }
    /* A pre-read of what the page cache holds would only copy it: a set
     * mostly in memory, a few pages of it evicted, is read from the
     * storage where those are, and hashed on every CPU. */
    if (!r.c && r.may_skip &&
        (cached == 1 || source_cached(r.fd, r.off, chunk_end(r.off, r.size)) == 1)) {
        r.len = (size_t)((cached == 1 ? r.size : chunk_end(r.off, r.size)) - r.off);
        r.final = r.off + (off_t)r.len >= r.size;
        r.in_memory = 1;
        flow_reader_put(&r, 0, 0, cached);
        return 1;
    }
    e.flush(e.arg);
    how = source_read(r.fd, r.c ? r.c->data : scratch, CHUNK, r.off, r.size, NULL, &r.len);
    r.final = how == SOURCE_END;
    flow_reader_put(&r, how == SOURCE_FAILED, errno, cached);
    return 1;
}

/* One thing the caller's thread can do now, in this order: hash the head
 * plainly, open the next input (plainly, only at its turn, as GNU), read a
 * chunk for the reader, run the lanes here.  Returns 0 if nothing. */
static int step(void)
{
    if (e.head < e.tail && job(e.head)->state == JOB_IN_ORDER) {
        e.flush(e.arg);
        hash_plain(job(e.head));
        return 1;
    }
    /* Left for its turn, or handed back by its hasher unopened: opened
     * here, now. */
    if (e.head < e.opened && job(e.head)->state == JOB_NEW)
        return open_job(e.head, 1);
    if (e.opened < e.tail && (e.mode != MODE_PLAIN || e.opened == e.head) &&
        open_job(e.opened, 0)) {
        e.opened++;
        return 1;
    }
    if (e.mode != MODE_LANES || read_step())
        return e.mode == MODE_LANES;
    if (!e.inline_hasher)
        return 0;
    /* A lane step takes a while: what is emitted goes out first, as GNU's
     * line-buffered lines do, each as it is made. */
    e.flush(e.arg);
    return hasher_step(e.inline_hasher) > 0;
}

/* Waiting for the last results, the head a small input no hasher has
 * taken: hashing it here costs less than waking one (-c over thousands of
 * short lists, each waited for).  Returns 1 if it is the caller's now. */
static int take_back_head(void)
{
    struct job *j = job(e.head);

    if (j->state != JOB_INPUT || j->size < 0 || j->size > TAKE_BACK_MAX ||
        !flow_take_back(j->input))
        return 0;
    j->state = JOB_IN_ORDER;
    e.taken_back++;
    return 1;
}

/* Emit what is done, in order, until every job is (ALL) or until there is
 * room for one more.  Meanwhile work; before any wait, let the caller
 * flush. */
static void pump(int all)
{
    for (;;) {
        emit_done();
        tick();
        if (all ? e.head == e.tail : e.tail - e.head < e.cap)
            return;
        if (!step() && !(all && take_back_head())) {
            e.flush(e.arg);
            flow_wait(e.tick ? &e.next_tick : NULL);
        }
    }
}

/* What each mechanism did, at exit: for the tests that check each works
 * (tests/cli/mechanisms.bats). */
static void print_stats(void)
{
    struct flow_stats f;
    uintmax_t all;

    flow_hashed((size_t)-1, &all, &f);
    fprintf(stderr,
            "md5sum engine: threads %lu, inline %d, plain %lu, reader %ju, pre-read %ju, hashers %ju, later %lu, "
            "cold %lu, warm %lu, fd waits %lu, gave back %lu, taken back %lu, opened by hashers "
            "%lu, handed back %lu, taken early %lu, lane blocks %ju of %ju, held back %ju, streams read ahead %lu, fed %lu, "
            "told %lu, wakes %lu\n",
            e.started, e.inline_hasher != NULL, e.plain, f.reader_bytes, f.pre_read_bytes, f.hasher_bytes, f.later,
            f.cold, f.warm, e.fd_waits, e.gave_back, e.taken_back, f.opened, f.handed, f.early,
            (uintmax_t)f.lane_hashed, (uintmax_t)f.lane_offered,
            (uintmax_t)f.lane_held_back, stream_threads(), f.fed, e.told, f.wakes);
}

void engine_start(engine_emit *emit, engine_flush *flush, void *arg)
{
    e.emit = emit;
    e.flush = flush;
    e.arg = arg;
    e.in_sequence = 0;
    if (e.ring)
        return;
    source_init();
    /* Made now, not static: under a tight ulimit -v, the space is left to
     * the catalogues loaded at start. */
    for (e.cap = FLOW_INPUTS; e.cap > 0 && !(e.ring = malloc(e.cap * sizeof *e.ring)); e.cap /= 16)
        continue;
    if (!e.ring)
        xalloc_die();
    lowmem_on_short(give_memory_back);
    if (getenv("MD5SUM_ENGINE_STATS"))
        atexit(print_stats);
}

/* Queue a job; NAME NULL makes a mark, done already. */
static void submit(const char *name, const void *tag, size_t tag_len)
{
    size_t len = name ? strlen(name) + 1 : 0;
    char *copy = NULL;
    struct job *j;

    /* A job with a long name (one that cannot be opened), or any job once
     * plain, is over before submit returns: its name is not copied, and a
     * list's long line is held no more than GNU holds it.  With no memory
     * for a copy, the lanes' is given back, and then it is plain. */
    if (name && e.mode != MODE_PLAIN && len <= BORROW_MAX &&
        (copy = malloc_or_less(len)) == NULL && e.mode != MODE_PLAIN)
        xalloc_die();
    if (copy)
        memcpy(copy, name, len);
    pump(0);
    j = job(e.tail++);
    memset(j, 0, sizeof *j);
    j->name = copy ? copy : name;
    j->copy = copy;
    j->fd = -1;
    j->size = -1;
    if (tag_len > 0)
        memcpy(j->tag, tag, tag_len < TAG_MAX ? tag_len : TAG_MAX);
    if (!name) {
        j->state = JOB_DONE;
        return;
    }
    e.in_sequence++;
    /* A second input: the lanes are worth it.  A lone one waits: its size,
     * once it is opened, tells. */
    if (e.mode == MODE_UNDECIDED && ++e.inputs_pending > 1)
        lanes_start(-1);
    if (e.mode == MODE_PLAIN || !copy)
        pump(1);
    while (e.mode == MODE_LANES && e.opened < e.tail && open_job(e.opened, 0))
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
    pump(1);
    /* pump flushes only before waits of its own; the caller's wait is one
     * too, and the results just emitted must be seen before it. */
    e.flush(e.arg);
}
