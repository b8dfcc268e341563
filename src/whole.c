#include "whole.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "bigbuf.h"
#include "fdio.h"
#include "input.h"
#include "xalloc.h"

#define ARENA_SMALLEST ((size_t)64 << 10)

void arena_init(struct arena *a, size_t want)
{
    a->cap = want;
    a->buf = alloc_down(&a->cap, ARENA_SMALLEST);
    a->huge = 0;
    a->used = a->touched = 0;
    a->live = 0;
    a->sealed = 0;
}

void arena_free(struct arena *a)
{
    free(a->buf);
    a->buf = NULL;
}

/* N rounded up to whole cache lines. */
static size_t lines(size_t n)
{
    return (n + 63) & ~(size_t)63;
}

/* One byte more than the size (see whole_read) and its padding. */
size_t arena_need(off_t size)
{
    return lines((size_t)size + 1 + MD5_PAD_MAX);
}

size_t arena_room(const struct arena *a)
{
    size_t at = lines(a->used);

    return a->sealed || at > a->cap ? 0 : a->cap - at;
}

/* N bytes of A, which has room for them. */
static unsigned char *arena_take(struct arena *a, size_t n)
{
    size_t at = lines(a->used);

    a->used = at + n;
    if (a->touched < a->used)
        a->touched = a->used;
    a->live++;
    return a->buf + at;
}

void arena_expect(struct arena *a, size_t n)
{
    if (!a->huge && a->used + n >= BIGBUF_HUGE_PAGE / 2) {
        bigbuf_huge(a->buf, 0, a->cap, a->touched);
        a->huge = 1;
    }
}

void arena_seal(struct arena *a)
{
    a->sealed = a->live > 0;
}

void arena_release(struct arena *a)
{
    if (--a->live == 0) {
        a->used = 0;
        a->sealed = 0;
    }
}

/* OUT is a read error ERR; T's fd is closed. */
static enum whole_step failed(struct task *t, int err, struct outcome *out)
{
    out->status = RESULT_READ_FAILED;
    out->err = err;
    close(t->fd);
    return WHOLE_DONE;
}

/* T grew past its size: hash the WANT bytes at DATA and the rest of it. */
static enum whole_step hash_grown(struct task *t, const unsigned char *data, size_t want,
                                  unsigned char *buf, size_t buf_len, struct outcome *out)
{
    struct md5_ctx ctx;
    int rc;

    md5_init(&ctx);
    md5_update(&ctx, data, want);
    rc = hash_rest(t->fd, &ctx, buf, buf_len, NULL, NULL);
    t->hashed = ctx.length;
    if (rc != 0)
        return failed(t, errno, out);
    md5_final(&ctx, out->digest);
    out->status = RESULT_OK;
    out->err = 0;
    /* As GNU: a failing close is a read error too. */
    if (close(t->fd) != 0) {
        out->status = RESULT_READ_FAILED;
        out->err = errno;
    }
    return WHOLE_DONE;
}

enum whole_step whole_read(struct arena *a, struct task *t, unsigned char *buf, size_t buf_len,
                           struct outcome *out)
{
    /* One byte more than the size: a file that grew since the claim is then
     * finished by reading on, like any stream. */
    size_t want = (size_t)t->size + 1, len;
    unsigned char *data = arena_take(a, arena_need(t->size));
    ssize_t got;

    /* A read that returns the whole size has reached the end of a regular
     * file: no second read to see end of file. */
    got = read_some(t->fd, data, want);
    if (got >= 0 && (size_t)got < (size_t)t->size) {
        ssize_t more = read_full(t->fd, data + got, want - (size_t)got);
        got = more < 0 ? more : got + more;
    }
    if (got < 0 || (size_t)got == want) {
        enum whole_step step = got < 0 ? failed(t, errno, out)
                                       : hash_grown(t, data, want, buf, buf_len, out);
        arena_release(a);
        return step;
    }
    t->hashed = (size_t)got;
    if (close(t->fd) != 0) {
        out->status = RESULT_READ_FAILED;
        out->err = errno;
        arena_release(a);
        return WHOLE_DONE;
    }
    len = (size_t)got;
    len += md5_pad(data + len, len);
    t->kind = TASK_MESSAGE;
    t->lt.p = data;
    t->lt.blocks = len / MD5_BLOCK_SIZE;
    return WHOLE_READY;
}
