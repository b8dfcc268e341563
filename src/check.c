/* --check: read a checksum list line by line, verify each entry, count, and
 * print GNU md5sum 9.1's status lines, warnings and summary. */
#include "check.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "checkline.h"
#include "codec.h"
#include "diag.h"
#include "engine.h"
#include "format.h"
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

/* A diagnostic about the list itself: "Q(LABEL)" then SUFFIX. */
static void list_diag(int errnum, const char *label, const char *suffix)
{
    char *q = quote_name(label);
    diag(errnum, "%s%s", q, suffix);
    free(q);
}

/* One list being verified: what the engine's results are counted against. */
struct list_run {
    const char *label;              /* the list's name in messages */
    const struct check_opts *o;
    struct counts c;
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
        diag(0, "%s: %ju: improperly formatted MD5 checksum line", q, lineno);
        free(q);
    } else if (r->status != RESULT_OK) {
        if (r->status == RESULT_OPEN_FAILED && o->ignore_missing && r->err == ENOENT)
            return;
        list_diag(r->err, r->name, "");
        c->unreadable++;
        if (!o->status_only)
            status_line(r->name, "FAILED open or read");
    } else if (hex_matches(r->tag, r->digest)) {
        c->matched = 1;
        if (!o->status_only && !o->quiet)
            status_line(r->name, "OK");
    } else {
        c->mismatched++;
        if (!o->status_only)
            status_line(r->name, "FAILED");
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
        list_diag(0, label, ": no properly formatted checksum lines found");
        return;
    }
    if (o->status_only)
        return;
    if (c->misformatted)
        diag(0, c->misformatted == 1 ? "WARNING: %ju line is improperly formatted"
                                     : "WARNING: %ju lines are improperly formatted",
             c->misformatted);
    if (c->unreadable)
        diag(0, c->unreadable == 1 ? "WARNING: %ju listed file could not be read"
                                   : "WARNING: %ju listed files could not be read",
             c->unreadable);
    if (c->mismatched)
        diag(0, c->mismatched == 1 ? "WARNING: %ju computed checksum did NOT match"
                                   : "WARNING: %ju computed checksums did NOT match",
             c->mismatched);
    if (o->ignore_missing && !c->matched)
        list_diag(0, label, ": no file was verified");
}

int check_list(const char *name, const struct check_opts *o)
{
    int is_stdin = strcmp(name, "-") == 0;
    const char *label = is_stdin ? "standard input" : name;
    struct list_run run = {NULL, NULL, {0, 0, 0, 0, 0}};
    struct counts *c = &run.c;
    struct line_reader r;
    uintmax_t lineno = 0;
    char *line;
    size_t len;
    int fd = input_open(name), rc, read_err;

    if (fd < 0) {
        list_diag(errno, label, "");
        return 0;
    }
    run.label = label;
    run.o = o;
    engine_start(check_emit, check_flush, &run);
    lines_init(&r, fd, engine_wait);
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
    engine_finish();
    if (read_err) {
        input_close(fd);
        list_diag(0, label, ": read error");
        return 0;
    }
    if (input_close(fd) != 0) {
        list_diag(errno, label, "");
        return 0;
    }
    summary(label, o, c);
    return c->well_formed && c->matched && !c->mismatched && !c->unreadable &&
           !(o->strict && c->misformatted);
}
