/* memory_limit.h -- how much host memory a job may ask for, checked before
 * a large allocation so that a job that cannot fit is refused with the
 * estimate instead of being killed or swapping. */
#ifndef GPL_MEMORY_LIMIT_H
#define GPL_MEMORY_LIMIT_H

#include <stdint.h>

#include "gpulayer.h"

/* GPULAYER_MEMORY_LIMIT ("8G", "512M", bytes) when set, else the memory the
 * kernel reports available (MemAvailable); 0 when neither is known (no
 * limit). An unreadable GPULAYER_MEMORY_LIMIT is an error (set). */
gpulayer_status gpl_host_memory_limit(uint64_t *out);

/* OK when bytes for what fit the limit; otherwise an OUT_OF_MEMORY error
 * naming what, the estimate and the limit. */
gpulayer_status gpl_check_host_memory(uint64_t bytes, const char *what);

#endif
