/* --check: read a checksum list line by line, verify each entry, count, and
 * print GNU md5sum 9.1's status lines, warnings and summary. */
#include "check.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "checkline.h"
#include "codec.h"
#include "diag.h"
#include "engine.h"
#include "fdview.h"
#include "format.h"
#include "i18n.h"
#include "input.h"
#include "lines.h"
#include "output.h"
#include "quote.h"

/* Shared by every list of the run, as in GNU. */
static enum layout layout = LAYOUT_UNDECIDED;

struct counts {
    uintmax_t misformatted, unreadable, mismatched;
    int well_formed;   /* at least one line parsed */
    int matched;       /* at least one entry verified OK */
};

/* "NAME: RESULT".  9.1 escapes a name here only when it holds a newline. */
static void status_line(const char *name, const char *result)
{
    int escape = strchr(name, '\n') != NULL;

    if (escape)
        out_char('\\');
    out_name(name, escape);
    out_str(": ");
    out_str(result);
    out_char('\n');
}

/* A diagnostic about a name: FMT, holding one %s for Q(NAME). */
static void name_diag(int errnum, const char *fmt, const char *name)
{
    char *q = quote_name(name);
    diag(errnum, fmt, q);
    free(q);
}

/* One list being verified: what the engine's results are counted against. */
struct list_run {
    const char *label;              /* the list's name in messages */
    const struct check_opts *o;
    struct counts c;
    /* The status words, translated once: a lookup costs about 0.6 us in
     * C.UTF-8, 12 ms a list of 20,000 lines (docs/PERFORMANCE.md). */
    const char *ok, *failed, *unreadable;
};

/* One entry's result, in list order; a mark is a deferred -w warning. */
static void check_emit(const struct result *r, void *arg)
{
    struct list_run *run = arg;
    const struct check_opts *o = run->o;
    struct counts *c = &run->c;

    if (r->name == NULL) {
        uintmax_t lineno;
        char *q = quote_name(run->label);
        memcpy(&lineno, r->tag, sizeof lineno);
        diag(0, tr("%s: %" PRIuMAX ": improperly formatted %s checksum line"), q, lineno, "MD5");
        free(q);
    } else if (r->status != RESULT_OK) {
        if (r->status == RESULT_OPEN_FAILED && o->ignore_missing && r->err == ENOENT)
            return;
        name_diag(r->err, "%s", r->name);
        c->unreadable++;
        if (!o->status_only)
            status_line(r->name, run->unreadable);
    } else if (hex_matches(r->tag, r->digest)) {
        c->matched = 1;
        if (!o->status_only && !o->quiet)
            status_line(r->name, run->ok);
    } else {
        c->mismatched++;
        if (!o->status_only)
            status_line(r->name, run->failed);
    }
}

static void check_flush(void *arg)
{
    (void)arg;
    out_sync();
}

static void summary(const char *label, const struct check_opts *o, const struct counts *c)
{
    if (!c->well_formed) {
        name_diag(0, tr("%s: no properly formatted checksum lines found"), label);
        return;
    }
    if (o->status_only)
        return;
    if (c->misformatted)
        diag(0, trn("WARNING: %" PRIuMAX " line is improperly formatted",
                   "WARNING: %" PRIuMAX " lines are improperly formatted", c->misformatted),
             c->misformatted);
    if (c->unreadable)
        diag(0, trn("WARNING: %" PRIuMAX " listed file could not be read",
                   "WARNING: %" PRIuMAX " listed files could not be read", c->unreadable),
             c->unreadable);
    if (c->mismatched)
        diag(0, trn("WARNING: %" PRIuMAX " computed checksum did NOT match",
                   "WARNING: %" PRIuMAX " computed checksums did NOT match", c->mismatched),
             c->mismatched);
    if (o->ignore_missing && !c->matched)
        name_diag(0, tr("%s: no file was verified"), label);
}

int check_list(const char *name, const struct check_opts *o)
{
    int is_stdin = strcmp(name, "-") == 0;
    const char *label = is_stdin ? tr("standard input") : name;
    struct list_run run = {NULL, NULL, {0, 0, 0, 0, 0}, NULL, NULL, NULL};
    struct counts *c = &run.c;
    struct line_reader r;
    uintmax_t lineno = 0;
    char *line;
    size_t len;
    int fd = input_open(name), rc, read_err;

    if (fd < 0) {
        name_diag(errno, "%s", label);
        return 0;
    }
    run.label = label;
    run.o = o;
    run.ok = tr("OK");
    run.failed = tr("FAILED");
    run.unreadable = tr("FAILED open or read");
    /* GNU has the list open while it verifies the entries, at the lowest
     * free number from 3: this one, unless ours holds a --files0-from list.
     * Standard input is the user's already. */
    if (!is_stdin)
        fdview_show(fd);
    engine_start(check_emit, check_flush, &run);
    lines_init(&r, fd, '\n', engine_wait);
    while ((rc = lines_next(&r, &line, &len)) > 0) {
        struct check_line e;

        lineno++;
        if (line[0] == '#')
            continue;
        if (len > 0 && line[len - 1] == '\n')
            len--;
        if (len > 0 && line[len - 1] == '\r')
            len--;
        if (len == 0)
            continue;
        /* A list read from stdin cannot name stdin. */
        if (!parse_check_line(line, len, &e, &layout) || (is_stdin && strcmp(e.name, "-") == 0)) {
            c->misformatted++;
            if (o->warn)
                engine_mark(&lineno, sizeof lineno);
            continue;
        }
        c->well_formed = 1;
        engine_submit(e.name, e.hex, 2 * MD5_DIGEST_SIZE);
    }
    read_err = rc < 0;
    lines_free(&r);
    engine_wait();
    fdview_hide(fd);
    if (read_err) {
        input_close(fd);
        name_diag(0, tr("%s: read error"), label);
        return 0;
    }
    if (input_close(fd) != 0) {
        name_diag(errno, "%s", label);
        return 0;
    }
    summary(label, o, c);
    return c->well_formed && c->matched && !c->mismatched && !c->unreadable &&
           !(o->strict && c->misformatted);
}
