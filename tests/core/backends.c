/* The block-function contract, and every backend against the portable one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../src/compress/compress.h"
#include "../../src/md5.h"
#include "testlib.h"

struct backend {
    const char *name;
    md5_compress_fn *fn;
};

static const struct backend others[] = {
#if MD5_AARCH64_BUILT
    {"aarch64", md5_compress_aarch64},
#endif
    {NULL, NULL},
};

static void random_state(uint32_t s[4], uint64_t *seed)
{
    int i;
    for (i = 0; i < 4; i++)
        s[i] = (uint32_t)xorshift(seed);
}

/* The build selected the core the caller asked for (make check EXPECT_IMPL=...):
 * a silent fallback to another core is the bug this catches. */
static void test_expected_core(void)
{
    const char *want = getenv("EXPECT_IMPL");

    if (want && *want)
        report(strstr(md5_core_name(), want) != NULL,
               "active core \"%s\" is the expected \"%s\"", md5_core_name(), want);
}

/* nblocks == 0 changes nothing; one call over n blocks equals n calls. */
static void test_contract(md5_compress_fn *fn, const char *name, const unsigned char *data)
{
    uint32_t s1[4], s2[4];
    uint64_t seed = 77;
    size_t i;
    int bad = 0, n;

    for (n = 0; n < 50; n++) {
        random_state(s1, &seed);
        memcpy(s2, s1, sizeof s1);
        fn(s1, data, 0);
        bad += memcmp(s1, s2, sizeof s1) != 0;
        fn(s1, data + n, (size_t)n);
        for (i = 0; i < (size_t)n; i++)
            fn(s2, data + n + 64 * i, 1);
        bad += memcmp(s1, s2, sizeof s1) != 0;
    }
    report(bad == 0, "%s: 0 blocks is a no-op, n blocks in one call = n calls", name);
}

/* Random states, block counts 0..40, every alignment 0..15, and the input
 * ending right before a PROT_NONE page. */
static void test_against_portable(const struct backend *b, const unsigned char *data, size_t len)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t span = 4 * (size_t)page;
    unsigned char *map = mmap(NULL, span + (size_t)page, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    uint64_t seed = 2024;
    int bad = 0, iter;

    if (map == MAP_FAILED || mprotect(map + span, (size_t)page, PROT_NONE) != 0) {
        report(0, "%s: guard page mmap failed", b->name);
        return;
    }
    for (iter = 0; iter < 2000; iter++) {
        uint32_t want[4], got[4];
        size_t nblocks = (size_t)(xorshift(&seed) % 41);
        size_t align = (size_t)iter % 16;
        size_t start = (size_t)(xorshift(&seed) % (len - 64 * 41));
        /* Half the runs end at the guard page, half at an alignment 0..15. */
        unsigned char *p = iter % 2 ? map + span - 64 * nblocks : map + align;

        memcpy(p, data + start, 64 * nblocks);
        random_state(want, &seed);
        memcpy(got, want, sizeof got);
        md5_compress_portable(want, p, nblocks);
        b->fn(got, p, nblocks);
        bad += memcmp(want, got, sizeof got) != 0;
    }
    munmap(map, span + (size_t)page);
    report(bad == 0, "%s agrees with portable: 2000 random states, 0-40 blocks, alignments 0-15, guard page", b->name);
}

void backend_tests(const unsigned char *data, size_t len)
{
    const struct backend *b;

    test_expected_core();
#if MD5_AARCH64_BUILT
    /* First: a broken register save corrupts whoever calls the function next,
     * often fatally; the probe shields its caller and names the register. */
    abi_tests_aarch64(data);
#endif
    test_contract(md5_compress_portable, "portable", data);
    for (b = others; b->name; b++) {
        test_contract(b->fn, b->name, data);
        test_against_portable(b, data, len);
    }
}
