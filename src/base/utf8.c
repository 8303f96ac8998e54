/* utf8.c -- well-formed UTF-8 (Unicode table 3-7). */
#include "utf8.h"

size_t gpl_utf8_check(const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < len) {
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t n;
        unsigned lo = 0x80, hi = 0xBF; /* the range of the second byte */
        if (c >= 0xC2 && c <= 0xDF) n = 2;
        else if (c >= 0xE0 && c <= 0xEF) {
            n = 3;
            if (c == 0xE0) lo = 0xA0;      /* overlong */
            else if (c == 0xED) hi = 0x9F; /* surrogates */
        } else if (c >= 0xF0 && c <= 0xF4) {
            n = 4;
            if (c == 0xF0) lo = 0x90;      /* overlong */
            else if (c == 0xF4) hi = 0x8F; /* past U+10FFFF */
        } else {
            return i;
        }
        if (len - i < n || s[i + 1] < lo || s[i + 1] > hi) return i;
        for (size_t k = 2; k < n; k++)
            if ((s[i + k] & 0xC0) != 0x80) return i;
        i += n;
    }
    return len;
}
