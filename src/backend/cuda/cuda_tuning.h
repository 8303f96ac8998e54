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
    /* GPULAYER_CUDA_HIST=global|shared64|paired|direct|staged: the
     * histogram kernel; the default (SHARED) takes STAGED for one feature
     * chunk, else DIRECT, and GLOBAL where shared memory is too small
     * (cuda_memory.c). The others are the reference kernel and variants
     * the conformance tests compare with the CPU (tests/conformance/
     * test_cuda_ops.c), and `paired`, 4% faster on one data scale, not
     * made the default until a second scale agrees. */
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
