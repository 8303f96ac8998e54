/* test_cuda_predict.c -- batch prediction on a CUDA GPU against the CPU
 * predictor, bit for bit. Without a usable GPU it checks that a CUDA
 * prediction is refused with a message and skips the rest. The suite is
 * predict_suite.inc. */
#define SUITE_ACCEL "cuda"

#include "predict_suite.inc"
