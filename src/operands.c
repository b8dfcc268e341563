/* The operands: see operands.h.  A list is read through a line reader with
 * NUL as its delimiter, a buffer at a time, so a list of millions of names
 * takes the memory of its longest name, and each name is handed out as soon
 * as it is read. */
#include "operands.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "fdview.h"
#include "i18n.h"
#include "input.h"
#include "quote.h"

/* wc reads a regular list of at most this size whole, before any name, and
 * says "cannot read file names from F" if that fails; any other list it
 * reads as a stream, and says "F: read error: ...". */
#define WC_WHOLE_MAX ((intmax_t)10 << 20)

void operands_from_argv(struct operands *o, char *const *argv, int argc)
{
    static char dash[] = "-";
    static char *const stdin_only[] = {dash};

    memset(o, 0, sizeof *o);
    o->argv = argc > 0 ? argv : stdin_only;
    o->argc = argc > 0 ? argc : 1;
    o->ok = 1;
}

int operands_from_list(struct operands *o, const char *list, void (*before_wait)(void))
{
    struct stat st;
    int fd;

    memset(o, 0, sizeof *o);
    o->list = list;
    o->ok = 1;
    /* Not through input_open's "-": that marks standard input for the close
     * checked at exit, which wc does only when a name "-" has read it. */
    o->list_is_stdin = strcmp(list, "-") == 0;
    if (!o->list_is_stdin)
        fdview_record(-1);   /* the list is ours, held for the run */
    fd = o->list_is_stdin ? STDIN_FILENO : input_open(list);
    if (fd < 0) {
        char *q = quote_name_always(list);
        diag(errno, tr("cannot open %s for reading"), q);
        free(q);
        return -1;
    }
    o->whole = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size <= WC_WHOLE_MAX;
    lines_init(&o->r, fd, '\0', before_wait);
    return 0;
}

/* Report a problem with the list, after what came before it. */
static void list_error(struct operands *o)
{
    o->ok = 0;
    if (o->r.before_wait)
        o->r.before_wait();
}

/* The list failed to read (errno set): wc's words for it, then its end. */
static void read_failed(struct operands *o)
{
    int err = errno;
    char *q;

    list_error(o);
    if (o->whole) {
        q = quote_name_always(o->list);
        diag(0, tr("cannot read file names from %s"), q);
    } else {
        q = quote_name(o->list);
        diag(err, tr("%s: read error"), q);
    }
    free(q);
    o->done = 1;
}

static const char *next_listed(struct operands *o)
{
    char *name;
    size_t len;
    int rc;

    while (!o->done && (rc = lines_next(&o->r, &name, &len)) != 0) {
        if (rc < 0) {
            read_failed(o);
            break;
        }
        o->records++;
        if (name[len - 1] != '\0')
            name[len] = '\0';   /* the last name, with no NUL of its own */
        if (o->list_is_stdin && strcmp(name, "-") == 0) {
            char *q = quote_name_always(name);
            list_error(o);
            diag(0, tr("when reading file names from stdin, no file name of %s allowed"), q);
            free(q);
        } else if (name[0] == '\0') {
            /* wc's "FILE:RECORD:" prefix, though records are not lines. */
            char *q = quote_name(o->list);
            list_error(o);
            diag(0, "%s:%" PRIuMAX ": %s", q, o->records, tr("invalid zero-length file name"));
            free(q);
        } else {
            return name;
        }
    }
    o->done = 1;
    return NULL;
}

const char *operands_next(struct operands *o)
{
    if (o->list)
        return next_listed(o);
    if (o->argc == 0)
        return NULL;
    o->argc--;
    return *o->argv++;
}

int operands_end(struct operands *o)
{
    if (o->list) {
        /* Read-only: its close tells nothing of what was read. */
        if (!o->list_is_stdin)
            input_close(o->r.fd);
        lines_free(&o->r);
        o->list = NULL;
    }
    return o->ok;
}
