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
#include "tree_walk.cuh"

namespace {

constexpr int kRowThreads = 256;
/* Blocks of a reduction over all rows (several per multiprocessor). */
constexpr unsigned kReduceBlocks = 2048;

/* The first pass writes a softmax row's normaliser when asked to, and
 * moves reg:expectileerror's chain on (the thread that writes a row's slot
 * is the one that reads it in the second pass). Ranking objectives' pairs
 * come finished (kernels_rank.cu): only the subsample applies here. */
__device__ void row_gradient(const gpl_cuda_grad_args &a, int64_t r, double *g,
                             double *h, bool first_pass)
{
    *g = 0.0;
    *h = 0.0;
    const int32_t K = a.num_outputs;
    if (a.objective == GPL_OBJ_SOFTMAX && first_pass && a.norm_write)
        gpl_softmax_normalizer(a.margins + r * K, K, &a.softmax_norm[2 * r],
                               &a.softmax_norm[2 * r + 1]);
    double pred = 0.0;
    if (a.objective == GPL_OBJ_EXPECTILE)
        pred = gpl_expectile_chain(a.margins + r * K, a.output,
                                   K > 1 ? a.softmax_norm + 2 * r : NULL,
                                   first_pass && a.norm_write, first_pass);
    if (!gpl_row_sampled(a.seed, a.round, r, a.subsample)) return;
    if (a.rank_pairs) {
        *g = a.rank_pairs[2 * r];
        *h = a.rank_pairs[2 * r + 1];
        return;
    }
    const float w = a.weight ? a.weight[r] : 1.0f;
    if (a.objective == GPL_OBJ_EXPECTILE)
        gpl_objective_expectile(a.margins + r * K, K, a.output, a.alphas, pred, a.label[r], w,
                                g, h);
    else if (a.objective == GPL_OBJ_SOFTMAX)
        gpl_objective_softmax(a.margins[r * K + a.output], a.softmax_norm[2 * r],
                              a.softmax_norm[2 * r + 1], a.output, a.label[r], w, g, h);
    else
        gpl_objective_single((gpl_objective_kind)a.objective, a.margins[r * K + a.output],
                             a.label[r], w, a.param, g, h);
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
        row_gradient(a, r, &g, &h, true);
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
        row_gradient(a, r, &g, &h, false);
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

/* One thread a row, rows in order: the row's bins are read once, densely,
 * and the margin gets the same single float addition as in
 * update_margins_kernel. Code: uint8_t or uint16_t (backend.h). */
template <typename Code>
__global__ void tree_margins_kernel(gpl_cuda_tree_margin_args a)
{
    for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < a.num_rows;
         r += (int64_t)gridDim.x * blockDim.x) {
        const int32_t i = gpl_cuda_leaf_of_row(reinterpret_cast<const Code *>(a.bins) +
                                                   r * a.stride,
                                               a.nodes, a.sets, a.num_nodes);
        a.margins[r * a.num_outputs + a.output] += a.leaf[i];
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

/* Look-back status of a tile: the launch's epoch, a flag and the count of
 * left rows (of the tile alone, or of the node's tiles up to it). */
constexpr uint64_t kAggregate = 1, kInclusive = 2;

__device__ __forceinline__ uint64_t tile_status(uint32_t epoch, uint64_t flag, uint32_t left)
{
    return (uint64_t)epoch << 34 | flag << 32 | left;
}

__device__ __forceinline__ uint32_t warp_sum(uint32_t v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

/* Left rows of the node's tiles before this one, by decoupled look-back:
 * the tile publishes its own count, then warp 0 reads the 32 tiles before
 * it at a time, adding their counts until it meets one that published its
 * inclusive prefix. Called by the 32 lanes of one warp; tiles run in
 * ticket order, so every tile waited on has started and does not wait on
 * a later one. */
__device__ uint32_t look_back(uint64_t *status, uint32_t tile, uint32_t node_first,
                              uint32_t epoch, uint32_t left)
{
    const int lane = threadIdx.x & 31;
    volatile unsigned long long *st = reinterpret_cast<volatile unsigned long long *>(status);
    if (tile == node_first) {
        if (lane == 0) st[tile] = tile_status(epoch, kInclusive, left);
        return 0;
    }
    if (lane == 0) st[tile] = tile_status(epoch, kAggregate, left);
    uint32_t before = 0;
    for (int64_t last = (int64_t)tile - 1;; last -= 32) {
        const int64_t t = last - lane;
        uint64_t v;
        uint64_t flag;
        do {
            /* Tiles before the node's first count as an empty prefix. */
            v = t >= (int64_t)node_first ? st[t] : tile_status(epoch, kInclusive, 0);
            flag = (uint32_t)(v >> 34) == epoch ? v >> 32 & 3 : 0;
        } while (__any_sync(0xffffffffu, flag == 0));
        const unsigned incl = __ballot_sync(0xffffffffu, flag == kInclusive);
        /* Lanes up to the nearest inclusive prefix (the lowest such lane). */
        const int stop = incl ? __ffs(incl) - 1 : 31;
        before += warp_sum(lane <= stop ? (uint32_t)v : 0);
        if (incl) break;
    }
    if (lane == 0) st[tile] = tile_status(epoch, kInclusive, before + left);
    return before;
}

/* Each block takes one tile of one split node and writes its rows to the
 * children in their order: the left child's rows from the start of the
 * node's range, the right child's from its end backwards. Each child's
 * rows thus stay sorted (the right child's descending), so the shallow
 * levels read the bins in address order; the tile's place among the
 * node's tiles comes from the look-back. Rows move through shared memory,
 * so that both reads and writes are coalesced. Code: uint8_t or uint16_t
 * (backend.h); with 16-bit codes a categorical split of a wide feature
 * reads its set from a.wide_sets. */
template <typename Code>
__global__ void __launch_bounds__(GPL_CUDA_TILE_THREADS)
partition_kernel(gpl_cuda_part_args a)
{
    __shared__ uint32_t rows[GPL_CUDA_TILE_ROWS];
    __shared__ uint32_t shared_tile, shared_before;
    __shared__ uint32_t left_set[GPL_CAT_WORDS];
    if (threadIdx.x == 0)
        shared_tile = (uint32_t)(atomicAdd(a.ticket, 1ull) - a.ticket_base);
    __syncthreads();
    const uint32_t tile = shared_tile;
    const int s = find_tile_owner(a.tile_first, a.count, tile);
    gpl_cuda_part_split sp = a.splits[s];
    if (a.records) {
        const gpl_split_record rec = a.records[s];
        if (rec.feature < 0) return; /* the whole block: no look-back waits on it */
        /* No set in the record: partition_rows moves these rows. */
        if (rec.categorical && a.wide_cat && a.wide_cat[rec.feature]) return;
        sp.feature = rec.feature;
        sp.bin = rec.bin;
        sp.default_left = rec.default_left;
        sp.categorical = rec.categorical;
        if (threadIdx.x < GPL_CAT_WORDS) left_set[threadIdx.x] = rec.left_set[threadIdx.x];
    } else if (threadIdx.x < GPL_CAT_WORDS) {
        left_set[threadIdx.x] = a.splits[s].left_set[threadIdx.x];
    }
    const uint32_t first = (tile - a.tile_first[s]) * GPL_CUDA_TILE_ROWS;
    const uint32_t n = sp.count - first < GPL_CUDA_TILE_ROWS ? sp.count - first
                                                             : GPL_CUDA_TILE_ROWS;
    /* The root before any partition: its rows are 0 .. n-1, in no buffer. */
    const bool identity = sp.buf == GPL_CUDA_ROWS_IDENTITY;
    const uint32_t *in = (sp.buf == 1 ? a.rows1 : a.rows0) + sp.begin;
    uint32_t *out = (sp.buf == 1 ? a.rows0 : a.rows1) + sp.begin;
    for (uint32_t i = threadIdx.x; i < n; i += GPL_CUDA_TILE_THREADS)
        rows[i] = identity ? sp.begin + first + i : in[first + i];
    __syncthreads();

    /* Each thread decides GPL_CUDA_TILE_ITEMS consecutive rows. */
    const uint32_t mine = threadIdx.x * GPL_CUDA_TILE_ITEMS;
    uint32_t r[GPL_CUDA_TILE_ITEMS];
    unsigned left_mask = 0;
    const Code *codes = reinterpret_cast<const Code *>(a.bins);
    /* 16-bit codes: a wide set from global memory; a code past the inline
     * words of a split without one goes right (never read past them). */
    const uint32_t *wide = sizeof(Code) == 2 && sp.categorical && sp.wide_set != GPL_CUDA_NO_WIDE_SET
                               ? a.wide_sets + sp.wide_set
                               : nullptr;
#pragma unroll
    for (int k = 0; k < GPL_CUDA_TILE_ITEMS; k++) {
        r[k] = mine + k < n ? rows[mine + k] : 0;
        if (mine + k < n) {
            const int b = codes[(int64_t)r[k] * a.row_stride +
                                (int64_t)sp.feature * a.feature_stride];
            bool left;
            if (b == 0) left = sp.default_left != 0;
            else if (!sp.categorical) left = b <= sp.bin;
            else if (sizeof(Code) == 1) left = (left_set[b >> 5] >> (b & 31)) & 1u;
            else if (wide) left = (__ldg(wide + (b >> 5)) >> (b & 31)) & 1u;
            else left = b < 32 * GPL_CAT_WORDS && ((left_set[b >> 5] >> (b & 31)) & 1u);
            if (left) left_mask |= 1u << k;
        }
    }
    uint32_t left_total;
    const uint32_t left_before_mine = block_exclusive_sum(__popc(left_mask), &left_total);
    if (threadIdx.x < 32) {
        const uint32_t before = look_back(a.status, tile, a.tile_first[s], a.epoch, left_total);
        if (threadIdx.x == 0) {
            shared_before = before;
            if (first + n == sp.count) a.left_count[s] = before + left_total;
        }
    }
    __syncthreads(); /* every row read from `rows` before it is overwritten */

    /* The tile's left rows first, then its right rows, in order. */
    uint32_t pl = left_before_mine;
    uint32_t pr = left_total + (mine < n ? mine : n) - left_before_mine;
#pragma unroll
    for (int k = 0; k < GPL_CUDA_TILE_ITEMS; k++) {
        if (mine + k >= n) continue;
        if (left_mask >> k & 1u) rows[pl++] = r[k];
        else rows[pr++] = r[k];
    }
    __syncthreads();
    const uint32_t left_before = shared_before;
    const uint32_t right_before = first - left_before;
    for (uint32_t i = threadIdx.x; i < n; i += GPL_CUDA_TILE_THREADS) {
        if (i < left_total) out[left_before + i] = rows[i];
        else out[sp.count - 1 - right_before - (i - left_total)] = rows[i];
    }
}

/* Tiles of `rows` rows (all features) staged in shared memory: read
 * row-major and written one feature at a time, both coalesced. */
constexpr int kTransposeBytes = 32768;

template <typename Code>
__global__ void bins_to_columns_kernel(const Code *bins, int64_t n, int32_t F, int rows,
                                       Code *columns)
{
    __shared__ Code tile[kTransposeBytes / sizeof(Code)];
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
    /* Each block ends with two atomics on the same two words: a few
     * thousand blocks looping over the rows instead of one block per 256
     * rows (measured: 78,000 such atomics a round on 10M rows). */
    unsigned blocks = grid_for_rows(a->num_rows);
    if (blocks > kReduceBlocks) blocks = kReduceBlocks;
    grad_max_kernel<<<blocks, kRowThreads, 0, s>>>(*a);
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

extern "C" cudaError_t gpl_cuda_launch_tree_margins(const gpl_cuda_tree_margin_args *a,
                                                    cudaStream_t s)
{
    if (a->num_rows == 0) return cudaSuccess;
    if (a->code_bytes == 2)
        tree_margins_kernel<uint16_t><<<grid_for_rows(a->num_rows), kRowThreads, 0, s>>>(*a);
    else
        tree_margins_kernel<uint8_t><<<grid_for_rows(a->num_rows), kRowThreads, 0, s>>>(*a);
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_launch_partition(const gpl_cuda_part_args *a,
                                                 cudaStream_t s)
{
    if (a->num_tiles == 0) return cudaSuccess;
    if (a->code_bytes == 2)
        partition_kernel<uint16_t><<<a->num_tiles, GPL_CUDA_TILE_THREADS, 0, s>>>(*a);
    else
        partition_kernel<uint8_t><<<a->num_tiles, GPL_CUDA_TILE_THREADS, 0, s>>>(*a);
    return cudaGetLastError();
}

template <typename Code>
static cudaError_t launch_bins_to_columns(const uint8_t *bins, int64_t num_rows, int32_t num_features,
                                   uint8_t *columns, cudaStream_t s)
{
    const int codes = kTransposeBytes / (int)sizeof(Code);
    if (num_features < 1 || num_features > codes) return cudaErrorInvalidValue;
    if (num_rows == 0) return cudaSuccess;
    int rows = codes / num_features; /* whole rows a tile */
    if (rows > 256) rows = 256;
    int64_t blocks = (num_rows + rows - 1) / rows;
    if (blocks > 65536) blocks = 65536;
    bins_to_columns_kernel<Code><<<(unsigned)blocks, 256, 0, s>>>(
        reinterpret_cast<const Code *>(bins), num_rows, num_features, rows,
        reinterpret_cast<Code *>(columns));
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_launch_bins_to_columns(const uint8_t *bins, int64_t num_rows,
                                                       int32_t num_features, int32_t code_bytes,
                                                       uint8_t *columns, cudaStream_t s)
{
    if (code_bytes == 2)
        return launch_bins_to_columns<uint16_t>(bins, num_rows, num_features, columns, s);
    return launch_bins_to_columns<uint8_t>(bins, num_rows, num_features, columns, s);
}

extern "C" cudaError_t gpl_cuda_launch_abi_probe(int32_t *out, cudaStream_t s)
{
    abi_probe_kernel<<<1, 1, 0, s>>>(out);
    return cudaGetLastError();
}
