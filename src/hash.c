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

int hash_files(char *const *names, int n, const struct line_style *style)
{
    struct hash_run run;
    int i;

    run.style = style;
    run.ok = 1;
    engine_start(hash_emit, hash_flush, &run);
    for (i = 0; i < n; i++)
        engine_submit(names[i], NULL, 0);
    engine_finish();
    return run.ok;
}
