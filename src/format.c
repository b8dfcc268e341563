#include "format.h"

#include <string.h>

#include "output.h"

void format_hex(char hex[2 * MD5_DIGEST_SIZE + 1], const unsigned char digest[MD5_DIGEST_SIZE])
{
    static const char digits[] = "0123456789abcdef";
    int i;

    for (i = 0; i < MD5_DIGEST_SIZE; i++) {
        hex[2 * i] = digits[digest[i] >> 4];
        hex[2 * i + 1] = digits[digest[i] & 15];
    }
    hex[2 * MD5_DIGEST_SIZE] = '\0';
}

int name_has_escapable(const char *name)
{
    return name[strcspn(name, "\\\n\r")] != '\0';
}

void out_name(const char *name, int escape)
{
    const char *run = name;

    if (!escape) {
        out_str(name);
        return;
    }
    /* Copy runs of plain bytes in one go; escape the three special ones. */
    for (;;) {
        size_t n = strcspn(run, "\\\n\r");
        out_write(run, n);
        run += n;
        if (*run == '\0')
            return;
        out_str(*run == '\\' ? "\\\\" : *run == '\n' ? "\\n" : "\\r");
        run++;
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
