/* folios FILE...: how the page cache holds the files' pages, for the
 * benchmark's warm sets (scripts/bench.sh).  The same warm set costs md5sum
 * up to 1.45 times as long when its pages sit in single 4 KiB pages spread
 * over memory (read back after eviction, in large reads) as when they sit
 * in large folios (freshly written), while GNU md5sum changes by 6%
 * (docs/PERFORMANCE.md): a warm figure means little without this line.
 *
 * Each file is mapped and its cached pages touched (mincore says which:
 * nothing is read in, and a mapping changes nothing in the page cache);
 * /proc/self/pagemap gives their frames and
 * /proc/kpageflags (root only) whether each is part of a large folio.
 * Prints the pages seen, the share in large folios and the mean run of
 * physically contiguous pages.  Linux only; needs root.
 */
#define _DEFAULT_SOURCE /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define KPF_COMPOUND_HEAD 15
#define KPF_COMPOUND_TAIL 16
#define PFN_MASK ((UINT64_C(1) << 55) - 1)
#define PRESENT (UINT64_C(1) << 63)

static int read_u64(int fd, uint64_t index, uint64_t *v)
{
    return pread(fd, v, sizeof *v, (off_t)(index * sizeof *v)) == (ssize_t)sizeof *v ? 0 : -1;
}

int main(int argc, char **argv)
{
    long page = sysconf(_SC_PAGESIZE);
    int pagemap = open("/proc/self/pagemap", O_RDONLY);
    int kpageflags = open("/proc/kpageflags", O_RDONLY);
    uint64_t pages = 0, large = 0, runs = 0, prev = 0;
    int i;

    if (page <= 0 || pagemap < 0 || kpageflags < 0) {
        printf("page cache: unknown (needs Linux and root)\n");
        return 0;
    }
    for (i = 1; i < argc; i++) {
        int fd = open(argv[i], O_RDONLY);
        struct stat st;
        volatile const unsigned char *p;
        unsigned char *resident;
        uint64_t n, k, entry, flags, pfn;

        if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
            if (fd >= 0)
                close(fd);
            continue;
        }
        n = ((uint64_t)st.st_size + (uint64_t)page - 1) / (uint64_t)page;
        p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
        close(fd);
        if (p == MAP_FAILED)
            continue;
        resident = malloc(n);
        if (!resident || mincore((void *)(uintptr_t)p, (size_t)st.st_size, resident) != 0)
            n = 0;
        for (k = 0; k < n; k++) {
            if (!(resident[k] & 1))
                continue;
            (void)p[k * (uint64_t)page];
            if (read_u64(pagemap, (uintptr_t)p / (uint64_t)page + k, &entry) != 0 ||
                !(entry & PRESENT) || (pfn = entry & PFN_MASK) == 0 ||
                read_u64(kpageflags, pfn, &flags) != 0)
                continue;
            pages++;
            large += (flags >> KPF_COMPOUND_HEAD & 1) | (flags >> KPF_COMPOUND_TAIL & 1);
            runs += pages == 1 || pfn != prev + 1;
            prev = pfn;
        }
        free(resident);
        munmap((void *)(uintptr_t)p, (size_t)st.st_size);
    }
    if (pages == 0) {
        printf("page cache: no page of these files cached, or no frame readable (needs root)\n");
        return 0;
    }
    printf("page cache: %ju pages, %.1f%% in large folios, %.1f pages a physical run\n",
           (uintmax_t)pages, 100.0 * (double)large / (double)pages, (double)pages / (double)runs);
    return 0;
}
