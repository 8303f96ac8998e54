/* memory_limit.c -- the host memory a job may ask for (memory_limit.h). */
#include "memory_limit.h"

#include <stdio.h>
#include <stdlib.h>

#include "bytes.h"
#include "error.h"

/* MemAvailable of /proc/meminfo in bytes, or 0. */
static uint64_t available_memory(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[128];
    unsigned long long kib = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) break;
    fclose(f);
    return (uint64_t)kib * 1024;
}

gpulayer_status gpl_host_memory_limit(uint64_t *out)
{
    const char *text = getenv("GPULAYER_MEMORY_LIMIT");
    if (text && *text) {
        gpulayer_status st = gpl_parse_bytes(text, out);
        if (st != GPULAYER_OK) return gpl_error_prefix(st, "GPULAYER_MEMORY_LIMIT");
        return GPULAYER_OK;
    }
    *out = available_memory();
    return GPULAYER_OK;
}

gpulayer_status gpl_check_host_memory(uint64_t bytes, const char *what)
{
    uint64_t limit;
    GPL_CHECK(gpl_host_memory_limit(&limit));
    if (limit == 0 || bytes <= limit) return GPULAYER_OK;
    char need[32], have[32];
    gpl_format_bytes(bytes, need, sizeof need);
    gpl_format_bytes(limit, have, sizeof have);
    const char *env = getenv("GPULAYER_MEMORY_LIMIT");
    return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                     "%s needs %s of host memory, more than the %s %s", what, need, have,
                     env && *env ? "that GPULAYER_MEMORY_LIMIT allows"
                                 : "available (set GPULAYER_MEMORY_LIMIT to change the limit)");
}
