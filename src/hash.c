/* Hashing mode: the engine's results turned into GNU md5sum 9.1's lines. */
#include "hash.h"

#include <stdlib.h>

#include "diag.h"
#include "engine.h"
#include "output.h"
#include "quote.h"

struct hash_run {
    const struct line_style *style;
    int ok;
};

/* One operand's result, in operand order: its line, or GNU's diagnostic. */
static void hash_emit(const struct result *r, void *arg)
{
    struct hash_run *run = arg;

    if (r->status != RESULT_OK) {
        char *q = quote_name(r->name);
        diag(r->err, "%s", q);
        free(q);
        run->ok = 0;
        return;
    }
    print_digest_line(r->name, r->digest, run->style);
}

static void hash_flush(void *arg)
{
    (void)arg;
    out_sync();
}

/* One run at a time: the engine runs one sequence at a time too. */
static struct hash_run current;

void hash_begin(const struct line_style *style)
{
    current.style = style;
    current.ok = 1;
    engine_start(hash_emit, hash_flush, &current);
}

void hash_operand(const char *name)
{
    engine_submit(name, NULL, 0);
}

int hash_end(void)
{
    engine_wait();
    return current.ok;
}
