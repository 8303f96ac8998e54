/*
 * kernels_rank.cu -- the LambdaMART gradients of the ranking objectives
 * (rank_math.h), one query's work spread over the blocks of its tiles.
 *
 * Order: one stable radix sort of all rows by the 64-bit key (query,
 * margin descending), rows in index order as the values, gives every
 * query's order at its rows' offsets, ties by row index (stability), -0
 * equal to +0 (made +0 in the key). Its cost does not depend on how the
 * rows fall into queries: a single query of millions of rows (data without
 * groups) sorts as fast as many small ones, where a per-query counting
 * rank would be quadratic. The mean method's grade order is a second sort
 * of (query, grade descending) over positions; a grade's run is found by
 * binary search in the sorted keys.
 *
 * Sums: every pair's lambda and hessian in fixed point, added with 64-bit
 * integer atomics (the order of integer additions does not matter, so the
 * sums are the CPU's bit for bit); a warp first adds the values it sends to
 * one row with shuffles.
 */
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include "cuda_kernels.h"
#include "rank_math.h"

namespace {

constexpr int kTile = GPL_CUDA_RANK_TILE;
constexpr int kQueryThreads = 128;

typedef unsigned long long u64;

__device__ __forceinline__ float margin_of(const gpl_cuda_rank_args &a, int64_t r)
{
    return a.margins[r * a.num_outputs + a.output];
}

struct query_span {
    uint32_t q;
    int64_t begin;
    int64_t n;
};

__device__ __forceinline__ query_span tile_query(const gpl_cuda_rank_args &a,
                                                 gpl_cuda_rank_tile *t)
{
    *t = a.tiles[blockIdx.x];
    const int64_t begin = a.group_ptr[t->query];
    return query_span{t->query, begin, a.group_ptr[t->query + 1] - begin};
}

__device__ __forceinline__ u64 warp_sum64(u64 v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

/* A float's key part: unsigned order is the float's descending order, -0
 * and +0 the same key. */
__device__ __forceinline__ unsigned long long descending_key(uint32_t q, float x)
{
    const uint32_t u = x == 0.0f ? 0u : __float_as_uint(x);
    const uint32_t ascending = (u & 0x80000000u) ? ~u : (u | 0x80000000u);
    return (unsigned long long)q << 32 | (uint32_t)~ascending;
}

/* The sort's input for the model order: (query, margin) keys, row values. */
__global__ void __launch_bounds__(kTile) rank_margin_keys_kernel(gpl_cuda_rank_args a)
{
    gpl_cuda_rank_tile t;
    const query_span qs = tile_query(a, &t);
    const int64_t r = (int64_t)t.first + threadIdx.x;
    if (r >= qs.begin + qs.n) return;
    a.keys_in[r] = descending_key(qs.q, margin_of(a, r));
    a.values_in[r] = (uint32_t)r;
}

/* The sort's input for the grade order: (query, grade at position p) keys,
 * p values, in position order (stability breaks ties by position). */
__global__ void __launch_bounds__(kTile) rank_grade_keys_kernel(gpl_cuda_rank_args a)
{
    gpl_cuda_rank_tile t;
    const query_span qs = tile_query(a, &t);
    const int64_t i = (int64_t)t.first + threadIdx.x;
    if (i >= qs.begin + qs.n) return;
    a.keys_in[i] = descending_key(qs.q, a.label[a.order[i]]);
    a.values_in[i] = (uint32_t)(i - qs.begin);
}

/* MAP's running sums by position: sequential within a query (doubles
 * added in position order), one thread a query. */
__global__ void rank_map_kernel(gpl_cuda_rank_args a)
{
    for (int64_t q = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; q < a.num_groups;
         q += (int64_t)gridDim.x * blockDim.x) {
        const int64_t begin = a.group_ptr[q], n = a.group_ptr[q + 1] - begin;
        double n_rel = 0.0, acc = 0.0;
        for (int64_t p = 0; p < n; p++) {
            gpl_rank_map_step(a.label[a.order[begin + p]], p, &n_rel, &acc);
            a.n_rel[begin + p] = n_rel;
            a.acc[begin + p] = acc;
        }
    }
}

/* Whether the query's pairs divide delta by their margin difference. */
__device__ __forceinline__ int by_diff(const gpl_cuda_rank_args &a, const query_span &qs)
{
    return a.rank.score_normalization && qs.n > 0 &&
           margin_of(a, a.order[qs.begin]) != margin_of(a, a.order[qs.begin + qs.n - 1]);
}

/* The pair of positions ph (grade yh, margin sh) above pl in grade, in
 * fixed point. */
__device__ __forceinline__ void pair_fixed(const gpl_cuda_rank_args &a, const query_span &qs,
                                           int diff, float yh, float sh, int64_t ph, float yl,
                                           float sl, int64_t pl, u64 *lambda, u64 *hess)
{
    double delta = 1.0;
    if (a.objective == GPL_OBJ_RANK_NDCG)
        delta = gpl_rank_delta_ndcg(yh, yl, ph, pl, a.inv_idcg[qs.q], a.discount,
                                    a.rank.exp_gain);
    else if (a.objective == GPL_OBJ_RANK_MAP)
        delta = gpl_rank_delta_map(yh, yl, ph, pl, a.n_rel + qs.begin, a.acc + qs.begin, qs.n);
    float l, h;
    gpl_rank_pair(sh, sl, delta, diff, &l, &h);
    *lambda = (u64)gpl_rank_fixed(l);
    *hess = (u64)gpl_rank_fixed(h);
}

/* topk: the thread of position j takes the pairs (i, j), i < min(k, j).
 * The loop over i is the same for the whole block (it stops at the tile's
 * last position), so each warp adds what it sends to row order[i] first. */
__global__ void __launch_bounds__(kTile) rank_topk_kernel(gpl_cuda_rank_args a)
{
    gpl_cuda_rank_tile t;
    const query_span qs = tile_query(a, &t);
    const int64_t first = (int64_t)t.first - qs.begin;
    const int64_t j = first + threadIdx.x;
    const bool valid = j < qs.n;
    const int64_t last = (first + kTile < qs.n ? first + kTile : qs.n) - 1;
    const int64_t k = a.rank.num_pair < qs.n ? a.rank.num_pair : qs.n;
    const int64_t top = k < last ? k : last;
    const int diff = by_diff(a, qs);
    const int64_t rj = valid ? a.order[qs.begin + j] : 0;
    const float yj = valid ? a.label[rj] : 0.0f, sj = valid ? margin_of(a, rj) : 0.0f;
    u64 own_g = 0, own_h = 0, lambda_sum = 0;
    for (int64_t i = 0; i < top; i++) {
        const int64_t ri = a.order[qs.begin + i];
        const float yi = a.label[ri], si = margin_of(a, ri);
        u64 gi = 0, hi = 0;
        if (valid && i < j && yi != yj) {
            u64 l, h;
            if (yi > yj) {
                pair_fixed(a, qs, diff, yi, si, i, yj, sj, j, &l, &h);
                gi += l;
                own_g -= l;
            } else {
                pair_fixed(a, qs, diff, yj, sj, j, yi, si, i, &l, &h);
                own_g += l;
                gi -= l;
            }
            hi += h;
            own_h += h;
            lambda_sum += l;
        }
        gi = warp_sum64(gi);
        hi = warp_sum64(hi);
        if ((threadIdx.x & 31) == 0 && (gi | hi)) {
            atomicAdd(&a.sums[2 * ri], gi);
            atomicAdd(&a.sums[2 * ri + 1], hi);
        }
    }
    if (valid && (own_g | own_h)) {
        atomicAdd(&a.sums[2 * rj], own_g);
        atomicAdd(&a.sums[2 * rj + 1], own_h);
    }
    lambda_sum = warp_sum64(lambda_sum);
    if ((threadIdx.x & 31) == 0 && lambda_sum) atomicAdd(&a.lambda_sum[qs.q], lambda_sum);
}

/* [lo, hi): the indexes of the sorted keys (n of them) equal to key t's. */
__device__ void grade_run(const unsigned long long *keys, int64_t n, int64_t t, int64_t *lo,
                          int64_t *hi)
{
    const unsigned long long k = keys[t];
    int64_t a = 0, b = t;
    while (a < b) {
        const int64_t m = a + (b - a) / 2;
        if (keys[m] < k) a = m + 1;
        else b = m;
    }
    *lo = a;
    a = t + 1;
    b = n;
    while (a < b) {
        const int64_t m = a + (b - a) / 2;
        if (keys[m] <= k) a = m + 1;
        else b = m;
    }
    *hi = a;
}

/* mean: the thread of grade-order index t takes its num_pair partners. */
__global__ void __launch_bounds__(kTile) rank_mean_kernel(gpl_cuda_rank_args a)
{
    gpl_cuda_rank_tile tile;
    const query_span qs = tile_query(a, &tile);
    const int64_t t = (int64_t)tile.first - qs.begin + threadIdx.x;
    const int diff = by_diff(a, qs);
    u64 lambda_sum = 0;
    int64_t lo = 0, hi = qs.n;
    if (t < qs.n) grade_run(a.keys_out + qs.begin, qs.n, t, &lo, &hi);
    if (hi - lo < qs.n) {
        const int64_t pa = a.yorder[qs.begin + t];
        const int64_t ra = a.order[qs.begin + pa];
        const float ya = a.label[ra], sa = margin_of(a, ra);
        u64 own_g = 0, own_h = 0;
        for (int32_t s = 0; s < a.rank.num_pair; s++) {
            const int64_t u = gpl_rank_partner(a.seed, a.round, qs.q, t, s, lo, hi, qs.n);
            const int64_t pb = a.yorder[qs.begin + u];
            const int64_t rb = a.order[qs.begin + pb];
            const float yb = a.label[rb], sb = margin_of(a, rb);
            u64 l, h;
            if (ya > yb) {
                pair_fixed(a, qs, diff, ya, sa, pa, yb, sb, pb, &l, &h);
                own_g += l;
                atomicAdd(&a.sums[2 * rb], (u64)0 - l);
            } else {
                pair_fixed(a, qs, diff, yb, sb, pb, ya, sa, pa, &l, &h);
                own_g -= l;
                atomicAdd(&a.sums[2 * rb], l);
            }
            own_h += h;
            atomicAdd(&a.sums[2 * rb + 1], h);
            lambda_sum += l;
        }
        atomicAdd(&a.sums[2 * ra], own_g);
        atomicAdd(&a.sums[2 * ra + 1], own_h);
    }
    lambda_sum = warp_sum64(lambda_sum);
    if ((threadIdx.x & 31) == 0 && lambda_sum) atomicAdd(&a.lambda_sum[qs.q], lambda_sum);
}

/* Each row's pair from its sums, written over them as doubles. */
__global__ void __launch_bounds__(kTile) rank_finish_kernel(gpl_cuda_rank_args a)
{
    gpl_cuda_rank_tile t;
    const query_span qs = tile_query(a, &t);
    const int64_t r = (int64_t)t.first + threadIdx.x;
    if (r >= qs.begin + qs.n) return;
    const double norm = gpl_rank_norm(&a.rank, (int64_t)a.lambda_sum[qs.q]);
    double g, h;
    gpl_rank_finish((int64_t)a.sums[2 * r], (int64_t)a.sums[2 * r + 1], norm,
                    a.group_weight[qs.q], &g, &h);
    double *out = reinterpret_cast<double *>(a.sums);
    out[2 * r] = g;
    out[2 * r + 1] = h;
}

} // namespace

static cudaError_t sort_pairs(const gpl_cuda_rank_args &a, uint32_t *values_out, cudaStream_t s)
{
    size_t bytes = a.sort_temp_bytes;
    return cub::DeviceRadixSort::SortPairs(a.sort_temp, bytes, a.keys_in, a.keys_out,
                                           a.values_in, values_out, (int)a.num_rows, 0,
                                           a.key_bits, s);
}

extern "C" cudaError_t gpl_cuda_rank_sort_bytes(int64_t n, int32_t key_bits, size_t *bytes)
{
    *bytes = 0;
    return cub::DeviceRadixSort::SortPairs(NULL, *bytes, (const unsigned long long *)NULL,
                                           (unsigned long long *)NULL, (const uint32_t *)NULL,
                                           (uint32_t *)NULL, (int)n, 0, key_bits);
}

extern "C" cudaError_t gpl_cuda_launch_rank(const gpl_cuda_rank_args *a, cudaStream_t s)
{
    cudaError_t e = cudaMemsetAsync(a->sums, 0, 2 * sizeof(u64) * (size_t)a->num_rows, s);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(a->lambda_sum, 0, sizeof(u64) * (size_t)a->num_groups, s);
    if (e != cudaSuccess || a->num_tiles == 0) return e;
    rank_margin_keys_kernel<<<a->num_tiles, kTile, 0, s>>>(*a);
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    if ((e = sort_pairs(*a, a->order, s)) != cudaSuccess) return e;
    if (a->objective == GPL_OBJ_RANK_MAP) {
        const int64_t blocks = (a->num_groups + kQueryThreads - 1) / kQueryThreads;
        rank_map_kernel<<<(unsigned)(blocks < 65536 ? blocks : 65536), kQueryThreads, 0, s>>>(*a);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
    }
    if (a->rank.pair_method == GPL_RANK_MEAN) {
        rank_grade_keys_kernel<<<a->num_tiles, kTile, 0, s>>>(*a);
        if ((e = cudaGetLastError()) != cudaSuccess) return e;
        if ((e = sort_pairs(*a, a->yorder, s)) != cudaSuccess) return e;
        rank_mean_kernel<<<a->num_tiles, kTile, 0, s>>>(*a);
    } else {
        rank_topk_kernel<<<a->num_tiles, kTile, 0, s>>>(*a);
    }
    if ((e = cudaGetLastError()) != cudaSuccess) return e;
    rank_finish_kernel<<<a->num_tiles, kTile, 0, s>>>(*a);
    return cudaGetLastError();
}
