/* The many-files engine: see engine.h for the contract.
 *
 * Pending jobs live in one arena (names, tags and file contents), addressed
 * by offsets because the arena grows.  When the batch is big enough, the
 * arena would pass its budget, or an input must be streamed, the pending
 * files are hashed together (batch.c) and every pending result is emitted.
 */
#include "engine.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "batch.h"
#include "mapped.h"
#include "fdio.h"
#include "input.h"
#include "verify.h"
#include "xalloc.h"

/* Files up to SMALL_MAX bytes are batched; at most ENGINE_BUDGET bytes of
 * names, tags and contents are held, and MAX_JOBS jobs.  A batch is hashed
 * once it holds BATCH_BYTES of contents (enough for 32 lanes of 256 KiB
 * files) or BATCH_JOBS files (small files: the batch stays in L2 cache).
 * Figures chosen by measurement (docs/PERFORMANCE.md). */
#define SMALL_MAX ((size_t)2 << 20)
#define ENGINE_BUDGET ((size_t)64 << 20)
#define BATCH_BYTES ((size_t)8 << 20)
#define BATCH_JOBS 128
#define MAX_JOBS 1024
/* Each job takes up to three 64-byte aligned pieces of the arena (tag, name,
 * contents), each after at most 63 bytes of padding: 3 * 64 covers them. */
#define JOB_ALIGN_SLACK (3 * 64)

/* A batch must be able to fill before the job table or the budget forces
 * it out. */
VERIFY(batch_fits_job_table, BATCH_JOBS <= MAX_JOBS);
VERIFY(batch_fits_budget, BATCH_BYTES + SMALL_MAX + JOB_ALIGN_SLACK <= ENGINE_BUDGET);

enum job_state { JOB_DONE, JOB_BATCHED };

struct job {
    size_t name, tag, data, data_len;   /* arena offsets, the contents' length */
    struct result r;                              /* status, err, digest */
    enum job_state state;
    int is_mark;
};

static engine_emit *emit_fn;
static engine_flush *flush_fn;
static void *emit_arg;
static struct job jobs[MAX_JOBS];
static size_t n_jobs;
static unsigned char *arena;
static size_t arena_used, arena_cap, batched_bytes, batched_jobs;

void engine_start(engine_emit *emit, engine_flush *flush, void *arg)
{
    emit_fn = emit;
    flush_fn = flush;
    emit_arg = arg;
    n_jobs = arena_used = batched_bytes = batched_jobs = 0;
}

/* Room for N more bytes, 64-byte aligned so lanes load whole lines; the
 * arena grows past its budget only for one job larger than the budget. */
static size_t arena_take(size_t n)
{
    size_t at = (arena_used + 63) & ~(size_t)63;

    if (!arena || at + n > arena_cap) {
        size_t cap = arena_cap ? arena_cap : (size_t)1 << 20;
        while (cap < at + n)
            cap *= 2;
        arena = xrealloc(arena, cap);
        arena_cap = cap;
    }
    arena_used = at + n;
    return at;
}

static void emit(struct job *j)
{
    j->r.name = j->is_mark ? NULL : (const char *)arena + j->name;
    j->r.tag = arena + j->tag;
    emit_fn(&j->r, emit_arg);
}

/* Hash the batched files, emit every pending result, start afresh. */
static void drain(void)
{
    static struct message msgs[MAX_JOBS];
    size_t i, n = 0;

    for (i = 0; i < n_jobs; i++)
        if (jobs[i].state == JOB_BATCHED) {
            msgs[n].data = arena + jobs[i].data;
            msgs[n].len = jobs[i].data_len;
            n++;
        }
    hash_messages(msgs, n);
    for (i = 0, n = 0; i < n_jobs; i++) {
        if (jobs[i].state == JOB_BATCHED)
            memcpy(jobs[i].r.digest, msgs[n++].digest, MD5_DIGEST_SIZE);
        emit(&jobs[i]);
    }
    n_jobs = arena_used = batched_bytes = batched_jobs = 0;
    flush_fn(emit_arg);
}

/* A new job with copies of NAME and TAG, after making room for EXTRA more
 * bytes of contents within the budget. */
static struct job *new_job(const char *name, const void *tag, size_t tag_len, size_t extra)
{
    size_t name_len = name ? strlen(name) + 1 : 0;
    struct job *j;

    if (n_jobs == MAX_JOBS || arena_used + name_len + tag_len + extra + JOB_ALIGN_SLACK > ENGINE_BUDGET)
        drain();
    j = &jobs[n_jobs++];
    memset(j, 0, sizeof *j);
    j->is_mark = name == NULL;
    j->tag = arena_take(tag_len);
    if (tag_len > 0)
        memcpy(arena + j->tag, tag, tag_len);
    if (name) {
        j->name = arena_take(name_len);
        memcpy(arena + j->name, name, name_len);
    }
    return j;
}

static void fail(struct job *j, enum result_status status, int err)
{
    j->state = JOB_DONE;
    j->r.status = status;
    j->r.err = err;
}

/* Hash FD to its end into CTX and finish job J: through mmap for a regular
 * file of SIZE bytes not read yet (SIZE >= 0), by read(2) otherwise. */
static void stream(struct job *j, int fd, off_t size, struct md5_ctx *ctx)
{
    if ((size >= 0 ? hash_mapped(fd, size, ctx) : hash_rest(fd, ctx)) != 0) {
        fail(j, RESULT_READ_FAILED, errno);
        return;
    }
    j->state = JOB_DONE;
    md5_final(ctx, j->r.digest);
}

/* Open NAME.  *SIZE is its size if it is a regular file, -1 otherwise. */
static int open_input(const char *name, off_t *size)
{
    struct stat st;
    int fd = input_open(name);

    /* Standard input is always read as a stream. */
    *size = fd > 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? st.st_size : -1;
    return fd;
}

void engine_submit(const char *name, const void *tag, size_t tag_len)
{
    off_t size;
    int fd = open_input(name, &size);
    struct job *j;
    struct md5_ctx ctx;

    md5_init(&ctx);
    if (fd < 0) {
        int err = errno;
        j = new_job(name, tag, tag_len, 0);
        fail(j, RESULT_OPEN_FAILED, err);
    } else if (size >= 0 && (size_t)size <= SMALL_MAX) {
        /* Ask for one byte more than the size: a file that grew since
         * fstat is then finished by reading on, like any stream. */
        size_t want = (size_t)size + 1;
        ssize_t got;

        j = new_job(name, tag, tag_len, want + MD5_PAD_MAX + 64);
        j->data = arena_take(want + MD5_PAD_MAX);   /* room for the padding */
        /* A read that returns the whole size has reached the end of a
         * regular file: no second read to see end of file (a file appended
         * to in between is a race GNU can lose the same way). */
        got = read_some(fd, arena + j->data, want);
        if (got >= 0 && (size_t)got < (size_t)size) {
            ssize_t more = read_full(fd, arena + j->data + got, want - (size_t)got);
            got = more < 0 ? more : got + more;
        }
        if (got < 0) {
            fail(j, RESULT_READ_FAILED, errno);
        } else if ((size_t)got == want) {
            md5_update(&ctx, arena + j->data, want);
            stream(j, fd, -1, &ctx);
        } else {
            j->state = JOB_BATCHED;
            j->data_len = (size_t)got;
            batched_bytes += (size_t)got;
            batched_jobs++;
        }
    } else {
        /* Streamed, after everything before it is out: a read from a pipe,
         * a FIFO or a terminal may wait, and must not hold back results. */
        drain();
        j = new_job(name, tag, tag_len, 0);
        stream(j, fd, size, &ctx);
    }
    /* As GNU: a failing close is a read error too (NFS reports late). */
    if (fd >= 0 && input_close(fd) != 0 && j->r.status == RESULT_OK)
        fail(j, RESULT_READ_FAILED, errno);
    /* Emit now if nothing else is waiting, or if the batch is full. */
    if ((j->state == JOB_DONE && n_jobs == 1) || batched_bytes >= BATCH_BYTES ||
        batched_jobs >= BATCH_JOBS)
        drain();
}

void engine_mark(const void *tag, size_t tag_len)
{
    struct job *j = new_job(NULL, tag, tag_len, 0);

    j->state = JOB_DONE;
    if (n_jobs == 1)
        drain();
}

void engine_finish(void)
{
    drain();
}
