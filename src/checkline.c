#include "checkline.h"

#include <string.h>

#include "codec.h"

#define HEX_LEN 32

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
