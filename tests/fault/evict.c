/* evict [-r OFFSET:LENGTH] FILE...: each file out of the page cache, as dd
 * iflag=nocache count=0 takes one (written back first: dirty pages cannot be
 * dropped); with -r, only the pages from OFFSET to OFFSET + LENGTH, a hole
 * in a file otherwise in memory.  One process for them all: the tests that
 * evict hundreds of files before each run spent most of their time starting
 * dd (5 ms each here). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int i = 1, fd, status = 0;
    off_t off = 0, len = 0;
    char *end;

    if (argc > 2 && strcmp(argv[1], "-r") == 0) {
        off = (off_t)strtoll(argv[2], &end, 10);
        if (*end != ':' || (len = (off_t)strtoll(end + 1, &end, 10)) <= 0 || *end || off < 0) {
            fprintf(stderr, "evict: -r wants OFFSET:LENGTH, not %s\n", argv[2]);
            return 2;
        }
        i = 3;
    }
    for (; i < argc; i++) {
        if ((fd = open(argv[i], O_RDONLY)) < 0 || fdatasync(fd) != 0 ||
            posix_fadvise(fd, off, len, POSIX_FADV_DONTNEED) != 0) {
            perror(argv[i]);
            status = 1;
        }
        if (fd >= 0)
            close(fd);
    }
    return status;
}
