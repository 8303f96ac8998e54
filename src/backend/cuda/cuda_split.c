/* cuda_split.c -- evaluate_splits: the best split of every node of a
 * level, and (unless the children will be leaves) the partition by it
 * queued behind the search. */
#include <string.h>

#include "common/checks.h"
#include "cuda_context.h"
#include "error.h"

/* The mask goes to the device only when it changed (once a tree at most). */
static gpulayer_status upload_mask(cuda_context *c, const uint8_t *mask)
{
    const size_t F = (size_t)c->shape.num_features;
    if (!mask || (c->buf.mask_state && !memcmp(c->buf.mask_cache, mask, F))) return GPULAYER_OK;
    memcpy(c->buf.mask_cache, mask, F);
    CUDA_TRY(c, cudaMemcpyAsync(c->buf.d_mask, c->buf.mask_cache, F, cudaMemcpyHostToDevice,
                                c->dev.stream), "copying the feature mask");
    /* mask_cache is pageable: the copy has been staged when this returns. */
    c->buf.mask_state = 1;
    return GPULAYER_OK;
}

/* The constraints go to the device only when they changed (once a
 * training). */
static gpulayer_status upload_monotone(cuda_context *c, const int8_t *monotone)
{
    const size_t F = (size_t)c->shape.num_features;
    if (!monotone ||
        (c->buf.monotone_state && !memcmp(c->buf.monotone_cache, monotone, F)))
        return GPULAYER_OK;
    memcpy(c->buf.monotone_cache, monotone, F);
    CUDA_TRY(c, cudaMemcpyAsync(c->buf.d_monotone, c->buf.monotone_cache, F,
                                cudaMemcpyHostToDevice, c->dev.stream),
             "copying the monotone constraints");
    c->buf.monotone_state = 1;
    return GPULAYER_OK;
}

/* The search, and (unless the children will be leaves) the partition of
 * every node by its best split, queued behind the search on the device:
 * the records and the left counts come back in one wait. The host's
 * driver may still reject a split (gain, max_leaves): the node's rows
 * have then only been reordered within its range. */
gpulayer_status cuda_evaluate_splits(gpl_backend *be, const int32_t *nodes,
                                     int32_t num_nodes, const gpl_split_params *params,
                                     const uint8_t *feature_mask, gpl_split_record *out)
{
    cuda_context *c = cuda_ctx(be);
    cuda_stage *s = &c->stage_split;
    if (num_nodes == 0) return GPULAYER_OK;
    GPL_CHECK(cuda_check_level_size(c, s, CUDA_SPLIT_NODE_BYTES, num_nodes, "evaluate_splits"));
    for (int32_t i = 0; i < num_nodes; i++)
        if (nodes[i] < 0 || nodes[i] >= c->shape.max_nodes || c->slots.node_slot[nodes[i]] < 0 ||
            c->nodes.state[nodes[i]] != GPL_NODE_LIVE)
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "cuda backend: evaluate_splits: node %d has no histogram or no rows",
                             nodes[i]);
    const int early = !params->leaf_children;
    uint32_t tiles = 0;
    if (early) GPL_CHECK(cuda_partition_table(c, num_nodes, nodes, NULL, NULL, &tiles));
    GPL_CHECK(cuda_stage_wait(c, s));
    int32_t *t = s->host;
    for (int32_t i = 0; i < num_nodes; i++) {
        t[2 * i] = nodes[i];
        t[2 * i + 1] = c->slots.node_slot[nodes[i]];
    }
    /* The nodes' rows follow the node table, then their bounds (8-byte
     * aligned). */
    const size_t ids_bytes = 2 * sizeof(int32_t) * (size_t)num_nodes;
    const size_t rows_bytes = (sizeof(uint32_t) * (size_t)num_nodes + 7) & ~(size_t)7;
    const size_t table_bytes = ids_bytes + rows_bytes;
    uint32_t *rows = (uint32_t *)((char *)s->host + ids_bytes);
    for (int32_t i = 0; i < num_nodes; i++) rows[i] = gpl_split_node_rows(params, i);
    if (params->bounds)
        memcpy((char *)s->host + table_bytes, params->bounds,
               2 * sizeof(double) * (size_t)num_nodes);
    cuda_profile_begin(c);
    GPL_CHECK(upload_mask(c, feature_mask));
    GPL_CHECK(upload_monotone(c, params->monotone));
    GPL_CHECK(cuda_stage_send(c, s,
                              table_bytes +
                                  (params->bounds ? 2 * sizeof(double) * (size_t)num_nodes : 0),
                              "copying split node table"));
    const gpl_cuda_split_args a = {
        .slot_ptr = c->d_slot_ptr,
        .node_slot = s->dev,
        .num_nodes = num_nodes,
        .feature_offset = c->buf.d_feature_offset,
        .num_features = c->shape.num_features,
        .feature_mask = feature_mask ? c->buf.d_mask : NULL,
        .params = *params,
        .partial = c->buf.d_partial,
        .groups = c->buf.split_groups,
        .out = c->buf.d_records,
        .categorical = c->buf.d_categorical,
        .cat_features = c->buf.d_cat_features,
        .num_cat = c->buf.num_cat,
        .num_cat_narrow = c->buf.num_cat_narrow,
        .cat_partial = c->buf.d_cat_partial,
        .cat_sets = c->buf.d_cat_sets,
        .cat_left = c->buf.d_cat_left,
        .monotone = params->monotone ? c->buf.d_monotone : NULL,
        .bounds = params->bounds ? (const double *)((const char *)s->dev + table_bytes) : NULL,
        .node_rows = (const uint32_t *)((const char *)s->dev + ids_bytes),
    };
    CUDA_TRY(c, gpl_cuda_launch_split_scan(&a, c->dev.stream), "kernel split_scan");
    CUDA_TRY(c, gpl_cuda_launch_split_finish(&a, c->dev.stream), "kernel split_finish");
    if (early) GPL_CHECK(cuda_launch_partition(c, num_nodes, tiles, c->buf.d_records));
    CUDA_TRY(c, cudaMemcpyAsync(c->buf.h_records, c->buf.d_records,
                                sizeof(gpl_split_record) * (size_t)num_nodes,
                                cudaMemcpyDeviceToHost, c->dev.stream), "copying split records");
    CUDA_TRY(c, cudaStreamSynchronize(c->dev.stream),
             early ? "kernels hist/split_scan/split_finish/partition"
                   : "kernels hist/split_scan/split_finish");
    cuda_profile_end(c, CUDA_OP_SPLITS);
    memcpy(out, c->buf.h_records, sizeof(gpl_split_record) * (size_t)num_nodes);
    for (int32_t i = 0; i < num_nodes && early; i++) {
        const gpl_split_record *r = &c->buf.h_records[i];
        const int32_t n = nodes[i];
        if (r->feature < 0 || c->nodes.count[n] == 0) continue;
        /* A categorical record of more than 255 value bins has no set: the
         * device left its rows alone (partition_rows moves them). */
        if (r->categorical && cuda_set_words(c, r->feature) > GPL_CAT_WORDS) continue;
        /* The rows now lie in the other buffer, left child first (the
         * root's identity rows went to buffer 1). */
        c->nodes.buf[n] = (uint8_t)(1 - c->nodes.buf[n]);
        if (n == 0) c->rows_identity = 0;
        c->node_early[n] = (cuda_early_split){c->buf.h_counts[i], r->feature, r->bin,
                                              r->default_left != 0, r->categorical != 0, {0}};
        memcpy(c->node_early[n].left_set, r->left_set, sizeof r->left_set);
    }
    return GPULAYER_OK;
}
