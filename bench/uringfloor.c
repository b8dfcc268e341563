/* uringfloor [-t THREADS] [-m MODE] [-n INFLIGHT] [-s | -S [-a CPU]] [-b KIB] [-c]
 *            [-v] [-E EPERM|ENOSYS] FILE...
 * The floor of bench/sysfloor.c (the system calls md5sum makes for each
 * file, no hashing), made through io_uring instead: issue 20, part 3, an
 * experiment that asks whether batching the opens, stats, reads and closes
 * of small files into one io_uring_enter would pay.  A measurement for
 * scripts/bench.sh (section uring), not a test, and not in the engine.
 *
 * MODE says how each file is read (THREADS threads share the FILEs, each
 * takes every THREADS-th, each with a ring of its own):
 *   plain   open, fstat, preads to the end, close: the engine's calls, and
 *           sysfloor's but for the order (it stats the name, then opens);
 *           the path taken whenever io_uring is missing or forbidden
 *   stat    stat(2) by hand (the engine must know the type and size before
 *           it decides how to read), then OPENAT -> READ of size + 1 ->
 *           CLOSE, linked, on the ring: one system call for many files
 *   fstat   what the engine does now, in its order: OPENAT on the ring into
 *           a real descriptor, fstat(2) of it by hand, then READ of size + 1
 *           -> CLOSE on the ring: two ring trips a batch, one call a file
 *   statx   OPENAT -> STATX -> READ of CAP + 1 -> CLOSE, all on the ring
 *   nostat  OPENAT -> READ of CAP + 1 -> CLOSE: no type, no size (what the
 *           engine could not do without, shown to price the STATX)
 * Except in fstat mode, the open puts the file in a direct descriptor (a
 * slot of the ring's registered file table, one per file in flight) so
 * that the linked READ and CLOSE can name it before it exists.  INFLIGHT files are kept in
 * flight (default 32).  -s runs a submission-queue polling thread (SQPOLL)
 * and spins on the completion queue: no system call at all while it works;
 * -S the same but waits for completions in io_uring_enter; -a CPU pins the
 * poller to that CPU (IORING_SETUP_SQ_AFF) and the workers to the others.
 *
 * CAP (-b, KiB, default 256: the engine's largest whole-file read) bounds
 * one read; a file larger than that is finished plainly and counted.
 * -c hashes what was read (FNV-1a, per file, combined with the file's
 * place in the list) so that two modes can be shown to read the same bytes.
 * -E installs a seccomp filter that makes io_uring_setup fail with that
 * error, as Docker's default profile does: the detection then falls back.
 *
 * Prints one line: wall ms, then files, bytes read, errors, files read
 * plainly, io_uring_enter calls made, the slowest ring's setup, and with -c
 * the combined hash.  Why io_uring was not used goes to stderr; with -v,
 * also the mode and ring flags used. */
#define _GNU_SOURCE /* statx, syscall, sched_setaffinity, O_* flags */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/io_uring.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CHUNK ((size_t)128 << 10)   /* sysfloor's pread size, for plain */
#define MAX_THREADS 256
#define MAX_INFLIGHT 4096

enum mode { PLAIN, STAT, FSTAT, STATX, NOSTAT, N_MODES };
static const char *const mode_name[] = { "plain", "stat", "fstat", "statx", "nostat" };

/* The ops of one file, in user_data's low byte. */
enum op { OP_OPEN, OP_STATX, OP_READ, OP_CLOSE };

static char **names;
static int n_names, n_threads = 1, inflight = 32, check, verbose;
static enum mode mode = STAT;
static int sqpoll;           /* 0, 1 (spin on the CQ) or 2 (wait in enter) */
static int sq_cpu = -1;      /* -a: the poller's CPU, the workers elsewhere */
static size_t cap = (size_t)256 << 10;
static unsigned setup_flags; /* what this kernel took, found in probe() */

struct stats {
    unsigned long long bytes, enters, sum;
    long files, errors, plain;
};

/* The rings, mapped by hand (io_uring_setup(2)): the kernel's offsets into
 * the shared memory say where each field lives. */
struct ring {
    int fd, enter_fd;            /* enter_fd: the registered index, if any */
    unsigned enter_flags;        /* IORING_ENTER_REGISTERED_RING then */
    unsigned *sq_head, *sq_tail, *sq_mask, *sq_flags, *sq_array, sq_entries;
    unsigned *cq_head, *cq_tail, *cq_mask;
    struct io_uring_sqe *sqes;
    struct io_uring_cqe *cqes;
    unsigned tail, pending;      /* our SQ tail, SQEs not yet submitted */
    void *map;
    size_t map_len;
    void *sqe_map;
    size_t sqe_len;
};

/* One file in flight: its slot in the file table, buffer and statx. */
struct slot {
    int name;                    /* index in names, -1 if free */
    int left;                    /* CQEs still to come for it */
    int err;                     /* its first error (not -ECANCELED) */
    long got;                    /* what its READ returned */
    size_t want;                 /* what its READ asked for */
    struct statx stx;
};

static long sys_setup(unsigned entries, struct io_uring_params *p)
{
    return syscall(__NR_io_uring_setup, entries, p);
}

static long sys_enter(struct ring *r, unsigned submit, unsigned wait, unsigned flags)
{
    return syscall(__NR_io_uring_enter, r->enter_fd, submit, wait, flags | r->enter_flags,
                   NULL, (size_t)0);
}

static long sys_register(int fd, unsigned op, void *arg, unsigned n)
{
    return syscall(__NR_io_uring_register, fd, op, arg, n);
}

static double now_ms(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* FNV-1a over the bytes, continued from H. */
static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
    while (n--)
        h = (h ^ *p++) * 0x100000001b3ULL;
    return h;
}

/* A file's hash made to depend on its place in the list, then summed: the
 * order in which threads finish files does not change the total, a file's
 * bytes read for another's would. */
static uint64_t placed(uint64_t h, int i)
{
    h ^= (uint64_t)i * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 29);
}

/* File I, open on FD with size SIZE, from OFF to its end as sysfloor reads
 * it: 128 KiB preads (size + 1 at the end) into BUF, then close. */
static void read_fd(struct stats *s, int i, int fd, off_t size, off_t off, uint64_t h,
                    unsigned char *buf)
{
    ssize_t got;

    while ((got = pread(fd, buf, size - off < (off_t)CHUNK ? (size_t)(size - off) + 1 : CHUNK,
                        off)) > 0) {
        if (check)
            h = fnv(h, buf, (size_t)got);
        off += got;
    }
    close(fd);
    if (got < 0) {   /* a directory, say: an error, not a file read */
        s->errors++;
        return;
    }
    s->bytes += (unsigned long long)off;
    s->files++;
    if (check)
        s->sum += placed(h, i);
}

/* The rest of file I from OFF (0: all of it), plainly, with the engine's
 * calls (src/source.c): open, fstat, then read_fd.  sysfloor stats the
 * name before it opens it: two walks of the path where the engine makes
 * one, which the bench shows as the gap between floor-j1 and uring-plain. */
static void read_plain(struct stats *s, int i, off_t off, uint64_t h, unsigned char *buf)
{
    struct stat st;
    int fd = open(names[i], O_RDONLY | O_NONBLOCK);

    if (fd < 0) {
        s->errors++;
        return;
    }
    if (fstat(fd, &st) != 0) {
        s->errors++;
        close(fd);
        return;
    }
    read_fd(s, i, fd, st.st_size, off, h, buf);
}

static void ring_free(struct ring *r)
{
    if (r->sqe_map)
        munmap(r->sqe_map, r->sqe_len);
    if (r->map)
        munmap(r->map, r->map_len);
    close(r->fd);
}

/* A ring of at least ENTRIES SQEs with FLAGS, mapped; -errno on failure. */
static int ring_init(struct ring *r, unsigned entries, unsigned flags)
{
    struct io_uring_params p;
    struct io_uring_rsrc_update reg;
    unsigned char *m;
    size_t sq_len, cq_len;

    memset(r, 0, sizeof *r);
    memset(&p, 0, sizeof p);
    p.flags = flags;
    /* The poller sleeps after this long without work; ours never idles
     * that long until the end. */
    p.sq_thread_idle = 50;
    p.sq_thread_cpu = sq_cpu >= 0 ? (unsigned)sq_cpu : 0;
    r->fd = (int)sys_setup(entries, &p);
    if (r->fd < 0)
        return -errno;
    /* One mapping holds both rings on every kernel since 5.4
     * (IORING_FEAT_SINGLE_MMAP); older ones are not worth a second path. */
    if (!(p.features & IORING_FEAT_SINGLE_MMAP)) {
        close(r->fd);
        return -ENOSYS;
    }
    sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
    cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
    r->map_len = sq_len > cq_len ? sq_len : cq_len;
    r->map = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd,
                  (off_t)IORING_OFF_SQ_RING);
    r->sqe_len = p.sq_entries * sizeof(struct io_uring_sqe);
    r->sqe_map = mmap(NULL, r->sqe_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
                      r->fd, (off_t)IORING_OFF_SQES);
    if (r->map == MAP_FAILED || r->sqe_map == MAP_FAILED) {
        int err = errno;

        r->map = r->map == MAP_FAILED ? NULL : r->map;
        r->sqe_map = r->sqe_map == MAP_FAILED ? NULL : r->sqe_map;
        ring_free(r);
        return -err;
    }
    m = r->map;
    r->sq_head = (unsigned *)(m + p.sq_off.head);
    r->sq_tail = (unsigned *)(m + p.sq_off.tail);
    r->sq_mask = (unsigned *)(m + p.sq_off.ring_mask);
    r->sq_flags = (unsigned *)(m + p.sq_off.flags);
    r->sq_array = (unsigned *)(m + p.sq_off.array);
    r->sq_entries = p.sq_entries;
    r->cq_head = (unsigned *)(m + p.cq_off.head);
    r->cq_tail = (unsigned *)(m + p.cq_off.tail);
    r->cq_mask = (unsigned *)(m + p.cq_off.ring_mask);
    r->cqes = (struct io_uring_cqe *)(m + p.cq_off.cqes);
    r->sqes = r->sqe_map;
    r->tail = *r->sq_tail;
    /* A registered ring (5.18) spares io_uring_enter the lookup of its
     * descriptor; without it, the descriptor itself. */
    r->enter_fd = r->fd;
    reg.offset = ~0U;
    reg.resv = 0;
    reg.data = (uint64_t)r->fd;
    if (sys_register(r->fd, IORING_REGISTER_RING_FDS, &reg, 1) == 1) {
        r->enter_fd = (int)reg.offset;
        r->enter_flags = IORING_ENTER_REGISTERED_RING;
    }
    return 0;
}

/* The next SQE, cleared.  The caller keeps at most sq_entries in flight. */
static struct io_uring_sqe *sqe_get(struct ring *r)
{
    unsigned i = r->tail & *r->sq_mask;
    struct io_uring_sqe *e = &r->sqes[i];

    memset(e, 0, sizeof *e);
    r->sq_array[i] = i;
    r->tail++;
    r->pending++;
    return e;
}

/* Make the SQEs written visible: the kernel (or its poller) reads the tail
 * with acquire, so the entries must be stored before it. */
static void sq_publish(struct ring *r)
{
    __atomic_store_n(r->sq_tail, r->tail, __ATOMIC_RELEASE);
}

/* Queue READ (of WANT bytes into BUF) -> CLOSE of slot S's file: the
 * direct descriptor S, or the real descriptor FD if FD >= 0. */
static void queue_read_close(struct ring *r, struct slot *sl, unsigned s, int fd,
                             unsigned char *buf, size_t want)
{
    struct io_uring_sqe *e;

    /* One read asks a byte more than the file can hold, as the engine: the
     * short answer is the end.  A short read fails a soft link, so the
     * CLOSE hangs on a hard one and runs whatever the read did. */
    sl->want = want;
    e = sqe_get(r);
    e->opcode = IORING_OP_READ;
    e->fd = fd >= 0 ? fd : (int)s;
    e->flags = (fd >= 0 ? 0 : IOSQE_FIXED_FILE) | IOSQE_IO_HARDLINK;
    e->addr = (uint64_t)(uintptr_t)buf;
    e->len = (unsigned)want;
    e->off = 0;
    e->user_data = (uint64_t)s << 8 | OP_READ;
    sl->left++;
    e = sqe_get(r);
    e->opcode = IORING_OP_CLOSE;
    if (fd >= 0)
        e->fd = fd;
    else
        e->file_index = s + 1;    /* a direct descriptor: fd stays 0 */
    e->user_data = (uint64_t)s << 8 | OP_CLOSE;
    sl->left++;
}

/* Queue the ops of file NAME in slot S (its buffer BUF): all of them,
 * linked, or in fstat mode the open alone. */
static void queue_file(struct ring *r, struct slot *sl, unsigned s, int name,
                       unsigned char *buf, size_t want)
{
    struct io_uring_sqe *e;

    sl->name = name;
    sl->err = 0;
    sl->got = -1;
    sl->want = want;
    sl->left = 0;
    e = sqe_get(r);
    e->opcode = IORING_OP_OPENAT;
    e->fd = AT_FDCWD;
    e->addr = (uint64_t)(uintptr_t)names[name];
    e->open_flags = O_RDONLY | O_NONBLOCK;
    e->user_data = (uint64_t)s << 8 | OP_OPEN;
    sl->left++;
    if (mode == FSTAT)   /* a real descriptor, in the CQE */
        return;
    /* Opened into slot s of the file table (file_index is 1-based): the
     * READ and CLOSE below name that slot before the open has run.  A
     * failed open cancels the rest of the chain (a soft link). */
    e->file_index = s + 1;
    e->flags = IOSQE_IO_LINK;
    if (mode == STATX) {
        /* By name: STATX takes no fixed file (-EBADF), so it cannot look
         * at the descriptor just opened, only at the name again.  The
         * kernel always runs it on an io-wq worker (REQ_F_FORCE_ASYNC). */
        e = sqe_get(r);
        e->opcode = IORING_OP_STATX;
        e->fd = AT_FDCWD;
        e->addr = (uint64_t)(uintptr_t)names[name];
        e->len = STATX_TYPE | STATX_SIZE;
        e->off = (uint64_t)(uintptr_t)&sl->stx;   /* addr2: the buffer */
        e->flags = IOSQE_IO_LINK;
        e->user_data = (uint64_t)s << 8 | OP_STATX;
        sl->left++;
    }
    queue_read_close(r, sl, s, -1, buf, want);
}

/* fstat mode: the open of slot S's file gave FD.  Look at it as the engine
 * does, then queue its READ -> CLOSE, or read it plainly here (not a
 * regular file that fits one read). */
static void opened(struct ring *r, struct stats *s, struct slot *sl, unsigned si, int fd,
                  unsigned char *buf)
{
    struct stat st;

    if (fstat(fd, &st) != 0) {
        sl->err = errno;
        close(fd);
        return;
    }
    if (!S_ISREG(st.st_mode) || (size_t)st.st_size > cap) {
        s->plain++;
        read_fd(s, sl->name, fd, st.st_size, 0, 0xcbf29ce484222325ULL, buf);
        sl->err = -1;   /* done: nothing for finish() to count */
        return;
    }
    queue_read_close(r, sl, si, fd, buf, (size_t)st.st_size + 1);
}

/* File in slot SL is done: count it, hash it, finish it plainly if it was
 * larger than one read. */
static void finish(struct stats *s, struct slot *sl, unsigned char *buf)
{
    uint64_t h = 0xcbf29ce484222325ULL;

    if (sl->err) {
        s->errors += sl->err > 0;
        return;
    }
    if (check)
        h = fnv(h, buf, (size_t)sl->got);
    if ((size_t)sl->got == sl->want) {   /* filled: there may be more */
        s->plain++;
        read_plain(s, sl->name, (off_t)sl->got, h, buf);
        return;
    }
    s->bytes += (unsigned long long)sl->got;
    s->files++;
    if (check)
        s->sum += placed(h, sl->name);
}

struct worker {
    long k;
    struct stats s;
    double setup_ms;
};

static void *run_ring(struct worker *w)
{
    struct stats *s = &w->s;
    struct ring r;
    struct slot *slots;
    unsigned char *bufs;
    /* A slot's buffer takes one read of CAP + 1, or read_fd's chunks. */
    size_t stride = (cap > CHUNK ? cap : CHUNK) + 4096, len = stride * (size_t)inflight;
    unsigned entries = 1, *free_slot, n_free = 0, s_i;
    int *table, i, next = (int)w->k, busy = 0, rc;
    double t0 = now_ms();

    while (entries < 4U * (unsigned)inflight)
        entries <<= 1;
    rc = ring_init(&r, entries, setup_flags);
    if (rc < 0) {
        fprintf(stderr, "uringfloor: io_uring_setup: %s\n", strerror(-rc));
        exit(1);
    }
    /* The file table: one empty slot (-1) per file in flight. */
    table = malloc(sizeof *table * (size_t)inflight);
    slots = calloc((size_t)inflight, sizeof *slots);
    free_slot = malloc(sizeof *free_slot * (size_t)inflight);
    /* Buffers as sysfloor's: 2 MiB-aligned, offered to huge pages. */
    len = (len + ((size_t)2 << 20) - 1) & ~(((size_t)2 << 20) - 1);
    if (!table || !slots || !free_slot ||
        posix_memalign((void **)&bufs, (size_t)2 << 20, len) != 0) {
        fprintf(stderr, "uringfloor: out of memory\n");
        exit(1);
    }
#ifdef MADV_HUGEPAGE
    madvise(bufs, len, MADV_HUGEPAGE);
#endif
    for (i = 0; i < inflight; i++) {
        table[i] = -1;
        slots[i].name = -1;
        free_slot[n_free++] = (unsigned)(inflight - 1 - i);
    }
    if (sys_register(r.fd, IORING_REGISTER_FILES, table, (unsigned)inflight) != 0) {
        fprintf(stderr, "uringfloor: IORING_REGISTER_FILES: %s\n", strerror(errno));
        exit(1);
    }
    w->setup_ms = now_ms() - t0;

    while (next < n_names || busy > 0) {
        unsigned head, tail;

        /* Fill every free slot with the next files, in list order. */
        while (n_free > 0 && next < n_names) {
            size_t want = cap + 1;

            if (mode == STAT) {   /* in fstat mode, once opened */
                struct stat st;

                /* The engine decides by type and size before reading:
                 * what is not a regular file that fits goes plainly. */
                if (stat(names[next], &st) != 0) {
                    s->errors++;
                    next += n_threads;
                    continue;
                }
                if (!S_ISREG(st.st_mode) || (size_t)st.st_size > cap) {
                    s->plain++;
                    read_plain(s, next, 0, 0xcbf29ce484222325ULL, bufs);
                    next += n_threads;
                    continue;
                }
                want = (size_t)st.st_size + 1;
            }
            s_i = free_slot[--n_free];
            queue_file(&r, &slots[s_i], s_i, next, bufs + stride * s_i, want);
            busy++;
            next += n_threads;
        }
        if (busy == 0)   /* all read plainly: nothing to wait for */
            continue;
        /* Submit and wait for at least one completion.  Without a poller
         * this one call opens, reads and closes every file just queued:
         * each op runs inline when it can (a cached open, a read from
         * the page cache, the close), the rest on io-wq workers. */
        sq_publish(&r);
        if (sqpoll) {
            /* The tail stored before the poller's flags are read: it sets
             * NEED_WAKEUP and then looks at the tail once more. */
            __atomic_thread_fence(__ATOMIC_SEQ_CST);
            /* The poller takes the SQEs by itself; it needs a call only
             * when it has gone to sleep. */
            if (__atomic_load_n(r.sq_flags, __ATOMIC_ACQUIRE) & IORING_SQ_NEED_WAKEUP) {
                sys_enter(&r, 0, 0, IORING_ENTER_SQ_WAKEUP);
                s->enters++;
            }
            r.pending = 0;
            if (sqpoll == 1) {
                while (__atomic_load_n(r.cq_tail, __ATOMIC_ACQUIRE) == *r.cq_head) {
                    /* Nothing else to do: a spinning consumer.  It must
                     * not share a CPU with the poller (-a), or each batch
                     * waits for the scheduler to switch them. */
#if defined(__x86_64__) || defined(__i386__)
                    __builtin_ia32_pause();
#endif
                }
            } else {
                while (sys_enter(&r, 0, 1, IORING_ENTER_GETEVENTS) < 0 && errno == EINTR)
                    ;
                s->enters++;
            }
        } else {
            for (;;) {
                long got = sys_enter(&r, r.pending, 1, IORING_ENTER_GETEVENTS);

                s->enters++;
                if (got < 0 && errno != EINTR && errno != EAGAIN && errno != EBUSY) {
                    fprintf(stderr, "uringfloor: io_uring_enter: %s\n", strerror(errno));
                    exit(1);
                }
                if (got > 0)
                    r.pending -= (unsigned)got;
                if (r.pending == 0)
                    break;
            }
        }
        /* Reap every completion there is. */
        head = *r.cq_head;
        tail = __atomic_load_n(r.cq_tail, __ATOMIC_ACQUIRE);
        for (; head != tail; head++) {
            struct io_uring_cqe *c = &r.cqes[head & *r.cq_mask];
            unsigned si = (unsigned)(c->user_data >> 8);
            struct slot *sl = &slots[si];
            int op = (int)(c->user_data & 0xff);

            if (op == OP_OPEN && mode == FSTAT && c->res >= 0)
                opened(&r, s, sl, si, c->res, bufs + stride * si);
            else if (op == OP_READ && c->res >= 0)
                sl->got = c->res;
            else if (c->res < 0 && c->res != -ECANCELED && !sl->err)
                sl->err = -c->res;
            else if (op == OP_STATX && c->res == 0 && !S_ISREG(sl->stx.stx_mode))
                sl->err = EINVAL;   /* the engine would read it in order */
            if (--sl->left == 0) {
                finish(s, sl, bufs + stride * si);
                sl->name = -1;
                free_slot[n_free++] = si;
                busy--;
            }
        }
        __atomic_store_n(r.cq_head, head, __ATOMIC_RELEASE);
    }
    ring_free(&r);
    free(bufs);
    free(free_slot);
    free(slots);
    free(table);
    return NULL;
}

static void *run_plain(struct worker *w)
{
    unsigned char *buf;
    int i;

    if (posix_memalign((void **)&buf, (size_t)2 << 20, (size_t)2 << 20) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(buf, (size_t)2 << 20, MADV_HUGEPAGE);
#endif
    for (i = (int)w->k; i < n_names; i += n_threads)
        read_plain(&w->s, i, 0, 0xcbf29ce484222325ULL, buf);
    free(buf);
    return NULL;
}

static void *run(void *arg)
{
    if (sq_cpu >= 0) {
        /* Off the poller's CPU: every CPU we may use but that one. */
        cpu_set_t set;

        if (sched_getaffinity(0, sizeof set, &set) == 0) {
            CPU_CLR(sq_cpu, &set);
            if (CPU_COUNT(&set) > 0)
                sched_setaffinity(0, sizeof set, &set);
        }
    }
    return mode == PLAIN ? run_plain(arg) : run_ring(arg);
}

/* Is io_uring here, allowed, and able to do this mode's ops with direct
 * descriptors?  On "no", says why and returns 0: the caller goes plain.
 * Also settles setup_flags: the cheapest completion mode the kernel has. */
static int probe(void)
{
    static const unsigned tries[] = {
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN, /* 6.1 */
        IORING_SETUP_COOP_TASKRUN,                               /* 5.19 */
        0,
    };
    struct io_uring_params p;
    struct io_uring_probe *pr;
    int fd = -1, ops[4] = { IORING_OP_OPENAT, IORING_OP_READ, IORING_OP_CLOSE, IORING_OP_STATX };
    int n_ops = mode == STATX ? 4 : 3, i, ok = 1;
    size_t t;

    for (t = 0; t < sizeof tries / sizeof tries[0] && fd < 0; t++) {
        memset(&p, 0, sizeof p);
        /* Probed without the poller (its thread would outlive the probe a
         * while); the worker's ring asks for it. */
        p.flags = tries[t] & ~(sqpoll ? IORING_SETUP_DEFER_TASKRUN : 0U);
        fd = (int)sys_setup(4, &p);
        /* ENOSYS: no io_uring in this kernel (or a seccomp filter that
         * says so); EPERM: forbidden (kernel.io_uring_disabled, seccomp,
         * as Docker's default profile).  Only EINVAL means "try fewer
         * flags". */
        if (fd < 0 && errno != EINVAL) {
            fprintf(stderr, "# uringfloor: io_uring_setup: %s: the plain path\n",
                    strerror(errno));
            return 0;
        }
    }
    if (fd < 0) {
        fprintf(stderr, "# uringfloor: io_uring_setup refuses every flag set: the plain path\n");
        return 0;
    }
    setup_flags = p.flags;
    if (sqpoll)
        setup_flags |= IORING_SETUP_SQPOLL | (sq_cpu >= 0 ? IORING_SETUP_SQ_AFF : 0U);
    /* Linked requests get their (fixed) file when they run, not when they
     * are submitted, only since 5.17: before, the READ after an OPENAT into
     * a slot would find the slot empty. */
    if (!(p.features & IORING_FEAT_LINKED_FILE)) {
        fprintf(stderr, "# uringfloor: no IORING_FEAT_LINKED_FILE (Linux < 5.17): "
                        "the plain path\n");
        close(fd);
        return 0;
    }
    pr = calloc(1, sizeof *pr + 256 * sizeof pr->ops[0]);
    if (!pr || sys_register(fd, IORING_REGISTER_PROBE, pr, 256) != 0) {
        fprintf(stderr, "# uringfloor: IORING_REGISTER_PROBE: %s: the plain path\n",
                strerror(errno));
        free(pr);
        close(fd);
        return 0;
    }
    for (i = 0; i < n_ops; i++)
        if (ops[i] > pr->last_op || !(pr->ops[ops[i]].flags & IO_URING_OP_SUPPORTED)) {
            fprintf(stderr, "# uringfloor: op %d not supported: the plain path\n", ops[i]);
            ok = 0;
        }
    free(pr);
    close(fd);
    return ok;
}

/* -E: make io_uring_setup fail with ERR in this process, as a container's
 * seccomp profile would (no architecture check: it only ever denies). */
static void forbid_uring(int err)
{
    struct sock_filter f[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned)err & SECCOMP_RET_DATA)),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog prog;

    prog.len = (unsigned short)(sizeof f / sizeof f[0]);
    prog.filter = f;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1L, 0L, 0L, 0L) != 0 ||
        prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0L, 0L) != 0) {
        perror("uringfloor: seccomp");
        exit(2);
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: uringfloor [-t THREADS] [-m plain|stat|fstat|statx|nostat]"
                    " [-n INFLIGHT] [-s|-S [-a CPU]] [-b KIB] [-c] [-v] [-E EPERM|ENOSYS]"
                    " FILE...\n");
    exit(2);
}

int main(int argc, char **argv)
{
    static struct worker w[MAX_THREADS];
    pthread_t t[MAX_THREADS];
    struct stats all;
    double t0, setup = 0;
    long i;
    int opt;

    while ((opt = getopt(argc, argv, "t:m:n:sSa:b:cvE:")) != -1) {
        switch (opt) {
        case 't': n_threads = atoi(optarg); break;
        case 'n': inflight = atoi(optarg); break;
        case 's': sqpoll = 1; break;
        case 'S': sqpoll = 2; break;
        case 'a': sq_cpu = atoi(optarg); break;
        case 'b': cap = (size_t)atol(optarg) << 10; break;
        case 'c': check = 1; break;
        case 'v': verbose = 1; break;
        case 'm':
            for (i = 0; i < N_MODES && strcmp(optarg, mode_name[i]) != 0; i++)
                ;
            if (i == N_MODES)
                usage();
            mode = (enum mode)i;
            break;
        case 'E':
            forbid_uring(strcmp(optarg, "ENOSYS") == 0 ? ENOSYS : EPERM);
            break;
        default: usage();
        }
    }
    if (optind >= argc || n_threads < 1 || n_threads > MAX_THREADS || inflight < 1 ||
        inflight > MAX_INFLIGHT || cap < 4096 || cap > ((size_t)1 << 30) ||
        (sq_cpu >= 0 && (!sqpoll || sq_cpu >= CPU_SETSIZE)))
        usage();
    names = argv + optind;
    n_names = argc - optind;
    t0 = now_ms();
    if (mode != PLAIN && !probe())
        mode = PLAIN;
    if (verbose) {
        fprintf(stderr, "# uringfloor: %s, %d thread(s)", mode_name[mode], n_threads);
        if (mode != PLAIN)
            fprintf(stderr, ", %d in flight, %s, setup flags %#x", inflight,
                    sqpoll == 1 ? "SQPOLL (spinning)" : sqpoll ? "SQPOLL (waiting)" : "no SQPOLL",
                    setup_flags);
        fprintf(stderr, "\n");
    }
    for (i = 0; i < n_threads; i++) {
        w[i].k = i;
        pthread_create(&t[i], NULL, run, &w[i]);
    }
    memset(&all, 0, sizeof all);
    for (i = 0; i < n_threads; i++) {
        pthread_join(t[i], NULL);
        all.bytes += w[i].s.bytes;
        all.enters += w[i].s.enters;
        all.sum += w[i].s.sum;
        all.files += w[i].s.files;
        all.errors += w[i].s.errors;
        all.plain += w[i].s.plain;
        setup = w[i].setup_ms > setup ? w[i].setup_ms : setup;
    }
    printf("%.2f ms files %ld bytes %llu errors %ld plain %ld enters %llu setup %.2f ms",
           now_ms() - t0, all.files, all.bytes, all.errors, all.plain, all.enters, setup);
    if (check)
        printf(" sum %016llx", all.sum);
    printf("\n");
    return all.errors != 0;
}
