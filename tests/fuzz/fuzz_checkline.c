/* Fuzz target: the check-line parser, parse_check_line (src/checkline.c).
 *
 * The input is a whole checksum list.  It is cut at '\n' and every line is
 * prepared as check.c prepares it ('#' lines skipped, one '\n' then one '\r'
 * removed, empty lines skipped), then parsed with one layout shared by every
 * line, as in a run.  Each line sits in a buffer of exactly LEN + 1 bytes, so
 * ASan sees any access past S[LEN].  For every line:
 *   - the verdict, the name, the hex digits and the layout agree with a model
 *     written from GNU md5sum 9.1's rules (below), which works on explicit
 *     lengths and never on NUL terminators;
 *   - a returned hex is 32 hex digits then a NUL, a returned name is a C
 *     string, both inside the line's buffer and not overlapping;
 *   - once decided, the layout never changes;
 *   - for a non-empty name, the lines md5sum would write for it (untagged and
 *     --tag, escaped when needed) parse back to the same name and digits.
 * A broken invariant aborts, which libFuzzer reports as a crash.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "../../src/checkline.h"
#include "../../src/codec.h"

#define HEX_LEN 32

/* ---- The model, bytes and lengths only. ----
 * Written from the team's reference for GNU md5sum 9.1, section 3.3 (its
 * section numbers below; ../shared/docs/gnu-md5sum-behaviour.md, outside
 * this repository).  In short: blanks and an optional '\' (escaped name)
 * first; then either the tagged form, "MD5", at most one space, '(', the
 * name up to the last ')', '=' between blanks and exactly 32 hex digits; or
 * 32 hex digits, one blank, then " name" or "*name" (GNU layout) or the rest
 * as the name (reversed layout).  The first untagged line fixes the layout
 * for the whole run. */

struct model {
    int ok;
    size_t hex_at;              /* offset of the digits in the line */
    unsigned char *name;        /* the file name, without NUL */
    size_t name_len;
};

static int m_blank(unsigned char c)
{
    return c == ' ' || c == '\t';
}

static int m_hex(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* 3.3.5: \\ \n \r only; any other escape, a trailing \ or a NUL is invalid. */
static int m_unescape(const unsigned char *s, size_t n, struct model *m)
{
    size_t i;

    m->name_len = 0;
    for (i = 0; i < n; i++) {
        unsigned char c = s[i];
        if (c == '\0')
            return 0;
        if (c == '\\') {
            if (++i == n)
                return 0;
            c = s[i] == '\\' ? '\\' : s[i] == 'n' ? '\n' : s[i] == 'r' ? '\r' : 0;
            if (c == 0)
                return 0;
        }
        m->name[m->name_len++] = c;
    }
    return 1;
}

/* 3.3.6: an unescaped name ends at its first NUL. */
static int m_name(const unsigned char *s, size_t n, int escaped, struct model *m)
{
    const unsigned char *nul;

    if (escaped)
        return m_unescape(s, n, m);
    nul = memchr(s, '\0', n);
    m->name_len = nul ? (size_t)(nul - s) : n;
    memcpy(m->name, s, m->name_len);
    return 1;
}

/* 32 hex digits and nothing after them.  As in GNU (hex_digits), the digits
 * are read as a C string, so a NUL right after them also ends them. */
static int m_digits_end_line(const unsigned char *s, size_t n)
{
    size_t i;

    if (n < HEX_LEN)
        return 0;
    for (i = 0; i < HEX_LEN; i++)
        if (!m_hex(s[i]))
            return 0;
    return n == HEX_LEN || s[HEX_LEN] == '\0';
}

static int model_parse(const unsigned char *s, size_t len, enum layout *layout, struct model *m)
{
    size_t i = 0, j, k, rest_len;
    const unsigned char *rest;
    int escaped = 0;

    while (i < len && m_blank(s[i]))
        i++;
    if (i < len && s[i] == '\\') {
        escaped = 1;
        i++;
    }
    if (len - i >= 3 && memcmp(s + i, "MD5", 3) == 0) {
        /* 3.3.2: MD5, at most one space, '(', NAME up to the last ')'. */
        i += 3;
        if (i < len && s[i] == ' ')
            i++;
        if (i >= len || s[i] != '(')
            return 0;
        i++;
        for (j = len; j > i && s[j - 1] != ')'; j--)
            continue;
        if (j == i)
            return 0;
        k = j;   /* just past the ')' */
        while (k < len && m_blank(s[k]))
            k++;
        if (k >= len || s[k] != '=')
            return 0;
        k++;
        while (k < len && m_blank(s[k]))
            k++;
        if (!m_name(s + i, j - 1 - i, escaped, m) || !m_digits_end_line(s + k, len - k))
            return 0;
        m->hex_at = k;
        return 1;
    }
    /* 3.3.3: 32 hex digits, one blank, a name of at least one byte. */
    if (len - i < HEX_LEN + 2)
        return 0;
    for (k = 0; k < HEX_LEN; k++)
        if (!m_hex(s[i + k]))
            return 0;
    if (!m_blank(s[i + HEX_LEN]))
        return 0;
    m->hex_at = i;
    rest = s + i + HEX_LEN + 1;
    rest_len = len - i - HEX_LEN - 1;
    if (rest_len == 1 || (rest[0] != ' ' && rest[0] != '*')) {
        /* Reversed layout: refused once the run is GNU (3.3.4). */
        if (*layout == LAYOUT_GNU)
            return 0;
        *layout = LAYOUT_REVERSED;
    } else if (*layout != LAYOUT_REVERSED) {
        *layout = LAYOUT_GNU;
        rest++;   /* the mode marker */
        rest_len--;
    }
    return m_name(rest, rest_len, escaped, m);
}

/* ---- The parser under test. ---- */

static int inside(const char *p, const char *buf, size_t size)
{
    return p >= buf && p < buf + size;
}

/* Parse the LEN bytes of LINE as check.c does, in a buffer of LEN + 1. */
static int parse_copy(const char *line, size_t len, enum layout *layout, struct check_line *out,
                      char **buf)
{
    *buf = malloc(len + 1);
    REQUIRE(*buf != NULL);
    memcpy(*buf, line, len);
    return parse_check_line(*buf, len, out, layout);
}

/* What md5sum writes for NAME and HEX (untagged, or --tag), parsed back. */
static void check_reserialised(const char *name, const char *hex, int tagged)
{
    size_t n = strlen(name);
    int escape = name_has_escapable(name);
    char *line = malloc(2 * n + HEX_LEN + 16), *p = line, *buf;
    struct check_line e;
    enum layout layout = LAYOUT_UNDECIDED;

    REQUIRE(line != NULL);
    if (escape)
        *p++ = '\\';
    if (tagged) {
        memcpy(p, "MD5 (", 5);
        p += 5;
    } else {
        memcpy(p, hex, HEX_LEN);
        memcpy(p + HEX_LEN, "  ", 2);
        p += HEX_LEN + 2;
    }
    if (escape) {
        p += escape_name(p, name, n);
    } else {
        memcpy(p, name, n);
        p += n;
    }
    if (tagged) {
        memcpy(p, ") = ", 4);
        memcpy(p + 4, hex, HEX_LEN);
        p += 4 + HEX_LEN;
    }
    REQUIRE(parse_copy(line, (size_t)(p - line), &layout, &e, &buf) == 1);
    REQUIRE(strcmp(e.name, name) == 0);
    REQUIRE(memcmp(e.hex, hex, HEX_LEN) == 0);
    REQUIRE(tagged ? layout == LAYOUT_UNDECIDED : layout == LAYOUT_GNU);
    free(buf);
    free(line);
}

static void check_line(const char *line, size_t len, enum layout *layout, enum layout *model_layout)
{
    enum layout before = *layout;
    struct check_line e = {NULL, NULL};
    struct model m;
    char *buf;
    int ok;

    m.name = malloc(len + 1);
    REQUIRE(m.name != NULL);
    m.ok = model_parse((const unsigned char *)line, len, model_layout, &m);
    ok = parse_copy(line, len, layout, &e, &buf);

    REQUIRE(ok == 0 || ok == 1);
    REQUIRE(ok == m.ok);
    REQUIRE(*layout == *model_layout);
    REQUIRE(before == LAYOUT_UNDECIDED || *layout == before);
    if (ok) {
        size_t name_len;

        REQUIRE(inside(e.hex, buf, len + 1) && inside(e.hex + HEX_LEN, buf, len + 1));
        REQUIRE(e.hex[HEX_LEN] == '\0' && strspn(e.hex, "0123456789abcdefABCDEF") == HEX_LEN);
        REQUIRE((size_t)(e.hex - buf) == m.hex_at);
        REQUIRE(memcmp(e.hex, line + m.hex_at, HEX_LEN) == 0);
        REQUIRE(inside(e.name, buf, len + 1));
        name_len = strlen(e.name);   /* ASan: the NUL is inside the buffer */
        REQUIRE(e.name + name_len < e.hex || e.name > e.hex + HEX_LEN);
        REQUIRE(name_len == m.name_len && memcmp(e.name, m.name, name_len) == 0);
        if (name_len > 0) {
            check_reserialised(e.name, e.hex, 0);
            check_reserialised(e.name, e.hex, 1);
        }
    }
    free(buf);
    free(m.name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *end = p + size;
    enum layout layout = LAYOUT_UNDECIDED, model_layout = LAYOUT_UNDECIDED;

    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *next = nl ? nl + 1 : end;
        size_t len = (size_t)((nl ? nl : end) - p);

        /* check.c: '#' in column 1 is a comment; one CR before the LF goes. */
        if (p[0] != '#') {
            if (len > 0 && p[len - 1] == '\r')
                len--;
            if (len > 0)
                check_line(p, len, &layout, &model_layout);
        }
        p = next;
    }
    return 0;
}
