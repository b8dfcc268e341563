#include "stream.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fdio.h"
#include "threads.h"

#define RING 8                         /* buffers between the reader and the hashing */
#define RING_BUF ((size_t)128 << 10)   /* each: two reads of a pipe's 64 KiB */

/* Buffers [head, tail) are filled, the rest free.  A full ring's reader
 * waits for half of it to be free, not for each buffer: a wake-up costs
 * more than the copy it would start. */
struct ring {
    pthread_mutex_t lock;
    pthread_cond_t filled, freed;
    int fd;
    unsigned char *buf;
    size_t len[RING];
    unsigned head, tail;
    int reader_waits;
    int ended, err;   /* the reader met the end of file, or ERR */
};

static unsigned long started;

unsigned long stream_threads(void)
{
    return started;
}

static void *reader(void *arg)
{
    struct ring *r = arg;
    unsigned i;
    ssize_t n;
    int err;

    do {
        pthread_mutex_lock(&r->lock);
        while (r->tail - r->head == RING) {
            r->reader_waits = 1;
            pthread_cond_wait(&r->freed, &r->lock);
        }
        i = r->tail % RING;
        pthread_mutex_unlock(&r->lock);
        /* Short only at the end of file: it is not read past. */
        n = read_full(r->fd, r->buf + i * RING_BUF, RING_BUF);
        err = n < 0 ? errno : 0;
        pthread_mutex_lock(&r->lock);
        r->err = err;
        r->ended = n < (ssize_t)RING_BUF;
        if (n > 0) {
            r->len[i] = (size_t)n;
            r->tail++;
        }
        pthread_cond_signal(&r->filled);
        pthread_mutex_unlock(&r->lock);
    } while (n == (ssize_t)RING_BUF);
    return NULL;
}

/* Hash into CTX what R's reader reads, to its end: 0, or -1 (R's err). */
static int hash_ring(struct ring *r, struct md5_ctx *ctx, hash_rest_each *each, void *arg)
{
    unsigned i;

    pthread_mutex_lock(&r->lock);
    for (;;) {
        while (r->head == r->tail && !r->ended)
            pthread_cond_wait(&r->filled, &r->lock);
        if (r->head == r->tail)
            break;
        i = r->head % RING;
        pthread_mutex_unlock(&r->lock);
        md5_update(ctx, r->buf + i * RING_BUF, r->len[i]);
        if (each)
            each(ctx->length, arg);
        pthread_mutex_lock(&r->lock);
        r->head++;
        if (r->reader_waits && r->tail - r->head <= RING / 2) {
            r->reader_waits = 0;
            pthread_cond_signal(&r->freed);
        }
    }
    pthread_mutex_unlock(&r->lock);
    return r->err ? -1 : 0;
}

/* R, empty, for FD: 0, or -1 if its memory cannot be had. */
static int ring_open(struct ring *r, int fd)
{
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->buf = malloc(RING * RING_BUF);
    if (r->buf && pthread_mutex_init(&r->lock, NULL) == 0) {
        if (pthread_cond_init(&r->filled, NULL) == 0) {
            if (pthread_cond_init(&r->freed, NULL) == 0)
                return 0;
            pthread_cond_destroy(&r->filled);
        }
        pthread_mutex_destroy(&r->lock);
    }
    free(r->buf);
    return -1;
}

static void ring_close(struct ring *r)
{
    pthread_cond_destroy(&r->freed);
    pthread_cond_destroy(&r->filled);
    pthread_mutex_destroy(&r->lock);
    free(r->buf);
}

/* Is the rest of FD worth a thread: a pipe or a device, or a regular file
 * with STREAM_FILE_REST bytes or more left? */
static int long_rest(int fd)
{
    struct stat st;
    off_t at;

    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return 1;
    at = lseek(fd, 0, SEEK_CUR);
    return at < 0 || st.st_size - at >= STREAM_FILE_REST;
}

int stream_hash(int fd, struct md5_ctx *ctx, unsigned char *buf, size_t size, int threads,
                hash_rest_each *each, void *arg)
{
    struct ring r;
    struct thread t;
    int rc = hash_rest(fd, ctx, buf, size, threads ? STREAM_INLINE : UINT64_MAX, each, arg);

    /* Long: read on beside the hashing, where there is a CPU for it. */
    if (rc == 1 && long_rest(fd) && cpus_available() > 1 && ring_open(&r, fd) == 0) {
        if (thread_start(&t, reader, &r) == 0) {
            started++;
            rc = hash_ring(&r, ctx, each, arg);
            thread_join(&t);
        }
        ring_close(&r);
        errno = r.err;
    }
    return rc == 1 ? hash_rest(fd, ctx, buf, size, UINT64_MAX, each, arg) : rc;
}
