/*
 * kernels_cox.cu -- survival:cox's gradients (cox_math.h): four launches,
 * a thread a block of GPL_COX_BLOCK positions, each running the shared
 * step of its block, so that every sum is the CPU's sequence of additions.
 */
#include <cuda_runtime.h>

#include "cox_math.h"
#include "cuda_kernels.h"

namespace {

constexpr int kCoxThreads = 128;

__global__ void cox_exp_kernel(gpl_cuda_cox_args a)
{
    const int64_t b = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (b < a.num_blocks)
        a.blocks[b] = gpl_cox_exp_block(a.margins + a.output, a.num_outputs, a.order, b,
                                        a.num_rows, a.e);
}

__global__ void cox_suffix_kernel(gpl_cuda_cox_args a)
{
    const int64_t b = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (b < a.num_blocks) gpl_cox_suffix_block(a.e, a.blocks, a.num_blocks, b, a.num_rows, a.s);
}

__global__ void cox_event_kernel(gpl_cuda_cox_args a)
{
    const int64_t b = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (b < a.num_blocks)
        gpl_cox_event_block(a.s, a.order, a.tie_start, a.label, b, a.num_rows,
                            a.blocks + a.num_blocks, a.blocks + 2 * a.num_blocks);
}

__global__ void cox_pair_kernel(gpl_cuda_cox_args a)
{
    const int64_t b = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (b < a.num_blocks)
        gpl_cox_pair_block(a.e, a.s, a.blocks + a.num_blocks, a.blocks + 2 * a.num_blocks,
                           a.order, a.tie_start, a.label, a.weight, b, a.num_rows, a.pairs,
                           a.pairs + 1, 2);
}

} // namespace

extern "C" cudaError_t gpl_cuda_launch_cox(const gpl_cuda_cox_args *a, cudaStream_t s)
{
    if (a->num_blocks == 0) return cudaSuccess;
    const unsigned grid = (unsigned)((a->num_blocks + kCoxThreads - 1) / kCoxThreads);
    cudaError_t e;
    cox_exp_kernel<<<grid, kCoxThreads, 0, s>>>(*a);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    cox_suffix_kernel<<<grid, kCoxThreads, 0, s>>>(*a);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    cox_event_kernel<<<grid, kCoxThreads, 0, s>>>(*a);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    cox_pair_kernel<<<grid, kCoxThreads, 0, s>>>(*a);
    return cudaGetLastError();
}
