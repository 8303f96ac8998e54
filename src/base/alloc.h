/* alloc.h -- allocation helpers that record an out-of-memory error. */
#ifndef GPL_ALLOC_H
#define GPL_ALLOC_H

#include <stddef.h>

/* Allocation helpers that record an out-of-memory error naming what;
 * they return NULL then. */
void *gpl_malloc(size_t size, const char *what);
void *gpl_calloc(size_t count, size_t size, const char *what);
char *gpl_strdup(const char *s);
/* gpl_malloc for large arrays read at scattered places (the binned matrix,
 * per-row arrays): on Linux, 2 MiB pages are asked for, since with 4 KiB
 * pages a scattered read misses the TLB as well as the cache. Freed with
 * free(). */
void *gpl_malloc_large(size_t size, const char *what);

/* Allocation-failure injection, for the tests: the nth allocation through
 * these helpers from now on fails as if the host were out of memory (n <= 0:
 * none). Process-wide. gpl_alloc_fail_pending returns how many allocations
 * are still left before it (0 once it has happened or when none is set). */
void gpl_alloc_fail_after(long n);
long gpl_alloc_fail_pending(void);

/* The same for the GPU backends' device memory: the nth device allocation
 * from now on fails as if the device were out of memory. A backend asks
 * gpl_device_alloc_injected() before each device allocation. */
void gpl_device_alloc_fail_after(long n);
long gpl_device_alloc_fail_pending(void);
int gpl_device_alloc_injected(void);

#endif
