/* error.c -- the per-thread last-error message. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

const char *gpl_error_message(void) { return last_error; }
