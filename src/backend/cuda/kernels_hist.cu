/*
 * kernels_hist.cu -- node histograms as exact int64 sums.
 *
 * Production kernel: each block accumulates one item (a run of one node's
 * rows) for one chunk of up to 32 features in shared memory, then adds its
 * partial histogram to the node's histogram in global memory (the
 * second-stage reduction; integer adds, so the order of blocks does not
 * matter).
 *
 * Loads, two kernels: the staged kernel (used when the features fit one
 * chunk) has each lane load one whole row (index, gradient pair, the
 * chunk's bins) into a per-warp staging area, 32 rows a warp in flight;
 * the direct kernel (more than one chunk) has each lane load its row
 * index, the row's gradient pair and its one byte of the row's bins, 4 row
 * groups in flight. Nsight Compute showed the direct kernel waiting mostly
 * on those small global loads, not on the atomics; staging made the 10M x
 * 28 histograms 21% faster on an H200 and the 1M x 256 ones 2% slower
 * (each lane then loads 32 bytes of a 256-byte row). (An earlier staging
 * of tiles with cp.async, block-wide, was slower.)
 *
 * Accumulation: bin b of column c lives at b * 32 + c, and lane l of a warp
 * always uses column l: lane l handles feature l % nf of row l / nf of each
 * group of rows, so the 32 lanes of an atomic instruction hit 32 different
 * banks whatever the bin values are. With fewer than 32 features a warp
 * takes 32 / nf rows at once, each into its own copy of the chunk's
 * histogram; the copies are summed when the block flushes.
 *
 * The production accumulator adds each value with one 32-bit atomic: the
 * quantization bounds the sum of |gradient| and of hessian over all rows
 * below 2^31 (quantize.h), so every partial sum fits int32 exactly. Kept
 * for tests and for devices with too little shared memory: a
 * global-atomics reference kernel. Measured on an H200 and dropped: int64
 * sums as two 32-bit atomics with the low word's carry propagated (as
 * XGBoost's GPU histograms do) and native 64-bit shared atomics (1.4-1.8x
 * slower end to end), 8 row groups in flight instead of 4 and two blocks
 * of 512 threads an SM (no faster), and one 64-bit atomic per (row,
 * feature) on h * 2^32 + g (30% slower).
 *
 * The root's rows are all rows in order, so its items read no row index.
 *
 * 16-bit codes (a feature of more than 256 bins): the direct kernel reads
 * uint16 codes (a template argument, so the 8-bit kernels are unchanged)
 * over chunks of the features whose histogram fits shared memory; the
 * wider features go to hist_wide_kernel, one warp per 32 rows of one
 * feature with global 64-bit atomics, the lanes of equal bins summed
 * first (so that a skewed feature does not serialize on one address).
 * Every path adds integers, so any order gives the same bits.
 */
#include <cuda_runtime.h>

#include "cuda_kernels.h"

namespace {

constexpr int kCols = GPL_CUDA_HIST_COLS;
constexpr int kUnroll = 4;

/* Production layout: two planes of 32-bit words, one atomic per value;
 * exact because |partial sums| < 2^31 (quantize.h), which also makes each
 * row's values fit 32 bits, so a row costs two registers. */
struct Int32Pair {
    static constexpr int kBytes = 8; /* shared bytes per (bin, column) */
    using Value = uint2;
    uint32_t *w;
    int words;
    __device__ static Value load(const gpl_cuda_qpair *p)
    {
        return *reinterpret_cast<const uint2 *>(p);
    }
    __device__ void add(int idx, Value v) const
    {
        atomicAdd(w + idx, v.x);
        atomicAdd(w + words + idx, v.y);
    }
    __device__ int64_t grad(int i) const { return (int64_t)(int32_t)w[i]; }
    __device__ int64_t hess(int i) const { return (int64_t)(int32_t)w[words + i]; }
};

/* The second stage: the block's partial histogram (its copies summed)
 * added to the node's histogram in global memory. */
template <class Acc>
__device__ void flush_block(const Acc &acc, const gpl_cuda_hist_args &a,
                            const gpl_cuda_hist_item &it, const gpl_cuda_hist_chunk &ch)
{
    gpl_grad_pair *dst = a.slot_ptr[it.slot];
    for (int e = threadIdx.x; e < ch.bins * ch.nf; e += blockDim.x) {
        const int b = e / ch.nf, j = e - b * ch.nf;
        const int f = ch.f0 + j;
        const uint32_t first = a.feature_offset[f];
        if ((uint32_t)b >= a.feature_offset[f + 1] - first) continue;
        int64_t G = 0, H = 0;
        for (int c = 0; c < ch.copies; c++) {
            const int idx = b * kCols + c * ch.nf + j;
            G += acc.grad(idx);
            H += acc.hess(idx);
        }
        if (G | H) {
            atomicAdd(reinterpret_cast<unsigned long long *>(&dst[first + b].grad),
                      (unsigned long long)G);
            atomicAdd(reinterpret_cast<unsigned long long *>(&dst[first + b].hess),
                      (unsigned long long)H);
        }
    }
}

template <class Acc, typename Code>
__global__ void __launch_bounds__(GPL_CUDA_HIST_THREADS, 1)
hist_shared_kernel(gpl_cuda_hist_args a)
{
    extern __shared__ __align__(16) uint32_t smem[];
    const gpl_cuda_hist_item it = a.items[blockIdx.x];
    const gpl_cuda_hist_chunk ch = a.chunks[blockIdx.y];
    const int words = ch.bins * kCols;
    const Acc acc{smem, words};
    for (int i = threadIdx.x; i < Acc::kBytes / 4 * words; i += blockDim.x) smem[i] = 0;
    __syncthreads();

    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int nwarps = blockDim.x >> 5;
    const int copy = lane / ch.nf, feat = lane - copy * ch.nf;
    const bool active = copy < ch.copies;
    const uint32_t *rows = it.buf ? a.rows1 : a.rows0;
    /* The root's rows are 0 .. n-1 in order: no index to gather. */
    const bool identity = it.buf == GPL_CUDA_ROWS_IDENTITY;
    const Code *column = reinterpret_cast<const Code *>(a.bins) + ch.f0 + feat;
    const uint32_t step = (uint32_t)nwarps * ch.copies;
    /* Loads of kUnroll row groups are issued before their atomics, so
     * several memory requests per lane are in flight. */
    for (uint32_t wbase = it.begin + warp * ch.copies; wbase < it.end;
         wbase += kUnroll * step) {
        typename Acc::Value v[kUnroll];
        int bin[kUnroll];
        bool ok[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; u++) {
            const uint32_t i = wbase + u * step + copy;
            ok[u] = active && i < it.end;
            uint32_t r = !ok[u] ? 0 : identity ? i : rows[i];
            if (ok[u]) {
                v[u] = Acc::load(a.grad + r);
                bin[u] = column[(int64_t)r * a.stride];
            }
        }
#pragma unroll
        for (int u = 0; u < kUnroll; u++)
            if (ok[u]) acc.add(bin[u] * kCols + lane, v[u]);
    }
    __syncthreads();
    flush_block(acc, a, it, ch);
}

/* Staged kernel (the default): each warp takes 32 rows at a time, one a
 * lane, and each lane loads its row's index, gradient pair and the chunk's
 * bins (4-byte loads where aligned) into the warp's staging area; the warp
 * then adds the 32 rows from shared memory with hist_shared_kernel's
 * lane-per-column mapping. The direct kernel has kUnroll rows of a warp in
 * flight, each waiting on two or three dependent global loads (Nsight
 * Compute: most stalls on the long scoreboard, not on the atomics); here a
 * warp has 32 rows' loads in flight, and the loads of its next 32 rows
 * are issued before it adds the current ones, so they overlap the atomics.
 * A staged row takes kStageRowBytes (36, so that the 32 lanes' 4-byte
 * stores fall in 32 different banks). */
constexpr int kStageRows = 32;
constexpr int kStageRowBytes = kCols + 4;
constexpr int kStageWarpBytes = kStageRows * (8 + kStageRowBytes);
constexpr int kStageWords = kCols / 4;

/* One row of the chunk in registers: its gradient pair and its bins packed
 * four to a word. */
struct StagedRow {
    uint2 pair;
    uint32_t w[kStageWords];
};

__device__ __forceinline__ void load_staged_row(const gpl_cuda_hist_args &a,
                                                const gpl_cuda_hist_chunk &ch,
                                                const uint32_t *rows, bool identity,
                                                bool aligned, uint32_t i, StagedRow *out)
{
    const uint32_t r = identity ? i : rows[i];
    const uint8_t *src = a.bins + (int64_t)r * a.stride + ch.f0;
    out->pair = Int32Pair::load(a.grad + r);
    if (aligned) { /* then nf is a multiple of 4 too */
#pragma unroll
        for (int k = 0; k < kStageWords; k++)
            if (4 * k < ch.nf) out->w[k] = reinterpret_cast<const uint32_t *>(src)[k];
    } else {
#pragma unroll
        for (int k = 0; k < kStageWords; k++) out->w[k] = 0;
#pragma unroll
        for (int k = 0; k < kCols; k++)
            if (k < ch.nf) out->w[k >> 2] |= (uint32_t)src[k] << (8 * (k & 3));
    }
}

__global__ void __launch_bounds__(GPL_CUDA_HIST_THREADS, 1)
hist_staged_kernel(gpl_cuda_hist_args a)
{
    extern __shared__ __align__(16) uint32_t smem[];
    const gpl_cuda_hist_item it = a.items[blockIdx.x];
    const gpl_cuda_hist_chunk ch = a.chunks[blockIdx.y];
    const int words = ch.bins * kCols;
    const Int32Pair acc{smem, words};
    for (int i = threadIdx.x; i < 2 * words; i += blockDim.x) smem[i] = 0;

    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int nwarps = blockDim.x >> 5;
    /* The warp's staging area, after this chunk's histogram. */
    uint8_t *stage = reinterpret_cast<uint8_t *>(smem + 2 * words) + warp * kStageWarpBytes;
    uint2 *stage_pair = reinterpret_cast<uint2 *>(stage);
    uint8_t *stage_bins = stage + 8 * kStageRows;
    uint32_t *my_words = reinterpret_cast<uint32_t *>(stage_bins + lane * kStageRowBytes);
    __syncthreads();

    const int copy = lane / ch.nf, feat = lane - copy * ch.nf;
    const bool active = copy < ch.copies;
    const uint32_t *rows = it.buf ? a.rows1 : a.rows0;
    const bool identity = it.buf == GPL_CUDA_ROWS_IDENTITY;
    const bool aligned = (((uintptr_t)a.bins | (uintptr_t)a.stride | (uintptr_t)ch.f0) & 3) == 0;
    const int nwords = (ch.nf + 3) >> 2;
    const uint32_t step = (uint32_t)nwarps * kStageRows;
    uint32_t base = it.begin + (uint32_t)warp * kStageRows;
    StagedRow next;
    if (base + lane < it.end) load_staged_row(a, ch, rows, identity, aligned, base + lane, &next);
    for (; base < it.end; base += step) {
        const uint32_t n = it.end - base < (uint32_t)kStageRows ? it.end - base : kStageRows;
        if ((uint32_t)lane < n) {
            stage_pair[lane] = next.pair;
#pragma unroll
            for (int k = 0; k < kStageWords; k++)
                if (k < nwords) my_words[k] = next.w[k];
        }
        __syncwarp();
        /* The next rows' loads, in flight while this group is added. */
        if (base + step + lane < it.end)
            load_staged_row(a, ch, rows, identity, aligned, base + step + lane, &next);
        if (active)
            for (uint32_t j = copy; j < n; j += ch.copies)
                acc.add(stage_bins[j * kStageRowBytes + feat] * kCols + lane, stage_pair[j]);
        __syncwarp();
    }
    __syncthreads();
    flush_block(acc, a, it, ch);
}

/* Reference: one thread per (row, feature), straight to global memory. */
template <typename Code>
__global__ void hist_global_kernel(gpl_cuda_hist_args a)
{
    const gpl_cuda_hist_item it = a.items[blockIdx.x];
    const uint32_t *rows = it.buf ? a.rows1 : a.rows0;
    gpl_grad_pair *dst = a.slot_ptr[it.slot];
    const int64_t F = a.num_features;
    const int64_t n = (int64_t)(it.end - it.begin) * F;
    for (int64_t e = threadIdx.x; e < n; e += blockDim.x) {
        const uint32_t i = it.begin + (uint32_t)(e / F);
        const uint32_t r = it.buf == GPL_CUDA_ROWS_IDENTITY ? i : rows[i];
        const int f = (int)(e % F);
        const int b = reinterpret_cast<const Code *>(a.bins)[(int64_t)r * a.stride + f];
        gpl_grad_pair *d = dst + a.feature_offset[f] + b;
        atomicAdd(reinterpret_cast<unsigned long long *>(&d->grad),
                  (unsigned long long)(int64_t)a.grad[r].grad);
        atomicAdd(reinterpret_cast<unsigned long long *>(&d->hess),
                  (unsigned long long)(int64_t)a.grad[r].hess);
    }
}

/* The features of 16-bit codes too wide for a shared-memory chunk (grid:
 * items x wide features): each warp takes 32 rows of the item at a time,
 * a lane a row; lanes whose rows share a bin sum their pairs (exactly:
 * each row's values fit int32 and 32 of them int64) and the lowest of them
 * adds the sums with one 64-bit atomic a value. */
constexpr int kWideThreads = 256;

__global__ void __launch_bounds__(kWideThreads)
hist_wide_kernel(gpl_cuda_hist_args a)
{
    const gpl_cuda_hist_item it = a.items[blockIdx.x];
    const uint32_t *rows = it.buf ? a.rows1 : a.rows0;
    const bool identity = it.buf == GPL_CUDA_ROWS_IDENTITY;
    const int lane = threadIdx.x & 31;
    const uint32_t warp_first = threadIdx.x & ~31u;
    for (int j = blockIdx.y; j < a.num_wide; j += gridDim.y) {
        const int f = a.wide_features[j];
        gpl_grad_pair *dst = a.slot_ptr[it.slot] + a.feature_offset[f];
        const uint16_t *column = reinterpret_cast<const uint16_t *>(a.bins) + f;
        /* base is the same for the 32 lanes: the loop and the warp
         * primitives in it are warp-uniform. */
        for (uint32_t base = it.begin + warp_first; base < it.end; base += blockDim.x) {
            const uint32_t i = base + lane;
            const bool ok = i < it.end;
            /* A lane without a row gets a key no code has: alone in its group. */
            int key = 0x10000 + lane;
            int32_t g = 0, h = 0;
            if (ok) {
                const uint32_t r = identity ? i : rows[i];
                key = column[(int64_t)r * a.stride];
                const gpl_cuda_qpair q = a.grad[r];
                g = q.grad;
                h = q.hess;
            }
            const unsigned same = __match_any_sync(0xffffffffu, key);
            long long G = g, H = h;
            if (!__all_sync(0xffffffffu, same == (1u << lane))) {
                G = 0;
                H = 0;
                for (int src = 0; src < 32; src++) {
                    const int32_t xg = __shfl_sync(0xffffffffu, g, src);
                    const int32_t xh = __shfl_sync(0xffffffffu, h, src);
                    if ((same >> src) & 1u) {
                        G += xg;
                        H += xh;
                    }
                }
            }
            if (ok && lane == __ffs(same) - 1 && (G | H)) {
                gpl_grad_pair *d = dst + key;
                atomicAdd(reinterpret_cast<unsigned long long *>(&d->grad),
                          (unsigned long long)G);
                atomicAdd(reinterpret_cast<unsigned long long *>(&d->hess),
                          (unsigned long long)H);
            }
        }
    }
}

__global__ void hist_clear_kernel(gpl_cuda_hist_args a)
{
    gpl_grad_pair *h = a.slot_ptr[a.clear_slots[blockIdx.y]];
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < a.hist_len;
         i += gridDim.x * blockDim.x)
        h[i] = gpl_grad_pair{0, 0};
}

__global__ void hist_subtract_kernel(gpl_grad_pair *const *slot_ptr,
                                     const int32_t *triples, uint32_t hist_len)
{
    const int32_t *t = triples + 3 * blockIdx.y;
    const gpl_grad_pair *p = slot_ptr[t[0]], *b = slot_ptr[t[1]];
    gpl_grad_pair *d = slot_ptr[t[2]];
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < hist_len;
         i += gridDim.x * blockDim.x)
        d[i] = gpl_grad_pair{p[i].grad - b[i].grad, p[i].hess - b[i].hess};
}

unsigned blocks_for(uint32_t n, unsigned threads, unsigned cap)
{
    unsigned b = (n + threads - 1) / threads;
    if (b < 1) b = 1;
    return b > cap ? cap : b;
}

/* The shared kernel of each accumulation variant. */
typedef void (*hist_kernel_fn)(gpl_cuda_hist_args);

hist_kernel_fn shared_kernel(gpl_cuda_hist_kind kind, int32_t code_bytes)
{
    if (code_bytes == 2) return hist_shared_kernel<Int32Pair, uint16_t>;
    switch (kind) {
    case GPL_CUDA_HIST_STAGED: return hist_staged_kernel;
    default: return hist_shared_kernel<Int32Pair, uint8_t>;
    }
}

} // namespace

extern "C" size_t gpl_cuda_hist_smem_bytes(gpl_cuda_hist_kind kind, int32_t max_bins)
{
    const size_t stage = kind == GPL_CUDA_HIST_STAGED
                             ? (size_t)kStageWarpBytes * (GPL_CUDA_HIST_THREADS / 32)
                             : 0;
    return (size_t)Int32Pair::kBytes * kCols * (size_t)max_bins + stage;
}

extern "C" cudaError_t gpl_cuda_hist_configure(gpl_cuda_hist_kind kind, int32_t code_bytes,
                                               size_t smem_bytes)
{
    return cudaFuncSetAttribute(shared_kernel(kind, code_bytes),
                                cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem_bytes);
}

extern "C" cudaError_t gpl_cuda_launch_hist_clear(const gpl_cuda_hist_args *a,
                                                  cudaStream_t s)
{
    if (a->num_clear == 0) return cudaSuccess;
    dim3 grid(blocks_for(a->hist_len, 256, 64), (unsigned)a->num_clear);
    hist_clear_kernel<<<grid, 256, 0, s>>>(*a);
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_launch_hist(gpl_cuda_hist_kind kind,
                                            const gpl_cuda_hist_args *a,
                                            size_t smem_bytes, cudaStream_t s)
{
    if (a->num_items == 0) return cudaSuccess;
    if (kind == GPL_CUDA_HIST_GLOBAL) {
        if (a->code_bytes == 2)
            hist_global_kernel<uint16_t><<<(unsigned)a->num_items, 256, 0, s>>>(*a);
        else
            hist_global_kernel<uint8_t><<<(unsigned)a->num_items, 256, 0, s>>>(*a);
        return cudaGetLastError();
    }
    if (a->num_chunks > 0) {
        dim3 grid((unsigned)a->num_items, (unsigned)a->num_chunks);
        shared_kernel(kind, a->code_bytes)<<<grid, GPL_CUDA_HIST_THREADS, smem_bytes, s>>>(*a);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
    }
    if (a->num_wide > 0) {
        if (a->code_bytes != 2) return cudaErrorInvalidValue;
        dim3 grid((unsigned)a->num_items, (unsigned)(a->num_wide < 65535 ? a->num_wide : 65535));
        hist_wide_kernel<<<grid, kWideThreads, 0, s>>>(*a);
    }
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_launch_hist_subtract(gpl_grad_pair *const *slot_ptr,
                                                     const int32_t *triples,
                                                     int32_t count, uint32_t hist_len,
                                                     cudaStream_t s)
{
    if (count == 0) return cudaSuccess;
    dim3 grid(blocks_for(hist_len, 256, 64), (unsigned)count);
    hist_subtract_kernel<<<grid, 256, 0, s>>>(slot_ptr, triples, hist_len);
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_kernel_attributes(struct cudaFuncAttributes *out)
{
    return cudaFuncGetAttributes(out, hist_staged_kernel);
}
