/* Fuzz target: GNU name escaping (escape_name, src/format.c) and its inverse
 * (unescape_name, src/checkline.c).
 *
 * The input up to its first NUL is a file name (names cannot hold a NUL).
 *   - escape_name writes the name plus one backslash per '\\', LF or CR, and
 *     its output holds no LF or CR: an escaped name stays on one line;
 *   - every backslash of the output starts one of \\, \n, \r;
 *   - unescape_name gives back the name, byte for byte;
 *   - a non-empty name survives the trip through the lines md5sum writes and
 *     parse_check_line reads: untagged and --tag, escaped when GNU escapes.
 * Every buffer is exactly as large as its contract says, so ASan catches a
 * write past 2 * LEN or a read past the end.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "../../src/checkline.h"
#include "../../src/codec.h"

#define HEX_LEN 32

static char *xdup(const void *p, size_t n, size_t room)
{
    char *s = malloc(room);

    REQUIRE(s != NULL && n <= room);
    memcpy(s, p, n);
    return s;
}

/* The escaped form and its inverse. */
static void round_trip(const char *name, size_t n)
{
    size_t specials = 0, elen, i;
    char *esc = malloc(2 * n + 1), *back;   /* + 1: malloc(0) may be NULL */

    REQUIRE(esc != NULL);
    for (i = 0; i < n; i++)
        specials += name[i] == '\\' || name[i] == '\n' || name[i] == '\r';
    elen = escape_name(esc, name, n);
    REQUIRE(elen == n + specials);
    REQUIRE(memchr(esc, '\n', elen) == NULL && memchr(esc, '\r', elen) == NULL);
    for (i = 0; i < elen; i++)
        if (esc[i] == '\\') {
            REQUIRE(i + 1 < elen && strchr("\\nr", esc[i + 1]) != NULL);
            i++;
        }
    REQUIRE((specials > 0) == (name_has_escapable(name) != 0));

    /* unescape_name's contract: S[LEN] is the caller's terminator. */
    back = xdup(esc, elen, elen + 1);
    back[elen] = '\0';
    REQUIRE(unescape_name(back, elen) == 1);
    REQUIRE(strlen(back) == n && memcmp(back, name, n) == 0);
    free(back);
    free(esc);
}

/* "[\]HEX  NAME" or "[\]MD5 (NAME) = HEX" through parse_check_line. */
static void through_a_line(const char *name, size_t n, int tagged)
{
    static const char hex[] = "900150983cd24fb0d6963f7d28e17f72";
    int escape = name_has_escapable(name);
    char *line = malloc(2 * n + HEX_LEN + 16), *p = line, *buf;
    enum layout layout = LAYOUT_UNDECIDED;
    struct check_line e;
    size_t len;

    REQUIRE(line != NULL);
    if (escape)
        *p++ = '\\';
    p += sprintf(p, tagged ? "MD5 (" : "%s  ", hex);
    if (escape) {
        p += escape_name(p, name, n);
    } else {
        memcpy(p, name, n);
        p += n;
    }
    if (tagged)
        p += sprintf(p, ") = %s", hex);
    len = (size_t)(p - line);
    buf = xdup(line, len, len + 1);
    REQUIRE(parse_check_line(buf, len, &e, &layout) == 1);
    REQUIRE(strlen(e.name) == n && memcmp(e.name, name, n) == 0);
    REQUIRE(memcmp(e.hex, hex, HEX_LEN) == 0);
    free(buf);
    free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *nul = memchr(data, '\0', size);
    size_t n = nul ? (size_t)(nul - data) : size;
    char *name = xdup(data, n, n + 1);

    name[n] = '\0';
    round_trip(name, n);
    if (n > 0) {
        through_a_line(name, n, 0);
        through_a_line(name, n, 1);
    }
    free(name);
    return 0;
}
