/*
 * kernels_refit.cu -- the leaf refit's rows on the device: each sampled
 * row's leaf and residual as one sortable key, their radix sort, the
 * leaves' bounds in the sorted order and the residuals the quantiles need
 * (backend.h, refit_sort and refit_values).
 */
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include "cuda_kernels.h"
#include "objective_math.h"
#include "tree_walk.cuh"

namespace {

constexpr int kThreads = 256;

unsigned blocks_for(int64_t n)
{
    int64_t b = (n + kThreads - 1) / kThreads;
    if (b < 1) b = 1;
    if (b > 65536) b = 65536;
    return (unsigned)b;
}

/* Float bits whose unsigned order is the floats' order. */
__device__ unsigned orderable(float x)
{
    const unsigned u = __float_as_uint(x);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

__device__ float from_orderable(unsigned u)
{
    return __uint_as_float((u & 0x80000000u) ? (u & 0x7fffffffu) : ~u);
}

template <typename Code>
__global__ void refit_keys_kernel(gpl_cuda_refit_args a)
{
    for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < a.num_rows;
         r += (int64_t)gridDim.x * blockDim.x) {
        if (!gpl_row_sampled(a.seed, a.round, r, a.subsample)) {
            a.keys[r] = (unsigned long long)(unsigned)a.num_nodes << 32;
            continue;
        }
        const int32_t i = gpl_cuda_leaf_of_row(reinterpret_cast<const Code *>(a.bins) +
                                                   r * a.stride,
                                               a.nodes, a.sets, a.num_nodes);
        float residual = a.label[r] - a.margins[r * a.num_outputs + a.output];
        if (residual == 0.0f) residual = 0.0f; /* -0 as +0 */
        a.keys[r] = ((unsigned long long)(unsigned)i << 32) | orderable(residual);
    }
}

__global__ void refit_bounds_kernel(const unsigned long long *keys, int64_t n, int32_t num_nodes,
                                    long long *first, long long *last)
{
    for (int64_t p = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; p < n;
         p += (int64_t)gridDim.x * blockDim.x) {
        const unsigned leaf = (unsigned)(keys[p] >> 32);
        if (leaf >= (unsigned)num_nodes) continue; /* not sampled */
        if (p == 0 || (unsigned)(keys[p - 1] >> 32) != leaf) first[leaf] = p;
        if (p == n - 1 || (unsigned)(keys[p + 1] >> 32) != leaf) last[leaf] = p + 1;
    }
}

__global__ void refit_pick_kernel(const unsigned long long *keys, const long long *positions,
                                  int32_t count, float *out)
{
    for (int32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < count;
         i += gridDim.x * blockDim.x)
        out[i] = from_orderable((unsigned)(keys[positions[i]] & 0xffffffffull));
}

} // namespace

extern "C" cudaError_t gpl_cuda_launch_refit_keys(const gpl_cuda_refit_args *a, cudaStream_t s)
{
    if (a->code_bytes == 2)
        refit_keys_kernel<uint16_t><<<blocks_for(a->num_rows), kThreads, 0, s>>>(*a);
    else
        refit_keys_kernel<uint8_t><<<blocks_for(a->num_rows), kThreads, 0, s>>>(*a);
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_refit_sort(void *temp, size_t *temp_bytes,
                                           const unsigned long long *in,
                                           unsigned long long *out, int n, int end_bit,
                                           cudaStream_t s)
{
    return cub::DeviceRadixSort::SortKeys(temp, *temp_bytes, in, out, n, 0, end_bit, s);
}

extern "C" cudaError_t gpl_cuda_launch_refit_bounds(const unsigned long long *keys, int64_t n,
                                                    int32_t num_nodes, long long *first,
                                                    long long *last, cudaStream_t s)
{
    refit_bounds_kernel<<<blocks_for(n), kThreads, 0, s>>>(keys, n, num_nodes, first, last);
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_launch_refit_pick(const unsigned long long *keys,
                                                  const long long *positions, int32_t count,
                                                  float *out, cudaStream_t s)
{
    refit_pick_kernel<<<blocks_for(count), kThreads, 0, s>>>(keys, positions, count, out);
    return cudaGetLastError();
}
