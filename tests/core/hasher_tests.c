/* The hasher (src/hasher.c) driven through a flow of our own: this file
 * defines the flow.h calls a hasher makes and the two of source.h it makes
 * (its own reads, its opens by name), and plays the reader, handing each
 * input's chunks out as flow_next_locked is asked.  A script says what each
 * input does, so that states the threads reach only by chance (every task
 * slot spent on inputs that fail inside one gather) come every time; each
 * input's outcome must arrive once and be right (md5.c's digest, the
 * error, or the input handed back), and every buffer must come back. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/compress/mb.h"
#include "../../src/flow.h"
#include "../../src/hasher.h"
#include "../../src/md5.h"
#include "../../src/source.h"
#include "testlib.h"

#define INPUTS 48
#define PIECE 640   /* bytes a chunk holds, but an input's last */

/* What an input does: read by the reader (its reading may fail), or by the
 * hasher itself (which may find it not in memory, the reader then taking
 * over, or fail; or, the run cold, may read only what the page cache holds:
 * its first piece); opened by the hasher by name, with each outcome of
 * source_open_quick. */
enum how {
    READER_OK, READER_FAILS, OWN_OK, OWN_LATER, OWN_FAILS, OWN_PROBED,
    NAME_OK, NAME_ENOENT, NAME_EMFILE, NAME_MAIN_ONLY, NAME_IN_ORDER, HOWS
};

struct fake_input {
    enum how how;
    const unsigned char *data;
    size_t len, given;   /* bytes, and bytes handed out or read so far */
    char name[8];
    int fd, by_reader;   /* once LATER, the reader reads the rest */
    int opened, handed, results;
    struct result r;
};

static struct {
    struct fake_input in[INPUTS];
    size_t n, take;
    long live;           /* buffers handed to the hasher, not yet back */
    int unexpected;      /* calls the script never leads to */
} ff;

static struct chunk *new_chunk(size_t cap)
{
    struct chunk *c = xmalloc(sizeof *c);

    c->data = xmalloc(cap + MD5_BLOCK_SIZE + MD5_PAD_MAX);
    ff.live++;
    return c;
}

static int by_name(enum how how)
{
    return how >= NAME_OK;
}

/* ---- The flow, as far as a hasher stepping in this thread uses it ---- */

void flow_lock(void) {}
void flow_unlock(void) {}
int flow_stopping_locked(void) { return 0; }
int flow_join(struct flow_sleeper *s) { (void)s; return 0; }
void flow_leave(struct flow_sleeper *s) { (void)s; }
void flow_lanes_locked(uint64_t hashed, uint64_t offered, uint64_t held_back)
{
    (void)hashed, (void)offered, (void)held_back;
}
uintmax_t flow_queued_locked(void) { return 0; }
struct chunk *flow_buf_locked(void) { return new_chunk(CHUNK); }
int flow_closing_locked(size_t in) { (void)in; return 1; }   /* no reader using it */

void flow_sleep_locked(struct flow_sleeper *s, int room)
{
    (void)s, (void)room;
    ff.unexpected++;
}

/* What the hasher tells of input IN: opened by name, or handed back; its
 * own reads; its result. */
void flow_tell_locked(size_t in, const struct flow_report *p, int progress)
{
    struct fake_input *x = &ff.in[in];

    (void)progress;
    if (p->opened || p->handed) {
        x->opened++;
        x->handed = p->handed;
        ff.unexpected += !by_name(x->how) || (!p->handed && (p->fd < 0 || p->size != (off_t)x->len));
        if (p->handed && p->fd >= 0)
            close(p->fd);   /* the caller's now */
    }
    if (p->read && !p->done && !p->handed) {
        ff.unexpected += p->read_at != (off_t)x->given;
        if (p->later) {
            ff.unexpected += !(x->how == OWN_LATER || (x->how == OWN_PROBED && p->later == 2));
            x->by_reader = 1;
        }
    }
    if (p->done) {
        x->results++;
        x->r = p->r;
    }
}

int flow_take_locked(size_t *in, int *fd, off_t *size, const char **name, int alone,
                     struct flow_sleeper *s)
{
    struct fake_input *x;

    (void)alone, (void)s;
    if (ff.take == ff.n)
        return 0;
    *in = ff.take++;
    x = &ff.in[*in];
    *fd = x->fd = by_name(x->how) ? -1 : open("/dev/null", O_RDONLY);   /* the hasher closes it */
    *size = by_name(x->how) ? -1 : (off_t)x->len;
    *name = by_name(x->how) ? x->name : NULL;
    return 1;
}

/* The reader read the next piece of IN, or its reading failed; or the
 * hasher is to read it. */
enum flow_next flow_next_locked(size_t in, struct chunk **c, off_t *off, int *err)
{
    struct fake_input *x = &ff.in[in];
    size_t len = x->len - x->given < PIECE ? x->len - x->given : PIECE;

    *off = (off_t)x->given;
    if (x->how == READER_FAILS) {
        *err = EIO;
        return FLOW_FAILED;
    }
    if (x->how != READER_OK && !x->by_reader)
        return x->how == OWN_PROBED ? FLOW_PROBE : FLOW_READ;
    if (x->given == x->len && x->len > 0) {
        ff.unexpected++;   /* asked again after its final chunk */
        return FLOW_WAIT;
    }
    *c = new_chunk(PIECE);
    memcpy((*c)->data, x->data + x->given, len);
    (*c)->off = (off_t)x->given;
    (*c)->len = len;
    x->given += len;
    (*c)->final = x->given == x->len;
    return FLOW_CHUNK;
}

void flow_unbuf_locked(struct chunk *c, int own)
{
    (void)own;
    ff.live--;
    free(c->data);
    free(c);
}

/* The input open on FD, of SIZE bytes, or NULL.  A descriptor's number
 * comes back once the hasher closes it, maybe before the result of the
 * input it was is told: the length, unique in a script, tells the inputs
 * apart. */
static struct fake_input *open_as(int fd, off_t size)
{
    struct fake_input *x = ff.in;

    while (x < ff.in + ff.n && !(x->fd == fd && size == (off_t)x->len && x->results == 0))
        x++;
    return x < ff.in + ff.n ? x : NULL;
}

/* Does the page cache hold FD's bytes from AT to END (its size: every input
 * is shorter than a chunk)?  All of them but what the reader takes over. */
int source_cached(int fd, off_t at, off_t end)
{
    const struct fake_input *x = open_as(fd, end);

    if (!x) {
        ff.unexpected++;
        return -1;
    }
    return !((x->how == OWN_LATER || x->how == OWN_PROBED) && at > 0);
}

/* The hasher's own read of the input open on FD, never waiting. */
enum source_got source_read(int fd, unsigned char *buf, size_t cap, off_t at, off_t size, int *nowait,
                            size_t *got)
{
    struct fake_input *x = open_as(fd, size);
    size_t n;

    *got = 0;
    if (!x || x->by_reader || !nowait || !*nowait || at != (off_t)x->given || cap < PIECE) {
        ff.unexpected++;
        errno = EBADF;
        return SOURCE_FAILED;
    }
    if (x->how == OWN_FAILS && (at > 0 || x->len <= PIECE)) {   /* part way, where it can */
        errno = EIO;
        return SOURCE_FAILED;
    }
    if ((x->how == OWN_LATER || x->how == OWN_PROBED) && at > 0) {
        ff.unexpected += x->how == OWN_PROBED;   /* a probe, not a read */
        return SOURCE_LATER;   /* from here on, the reader's */
    }
    n = x->len - x->given < PIECE ? x->len - x->given : PIECE;
    memcpy(buf, x->data + x->given, n);
    x->given += n;
    *got = n;
    return x->given == x->len ? SOURCE_END : SOURCE_MORE;
}

/* The hasher's open of an input taken by name: what its script says. */
int source_open_quick(const char *name, off_t *size, int *in_order)
{
    struct fake_input *x = &ff.in[strtoul(name + 1, NULL, 10)];

    *size = -1;
    *in_order = 1;
    switch (x->how) {
    case NAME_OK:
        *size = (off_t)x->len;
        *in_order = 0;
        return x->fd = open("/dev/null", O_RDONLY);
    case NAME_IN_ORDER:   /* a FIFO, or the output */
        return open("/dev/null", O_RDONLY);
    case NAME_ENOENT:
        errno = ENOENT;
        return -1;
    case NAME_EMFILE:
        errno = EMFILE;
        return -1;
    case NAME_MAIN_ONLY:
        return -2;
    default:
        ff.unexpected++;
        errno = EBADF;
        return -1;
    }
}

/* ---- The tests ---- */

/* Is input X's outcome what its script leads to? */
static int right(const struct fake_input *x)
{
    unsigned char want[MD5_DIGEST_SIZE];
    struct md5_ctx ctx;

    md5_init(&ctx);
    md5_update(&ctx, x->data, x->len);
    md5_final(&ctx, want);
    switch (x->how) {
    case READER_FAILS:
    case OWN_FAILS:
        return x->results == 1 && x->r.status == RESULT_READ_FAILED && x->r.err == EIO && !x->opened;
    case NAME_ENOENT:
        return x->results == 1 && x->r.status == RESULT_OPEN_FAILED && x->r.err == ENOENT && !x->opened;
    case NAME_EMFILE:
    case NAME_MAIN_ONLY:
    case NAME_IN_ORDER:   /* handed back unhashed, to hash in order */
        return x->results == 0 && x->opened == 1 && x->handed;
    default:
        return x->results == 1 && x->r.status == RESULT_OK && x->r.hashed == x->len &&
               memcmp(x->r.digest, want, sizeof want) == 0 && x->opened == (x->how == NAME_OK) &&
               !x->handed;
    }
}

/* Step a hasher of CAP lanes over the script until it has nothing to do;
 * count the inputs whose outcome is wrong, missing or repeated, and the
 * buffers it kept. */
static size_t run_script(unsigned cap, const char *what)
{
    struct hasher *h = hasher_new(cap, 0);
    size_t i, wrong = 0, steps = 0;

    if (!h) {
        report(0, "hasher: %s: no memory for a hasher", what);
        return 1;
    }
    while (steps++ < 100000 && hasher_step(h) > 0)
        continue;
    hasher_free(h);
    for (i = 0; i < ff.n; i++)
        wrong += !right(&ff.in[i]);
    return wrong + (ff.live != 0) + (ff.take != ff.n);
}

/* N inputs of up to 4 pieces from DATA, no two of one length: the first
 * FAILING fail at the reader, the rest do as the seed draws (all good
 * without MIXED). */
static void script(const unsigned char *data, size_t len, size_t n, size_t failing, int mixed,
                   uint64_t seed)
{
    size_t i, base = (size_t)(xorshift(&seed) % (4 * PIECE));

    memset(&ff, 0, sizeof ff);
    ff.n = n;
    for (i = 0; i < n; i++) {
        struct fake_input *x = &ff.in[i];

        x->len = (base + 97 * i) % (4 * PIECE);   /* no two alike (97 is prime to it) */
        x->data = data + (size_t)(xorshift(&seed) % (len - x->len + 1));
        x->how = i < failing ? READER_FAILS : mixed ? (enum how)(xorshift(&seed) % HOWS) : READER_OK;
        x->fd = -1;
        snprintf(x->name, sizeof x->name, "n%zu", i);
    }
}

void hasher_tests(const unsigned char *data, size_t len)
{
    unsigned widest = md5_mb_kernels()[0]->lanes, cap;
    size_t wrong;
    int unexpected = 0;

    /* More inputs fail in one gather than there are task slots
     * (MD5_MB_MAX_LANES): each leaves its lane at once but holds its slot
     * until the next lock, so a free lane is no free slot. */
    script(data, len, INPUTS, MD5_MB_MAX_LANES + 2, 0, 1);
    wrong = run_script(widest, "failing reads");
    report(wrong == 0 && ff.unexpected == 0,
           "hasher: %d inputs whose reads fail in one gather, then good ones, %u lanes: each result "
           "once and right (%zu wrong, %d unexpected calls)",
           MD5_MB_MAX_LANES + 2, widest, wrong, ff.unexpected);
    /* Every kind of input, mixed, at every lane count. */
    wrong = 0;
    for (cap = 1; cap <= widest; cap++) {
        script(data, len, INPUTS, cap % 3, 1, cap + 100);
        wrong += run_script(cap, "mixed");
        unexpected += ff.unexpected;
    }
    report(wrong == 0 && unexpected == 0,
           "hasher: %d inputs read by the reader or by the hasher (not in memory part way, read only "
           "where the page cache holds them, failing), opened by name (failing, out of descriptors, "
           "handed back), every lane count from 1 to %u: each outcome once and right, every buffer "
           "back (%zu wrong, %d unexpected calls)",
           INPUTS, widest, wrong, unexpected);
}
