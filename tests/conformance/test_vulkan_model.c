/* test_vulkan_model.c -- whole Vulkan models against the CPU backend's,
 * small enough for lavapipe in CI; the suite is model_suite.inc. */
#define SUITE_ACCEL "vulkan"
#define SUITE_DRIVER_ROWS 20000
#define SUITE_API_ROWS 20000
#define SUITE_ROUNDS_BINARY "15"
#define SUITE_ROUNDS_REGRESSION "10"

#include "model_suite.inc"
