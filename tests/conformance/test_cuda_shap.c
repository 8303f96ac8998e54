/* test_cuda_shap.c -- SHAP values on a CUDA GPU against the CPU's, bit
 * for bit. Without a usable GPU it checks that a request is refused with a
 * message and skips the rest. The suite is shap_suite.inc. */
#define SUITE_ACCEL "cuda"

#include "shap_suite.inc"
