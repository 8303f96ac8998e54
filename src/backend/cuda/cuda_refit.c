/* cuda_refit.c -- the leaf refit's sort on the device (backend.h,
 * refit_sort and refit_values): one key a row, a radix sort, the leaves'
 * bounds back to the host, then the few residuals the quantiles read. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_context.h"
#include "error.h"

/* Bits that hold every leaf index and the "not sampled" index num_nodes. */
static int leaf_bits(int32_t num_nodes)
{
    int bits = 1;
    while (bits < 31 && ((int64_t)1 << bits) <= num_nodes) bits++;
    return bits;
}

static gpulayer_status sort_keys(cuda_context *c, const gpl_gradient_request *req,
                                 const gpl_infer_node *nodes, const uint32_t *cat_sets,
                                 int32_t num_nodes, void **blocks, int64_t *leaf_rows)
{
    gpulayer_status st = GPULAYER_OK;
    const int64_t n = c->shape.num_rows;
    const size_t node_bytes = sizeof(gpl_infer_node) * (size_t)num_nodes;
    const size_t set_bytes = cat_sets ? sizeof(uint32_t) * GPL_CAT_WORDS * (size_t)num_nodes : 0;
    char *d_tree = cuda_pool_get(c, node_bytes + set_bytes, "the leaf refit's tree", &st);
    blocks[0] = d_tree;
    if (!d_tree) return st;
    CUDA_TRY(c, cudaMemcpyAsync(d_tree, nodes, node_bytes, cudaMemcpyHostToDevice,
                                c->dev.stream), "leaf refit: copying the tree");
    if (set_bytes)
        CUDA_TRY(c, cudaMemcpyAsync(d_tree + node_bytes, cat_sets, set_bytes,
                                    cudaMemcpyHostToDevice, c->dev.stream),
                 "leaf refit: copying the tree's sets");
    unsigned long long *keys = cuda_pool_get(c, sizeof(unsigned long long) * (size_t)n,
                                             "the leaf refit's keys", &st);
    blocks[1] = keys;
    unsigned long long *sorted = keys ? cuda_pool_get(c, sizeof(unsigned long long) * (size_t)n,
                                                      "the leaf refit's sorted keys", &st)
                                      : NULL;
    c->refit_keys = sorted;
    if (!sorted) return st;
    gpl_cuda_refit_args a = {c->buf.d_bins, c->stride, c->code_bytes, n, c->buf.d_margins,
                             c->shape.num_outputs, req->output, c->buf.d_label, req->seed,
                             gpl_sample_round(req), req->subsample, (const gpl_infer_node *)d_tree,
                             set_bytes ? (const uint32_t *)(d_tree + node_bytes) : NULL,
                             num_nodes, keys};
    CUDA_TRY(c, gpl_cuda_launch_refit_keys(&a, c->dev.stream), "kernel refit_keys");
    const int end_bit = 32 + leaf_bits(num_nodes);
    size_t temp_bytes = 0;
    CUDA_TRY(c, gpl_cuda_refit_sort(NULL, &temp_bytes, keys, sorted, (int)n, end_bit,
                                    c->dev.stream), "leaf refit: sizing the sort");
    void *temp = cuda_pool_get(c, temp_bytes, "the leaf refit's sort", &st);
    blocks[2] = temp;
    if (!temp) return st;
    CUDA_TRY(c, gpl_cuda_refit_sort(temp, &temp_bytes, keys, sorted, (int)n, end_bit,
                                    c->dev.stream), "leaf refit: the sort");
    long long *bounds = cuda_pool_get(c, 2 * sizeof(long long) * (size_t)num_nodes,
                                      "the leaf refit's bounds", &st);
    blocks[3] = bounds;
    if (!bounds) return st;
    CUDA_TRY(c, cudaMemsetAsync(bounds, 0, 2 * sizeof(long long) * (size_t)num_nodes,
                                c->dev.stream), "leaf refit: clearing the bounds");
    CUDA_TRY(c, gpl_cuda_launch_refit_bounds(sorted, n, num_nodes, bounds, bounds + num_nodes,
                                             c->dev.stream), "kernel refit_bounds");
    long long *host = malloc(2 * sizeof(long long) * (size_t)num_nodes);
    if (!host) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "cuda backend: out of host memory");
    cudaError_t e = cudaMemcpyAsync(host, bounds, 2 * sizeof(long long) * (size_t)num_nodes,
                                    cudaMemcpyDeviceToHost, c->dev.stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(c->dev.stream);
    if (e == cudaSuccess)
        for (int32_t i = 0; i < num_nodes; i++) leaf_rows[i] = host[num_nodes + i] - host[i];
    free(host);
    CUDA_TRY(c, e, "leaf refit: reading the leaves' rows");
    return GPULAYER_OK;
}

gpulayer_status cuda_refit_sort(gpl_backend *be, const gpl_gradient_request *req,
                                const gpl_infer_node *nodes, const uint32_t *cat_sets,
                                int32_t num_nodes, int64_t *leaf_rows)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    if (c->shape.num_rows > INT_MAX)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "cuda backend: the leaf refit sorts at most %d rows, not %lld",
                         INT_MAX, (long long)c->shape.num_rows);
    if (c->refit_keys) cuda_pool_put(&c->buf.pool, c->refit_keys);
    c->refit_keys = NULL;
    void *blocks[4] = {NULL, NULL, NULL, NULL};
    gpulayer_status st = sort_keys(c, req, nodes, cat_sets, num_nodes, blocks, leaf_rows);
    for (int i = 0; i < 4; i++)
        if (blocks[i]) cuda_pool_put(&c->buf.pool, blocks[i]);
    if (st != GPULAYER_OK && c->refit_keys) {
        cuda_pool_put(&c->buf.pool, c->refit_keys);
        c->refit_keys = NULL;
    }
    return st;
}

gpulayer_status cuda_refit_values(gpl_backend *be, const int64_t *positions, int32_t count,
                                  float *values)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    if (!c->refit_keys)
        return gpl_error(GPULAYER_ERR_INTERNAL, "cuda backend: refit_values before refit_sort");
    gpulayer_status st = GPULAYER_OK;
    const size_t pos_bytes = sizeof(long long) * (size_t)(count ? count : 1);
    char *d = cuda_pool_get(c, pos_bytes + sizeof(float) * (size_t)(count ? count : 1),
                            "the leaf refit's residuals", &st);
    if (!d) return st;
    cudaError_t e = cudaMemcpyAsync(d, positions, sizeof(long long) * (size_t)count,
                                    cudaMemcpyHostToDevice, c->dev.stream);
    if (e == cudaSuccess)
        e = gpl_cuda_launch_refit_pick(c->refit_keys, (const long long *)d, count,
                                       (float *)(d + pos_bytes), c->dev.stream);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(values, d + pos_bytes, sizeof(float) * (size_t)count,
                            cudaMemcpyDeviceToHost, c->dev.stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(c->dev.stream);
    cuda_pool_put(&c->buf.pool, d);
    cuda_pool_put(&c->buf.pool, c->refit_keys);
    c->refit_keys = NULL;
    CUDA_TRY(c, e, "leaf refit: reading residuals");
    return GPULAYER_OK;
}
