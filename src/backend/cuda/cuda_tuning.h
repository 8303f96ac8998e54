/* cuda_tuning.h -- the CUDA backend's tuning: the choices that shape its
 * work besides the device's limits and the job's shape, read once when a
 * backend is created (cuda_tuning_read) and rendered as a stable key
 * (cuda_tuning_key) for anything cached by tuning. The partition is always
 * queued behind the level's split search (GPULAYER_CUDA_PARTITION=late,
 * kept for measurement, is gone: docs/benchmarks.md). */
#ifndef GPL_CUDA_TUNING_H
#define GPL_CUDA_TUNING_H

#include <stddef.h>

#include "cuda_kernels.h"

typedef struct cuda_tuning {
    /* GPULAYER_CUDA_HIST=global|direct|staged: the histogram kernel; the
     * default (SHARED) takes STAGED for one feature chunk, else DIRECT, and
     * GLOBAL where shared memory is too small (cuda_memory.c). Naming one
     * runs it everywhere, so that the conformance tests compare each with
     * the CPU (tests/conformance/test_cuda_ops.c). The 64-bit and paired
     * 32-bit variants measured 1.4-1.8x slower at two data scales and are
     * gone (docs/benchmarks.md). */
    gpl_cuda_hist_kind hist;
    /* GPULAYER_CUDA_PROFILE=1: per-operation device time (cuda_profile.c),
     * a diagnostic. */
    int profile;
} cuda_tuning;

/* The defaults, then the environment. */
void cuda_tuning_read(cuda_tuning *t);
/* The tuning as "key=value;..." in a fixed order (every member); returns
 * what snprintf returns. */
int cuda_tuning_key(const cuda_tuning *t, char *out, size_t size);

#endif
