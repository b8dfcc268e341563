/* The lane-kernel contract (src/compress/mb.h), and every kernel this CPU
 * runs against the portable block function and against md5.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../src/compress/compress.h"
#include "../../src/compress/mb.h"
#include "../../src/md5.h"
#include "testlib.h"

/* A region of pages where each message may end right before a PROT_NONE
 * page, so a kernel that reads past a lane's blocks faults. */
struct guarded {
    unsigned char *map;
    size_t page, slots, slot_pages; /* slot = slot_pages data pages + 1 guard */
};

static int guarded_init(struct guarded *g, size_t slots, size_t max_len)
{
    size_t i;

    g->page = (size_t)sysconf(_SC_PAGESIZE);
    g->slots = slots;
    g->slot_pages = (max_len + 16 + g->page - 1) / g->page;
    g->map = mmap(NULL, slots * (g->slot_pages + 1) * g->page, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (g->map == MAP_FAILED)
        return -1;
    for (i = 0; i < slots; i++)
        if (mprotect(g->map + ((i + 1) * (g->slot_pages + 1) - 1) * g->page, g->page, PROT_NONE) != 0)
            return -1;
    return 0;
}

/* Where LEN bytes go in SLOT: flush against the guard page, or at offset
 * 0..15 from the slot's start. */
static unsigned char *guarded_place(const struct guarded *g, size_t slot, size_t len, uint64_t *seed)
{
    unsigned char *start = g->map + slot * (g->slot_pages + 1) * g->page;
    uint64_t r = xorshift(seed);

    if (r % 2)
        return start + g->slot_pages * g->page - len;
    return start + (r >> 8) % 16;
}

static void guarded_free(struct guarded *g)
{
    munmap(g->map, g->slots * (g->slot_pages + 1) * g->page);
}

static void random_lanes(struct md5_mb_lanes *l, uint64_t *seed)
{
    size_t w, i;

    for (w = 0; w < 4; w++)
        for (i = 0; i < MD5_MB_MAX_LANES; i++)
            l->state[w][i] = (uint32_t)xorshift(seed);
}

/* nblocks == 0 changes nothing; idle lanes and lanes past the kernel's
 * width keep their state and pointer; busy lanes advance 64 bytes a block. */
static void test_contract(const struct md5_mb_kernel *k, const unsigned char *data)
{
    struct md5_mb_lanes l, before;
    uint64_t seed = 99;
    unsigned i, w, bad = 0, round;

    for (round = 0; round < 20; round++) {
        size_t n = round % 4;

        random_lanes(&l, &seed);
        for (i = 0; i < MD5_MB_MAX_LANES; i++)
            l.in[i] = xorshift(&seed) % 3 == 0 ? NULL : data + 64 * i + round;
        before = l;
        k->run(&l, n);
        for (i = 0; i < MD5_MB_MAX_LANES; i++) {
            int busy = i < k->lanes && before.in[i] != NULL && n > 0;

            bad += l.in[i] != (busy ? before.in[i] + 64 * n : before.in[i]);
            for (w = 0; w < 4; w++)
                bad += busy == (l.state[w][i] == before.state[w][i]);
        }
    }
    report(bad == 0, "mb %s: 0 blocks is a no-op; idle and out-of-range lanes untouched; pointers advance",
           k->name);
}

/* Every lane against md5_compress_portable: random states, 0-24 blocks from
 * random data, alignments 0..15 or flush against a guard page, some lanes
 * idle. */
static void test_against_portable(const struct md5_mb_kernel *k, const unsigned char *data, size_t len)
{
    enum { MAX_BLOCKS = 24 };
    struct guarded g;
    uint64_t seed = 4242;
    unsigned i, w, bad = 0, iter;

    if (guarded_init(&g, MD5_MB_MAX_LANES, 64 * MAX_BLOCKS) != 0) {
        report(0, "mb %s: guard page mmap failed", k->name);
        return;
    }
    for (iter = 0; iter < 300; iter++) {
        struct md5_mb_lanes l;
        uint32_t want[MD5_MB_MAX_LANES][4];
        size_t n = (size_t)(xorshift(&seed) % (MAX_BLOCKS + 1));

        random_lanes(&l, &seed);
        for (i = 0; i < k->lanes; i++) {
            size_t start = (size_t)(xorshift(&seed) % (len - 64 * MAX_BLOCKS));
            unsigned char *p = guarded_place(&g, i, 64 * n, &seed);

            memcpy(p, data + start, 64 * n);
            l.in[i] = xorshift(&seed) % 8 == 0 ? NULL : p;
            md5_mb_get_lane(&l, i, want[i]);
            if (l.in[i])
                md5_compress_portable(want[i], p, n);
        }
        k->run(&l, n);
        for (i = 0; i < k->lanes; i++)
            for (w = 0; w < 4; w++)
                bad += l.state[w][i] != want[i][w];
    }
    guarded_free(&g);
    report(bad == 0, "mb %s agrees with portable: 300 runs x %u lanes, 0-%d blocks, alignments 0-15, guard pages",
           k->name, k->lanes, MAX_BLOCKS);
}

struct message {
    const unsigned char *p;
    size_t len;
    unsigned char digest[MD5_DIGEST_SIZE];
};

/* Take a lane's message through md5.c: its state after the whole blocks,
 * then the tail and the padding. */
static int finish_lane(const struct md5_mb_lanes *l, unsigned lane, const struct message *m)
{
    struct md5_ctx ctx;
    unsigned char got[MD5_DIGEST_SIZE];
    size_t whole = m->len - m->len % 64;

    md5_mb_get_lane(l, lane, ctx.state);
    ctx.length = whole;
    md5_update(&ctx, m->p + whole, m->len - whole);
    md5_final(&ctx, got);
    return memcmp(got, m->digest, sizeof got) == 0;
}

static const unsigned char *whole_end(const struct message *m)
{
    return m->p + (m->len - m->len % 64);
}

/* Whole messages the way a scheduler runs them: lanes start and finish at
 * different times, a finished lane is refilled mid-stream, some lanes sit
 * idle, and each call takes 1..(shortest busy lane) blocks.  Each digest
 * must equal md5.c's digest of the message in one piece. */
static void test_stream(const struct md5_mb_kernel *k, const unsigned char *data, size_t len)
{
    enum { N_MSG = 160, MAX_LEN = 5000 };
    static struct message msg[N_MSG];
    const struct message *lane_msg[MD5_MB_MAX_LANES] = {NULL};
    struct md5_mb_lanes l;
    struct md5_ctx ctx;
    struct guarded g;
    uint64_t seed = 31337;
    size_t next = 0, done = 0, calls = 0, bad = 0, i;

    if (guarded_init(&g, N_MSG, MAX_LEN) != 0) {
        report(0, "mb %s: guard page mmap failed", k->name);
        return;
    }
    for (i = 0; i < N_MSG; i++) {
        /* Mostly under 700 bytes, some empty, every seventh up to MAX_LEN. */
        size_t r = (size_t)xorshift(&seed), n = i % 7 == 0 ? r % (MAX_LEN + 1) : r % 700;
        unsigned char *p = guarded_place(&g, i, n, &seed);

        memcpy(p, data + (r >> 20) % (len - MAX_LEN), n);
        msg[i].p = p;
        msg[i].len = n;
        md5_init(&ctx);
        md5_update(&ctx, p, n);
        md5_final(&ctx, msg[i].digest);
    }
    md5_init(&ctx); /* its state is the initial value every lane starts from */
    memset(&l, 0, sizeof l);
    /* A kernel that fails to advance its lanes ends the loop too (each
     * call takes at least one block of every busy lane). */
    while (done < N_MSG && calls < 50 * N_MSG) {
        size_t fewest = (size_t)-1;

        for (i = 0; i < k->lanes; i++) {
            /* Maybe refill a free lane; retire a lane with no whole block left. */
            for (;;) {
                if (!lane_msg[i]) {
                    if (next == N_MSG || xorshift(&seed) % 5 == 0)
                        break;
                    lane_msg[i] = &msg[next++];
                    l.in[i] = lane_msg[i]->p;
                    md5_mb_set_lane(&l, (unsigned)i, ctx.state);
                }
                if (l.in[i] != whole_end(lane_msg[i]))
                    break;
                bad += !finish_lane(&l, (unsigned)i, lane_msg[i]);
                done++;
                lane_msg[i] = NULL;
                l.in[i] = NULL;
            }
            if (lane_msg[i] && (size_t)(whole_end(lane_msg[i]) - l.in[i]) / 64 < fewest)
                fewest = (size_t)(whole_end(lane_msg[i]) - l.in[i]) / 64;
        }
        if (fewest != (size_t)-1) {
            k->run(&l, 1 + (size_t)(xorshift(&seed) % fewest));
            calls++;
        }
    }
    guarded_free(&g);
    report(bad == 0 && done == N_MSG,
           "mb %s: %d whole messages of 0-%d bytes through refilled lanes (%zu calls, %zu wrong, %zu done)",
           k->name, N_MSG, MAX_LEN, calls, bad, done);
}

/* md5_mb_pick, as mb.h documents it: for each BUSY, the narrowest kernel
 * of the first kernel's instruction set with a lane for each (the widest if
 * none has), unless BUSY is below its min_busy: then the narrowest scalar
 * kernel with a lane for each, or scalar. */
static void test_pick(void)
{
    const struct md5_mb_kernel *const *k = md5_mb_kernels(), *const *i;
    unsigned busy, bad = 0;

    if (!k[0]) {
        report(0, "mb: no kernels offered, not even scalar");
        return;
    }
    bad += md5_mb_pick(1000) != k[0];
    for (busy = 1; busy <= MD5_MB_MAX_LANES; busy++) {
        const struct md5_mb_kernel *want = k[0], *scalar = NULL;

        for (i = k; *i; i++) {
            if (strcmp((*i)->isa, k[0]->isa) == 0 && (*i)->lanes >= busy && (*i)->lanes < want->lanes)
                want = *i;
            if (strcmp((*i)->isa, "scalar") == 0 && (*i)->lanes >= busy &&
                (!scalar || (*i)->lanes < scalar->lanes))
                scalar = *i;
        }
        if (busy >= want->min_busy)
            bad += md5_mb_pick(busy) != want;
        else if (scalar)
            bad += md5_mb_pick(busy) != scalar;
        else
            bad += strcmp(md5_mb_pick(busy)->name, "scalar") != 0;
    }
    report(bad == 0, "mb: md5_mb_pick chooses the narrowest kernel with a lane for each, or below its min_busy the narrowest scalar kernel with a lane for each, or scalar");
}

/* The kernels offered match the families mb.h says this target builds, as
 * far as the target alone decides: the three NEON kernels wherever NEON is built
 * (it is baseline), no x86 kernel where those are not, scalar last.  Which
 * x86 kernels a CPU runs is for EXPECT_MB below. */
static void test_target_families(void)
{
    const struct md5_mb_kernel *const *k = md5_mb_kernels();
    unsigned neon = 0, x86 = 0;
    size_t n;

    for (n = 0; k[n]; n++) {
        neon += strcmp(k[n]->isa, "neon") == 0;
        x86 += strncmp(k[n]->isa, "avx", 3) == 0;
    }
    report(neon == (MD5_MB_NEON ? 3u : 0u) && (MD5_MB_X86 || x86 == 0) && n > 0 &&
               strcmp(k[n - 1]->name, "scalar") == 0,
           "mb: kernels offered match the families built (MD5_MB_X86 %d, MD5_MB_NEON %d)",
           MD5_MB_X86, MD5_MB_NEON);
}

/* The list is grouped by instruction set, each group widest first (what
 * md5_mb_pick relies on), each kernel function in it once (a CPU's own
 * group takes some of the others' under its name); md5_mb_pick keeps to
 * the first kernel's set; and
 * the zmm AVX-512 kernels are offered wherever the ymm ones are (one probe),
 * preferred or not, with either transposition (avx512zs), so that every
 * AVX-512 machine tests them. */
static void test_groups(void)
{
    const struct md5_mb_kernel *const *k = md5_mb_kernels();
    unsigned ymm = 0, zmm = 0, square = 0, busy, bad = 0;
    size_t i, j;

    if (!k[0]) {
        report(0, "mb: no kernels offered, not even scalar");
        return;
    }
    for (i = 0; k[i]; i++) {
        ymm += strcmp(k[i]->isa, "avx512") == 0;
        zmm += strcmp(k[i]->isa, "avx512z") == 0;
        square += strcmp(k[i]->isa, "avx512zs") == 0;
        if (i > 0 && strcmp(k[i]->isa, k[i - 1]->isa) == 0)
            bad += k[i]->lanes > k[i - 1]->lanes;
        else /* a new group: its set not seen before */
            for (j = 0; j < i; j++)
                bad += strcmp(k[i]->isa, k[j]->isa) == 0;
        for (j = 0; j < i; j++)
            bad += k[i]->run == k[j]->run;
    }
    for (busy = 1; busy <= MD5_MB_MAX_LANES; busy++) {
        const struct md5_mb_kernel *p = md5_mb_pick(busy);

        bad += strcmp(p->isa, k[0]->isa) != 0 && strcmp(p->isa, "scalar") != 0;
    }
    report(bad == 0 && (ymm > 0) == (zmm > 0) && (ymm > 0) == (square > 0),
           "mb: kernels grouped by instruction set, widest first, each once; picks from %s; zmm kernels of both transpositions wherever ymm AVX-512 (%u, %u, %u)",
           k[0]->isa, ymm, zmm, square);
}

/* make check EXPECT_MB="avx2x16 ...": each named kernel must be available,
 * so a probe that silently falls back to scalar fails; EXPECT_MB_FIRST: the
 * one picked for full lanes, so a lost preference fails too. */
static void test_expected_kernels(void)
{
    const char *want = getenv("EXPECT_MB");
    const struct md5_mb_kernel *const *k;
    char list[256] = "";

    for (k = md5_mb_kernels(); *k; k++)
        snprintf(list + strlen(list), sizeof list - strlen(list), " %s", (*k)->name);
    printf("# mb kernels:%s\n", list);
    if (want && *want) {
        char names[256], *name;
        int missing = 0;

        snprintf(names, sizeof names, "%s", want);
        for (name = strtok(names, " ,"); name; name = strtok(NULL, " ,")) {
            size_t n = strlen(name);
            const char *at = strstr(list, name);
            missing += !(at && at[-1] == ' ' && (at[n] == ' ' || at[n] == '\0'));
        }
        report(missing == 0, "mb kernels include the expected \"%s\"", want);
    }
    want = getenv("EXPECT_MB_FIRST");
    if (want && *want) {
        /* Two messages: scalarx2 on x86, but in the 16-lane zmm kernel on
         * Intel's zmm cores (the ones that pick avx512zsx48 first). */
        const char *two = strcmp(want, "avx512zsx48") == 0 ? "avx512zx16" :
                          strncmp(want, "neon", 4) == 0 ? "scalar" : "scalarx2";

        report(strcmp(md5_mb_pick(MD5_MB_MAX_LANES)->name, want) == 0,
               "mb: the kernel picked for full lanes is the expected %s (%s)", want,
               md5_mb_pick(MD5_MB_MAX_LANES)->name);
        report(strcmp(md5_mb_pick(2)->name, two) == 0,
               "mb: the kernel picked for two messages is the expected %s (%s)", two,
               md5_mb_pick(2)->name);
    }
}

void mb_tests(const unsigned char *data, size_t len)
{
    const struct md5_mb_kernel *const *k;

    test_expected_kernels();
    test_target_families();
    test_groups();
    test_pick();
    for (k = md5_mb_kernels(); *k; k++) {
        test_contract(*k, data);
        test_against_portable(*k, data, len);
        test_stream(*k, data, len);
    }
}
