/*
 * kernels_shap.cu -- SHAP values of a block of rows: the rows binned as
 * prediction bins them, then shap_math.h's walks (contributions and
 * interactions by quadrature: 8 lanes a row; Saabas: a thread a row;
 * interactions of deeper trees: a thread a (row, feature)),
 * then the doubles written as floats. Compiled with -fmad=false: the
 * arithmetic is the CPU's operation for operation, so the values are its
 * bits.
 */
#include <cuda_runtime.h>

#include "bin_search.cuh"
#include "cuda_kernels.h"

namespace {

constexpr int kShapThreads = 128;
/* The most shared memory a block of the contributions kernel takes for its
 * rows' values: within what every device gives a block unasked. */
constexpr size_t kSharedPhiBytes = 32 * 1024;
/* The same for the diagonals and pair sums of interactions by quadrature:
 * the 48 KiB a block may take without asking. */
constexpr size_t kSharedPairBytes = 48 * 1024;

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

/* The walk workspace of thread tid of threads for Algorithm 2: its path
 * slots interleaved with the other threads', its own stretch of visits
 * (the linear walk's levels are the lanes kernel's own). */
__device__ gpl_shap_work work_of(const gpl_cuda_shap_args &a, int64_t tid, int64_t threads)
{
    gpl_shap_work w;
    w.levels = nullptr;
    w.path.feature = a.path.feature ? a.path.feature + tid : nullptr;
    w.path.zero = a.path.zero ? a.path.zero + tid : nullptr;
    w.path.one = a.path.one ? a.path.one + tid : nullptr;
    w.path.weight = a.path.weight ? a.path.weight + tid : nullptr;
    w.path.stride = threads;
    w.stack = a.stack ? a.stack + tid * a.stack_len : nullptr;
    return w;
}

/* Saabas' contributions: one thread a row. */
__global__ void shap_saabas_kernel(gpl_cuda_shap_args a)
{
    const int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
    if (r >= a.num_rows) return;
    const gpl_shap_work w = work_of(a, r, a.num_rows);
    gpl_shap_contrib_row(&a.view, 1, a.bins + r * a.view.num_features, &w, a.acc + r,
                         a.num_rows);
}

/* Contributions with 8 lanes a row, lane q holding quadrature point q of
 * the linear walk (gpl_shap_linear_row, its arrays of 8 spread over the
 * lanes); an edge's value is the lanes' terms added in 3 butterfly steps,
 * the order gpl_shap_lin_edge_sum adds them in, so the bits are the
 * walk's. The walk's order does not depend on the row, so the lanes of a
 * warp shuffle at the same points. Trees the linear walk does not take go
 * to Algorithm 2 on the first lane. With kSharedPhi the row's values
 * (every output's) are added up in shared memory, each by its row's first
 * lane in the walk's order, and copied from and back to acc around the
 * trees: the same additions as in acc itself, without a trip to global
 * memory for each edge.
 *
 * With kPairs, interactions by quadrature (every tree linear): the values
 * are the diagonals' starts (diag), and each edge also adds its pair sums
 * (gpl_shap_linear_row's pairs) to acc; in shared memory those start at
 * zero, as acc does, and keep only each output's (i < j) pairs. */
constexpr int kLevels = GPL_SHAP_LINEAR_DEPTH + 1;

/* The butterfly sum of the 8 lanes' terms (gpl_shap_lin_edge_sum's order;
 * every lane ends with it, addition commuting). */
__device__ __forceinline__ double lanes_sum(double v, unsigned group)
{
    v = v + __shfl_xor_sync(group, v, 1, 8);
    v = v + __shfl_xor_sync(group, v, 2, 8);
    v = v + __shfl_xor_sync(group, v, 4, 8);
    return v;
}

/* Where output k's pair (i, j) is added up: acc's (min, max) entry, or in
 * shared memory the place of (min, max) among the output's pairs. */
template <bool kSharedPhi>
__device__ __forceinline__ int64_t pair_slot(int32_t k, int32_t i, int32_t j, int32_t C)
{
    const int32_t lo = i < j ? i : j, hi = i < j ? j : i;
    if (!kSharedPhi) return (int64_t)k * C * C + gpl_shap_pair_at(lo, hi, C);
    const int32_t P = C * (C - 1) / 2;
    return (int64_t)k * P + lo * C - lo * (lo + 1) / 2 + (hi - lo - 1);
}

template <bool kSharedPhi, bool kPairs>
__global__ void shap_contrib_lanes_kernel(gpl_cuda_shap_args a)
{
    extern __shared__ double shared_phi[];
    const int lane = threadIdx.x & 7;
    const unsigned group = 0xffu << (threadIdx.x & 24);
    const int64_t row = (blockIdx.x * (int64_t)blockDim.x + threadIdx.x) >> 3;
    /* A row's 8 lanes leave together: the shuffles name only them. */
    if (row >= a.num_rows) return;
    const int64_t r = row;
    const int32_t F = a.view.num_features, C = F + 1, K = a.view.num_outputs;
    const int64_t n = a.num_rows;
    /* Value e of the row at values[e * stride], pair sum e at
     * pairs[e * stride]. */
    double *values = (kPairs ? a.diag : a.acc) + r;
    double *pairs = kPairs ? a.acc + r : nullptr;
    int64_t stride = n;
    if (kSharedPhi) {
        const int64_t rows = blockDim.x >> 3;
        values = shared_phi + (threadIdx.x >> 3);
        stride = rows;
        if (kPairs) {
            pairs = shared_phi + K * C * rows + (threadIdx.x >> 3);
            if (lane == 0) {
                for (int32_t e = 0; e < K * C; e++) values[e * stride] = 0;
                for (int32_t e = 0; e < K * (C * (C - 1) / 2); e++) pairs[e * stride] = 0;
            }
        } else if (lane == 0) {
            for (int32_t e = 0; e < K * C; e++) values[e * stride] = a.acc[e * n + r];
        }
    }
    const uint16_t *bins = a.bins + r * F;
    const double t = gpl_shap_point(lane), weight = gpl_shap_point_weight(lane);
    const gpl_shap_work w = work_of(a, r, n);
    double c[kLevels], hl[kLevels], p[kLevels], zprod[kLevels], ratio[kPairs ? kLevels : 1];
    int32_t node[kLevels], stage[kLevels], feature[kLevels];
    for (int32_t tr = 0; tr < a.view.num_trees; tr++) {
        const int64_t at = a.view.first[tr];
        const gpl_infer_node *nodes = a.view.nodes + at;
        const double *frac = a.view.frac + at;
        const float *leaf = a.view.leaf + at;
        const uint32_t *sets = gpl_shap_tree_sets(&a.view, tr);
        const int32_t out = tr % K;
        double *phi = values + (int64_t)out * C * stride;
        if (!a.view.linear[tr]) {
            if (lane == 0)
                gpl_shap_alg2_row(nodes, frac, leaf, sets, a.view.set_words, bins, &w.path,
                                  w.stack, phi, stride, 0, 0);
        } else if (nodes[0].child[0] != 0) {
            int d = 0;
            node[0] = 0;
            stage[0] = 0;
            feature[0] = -1;
            p[0] = 1;
            zprod[0] = 1;
            c[0] = 1;
            double h = 0;
            for (;;) {
                const gpl_infer_node *nd = &nodes[node[d]];
                if (nd->child[0] == node[d]) {
                    const double scale = zprod[d] * leaf[node[d]];
                    h = c[d] * scale * weight;
                    stage[d] = 2;
                } else if (stage[d] < 2) {
                    const int32_t child = nd->child[stage[d]];
                    const int follows =
                        gpl_shap_goes_left(nd, sets, a.view.set_words, node[d],
                                           bins[nd->feature]) == (stage[d] == 0);
                    const double z = frac[child];
                    double p_old = 1;
                    for (int j = d; j >= 1; j--)
                        if (feature[j] == nd->feature) {
                            p_old = p[j];
                            break;
                        }
                    const double p_new = follows ? p_old / z : 0;
                    node[d + 1] = child;
                    stage[d + 1] = 0;
                    feature[d + 1] = nd->feature;
                    p[d + 1] = p_new;
                    zprod[d + 1] = zprod[d] * z;
                    c[d + 1] = gpl_shap_lin_child(c[d], t, p_new, p_new - 1, p_old - 1);
                    if (kPairs) ratio[d + 1] = gpl_shap_lin_ratio(p_new, t);
                    d++;
                    continue;
                } else {
                    h = hl[d] + h;
                }
                if (d == 0) break;
                const double p_new = p[d];
                double p_old = 1;
                for (int j = d - 1; j >= 1; j--)
                    if (feature[j] == feature[d]) {
                        p_old = p[j];
                        break;
                    }
                const double term = gpl_shap_lin_point_value(h, t, p_new, p_new - 1, p_old - 1);
                const double v = lanes_sum(term, group);
                if (lane == 0) phi[(int64_t)feature[d] * stride] += v;
                if (kPairs)
                    /* The pairs of the edge's feature with each other
                     * feature's innermost edge above (gpl_shap_linear_row). */
                    for (int k = 1; k < d; k++) {
                        bool inner = feature[k] != feature[d];
                        for (int m = k + 1; inner && m < d; m++) inner = feature[m] != feature[k];
                        if (!inner) continue;
                        const double pv = lanes_sum(term * ratio[k], group);
                        if (lane == 0)
                            pairs[pair_slot<kSharedPhi>(out, feature[d], feature[k], C) *
                                  stride] += pv;
                    }
                d--;
                if (stage[d] == 0) hl[d] = h;
                stage[d]++;
            }
        }
        if (lane == 0) phi[(int64_t)F * stride] += a.view.mean[at];
        __syncwarp(group);
    }
    if (kSharedPhi && lane == 0) {
        double *dst = kPairs ? a.diag : a.acc;
        for (int32_t e = 0; e < K * C; e++) dst[e * n + r] = values[e * stride];
        if (kPairs)
            for (int32_t k = 0; k < K; k++)
                for (int32_t i = 0; i < C; i++)
                    for (int32_t j = i + 1; j < C; j++)
                        a.acc[((int64_t)k * C * C + gpl_shap_pair_at(i, j, C)) * n + r] =
                            pairs[pair_slot<true>(k, i, j, C) * stride];
    }
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
    const uint16_t *row = a.bins + r * F;
    const gpl_shap_work w = work_of(a, tid, threads);
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
 * entry what the pairs leave; by quadrature (a.pairs) from the output's
 * pair sums (gpl_shap_pair_value, gpl_shap_pair_self). */
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
    float *o = a.out + (r * K * C + ki) * C;
    if (a.pairs) {
        const double *mat = a.acc + (int64_t)k * C * C * n + r;
        for (int32_t j = 0; j < C; j++)
            if (j != i) o[j] = (float)gpl_shap_pair_value(mat, i, j, C, n);
        o[i] = (float)gpl_shap_pair_self(start, mat, i, C, n);
        return;
    }
    const double *mrow = a.acc + (int64_t)ki * C * n + r;
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
    if (a->kind == GPL_SHAP_INTERACTIONS && a->pairs) {
        /* The rows of a block keep their sums in shared memory when
         * 4 rows or more fit. */
        const size_t per_row = sizeof(double) * (size_t)(K * C + K * (C * (C - 1) / 2));
        int threads = kShapThreads;
        while (threads > 32 && per_row * (size_t)(threads / 8) > kSharedPairBytes) threads /= 2;
        const unsigned blocks = (unsigned)((n * 8 + threads - 1) / threads);
        if (per_row * (size_t)(threads / 8) <= kSharedPairBytes)
            shap_contrib_lanes_kernel<true, true>
                <<<blocks, threads, per_row * (size_t)(threads / 8), s>>>(*a);
        else
            shap_contrib_lanes_kernel<false, true><<<blocks, threads, 0, s>>>(*a);
        shap_interaction_finish_kernel<<<blocks_for(n * K * C), kShapThreads, 0, s>>>(*a);
    } else if (a->kind == GPL_SHAP_INTERACTIONS) {
        shap_interaction_kernel<<<blocks_for(n * C), kShapThreads, 0, s>>>(*a);
        shap_interaction_finish_kernel<<<blocks_for(n * K * C), kShapThreads, 0, s>>>(*a);
    } else if (a->kind == GPL_SHAP_EXACT) {
        const size_t shared = sizeof(double) * (kShapThreads / 8) * (size_t)(K * C);
        if (shared <= kSharedPhiBytes)
            shap_contrib_lanes_kernel<true, false>
                <<<blocks_for(n * 8), kShapThreads, shared, s>>>(*a);
        else
            shap_contrib_lanes_kernel<false, false><<<blocks_for(n * 8), kShapThreads, 0, s>>>(*a);
        shap_contrib_finish_kernel<<<blocks_for(n * K * C), kShapThreads, 0, s>>>(*a);
    } else {
        shap_saabas_kernel<<<blocks_for(n), kShapThreads, 0, s>>>(*a);
        shap_contrib_finish_kernel<<<blocks_for(n * K * C), kShapThreads, 0, s>>>(*a);
    }
    return cudaGetLastError();
}
