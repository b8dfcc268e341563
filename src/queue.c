#include "queue.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "input.h"

int queue_init(struct queue *q)
{
    size_t cap;

    for (cap = QUEUE_CAP; cap >= QUEUE_CAP_MIN; cap /= 4) {
        q->ring = calloc(cap, sizeof *q->ring);
        if (q->ring) {
            q->cap = cap;
            break;
        }
    }
    if (!q->ring || pthread_mutex_init(&q->lock, NULL) != 0 ||
        pthread_cond_init(&q->head_cv, NULL) != 0)
        return -1;
    return 0;
}

void queue_set_deferred_cap(struct queue *q, size_t cap)
{
    q->deferred_cap = cap < QUEUE_DEFER_MAX ? cap : QUEUE_DEFER_MAX;
}

/* Bytes claim C has still to be read: its size at the claim, less what a
 * worker that handed it over had hashed. */
static off_t left(const struct claim *c)
{
    return c->size - c->at;
}

/* Put C among the deferred claims (with the lock held, and room for it),
 * the most bytes left first: workers take the longest work first, and the
 * last to end are short, so that no worker is left with one large file
 * while the others idle.  Among equals, the oldest first. */
static void defer_locked(struct queue *q, const struct claim *c)
{
    size_t i = q->n_deferred++;

    for (; i > 0 && left(&q->deferred[i - 1]) < left(c); i--)
        q->deferred[i] = q->deferred[i - 1];
    q->deferred[i] = *c;
}

size_t queue_take_deferred(struct queue *q, struct claim *c, size_t max, queue_fits *fits,
                           void *arg)
{
    size_t i, kept = 0, n = 0;

    queue_lock(q);
    for (i = 0; i < q->n_deferred; i++) {
        if (n < max && fits(&q->deferred[i], arg))
            c[n++] = q->deferred[i];
        else
            q->deferred[kept++] = q->deferred[i];
    }
    q->n_deferred = kept;
    queue_unlock(q);
    return n;
}

unsigned queue_stream_share_locked(struct queue *q, int delta)
{
    size_t all;
    unsigned workers = q->workers > 0 ? q->workers : 1;

    q->streams += (unsigned)delta;   /* modulo 2^n: a fall is exact too */
    all = q->streams + q->n_deferred;
    return (unsigned)((all + workers - 1) / workers);
}

int queue_defer_locked(struct queue *q, const struct claim *c)
{
    if (q->n_deferred + q->deferred_held >= q->deferred_cap)
        return -1;
    defer_locked(q, c);
    queue_wake_idle_locked(q);
    return 0;
}

int queue_deferred_locked(const struct queue *q)
{
    return q->n_deferred > 0;
}

int queue_claimable_locked(const struct queue *q)
{
    return q->claimed < q->tail && q->n_deferred + q->deferred_held < q->deferred_cap;
}

int queue_any_deferred_fits_locked(struct queue *q, queue_fits *fits, void *arg)
{
    size_t i;

    for (i = 0; i < q->n_deferred; i++)
        if (fits(&q->deferred[i], arg))
            return 1;
    return 0;
}

struct job *queue_job(struct queue *q, size_t i)
{
    return &q->ring[i % q->cap];
}

void queue_lock(struct queue *q)
{
    pthread_mutex_lock(&q->lock);
}

void queue_unlock(struct queue *q)
{
    pthread_mutex_unlock(&q->lock);
}

/* Job I changed in a way the submitter may be waiting for. */
static void tell_submitter_locked(struct queue *q, size_t i)
{
    if (i == q->head && q->submitter_waiting)
        pthread_cond_signal(&q->head_cv);
}

void queue_hashed_locked(struct queue *q, size_t i, uintmax_t hashed)
{
    struct job *j = queue_job(q, i);

    /* Modulo 2^n, exact whichever way it moves. */
    q->bytes_done = q->bytes_done - j->hashed + hashed;
    j->hashed = hashed;
}

void queue_sized_locked(struct queue *q, size_t i, off_t size)
{
    queue_job(q, i)->size = size;
    q->bytes_known += (uintmax_t)size;
}

void queue_complete_locked(struct queue *q, size_t i, enum result_status status, int err,
                           const unsigned char digest[MD5_DIGEST_SIZE], uintmax_t hashed)
{
    struct job *j = queue_job(q, i);

    queue_hashed_locked(q, i, hashed);
    /* Finished: it counts for the bytes it gave, not for its size at the
     * claim (it may have grown, shrunk, or failed). */
    q->bytes_known = q->bytes_known - (j->size > 0 ? (uintmax_t)j->size : 0) + hashed;
    j->status = status;
    j->err = err;
    if (digest)
        memcpy(j->digest, digest, MD5_DIGEST_SIZE);
    j->state = JOB_DONE;
    tell_submitter_locked(q, i);
}

void queue_wake_idle_locked(struct queue *q)
{
    while (q->idle) {
        struct waiter *w = q->idle;

        q->idle = w->next_idle;
        w->idle = 0;
        pthread_cond_signal(&w->cv);
    }
}

void queue_sleep_locked(struct queue *q, struct waiter *w)
{
    if (!w->idle) {
        w->idle = 1;
        w->next_idle = q->idle;
        q->idle = w;
    }
    pthread_cond_wait(&w->cv, &q->lock);
    /* Woken directly (a window is ready): leave the idle list. */
    if (w->idle) {
        struct waiter **p = &q->idle;

        while (*p != w)
            p = &(*p)->next_idle;
        *p = w->next_idle;
        w->idle = 0;
    }
}

/* Is NAME something only the submitter may open: standard input, or not a
 * regular file (opening a FIFO waits for its writer, and reading a terminal
 * or a pipe waits for data)?  A name stat cannot see is opened as usual, so
 * the error reported is open's.  *SIZE is a regular file's size. */
static int for_submitter(const char *name, off_t *size)
{
    struct stat st;

    *size = 0;
    if (strcmp(name, "-") == 0)
        return 1;
    if (stat(name, &st) != 0)
        return 0;
    *size = st.st_size;
    return !S_ISREG(st.st_mode);
}

size_t queue_claim(struct queue *q, struct claim *c, size_t max, queue_fits *fits, void *arg)
{
    size_t taken[QUEUE_CLAIM_MAX], k = 0, n = 0, d = 0, room, i;
    struct claim later[QUEUE_DEFER_MAX];

    queue_lock(q);
    /* Each one may be deferred: hold room for all of them. */
    room = q->deferred_cap - q->n_deferred - q->deferred_held;
    if (max > room)
        max = room;
    if (max > QUEUE_CLAIM_MAX)
        max = QUEUE_CLAIM_MAX;
    for (; q->claimed < q->tail && k < max; q->claimed++) {
        struct job *j = queue_job(q, q->claimed);

        if (j->state == JOB_QUEUED) {   /* not a mark, done when submitted */
            j->state = JOB_CLAIMED;
            taken[k++] = q->claimed;
        }
    }
    q->deferred_held += k;
    queue_unlock(q);
    /* Claimed jobs are this thread's: no lock while opening, which may
     * take a while. */
    for (i = 0; i < k; i++) {
        struct job *j = queue_job(q, taken[i]);
        struct claim got;
        int err;

        got.index = taken[i];
        got.at = 0;
        memcpy(got.state, md5_iv, sizeof got.state);
        if (for_submitter(j->name, &got.size)) {
            queue_lock(q);
            j->state = JOB_SPECIAL;
            tell_submitter_locked(q, taken[i]);
            queue_unlock(q);
            continue;
        }
        got.fd = input_open(j->name);
        err = errno;
        if (got.fd < 0) {
            queue_lock(q);
            queue_complete_locked(q, taken[i], RESULT_OPEN_FAILED, err, NULL, 0);
            queue_unlock(q);
            continue;
        }
        if (fits(&got, arg))
            c[n++] = got;
        else
            later[d++] = got;
    }
    if (k == 0)
        return 0;
    queue_lock(q);
    /* Their sizes, for progress reports. */
    for (i = 0; q->sizes && i < n + d; i++) {
        const struct claim *got = i < n ? &c[i] : &later[i - n];

        queue_sized_locked(q, got->index, got->size);
    }
    for (i = 0; i < d; i++)
        defer_locked(q, &later[i]);
    q->deferred_held -= k;
    if (d > 0)
        queue_wake_idle_locked(q);
    queue_unlock(q);
    return n;
}
