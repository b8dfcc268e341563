/* Fuzz target: quoting of names in diagnostics, quote_name (src/quote.c).
 *
 * Input: one byte choosing the locale (bit 0: C.UTF-8, else C), then the
 * name up to its first NUL.  The oracle is the shell: GNU's quoting is meant
 * to be read back by a POSIX shell with $'...', so
 *   - the quoted text, read as one shell word ('...', "...", $'...' and
 *     backslash escapes), gives back the name byte for byte.  The exception
 *     is the gnulib 9.1 quirk that quote.c copies (a name holding a ' and
 *     ending unprintable starts as if a $'...' part were open): there the
 *     text reads back once its opening ' is taken as $';
 *   - a name printed without quotes is the name itself;
 *   - no control byte is ever written raw (the C locale: no byte outside
 *     printable ASCII at all).
 * ASan checks that the result fits the allocation quote_name makes.
 */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "../../src/quote.h"

/* The body of $'...' from Q[*I] to its closing quote.  Returns 0 on text
 * quote_name never writes. */
static int dollar_part(const char *q, size_t n, size_t *i, char *out, size_t *o)
{
    static const char names[] = "abfnrtv", codes[] = "\a\b\f\n\r\t\v";

    while (*i < n && q[*i] != '\'') {
        const char *e;

        if (q[*i] != '\\') {
            out[(*o)++] = q[(*i)++];
            continue;
        }
        if (++*i == n)
            return 0;
        if (q[*i] >= '0' && q[*i] <= '7') {
            unsigned v = 0, k;

            for (k = 0; k < 3; k++, ++*i) {
                if (*i == n || q[*i] < '0' || q[*i] > '7')
                    return 0;
                v = v * 8 + (unsigned)(q[*i] - '0');
            }
            REQUIRE(v > 0 && v < 256);
            out[(*o)++] = (char)v;
        } else if (q[*i] != '\0' && (e = strchr(names, q[*i])) != NULL) {
            out[(*o)++] = codes[e - names];
            ++*i;
        } else {
            return 0;
        }
    }
    if (*i == n)
        return 0;
    ++*i;
    return 1;
}

/* Q read as one shell word into OUT; its length, or -1 if it is not one.
 * START_DOLLAR: the first character opens a $'...' part. */
static long shell_word(const char *q, int start_dollar, char *out)
{
    size_t n = strlen(q), i = 0, o = 0;

    while (i < n) {
        char c = q[i];

        if ((i == 0 && start_dollar) || (c == '$' && i + 1 < n && q[i + 1] == '\'')) {
            i += i == 0 && start_dollar ? 1 : 2;
            if (!dollar_part(q, n, &i, out, &o))
                return -1;
        } else if (c == '\'' || c == '"') {
            for (i++; i < n && q[i] != c; i++)
                out[o++] = q[i];
            if (i++ == n)
                return -1;
        } else if (c == '\\') {
            if (i + 1 == n)
                return -1;
            out[o++] = q[i + 1];
            i += 2;
        } else {
            out[o++] = c;
            i++;
        }
    }
    return (long)o;
}

static locale_t c_locale, utf8_locale;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul;
    char *name, *q, *back;
    size_t n, i;
    long got;
    int utf8;

    if (size == 0)
        return 0;
    if (!c_locale) {
        c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
        utf8_locale = newlocale(LC_ALL_MASK, "C.UTF-8", (locale_t)0);
        REQUIRE(c_locale != (locale_t)0);
    }
    utf8 = (data[0] & 1) && utf8_locale;
    uselocale(utf8 ? utf8_locale : c_locale);
    data++;
    size--;
    nul = memchr(data, '\0', size);
    n = nul ? (size_t)(nul - data) : size;
    name = malloc(n + 1);
    REQUIRE(name != NULL);
    memcpy(name, data, n);
    name[n] = '\0';

    q = quote_name(name);
    for (i = 0; q[i]; i++) {
        unsigned char c = (unsigned char)q[i];
        REQUIRE(c >= 0x80 ? utf8 : c >= 0x20 && c != 0x7f);
    }
    if (q[0] != '\'' && q[0] != '"') {
        REQUIRE(strcmp(q, name) == 0);
    } else {
        back = malloc(strlen(q) + 1);
        REQUIRE(back != NULL);
        got = shell_word(q, 0, back);
        if (!(got == (long)n && memcmp(back, name, n) == 0)) {
            /* Only the 9.1 quirk may read back wrong, and only this way. */
            REQUIRE(strchr(name, '\'') != NULL && q[0] == '\'');
            got = shell_word(q, 1, back);
            REQUIRE(got == (long)n && memcmp(back, name, n) == 0);
        }
        free(back);
    }
    free(q);
    free(name);
    uselocale(LC_GLOBAL_LOCALE);
    return 0;
}
