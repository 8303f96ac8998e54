/* bytes.c -- memory sizes as people write and read them. */
#include "bytes.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

void gpl_format_bytes(uint64_t bytes, char *buf, size_t size)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = (double)bytes;
    int u = 0;
    while (v >= 1024.0 && u < 5) {
        v /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, size, "%llu B", (unsigned long long)bytes);
    else
        snprintf(buf, size, "%.1f %s", v, units[u]);
}

/* Returns the multiplier of a unit suffix, or 0 when unknown. */
static double unit_factor(const char *unit)
{
    static const struct {
        const char *name;
        double factor;
    } units[] = {
        {"", 1.0},     {"b", 1.0},     {"k", 0x1p10},  {"kib", 0x1p10},
        {"m", 0x1p20}, {"mib", 0x1p20}, {"g", 0x1p30}, {"gib", 0x1p30},
        {"t", 0x1p40}, {"tib", 0x1p40}, {"kb", 1e3},   {"mb", 1e6},
        {"gb", 1e9},   {"tb", 1e12},
    };
    char lower[8] = {0};
    size_t n = strnlen(unit, sizeof lower);
    if (n >= sizeof lower) return 0;
    for (size_t i = 0; i < n; i++) lower[i] = (char)tolower((unsigned char)unit[i]);
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(lower, units[i].name)) return units[i].factor;
    return 0;
}

gpulayer_status gpl_parse_bytes(const char *text, uint64_t *out)
{
    if (!text || !*text)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "empty memory size");
    char *end = NULL;
    errno = 0;
    double value = strtod(text, &end);
    if (end == text || errno || !isfinite(value) || value < 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "memory size '%s' is not a non-negative number "
                         "with an optional unit (512M, 8G, 1.5GiB, 8GB)",
                         text);
    while (*end == ' ') end++;
    double factor = unit_factor(end);
    if (factor == 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "memory size '%s' has an unknown unit '%s' (use B, "
                         "K, M, G, T, KiB..TiB or KB..TB)",
                         text, end);
    double bytes = value * factor;
    if (bytes >= 0x1p64)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "memory size '%s' is too large", text);
    *out = (uint64_t)bytes;
    return GPULAYER_OK;
}
