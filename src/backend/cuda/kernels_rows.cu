/*
 * kernels_rows.cu -- kernels with one thread per row: gradients and their
 * quantization, the row index, the row partition and the margin update.
 * The arithmetic comes from the shared headers (objective_math.h,
 * quantize.h), compiled without fused multiply-add, so every value is the
 * CPU backend's bit for bit.
 */
#include <cuda_runtime.h>

#include "cuda_kernels.h"
#include "objective_math.h"
#include "quantize.h"

namespace {

constexpr int kRowThreads = 256;

__device__ void row_gradient(const gpl_cuda_grad_args &a, int64_t r, double *g,
                             double *h)
{
    *g = 0.0;
    *h = 0.0;
    if (!gpl_row_sampled(a.seed, a.round, r, a.subsample)) return;
    const float w = a.weight ? a.weight[r] : 1.0f;
    const int32_t K = a.num_outputs;
    if (a.objective == GPL_OBJ_SOFTMAX)
        gpl_objective_softmax(a.margins + r * K, K, a.output, a.label[r], w, g, h);
    else
        gpl_objective_single((gpl_objective_kind)a.objective, a.margins[r * K + a.output],
                             a.label[r], w, g, h);
}

/* The largest |g| and h over all rows. Both are >= 0, so the order of
 * their bit patterns as unsigned integers is their numeric order; NaN fails
 * every '>' and is skipped, as in the CPU loop. */
__global__ void grad_max_kernel(gpl_cuda_grad_args a)
{
    double mg = 0.0, mh = 0.0;
    for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < a.num_rows;
         r += (int64_t)gridDim.x * blockDim.x) {
        double g, h;
        row_gradient(a, r, &g, &h);
        if (fabs(g) > mg) mg = fabs(g);
        if (h > mh) mh = h;
    }
    for (int o = 16; o > 0; o >>= 1) {
        double og = __shfl_down_sync(0xffffffffu, mg, o);
        double oh = __shfl_down_sync(0xffffffffu, mh, o);
        if (og > mg) mg = og;
        if (oh > mh) mh = oh;
    }
    __shared__ double sg[kRowThreads / 32], sh[kRowThreads / 32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    if (lane == 0) {
        sg[warp] = mg;
        sh[warp] = mh;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < (int)(blockDim.x >> 5); w++) {
            if (sg[w] > mg) mg = sg[w];
            if (sh[w] > mh) mh = sh[w];
        }
        if (mg > 0.0) atomicMax(&a.max_bits[0], (unsigned long long)__double_as_longlong(mg));
        if (mh > 0.0) atomicMax(&a.max_bits[1], (unsigned long long)__double_as_longlong(mh));
    }
}

__global__ void grad_scale_kernel(gpl_cuda_grad_args a)
{
    a.scale->grad = gpl_quant_scale_for(__longlong_as_double((long long)a.max_bits[0]),
                                        a.num_rows);
    a.scale->hess = gpl_quant_scale_for(__longlong_as_double((long long)a.max_bits[1]),
                                        a.num_rows);
}

/* Recomputes each row's gradient (cheaper than storing doubles between
 * the passes) and quantizes it with the scales. */
__global__ void grad_quantize_kernel(gpl_cuda_grad_args a)
{
    const double sg = a.scale->grad, sh = a.scale->hess;
    for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < a.num_rows;
         r += (int64_t)gridDim.x * blockDim.x) {
        double g, h;
        row_gradient(a, r, &g, &h);
        gpl_cuda_qpair q;
        q.grad = (int32_t)gpl_quantize(g, sg);
        q.hess = (int32_t)gpl_quantize(h, sh);
        a.grad[r] = q;
    }
}

__global__ void iota_kernel(uint32_t *rows, int64_t n)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        rows[i] = (uint32_t)i;
}

/* The entry i with first[i] <= tile < first[i + 1]. */
__device__ int find_tile_owner(const uint32_t *first, int count, uint32_t tile)
{
    int lo = 0, hi = count - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) >> 1;
        if (first[mid] <= tile) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

__global__ void update_margins_kernel(gpl_cuda_margin_args a)
{
    const int i = find_tile_owner(a.tile_first, a.count, blockIdx.x);
    const gpl_cuda_leaf leaf = a.leaves[i];
    const uint32_t *rows = leaf.buf ? a.rows1 : a.rows0;
    const uint32_t start = (blockIdx.x - a.tile_first[i]) * GPL_CUDA_TILE_ROWS;
#pragma unroll
    for (int k = 0; k < GPL_CUDA_TILE_ITEMS; k++) {
        uint32_t pos = start + k * GPL_CUDA_TILE_THREADS + threadIdx.x;
        if (pos < leaf.count) {
            uint32_t r = rows[leaf.begin + pos];
            a.margins[(int64_t)r * a.num_outputs + a.output] += leaf.value;
        }
    }
}

/* Exclusive prefix sum over the block of a per-thread value; *total gets
 * the block's sum. */
__device__ uint32_t block_exclusive_sum(uint32_t v, uint32_t *total)
{
    __shared__ uint32_t warp_sum[GPL_CUDA_TILE_THREADS / 32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    uint32_t x = v;
    for (int o = 1; o < 32; o <<= 1) {
        uint32_t y = __shfl_up_sync(0xffffffffu, x, o);
        if (lane >= o) x += y;
    }
    if (lane == 31) warp_sum[warp] = x;
    __syncthreads();
    uint32_t before = 0, all = 0;
    for (int w = 0; w < GPL_CUDA_TILE_THREADS / 32; w++) {
        if (w < warp) before += warp_sum[w];
        all += warp_sum[w];
    }
    *total = all;
    return before + x - v;
}

/* Each block takes one tile of one split node: it decides left/right for
 * its rows, reserves space in both children with one atomic each, and
 * writes its rows there. Row order inside a child is not kept (histograms
 * are integer sums, so only the set of rows matters). */
__global__ void partition_kernel(gpl_cuda_part_args a)
{
    const int s = find_tile_owner(a.tile_first, a.count, blockIdx.x);
    const gpl_cuda_part_split sp = a.splits[s];
    const uint32_t *in = sp.buf ? a.rows1 : a.rows0;
    uint32_t *out = sp.buf ? a.rows0 : a.rows1;
    const uint32_t start = (blockIdx.x - a.tile_first[s]) * GPL_CUDA_TILE_ROWS +
                           threadIdx.x * GPL_CUDA_TILE_ITEMS;
    uint32_t r[GPL_CUDA_TILE_ITEMS];
    unsigned left_mask = 0, valid_mask = 0;
#pragma unroll
    for (int k = 0; k < GPL_CUDA_TILE_ITEMS; k++) {
        uint32_t pos = start + k;
        r[k] = 0;
        if (pos < sp.count) {
            r[k] = in[sp.begin + pos];
            valid_mask |= 1u << k;
        }
    }
#pragma unroll
    for (int k = 0; k < GPL_CUDA_TILE_ITEMS; k++) {
        if (!(valid_mask >> k & 1u)) continue;
        int b = a.bins[(int64_t)r[k] * a.row_stride + (int64_t)sp.feature * a.feature_stride];
        int go_left = b == 0 ? sp.default_left : b <= sp.bin;
        if (go_left) left_mask |= 1u << k;
    }
    const uint32_t nl = __popc(left_mask), nr = __popc(valid_mask) - nl;
    /* Both counts in one scan: at most 2048 per block, so 16 bits each. */
    uint32_t total;
    const uint32_t before = block_exclusive_sum(nl | nr << 16, &total);
    __shared__ uint32_t base_left, base_right;
    if (threadIdx.x == 0) {
        base_left = total & 0xffffu ? atomicAdd(&a.left_count[s], total & 0xffffu) : 0;
        base_right = total >> 16 ? atomicAdd(&a.right_count[s], total >> 16) : 0;
    }
    __syncthreads();
    uint32_t pl = sp.begin + base_left + (before & 0xffffu);
    uint32_t pr = sp.begin + sp.count - 1 - base_right - (before >> 16);
#pragma unroll
    for (int k = 0; k < GPL_CUDA_TILE_ITEMS; k++) {
        if (!(valid_mask >> k & 1u)) continue;
        if (left_mask >> k & 1u) out[pl++] = r[k];
        else out[pr--] = r[k];
    }
}

/* Tiles of `rows` rows (all features) staged in shared memory: read
 * row-major and written one feature at a time, both coalesced. */
constexpr int kTransposeBytes = 32768;

__global__ void bins_to_columns_kernel(const uint8_t *bins, int64_t n, int32_t F, int rows,
                                       uint8_t *columns)
{
    __shared__ uint8_t tile[kTransposeBytes];
    for (int64_t first = (int64_t)blockIdx.x * rows; first < n;
         first += (int64_t)gridDim.x * rows) {
        const int count = n - first < rows ? (int)(n - first) : rows;
        for (int e = threadIdx.x; e < count * F; e += blockDim.x)
            tile[e] = bins[first * F + e];
        __syncthreads();
        for (int e = threadIdx.x; e < count * F; e += blockDim.x) {
            const int f = e / count, r = e - f * count;
            columns[(int64_t)f * n + first + r] = tile[r * F + f];
        }
        __syncthreads();
    }
}

__global__ void abi_probe_kernel(int32_t *out) { *out = GPL_CUDA_KERNEL_ABI; }

unsigned grid_for_rows(int64_t n)
{
    int64_t blocks = (n + kRowThreads - 1) / kRowThreads;
    if (blocks < 1) blocks = 1;
    /* Grid-stride loops beyond this: plenty of blocks for any GPU. */
    if (blocks > 65536) blocks = 65536;
    return (unsigned)blocks;
}

} // namespace

extern "C" cudaError_t gpl_cuda_launch_grad_max(const gpl_cuda_grad_args *a,
                                                cudaStream_t s)
{
    grad_max_kernel<<<grid_for_rows(a->num_rows), kRowThreads, 0, s>>>(*a);
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_launch_grad_scale(const gpl_cuda_grad_args *a,
                                                  cudaStream_t s)
{
    grad_scale_kernel<<<1, 1, 0, s>>>(*a);
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_launch_grad_quantize(const gpl_cuda_grad_args *a,
                                                     cudaStream_t s)
{
    grad_quantize_kernel<<<grid_for_rows(a->num_rows), kRowThreads, 0, s>>>(*a);
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_launch_iota(uint32_t *rows, int64_t n, cudaStream_t s)
{
    iota_kernel<<<grid_for_rows(n), kRowThreads, 0, s>>>(rows, n);
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_launch_update_margins(const gpl_cuda_margin_args *a,
                                                      cudaStream_t s)
{
    if (a->num_tiles == 0) return cudaSuccess;
    update_margins_kernel<<<a->num_tiles, GPL_CUDA_TILE_THREADS, 0, s>>>(*a);
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_launch_partition(const gpl_cuda_part_args *a,
                                                 cudaStream_t s)
{
    if (a->num_tiles == 0) return cudaSuccess;
    partition_kernel<<<a->num_tiles, GPL_CUDA_TILE_THREADS, 0, s>>>(*a);
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_launch_bins_to_columns(const uint8_t *bins, int64_t num_rows,
                                                       int32_t num_features, uint8_t *columns,
                                                       cudaStream_t s)
{
    if (num_features < 1 || num_features > kTransposeBytes) return cudaErrorInvalidValue;
    if (num_rows == 0) return cudaSuccess;
    int rows = kTransposeBytes / num_features; /* whole rows a tile */
    if (rows > 256) rows = 256;
    int64_t blocks = (num_rows + rows - 1) / rows;
    if (blocks > 65536) blocks = 65536;
    bins_to_columns_kernel<<<(unsigned)blocks, 256, 0, s>>>(bins, num_rows, num_features, rows,
                                                            columns);
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_launch_abi_probe(int32_t *out, cudaStream_t s)
{
    abi_probe_kernel<<<1, 1, 0, s>>>(out);
    return cudaGetLastError();
}
