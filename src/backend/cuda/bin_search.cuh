/* bin_search.cuh -- a raw value's bin with the model's cuts (gpl_bin_of
 * of binning.h, step for step), for the kernels that bin on the device. */
#ifndef GPL_CUDA_BIN_SEARCH_CUH
#define GPL_CUDA_BIN_SEARCH_CUH

#include <stdint.h>

/* A float's bits as an unsigned key in the float's order (-0 as +0): the
 * cut search compares integers, the same as IEEE '<=' on any device
 * setting for denormals. Never called with NaN. */
static __device__ __forceinline__ uint32_t order_key(float x)
{
    uint32_t u = __float_as_uint(x);
    if (u == 0x80000000u) u = 0u;
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

/* gpl_bin_of of binning.h, step for step. */
static __device__ __forceinline__ uint32_t bin_of(const float *cuts, uint32_t n, float v)
{
    const uint32_t u = __float_as_uint(v);
    if ((u & 0x7fffffffu) > 0x7f800000u) return 0; /* NaN: the missing bin */
    if (n == 0) return 1;
    const uint32_t key = order_key(v);
    uint32_t base = 0, len = n;
    while (len > 1) {
        const uint32_t half = len >> 1;
        base = order_key(cuts[base + half]) <= key ? base + half : base;
        len -= half;
    }
    return base + (order_key(cuts[base]) <= key ? 1u : 0u) + 1u;
}

#endif
