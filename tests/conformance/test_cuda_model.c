/* test_cuda_model.c -- whole CUDA models against the CPU backend's; the
 * suite is model_suite.inc. */
#define SUITE_ACCEL "cuda"
#define SUITE_DRIVER_ROWS 60000
#define SUITE_API_ROWS 50000
#define SUITE_ROUNDS_BINARY "30"
#define SUITE_ROUNDS_REGRESSION "20"

#include "model_suite.inc"
