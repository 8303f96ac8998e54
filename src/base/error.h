/* error.h -- the per-thread last-error message behind gpulayer_last_error. */
#ifndef GPL_ERROR_H
#define GPL_ERROR_H

#include "gpulayer.h"

/* Bytes of a message, terminator included. */
#define GPL_ERROR_CAPACITY 1024

#if defined(__GNUC__)
#define GPL_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define GPL_PRINTF(a, b)
#endif

/* Records a formatted message for the calling thread and returns status, so
 * that callers can write: return gpl_error(GPULAYER_ERR_IO, "..."). */
gpulayer_status gpl_error(gpulayer_status status, const char *fmt, ...)
    GPL_PRINTF(2, 3);
/* Prefixes the current message with more context ("reading x.csv: ..."). */
gpulayer_status gpl_error_prefix(gpulayer_status status, const char *fmt, ...)
    GPL_PRINTF(2, 3);
void gpl_error_clear(void);
/* The calling thread's last message ("" when none). */
const char *gpl_error_message(void);

#define GPL_CHECK(expr)                                                     \
    do {                                                                    \
        gpulayer_status gpl_check_status_ = (expr);                         \
        if (gpl_check_status_ != GPULAYER_OK) return gpl_check_status_;     \
    } while (0)

#endif
