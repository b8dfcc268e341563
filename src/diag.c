#include "diag.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "before_write.h"
#include "fdio.h"
#include "lowmem.h"
#include "i18n.h"
#include "output.h"

const char *program_name = "md5sum";
static int stderr_error;
/* "memory exhausted" in the user's language, looked up while there was memory. */
static const char *oom_text = "memory exhausted";

void set_program_name(const char *argv0)
{
    const char *slash, *base;

    if (!argv0)   /* GNU aborts there */
        return;
    /* As gnulib's progname.c: a libtool wrapper's "/.libs/" and "lt-"
     * dropped; an empty argv[0] stays empty. */
    slash = strrchr(argv0, '/');
    base = slash ? slash + 1 : argv0;
    if (base - argv0 >= 7 && strncmp(base - 7, "/.libs/", 7) == 0)
        argv0 = strncmp(base, "lt-", 3) == 0 ? base + 3 : base;
    program_name = argv0;
}

void diag_load_messages(void)
{
    oom_text = tr("memory exhausted");
}

void diag_hold_stderr(void)
{
    (void)fd_hold_closed(STDERR_FILENO, O_RDONLY);
}

int stderr_failed(void)
{
    return stderr_error;
}

/* One write(2) per message, so a diagnostic is never split by another
 * process's output. */
static void write_stderr(const char *s, size_t n)
{
    before_write(STDERR_FILENO, s, n);
    if (write_all(STDERR_FILENO, s, n) != 0)
        stderr_error = 1;
}

static void vdiag(int errnum, const char *fmt, va_list ap)
{
    const char *err = errnum ? strerror(errnum) : NULL;
    va_list ap2;
    size_t head = strlen(program_name) + 2, len, total;
    char small[1024], *msg;
    int n;

    va_copy(ap2, ap);
    n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    len = n > 0 ? (size_t)n : 0;
    total = head + len + (err ? 2 + strlen(err) : 0) + 1;
    /* Short messages need no allocation.  A long one with no memory left
     * goes out in pieces, as GNU's unbuffered stderr writes it. */
    msg = total + 1 > sizeof small ? malloc_or_less(total + 1) : small;
    if (msg == NULL) {
        out_flush();
        before_write(STDERR_FILENO, "", 0);
        if (dprintf(STDERR_FILENO, "%s: ", program_name) < 0 ||
            vdprintf(STDERR_FILENO, fmt, ap) < 0 ||
            dprintf(STDERR_FILENO, err ? ": %s\n" : "\n", err) < 0)
            stderr_error = 1;
        return;
    }
    memcpy(msg, program_name, head - 2);
    memcpy(msg + head - 2, ": ", 2);
    vsnprintf(msg + head, len + 1, fmt, ap);
    if (err) {
        memcpy(msg + head + len, ": ", 2);
        memcpy(msg + head + len + 2, err, strlen(err));
    }
    msg[total - 1] = '\n';
    out_flush();
    write_stderr(msg, total);
    if (msg != small)
        free(msg);
}

void diag(int errnum, const char *fmt, ...)
{
    va_list ap;
    int saved = errno;

    va_start(ap, fmt);
    vdiag(errnum, fmt, ap);
    va_end(ap);
    errno = saved;
}

void diag_plain(const char *line)
{
    size_t len = strlen(line);
    char small[256], *msg = len + 1 > sizeof small ? malloc(len + 1) : small;

    if (msg == NULL)
        diag_out_of_memory();
    memcpy(msg, line, len);
    msg[len] = '\n';
    out_flush();
    write_stderr(msg, len + 1);
    if (msg != small)
        free(msg);
}

/* Not through vdiag, which may need memory: a fixed buffer, and pieces when
 * argv[0] is too long for it. */
void diag_out_of_memory(void)
{
    const char *text = oom_text;
    size_t head = strlen(program_name), len = strlen(text);
    char msg[1024];

    out_flush();
    if (head + len + 3 <= sizeof msg) {
        memcpy(msg, program_name, head);
        memcpy(msg + head, ": ", 2);
        memcpy(msg + head + 2, text, len);
        msg[head + 2 + len] = '\n';
        write_stderr(msg, head + len + 3);
    } else {
        write_stderr(program_name, head);
        write_stderr(": ", 2);
        write_stderr(text, len);
        write_stderr("\n", 1);
    }
    exit(EXIT_FAILURE);
}

void try_help_and_exit(void)
{
    /* GNU's emit_try_help: the catalogue's own words and quote marks. */
    const char *fmt = tr("Try '%s --help' for more information.\n");
    char small[256], *msg = small;
    int n = snprintf(small, sizeof small, fmt, program_name);
    size_t len = n > 0 ? (size_t)n : 0;

    if (len >= sizeof small) {
        if ((msg = malloc(len + 1)) == NULL)
            diag_out_of_memory();
        snprintf(msg, len + 1, fmt, program_name);
    }
    write_stderr(msg, len);
    if (msg != small)
        free(msg);
    exit(EXIT_FAILURE);
}
