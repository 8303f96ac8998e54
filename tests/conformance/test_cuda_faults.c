/* test_cuda_faults.c -- CUDA out-of-memory at every device allocation of a
 * training; the suite is fault_suite.inc. */
#include <stddef.h>

#define SUITE_ACCEL "cuda"
/* Device free memory also moves with the driver's own bookkeeping, in
 * pages; a leaked buffer of any failed job would show 100 times over. */
#define SUITE_DEVICE_SLACK (2LL << 20)

/* From the CUDA backend; weak so that this program links without it. */
extern int gpl_cuda_device_memory(int device, size_t *free_bytes, size_t *total_bytes)
    __attribute__((weak));

static long long suite_device_bytes_held(void)
{
    size_t free_b = 0, total = 0;
    if (!gpl_cuda_device_memory || gpl_cuda_device_memory(0, &free_b, &total) != 0) return 0;
    return (long long)total - (long long)free_b;
}

#include "fault_suite.inc"
