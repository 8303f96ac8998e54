/* test_vulkan_faults.c -- Vulkan out-of-memory at every device allocation
 * of a training; the suite is fault_suite.inc. */
#define SUITE_ACCEL "vulkan"
/* The backend's own count of the device memory it holds: exact. */
#define SUITE_DEVICE_SLACK 0

/* From the Vulkan backend; weak so that this program links without it. */
extern long long gpl_vulkan_live_device_bytes(void) __attribute__((weak));

static long long suite_device_bytes_held(void)
{
    return gpl_vulkan_live_device_bytes ? gpl_vulkan_live_device_bytes() : 0;
}

#include "fault_suite.inc"
