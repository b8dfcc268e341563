/* The ordered queue of jobs between the thread that submits them (and emits
 * their results, in order) and the workers that open and hash them.
 *
 * Jobs live in a ring of QUEUE_CAP slots, counted by three positions that
 * only grow: head <= claimed <= tail.  Jobs before head are emitted and their
 * slots free; [head, claimed) are taken by workers or done; [claimed, tail)
 * wait to be claimed.  Claims happen strictly in order, and a claimed file is
 * opened before the next one is claimed: inputs are opened in submission
 * order, whatever the number of workers.  An input that is not a regular
 * file (standard input, a FIFO, a terminal, a directory) is not claimed: the
 * queue stops at it (the barrier) until the submitter, having emitted every
 * result before it, opens and reads it itself.  A FIFO whose writer waits for
 * those results is thus opened only after they are out.
 */
#ifndef MD5SUM_QUEUE_H
#define MD5SUM_QUEUE_H

#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

#include "md5.h"
#include "result.h"

#define QUEUE_CAP 4096      /* jobs submitted and not yet emitted */
#define QUEUE_TAG_MAX 32    /* bytes of the caller's tag kept per job */

enum job_state {
    JOB_QUEUED,     /* waiting to be claimed */
    JOB_CLAIMED,    /* a worker has it open */
    JOB_BARRIER,    /* not a regular file: the submitter reads it */
    JOB_DONE        /* result set */
};

struct job {
    char *name;                    /* NULL for a mark; owned by the submitter */
    unsigned char tag[QUEUE_TAG_MAX];
    enum job_state state;
    enum result_status status;
    int err;
    unsigned char digest[MD5_DIGEST_SIZE];
};

/* Something a worker sleeps on; the queue wakes every idle one on news. */
struct waiter {
    pthread_cond_t cv;
    struct waiter *next_idle;
    int idle;
};

struct queue {
    pthread_mutex_t lock;          /* guards everything below but open_lock */
    pthread_mutex_t open_lock;     /* held while a claimed input is opened */
    pthread_cond_t head_cv;        /* the submitter waits here for results */
    struct job ring[QUEUE_CAP];
    size_t head, claimed, tail;
    int barrier;                   /* claiming stopped at a JOB_BARRIER job */
    int submitter_waiting;
    int closing;                   /* no more jobs will come */
    struct waiter *idle;           /* workers waiting for work */
};

/* The job at position I (head <= I < tail). */
struct job *queue_job(struct queue *q, size_t i);

/* What a worker got from queue_claim. */
struct claim {
    size_t index;    /* the job's position */
    int fd;          /* open, read from offset 0 */
    off_t size;      /* its size at the time of the claim */
};

/* Claim the next job for a worker.  Returns 1 with *C filled for a regular
 * file now open; 0 when there is nothing to claim now (no job, the barrier,
 * or, with TRY, another worker opening); the jobs that fail to open are
 * completed on the way with their error.  Called without the lock held. */
int queue_claim(struct queue *q, struct claim *c, int try);

/* Set the result of claimed job I and wake the submitter if it waits.  With
 * the lock held (queue_lock/queue_unlock), so a worker completes in bulk. */
void queue_complete_locked(struct queue *q, size_t i, enum result_status status, int err,
                           const unsigned char digest[MD5_DIGEST_SIZE]);

void queue_lock(struct queue *q);
void queue_unlock(struct queue *q);

/* Wake every idle worker (with the lock held): jobs came, the barrier went,
 * or the queue is closing. */
void queue_wake_idle_locked(struct queue *q);

/* Put W to sleep on the queue as idle until queue_wake_idle_locked or a
 * direct signal of W->cv (with the lock held). */
void queue_sleep_locked(struct queue *q, struct waiter *w);

#endif
