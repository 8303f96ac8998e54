/* error.c -- per-thread last error, status names and allocation helpers. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

static _Thread_local char last_error[GPL_ERROR_CAPACITY];

gpulayer_status gpl_error(gpulayer_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

gpulayer_status gpl_error_prefix(gpulayer_status status, const char *fmt, ...)
{
    char combined[2 * GPL_ERROR_CAPACITY + 8];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(combined, GPL_ERROR_CAPACITY, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    if (n > GPL_ERROR_CAPACITY - 1) n = GPL_ERROR_CAPACITY - 1;
    snprintf(combined + n, sizeof combined - (size_t)n, ": %s", last_error);
    memcpy(last_error, combined, GPL_ERROR_CAPACITY - 1);
    last_error[GPL_ERROR_CAPACITY - 1] = '\0';
    return status;
}

void gpl_error_clear(void) { last_error[0] = '\0'; }

const char *gpulayer_last_error(void) { return last_error; }

const char *gpulayer_status_string(gpulayer_status status)
{
    switch (status) {
    case GPULAYER_OK: return "ok";
    case GPULAYER_ERR_INVALID_ARGUMENT: return "invalid argument";
    case GPULAYER_ERR_IO: return "i/o error";
    case GPULAYER_ERR_PARSE: return "parse error";
    case GPULAYER_ERR_OUT_OF_MEMORY: return "out of memory";
    case GPULAYER_ERR_MODEL: return "bad model";
    case GPULAYER_ERR_DEVICE: return "device error";
    case GPULAYER_ERR_UNSUPPORTED: return "unsupported";
    case GPULAYER_ERR_INTERRUPTED: return "interrupted";
    case GPULAYER_ERR_PLACEMENT: return "no device fits";
    case GPULAYER_ERR_INTERNAL: return "internal error";
    }
    return "unknown status";
}

void *gpl_malloc(size_t size, const char *what)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                  "out of host memory allocating %zu bytes for %s", size, what);
    return p;
}

void *gpl_malloc_large(size_t size, const char *what)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    /* Transparent huge pages are often in "madvise" mode: only regions
     * marked before they are touched get them. Smaller arrays gain
     * nothing. */
    const size_t huge = (size_t)2 << 20;
    if (size >= huge) {
        const size_t rounded = (size + huge - 1) / huge * huge;
        void *p = aligned_alloc(huge, rounded);
        if (p) {
            madvise(p, rounded, MADV_HUGEPAGE); /* advice: failure is harmless */
            return p;
        }
    }
#endif
    return gpl_malloc(size, what);
}

void *gpl_calloc(size_t count, size_t size, const char *what)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                  "out of host memory allocating %zu x %zu bytes for %s", count,
                  size, what);
    return p;
}

char *gpl_strdup(const char *s)
{
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *p = gpl_malloc(n, "a string");
    if (p) memcpy(p, s, n);
    return p;
}
