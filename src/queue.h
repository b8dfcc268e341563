/* The ordered queue of jobs between the thread that submits them (and emits
 * their results, in order) and the workers that open and hash them.
 *
 * Jobs live in a ring of up to QUEUE_CAP slots, counted by three positions that
 * only grow: tail is where the next job goes, claimed the next to claim and
 * head the next to emit.  Jobs are claimed strictly in order, a few at a
 * time, and each claimed file is opened at once by the worker that claimed
 * it: inputs are opened in submission order, give or take the few opened
 * side by side by different workers.  A claimed input that is not a regular
 * file (standard input, a FIFO, a terminal, a directory) is not opened by
 * the worker: it is handed to the submitter, which opens and reads it only
 * once every result before it is out.  A FIFO whose writer waits for those
 * results thus works.
 */
#ifndef MD5SUM_QUEUE_H
#define MD5SUM_QUEUE_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "md5.h"
#include "result.h"

#define QUEUE_CAP 4096      /* jobs submitted and not yet emitted, at most */
#define QUEUE_CAP_MIN 16    /* when memory is short */
#define QUEUE_TAG_MAX 32    /* bytes of the caller's tag kept per job */
#define QUEUE_CLAIM_MAX 128 /* jobs claimed at once */
#define QUEUE_DEFER_MAX 128 /* claims deferred at once, at most */

enum job_state {
    JOB_QUEUED,     /* waiting to be claimed */
    JOB_CLAIMED,    /* a worker has it */
    JOB_SPECIAL,    /* not a regular file: the submitter reads it */
    JOB_DONE        /* result set */
};

struct job {
    char *name;                    /* NULL for a mark; owned by the submitter */
    unsigned char tag[QUEUE_TAG_MAX];
    enum job_state state;
    enum result_status status;
    int err;
    unsigned char digest[MD5_DIGEST_SIZE];
    /* For progress reports: its size at the claim (-1 until then, or if
     * not a regular file) and its bytes hashed so far, a chunk at a time. */
    off_t size;
    uintmax_t hashed;
};

/* What a worker got from queue_claim: a job, open.  A large file one
 * worker handed over to another between chunks goes on from AT with
 * chaining state STATE; a new one starts at 0. */
struct claim {
    size_t index;    /* the job's position */
    int fd;          /* open */
    off_t size;      /* its size at the time of the claim */
    off_t at;        /* where reading goes on: its bytes hashed so far */
    uint32_t state[4];
};

/* Something a worker sleeps on; the queue wakes every idle one on news. */
struct waiter {
    pthread_cond_t cv;
    struct waiter *next_idle;
    int idle;
};

struct queue {
    pthread_mutex_t lock;          /* guards everything below */
    pthread_cond_t head_cv;        /* the submitter waits here for results */
    struct job *ring;
    size_t cap;                    /* slots in the ring */
    size_t head, claimed, tail;
    int submitter_waiting;
    int closing;                   /* no more jobs will come */
    struct waiter *idle;           /* workers waiting for work */
    /* Progress, over every job since the program started: bytes hashed,
     * and bytes known (the sizes of the jobs claimed, each finished one
     * counted for what it gave instead).  Sizes are set at claims only
     * when SIZES is (set before any worker starts). */
    uintmax_t bytes_done, bytes_known;
    int sizes;
    /* Claimed and opened inputs no worker could start yet (its arena or
     * its streams full), the most bytes left first, for whichever worker
     * has room: so that no worker sits on inputs another could be hashing. */
    struct claim deferred[QUEUE_DEFER_MAX];
    size_t n_deferred, deferred_cap;
    size_t deferred_held;          /* room held for claims being opened */
    /* Large files being read by all workers (as they last said), and the
     * workers, for an even share of them (queue_stream_share). */
    unsigned streams, workers;
};

/* Make Q's ring, as large as memory allows.  Returns 0, or -1 if not even
 * QUEUE_CAP_MIN slots can be had. */
int queue_init(struct queue *q);

/* Let at most CAP claims (at most QUEUE_DEFER_MAX) wait deferred from now
 * on: they hold descriptors.  Before any worker starts. */
void queue_set_deferred_cap(struct queue *q, size_t cap);

/* The job at position I (head <= I < tail). */
struct job *queue_job(struct queue *q, size_t i);

/* Has a worker room for claim C, by the budget at ARG?  It may count C
 * against that budget when it says yes. */
typedef int queue_fits(const struct claim *c, void *arg);

/* Claim the next jobs for a worker, up to MAX and as many as could be
 * deferred, and open them in order.  The regular files FITS(claim, ARG)
 * accepts are put in C[0 ..] and counted in the return value; the others
 * are deferred, for any worker.  Jobs that fail to open are completed with
 * their error, and those that are not regular files handed to the
 * submitter (JOB_SPECIAL).  With Q->sizes, the sizes of the regular files
 * are set on their jobs.  Called without the lock held. */
size_t queue_claim(struct queue *q, struct claim *c, size_t max, queue_fits *fits, void *arg);

/* Take deferred claims into C[0 ..], the most bytes left first, at most
 * MAX, each one FITS(claim, ARG) accepts; the others keep their places.
 * Returns how many. */
size_t queue_take_deferred(struct queue *q, struct claim *c, size_t max, queue_fits *fits,
                           void *arg);

/* Would FITS(ARG) accept some deferred claim (with the lock held)?  ARG
 * is a budget the caller may spend: a copy of its own. */
int queue_any_deferred_fits_locked(struct queue *q, queue_fits *fits, void *arg);

/* The most large files one worker should be reading now, told that it
 * started DELTA more than it finished since it last said (with the lock
 * held): an even share of those read and those deferred, so that the last
 * large files of a run are spread over the workers, not left to whichever
 * had room first. */
unsigned queue_stream_share_locked(struct queue *q, int delta);

/* Defer claim C, a stream handed over, if there is room (with the lock
 * held).  Returns 0, or -1 if there is none. */
int queue_defer_locked(struct queue *q, const struct claim *c);

/* Are there deferred claims (with the lock held)? */
int queue_deferred_locked(const struct queue *q);

/* Could queue_claim claim a job now (with the lock held)? */
int queue_claimable_locked(const struct queue *q);

/* Set the result of claimed job I, of which HASHED bytes were hashed in
 * all, and wake the submitter if it waits.  With the lock held
 * (queue_lock/queue_unlock), so a worker completes in bulk. */
void queue_complete_locked(struct queue *q, size_t i, enum result_status status, int err,
                           const unsigned char digest[MD5_DIGEST_SIZE], uintmax_t hashed);

/* HASHED bytes of claimed job I are hashed so far (with the lock held; at
 * chunk ends, for progress reports). */
void queue_hashed_locked(struct queue *q, size_t i, uintmax_t hashed);

/* Claimed job I is SIZE bytes long, for progress reports (with the lock
 * held; once per job at most). */
void queue_sized_locked(struct queue *q, size_t i, off_t size);

void queue_lock(struct queue *q);
void queue_unlock(struct queue *q);

/* Wake every idle worker (with the lock held): jobs came, or the queue is
 * closing. */
void queue_wake_idle_locked(struct queue *q);

/* Put W to sleep on the queue as idle until queue_wake_idle_locked or a
 * direct signal of W->cv (with the lock held). */
void queue_sleep_locked(struct queue *q, struct waiter *w);

#endif
