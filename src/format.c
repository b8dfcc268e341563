#include "format.h"

#include <string.h>

#include "codec.h"
#include "output.h"

void out_name(const char *name, int escape)
{
    char piece[2 * 256];
    size_t len = strlen(name);

    if (!escape) {
        out_write(name, len);
        return;
    }
    /* In pieces: a name may be megabytes long.  The bytes reach the output
     * buffer in the same order, so the line still leaves in one write. */
    while (len > 0) {
        size_t n = len < sizeof piece / 2 ? len : sizeof piece / 2;

        out_write(piece, escape_name(piece, name, n));
        name += n;
        len -= n;
    }
}

void print_digest_line(const char *name, const unsigned char digest[MD5_DIGEST_SIZE],
                       const struct line_style *style)
{
    char hex[2 * MD5_DIGEST_SIZE + 1];
    int escape = style->eol == '\n' && name_has_escapable(name);

    format_hex(hex, digest);
    if (escape)
        out_char('\\');
    if (style->tag) {
        out_str("MD5 (");
        out_name(name, escape);
        out_str(") = ");
        out_write(hex, 2 * MD5_DIGEST_SIZE);
    } else {
        out_write(hex, 2 * MD5_DIGEST_SIZE);
        out_str(style->binary ? " *" : "  ");
        out_name(name, escape);
    }
    out_char(style->eol);
}
