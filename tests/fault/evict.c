/* evict FILE...: each file out of the page cache, as dd iflag=nocache
 * count=0 takes one (written back first: dirty pages cannot be dropped).
 * One process for them all: the tests that evict hundreds of files before
 * each run spent most of their time starting dd (5 ms each here). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int i, fd, status = 0;

    for (i = 1; i < argc; i++) {
        if ((fd = open(argv[i], O_RDONLY)) < 0 || fdatasync(fd) != 0 ||
            posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0) {
            perror(argv[i]);
            status = 1;
        }
        if (fd >= 0)
            close(fd);
    }
    return status;
}
