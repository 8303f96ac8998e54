/* cuda_level.c -- the per-level operations of the CUDA backend: each is one
 * batch of launches over all nodes of the level. Only small tables go to
 * the device (node ranges, slots) and only split records and child row
 * counts come back, with one wait each. */
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "cuda_backend.h"
#include "error.h"

static gpulayer_status check_level_size(const cuda_context *c, const cuda_stage *s,
                                        size_t per_node, int32_t n, const char *what)
{
    if ((size_t)n * per_node > s->bytes)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "cuda backend: %s of %d nodes at level %d exceeds the per-level "
                         "tables", what, n, c->level);
    return GPULAYER_OK;
}

static gpl_cuda_hist_args hist_args(const cuda_context *c)
{
    gpl_cuda_hist_args a;
    memset(&a, 0, sizeof a);
    a.bins = c->d_bins;
    a.stride = c->stride;
    a.grad = c->d_grad;
    a.rows0 = c->d_rows[0];
    a.rows1 = c->d_rows[1];
    a.feature_offset = c->d_feature_offset;
    a.num_features = c->num_features;
    a.hist_len = c->hist_len;
    a.chunks = c->d_chunks;
    a.num_chunks = c->num_chunks;
    a.slot_ptr = c->d_slot_ptr;
    return a;
}

/* Cuts the nodes' rows into work items of similar size: about four blocks
 * per multiprocessor over all chunks, and at least one item per non-empty
 * node. */
gpulayer_status cuda_build_histograms(gpl_backend *be, const int32_t *nodes,
                                      int32_t num_nodes)
{
    cuda_context *c = cuda_ctx(be);
    cuda_stage *s = &c->stage_hist;
    if (num_nodes == 0) return GPULAYER_OK;
    GPL_CHECK(check_level_size(c, s, sizeof(int32_t) + sizeof(gpl_cuda_hist_item), num_nodes,
                               "build_histograms"));
    int64_t total = 0;
    int32_t slot;
    for (int32_t i = 0; i < num_nodes; i++) {
        GPL_CHECK(gpl_check_node_live("cuda", "build_histograms", &c->nodes, nodes[i]));
        GPL_CHECK(gpl_hist_slots_acquire(&c->slots, NULL, nodes[i], &slot));
        total += c->nodes.count[nodes[i]];
    }
    const int64_t target = (4 * (int64_t)c->sm_count + c->num_chunks - 1) / c->num_chunks;
    int64_t per_item = (total + target - 1) / (target > 0 ? target : 1);
    if (per_item < 1024) per_item = 1024;
    const size_t cap = (s->bytes - sizeof(int32_t) * (size_t)num_nodes) /
                       sizeof(gpl_cuda_hist_item);
    GPL_CHECK(cuda_stage_wait(c, s));
    gpl_cuda_hist_item *items = s->host;
    size_t num_items = 0;
    for (int32_t i = 0; i < num_nodes; i++) {
        const int32_t n = nodes[i];
        for (int64_t b = 0; b < c->nodes.count[n]; b += per_item) {
            if (num_items == cap)
                return gpl_error(GPULAYER_ERR_INTERNAL,
                                 "cuda backend: too many histogram work items");
            int64_t e = b + per_item < c->nodes.count[n] ? b + per_item : c->nodes.count[n];
            const int32_t buf = n == 0 && c->rows_identity ? GPL_CUDA_ROWS_IDENTITY
                                                           : c->nodes.buf[n];
            items[num_items++] = (gpl_cuda_hist_item){(uint32_t)(c->nodes.begin[n] + b),
                                                      (uint32_t)(c->nodes.begin[n] + e), buf,
                                                      c->slots.node_slot[n]};
        }
    }
    int32_t *clear = (int32_t *)(items + num_items);
    for (int32_t i = 0; i < num_nodes; i++) clear[i] = c->slots.node_slot[nodes[i]];
    cuda_profile_begin(c);
    GPL_CHECK(cuda_stage_send(c, s, sizeof *items * num_items + sizeof(int32_t) * (size_t)num_nodes,
                              "copying histogram work items"));
    gpl_cuda_hist_args a = hist_args(c);
    a.items = s->dev;
    a.num_items = (int32_t)num_items;
    a.clear_slots = (const int32_t *)((const gpl_cuda_hist_item *)s->dev + num_items);
    a.num_clear = num_nodes;
    CUDA_TRY(c, gpl_cuda_launch_hist_clear(&a, c->stream), "kernel hist_clear");
    CUDA_TRY(c, gpl_cuda_launch_hist(c->hist_kind, &a, c->hist_smem, c->stream),
             c->hist_kind == GPL_CUDA_HIST_GLOBAL ? "kernel hist_global" : "kernel hist_shared");
    cuda_profile_end(c, CUDA_OP_HISTOGRAMS);
    /* Bytes the kernel must read: each row's bins once, its gradient pair
     * and row index once per feature chunk. */
    c->prof.hist_bytes += (double)total *
                          ((double)c->stride +
                           (double)(sizeof(gpl_cuda_qpair) + sizeof(uint32_t)) * c->num_chunks);
    return GPULAYER_OK;
}

gpulayer_status cuda_subtract_histograms(gpl_backend *be, const gpl_hist_subtract *subs,
                                         int32_t count)
{
    cuda_context *c = cuda_ctx(be);
    cuda_stage *s = &c->stage_sub;
    if (count == 0) return GPULAYER_OK;
    GPL_CHECK(check_level_size(c, s, 3 * sizeof(int32_t), count, "subtract_histograms"));
    int32_t slot;
    for (int32_t i = 0; i < count; i++) {
        GPL_CHECK(gpl_check_subtract("cuda", &c->slots, &subs[i]));
        GPL_CHECK(gpl_hist_slots_acquire(&c->slots, NULL, subs[i].target, &slot));
    }
    GPL_CHECK(cuda_stage_wait(c, s));
    int32_t *t = s->host;
    for (int32_t i = 0; i < count; i++) {
        t[3 * i] = c->slots.node_slot[subs[i].parent];
        t[3 * i + 1] = c->slots.node_slot[subs[i].built];
        t[3 * i + 2] = c->slots.node_slot[subs[i].target];
    }
    cuda_profile_begin(c);
    GPL_CHECK(cuda_stage_send(c, s, 3 * sizeof(int32_t) * (size_t)count,
                              "copying subtraction table"));
    CUDA_TRY(c, gpl_cuda_launch_hist_subtract(c->d_slot_ptr, s->dev, count, c->hist_len,
                                              c->stream), "kernel hist_subtract");
    cuda_profile_end(c, CUDA_OP_SUBTRACT);
    return GPULAYER_OK;
}

/* The mask goes to the device only when it changed (once a tree at most). */
static gpulayer_status upload_mask(cuda_context *c, const uint8_t *mask)
{
    const size_t F = (size_t)c->num_features;
    if (!mask || (c->mask_state && !memcmp(c->mask_cache, mask, F))) return GPULAYER_OK;
    memcpy(c->mask_cache, mask, F);
    CUDA_TRY(c, cudaMemcpyAsync(c->d_mask, c->mask_cache, F, cudaMemcpyHostToDevice,
                                c->stream), "copying the feature mask");
    /* mask_cache is pageable: the copy has been staged when this returns. */
    c->mask_state = 1;
    return GPULAYER_OK;
}

/* The partition table of one launch in stage_part's host memory: entry i
 * is node nodes[i] with split splits[index[i]] (index NULL: splits[i]),
 * or, without splits, the split of the level's record i (taken on the
 * device). */
static gpulayer_status partition_table(cuda_context *c, int32_t count, const int32_t *nodes,
                                       const gpl_split_apply *splits, const int32_t *index,
                                       uint32_t *num_tiles)
{
    cuda_stage *s = &c->stage_part;
    GPL_CHECK(check_level_size(c, s, sizeof(gpl_cuda_part_split) + sizeof(uint32_t), count,
                               "partition_rows"));
    GPL_CHECK(cuda_stage_wait(c, s));
    gpl_cuda_part_split *ps = s->host;
    uint32_t *tile_first = (uint32_t *)(ps + count);
    uint32_t tiles = 0;
    for (int32_t i = 0; i < count; i++) {
        const gpl_split_apply *a = splits ? &splits[index ? index[i] : i] : NULL;
        const int32_t n = a ? a->node : nodes[i];
        const int32_t buf = n == 0 && c->rows_identity ? GPL_CUDA_ROWS_IDENTITY
                                                       : c->nodes.buf[n];
        ps[i] = (gpl_cuda_part_split){(uint32_t)c->nodes.begin[n], (uint32_t)c->nodes.count[n],
                                      buf,
                                      a ? a->feature : -1, a ? a->bin : 0,
                                      a ? a->default_left : 0};
        tile_first[i] = tiles;
        tiles += (uint32_t)((c->nodes.count[n] + GPL_CUDA_TILE_ROWS - 1) / GPL_CUDA_TILE_ROWS);
    }
    tile_first[count] = tiles;
    if (tiles > c->part_status_cap)
        return gpl_error(GPULAYER_ERR_INTERNAL, "cuda backend: %u partition tiles at level %d "
                         "exceed the planned %u", tiles, c->level, c->part_status_cap);
    *num_tiles = tiles;
    return GPULAYER_OK;
}

/* Sends the table and queues the partition and the copy of the left
 * counts (the caller waits). records: see gpl_cuda_part_args. */
static gpulayer_status launch_partition(cuda_context *c, int32_t count, uint32_t tiles,
                                        const gpl_split_record *records)
{
    cuda_stage *s = &c->stage_part;
    GPL_CHECK(cuda_stage_send(c, s, sizeof(gpl_cuda_part_split) * (size_t)count +
                                        sizeof(uint32_t) * ((size_t)count + 1),
                              "copying partition table"));
    c->part_epoch = c->part_epoch % ((1u << 30) - 1) + 1;
    gpl_cuda_part_split *d_ps = s->dev;
    gpl_cuda_part_args pa = {c->d_columns ? c->d_columns : c->d_bins,
                             c->d_columns ? 1 : c->stride,
                             c->d_columns ? c->num_rows : 1, c->d_rows[0], c->d_rows[1], d_ps,
                             (const uint32_t *)(d_ps + count), count, tiles,
                             c->d_counts, records, c->d_part_ticket, c->part_tickets,
                             c->d_part_status, c->part_epoch};
    CUDA_TRY(c, gpl_cuda_launch_partition(&pa, c->stream), "kernel partition");
    c->part_tickets += tiles;
    CUDA_TRY(c, cudaMemcpyAsync(c->h_counts, c->d_counts, sizeof(uint32_t) * (size_t)count,
                                cudaMemcpyDeviceToHost, c->stream), "copying child counts");
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
    GPL_CHECK(check_level_size(c, s, 2 * sizeof(int32_t), num_nodes, "evaluate_splits"));
    for (int32_t i = 0; i < num_nodes; i++)
        if (nodes[i] < 0 || nodes[i] >= c->max_nodes || c->slots.node_slot[nodes[i]] < 0 ||
            c->nodes.state[nodes[i]] != GPL_NODE_LIVE)
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "cuda backend: evaluate_splits: node %d has no histogram or no rows",
                             nodes[i]);
    const int early = !params->leaf_children;
    uint32_t tiles = 0;
    if (early) GPL_CHECK(partition_table(c, num_nodes, nodes, NULL, NULL, &tiles));
    GPL_CHECK(cuda_stage_wait(c, s));
    int32_t *t = s->host;
    for (int32_t i = 0; i < num_nodes; i++) {
        t[2 * i] = nodes[i];
        t[2 * i + 1] = c->slots.node_slot[nodes[i]];
    }
    cuda_profile_begin(c);
    GPL_CHECK(upload_mask(c, feature_mask));
    GPL_CHECK(cuda_stage_send(c, s, 2 * sizeof(int32_t) * (size_t)num_nodes,
                              "copying split node table"));
    gpl_cuda_split_args a = {c->d_slot_ptr, s->dev, num_nodes, c->d_feature_offset,
                             c->num_features, feature_mask ? c->d_mask : NULL, *params,
                             c->d_partial, c->split_groups, c->d_records};
    CUDA_TRY(c, gpl_cuda_launch_split_scan(&a, c->stream), "kernel split_scan");
    CUDA_TRY(c, gpl_cuda_launch_split_finish(&a, c->stream), "kernel split_finish");
    if (early) GPL_CHECK(launch_partition(c, num_nodes, tiles, c->d_records));
    CUDA_TRY(c, cudaMemcpyAsync(c->h_records, c->d_records,
                                sizeof(gpl_split_record) * (size_t)num_nodes,
                                cudaMemcpyDeviceToHost, c->stream), "copying split records");
    CUDA_TRY(c, cudaStreamSynchronize(c->stream),
             early ? "kernels hist/split_scan/split_finish/partition"
                   : "kernels hist/split_scan/split_finish");
    cuda_profile_end(c, CUDA_OP_SPLITS);
    memcpy(out, c->h_records, sizeof(gpl_split_record) * (size_t)num_nodes);
    for (int32_t i = 0; i < num_nodes && early; i++) {
        const gpl_split_record *r = &c->h_records[i];
        const int32_t n = nodes[i];
        if (r->feature < 0 || c->nodes.count[n] == 0) continue;
        /* The rows now lie in the other buffer, left child first (the
         * root's identity rows went to buffer 1). */
        c->nodes.buf[n] = (uint8_t)(1 - c->nodes.buf[n]);
        if (n == 0) c->rows_identity = 0;
        c->node_early[n] = (cuda_early_split){c->h_counts[i], r->feature, r->bin,
                                              r->default_left != 0};
    }
    return GPULAYER_OK;
}

static gpulayer_status check_split(const cuda_context *c, const gpl_split_apply *a)
{
    GPL_CHECK(gpl_check_node_live("cuda", "partition_rows", &c->nodes, a->node));
    return gpl_check_split("cuda", &c->nodes, c->num_features, a);
}

/* The children of an applied split; the parent's rows lie in nodes.buf
 * (already the children's buffer), left child first. */
static void set_children(cuda_context *c, const gpl_split_apply *a, uint32_t nl, uint8_t buf,
                         int64_t *child_rows)
{
    gpl_node_table_apply_children(&c->nodes, a, nl, buf, child_rows);
}

gpulayer_status cuda_partition_rows(gpl_backend *be, const gpl_split_apply *splits,
                                    int32_t count, int64_t *child_rows)
{
    cuda_context *c = cuda_ctx(be);
    if (count == 0) return GPULAYER_OK;
    for (int32_t i = 0; i < count; i++) GPL_CHECK(check_split(c, &splits[i]));
    cuda_record_splits(c, splits, count);
    /* Splits partitioned with the search need only their children. */
    int32_t late = 0;
    int32_t *late_index = c->part_late;
    for (int32_t i = 0; i < count; i++) {
        const gpl_split_apply *a = &splits[i];
        cuda_early_split *e = &c->node_early[a->node];
        if (e->feature == a->feature && e->bin == a->bin &&
            e->default_left == (a->default_left != 0)) {
            set_children(c, a, e->left, c->nodes.buf[a->node], child_rows + 2 * i);
            e->feature = -1;
        } else {
            late_index[late++] = i;
        }
    }
    if (late > 0) {
        uint32_t tiles;
        GPL_CHECK(partition_table(c, late, NULL, splits, late_index, &tiles));
        c->rows_identity = 0;
        cuda_profile_begin(c);
        GPL_CHECK(launch_partition(c, late, tiles, NULL));
        CUDA_TRY(c, cudaStreamSynchronize(c->stream), "kernel partition");
        cuda_profile_end(c, CUDA_OP_PARTITION);
        for (int32_t j = 0; j < late; j++) {
            const gpl_split_apply *a = &splits[late_index[j]];
            /* A split without rows has no tile to write its count. */
            const uint32_t nl = c->nodes.count[a->node] ? c->h_counts[j] : 0;
            set_children(c, a, nl, (uint8_t)(1 - c->nodes.buf[a->node]),
                         child_rows + 2 * late_index[j]);
        }
    }
    c->level++;
    return GPULAYER_OK;
}

/* Children that stay leaves: with the tree table, the margin update walks
 * the tree, so their rows need not move (one partition a tree fewer). */
gpulayer_status cuda_split_into_leaves(gpl_backend *be, const gpl_split_apply *splits,
                                       int32_t count)
{
    cuda_context *c = cuda_ctx(be);
    if (c->tree_nodes) {
        for (int32_t i = 0; i < count; i++) GPL_CHECK(check_split(c, &splits[i]));
        cuda_record_splits(c, splits, count);
        for (int32_t i = 0; i < count; i++) {
            c->nodes.state[splits[i].node] = GPL_NODE_SPLIT;
            c->nodes.state[splits[i].left_child] = GPL_NODE_UNUSED;
            c->nodes.state[splits[i].right_child] = GPL_NODE_UNUSED;
        }
        c->level++;
        return GPULAYER_OK;
    }
    int64_t *child_rows = malloc(sizeof(int64_t) * 2 * (size_t)(count > 0 ? count : 1));
    if (!child_rows)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "cuda backend: out of host memory");
    gpulayer_status st = cuda_partition_rows(be, splits, count, child_rows);
    free(child_rows);
    return st;
}

gpulayer_status cuda_release_histograms(gpl_backend *be, const int32_t *nodes,
                                        int32_t num_nodes)
{
    cuda_context *c = cuda_ctx(be);
    for (int32_t i = 0; i < num_nodes; i++) gpl_hist_slots_release(&c->slots, nodes[i]);
    return GPULAYER_OK;
}

gpulayer_status cuda_read_histogram(gpl_backend *be, int32_t node, gpl_grad_pair *out)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    GPL_CHECK(gpl_check_histogram("cuda", NULL, GPULAYER_ERR_INVALID_ARGUMENT, &c->slots, node));
    CUDA_TRY(c, cudaMemcpyAsync(out, c->slot_ptr[c->slots.node_slot[node]],
                                sizeof(gpl_grad_pair) * c->hist_len, cudaMemcpyDeviceToHost,
                                c->stream), "read_histogram");
    CUDA_TRY(c, cudaStreamSynchronize(c->stream), "read_histogram (kernels before it)");
    return GPULAYER_OK;
}

/* Row gradients are kept as int32 pairs (gpl_cuda_qpair); the bound of
 * quantize.h makes the narrowing exact, and a value outside it is refused. */
static gpulayer_status write_row_gradients(cuda_context *c, const gpl_grad_pair *in)
{
    const size_t n = (size_t)c->num_rows;
    gpl_cuda_qpair *q = malloc(sizeof *q * (n ? n : 1));
    if (!q) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "cuda backend: out of host memory");
    for (size_t r = 0; r < n; r++) {
        if (in[r].grad != (int32_t)in[r].grad || in[r].hess != (int32_t)in[r].hess) {
            free(q);
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "cuda backend: the gradient pair of row %zu exceeds 32 bits", r);
        }
        q[r] = (gpl_cuda_qpair){(int32_t)in[r].grad, (int32_t)in[r].hess};
    }
    cudaError_t e = cudaMemcpyAsync(c->d_grad, q, sizeof *q * n, cudaMemcpyHostToDevice,
                                    c->stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(c->stream);
    free(q);
    if (e != cudaSuccess) return cuda_fail(c, e, "write_pairs");
    return GPULAYER_OK;
}

/* Data-parallel training: pairs summed over ranks replace a node's
 * histogram, or every row's gradient pair (GPL_ROW_GRADIENTS). */
gpulayer_status cuda_write_pairs(gpl_backend *be, int32_t node, const gpl_grad_pair *in)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    if (node == GPL_ROW_GRADIENTS) return write_row_gradients(c, in);
    int32_t slot;
    GPL_CHECK(gpl_hist_slots_acquire(&c->slots, NULL, node, &slot));
    CUDA_TRY(c, cudaMemcpyAsync(c->slot_ptr[c->slots.node_slot[node]], in,
                                sizeof(gpl_grad_pair) * c->hist_len, cudaMemcpyHostToDevice,
                                c->stream), "write_pairs");
    CUDA_TRY(c, cudaStreamSynchronize(c->stream), "write_pairs");
    return GPULAYER_OK;
}
