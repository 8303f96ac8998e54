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
 *
 * The numeric scan takes any number of bins (32 a step, the prefix
 * carried). Categorical features of at most 255 value bins go to
 * split_cat_kernel (a thread a bin); wider ones to split_wide_cat_kernel,
 * which selects only the first max_cat_threshold categories of the order
 * from each end, the only ones a candidate can hold.
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

/* The best of the warp's candidates in lane 0, with the winner's *tag
 * (an integer travelling with it) when tag is given. */
__device__ Best warp_best(Best b, int *tag = nullptr)
{
    for (int o = 16; o > 0; o >>= 1) {
        Best x;
        x.gain = __shfl_down_sync(0xffffffffu, b.gain, o);
        x.feature = __shfl_down_sync(0xffffffffu, b.feature, o);
        x.bin = __shfl_down_sync(0xffffffffu, b.bin, o);
        x.dl = __shfl_down_sync(0xffffffffu, b.dl, o);
        const int xt = tag ? __shfl_down_sync(0xffffffffu, *tag, o) : 0;
        if (better(x, b)) {
            b = x;
            if (tag) *tag = xt;
        }
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

/* Node n's bounds on its weight (infinite without monotone constraints). */
__device__ gpl_node_bounds node_bounds(const gpl_cuda_split_args &a, int n)
{
    gpl_node_bounds b = {-HUGE_VAL, HUGE_VAL};
    if (a.bounds) {
        b.lo = a.bounds[2 * n];
        b.hi = a.bounds[2 * n + 1];
    }
    return b;
}

/* The node's score with this lambda (cpu_split_cat.c's parent_score). */
__device__ double parent_score(const gpl_split_params &p, const gpl_node_bounds &b,
                               gpl_grad_pair total, double lambda)
{
    return gpl_bounded_node_score((double)total.grad / p.scale.grad,
                                  (double)total.hess / p.scale.hess, lambda, p.alpha,
                                  p.max_delta_step, b.lo, b.hi);
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
    const gpl_node_bounds nb = node_bounds(a, n);
    const double parent = parent_score(a.params, nb, total, a.params.lambda);
    const bool bounded = gpl_weights_may_clamp(a.params.max_delta_step, nb.lo, nb.hi) != 0;
    const unsigned rows = a.node_rows ? a.node_rows[n] : 0u;

    Best best = {0.0, -1, 0, 0};
    const int f_end = min(a.num_features, (group + 1) * GPL_CUDA_SPLIT_FEATURES);
    for (int f = group * GPL_CUDA_SPLIT_FEATURES + warp; f < f_end; f += nwarps) {
        if (a.feature_mask && !a.feature_mask[f]) continue;
        if (a.categorical && a.categorical[f]) continue; /* split_cat_kernel's */
        const gpl_grad_pair *h = hist + off[f];
        const int last_bin = (int)(off[f + 1] - off[f]) - 1;
        const gpl_grad_pair missing = h[0];
        const int constraint = a.monotone ? a.monotone[f] : 0;
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
                if (!gpl_children_rows_ok(lh, rh, rows, a.params.min_data_in_leaf)) continue;
                double gain;
                if (bounded || constraint != 0) {
                    int ok;
                    gain = gpl_bounded_gain((double)lg / sg, hl, (double)rg / sg, hr,
                                            a.params.lambda, a.params.alpha,
                                            a.params.max_delta_step, nb.lo, nb.hi, constraint,
                                            parent, &ok);
                    if (!ok) continue;
                    if (constraint != 0) gain = gain * a.params.monotone_gain_factor;
                } else {
                    gain = gpl_node_score((double)lg / sg, hl, a.params.lambda, a.params.alpha) +
                           gpl_node_score((double)rg / sg, hr, a.params.lambda, a.params.alpha) -
                           parent;
                }
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

/* The candidate whose left child (missing values aside) has sums left, in
 * both missing directions, against best (cpu_split_cat.c's try_candidate). */
__device__ void cat_candidate(const gpl_split_params &p, const gpl_node_bounds &nb,
                              unsigned rows, gpl_grad_pair total, double parent, double lambda,
                              long long lg0, long long lh0, gpl_grad_pair missing, int f,
                              int key, Best &best)
{
    const int two_way = missing.grad != 0 || missing.hess != 0;
    for (int dl = 0; dl <= two_way; dl++) {
        const long long lg = lg0 + (dl ? missing.grad : 0), lh = lh0 + (dl ? missing.hess : 0);
        const long long rg = total.grad - lg, rh = total.hess - lh;
        if (lh <= 0 || rh <= 0) continue;
        const double hl = (double)lh / p.scale.hess, hr = (double)rh / p.scale.hess;
        if (hl < p.min_child_weight || hr < p.min_child_weight) continue;
        if (!gpl_children_rows_ok(lh, rh, rows, p.min_data_in_leaf)) continue;
        int ok; /* categorical features take no monotone constraint */
        const double gain = gpl_bounded_gain((double)lg / p.scale.grad, hl,
                                             (double)rg / p.scale.grad, hr, lambda, p.alpha,
                                             p.max_delta_step, nb.lo, nb.hi, 0, parent, &ok);
        const Best c = {gain, f, key, dl};
        if (better(c, best)) best = c;
    }
}

/* Inclusive prefix sums over the block (GPL_CUDA_CAT_THREADS threads). */
__device__ void block_inclusive_sum(long long &g, long long &h, long long *warp_g,
                                    long long *warp_h)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int o = 1; o < 32; o <<= 1) {
        const long long yg = __shfl_up_sync(0xffffffffu, g, o);
        const long long yh = __shfl_up_sync(0xffffffffu, h, o);
        if (lane >= o) {
            g += yg;
            h += yh;
        }
    }
    if (lane == 31) {
        warp_g[warp] = g;
        warp_h[warp] = h;
    }
    __syncthreads();
    for (int w = 0; w < warp; w++) {
        g += warp_g[w];
        h += warp_h[w];
    }
}

/* One block a (node, categorical feature): thread t owns value bin t + 1
 * (one-hot: bin t, thread 0 the empty set). The categories are ranked by
 * gpl_cat_before against every other (a total order: ranks are distinct),
 * their sums prefix-summed in that order, and thread t tries the first and
 * the last t + 1 of them. The winner's left set goes to cat_sets. */
__global__ void __launch_bounds__(GPL_CUDA_CAT_THREADS)
split_cat_kernel(gpl_cuda_split_args a)
{
    const int n = blockIdx.x, j = blockIdx.y, t = threadIdx.x;
    const int lane = t & 31, warp = t >> 5;
    const int f = a.cat_features[j];
    const size_t slot = (size_t)n * a.num_cat + j;
    const gpl_split_params p = a.params;
    const gpl_grad_pair *hist = a.slot_ptr[a.node_slot[2 * n + 1]];
    const uint32_t *off = a.feature_offset;
    __shared__ gpl_grad_pair total_s;
    __shared__ double ratio_s[GPL_CUDA_CAT_THREADS];
    __shared__ int used_s[GPL_CUDA_CAT_THREADS];
    __shared__ int order_s[GPL_CUDA_CAT_THREADS];
    __shared__ long long cg_s[GPL_CUDA_CAT_THREADS], ch_s[GPL_CUDA_CAT_THREADS];
    __shared__ unsigned char tried_s[2][GPL_CUDA_CAT_THREADS];
    __shared__ long long warp_g[GPL_CUDA_CAT_THREADS / 32], warp_h[GPL_CUDA_CAT_THREADS / 32];
    __shared__ Best best_s[GPL_CUDA_CAT_THREADS / 32];
    __shared__ uint32_t set_s[GPL_CAT_WORDS];
    if (t < GPL_CAT_WORDS) set_s[t] = 0;
    if (warp == 0) {
        gpl_grad_pair tt = warp_range_sum(hist, off[0], off[1]);
        if (lane == 0) total_s = tt;
    }
    __syncthreads();
    const gpl_grad_pair total = total_s;
    const gpl_grad_pair *h = hist + off[f];
    const int last_bin = (int)(off[f + 1] - off[f]) - 1;
    const gpl_grad_pair missing = h[0];
    const double sg = p.scale.grad, sh = p.scale.hess;
    const bool masked = a.feature_mask && !a.feature_mask[f];
    const bool onehot = last_bin <= p.max_cat_to_onehot;
    const gpl_node_bounds nb = node_bounds(a, n);
    const unsigned rows = a.node_rows ? a.node_rows[n] : 0u;
    Best best = {0.0, -1, 0, 0};
    int rank = -1, used_count = 0;
    if (onehot) {
        const double parent = parent_score(p, nb, total, p.lambda);
        if (!masked && t == 0)
            cat_candidate(p, nb, rows, total, parent, p.lambda, 0, 0, missing, f, 0, best);
        else if (!masked && t <= last_bin && h[t].hess > 0)
            cat_candidate(p, nb, rows, total, parent, p.lambda, h[t].grad, h[t].hess, missing,
                          f, t, best);
    } else {
        const double lambda = p.lambda + p.cat_l2;
        const double parent = parent_score(p, nb, total, lambda);
        const int b = t + 1;
        const double hs = b <= last_bin ? (double)h[b].hess / sh : 0.0;
        const int used = b <= last_bin && h[b].hess > 0 && !(hs < p.min_child_weight);
        const double ratio = used ? gpl_cat_ratio((double)h[b].grad / sg, hs, p.cat_smooth) : 0.0;
        ratio_s[t] = ratio;
        used_s[t] = used;
        used_count = __syncthreads_count(used);
        if (used) {
            rank = 0;
            for (int k = 0; k < last_bin; k++)
                rank += used_s[k] && gpl_cat_before(ratio_s[k], k + 1, ratio, b);
            order_s[rank] = b;
        }
        __syncthreads();
        long long g = 0, hh = 0;
        if (t < used_count) {
            g = h[order_s[t]].grad;
            hh = h[order_s[t]].hess;
        }
        block_inclusive_sum(g, hh, warp_g, warp_h);
        cg_s[t] = g;
        ch_s[t] = hh;
        __syncthreads();
        const int kmax = used_count < p.max_cat_threshold ? used_count : p.max_cat_threshold;
        /* Which k each direction tries (gpl_cat_group_step): a walk in
         * order, by one thread. */
        if (t == 0) {
            for (int dir = 0; dir < 2; dir++) {
                long long added = 0;
                int stop = 0;
                for (int k = 1; k <= kmax; k++) {
                    const int i = dir ? used_count - k : k - 1; /* the k-th category */
                    const long long cat = ch_s[i] - (i > 0 ? ch_s[i - 1] : 0);
                    const long long left = dir ? ch_s[used_count - 1] - (i > 0 ? ch_s[i - 1] : 0)
                                               : ch_s[i];
                    const int step = stop ? -1
                                          : gpl_cat_group_step(&added, cat, left, total.hess,
                                                               rows, p.min_data_per_group);
                    stop = step < 0;
                    tried_s[dir][k - 1] = step > 0;
                }
            }
        }
        __syncthreads();
        const int k = t + 1;
        if (!masked && k <= kmax) {
            if (tried_s[0][t])
                cat_candidate(p, nb, rows, total, parent, lambda, cg_s[k - 1], ch_s[k - 1],
                              missing, f, gpl_cat_key(0, k), best);
            const int rest = used_count - k; /* the first `rest` are not in the set */
            const long long lg = cg_s[used_count - 1] - (rest > 0 ? cg_s[rest - 1] : 0);
            const long long lh = ch_s[used_count - 1] - (rest > 0 ? ch_s[rest - 1] : 0);
            if (tried_s[1][t])
                cat_candidate(p, nb, rows, total, parent, lambda, lg, lh, missing, f,
                              gpl_cat_key(1, k), best);
        }
    }
    best = warp_best(best);
    if (lane == 0) best_s[warp] = best;
    __syncthreads();
    best = best_s[0];
    for (int w = 1; w < GPL_CUDA_CAT_THREADS / 32; w++)
        if (better(best_s[w], best)) best = best_s[w];
    if (best.feature >= 0) {
        int in_set;
        if (onehot) {
            in_set = t > 0 && t == best.bin;
        } else {
            const int dir = best.bin / GPL_CAT_KEY_DIRECTION, k = best.bin % GPL_CAT_KEY_DIRECTION;
            in_set = rank >= 0 && (dir == 0 ? rank < k : rank >= used_count - k);
        }
        const int b = onehot ? t : t + 1;
        if (in_set) atomicOr(&set_s[b >> 5], 1u << (b & 31));
    }
    __syncthreads();
    if (t < GPL_CAT_WORDS) a.cat_sets[slot * GPL_CAT_WORDS + t] = set_s[t];
    if (t == 0) {
        gpl_cuda_split_best out = {best.gain, best.feature, best.bin, best.dl, j + 1};
        a.cat_partial[slot] = out;
    }
}

/* ----------------------------------------- categorical features, wide
 *
 * A categorical feature of more than 255 value bins (16-bit codes): one
 * block of GPL_CUDA_WIDE_CAT_THREADS a (node, such feature); thread t owns
 * value bins t + 1, t + 1 + T, ... A candidate holds the first k <= kmax
 * categories of gpl_cat_before's order (direction 0) or of its reverse
 * (direction 1), kmax = min(used categories, max_cat_threshold) <= 255, so
 * the block selects those 2 kmax categories in kmax rounds: each thread
 * keeps its own least and greatest category not yet selected, a block
 * reduction takes the least and the greatest of them, and only the two
 * owners' next are looked for (each by the owner's warp, over the owner's
 * bins). The candidate walk is then cpu_split_cat.c's.
 * The record's set stays empty (backend.h): the core rebuilds it; the
 * winner's left sums go to cat_left. */
constexpr int kWideCatThreads = GPL_CUDA_WIDE_CAT_THREADS;
constexpr int kWideCatWarps = kWideCatThreads / 32;
constexpr int kMaxCatK = 255; /* max_cat_threshold's bound (keys: gpl_cat_key) */

/* A category in the order: ratio, then bin; bin 0: none. */
struct CatKey {
    double ratio;
    int bin;
};

/* Whether category x (bin > 0) comes before y in the order, a missing y
 * (bin 0) counting as after everything. */
__device__ __forceinline__ bool cat_first(const CatKey &x, const CatKey &y)
{
    return x.bin > 0 && (y.bin == 0 || gpl_cat_before(x.ratio, x.bin, y.ratio, y.bin));
}

/* Whether x (bin > 0) comes after y in the order, a missing y counting as
 * before everything. */
__device__ __forceinline__ bool cat_last(const CatKey &x, const CatKey &y)
{
    return x.bin > 0 && (y.bin == 0 || gpl_cat_before(y.ratio, y.bin, x.ratio, x.bin));
}

/* Bin b's ordering value, as gpl_cat_order computes it; false for a
 * category that is not used (no hessian, or below min_child_weight). */
__device__ __forceinline__ bool cat_used(const gpl_split_params &p, const gpl_grad_pair &hb,
                                         double *ratio)
{
    const double hs = (double)hb.hess / p.scale.hess;
    if (hb.hess <= 0 || hs < p.min_child_weight) return false;
    *ratio = gpl_cat_ratio((double)hb.grad / p.scale.grad, hs, p.cat_smooth);
    return true;
}

/* The thread's least category after `after` (lo) or greatest before it
 * (!lo) among its bins; after.bin 0: no bound. */
__device__ CatKey own_next(const gpl_split_params &p, const gpl_grad_pair *h, int last_bin,
                           bool lo, const CatKey &after)
{
    CatKey best = {0.0, 0};
    for (int b = threadIdx.x + 1; b <= last_bin; b += kWideCatThreads) {
        CatKey c;
        if (!cat_used(p, h[b], &c.ratio)) continue;
        c.bin = b;
        if (lo) {
            if (after.bin > 0 && !cat_first(after, c)) continue;
            if (cat_first(c, best)) best = c;
        } else {
            if (after.bin > 0 && !cat_last(after, c)) continue;
            if (cat_last(c, best)) best = c;
        }
    }
    return best;
}

__device__ __forceinline__ CatKey shfl_key(const CatKey &k, int o)
{
    CatKey x;
    x.ratio = __shfl_down_sync(0xffffffffu, k.ratio, o);
    x.bin = __shfl_down_sync(0xffffffffu, k.bin, o);
    return x;
}

/* own_next of thread `owner` (of the calling warp), by the whole warp:
 * lane l takes the owner's bins l, l + 32, ... Every lane gets the result. */
__device__ CatKey warp_next(const gpl_split_params &p, const gpl_grad_pair *h, int last_bin,
                            bool lo, const CatKey &after, int owner)
{
    const int lane = threadIdx.x & 31;
    CatKey best = {0.0, 0};
    for (int b = owner + 1 + lane * kWideCatThreads; b <= last_bin; b += 32 * kWideCatThreads) {
        CatKey c;
        if (!cat_used(p, h[b], &c.ratio)) continue;
        c.bin = b;
        if (lo) {
            if (!cat_first(after, c)) continue;
            if (cat_first(c, best)) best = c;
        } else {
            if (!cat_last(after, c)) continue;
            if (cat_last(c, best)) best = c;
        }
    }
    for (int o = 16; o > 0; o >>= 1) {
        const CatKey x = shfl_key(best, o);
        if (lo ? cat_first(x, best) : cat_last(x, best)) best = x;
    }
    best.ratio = __shfl_sync(0xffffffffu, best.ratio, 0);
    best.bin = __shfl_sync(0xffffffffu, best.bin, 0);
    return best;
}

__global__ void __launch_bounds__(GPL_CUDA_WIDE_CAT_THREADS)
split_wide_cat_kernel(gpl_cuda_split_args a)
{
    const int n = blockIdx.x, j = a.num_cat_narrow + blockIdx.y, t = threadIdx.x;
    const int lane = t & 31, warp = t >> 5;
    const int f = a.cat_features[j];
    const size_t slot = (size_t)n * a.num_cat + j;
    const gpl_split_params p = a.params;
    const gpl_grad_pair *hist = a.slot_ptr[a.node_slot[2 * n + 1]];
    const uint32_t *off = a.feature_offset;
    if (a.feature_mask && !a.feature_mask[f]) { /* the whole block */
        if (t == 0) {
            const gpl_cuda_split_best none = {0.0, -1, 0, 0, j + 1};
            a.cat_partial[slot] = none;
            a.cat_left[slot] = gpl_grad_pair{0, 0};
        }
        return;
    }
    __shared__ gpl_grad_pair total_s;
    __shared__ int used_s;
    __shared__ CatKey lo_s[kWideCatWarps], hi_s[kWideCatWarps];
    __shared__ CatKey pick_s[2];
    /* The selected categories' bins, then (in place) their sums and the
     * prefix sums: [0] direction 0 (from the least), [1] direction 1. */
    __shared__ int sel_s[2][kMaxCatK];
    __shared__ long long g_s[2][kMaxCatK], h_s[2][kMaxCatK];
    __shared__ unsigned char tried_s[2][kMaxCatK];
    __shared__ Best best_s[kWideCatWarps];
    if (t == 0) used_s = 0;
    if (warp == 0) {
        gpl_grad_pair tt = warp_range_sum(hist, off[0], off[1]);
        if (lane == 0) total_s = tt;
    }
    __syncthreads();
    const gpl_grad_pair total = total_s;
    const gpl_grad_pair *h = hist + off[f];
    const int last_bin = (int)(off[f + 1] - off[f]) - 1;
    const gpl_grad_pair missing = h[0];
    const gpl_node_bounds nb = node_bounds(a, n);
    const unsigned rows = a.node_rows ? a.node_rows[n] : 0u;
    Best best = {0.0, -1, 0, 0};
    if (last_bin <= p.max_cat_to_onehot) {
        /* One category against the rest (cpu_scan_categorical's first
         * branch); key 0: missing values alone. */
        const double parent = parent_score(p, nb, total, p.lambda);
        if (t == 0) cat_candidate(p, nb, rows, total, parent, p.lambda, 0, 0, missing, f, 0, best);
        for (int b = t + 1; b <= last_bin; b += kWideCatThreads)
            if (h[b].hess > 0)
                cat_candidate(p, nb, rows, total, parent, p.lambda, h[b].grad, h[b].hess, missing,
                              f, b, best);
    } else {
        const double lambda = p.lambda + p.cat_l2;
        const double parent = parent_score(p, nb, total, lambda);
        int mine = 0;
        for (int b = t + 1; b <= last_bin; b += kWideCatThreads) {
            double r;
            mine += cat_used(p, h[b], &r);
        }
        if (mine) atomicAdd(&used_s, mine);
        const CatKey none = {0.0, 0};
        CatKey lo = own_next(p, h, last_bin, true, none);
        CatKey hi = own_next(p, h, last_bin, false, none);
        __syncthreads();
        const int used = used_s;
        int kmax = used < p.max_cat_threshold ? used : p.max_cat_threshold;
        if (kmax > kMaxCatK) kmax = kMaxCatK;
        /* Round k selects the k-th category from each end. */
        for (int k = 0; k < kmax; k++) {
            CatKey wl = lo, wh = hi;
            for (int o = 16; o > 0; o >>= 1) {
                const CatKey xl = shfl_key(wl, o), xh = shfl_key(wh, o);
                if (cat_first(xl, wl)) wl = xl;
                if (cat_last(xh, wh)) wh = xh;
            }
            if (lane == 0) {
                lo_s[warp] = wl;
                hi_s[warp] = wh;
            }
            __syncthreads();
            if (warp == 0) {
                wl = lo_s[lane];
                wh = hi_s[lane];
                for (int o = 16; o > 0; o >>= 1) {
                    const CatKey xl = shfl_key(wl, o), xh = shfl_key(wh, o);
                    if (cat_first(xl, wl)) wl = xl;
                    if (cat_last(xh, wh)) wh = xh;
                }
                if (lane == 0) {
                    pick_s[0] = wl;
                    pick_s[1] = wh;
                    sel_s[0][k] = wl.bin;
                    sel_s[1][k] = wh.bin;
                }
            }
            __syncthreads();
            const CatKey pl = pick_s[0], ph = pick_s[1];
            /* The owners of this round's picks move on to their next
             * (kmax <= used: neither pick is ever none); the conditions
             * are the same for a whole warp. */
            const int owner_lo = pl.bin > 0 ? (pl.bin - 1) % kWideCatThreads : -1;
            const int owner_hi = ph.bin > 0 ? (ph.bin - 1) % kWideCatThreads : -1;
            if (owner_lo >= 0 && owner_lo / 32 == warp) {
                const CatKey next = warp_next(p, h, last_bin, true, pl, owner_lo);
                if (t == owner_lo) lo = next;
            }
            if (owner_hi >= 0 && owner_hi / 32 == warp) {
                const CatKey next = warp_next(p, h, last_bin, false, ph, owner_hi);
                if (t == owner_hi) hi = next;
            }
        }
        /* The picks' sums, then each direction's walk (cpu_split_cat.c):
         * prefix sums in place and which k are tried (gpl_cat_group_step). */
        for (int i = t; i < 2 * kmax; i += kWideCatThreads) {
            const int dir = i / kmax, k = i - dir * kmax;
            const gpl_grad_pair c = h[sel_s[dir][k]];
            g_s[dir][k] = c.grad;
            h_s[dir][k] = c.hess;
        }
        __syncthreads();
        if (lane == 0 && warp < 2) {
            const int dir = warp;
            long long lg = 0, lh = 0, added = 0;
            int stop = 0;
            for (int k = 0; k < kmax; k++) {
                const long long cat = h_s[dir][k];
                lg += g_s[dir][k];
                lh += cat;
                g_s[dir][k] = lg;
                h_s[dir][k] = lh;
                const int step = stop ? -1
                                      : gpl_cat_group_step(&added, cat, lh, total.hess, rows,
                                                           p.min_data_per_group);
                stop = step < 0;
                tried_s[dir][k] = step > 0;
            }
        }
        __syncthreads();
        for (int i = t; i < 2 * kmax; i += kWideCatThreads) {
            const int dir = i / kmax, k = i - dir * kmax;
            if (tried_s[dir][k])
                cat_candidate(p, nb, rows, total, parent, lambda, g_s[dir][k], h_s[dir][k],
                              missing, f, gpl_cat_key(dir, k + 1), best);
        }
    }
    best = warp_best(best);
    if (lane == 0) best_s[warp] = best;
    __syncthreads();
    if (t == 0) {
        for (int w = 1; w < kWideCatWarps; w++)
            if (better(best_s[w], best)) best = best_s[w];
        gpl_grad_pair left = {0, 0};
        if (best.feature >= 0) {
            if (last_bin <= p.max_cat_to_onehot) {
                if (best.bin > 0) left = h[best.bin];
            } else {
                const int dir = best.bin / GPL_CAT_KEY_DIRECTION;
                const int k = best.bin % GPL_CAT_KEY_DIRECTION;
                left.grad = g_s[dir][k - 1];
                left.hess = h_s[dir][k - 1];
            }
        }
        const gpl_cuda_split_best out = {best.gain, best.feature, best.bin, best.dl, j + 1};
        a.cat_partial[slot] = out;
        a.cat_left[slot] = left;
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
    int cat_slot = 0; /* 1 + the winner's index among the categorical features */
    for (int k = lane; k < a.num_cat; k += 32) {
        const gpl_cuda_split_best p = a.cat_partial[(size_t)n * a.num_cat + k];
        const Best c = {p.gain, p.feature, p.bin, p.default_left};
        if (better(c, best)) {
            best = c;
            cat_slot = p.cat_slot;
        }
    }
    /* The winner's lane also tells which categorical feature it was. */
    best = warp_best(best, &cat_slot);
    best.gain = __shfl_sync(0xffffffffu, best.gain, 0);
    best.feature = __shfl_sync(0xffffffffu, best.feature, 0);
    best.bin = __shfl_sync(0xffffffffu, best.bin, 0);
    best.dl = __shfl_sync(0xffffffffu, best.dl, 0);
    cat_slot = best.feature >= 0 ? __shfl_sync(0xffffffffu, cat_slot, 0) : 0;
    const gpl_grad_pair total = warp_range_sum(hist, off[0], off[1]);
    gpl_grad_pair left = total;
    /* A feature of more than 255 value bins has no set (cat_left instead). */
    const bool wide = cat_slot > a.num_cat_narrow;
    const uint32_t *set = cat_slot && !wide ? a.cat_sets + ((size_t)n * a.num_cat + cat_slot - 1) *
                                                               GPL_CAT_WORDS
                                            : NULL;
    if (best.feature >= 0) {
        const uint32_t first = off[best.feature];
        if (wide) {
            left = a.cat_left[(size_t)n * a.num_cat + cat_slot - 1];
        } else if (set) {
            long long g = 0, h = 0;
            for (uint32_t b = 1 + lane; b < off[best.feature + 1] - first; b += 32)
                if ((set[b >> 5] >> (b & 31)) & 1u) {
                    g += hist[first + b].grad;
                    h += hist[first + b].hess;
                }
            left.grad = warp_sum(g);
            left.hess = warp_sum(h);
        } else {
            left = warp_range_sum(hist, first + 1, first + best.bin + 1);
        }
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
        r.categorical = cat_slot != 0;
        r.pad = 0;
        for (int w = 0; w < GPL_CAT_WORDS; w++) r.left_set[w] = set ? set[w] : 0u;
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
    if (a->num_cat_narrow > 0) {
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
        dim3 cat_grid((unsigned)a->num_nodes, (unsigned)a->num_cat_narrow);
        split_cat_kernel<<<cat_grid, GPL_CUDA_CAT_THREADS, 0, s>>>(*a);
    }
    if (a->num_cat > a->num_cat_narrow) {
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) return e;
        dim3 wide_grid((unsigned)a->num_nodes, (unsigned)(a->num_cat - a->num_cat_narrow));
        split_wide_cat_kernel<<<wide_grid, GPL_CUDA_WIDE_CAT_THREADS, 0, s>>>(*a);
    }
    return cudaGetLastError();
}

extern "C" cudaError_t gpl_cuda_launch_split_finish(const gpl_cuda_split_args *a,
                                                    cudaStream_t s)
{
    if (a->num_nodes == 0) return cudaSuccess;
    split_finish_kernel<<<(unsigned)a->num_nodes, 32, 0, s>>>(*a);
    return cudaGetLastError();
}
