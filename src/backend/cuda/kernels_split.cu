/*
 * kernels_split.cu -- the best split of every node of a level, in two
 * launches: a scan (grid: nodes x feature groups) in which each warp takes
 * whole features, prefix-sums their bins 32 at a time and evaluates the
 * candidates of every bin with split_math.h; then one warp
 * per node that reduces the groups' winners and rebuilds the record.
 *
 * The candidates, checks and gain expression are those of cpu_split.c, and
 * the winner is the maximum under gpl_split_better's total order (gain,
 * then smallest feature, bin, default_left), which any reduction order
 * reaches: the records equal the CPU's bit for bit.
 */
#include <cuda_runtime.h>

#include "cuda_kernels.h"
#include "split_math.h"

namespace {

struct Best {
    double gain;
    int feature, bin, dl;
};

__device__ __forceinline__ bool better(const Best &x, const Best &y)
{
    return gpl_split_better(x.gain, x.feature, x.bin, x.dl, y.gain, y.feature, y.bin,
                            y.dl) != 0;
}

__device__ Best warp_best(Best b)
{
    for (int o = 16; o > 0; o >>= 1) {
        Best x;
        x.gain = __shfl_down_sync(0xffffffffu, b.gain, o);
        x.feature = __shfl_down_sync(0xffffffffu, b.feature, o);
        x.bin = __shfl_down_sync(0xffffffffu, b.bin, o);
        x.dl = __shfl_down_sync(0xffffffffu, b.dl, o);
        if (better(x, b)) b = x;
    }
    return b;
}

__device__ long long warp_sum(long long v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

/* Sum of bins [first, last) of hist, over one warp (result in lane 0). */
__device__ gpl_grad_pair warp_range_sum(const gpl_grad_pair *hist, uint32_t first,
                                        uint32_t last)
{
    long long g = 0, h = 0;
    for (uint32_t k = first + (threadIdx.x & 31); k < last; k += 32) {
        g += hist[k].grad;
        h += hist[k].hess;
    }
    gpl_grad_pair s;
    s.grad = warp_sum(g);
    s.hess = warp_sum(h);
    return s;
}

__global__ void __launch_bounds__(GPL_CUDA_SPLIT_THREADS)
split_scan_kernel(gpl_cuda_split_args a)
{
    const int n = blockIdx.x, group = blockIdx.y;
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int nwarps = blockDim.x >> 5;
    const gpl_grad_pair *hist = a.slot_ptr[a.node_slot[2 * n + 1]];
    const uint32_t *off = a.feature_offset;
    const double sg = a.params.scale.grad, sh = a.params.scale.hess;

    /* The node's sums: any feature's bins add up to them; take feature 0's
     * as the CPU does. */
    __shared__ gpl_grad_pair total_s;
    __shared__ Best warp_s[GPL_CUDA_SPLIT_THREADS / 32];
    if (warp == 0) {
        gpl_grad_pair t = warp_range_sum(hist, off[0], off[1]);
        if (lane == 0) total_s = t;
    }
    __syncthreads();
    const gpl_grad_pair total = total_s;
    const double parent = gpl_node_score((double)total.grad / sg, (double)total.hess / sh,
                                         a.params.lambda, a.params.alpha);

    Best best = {0.0, -1, 0, 0};
    const int f_end = min(a.num_features, (group + 1) * GPL_CUDA_SPLIT_FEATURES);
    for (int f = group * GPL_CUDA_SPLIT_FEATURES + warp; f < f_end; f += nwarps) {
        if (a.feature_mask && !a.feature_mask[f]) continue;
        const gpl_grad_pair *h = hist + off[f];
        const int last_bin = (int)(off[f + 1] - off[f]) - 1;
        const gpl_grad_pair missing = h[0];
        /* Both missing directions only where there are missing values and
         * values on both sides; b = last_bin sends all values left. */
        const int two_way = missing.grad != 0 || missing.hess != 0;
        long long carry_g = 0, carry_h = 0;
        for (int base = 1; base <= last_bin; base += 32) {
            const int b = base + lane;
            long long cg = 0, ch = 0;
            if (b <= last_bin) {
                cg = h[b].grad;
                ch = h[b].hess;
            }
            for (int o = 1; o < 32; o <<= 1) {
                long long yg = __shfl_up_sync(0xffffffffu, cg, o);
                long long yh = __shfl_up_sync(0xffffffffu, ch, o);
                if (lane >= o) {
                    cg += yg;
                    ch += yh;
                }
            }
            const long long sum_g = __shfl_sync(0xffffffffu, cg, 31);
            const long long sum_h = __shfl_sync(0xffffffffu, ch, 31);
            cg += carry_g;
            ch += carry_h;
            carry_g += sum_g;
            carry_h += sum_h;
            if (b > last_bin) continue;
            const int last_dl = b < last_bin && two_way ? 1 : 0;
            for (int dl = 0; dl <= last_dl; dl++) {
                long long lg = cg, lh = ch;
                if (dl) {
                    lg += missing.grad;
                    lh += missing.hess;
                }
                const long long rg = total.grad - lg, rh = total.hess - lh;
                if (lh <= 0 || rh <= 0) continue;
                const double hl = (double)lh / sh, hr = (double)rh / sh;
                if (hl < a.params.min_child_weight || hr < a.params.min_child_weight)
                    continue;
                const double gain =
                    gpl_node_score((double)lg / sg, hl, a.params.lambda, a.params.alpha) +
                    gpl_node_score((double)rg / sg, hr, a.params.lambda, a.params.alpha) -
                    parent;
                const Best c = {gain, f, b, dl};
                if (better(c, best)) best = c;
            }
        }
    }
    best = warp_best(best);
    if (lane == 0) warp_s[warp] = best;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < nwarps; w++)
            if (better(warp_s[w], best)) best = warp_s[w];
        gpl_cuda_split_best out = {best.gain, best.feature, best.bin, best.dl, 0};
        a.partial[(size_t)n * a.groups + group] = out;
    }
}

/* One warp per node: the winner over the groups, then its child sums. */
__global__ void split_finish_kernel(gpl_cuda_split_args a)
{
    const int n = blockIdx.x, lane = threadIdx.x & 31;
    const gpl_grad_pair *hist = a.slot_ptr[a.node_slot[2 * n + 1]];
    const uint32_t *off = a.feature_offset;
    Best best = {0.0, -1, 0, 0};
    for (int g = lane; g < a.groups; g += 32) {
        const gpl_cuda_split_best p = a.partial[(size_t)n * a.groups + g];
        const Best c = {p.gain, p.feature, p.bin, p.default_left};
        if (better(c, best)) best = c;
    }
    best = warp_best(best);
    best.gain = __shfl_sync(0xffffffffu, best.gain, 0);
    best.feature = __shfl_sync(0xffffffffu, best.feature, 0);
    best.bin = __shfl_sync(0xffffffffu, best.bin, 0);
    best.dl = __shfl_sync(0xffffffffu, best.dl, 0);
    const gpl_grad_pair total = warp_range_sum(hist, off[0], off[1]);
    gpl_grad_pair left = total;
    if (best.feature >= 0) {
        const uint32_t first = off[best.feature];
        left = warp_range_sum(hist, first + 1, first + best.bin + 1);
        if (best.dl) {
            left.grad += hist[first].grad;
            left.hess += hist[first].hess;
        }
    }
    if (lane == 0) {
        gpl_split_record r;
        r.node = a.node_slot[2 * n];
        r.feature = best.feature;
        r.bin = best.feature >= 0 ? best.bin : 0;
        r.default_left = best.feature >= 0 ? best.dl : 0;
        r.gain = best.feature >= 0 ? best.gain : 0.0;
        r.total = total;
        r.left = left;
        r.right.grad = best.feature >= 0 ? total.grad - left.grad : 0;
        r.right.hess = best.feature >= 0 ? total.hess - left.hess : 0;
        r.categorical = 0;
        for (int w = 0; w < GPL_CAT_WORDS; w++) r.left_set[w] = 0;
        a.out[n] = r;
    }
}

} // namespace

extern "C" cudaError_t gpl_cuda_launch_split_scan(const gpl_cuda_split_args *a,
                                                  cudaStream_t s)
{
    if (a->num_nodes == 0) return cudaSuccess;
    dim3 grid((unsigned)a->num_nodes, (unsigned)a->groups);
    split_scan_kernel<<<grid, GPL_CUDA_SPLIT_THREADS, 0, s>>>(*a);
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_launch_split_finish(const gpl_cuda_split_args *a,
                                                    cudaStream_t s)
{
    if (a->num_nodes == 0) return cudaSuccess;
    split_finish_kernel<<<(unsigned)a->num_nodes, 32, 0, s>>>(*a);
    return cudaGetLastError();
}
