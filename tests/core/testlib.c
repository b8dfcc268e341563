#include "testlib.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        perror("malloc");
        exit(2);
    }
    return p;
}

uint64_t xorshift(uint64_t *state)
{
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *state = x;
    return x * 0x2545f4914f6cdd1dU;
}

void write_file(const char *dir, const char *name, const void *data, size_t len)
{
    char path[4096];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

struct expected {
    char name[32];
    unsigned char digest[16];
};
static struct expected *table;
static size_t n_table;

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int load_expected(const char *path, const char *dir)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    size_t cap = 0, dirlen = strlen(dir);

    if (!f) {
        perror(path);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        struct expected e;
        const char *name = line + 34;
        size_t i, n;

        /* "HEX  DIR/NAME\n"; skip names outside DIR. */
        if (strlen(line) < 36 || strncmp(name, dir, dirlen) != 0 || name[dirlen] != '/')
            continue;
        name += dirlen + 1;
        n = strcspn(name, "\n");
        if (n == 0 || n >= sizeof e.name)
            continue;
        memcpy(e.name, name, n);
        e.name[n] = '\0';
        for (i = 0; i < 16; i++) {
            int hi = hexval(line[2 * i]), lo = hexval(line[2 * i + 1]);
            if (hi < 0 || lo < 0)
                break;
            e.digest[i] = (unsigned char)(hi << 4 | lo);
        }
        if (i < 16)
            continue;
        if (n_table == cap) {
            cap = cap ? 2 * cap : 1024;
            table = realloc(table, cap * sizeof *table);
            if (!table) {
                perror("realloc");
                exit(2);
            }
        }
        table[n_table++] = e;
    }
    fclose(f);
    if (n_table == 0) {
        fprintf(stderr, "%s: no reference digests for %s\n", path, dir);
        return -1;
    }
    return 0;
}

int digest_matches(const char *name, const unsigned char digest[16])
{
    size_t i;

    for (i = 0; i < n_table; i++)
        if (strcmp(table[i].name, name) == 0) {
            if (memcmp(table[i].digest, digest, 16) == 0)
                return 1;
            printf("# %s: digest differs from the reference\n", name);
            return 0;
        }
    printf("# %s: no reference digest\n", name);
    return 0;
}

static int n_failed;

void report(int ok, const char *fmt, ...)
{
    va_list ap;

    printf("%s - ", ok ? "ok" : "not ok");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
    if (!ok)
        n_failed++;
}

int tests_failed(void)
{
    return n_failed;
}
