/* Core tests of md5.c and every block function built for this target.
 *
 *   md5test write-inputs DIR     write the test messages into DIR
 *   md5test check DIR EXPECTED   check them against EXPECTED, the output of a
 *                                reference md5sum run over DIR's files
 *
 * The expected digests never come from this program: tests/run/gen-vectors.sh
 * writes the inputs with this driver and digests them with the system md5sum.
 * Output is TAP-like ("ok - ..." / "not ok - ..."), one line per test.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../src/md5.h"
#include "testlib.h"

#define MAX_LEN 4096
#define BIG_LEN (1024 * 1024 + 1)

static const char *const rfc_strings[] = {
    "", "a", "abc", "message digest", "abcdefghijklmnopqrstuvwxyz",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
    "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
};
#define N_RFC (sizeof rfc_strings / sizeof rfc_strings[0])

/* Boundary lengths around the 55/56-byte padding split and block edges. */
static const size_t boundary_lengths[] = {
    0, 1, 2, 3, 55, 56, 57, 63, 64, 65, 119, 120, 121, 127, 128, 129,
    511, 512, 513, 4095, 4096, 4097, 16384, BIG_LEN,
};
#define N_BOUNDARY (sizeof boundary_lengths / sizeof boundary_lengths[0])

#define RANDOM_LEN 100000

static unsigned char *pattern; /* byte i = i % 251, BIG_LEN bytes */
static unsigned char *random_msg;

static void make_messages(void)
{
    size_t i;
    uint64_t seed = 0x9e3779b97f4a7c15u;

    pattern = xmalloc(BIG_LEN);
    for (i = 0; i < BIG_LEN; i++)
        pattern[i] = (unsigned char)(i % 251);
    random_msg = xmalloc(RANDOM_LEN);
    for (i = 0; i < RANDOM_LEN; i++)
        random_msg[i] = (unsigned char)xorshift(&seed);
}

static void md5_of(const void *p, size_t n, unsigned char out[MD5_DIGEST_SIZE])
{
    struct md5_ctx ctx;
    md5_init(&ctx);
    md5_update(&ctx, p, n);
    md5_final(&ctx, out);
}

static int write_inputs(const char *dir)
{
    char name[64];
    size_t i;
    unsigned char *million = xmalloc(1000000);

    for (i = 0; i < N_RFC; i++) {
        snprintf(name, sizeof name, "rfc-%zu", i);
        write_file(dir, name, rfc_strings[i], strlen(rfc_strings[i]));
    }
    memset(million, 'a', 1000000);
    write_file(dir, "million-a", million, 1000000);
    free(million);
    for (i = 0; i <= MAX_LEN; i++) {
        snprintf(name, sizeof name, "len-%zu", i);
        write_file(dir, name, pattern, i);
    }
    for (i = 0; i < N_BOUNDARY; i++) {
        snprintf(name, sizeof name, "len-%zu", boundary_lengths[i]);
        write_file(dir, name, pattern, boundary_lengths[i]);
    }
    write_file(dir, "random", random_msg, RANDOM_LEN);
    return 0;
}

/* RFC 1321 appendix A.5 strings and a million 'a's (hashed in odd pieces). */
static void test_rfc(void)
{
    unsigned char got[MD5_DIGEST_SIZE];
    char name[64];
    size_t i, bad = 0;
    struct md5_ctx ctx;
    static unsigned char piece[997];

    for (i = 0; i < N_RFC; i++) {
        snprintf(name, sizeof name, "rfc-%zu", i);
        md5_of(rfc_strings[i], strlen(rfc_strings[i]), got);
        bad += !digest_matches(name, got);
    }
    report(bad == 0, "RFC 1321 test suite strings");

    memset(piece, 'a', sizeof piece);
    md5_init(&ctx);
    for (i = 0; i < 1000000; i += sizeof piece)
        md5_update(&ctx, piece, 1000000 - i < sizeof piece ? 1000000 - i : sizeof piece);
    md5_final(&ctx, got);
    report(digest_matches("million-a", got), "one million 'a' bytes");
}

/* Every length 0..4096 of the pattern, and the boundary lengths up to 1 MiB+1. */
static void test_lengths(void)
{
    unsigned char got[MD5_DIGEST_SIZE];
    char name[64];
    size_t i, bad = 0;

    for (i = 0; i <= MAX_LEN; i++) {
        snprintf(name, sizeof name, "len-%zu", i);
        md5_of(pattern, i, got);
        bad += !digest_matches(name, got);
    }
    report(bad == 0, "every length 0..4096 (%zu wrong)", bad);

    bad = 0;
    for (i = 0; i < N_BOUNDARY; i++) {
        snprintf(name, sizeof name, "len-%zu", boundary_lengths[i]);
        md5_of(pattern, boundary_lengths[i], got);
        bad += !digest_matches(name, got);
    }
    report(bad == 0, "boundary lengths 0-3, 55-57, 63-65, 119-129, 511-513, 4095-4097, 16 KiB, 1 MiB+1");
}

/* Any split of a message into md5_update calls gives the same digest. */
static void test_random_splits(void)
{
    unsigned char got[MD5_DIGEST_SIZE];
    uint64_t seed = 12345;
    int round, bad = 0;

    for (round = 0; round < 200; round++) {
        struct md5_ctx ctx;
        size_t pos = 0;

        md5_init(&ctx);
        while (pos < RANDOM_LEN) {
            /* Mostly short pieces, sometimes many blocks at once. */
            size_t n = (size_t)(xorshift(&seed) % (round % 4 == 0 ? 5000 : 130));
            if (n > RANDOM_LEN - pos)
                n = RANDOM_LEN - pos;
            md5_update(&ctx, random_msg + pos, n);
            pos += n;
        }
        md5_final(&ctx, got);
        bad += !digest_matches("random", got);
    }
    report(bad == 0, "random splits of md5_update give the reference digest");
}

/* Input at every offset 0..15 from an aligned address. */
static void test_alignment(void)
{
    unsigned char got[MD5_DIGEST_SIZE];
    unsigned char *buf = xmalloc(MAX_LEN + 64);
    size_t off, bad = 0;
    static const size_t lens[] = {64, 65, 1000, 4096};
    size_t j;
    char name[64];

    for (off = 0; off < 16; off++)
        for (j = 0; j < sizeof lens / sizeof lens[0]; j++) {
            memcpy(buf + off, pattern, lens[j]);
            snprintf(name, sizeof name, "len-%zu", lens[j]);
            md5_of(buf + off, lens[j], got);
            bad += !digest_matches(name, got);
        }
    free(buf);
    report(bad == 0, "unaligned input at offsets 0..15");
}

/* Messages that end right before an inaccessible page: an overread faults. */
static void test_guard_page(void)
{
    long page = sysconf(_SC_PAGESIZE);
    size_t span = 2 * (size_t)page, len, bad = 0;
    unsigned char got[MD5_DIGEST_SIZE];
    char name[64];
    unsigned char *map = mmap(NULL, span + (size_t)page, PROT_READ | PROT_WRITE,
                              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

    if (map == MAP_FAILED || mprotect(map + span, (size_t)page, PROT_NONE) != 0) {
        report(0, "guard page: mmap/mprotect failed");
        return;
    }
    for (len = 0; len <= MAX_LEN && len <= span; len++) {
        unsigned char *p = map + span - len;
        memcpy(p, pattern, len);
        snprintf(name, sizeof name, "len-%zu", len);
        md5_of(p, len, got);
        bad += !digest_matches(name, got);
    }
    munmap(map, span + (size_t)page);
    report(bad == 0, "no read past the end of the input (guard page)");
}

int main(int argc, char **argv)
{
    make_messages();
    if (argc == 3 && strcmp(argv[1], "write-inputs") == 0)
        return write_inputs(argv[2]);
    if (argc != 4 || strcmp(argv[1], "check") != 0) {
        fprintf(stderr, "usage: md5test write-inputs DIR | md5test check DIR EXPECTED\n");
        return 2;
    }
    if (load_expected(argv[3], argv[2]) != 0)
        return 2;
    printf("# MD5 core: %s\n", md5_core_name());
    /* Block functions first: if one breaks the calling convention, its own
     * tests say so before md5.c's tests crash on the damage. */
    backend_tests(pattern, BIG_LEN);
    test_rfc();
    test_lengths();
    test_random_splits();
    test_alignment();
    test_guard_page();
    mb_tests(random_msg, RANDOM_LEN);
    lanes_tests(random_msg, RANDOM_LEN);
    hasher_tests(random_msg, RANDOM_LEN);
    cgroup_tests(argv[2]);
    return tests_failed() ? 1 : 0;
}
