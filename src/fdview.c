/* openat2, O_PATH, O_LARGEFILE and fstatfs are Linux's; the feature-test
 * macro is the documented way to ask for them. */
#define _GNU_SOURCE /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#include "fdview.h"

#include <fcntl.h>
#include <unistd.h>

/* Linux only.  Elsewhere names open as they are: a BSD's fdescfs, where
 * /dev/fd/N duplicates the descriptor, is not looked into. */
#if defined(__linux__) && defined(O_PATH)
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#define FDVIEW_LINUX 1
#if defined(SYS_openat2)
#define FDVIEW_OPENAT2 1
#endif
/* The kernel's ABI (linux/openat2.h, linux/magic.h), spelt out here: a C
 * library other than glibc (musl) does not bring the kernel's headers. */
struct open_how_abi {
    uint64_t flags, mode, resolve;
};
#define RESOLVE_NO_MAGICLINKS_ABI 0x02
#define PROC_SUPER_MAGIC_ABI 0x9fa0
#endif

#ifdef FDVIEW_LINUX

/* Where /proc/self/fd cannot be listed, the descriptors probed one by one
 * at start: a higher one the user left open is then taken for ours. */
#define PROBE_MAX 1024
/* The kernel's MAXSYMLINKS: past it a name fails with ELOOP anyway. */
#define MAX_HOPS 40
#define PATH_DIR (O_PATH | O_DIRECTORY | O_CLOEXEC)

static int *user_fds;      /* open at start: the user's */
static size_t n_user, user_room;
static int recorded;       /* user_fds holds the user's */
static int hide_none;      /* the user's could not all be recorded */
static int shown = -1;     /* fdview_show's, or -1 */
static int use_openat2;
static pid_t self;         /* our pid (we never fork), once recorded */

static void add_user(int fd)
{
    if (n_user == user_room) {
        size_t room = user_room ? 2 * user_room : 16;
        int *p = realloc(user_fds, room * sizeof *p);
        if (!p) {
            hide_none = 1;   /* as before this module: no name is refused */
            return;
        }
        user_fds = p;
        user_room = room;
    }
    user_fds[n_user++] = fd;
}

/* Record every descriptor open now from /proc/self/fd but OURS, the shown
 * one and the one listing it.  0 if it cannot be listed. */
static int record_listed(int ours)
{
    DIR *d = opendir("/proc/self/fd");
    const struct dirent *e;

    if (!d)
        return 0;
    while ((e = readdir(d)) != NULL) {
        char *end;
        long fd = strtol(e->d_name, &end, 10);
        if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && *end == '\0' && fd != dirfd(d) &&
            fd != ours && fd != shown && fd <= INT_MAX)
            add_user((int)fd);
    }
    closedir(d);
    return 1;
}

static void record_probed(int ours)
{
    struct rlimit rl;
    rlim_t n = PROBE_MAX, fd;

    /* Never a loop to a limit of millions. */
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < n)
        n = rl.rlim_cur;
    for (fd = 0; fd < n; fd++)
        if ((int)fd != ours && (int)fd != shown && fcntl((int)fd, F_GETFD) >= 0)
            add_user((int)fd);
}

static int visible(long fd)
{
    size_t i;

    if (hide_none || fd == shown)
        return 1;
    for (i = 0; i < n_user; i++)
        if (user_fds[i] == fd)
            return 1;
    return 0;
}

#ifdef FDVIEW_OPENAT2
/* openat2(AT_FDCWD, NAME) refusing magic links (ELOOP).  The raw call lacks
 * the O_LARGEFILE glibc's open adds on 32-bit targets (0 on 64-bit ones):
 * without it a file over 2 GiB fails with EOVERFLOW. */
static long open_no_magic(const char *name, int flags)
{
    struct open_how_abi how;

    memset(&how, 0, sizeof how);
    how.flags = (unsigned)flags;
#ifdef O_LARGEFILE
    how.flags |= (unsigned)O_LARGEFILE;
#endif
    how.resolve = RESOLVE_NO_MAGICLINKS_ABI;
    return syscall(SYS_openat2, AT_FDCWD, name, &how, sizeof how);
}
#endif

static int on_procfs(int dir)
{
    struct statfs sf;

    return fstatfs(dir, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC_ABI;
}

/* Whether the procfs directory DIR is the fd directory of one of our
 * threads, reached by any name: the "fd" entry of /proc/P or of
 * /proc/P/task/T, where P is of our thread group (its task directory lists
 * our pid).  Decided by the directory, not by its entries, so that a
 * descriptor another thread opens meanwhile cannot slip through. */
static int our_fd_dir(int dir)
{
    struct stat d, f;
    char pid[32], up[32];
    int parent, ours;

    if (!on_procfs(dir) || (parent = openat(dir, "..", PATH_DIR)) < 0)
        return 0;
    snprintf(pid, sizeof pid, "task/%ld", (long)self);
    snprintf(up, sizeof up, "../%ld", (long)self);
    ours = fstat(dir, &d) == 0 && fstatat(parent, "fd", &f, AT_SYMLINK_NOFOLLOW) == 0 &&
           d.st_dev == f.st_dev && d.st_ino == f.st_ino &&
           (fstatat(parent, pid, &f, AT_SYMLINK_NOFOLLOW) == 0 ||
            /* /proc/P/task/T has no task directory: look beside T. */
            (fstatat(parent, "task", &f, AT_SYMLINK_NOFOLLOW) != 0 &&
             fstatat(parent, up, &f, AT_SYMLINK_NOFOLLOW) == 0));
    close(parent);
    return ours;
}

/* A descriptor number as procfs spells it: digits, no leading zero. */
static int fd_name(const char *s)
{
    if (s[0] == '0')
        return s[1] == '\0';
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

/* Replace the symlink COMP in DIR by its target, ahead of REST in *PATH.
 * Returns the new REST (in a new *PATH), or NULL. */
static char *put_target(int dir, const char *comp, char **path, const char *rest)
{
    char target[PATH_MAX], *p;
    ssize_t t = readlinkat(dir, comp, target, sizeof target);
    size_t r = strlen(rest);

    if (t <= 0 || (size_t)t == sizeof target || !(p = malloc((size_t)t + r + 1)))
        return NULL;
    memcpy(p, target, (size_t)t);
    memcpy(p + t, rest, r + 1);
    free(*path);
    *path = p;
    return p;
}

/* Whether resolving NAME, component by component as the kernel does, goes
 * through the fd link of a descriptor of ours that is not visible.  Where
 * the walk cannot go on (a missing component, a loop), the open it stops
 * for is left to the kernel, which reports the same error. */
static int reaches_hidden(const char *name)
{
    char comp[NAME_MAX + 1], *path = strdup(name), *rest = path;
    int dir = open(name[0] == '/' ? "/" : ".", PATH_DIR), hops = 0, hidden = 0;

    while (rest && dir >= 0) {
        struct stat st;
        size_t len;
        int next;

        while (*rest == '/')
            rest++;
        len = strcspn(rest, "/");
        if (len == 0 || len > NAME_MAX)
            break;
        memcpy(comp, rest, len);
        comp[len] = '\0';
        rest += len;
        if (fd_name(comp) && our_fd_dir(dir)) {
            hidden = !visible(strtol(comp, NULL, 10));
            if (hidden || *rest == '\0')
                break;
            next = openat(dir, comp, O_PATH | O_CLOEXEC);   /* through the link */
        } else if (fstatat(dir, comp, &st, AT_SYMLINK_NOFOLLOW) != 0) {
            break;
        } else if (!S_ISLNK(st.st_mode)) {
            if (*rest == '\0')
                break;   /* the last component, or only slashes after it */
            next = openat(dir, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
        } else if (on_procfs(dir)) {
            /* procfs's own links (self, thread-self, cwd, another process's
             * fds): the kernel follows them; none leads to our fds but
             * through an fd directory the walk still checks. */
            next = openat(dir, comp, O_PATH | O_CLOEXEC);
        } else {
            /* An ordinary symlink: its target takes its place in the name. */
            if (++hops > MAX_HOPS || !(rest = put_target(dir, comp, &path, rest)))
                break;
            if (rest[0] == '/') {
                close(dir);
                dir = open("/", PATH_DIR);
            }
            continue;
        }
        close(dir);
        dir = next;
    }
    if (dir >= 0)
        close(dir);
    free(path);
    return hidden;
}

/* Without openat2, walking every name would cost each open several more
 * calls: only names that may lead into /dev or /proc are walked.  Missed
 * are a symlink elsewhere to one of them (ln -s /dev/fd/5 x) and relative
 * names from a directory there (cd /dev; md5sum fd/5): those open as named. */
static int may_be_magic(const char *name)
{
    return strstr(name, "dev/") != NULL || strstr(name, "proc/") != NULL;
}

#endif /* FDVIEW_LINUX */

void fdview_init(void)
{
#ifdef FDVIEW_LINUX
    struct pollfd std[3] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};

    /* A closed 0, 1 or 2 is about to be held by a placeholder of ours
     * (fdio.h): record the user's first.  Otherwise later, when needed:
     * listing /proc/self/fd costs a call to md5sum about 80 us here, 6% of
     * its time on a small file (docs/PERFORMANCE.md). */
    if (poll(std, 3, 0) < 0 || ((std[0].revents | std[1].revents | std[2].revents) & POLLNVAL))
        fdview_record(-1);
#ifdef FDVIEW_OPENAT2
    {
        /* Missing (ENOSYS: before Linux 5.6, or qemu-user) or refused by a
         * seccomp filter (EPERM or ENOSYS): then open(2) for every name. */
        long fd = open_no_magic("", O_RDONLY);
        if (fd >= 0)
            close((int)fd);
        use_openat2 = fd >= 0 || errno == ENOENT;
    }
#endif
#endif
}

int fdview_open(const char *name, int flags)
{
#ifdef FDVIEW_LINUX
    int walk;

#ifdef FDVIEW_OPENAT2
    if (use_openat2) {
        long fd = open_no_magic(name, flags);
        /* ELOOP: a magic link was crossed, or a real symlink loop. */
        if (fd >= 0 || errno != ELOOP)
            return (int)fd;
    }
#endif
    /* Nothing recorded yet: nothing of ours is open but the one shown. */
    walk = recorded && (use_openat2 || may_be_magic(name));
    if (walk && reaches_hidden(name)) {
        errno = ENOENT;   /* what the kernel says for a descriptor not open */
        return -1;
    }
#endif
    return open(name, flags);
}

int fdview_open_quick(const char *name, int flags)
{
#ifdef FDVIEW_OPENAT2
    if (use_openat2) {
        long fd = open_no_magic(name, flags);
        if (fd >= 0 || errno != ELOOP)
            return (int)fd;
    }
    return -2;
#elif defined(FDVIEW_LINUX)
    (void)name;
    (void)flags;
    return -2;
#else
    return open(name, flags);
#endif
}

int fdview_quick(void)
{
#ifdef FDVIEW_OPENAT2
    return use_openat2;
#elif defined(FDVIEW_LINUX)
    return 0;
#else
    return 1;
#endif
}

void fdview_record(int ours)
{
#ifdef FDVIEW_LINUX
    if (recorded)
        return;
    recorded = 1;
    self = getpid();
    if (!record_listed(ours))
        record_probed(ours);
#else
    (void)ours;
#endif
}

size_t fdview_held(void)
{
#ifdef FDVIEW_LINUX
    return n_user;
#else
    return 0;
#endif
}

void fdview_show(int fd)
{
#ifdef FDVIEW_LINUX
    shown = fd;
#else
    (void)fd;
#endif
}

void fdview_hide(int fd)
{
#ifdef FDVIEW_LINUX
    if (shown == fd)
        shown = -1;
#else
    (void)fd;
#endif
}
