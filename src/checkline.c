#include "checkline.h"

#include <string.h>

#define HEX_LEN 32

int hex_value(char c)
{
    /* One load, no branch: hex digits come in random order. */
    static const signed char value[256] = {
        ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7,
        ['7'] = 8, ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13,
        ['d'] = 14, ['e'] = 15, ['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13,
        ['D'] = 14, ['E'] = 15, ['F'] = 16,
    };
    return value[(unsigned char)c] - 1;
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* Exactly 32 hex digits (either case), then the end of the string.  It
 * stops at the first non-digit, so it never reads past the string's end. */
static int valid_hex(const char *h)
{
    int i;

    for (i = 0; i < HEX_LEN; i++)
        if (hex_value(h[i]) < 0)
            return 0;
    return h[HEX_LEN] == '\0';
}

int unescape_name(char *s, size_t len)
{
    char *dst = s;
    size_t i;

    for (i = 0; i < len; i++) {
        if (s[i] == '\0')
            return 0;
        if (s[i] != '\\') {
            *dst++ = s[i];
            continue;
        }
        if (++i == len)
            return 0;
        switch (s[i]) {
        case '\\': *dst++ = '\\'; break;
        case 'n': *dst++ = '\n'; break;
        case 'r': *dst++ = '\r'; break;
        default: return 0;
        }
    }
    if (dst < s + len)
        *dst = '\0';
    return 1;
}

/* After "MD5 (": the name runs to the LAST ')' of the line. */
static int parse_tagged(char *s, size_t len, int escaped, struct check_line *out)
{
    size_t j;

    if (len == 0)
        return 0;
    for (j = len - 1; j > 0 && s[j] != ')'; j--)
        continue;
    if (s[j] != ')')
        return 0;
    if (escaped && !unescape_name(s, j))
        return 0;
    s[j++] = '\0';
    while (is_blank(s[j]))
        j++;
    if (s[j++] != '=')
        return 0;
    while (is_blank(s[j]))
        j++;
    out->name = s;
    out->hex = s + j;
    return valid_hex(out->hex);
}

int parse_check_line(char *s, size_t len, struct check_line *out, enum layout *layout)
{
    size_t i = 0;
    int escaped = 0;

    s[len] = '\0';
    while (is_blank(s[i]))
        i++;
    if (s[i] == '\\') {
        i++;
        escaped = 1;
    }
    if (strncmp(s + i, "MD5", 3) == 0) {
        i += 3;
        if (s[i] == ' ')
            i++;
        if (s[i] != '(')
            return 0;
        i++;
        return parse_tagged(s + i, len - i, escaped, out);
    }

    /* Untagged: HEX, one blank, then a name of at least one byte.  As in GNU,
     * one more byte is required when a second backslash follows the first. */
    if (len - i < HEX_LEN + 2 + (s[i] == '\\'))
        return 0;
    out->hex = s + i;
    i += HEX_LEN;
    if (!is_blank(s[i]))
        return 0;
    s[i++] = '\0';
    if (!valid_hex(out->hex))
        return 0;
    /* "HEX  NAME" / "HEX *NAME" (GNU) or "HEX NAME" (reversed, as md5 -r). */
    if (len - i == 1 || (s[i] != ' ' && s[i] != '*')) {
        if (*layout == LAYOUT_GNU)
            return 0;
        *layout = LAYOUT_REVERSED;
    } else if (*layout != LAYOUT_REVERSED) {
        *layout = LAYOUT_GNU;
        i++;   /* the mode marker */
    }
    out->name = s + i;
    return !escaped || unescape_name(s + i, len - i);
}
