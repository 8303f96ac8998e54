/* cuda_partition.c -- the start of a tree (every row in the root) and
 * partition_rows: every split node's rows into its children, one launch
 * for the splits of a level; only the left counts come back. */
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "cuda_context.h"
#include "error.h"

gpulayer_status cuda_begin_tree(gpl_backend *be)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    c->level = 0;
    gpl_hist_slots_release_all(&c->slots);
    gpl_node_table_reset(&c->nodes, c->shape.num_rows);
    for (int32_t n = 0; n < c->shape.max_nodes; n++) c->node_early[n].feature = -1;
    /* The root's rows are 0 .. n-1: histograms and the partition take
     * them so without a row list; only the margin update by leaf row
     * lists (no tree table) reads a root that never split from buffer 0. */
    if (!c->tree_nodes) {
        cuda_profile_begin(c);
        CUDA_TRY(c, gpl_cuda_launch_iota(c->buf.d_rows[0], c->shape.num_rows, c->dev.stream),
                 "kernel iota");
        cuda_profile_end(c, CUDA_OP_BEGIN_TREE);
    }
    c->rows_identity = 1;
    if (c->tree_nodes) {
        /* The previous tree's table has been copied before it is rewritten. */
        GPL_CHECK(cuda_stage_wait(c, &c->stage_tree));
        c->tree_nodes[0] = (gpl_infer_node){{0, 0}, 0, 0, 0, 0};
        c->tree_top = 1;
    }
    return GPULAYER_OK;
}

/* The set a categorical split sends left (backend.h: its wide_set when
 * given). */
static const uint32_t *split_set(const gpl_split_apply *a)
{
    return a->wide_set ? a->wide_set : a->left_set;
}

/* Room for `words` words of wide sets on the host and the device. The
 * device block is replaced only between partitions (each waits for its
 * kernel before it returns), so no queued kernel still reads it. */
static gpulayer_status wide_set_room(cuda_context *c, size_t words)
{
    cuda_buffers *b = &c->buf;
    gpulayer_status st = GPULAYER_OK;
    if (words > b->h_wide_sets_words) {
        uint32_t *h = realloc(b->h_wide_sets, sizeof(uint32_t) * words);
        if (!h) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "cuda backend: out of host memory");
        b->h_wide_sets = h;
        b->h_wide_sets_words = words;
    }
    if (words > b->d_wide_sets_words) {
        if (b->d_wide_sets) cuda_pool_put(&b->pool, b->d_wide_sets);
        b->d_wide_sets = NULL;
        b->d_wide_sets_words = 0;
        uint32_t *d = cuda_pool_get_extra(c, sizeof(uint32_t) * words,
                                          "the sets of wide categorical splits", &st);
        if (!d) return st;
        b->d_wide_sets = d;
        b->d_wide_sets_words = words;
    }
    return GPULAYER_OK;
}

/* The partition table of one launch in stage_part's host memory: entry i
 * is node nodes[i] with split splits[index[i]] (index NULL: splits[i]),
 * or, without splits, the split of the level's record i (taken on the
 * device). The sets of categorical splits on features of more than 255
 * value bins are queued to the device here (d_wide_sets). */
gpulayer_status cuda_partition_table(cuda_context *c, int32_t count, const int32_t *nodes,
                                     const gpl_split_apply *splits, const int32_t *index,
                                     uint32_t *num_tiles)
{
    cuda_stage *s = &c->stage_part;
    GPL_CHECK(cuda_check_level_size(c, s, sizeof(gpl_cuda_part_split) + sizeof(uint32_t),
                                    count, "partition_rows"));
    size_t wide_words = 0;
    for (int32_t i = 0; splits && i < count; i++) {
        const gpl_split_apply *a = &splits[index ? index[i] : i];
        if (a->categorical && cuda_set_words(c, a->feature) > GPL_CAT_WORDS)
            wide_words += (size_t)cuda_set_words(c, a->feature);
    }
    if (wide_words > UINT32_MAX - 1)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED, "cuda backend: %zu words of category sets "
                         "at level %d", wide_words, c->level);
    if (wide_words) GPL_CHECK(wide_set_room(c, wide_words));
    GPL_CHECK(cuda_stage_wait(c, s));
    gpl_cuda_part_split *ps = s->host;
    uint32_t *tile_first = (uint32_t *)(ps + count);
    uint32_t tiles = 0;
    size_t at = 0; /* words of wide sets so far */
    for (int32_t i = 0; i < count; i++) {
        const gpl_split_apply *a = splits ? &splits[index ? index[i] : i] : NULL;
        const int32_t n = a ? a->node : nodes[i];
        const int32_t buf = n == 0 && c->rows_identity ? GPL_CUDA_ROWS_IDENTITY
                                                       : c->nodes.buf[n];
        ps[i] = (gpl_cuda_part_split){(uint32_t)c->nodes.begin[n], (uint32_t)c->nodes.count[n],
                                      buf,
                                      a ? a->feature : -1, a ? a->bin : 0,
                                      a ? a->default_left : 0, a ? a->categorical : 0, {0},
                                      GPL_CUDA_NO_WIDE_SET};
        if (a && a->categorical) {
            const int32_t words = cuda_set_words(c, a->feature);
            if (words > GPL_CAT_WORDS) {
                memcpy(c->buf.h_wide_sets + at, a->wide_set, sizeof(uint32_t) * (size_t)words);
                ps[i].wide_set = (uint32_t)at;
                at += (size_t)words;
            } else {
                memcpy(ps[i].left_set, split_set(a), sizeof ps[i].left_set);
            }
        }
        tile_first[i] = tiles;
        tiles += (uint32_t)((c->nodes.count[n] + GPL_CUDA_TILE_ROWS - 1) / GPL_CUDA_TILE_ROWS);
    }
    tile_first[count] = tiles;
    if (tiles > c->buf.part_status_cap)
        return gpl_error(GPULAYER_ERR_INTERNAL, "cuda backend: %u partition tiles at level %d "
                         "exceed the planned %u", tiles, c->level, c->buf.part_status_cap);
    /* Ahead of the partition on the stream; the host buffer may be reused
     * once the call returns (pageable memory is staged). */
    if (at)
        CUDA_TRY(c, cudaMemcpyAsync(c->buf.d_wide_sets, c->buf.h_wide_sets,
                                    sizeof(uint32_t) * at, cudaMemcpyHostToDevice,
                                    c->dev.stream), "copying the sets of wide categorical splits");
    *num_tiles = tiles;
    return GPULAYER_OK;
}

/* Sends the table and queues the partition and the copy of the left
 * counts (the caller waits). records: see gpl_cuda_part_args. */
gpulayer_status cuda_launch_partition(cuda_context *c, int32_t count, uint32_t tiles,
                                      const gpl_split_record *records)
{
    cuda_stage *s = &c->stage_part;
    GPL_CHECK(cuda_stage_send(c, s, sizeof(gpl_cuda_part_split) * (size_t)count +
                                        sizeof(uint32_t) * ((size_t)count + 1),
                              "copying partition table"));
    c->buf.part_epoch = c->buf.part_epoch % ((1u << 30) - 1) + 1;
    gpl_cuda_part_split *d_ps = s->dev;
    const gpl_cuda_part_args pa = {
        .bins = c->buf.d_columns ? c->buf.d_columns : c->buf.d_bins,
        .row_stride = c->buf.d_columns ? 1 : c->stride,
        .feature_stride = c->buf.d_columns ? c->shape.num_rows : 1,
        .code_bytes = c->code_bytes,
        .rows0 = c->buf.d_rows[0],
        .rows1 = c->buf.d_rows[1],
        .splits = d_ps,
        .tile_first = (const uint32_t *)(d_ps + count),
        .count = count,
        .num_tiles = tiles,
        .left_count = c->buf.d_counts,
        .records = records,
        .ticket = c->buf.d_part_ticket,
        .ticket_base = c->buf.part_tickets,
        .status = c->buf.d_part_status,
        .epoch = c->buf.part_epoch,
        .wide_sets = c->buf.d_wide_sets,
        .wide_cat = c->buf.d_wide_cat,
    };
    CUDA_TRY(c, gpl_cuda_launch_partition(&pa, c->dev.stream), "kernel partition");
    c->buf.part_tickets += tiles;
    CUDA_TRY(c, cudaMemcpyAsync(c->buf.h_counts, c->buf.d_counts, sizeof(uint32_t) * (size_t)count,
                                cudaMemcpyDeviceToHost, c->dev.stream), "copying child counts");
    return GPULAYER_OK;
}

static gpulayer_status check_split(const cuda_context *c, const gpl_split_apply *a)
{
    GPL_CHECK(gpl_check_node_live("cuda", "partition_rows", &c->nodes, a->node));
    GPL_CHECK(gpl_check_split("cuda", &c->nodes, c->shape.num_features, a));
    /* A set of more than 255 value bins comes only as wide_set. */
    if (a->categorical && !a->wide_set && cuda_set_words(c, a->feature) > GPL_CAT_WORDS)
        return gpl_error(GPULAYER_ERR_INTERNAL,
                         "cuda backend: partition_rows: the categorical split of node %d on "
                         "feature %d (more than 255 value bins) has no wide_set",
                         a->node, a->feature);
    return GPULAYER_OK;
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
        /* The same split: a set is compared whole (a driver may change
         * it and keep the key). */
        if (e->feature == a->feature && e->bin == a->bin &&
            e->default_left == (a->default_left != 0) &&
            e->categorical == (a->categorical != 0) &&
            (!a->categorical || !memcmp(e->left_set, split_set(a), sizeof e->left_set))) {
            set_children(c, a, e->left, c->nodes.buf[a->node], child_rows + 2 * i);
            e->feature = -1;
        } else {
            late_index[late++] = i;
        }
    }
    if (late > 0) {
        uint32_t tiles;
        GPL_CHECK(cuda_partition_table(c, late, NULL, splits, late_index, &tiles));
        c->rows_identity = 0;
        cuda_profile_begin(c);
        GPL_CHECK(cuda_launch_partition(c, late, tiles, NULL));
        CUDA_TRY(c, cudaStreamSynchronize(c->dev.stream), "kernel partition");
        cuda_profile_end(c, CUDA_OP_PARTITION);
        for (int32_t j = 0; j < late; j++) {
            const gpl_split_apply *a = &splits[late_index[j]];
            /* A split without rows has no tile to write its count. */
            const uint32_t nl = c->nodes.count[a->node] ? c->buf.h_counts[j] : 0;
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
