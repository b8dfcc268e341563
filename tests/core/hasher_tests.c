/* The hasher (src/hasher.c) driven through a flow of our own: this file
 * defines the flow.h calls a hasher makes, and plays the reader, handing
 * each input's chunks out as flow_next_locked is asked.  A script says what
 * each input does, so that a state the threads reach only by chance (every
 * task slot spent on inputs that fail inside one gather) comes every time;
 * each result must arrive once, with md5.c's digest or the read's error. */
#include <errno.h>
#include <fcntl.h>
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
#define PIECE 640   /* bytes a chunk of a good input holds, but its last */

struct fake_input {
    const unsigned char *data;
    size_t len, given;   /* bytes, and bytes handed out in chunks so far */
    int fails;           /* its reading failed with EIO before any chunk */
    int results;
    struct result r;
};

static struct {
    struct fake_input in[INPUTS];
    size_t n, take;
    int unexpected;      /* calls the script never leads to */
} ff;

/* ---- The flow, as far as a hasher stepping in this thread uses it ---- */

void flow_lock(void) {}
void flow_unlock(void) {}
int flow_stopping_locked(void) { return 0; }
void flow_lanes_locked(uint64_t hashed, uint64_t offered) { (void)hashed, (void)offered; }
void flow_progress_locked(size_t in, uintmax_t hashed) { (void)in, (void)hashed; }
struct chunk *flow_buf_locked(void) { return NULL; }   /* the reader here reads all */

void flow_sleep_locked(struct flow_sleeper *s, int room)
{
    (void)s, (void)room;
    ff.unexpected++;
}

void flow_opened_locked(size_t in, int fd, off_t size, int handed)
{
    (void)in, (void)fd, (void)size, (void)handed;
    ff.unexpected++;   /* every input comes open */
}

void flow_read_locked(size_t in, off_t off, int ended, int err, int later)
{
    (void)in, (void)off, (void)ended, (void)err, (void)later;
    ff.unexpected++;   /* the hasher never reads here */
}

int flow_take_locked(size_t *in, int *fd, off_t *size, const char **name, int alone,
                     struct flow_sleeper *s)
{
    (void)alone, (void)s;
    if (ff.take == ff.n)
        return 0;
    *in = ff.take++;
    *fd = open("/dev/null", O_RDONLY);   /* the hasher closes it */
    *size = (off_t)ff.in[*in].len;
    *name = NULL;
    return 1;
}

/* The reader read the next piece of IN, or its reading failed. */
enum flow_next flow_next_locked(size_t in, struct chunk **c, off_t *off, int *err)
{
    struct fake_input *x = &ff.in[in];
    size_t len = x->len - x->given < PIECE ? x->len - x->given : PIECE;

    *off = (off_t)x->given;
    if (x->fails) {
        *err = EIO;
        return FLOW_FAILED;
    }
    if (x->given == x->len && x->len > 0) {
        ff.unexpected++;   /* asked again after its final chunk */
        return FLOW_WAIT;
    }
    *c = xmalloc(sizeof **c);
    (*c)->data = xmalloc(PIECE + MD5_BLOCK_SIZE + MD5_PAD_MAX);
    memcpy((*c)->data, x->data + x->given, len);
    (*c)->off = (off_t)x->given;
    (*c)->len = len;
    x->given += len;
    (*c)->final = x->given == x->len;
    return FLOW_CHUNK;
}

void flow_unbuf_locked(struct chunk *c, int own)
{
    ff.unexpected += own != 0;
    free(c->data);
    free(c);
}

void flow_done_locked(size_t in, const struct result *r)
{
    ff.in[in].results++;
    ff.in[in].r = *r;
}

/* The hasher reads nothing itself here, nor opens. */
enum source_got source_read(int fd, unsigned char *buf, size_t cap, off_t at, off_t size, int nowait,
                            size_t *got)
{
    (void)fd, (void)buf, (void)cap, (void)at, (void)size, (void)nowait, (void)got;
    ff.unexpected++;
    errno = EIO;
    return SOURCE_FAILED;
}

int source_open_quick(const char *name, off_t *size, int *in_order)
{
    (void)name, (void)size, (void)in_order;
    ff.unexpected++;
    errno = ENOENT;
    return -1;
}

/* ---- The tests ---- */

/* Step a hasher of CAP lanes over the script until every input has its
 * result; count the inputs whose result is wrong, missing or repeated. */
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
    for (i = 0; i < ff.n; i++) {
        const struct fake_input *x = &ff.in[i];
        unsigned char want[MD5_DIGEST_SIZE];
        struct md5_ctx ctx;

        md5_init(&ctx);
        md5_update(&ctx, x->data, x->len);
        md5_final(&ctx, want);
        if (x->results != 1)
            wrong++;
        else if (x->fails)
            wrong += x->r.status != RESULT_READ_FAILED || x->r.err != EIO;
        else
            wrong += x->r.status != RESULT_OK || x->r.hashed != x->len ||
                     memcmp(x->r.digest, want, sizeof want) != 0;
    }
    return wrong;
}

static void script(const unsigned char *data, size_t len, size_t n, size_t failing, uint64_t seed)
{
    size_t i;

    memset(&ff, 0, sizeof ff);
    ff.n = n;
    for (i = 0; i < n; i++) {
        ff.in[i].len = (size_t)(xorshift(&seed) % (4 * PIECE));
        ff.in[i].data = data + (size_t)(xorshift(&seed) % (len - ff.in[i].len + 1));
        ff.in[i].fails = i < failing;
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
    script(data, len, INPUTS, MD5_MB_MAX_LANES + 2, 1);
    wrong = run_script(widest, "failing reads");
    report(wrong == 0 && ff.unexpected == 0 && ff.take == ff.n,
           "hasher: %d inputs whose reads fail in one gather, then good ones, %u lanes: each result "
           "once and right (%zu wrong, %d unexpected calls)",
           MD5_MB_MAX_LANES + 2, widest, wrong, ff.unexpected);
    /* Good inputs of mixed sizes, chunk by chunk, at every lane count. */
    wrong = 0;
    for (cap = 1; cap <= widest; cap++) {
        script(data, len, INPUTS, cap % 5, cap + 100);
        wrong += run_script(cap, "mixed");
        unexpected += ff.unexpected;
    }
    report(wrong == 0 && unexpected == 0,
           "hasher: %d inputs in chunks, a few failing, every lane count from 1 to %u: each result "
           "once and right (%zu wrong)", INPUTS, widest, wrong);
}
