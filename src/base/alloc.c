/* alloc.c -- allocation helpers that record an out-of-memory error naming
 * what was being allocated. */
#include "alloc.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "error.h"

/* Allocations left before the injected failure (0: none), host and
 * device. */
static atomic_long fail_countdown, device_fail_countdown;

void gpl_alloc_fail_after(long n) { atomic_store(&fail_countdown, n > 0 ? n : 0); }

long gpl_alloc_fail_pending(void) { return atomic_load(&fail_countdown); }

void gpl_device_alloc_fail_after(long n)
{
    atomic_store(&device_fail_countdown, n > 0 ? n : 0);
}

long gpl_device_alloc_fail_pending(void) { return atomic_load(&device_fail_countdown); }

/* Whether this allocation is the one chosen to fail. */
static int count_down(atomic_long *countdown)
{
    long left = atomic_load(countdown);
    while (left > 0)
        if (atomic_compare_exchange_weak(countdown, &left, left - 1)) return left == 1;
    return 0;
}

static int injected_failure(void) { return count_down(&fail_countdown); }

int gpl_device_alloc_injected(void) { return count_down(&device_fail_countdown); }

static void *report(void *p, size_t size, const char *what)
{
    if (!p)
        gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                  "out of host memory allocating %zu bytes for %s", size, what);
    return p;
}

void *gpl_malloc(size_t size, const char *what)
{
    return report(injected_failure() ? NULL : malloc(size ? size : 1), size, what);
}

void *gpl_malloc_large(size_t size, const char *what)
{
    if (injected_failure()) return report(NULL, size, what);
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
    return report(malloc(size ? size : 1), size, what);
}

void *gpl_calloc(size_t count, size_t size, const char *what)
{
    void *p = injected_failure() ? NULL : calloc(count ? count : 1, size ? size : 1);
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
