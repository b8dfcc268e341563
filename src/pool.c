#include "pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "iothread.h"
#include "threads.h"

/* Budgets, shared by the workers: large files read at once (each with two
 * chunk buffers, stream.h, the second seldom touched in lanes with others),
 * and arenas for small files.  The largest arena holds a file of 256 KiB
 * for each of 32 lanes: 32 times 256 KiB and 128 bytes (a byte more than
 * the size, the padding, whole cache lines). */
#define STREAMS_TOTAL 64
#define ARENA_MAX (((size_t)8 << 20) + ((size_t)4 << 10))
#define ARENA_TOTAL (2 * ARENA_MAX)
#define ARENA_MIN ((size_t)1 << 20)

/* A worker on a thread of its own. */
struct member {
    struct worker *worker;
    pthread_t thread;
};

static struct member *members;
static unsigned n_threads;
static struct worker *inline_worker;
static int io_running;

unsigned pool_tasks_each(unsigned n)
{
    struct rlimit rl;
    rlim_t fds = 1024;

    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        fds = rl.rlim_cur;
    fds = fds > 64 ? (fds - 32) / 2 : 16;
    fds /= n + 1;
    return fds < 1 ? 1 : fds < WORKER_MAX_TASKS ? (unsigned)fds : WORKER_MAX_TASKS;
}

/* Workers on threads of their own, as many as N and memory allow; 0 if
 * none could start. */
static unsigned start_threads(struct queue *q, unsigned n)
{
    unsigned streams = STREAMS_TOTAL / n, i;
    size_t arena = ARENA_TOTAL / n;

    if (streams < 2)
        streams = 2;
    arena = arena > ARENA_MAX ? ARENA_MAX : arena < ARENA_MIN ? ARENA_MIN : arena;
    members = malloc(n * sizeof *members);
    if (!members)
        return 0;
    io_running = iothread_start() == 0;
    for (i = 0; i < n; i++) {
        struct member *m = &members[i];

        m->worker = worker_new(q, pool_tasks_each(n), streams, arena, io_running);
        if (!m->worker)
            break;
        if (thread_start(&m->thread, worker_main, m->worker) != 0) {
            worker_free(m->worker);
            break;
        }
    }
    if (i == 0 && io_running) {
        iothread_stop();
        io_running = 0;
    }
    return i;
}

void pool_start(struct queue *q, unsigned n)
{
    /* No thread runs yet, and each one's share of the streams counts on N
     * from its first claim. */
    q->workers = n;
    if (n > 1)
        n_threads = start_threads(q, n);
    queue_lock(q);
    q->workers = n_threads > 0 ? n_threads : 1;
    queue_unlock(q);
    if (n_threads == 0)
        inline_worker = worker_new(q, pool_tasks_each(1), STREAMS_TOTAL, ARENA_MAX, 0);
}

unsigned pool_threads(void)
{
    return n_threads;
}

struct worker *pool_inline(void)
{
    return inline_worker;
}

void pool_stop(void)
{
    unsigned i;

    for (i = 0; i < n_threads; i++) {
        pthread_join(members[i].thread, NULL);
        worker_free(members[i].worker);
    }
    n_threads = 0;
    free(members);
    members = NULL;
    if (io_running) {
        iothread_stop();
        io_running = 0;
    }
    if (inline_worker) {
        worker_free(inline_worker);
        inline_worker = NULL;
    }
}
