#include "stream.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input.h"

/* Fault W's pages in under a guard.  0, or -1 if the file no longer covers
 * them all (SIGBUS). */
static int touch_guarded(const struct window *w)
{
    struct bus_guard g;

    if (sigsetjmp(g.env, 1) != 0)
        return -1;
    bus_guard_arm(&g);
    window_touch(w);
    bus_guard_disarm();
    return 0;
}

/* Unmap the slot's old window, map its new one: on the I/O thread, which
 * also faults the pages in, or at once in the hashing thread (whose kernel
 * then takes the faults itself). */
static void prepare_slot(struct io_request *r)
{
    struct slot *s = (struct slot *)(void *)r;
    struct task *t = s->task;
    struct worker_io *io = t->io;
    enum slot_state state = SLOT_READY;

    window_unmap(&s->old);
    if (s->len > 0) {
        if (window_map(&s->win, t->fd, s->off, s->len) != 0)
            state = SLOT_FAILED;
        else if (io->io_thread && touch_guarded(&s->win) != 0)
            state = SLOT_FAILED;   /* unmapped with the stream */
    }
    queue_lock(io->q);
    s->state = state;
    pthread_cond_signal(io->wake);
    queue_unlock(io->q);
}

/* Ask for the next window of T in slot K, unmapping the window K held. */
static void ask(struct worker_io *io, struct task *t, unsigned k)
{
    struct slot *s = &t->slot[k];
    off_t left = t->size - t->next_off;

    s->task = t;
    s->old = s->win;
    s->win.base = NULL;
    s->off = t->next_off;
    s->len = left <= 0 ? 0 : left < (off_t)WINDOW_SIZE ? (size_t)left : WINDOW_SIZE;
    t->next_off += (off_t)s->len;
    s->req.run = prepare_slot;
    queue_lock(io->q);
    s->state = SLOT_PENDING;
    queue_unlock(io->q);
    if (io->io_thread)
        iothread_submit(&s->req);
    else
        prepare_slot(&s->req);
}

void stream_start(struct worker_io *io, struct task *t)
{
    unsigned k;

    t->kind = TASK_STREAM;
    t->lt.p = NULL;
    t->lt.blocks = 0;
    t->cur = 0;
    t->next_off = 0;
    for (k = 0; k < 2; k++) {
        t->slot[k].win.base = t->slot[k].old.base = NULL;
        t->slot[k].state = SLOT_IDLE;
    }
    ask(io, t, 0);
    if (t->next_off < t->size)
        ask(io, t, 1);
}

/* Wait until no slot of T is being prepared, unmap its windows, close it. */
static void stream_close(struct worker_io *io, struct task *t, struct outcome *out)
{
    unsigned k;

    queue_lock(io->q);
    while (t->slot[0].state == SLOT_PENDING || t->slot[1].state == SLOT_PENDING)
        pthread_cond_wait(io->wake, &io->q->lock);
    queue_unlock(io->q);
    for (k = 0; k < 2; k++) {
        window_unmap(&t->slot[k].win);
        window_unmap(&t->slot[k].old);
    }
    /* As GNU: a failing close is a read error too (NFS reports late). */
    if (close(t->fd) != 0 && out->status == RESULT_OK) {
        out->status = RESULT_READ_FAILED;
        out->err = errno;
    }
}

/* Finish T with read(2) from offset OFF (a multiple of 64), the chaining
 * state there being STATE, or T's lane state when STATE is NULL. */
static enum stream_step finish_by_read(struct worker_io *io, struct lanes *s, struct task *t,
                                       off_t off, const uint32_t *state, struct outcome *out)
{
    struct md5_ctx ctx;
    uint32_t now[4];

    memcpy(now, md5_iv, sizeof now);
    if (t->in_lane) {
        lanes_remove(s, &t->lt, now);
        t->in_lane = 0;
    }
    memcpy(ctx.state, state ? state : now, sizeof ctx.state);
    ctx.length = (uint64_t)off;
    out->status = RESULT_OK;
    out->err = 0;
    if (lseek(t->fd, off, SEEK_SET) < 0 || hash_rest(t->fd, &ctx, io->buf, io->buf_len) != 0) {
        out->status = RESULT_READ_FAILED;
        out->err = errno;
    } else {
        md5_final(&ctx, out->digest);
    }
    stream_close(io, t, out);
    return STREAM_DONE;
}

enum stream_step stream_feed(struct worker_io *io, struct lanes *s, struct task *t,
                             struct outcome *out)
{
    struct slot *sl = &t->slot[t->cur];
    enum slot_state state;
    size_t whole;

    queue_lock(io->q);
    state = sl->state;
    queue_unlock(io->q);
    if (state == SLOT_PENDING)
        return STREAM_WAITING;
    whole = sl->len / MD5_BLOCK_SIZE;
    if (state == SLOT_FAILED || whole == 0)
        return finish_by_read(io, s, t, sl->off, NULL, out);
    lanes_state(s, &t->lt, t->win_state);
    lanes_feed(s, &t->lt, sl->win.base, whole);
    return STREAM_RUNNING;
}

enum stream_step stream_window_done(struct worker_io *io, struct lanes *s, struct task *t,
                                    struct outcome *out)
{
    struct slot *sl = &t->slot[t->cur];
    off_t end = sl->off + (off_t)sl->len;
    size_t whole = sl->len / MD5_BLOCK_SIZE * MD5_BLOCK_SIZE;
    struct stat st;

    /* A new end inside the window: its last page read as zeros, no SIGBUS. */
    if (fstat(t->fd, &st) == 0 && st.st_size < end)
        return finish_by_read(io, s, t, sl->off, t->win_state, out);
    /* The last window: its partial block, and what the file grew by. */
    if (whole < sl->len || end >= t->size)
        return finish_by_read(io, s, t, sl->off + (off_t)whole, NULL, out);
    ask(io, t, t->cur);
    t->cur ^= 1;
    return stream_feed(io, s, t, out);
}

void stream_fault(struct worker_io *io, struct lanes *s, struct task *t, struct outcome *out)
{
    const struct slot *sl = &t->slot[t->cur];

    finish_by_read(io, s, t, sl->off + (t->lt.p - sl->win.base), NULL, out);
}

int stream_holds(const struct task *t, const void *addr)
{
    return t->kind == TASK_STREAM && window_holds(&t->slot[t->cur].win, addr);
}
