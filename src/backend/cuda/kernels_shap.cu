/*
 * kernels_shap.cu -- SHAP values of a block of rows: the rows binned as
 * prediction bins them, then shap_math.h's walks, one thread a row for
 * contributions and one a (row, feature) for interactions, then the
 * doubles written as floats. Compiled with -fmad=false: the arithmetic is
 * the CPU's operation for operation, so the values are its bits.
 */
#include <cuda_runtime.h>

#include "bin_search.cuh"
#include "cuda_kernels.h"

namespace {

constexpr int kShapThreads = 128;

__global__ void shap_bins_kernel(gpl_cuda_shap_args a)
{
    const int32_t F = a.view.num_features;
    const int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (r >= a.num_rows) return;
    for (int32_t f = 0; f < F; f++) {
        const uint32_t first = a.cut_ptr[f];
        a.bins[r * F + f] =
            bin_of(a.cuts + first, a.cut_ptr[f + 1] - first, a.data[(int64_t)f * a.num_rows + r]);
    }
}

/* The walk workspace of thread tid of threads: its path slots interleaved
 * with the other threads', its own stretch of visits. */
__device__ gpl_shap_work work_of(const gpl_cuda_shap_args &a, int64_t tid, int64_t threads,
                                 gpl_shap_lin_level *levels)
{
    gpl_shap_work w;
    w.levels = levels;
    w.path.feature = a.path.feature ? a.path.feature + tid : nullptr;
    w.path.zero = a.path.zero ? a.path.zero + tid : nullptr;
    w.path.one = a.path.one ? a.path.one + tid : nullptr;
    w.path.weight = a.path.weight ? a.path.weight + tid : nullptr;
    w.path.stride = threads;
    w.stack = a.stack ? a.stack + tid * a.stack_len : nullptr;
    return w;
}

__global__ void shap_contrib_kernel(gpl_cuda_shap_args a)
{
    const int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (r >= a.num_rows) return;
    gpl_shap_lin_level levels[GPL_SHAP_LINEAR_DEPTH + 1];
    const gpl_shap_work w = work_of(a, r, a.num_rows, levels);
    gpl_shap_contrib_row(&a.view, a.kind == GPL_SHAP_APPROX, a.bins + r * a.view.num_features, &w,
                         a.acc + r, a.num_rows);
}

/* Thread (i, r): feature i's row of row r's matrices, or for i = F the
 * diagonal's start. */
__global__ void shap_interaction_kernel(gpl_cuda_shap_args a)
{
    const int32_t F = a.view.num_features, C = F + 1;
    const int64_t n = a.num_rows, threads = n * C;
    const int64_t tid = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (tid >= threads) return;
    const int32_t i = (int32_t)(tid / n);
    const int64_t r = tid % n;
    const uint8_t *row = a.bins + r * F;
    const gpl_shap_work w = work_of(a, tid, threads, nullptr);
    if (i == F) {
        gpl_shap_interaction_diag(&a.view, row, &w, a.diag + r, n);
        return;
    }
    gpl_shap_interaction_row(&a.view, row, i, &w, a.on + tid, a.off + tid, threads,
                             a.acc + (int64_t)i * C * n + r, (int64_t)C * C * n, n);
}

__device__ double base_of(const gpl_cuda_shap_args &a, int64_t r, int32_t k)
{
    return a.row_base ? a.row_base[r * a.view.num_outputs + k] : a.base[k];
}

/* Thread (e, r): value e of row r, with the base margin in each bias. */
__global__ void shap_contrib_finish_kernel(gpl_cuda_shap_args a)
{
    const int32_t C = a.view.num_features + 1, width = a.view.num_outputs * C;
    const int64_t n = a.num_rows;
    const int64_t tid = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (tid >= n * width) return;
    const int32_t e = (int32_t)(tid / n);
    const int64_t r = tid % n;
    double v = a.acc[tid];
    if (e % C == C - 1) v += base_of(a, r, e / C);
    a.out[r * width + e] = (float)v;
}

/* Thread ((k, i), r): row i of output k's matrix of row r, its diagonal
 * entry what the pairs leave. */
__global__ void shap_interaction_finish_kernel(gpl_cuda_shap_args a)
{
    const int32_t C = a.view.num_features + 1, K = a.view.num_outputs;
    const int64_t n = a.num_rows;
    const int64_t tid = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (tid >= n * K * C) return;
    const int32_t ki = (int32_t)(tid / n), k = ki / C, i = ki % C;
    const int64_t r = tid % n;
    double start = a.diag[tid];
    if (i == C - 1) start += base_of(a, r, k);
    const double *mrow = a.acc + (int64_t)ki * C * n + r;
    float *o = a.out + (r * K * C + ki) * C;
    for (int32_t j = 0; j < C; j++) o[j] = (float)mrow[(int64_t)j * n];
    o[i] = (float)gpl_shap_interaction_self(start, mrow, i, C, n);
}

unsigned blocks_for(int64_t threads)
{
    return (unsigned)((threads + kShapThreads - 1) / kShapThreads);
}

} // namespace

extern "C" cudaError_t gpl_cuda_launch_shap(const gpl_cuda_shap_args *a, cudaStream_t s)
{
    const int64_t n = a->num_rows;
    if (n <= 0) return cudaSuccess;
    const int64_t C = a->view.num_features + 1, K = a->view.num_outputs;
    shap_bins_kernel<<<blocks_for(n), kShapThreads, 0, s>>>(*a);
    if (a->kind == GPL_SHAP_INTERACTIONS) {
        shap_interaction_kernel<<<blocks_for(n * C), kShapThreads, 0, s>>>(*a);
        shap_interaction_finish_kernel<<<blocks_for(n * K * C), kShapThreads, 0, s>>>(*a);
    } else {
        shap_contrib_kernel<<<blocks_for(n), kShapThreads, 0, s>>>(*a);
        shap_contrib_finish_kernel<<<blocks_for(n * K * C), kShapThreads, 0, s>>>(*a);
    }
    return cudaGetLastError();
}
