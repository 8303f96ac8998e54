/* cuda_rank.c -- the query groups of the ranking objectives on the device
 * (set_groups) and the launch of their gradients (kernels_rank.cu) for
 * compute_gradients. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cuda_context.h"
#include "error.h"

static gpulayer_status check_groups(const cuda_context *c, const gpl_rank_groups *g)
{
    const int64_t N = c->shape.num_rows;
    if (g->num_groups < 1 || g->num_groups > N || !g->group_ptr)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "cuda backend: %lld query groups for %lld rows",
                         (long long)g->num_groups, (long long)N);
    if (N > INT_MAX)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "cuda backend: the ranking objectives sort at most %d rows, not %lld",
                         INT_MAX, (long long)N);
    if (g->group_ptr[0] != 0 || g->group_ptr[g->num_groups] != N)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "cuda backend: query groups cover rows %lld to %lld, not 0 to %lld",
                         (long long)g->group_ptr[0], (long long)g->group_ptr[g->num_groups],
                         (long long)N);
    for (int64_t q = 0; q < g->num_groups; q++) {
        const int64_t n = g->group_ptr[q + 1] - g->group_ptr[q];
        if (n < 0 || n > g->max_group_size)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "cuda backend: query group %lld has %lld rows (at most %lld)",
                             (long long)q, (long long)n, (long long)g->max_group_size);
    }
    if (!g->discount || !g->inv_idcg || !g->group_weight)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "cuda backend: query groups without their discount, ideal DCG "
                         "or weight tables");
    return GPULAYER_OK;
}

/* The tiles of the ranking kernels: each query's rows cut into runs of
 * GPL_CUDA_RANK_TILE. */
static gpulayer_status make_tiles(cuda_context *c, const gpl_rank_groups *g)
{
    gpulayer_status st = GPULAYER_OK;
    const int64_t T = GPL_CUDA_RANK_TILE;
    int64_t count = 0;
    for (int64_t q = 0; q < g->num_groups; q++)
        count += (g->group_ptr[q + 1] - g->group_ptr[q] + T - 1) / T;
    c->rank.num_tiles = (uint32_t)count;
    if (count == 0) return GPULAYER_OK;
    gpl_cuda_rank_tile *tiles = gpl_malloc(sizeof *tiles * (size_t)count, "ranking tiles");
    if (!tiles) return GPULAYER_ERR_OUT_OF_MEMORY;
    int64_t k = 0;
    for (int64_t q = 0; q < g->num_groups; q++)
        for (int64_t r = g->group_ptr[q]; r < g->group_ptr[q + 1]; r += T)
            tiles[k++] = (gpl_cuda_rank_tile){(uint32_t)q, (uint32_t)r};
    c->rank.d_tiles = cuda_pool_get_extra(c, sizeof *tiles * (size_t)count, "ranking tiles", &st);
    cudaError_t e = cudaSuccess;
    if (c->rank.d_tiles) {
        e = cudaMemcpyAsync(c->rank.d_tiles, tiles, sizeof *tiles * (size_t)count,
                            cudaMemcpyHostToDevice, c->dev.stream);
        if (e == cudaSuccess) e = cudaStreamSynchronize(c->dev.stream);
    }
    free(tiles);
    if (st != GPULAYER_OK) return st;
    if (e != cudaSuccess) return cuda_fail(c, e, "copying the ranking tiles");
    return GPULAYER_OK;
}

/* New groups replace the old: their blocks go back to the pool (one
 * stream orders all work, so queued kernels still read the old ones). */
static void release_groups(cuda_context *c)
{
    void *blocks[] = {c->rank.d_group_ptr, c->rank.d_discount,  c->rank.d_inv_idcg,
                      c->rank.d_group_weight, c->rank.d_tiles, c->rank.d_keys[0],
                      c->rank.d_keys[1],  c->rank.d_values,   c->rank.d_sort_temp,
                      c->rank.d_order,    c->rank.d_yorder,   c->rank.d_n_rel,
                      c->rank.d_acc,      c->rank.d_sums,     c->rank.d_lambda_sum};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        if (blocks[i]) cuda_pool_put(&c->buf.pool, blocks[i]);
    memset(&c->rank, 0, sizeof c->rank);
}

static gpulayer_status upload_groups(cuda_context *c, const gpl_rank_groups *g)
{
    gpulayer_status st = GPULAYER_OK;
    const size_t G = (size_t)g->num_groups, N = (size_t)c->shape.num_rows;
    const size_t D = g->max_group_size > 0 ? (size_t)g->max_group_size : 1;
    CUDA_EXTRA_GET(c->rank.d_group_ptr, sizeof(int64_t) * (G + 1), "query group offsets");
    CUDA_EXTRA_GET(c->rank.d_discount, sizeof(double) * D, "ranking discounts");
    CUDA_EXTRA_GET(c->rank.d_inv_idcg, sizeof(double) * G, "ideal DCGs");
    CUDA_EXTRA_GET(c->rank.d_group_weight, sizeof(double) * G, "query weights");
    /* Sort keys: the query in the bits above the 32 of a margin or grade. */
    int32_t bits = 32;
    while (bits < 64 && ((uint64_t)(G - 1) >> (bits - 32)) != 0) bits++;
    c->rank.key_bits = bits;
    CUDA_TRY(c, gpl_cuda_rank_sort_bytes((int64_t)N, bits, &c->rank.sort_temp_bytes),
             "sizing the ranking sort");
    CUDA_EXTRA_GET(c->rank.d_keys[0], sizeof(unsigned long long) * N, "ranking sort keys");
    CUDA_EXTRA_GET(c->rank.d_keys[1], sizeof(unsigned long long) * N, "ranking sort keys");
    CUDA_EXTRA_GET(c->rank.d_values, sizeof(uint32_t) * N, "ranking sort values");
    CUDA_EXTRA_GET(c->rank.d_sort_temp, c->rank.sort_temp_bytes, "the ranking sort");
    CUDA_EXTRA_GET(c->rank.d_order, sizeof(uint32_t) * N, "ranking order");
    CUDA_EXTRA_GET(c->rank.d_sums, 2 * sizeof(unsigned long long) * N, "ranking sums");
    CUDA_EXTRA_GET(c->rank.d_lambda_sum, sizeof(unsigned long long) * G, "query lambda sums");
    CUDA_TRY(c, cudaMemcpyAsync(c->rank.d_group_ptr, g->group_ptr, sizeof(int64_t) * (G + 1),
                                cudaMemcpyHostToDevice, c->dev.stream),
             "copying query group offsets");
    if (g->max_group_size > 0)
        CUDA_TRY(c, cudaMemcpyAsync(c->rank.d_discount, g->discount,
                                    sizeof(double) * (size_t)g->max_group_size,
                                    cudaMemcpyHostToDevice, c->dev.stream),
                 "copying ranking discounts");
    CUDA_TRY(c, cudaMemcpyAsync(c->rank.d_inv_idcg, g->inv_idcg, sizeof(double) * G,
                                cudaMemcpyHostToDevice, c->dev.stream), "copying ideal DCGs");
    CUDA_TRY(c, cudaMemcpyAsync(c->rank.d_group_weight, g->group_weight, sizeof(double) * G,
                                cudaMemcpyHostToDevice, c->dev.stream), "copying query weights");
    /* The host tables may go once this returns. */
    CUDA_TRY(c, cudaStreamSynchronize(c->dev.stream), "copying the query groups");
    c->rank.num_groups = g->num_groups;
    return make_tiles(c, g);
}

gpulayer_status cuda_set_groups(gpl_backend *be, const gpl_rank_groups *g)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    if (!c->buf.d_bins)
        return gpl_error(GPULAYER_ERR_INTERNAL, "cuda backend: set_groups before upload");
    GPL_CHECK(check_groups(c, g));
    release_groups(c);
    const gpulayer_status st = upload_groups(c, g);
    /* A half-made copy would pass for groups. */
    if (st != GPULAYER_OK) release_groups(c);
    return st;
}

gpulayer_status cuda_rank_pairs(cuda_context *c, const gpl_gradient_request *req,
                                const double **pairs)
{
    gpulayer_status st = GPULAYER_OK;
    const size_t N = (size_t)c->shape.num_rows;
    if (!c->rank.d_group_ptr)
        return gpl_error(GPULAYER_ERR_INTERNAL,
                         "cuda backend: a ranking objective without query groups");
    if (req->rank.num_pair < 1)
        return gpl_error(GPULAYER_ERR_INTERNAL, "cuda backend: %d ranking pairs a row",
                         req->rank.num_pair);
    /* Scratch of the mean method and of rank:map, on their first use (a
     * failed allocation leaves the other NULL: asked for again). */
    if (req->rank.pair_method == GPL_RANK_MEAN && !c->rank.d_yorder)
        CUDA_EXTRA_GET(c->rank.d_yorder, sizeof(uint32_t) * N, "ranking grade order");
    if (req->objective == GPL_OBJ_RANK_MAP) {
        if (!c->rank.d_n_rel)
            CUDA_EXTRA_GET(c->rank.d_n_rel, sizeof(double) * N, "MAP relevant counts");
        if (!c->rank.d_acc) CUDA_EXTRA_GET(c->rank.d_acc, sizeof(double) * N, "MAP precision sums");
    }
    gpl_cuda_rank_args a;
    memset(&a, 0, sizeof a);
    a.objective = (int32_t)req->objective;
    a.num_outputs = c->shape.num_outputs;
    a.output = req->output;
    a.round = req->round;
    a.seed = req->seed;
    a.rank = req->rank;
    a.num_rows = c->shape.num_rows;
    a.num_groups = c->rank.num_groups;
    a.margins = c->buf.d_margins;
    a.label = c->buf.d_label;
    a.group_ptr = c->rank.d_group_ptr;
    a.discount = c->rank.d_discount;
    a.inv_idcg = c->rank.d_inv_idcg;
    a.group_weight = c->rank.d_group_weight;
    a.tiles = c->rank.d_tiles;
    a.num_tiles = c->rank.num_tiles;
    a.key_bits = c->rank.key_bits;
    a.keys_in = c->rank.d_keys[0];
    a.keys_out = c->rank.d_keys[1];
    a.values_in = c->rank.d_values;
    a.sort_temp = c->rank.d_sort_temp;
    a.sort_temp_bytes = c->rank.sort_temp_bytes;
    a.order = c->rank.d_order;
    a.yorder = c->rank.d_yorder;
    a.n_rel = c->rank.d_n_rel;
    a.acc = c->rank.d_acc;
    a.sums = c->rank.d_sums;
    a.lambda_sum = c->rank.d_lambda_sum;
    CUDA_TRY(c, gpl_cuda_launch_rank(&a, c->dev.stream), "ranking kernels");
    *pairs = (const double *)c->rank.d_sums;
    return GPULAYER_OK;
}
