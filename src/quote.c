/* GNU's "shell-escape" quoting of file names in diagnostics, colon variant
 * (gnulib quotef) and always-quoted variant (quoteaf), reimplemented from
 * their observable rules:
 *   - a name made only of safe characters is printed as it is (except by
 *     quoteaf, which quotes every name, so ':' needs no quoting of its own);
 *   - otherwise, a name holding a ' whose characters are all "double-quote
 *     compatible" is printed between double quotes;
 *   - otherwise it is single-quoted, ' written as '\'', and each run of
 *     unprintable bytes written as $'...' with C escapes or 3-digit octal.
 * In a multibyte locale a valid printable character is a safe unit of its
 * own; an invalid byte, or an incomplete sequence at the end, is unprintable,
 * and each byte of an unprintable unit of several bytes is written in octal
 * (a ' or a control byte in it included: gnulib never looks inside).
 * One exception: a character of several bytes whose second or later byte is
 * the ASCII code of [ \ ^ ` or | (BIG5, GBK, GB18030, Shift_JIS have such
 * characters) forces quotes, as old shells read that byte as itself.  That
 * byte is still copied raw, and the character stays double-quote compatible. */
#include "quote.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "xalloc.h"

/* One character of the name: LEN bytes, PRINTABLE or not. */
struct unit {
    size_t len;
    int printable;
};

static struct unit next_unit(const char *s, size_t left)
{
    struct unit u = {1, 0};
    unsigned char c = (unsigned char)*s;
    mbstate_t st;
    wchar_t wc;
    size_t n;

    if (c < 0x80 || MB_CUR_MAX == 1) {
        u.printable = isprint(c) != 0;
        return u;
    }
    memset(&st, 0, sizeof st);
    n = mbrtowc(&wc, s, left, &st);
    if (n == (size_t)-2) {
        u.len = left;          /* incomplete at the end: every byte escaped */
    } else if (n != (size_t)-1 && n != 0) {
        u.len = n;
        u.printable = iswprint((wint_t)wc) != 0;
    }
    return u;
}

/* Does the ASCII byte C, at position I of a name of LEN bytes, force quoting? */
static int shell_special(unsigned char c, size_t i, size_t len)
{
    switch (c) {
    case '#': case '~':
        return i == 0;
    case '{': case '}':
        return len == 1;
    case ' ': case '!': case '"': case '$': case '&': case '\'': case '(':
    case ')': case '*': case ';': case '<': case '=': case '>': case '?':
    case '[': case '\\': case '^': case '`': case '|': case ':':
        return 1;
    default:
        return 0;
    }
}

/* Does the character of LEN bytes at S hold, after its first byte, a byte
 * that an old shell would take for one of its special characters? */
static int shell_special_tail(const char *s, size_t len)
{
    size_t j;

    for (j = 1; j < len; j++)
        if (s[j] != '\0' && strchr("[\\^`|", s[j]) != NULL)
            return 1;
    return 0;
}

/* May C appear in a double-quoted name (which escapes nothing)? */
static int dquote_ok(unsigned char c, size_t i, size_t len)
{
    if (c >= 0x80 || isalnum(c))   /* printable here: checked by the caller */
        return 1;
    switch (c) {
    case '%': case '+': case ',': case '-': case '.': case '/': case ':':
    case '@': case ']': case '_': case ' ': case '\'':
        return 1;
    case '#': case '~':
        return i == 0;
    case '{': case '}':
        return len == 1;
    default:
        return 0;
    }
}

/* What quoting a name needs, from one pass over its characters. */
struct shape {
    int needs_quotes;
    int dquotes;          /* printed between double quotes */
    int has_squote;       /* a ' of its own, not a byte inside a sequence */
    int ends_unprintable;
};

static struct shape scan(const char *name, size_t len)
{
    struct shape sh = {len == 0, 0, 0, 0};
    size_t i = 0;
    int all_dq = 1;

    while (i < len) {
        unsigned char c = (unsigned char)name[i];
        struct unit u = next_unit(name + i, len - i);

        if (!u.printable) {
            sh.needs_quotes = 1;
            all_dq = 0;
        } else if (u.len > 1) {
            if (shell_special_tail(name + i, u.len))
                sh.needs_quotes = 1;
        } else {
            if (shell_special(c, i, len))
                sh.needs_quotes = 1;
            if (!dquote_ok(c, i, len))
                all_dq = 0;
            sh.has_squote |= c == '\'';
        }
        sh.ends_unprintable = !u.printable;
        i += u.len;
    }
    sh.dquotes = sh.has_squote && all_dq;
    return sh;
}

/* Where the quoted name goes: BUF, or nowhere (NULL) when only its length
 * is wanted; LEN bytes so far. */
struct out {
    char *buf;
    size_t len;
};

static void append(struct out *o, const char *s, size_t n)
{
    if (o->buf)
        memcpy(o->buf + o->len, s, n);
    o->len += n;
}

/* C_ESCAPES: \n and its kind for a control byte of its own, not for one in
 * a longer unit (glibc's GB18030 takes "\x81\x30\n" at the end for an
 * incomplete 4-byte character). */
static void escape_byte(struct out *o, unsigned char c, int c_escapes)
{
    static const char cesc[] = "\aa\bb\ff\nn\rr\tt\vv";
    const char *e = c && c_escapes ? memchr(cesc, c, sizeof cesc - 1) : NULL;
    char esc[4];

    esc[0] = '\\';
    if (e && (e - cesc) % 2 == 0) {
        esc[1] = e[1];
        append(o, esc, 2);
    } else {
        esc[1] = (char)('0' + (c >> 6));
        esc[2] = (char)('0' + ((c >> 3) & 7));
        esc[3] = (char)('0' + (c & 7));
        append(o, esc, 4);
    }
}

/* NAME (LEN bytes, of shape SH) quoted when it needs to be, or when ALWAYS,
 * into O. */
static void render(struct out *o, const char *name, size_t len, struct shape sh, int always)
{
    size_t i = 0;
    int in_dollar = 0;

    if (!(sh.needs_quotes || always) || sh.dquotes) {
        if (sh.dquotes)
            append(o, "\"", 1);
        append(o, name, len);
        if (sh.dquotes)
            append(o, "\"", 1);
        return;
    }
    /* gnulib 9.1 quirk, kept for byte-identical messages: for a name holding
     * a ' it scans the whole name first, then writes it without resetting
     * whether a $'...' part is open.  So when the name ends unprintable, the
     * writing starts as if a $'...' part were already open.  A ' byte
     * inside an unprintable sequence is not a ' to gnulib. */
    if (sh.has_squote)
        in_dollar = sh.ends_unprintable;
    append(o, "'", 1);
    while (i < len) {
        struct unit u = next_unit(name + i, len - i);
        size_t k;

        if (!u.printable) {
            if (!in_dollar)
                append(o, "'$'", 3);
            in_dollar = 1;
            for (k = 0; k < u.len; k++)
                escape_byte(o, (unsigned char)name[i + k], u.len == 1);
        } else if (u.len == 1 && name[i] == '\'') {
            /* Closes whichever quoting is open, then an escaped quote. */
            append(o, "'\\''", 4);
            in_dollar = 0;
        } else {
            if (in_dollar)
                append(o, "''", 2);
            in_dollar = 0;
            append(o, name + i, u.len);
        }
        i += u.len;
    }
    append(o, "'", 1);
}

/* NAME quoted when it needs to be, or when ALWAYS: measured first, so that
 * a long name takes no more memory than its quoted form (as gnulib's). */
static char *quote(const char *name, int always)
{
    size_t len = strlen(name);
    struct shape sh = scan(name, len);
    struct out o = {NULL, 0};

    render(&o, name, len, sh, always);
    o.buf = xmalloc(o.len + 1);
    o.len = 0;
    render(&o, name, len, sh, always);
    o.buf[o.len] = '\0';
    return o.buf;
}

char *quote_name(const char *name)
{
    return quote(name, 0);
}

char *quote_name_always(const char *name)
{
    return quote(name, 1);
}
