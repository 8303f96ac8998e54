/* cuda_margins.c -- the margins: set, read back, and updated by a tree's
 * leaves (by walking the tree table of the splits, or by the leaves' row
 * lists). */
#include <stdlib.h>
#include <string.h>

#include "cuda_context.h"
#include "error.h"

gpulayer_status cuda_set_margins(gpl_backend *be, const float *margins)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    CUDA_TRY(c, cudaMemcpyAsync(c->buf.d_margins, margins,
                                sizeof(float) * (size_t)c->shape.num_rows *
                                    (size_t)c->shape.num_outputs,
                                cudaMemcpyHostToDevice, c->dev.stream), "set_margins");
    CUDA_TRY(c, cudaStreamSynchronize(c->dev.stream), "set_margins");
    c->softmax_norm_ready = 0;
    return GPULAYER_OK;
}

gpulayer_status cuda_get_margins(gpl_backend *be, float *margins)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    CUDA_TRY(c, cudaMemcpyAsync(margins, c->buf.d_margins,
                                sizeof(float) * (size_t)c->shape.num_rows *
                                    (size_t)c->shape.num_outputs,
                                cudaMemcpyDeviceToHost, c->dev.stream), "get_margins");
    CUDA_TRY(c, cudaStreamSynchronize(c->dev.stream), "get_margins (kernels before it)");
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
                                                  (uint16_t)a->bin,
                                                  (uint8_t)(a->default_left != 0),
                                                  (uint8_t)(a->categorical != 0)};
        /* No wide sets here: cuda_wants_tree. */
        if (a->categorical && c->tree_sets && !a->wide_set)
            memcpy(c->tree_sets + (size_t)a->node * GPL_CAT_WORDS, a->left_set,
                   sizeof a->left_set);
        for (int k = 0; k < 2; k++) {
            c->tree_nodes[kids[k]] = (gpl_infer_node){{kids[k], kids[k]}, 0, 0, 0, 0};
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
    /* The sets follow the leaf values, at a 4-byte boundary. */
    const size_t set_words = c->tree_sets ? n * GPL_CAT_WORDS : 0;
    if (set_words) memcpy(leaf + n, c->tree_sets, sizeof(uint32_t) * set_words);
    cuda_profile_begin(c);
    GPL_CHECK(cuda_stage_send(c, &c->stage_tree,
                              n * (sizeof(gpl_infer_node) + sizeof(float)) +
                                  sizeof(uint32_t) * set_words,
                              "copying the tree table"));
    const gpl_infer_node *d_nodes = c->stage_tree.dev;
    const float *d_leaf = (const float *)(d_nodes + n);
    gpl_cuda_tree_margin_args a = {c->buf.d_margins, c->shape.num_outputs, output, c->shape.num_rows,
                                   c->buf.d_bins, c->stride, c->code_bytes, d_nodes, d_leaf,
                                   set_words ? (const uint32_t *)(d_leaf + n) : NULL,
                                   c->tree_top};
    CUDA_TRY(c, gpl_cuda_launch_tree_margins(&a, c->dev.stream), "kernel tree_margins");
    cuda_profile_end(c, CUDA_OP_MARGINS);
    return GPULAYER_OK;
}

/* One launch over the rows of every leaf (live node) of the tree. */
gpulayer_status cuda_update_margins(gpl_backend *be, int32_t output,
                                    const float *leaf_value)
{
    cuda_context *c = cuda_ctx(be);
    if (output < 0 || output >= c->shape.num_outputs)
        return gpl_error(GPULAYER_ERR_INTERNAL, "cuda backend: output %d of %d", output,
                         c->shape.num_outputs);
    if (c->tree_nodes) return update_margins_by_tree(c, output, leaf_value);
    cuda_stage *s = &c->stage_leaf;
    const size_t cap = (s->bytes - sizeof(uint32_t)) /
                       (sizeof(gpl_cuda_leaf) + sizeof(uint32_t));
    GPL_CHECK(cuda_stage_wait(c, s));
    gpl_cuda_leaf *leaves = s->host;
    int32_t count = 0;
    for (int32_t n = 0; n < c->shape.max_nodes; n++) {
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
    gpl_cuda_margin_args a = {c->buf.d_margins, c->shape.num_outputs, output, c->buf.d_rows[0],
                              c->buf.d_rows[1], d_leaves, (const uint32_t *)(d_leaves + count),
                              count, tiles};
    CUDA_TRY(c, gpl_cuda_launch_update_margins(&a, c->dev.stream), "kernel update_margins");
    cuda_profile_end(c, CUDA_OP_MARGINS);
    return GPULAYER_OK;
}
