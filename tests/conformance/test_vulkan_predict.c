/* test_vulkan_predict.c -- batch prediction on a Vulkan device against the
 * CPU predictor, bit for bit; runs on lavapipe in CI. The suite is
 * predict_suite.inc. */
#define SUITE_ACCEL "vulkan"

#include "predict_suite.inc"
