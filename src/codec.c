#include "codec.h"

#include <string.h>

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

int hex_matches(const char *hex, const unsigned char digest[MD5_DIGEST_SIZE])
{
    int i, diff = 0;

    for (i = 0; i < MD5_DIGEST_SIZE; i++)
        diff |= (hex_value(hex[2 * i]) << 4 | hex_value(hex[2 * i + 1])) ^ digest[i];
    return diff == 0;
}

int name_has_escapable(const char *name)
{
    return name[strcspn(name, "\\\n\r")] != '\0';
}

size_t escape_name(char *dst, const char *name, size_t len)
{
    char *d = dst;
    size_t i;

    for (i = 0; i < len; i++) {
        char c = name[i];

        if (c == '\\' || c == '\n' || c == '\r') {
            *d++ = '\\';
            c = (char)(c == '\n' ? 'n' : c == '\r' ? 'r' : '\\');
        }
        *d++ = c;
    }
    return (size_t)(d - dst);
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
