/* json_num.c -- shortest round-trip decimal text for floats and doubles.
 *
 * printf's %g is locale-dependent (a German locale writes "0,5") and does
 * not pick the shortest exact form by itself, so a value is printed at a
 * few precisions and the shortest text that reads back unchanged is kept,
 * then the decimal point is normalised. */
#include "json_num.h"

#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Replaces the locale's decimal point (when it is not '.') with '.'. The
 * round-trip checks run before this, with the same locale as printf. */
static int normalise_decimal_point(char *buf, int len)
{
    if (strspn(buf, "0123456789+-.e") == (size_t)len) return len;
    const char *dp = localeconv()->decimal_point;
    size_t dlen = strlen(dp);
    char *at = dlen ? strstr(buf, dp) : NULL;
    if (!at) return len;
    *at = '.';
    memmove(at + 1, at + dlen, (size_t)len - (size_t)(at - buf) - dlen + 1);
    return len - (int)dlen + 1;
}

static int float_text(float f, int digits, char *buf)
{
    return snprintf(buf, GPL_NUM_TEXT_SIZE, "%.*g", digits, (double)f);
}

/* The shortest text of f in the current locale's notation. Nine digits
 * always read back; fewer are tried from eight down, which costs one or
 * two conversions for the typical value that needs eight or nine. */
static int shortest_float(float f, char *buf)
{
    int len = float_text(f, 8, buf);
    if (strtof(buf, NULL) != f) return float_text(f, 9, buf);
    char shorter[GPL_NUM_TEXT_SIZE];
    for (int digits = 7; digits >= 6; digits--) {
        int n = float_text(f, digits, shorter);
        if (strtof(shorter, NULL) != f) break;
        memcpy(buf, shorter, (size_t)n + 1);
        len = n;
    }
    return len;
}

int gpl_format_float(float f, char buf[GPL_NUM_TEXT_SIZE])
{
    return normalise_decimal_point(buf, shortest_float(f, buf));
}

int gpl_format_double(double d, char buf[GPL_NUM_TEXT_SIZE])
{
    if (d == floor(d) && fabs(d) < 1e15 && !(d == 0.0 && signbit(d)))
        return snprintf(buf, GPL_NUM_TEXT_SIZE, "%lld", (long long)d);
    int len = 0;
    for (int digits = 15; digits <= 17; digits++) {
        len = snprintf(buf, GPL_NUM_TEXT_SIZE, "%.*g", digits, d);
        if (strtod(buf, NULL) == d) break;
    }
    return normalise_decimal_point(buf, len);
}

double gpl_float_as_decimal(float f)
{
    if (!isfinite(f)) return (double)f;
    char buf[GPL_NUM_TEXT_SIZE];
    shortest_float(f, buf);
    double d = strtod(buf, NULL);
    /* Reading the short text as a double and rounding that to float rounds
     * twice; where that could land on the other float, keep the exact
     * value (its text is longer but reads back exactly). */
    return (float)d == f ? d : (double)f;
}
