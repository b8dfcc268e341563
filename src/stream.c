#include "stream.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "verify.h"

VERIFY(chunks_are_blocks, STREAM_CHUNK % MD5_BLOCK_SIZE == 0 &&
                          STREAM_AHEAD_CHUNK % MD5_BLOCK_SIZE == 0);
VERIFY(chunks_fit_buffer, STREAM_CHUNK <= STREAM_AHEAD_CHUNK);

/* Fill a slot's buffer from the file, on whichever thread takes the
 * request, and tell the stream's worker. */
static void read_slot(struct io_request *r)
{
    struct slot *sl = (struct slot *)(void *)r;
    const struct task *t = sl->task;
    enum slot_state state = SLOT_READY;
    size_t got = 0;
    int final = 0, err = 0;
    off_t last = (sl->off + (off_t)sl->len - 1) / STREAM_WINDOW;

    /* Reaching a new window: ask the disk for it and the next. */
    if (sl->off == 0 || last != (sl->off - 1) / STREAM_WINDOW)
        posix_fadvise(t->fd, last * STREAM_WINDOW, 2 * STREAM_WINDOW, POSIX_FADV_WILLNEED);
    while (got < sl->len) {
        ssize_t n = pread(t->fd, sl->buf + got, sl->len - got, sl->off + (off_t)got);

        if (n < 0) {
            if (errno == EINTR)
                continue;
            err = errno;
            state = SLOT_FAILED;
            break;
        }
        if (n == 0) {
            final = 1;
            break;
        }
        got += (size_t)n;
        /* Short at or past the size it had: the file ends here, as GNU's
         * reading would find it; no further read just to see 0. */
        if (got < sl->len && sl->off + (off_t)got >= t->size) {
            final = 1;
            break;
        }
    }
    queue_lock(t->io->q);
    sl->got = got;
    sl->final = final;
    sl->err = err;
    sl->state = state;
    pthread_cond_signal(t->io->wake);
    queue_unlock(t->io->q);
}

/* Read T's next chunk into slot K: now, in this thread, or AHEAD, on the
 * I/O thread (or whichever thread is free first). */
static void ask(struct worker_io *io, struct task *t, unsigned k, int ahead)
{
    struct slot *sl = &t->slot[k];

    sl->task = t;
    sl->off = t->next_off;
    sl->len = ahead ? STREAM_AHEAD_CHUNK : STREAM_CHUNK;
    /* Only the stream alone in a worker's lanes reads ahead, into the
     * worker's buffers: no other stream of it can, until this one ends. */
    sl->buf = ahead ? io->ahead_buf[k] : t->chunk_buf[k];
    t->next_off += (off_t)sl->len;
    sl->req.run = read_slot;
    queue_lock(io->q);
    sl->state = SLOT_PENDING;
    queue_unlock(io->q);
    if (ahead)
        iothread_submit(&sl->req);
    else
        read_slot(&sl->req);
}

/* Read ahead, on another thread, only for a stream alone in its lanes: it
 * runs the scalar core, and leaves its reading to a CPU that is free.  In
 * lanes with others the CPUs are busy anyway, and a chunk read just before
 * it is hashed is still in cache. */
static int read_ahead(const struct worker_io *io, const struct lanes *s)
{
    return io->io_thread && s->used == 1;
}

void stream_start(struct task *t, unsigned char *buf0, unsigned char *buf1, off_t at)
{
    unsigned k;

    t->kind = TASK_STREAM;
    t->lt.p = NULL;
    t->lt.blocks = 0;
    t->cur = 0;
    t->next_off = at;
    t->chunk_buf[0] = buf0;
    t->chunk_buf[1] = buf1;
    for (k = 0; k < 2; k++)
        t->slot[k].state = SLOT_IDLE;
}

/* Wait until no slot of T is being read, then close it. */
static enum stream_step stream_close(struct worker_io *io, struct lanes *s, struct task *t,
                                     struct outcome *out)
{
    if (t->in_lane) {
        uint32_t state[4];

        lanes_remove(s, &t->lt, state);
        t->in_lane = 0;
    }
    queue_lock(io->q);
    while (t->slot[0].state == SLOT_PENDING || t->slot[1].state == SLOT_PENDING)
        pthread_cond_wait(io->wake, &io->q->lock);
    queue_unlock(io->q);
    /* As GNU: a failing close is a read error too (NFS reports late). */
    if (close(t->fd) != 0 && out->status == RESULT_OK) {
        out->status = RESULT_READ_FAILED;
        out->err = errno;
    }
    return STREAM_DONE;
}

int stream_ready_locked(const struct task *t)
{
    return t->slot[t->cur].state != SLOT_PENDING;
}

enum stream_step stream_feed(struct worker_io *io, struct lanes *s, struct task *t,
                             struct outcome *out)
{
    struct slot *sl = &t->slot[t->cur];
    int ahead = read_ahead(io, s);
    enum slot_state state, other;
    size_t len;

    queue_lock(io->q);
    state = sl->state;
    other = t->slot[t->cur ^ 1].state;
    queue_unlock(io->q);
    if (state == SLOT_IDLE)
        ask(io, t, t->cur, ahead);
    /* Alone: the chunk after this one is read meanwhile. */
    if (ahead && other == SLOT_IDLE && t->next_off <= t->size)
        ask(io, t, t->cur ^ 1, 1);
    queue_lock(io->q);
    state = sl->state;
    queue_unlock(io->q);
    if (state == SLOT_PENDING)
        return STREAM_WAITING;
    if (state == SLOT_FAILED) {
        out->status = RESULT_READ_FAILED;
        out->err = sl->err;
        return stream_close(io, s, t, out);
    }
    len = sl->got;
    if (sl->final)
        len += md5_pad(sl->buf + len, (uint64_t)sl->off + len);
    lanes_feed(s, &t->lt, sl->buf, len / MD5_BLOCK_SIZE);
    return STREAM_RUNNING;
}

enum stream_step stream_chunk_done(struct worker_io *io, struct lanes *s, struct task *t,
                                   struct outcome *out)
{
    struct slot *sl = &t->slot[t->cur];

    t->hashed = (uintmax_t)sl->off + sl->got;
    if (sl->final) {
        uint32_t state[4];

        lanes_state(s, &t->lt, state);
        md5_state_digest(state, out->digest);
        out->status = RESULT_OK;
        out->err = 0;
        return stream_close(io, s, t, out);
    }
    /* The next chunk is in the other slot if it was read ahead; otherwise
     * this buffer, still in cache, takes it. */
    queue_lock(io->q);
    sl->state = SLOT_IDLE;
    if (t->slot[t->cur ^ 1].state != SLOT_IDLE)
        t->cur ^= 1;
    queue_hashed_locked(io->q, t->job, t->hashed);
    queue_unlock(io->q);
    return STREAM_WAITING;
}

int stream_hand_over(struct worker_io *io, struct lanes *s, struct task *t)
{
    struct claim c;
    int rc = -1;

    c.index = t->job;
    c.fd = t->fd;
    c.size = t->size;
    c.at = t->next_off;
    lanes_state(s, &t->lt, c.state);
    queue_lock(io->q);
    if (t->slot[0].state == SLOT_IDLE && t->slot[1].state == SLOT_IDLE)
        rc = queue_defer_locked(io->q, &c);
    queue_unlock(io->q);
    if (rc != 0)
        return 0;
    lanes_remove(s, &t->lt, c.state);
    t->in_lane = 0;
    return 1;
}
