/* sysfloor THREADS FILE...: the kernel work md5sum cannot avoid, alone.
 * THREADS threads share the FILEs (each takes every THREADS-th) and, for
 * each, do what the engine does but hash nothing: stat, open, read it to
 * its end in 128 KiB preads into one buffer of their own (in huge pages,
 * as the engine's), close.  Prints the wall time in ms: no md5sum on this
 * machine can hash the same files faster with as many CPUs.  For
 * scripts/bench.sh; a measurement, not a test. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CHUNK ((size_t)128 << 10)
#define MAX_THREADS 256

static char **names;
static int n_names, n_threads;

static void *run(void *arg)
{
    long k = (long)arg;
    unsigned char *buf;
    int i;

    if (posix_memalign((void **)&buf, (size_t)2 << 20, (size_t)2 << 20) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(buf, (size_t)2 << 20, MADV_HUGEPAGE);
#endif
    for (i = (int)k; i < n_names; i += n_threads) {
        struct stat st;
        off_t off = 0;
        ssize_t got;
        int fd;

        if (stat(names[i], &st) != 0 || (fd = open(names[i], O_RDONLY)) < 0)
            continue;
        /* As the engine: one byte more than the size sees the end. */
        while ((got = pread(fd, buf, st.st_size - off < (off_t)CHUNK
                                         ? (size_t)(st.st_size - off) + 1 : CHUNK,
                            off)) > 0)
            off += got;
        close(fd);
    }
    free(buf);
    return NULL;
}

int main(int argc, char **argv)
{
    pthread_t t[MAX_THREADS];
    struct timespec t0, t1;
    long i;

    if (argc < 3 || (n_threads = atoi(argv[1])) < 1 || n_threads > MAX_THREADS) {
        fprintf(stderr, "usage: sysfloor THREADS FILE...\n");
        return 2;
    }
    names = argv + 2;
    n_names = argc - 2;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (i = 0; i < n_threads; i++)
        pthread_create(&t[i], NULL, run, (void *)i);
    for (i = 0; i < n_threads; i++)
        pthread_join(t[i], NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.2f\n", (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
    return 0;
}
