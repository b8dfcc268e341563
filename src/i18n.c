/* The locale md5sum runs in.  setlocale(LC_ALL, "") loads all twelve
 * categories, of which md5sum uses three: LC_CTYPE (the characters of
 * names, quoting, column widths), LC_MESSAGES (the catalogues, strerror)
 * and LC_NUMERIC (--progress's decimal point).  The other nine cost a call
 * to md5sum about 150 us here, 12% of its time on a small file
 * (docs/PERFORMANCE.md); they are left as "C" whenever that changes nothing
 * md5sum does. */
#include "i18n.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    int category;
    const char *var;
} used[] = {{LC_CTYPE, "LC_CTYPE"}, {LC_NUMERIC, "LC_NUMERIC"}, {LC_MESSAGES, "LC_MESSAGES"}};
static const char *const unused[] = {"LC_TIME", "LC_COLLATE", "LC_MONETARY", "LC_PAPER",
                                     "LC_NAME", "LC_ADDRESS", "LC_TELEPHONE",
                                     "LC_MEASUREMENT", "LC_IDENTIFICATION"};

#define COUNT(a) (sizeof (a) / sizeof (a)[0])

/* VAR's value if set and not empty. */
static const char *env(const char *var)
{
    const char *v = getenv(var);

    return v && *v ? v : NULL;
}

/* The locale setlocale(category, "") picks for the category named VAR. */
static const char *name_for(const char *var)
{
    const char *v = env("LC_ALL");

    if (!v)
        v = env(var);
    if (!v)
        v = env("LANG");
    return v ? v : "C";
}

/* Whether setlocale(LC_ALL, "") would give the unused categories only
 * locales that the used ones load too, or "C": then loading the used ones
 * alone differs in nothing md5sum does.  (A locale is installed whole, so
 * if it loads for one category it loads for every other.) */
static int used_suffice(void)
{
    size_t i, k;

    for (i = 0; i < COUNT(unused); i++) {
        const char *n = name_for(unused[i]);
        int same = strcmp(n, "C") == 0 || strcmp(n, "POSIX") == 0;

        for (k = 0; k < COUNT(used) && !same; k++)
            same = strcmp(n, name_for(used[k].var)) == 0;
        if (!same)
            return 0;
    }
    return 1;
}

void i18n_start(void)
{
    size_t i, k;

    if (!used_suffice()) {
        setlocale(LC_ALL, "");
    } else {
        /* All or nothing, as setlocale(LC_ALL, "") is. */
        for (i = 0; i < COUNT(used) && setlocale(used[i].category, ""); i++)
            continue;
        if (i < COUNT(used))
            for (k = 0; k < i; k++)
                setlocale(used[k].category, "C");
    }
    i18n_bind();
}
