/* cuda_rows.c -- the per-training and per-tree operations of the CUDA
 * backend: upload, margins, gradients, the start of a tree and the final
 * margin update. */
#include <stdlib.h>
#include <string.h>

#include "cuda_backend.h"
#include "error.h"

/* Rows are uint32 positions; the kernels' loop bounds need some headroom. */
#define CUDA_MAX_ROWS ((int64_t)UINT32_MAX - ((int64_t)1 << 24))

gpulayer_status cuda_upload(gpl_backend *be, const gpl_binned_matrix *m,
                            const float *label, const float *weight)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    if (c->d_bins)
        return gpl_error(GPULAYER_ERR_INTERNAL, "cuda backend: upload called twice");
    if (m->num_rows > CUDA_MAX_ROWS)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "cuda backend: %lld rows exceed the limit of %lld",
                         (long long)m->num_rows, (long long)CUDA_MAX_ROWS);
    if (m->num_features < 1)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "cuda backend: no features");
    GPL_CHECK(cuda_workspace_create(c, m, weight != NULL));
    cuda_profile_begin(c);
    const size_t N = (size_t)m->num_rows;
    /* All copies on the backend's stream (which does not synchronize with
     * the legacy default stream), then one wait. */
    CUDA_TRY(c, cudaMemcpyAsync(c->d_bins, m->bins, N * (size_t)c->stride,
                                cudaMemcpyHostToDevice, c->stream),
             "copying the binned matrix");
    CUDA_TRY(c, cudaMemcpyAsync(c->d_feature_offset, m->feature_offset,
                                sizeof(uint32_t) * ((size_t)m->num_features + 1),
                                cudaMemcpyHostToDevice, c->stream), "copying feature offsets");
    CUDA_TRY(c, cudaMemcpyAsync(c->d_label, label, sizeof(float) * N, cudaMemcpyHostToDevice,
                                c->stream), "copying labels");
    if (weight)
        CUDA_TRY(c, cudaMemcpyAsync(c->d_weight, weight, sizeof(float) * N,
                                    cudaMemcpyHostToDevice, c->stream), "copying weights");
    /* The partition reads one feature of many rows: feature-major, a split
     * reads its feature's bytes densely instead of a sector a row. */
    if (c->d_columns)
        CUDA_TRY(c, gpl_cuda_launch_bins_to_columns(c->d_bins, m->num_rows, m->num_features,
                                                    c->d_columns, c->stream),
                 "kernel bins_to_columns");
    CUDA_TRY(c, cudaStreamSynchronize(c->stream), "upload");
    cuda_profile_end(c, CUDA_OP_UPLOAD);
    return GPULAYER_OK;
}

gpulayer_status cuda_set_margins(gpl_backend *be, const float *margins)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    CUDA_TRY(c, cudaMemcpyAsync(c->d_margins, margins,
                                sizeof(float) * (size_t)c->num_rows * (size_t)c->num_outputs,
                                cudaMemcpyHostToDevice, c->stream), "set_margins");
    CUDA_TRY(c, cudaStreamSynchronize(c->stream), "set_margins");
    return GPULAYER_OK;
}

gpulayer_status cuda_get_margins(gpl_backend *be, float *margins)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    CUDA_TRY(c, cudaMemcpyAsync(margins, c->d_margins,
                                sizeof(float) * (size_t)c->num_rows * (size_t)c->num_outputs,
                                cudaMemcpyDeviceToHost, c->stream), "get_margins");
    CUDA_TRY(c, cudaStreamSynchronize(c->stream), "get_margins (kernels before it)");
    return GPULAYER_OK;
}

/* Three kernels on the device; only the two scales come back (the driver
 * needs them for the split parameters). */
gpulayer_status cuda_compute_gradients(gpl_backend *be, const gpl_gradient_request *req,
                                       gpl_quant_scale *scale)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    if (req->output < 0 || req->output >= c->num_outputs)
        return gpl_error(GPULAYER_ERR_INTERNAL, "cuda backend: output %d of %d",
                         req->output, c->num_outputs);
    gpl_cuda_grad_args a = {(int32_t)req->objective, c->num_outputs, req->output,
                            req->round, req->seed, req->subsample, c->num_rows,
                            c->d_margins, c->d_label, c->d_weight, c->d_grad, c->d_max,
                            c->d_scale};
    cuda_profile_begin(c);
    CUDA_TRY(c, cudaMemsetAsync(c->d_max, 0, 2 * sizeof(unsigned long long), c->stream),
             "clearing gradient maxima");
    CUDA_TRY(c, gpl_cuda_launch_grad_max(&a, c->stream), "kernel grad_max");
    CUDA_TRY(c, gpl_cuda_launch_grad_scale(&a, c->stream), "kernel grad_scale");
    CUDA_TRY(c, gpl_cuda_launch_grad_quantize(&a, c->stream), "kernel grad_quantize");
    CUDA_TRY(c, cudaMemcpyAsync(c->h_scale, c->d_scale, sizeof *c->h_scale,
                                cudaMemcpyDeviceToHost, c->stream), "copying scales");
    CUDA_TRY(c, cudaStreamSynchronize(c->stream), "kernels grad_max/grad_quantize");
    cuda_profile_end(c, CUDA_OP_GRADIENTS);
    *scale = *c->h_scale;
    return GPULAYER_OK;
}

gpulayer_status cuda_begin_tree(gpl_backend *be)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    c->level = 0;
    gpl_hist_slots_release_all(&c->slots);
    gpl_node_table_reset(&c->nodes, c->num_rows);
    for (int32_t n = 0; n < c->max_nodes; n++) c->node_early[n].feature = -1;
    /* The root's rows are 0 .. n-1: histograms and the partition take
     * them so without a row list; only the margin update by leaf row
     * lists (no tree table) reads a root that never split from buffer 0. */
    if (!c->tree_nodes) {
        cuda_profile_begin(c);
        CUDA_TRY(c, gpl_cuda_launch_iota(c->d_rows[0], c->num_rows, c->stream), "kernel iota");
        cuda_profile_end(c, CUDA_OP_BEGIN_TREE);
    }
    c->rows_identity = 1;
    if (c->tree_nodes) {
        /* The previous tree's table has been copied before it is rewritten. */
        GPL_CHECK(cuda_stage_wait(c, &c->stage_tree));
        c->tree_nodes[0] = (gpl_infer_node){{0, 0}, 0, 0, 0, {0, 0}};
        c->tree_top = 1;
    }
    return GPULAYER_OK;
}

/* The split nodes become inner nodes of the tree table, their children
 * leaves (until they split in turn). */
void cuda_record_splits(cuda_context *c, const gpl_split_apply *splits, int32_t count)
{
    if (!c->tree_nodes) return;
    for (int32_t i = 0; i < count; i++) {
        const gpl_split_apply *a = &splits[i];
        const int32_t kids[2] = {a->left_child, a->right_child};
        c->tree_nodes[a->node] = (gpl_infer_node){{kids[0], kids[1]}, a->feature,
                                                  (uint8_t)a->bin,
                                                  (uint8_t)(a->default_left != 0), {0, 0}};
        for (int k = 0; k < 2; k++) {
            c->tree_nodes[kids[k]] = (gpl_infer_node){{kids[k], kids[k]}, 0, 0, 0, {0, 0}};
            if (kids[k] >= c->tree_top) c->tree_top = kids[k] + 1;
        }
    }
}

/* Every row walks the tree on its bins, in row order (one launch, no row
 * lists needed). */
static gpulayer_status update_margins_by_tree(cuda_context *c, int32_t output,
                                             const float *leaf_value)
{
    const size_t n = (size_t)c->tree_top;
    float *leaf = (float *)(c->tree_nodes + n);
    for (size_t i = 0; i < n; i++)
        leaf[i] = c->tree_nodes[i].child[0] == (int32_t)i ? leaf_value[i] : 0.0f;
    cuda_profile_begin(c);
    GPL_CHECK(cuda_stage_send(c, &c->stage_tree, n * (sizeof(gpl_infer_node) + sizeof(float)),
                              "copying the tree table"));
    const gpl_infer_node *d_nodes = c->stage_tree.dev;
    gpl_cuda_tree_margin_args a = {c->d_margins, c->num_outputs, output, c->num_rows,
                                   c->d_bins, c->stride, d_nodes,
                                   (const float *)(d_nodes + n), c->tree_top};
    CUDA_TRY(c, gpl_cuda_launch_tree_margins(&a, c->stream), "kernel tree_margins");
    cuda_profile_end(c, CUDA_OP_MARGINS);
    return GPULAYER_OK;
}

/* One launch over the rows of every leaf (live node) of the tree. */
gpulayer_status cuda_update_margins(gpl_backend *be, int32_t output,
                                    const float *leaf_value)
{
    cuda_context *c = cuda_ctx(be);
    if (output < 0 || output >= c->num_outputs)
        return gpl_error(GPULAYER_ERR_INTERNAL, "cuda backend: output %d of %d", output,
                         c->num_outputs);
    if (c->tree_nodes) return update_margins_by_tree(c, output, leaf_value);
    cuda_stage *s = &c->stage_leaf;
    const size_t cap = (s->bytes - sizeof(uint32_t)) /
                       (sizeof(gpl_cuda_leaf) + sizeof(uint32_t));
    GPL_CHECK(cuda_stage_wait(c, s));
    gpl_cuda_leaf *leaves = s->host;
    int32_t count = 0;
    for (int32_t n = 0; n < c->max_nodes; n++) {
        if (c->nodes.state[n] != GPL_NODE_LIVE || c->nodes.count[n] == 0) continue;
        if ((size_t)count == cap)
            return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                             "cuda backend: more than %zu leaves in one tree", cap);
        leaves[count++] = (gpl_cuda_leaf){(uint32_t)c->nodes.begin[n],
                                          (uint32_t)c->nodes.count[n],
                                          c->nodes.buf[n], leaf_value[n]};
    }
    uint32_t *tile_first = (uint32_t *)(leaves + cap);
    uint32_t tiles = 0;
    for (int32_t i = 0; i < count; i++) {
        tile_first[i] = tiles;
        tiles += (leaves[i].count + GPL_CUDA_TILE_ROWS - 1) / GPL_CUDA_TILE_ROWS;
    }
    tile_first[count] = tiles;
    if (count == 0) return GPULAYER_OK;
    /* Leaves and tile starts travel as one copy. */
    memmove(leaves + count, tile_first, sizeof(uint32_t) * ((size_t)count + 1));
    cuda_profile_begin(c);
    GPL_CHECK(cuda_stage_send(c, s, sizeof(gpl_cuda_leaf) * (size_t)count +
                                        sizeof(uint32_t) * ((size_t)count + 1),
                              "copying leaf tables"));
    gpl_cuda_leaf *d_leaves = s->dev;
    gpl_cuda_margin_args a = {c->d_margins, c->num_outputs, output, c->d_rows[0],
                              c->d_rows[1], d_leaves, (const uint32_t *)(d_leaves + count),
                              count, tiles};
    CUDA_TRY(c, gpl_cuda_launch_update_margins(&a, c->stream), "kernel update_margins");
    cuda_profile_end(c, CUDA_OP_MARGINS);
    return GPULAYER_OK;
}
