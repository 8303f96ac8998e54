/* test_vulkan_shap.c -- SHAP values on a Vulkan device against the CPU's,
 * bit for bit. Without a usable device it checks that a request is refused
 * with a message and skips the rest. The suite is shap_suite.inc. */
#define SUITE_ACCEL "vulkan"

#include "shap_suite.inc"
