/* runcmd [-n N] CMD [ARG...]: run CMD once (N times, one after the other)
 * with stdout on /dev/null and print "WALL_MS USER_MS SYS_MS MAXRSS_KB
 * EXIT" for those processes alone (no shell in between; times summed, the
 * largest RSS, the last status), for scripts/bench.sh.  A measurement
 * tool, not a test. */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double ms(struct timeval t)
{
    return t.tv_sec * 1e3 + t.tv_usec / 1e3;
}

int main(int argc, char **argv)
{
    struct timespec t0, t1;
    struct rusage ru;
    double user = 0, sys = 0;
    long rss = 0, n = 1, i;
    int status = 0;
    pid_t pid;

    if (argc > 3 && argv[1][0] == '-' && argv[1][1] == 'n') {
        n = atol(argv[2]);
        argv += 2;
        argc -= 2;
    }
    if (argc < 2 || n < 1) {
        fprintf(stderr, "usage: runcmd [-n N] CMD [ARG...]\n");
        return 2;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (i = 0; i < n; i++) {
        pid = fork();
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY);
            dup2(null, STDOUT_FILENO);
            execvp(argv[1], argv + 1);
            _exit(127);
        }
        if (pid < 0 || wait4(pid, &status, 0, &ru) < 0) {
            perror("runcmd");
            return 2;
        }
        user += ms(ru.ru_utime);
        sys += ms(ru.ru_stime);
        rss = ru.ru_maxrss > rss ? ru.ru_maxrss : rss;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.2f %.2f %.2f %ld %d\n",
           (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6, user, sys, rss,
           WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    return 0;
}
