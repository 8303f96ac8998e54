/* vk_partition.c -- partition_rows: every split node's rows into the
 * other row list (a node's rows are in `rows` or `scratch`, nodes.buf), one
 * dispatch for all the splits of the level (partition_place: workgroups
 * reserve places in the children with atomics), in one batch; only the
 * child row counts come back. Unless the children will be leaves, the
 * level's partition is queued behind its split search (vk_split.c), each
 * node by its best split, so the records and the counts come back in one
 * wait; partition_rows then only moves the rows of splits the driver chose
 * otherwise. The Metal host issues the same partition_place dispatch. */
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "error.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "vk_context.h"

static gpulayer_status check_split(const vk_context *c, const gpl_split_apply *s)
{
    return gpl_check_split("vulkan", &c->nodes, c->shape.num_features, s);
}

/* The last value bin of feature f. */
static int32_t last_bin(const vk_context *c, int32_t f)
{
    return (int32_t)(c->feature_offset[f + 1] - c->feature_offset[f]) - 1;
}

/* The words of split s's set where it is too wide for the split table (a
 * feature of more than 255 categories), else 0. */
static uint32_t wide_set_words(const vk_context *c, const gpl_split_apply *s)
{
    if (!s->categorical || !s->wide_set) return 0;
    return (uint32_t)gpl_cat_set_words(last_bin(c, s->feature));
}

/* The level buffer's words for the wide sets of `count` splits. */
static uint64_t level_set_words(const vk_context *c, const gpl_split_apply *splits,
                                int32_t count)
{
    uint64_t words = 0;
    for (int32_t i = 0; i < count; i++) words += wide_set_words(c, &splits[i]);
    return words;
}

/* Splits by wide sets take their sets from the level buffer, after the
 * split table (the table's first word is table_first): each one's words
 * go into the batch, and its table entry says where. */
static void record_wide_sets(vk_context *c, const gpl_split_apply *splits, int32_t count,
                             gpl_partition_split *table, uint32_t table_first)
{
    uint32_t word = table_first + (uint32_t)(count * (int32_t)(sizeof *table / 4));
    for (int32_t i = 0; i < count; i++) {
        const uint32_t words = wide_set_words(c, &splits[i]);
        if (!words) continue;
        table[i].default_left = (table[i].default_left & 1u) | GPL_SPLIT_BY_WIDE_SET;
        table[i].left_set[0] = word;
        vk_update(c, &c->buf.child_counts, (VkDeviceSize)word * 4, splits[i].wide_set,
                  (VkDeviceSize)words * 4);
        word += words;
    }
}

/* Records the partition of `count` splits into the open batch. With
 * from_records, the table holds only the splits' rows and tiles, and the
 * split_table kernel fills in each split from the level's split records
 * (the early partition: split s is the node of record s). */
static gpulayer_status record_level(vk_context *c, const gpl_split_apply *splits,
                                    int32_t count, gpl_partition_split *table, int from_records)
{
    vk_profile_mark(c, "partition");
    const gpl_partition_push push = gpl_partition_plan_level(
        table, splits, count, c->nodes.begin, c->nodes.count, c->dev.part_wg * GPL_PART_ITEMS,
        c->column_bytes, c->code_bits);
    for (int32_t i = 0; i < count; i++) table[i].from = c->nodes.buf[splits[i].node];
    record_wide_sets(c, splits, count, table, push.table_first);
    /* The split table travels inside the batch. */
    vk_update(c, &c->buf.child_counts, (VkDeviceSize)push.table_first * 4, table,
              sizeof *table * (VkDeviceSize)count);
    /* The one-pass kernel adds each workgroup's rows to the child counts. */
    vk_fill(c, &c->buf.child_counts, 0, (VkDeviceSize)count * GPL_CHILD_COUNTS_BYTES, 0);
    vk_barrier(c);
    if (from_records) {
        const gpl_split_table_push tp = {(uint32_t)count, push.table_first,
                                         (uint32_t)(c->column_bytes / 4)};
        vk_range tb[GPL_SPLIT_TABLE_BINDINGS] = {vk_whole(&c->buf.child_counts),
                                                 vk_whole(&c->buf.records)};
        GPL_CHECK(vk_dispatch(c, VK_K_SPLIT_TABLE, tb, &tp, vk_groups_for(c, (uint64_t)count)));
        vk_barrier(c);
    }
    /* Tiles and the level buffer, then the bin columns, the row list and
     * the scratch list in windows (window.glsl). */
    vk_range b[GPL_PART_SCATTER_BINDINGS] = {vk_whole(&c->buf.tiles), vk_whole(&c->buf.child_counts)};
    vk_windows(c, &c->buf.bins, c->win.list_shift, 4, b + 2);
    vk_windows(c, &c->buf.rows, c->win.list_shift, 4, b + 2 + GPL_KERNEL_WINDOWS);
    vk_windows(c, &c->buf.scratch, c->win.list_shift, 4, b + 2 + 2 * GPL_KERNEL_WINDOWS);
    const gpl_plan_limits l = vk_plan_limits(c);
    const uint32_t groups = gpl_plan_partition_groups(&l, push.num_tiles);
    GPL_CHECK(vk_dispatch(c, VK_K_PARTITION_PLACE, b, &push, groups));
    vk_barrier(c);
    /* On a discrete GPU the batch ends with a copy of the counts into
     * host-visible memory, read once its fence has signalled. */
    if (c->buf.child_counts.mapped == NULL)
        vk_copy(c, &c->buf.child_counts, 0, &c->buf.counts_host, 0, (VkDeviceSize)count * 8);
    return GPULAYER_OK;
}

/* The level buffer (child counts, the split table, then the wide sets of
 * set_words words), the tiles and the host copy of the counts, for
 * `count` splits of `tiles` tiles; before a batch is opened (growing a
 * buffer waits for the batches in flight). */
static gpulayer_status reserve_level(vk_context *c, int32_t count, uint64_t tiles,
                                     uint64_t set_words)
{
    if (tiles > UINT32_MAX)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED, "vulkan backend: too many partition tiles");
    GPL_CHECK(vk_buffer_reserve(c, &c->buf.tiles, tiles * 4, "partition tiles"));
    GPL_CHECK(vk_buffer_reserve(c, &c->buf.child_counts,
                                (VkDeviceSize)count * (GPL_CHILD_COUNTS_BYTES +
                                                       sizeof(gpl_partition_split)) +
                                    set_words * 4,
                                "child row counts and split table"));
    if (c->buf.child_counts.mapped == NULL)
        GPL_CHECK(vk_buffer_reserve_host(c, &c->buf.counts_host, (VkDeviceSize)count * 8,
                                         "child row counts (host copy)"));
    return GPULAYER_OK;
}

/* Partition tiles of the nodes (splits NULL) or of the splits' nodes. */
static uint64_t level_tiles(const vk_context *c, const int32_t *nodes,
                            const gpl_split_apply *splits, int32_t count)
{
    uint64_t tiles = 0;
    for (int32_t i = 0; i < count; i++)
        tiles += gpl_partition_tiles((uint64_t)c->nodes.count[splits ? splits[i].node : nodes[i]],
                                     c->dev.part_wg * GPL_PART_ITEMS);
    return tiles;
}

/* The left child counts of the batch just waited for (2 words a split). */
static gpulayer_status read_counts(vk_context *c, uint32_t *counts, int32_t count)
{
    return vk_buffer_read(c, c->buf.child_counts.mapped ? &c->buf.child_counts : &c->buf.counts_host, 0,
                          counts, sizeof(uint32_t) * 2 * (size_t)count);
}

gpulayer_status vk_partition_early_prepare(vk_context *c, const int32_t *nodes, int32_t count)
{
    return reserve_level(c, count, level_tiles(c, nodes, NULL, count), 0);
}

gpulayer_status vk_partition_early_record(vk_context *c, const int32_t *nodes, int32_t count)
{
    /* Placeholder splits: the table's rows and tiles come from the nodes,
     * the rest from the records on the device. */
    gpl_split_apply *splits = malloc(sizeof *splits * (size_t)count);
    gpl_partition_split *table = malloc(sizeof *table * (size_t)count);
    gpulayer_status st = splits && table ? GPULAYER_OK
                                         : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                                                     "vulkan backend: out of memory");
    for (int32_t i = 0; st == GPULAYER_OK && i < count; i++)
        splits[i] = (gpl_split_apply){nodes[i], 0, 255, 1, 0, 0, 0, {0}, NULL};
    if (st == GPULAYER_OK) st = record_level(c, splits, count, table, 1);
    free(splits);
    free(table);
    return st;
}

gpulayer_status vk_partition_early_take(vk_context *c, const int32_t *nodes, int32_t count,
                                        const gpl_split_record *records)
{
    uint32_t *counts = malloc(sizeof(uint32_t) * 2 * (size_t)count);
    if (!counts) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
    gpulayer_status st = read_counts(c, counts, count);
    for (int32_t i = 0; st == GPULAYER_OK && i < count; i++) {
        const gpl_split_record *r = &records[i];
        /* A split by a wide set was left for partition_rows (split_table). */
        if (r->feature < 0 ||
            (r->categorical && gpl_cat_set_words(last_bin(c, r->feature)) > GPL_CAT_WORDS))
            continue;
        vk_early_split *e = &c->early[nodes[i]];
        *e = (vk_early_split){c->nodes.count[nodes[i]] ? counts[2 * i] : 0, r->feature, r->bin,
                              r->default_left != 0, r->categorical != 0, {0}};
        memcpy(e->left_set, r->left_set, sizeof e->left_set);
    }
    free(counts);
    return st;
}

/* Whether the node of split s was partitioned by s with its level's
 * search (its left count is then *left); either way that is used up. */
static int early_match(vk_context *c, const gpl_split_apply *s, uint32_t *left)
{
    vk_early_split *e = &c->early[s->node];
    const int match = e->feature >= 0 && e->feature == s->feature && e->bin == s->bin &&
                      e->default_left == (s->default_left != 0) &&
                      e->categorical == (s->categorical != 0) &&
                      (!e->categorical || !memcmp(e->left_set, s->left_set, sizeof e->left_set));
    *left = e->left;
    e->feature = -1;
    return match;
}

/* The children of split s, in the list the partition wrote. */
static void apply_children(vk_context *c, const gpl_split_apply *s, uint32_t left,
                           int64_t *child_rows)
{
    gpl_node_table_apply_children(&c->nodes, s, left, 1 - c->nodes.buf[s->node], child_rows);
}

gpulayer_status vk_partition_rows(gpl_backend *be, const gpl_split_apply *splits,
                                  int32_t count, int64_t *child_rows)
{
    vk_context *c = vk_ctx(be);
    if (count <= 0) return GPULAYER_OK;
    for (int32_t i = 0; i < count; i++) GPL_CHECK(check_split(c, &splits[i]));
    /* Splits done with the search need only their children; the others
     * (the driver chose another split) go now. */
    gpl_split_apply *late = malloc(sizeof *late * (size_t)count);
    int32_t *late_index = malloc(sizeof *late_index * (size_t)count);
    gpl_partition_split *table = malloc(sizeof *table * (size_t)count);
    uint32_t *counts = malloc(sizeof(uint32_t) * 2 * (size_t)count);
    gpulayer_status st = late && late_index && table && counts
                             ? GPULAYER_OK
                             : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                                         "vulkan backend: out of memory");
    int32_t num_late = 0;
    for (int32_t i = 0; st == GPULAYER_OK && i < count; i++) {
        uint32_t left;
        if (early_match(c, &splits[i], &left)) {
            apply_children(c, &splits[i], left, &child_rows[2 * i]);
        } else {
            late_index[num_late] = i;
            late[num_late++] = splits[i];
        }
    }
    if (st == GPULAYER_OK && num_late > 0) {
        st = reserve_level(c, num_late, level_tiles(c, NULL, late, num_late),
                           level_set_words(c, late, num_late));
        c->level = c->nodes.depth[late[0].node];
        if (st == GPULAYER_OK) st = vk_begin(c, "partition_rows");
        if (st == GPULAYER_OK) st = record_level(c, late, num_late, table, 0);
        if (st == GPULAYER_OK) st = vk_submit(c);
        else vk_abandon(c);
        if (st == GPULAYER_OK) st = read_counts(c, counts, num_late);
        for (int32_t j = 0; st == GPULAYER_OK && j < num_late; j++)
            apply_children(c, &late[j], counts[2 * j], &child_rows[2 * late_index[j]]);
    }
    free(late);
    free(late_index);
    free(table);
    free(counts);
    return st;
}

/* The rows stay with the parent: update_margins gives each of them the
 * leaf its bin sends it to, which is all a leaf's rows are needed for. */
gpulayer_status vk_split_into_leaves(gpl_backend *be, const gpl_split_apply *splits,
                                     int32_t count)
{
    vk_context *c = vk_ctx(be);
    /* Each split takes a live node (at most max_nodes entries). A split by
     * a wide set, which margins_split.comp has no room for, moves its rows
     * into the leaves instead: update_margins then takes them as any
     * leaf's. */
    for (int32_t i = 0; i < count; i++) {
        GPL_CHECK(check_split(c, &splits[i]));
        if (wide_set_words(c, &splits[i])) {
            int64_t child_rows[2];
            GPL_CHECK(vk_partition_rows(be, &splits[i], 1, child_rows));
            continue;
        }
        c->leaf_splits[c->num_leaf_splits++] = splits[i];
        c->nodes.state[splits[i].node] = GPL_NODE_SPLIT;
    }
    return GPULAYER_OK;
}

gpulayer_status vk_begin_tree(gpl_backend *be)
{
    vk_context *c = vk_ctx(be);
    c->level = 0;
    gpl_hist_slots_release_all(&c->slots);
    gpl_node_table_reset(&c->nodes, c->shape.num_rows);
    c->num_leaf_splits = 0;
    for (int32_t n = 0; n < c->shape.max_nodes; n++) c->early[n].feature = -1;
    const uint64_t N = (uint64_t)c->shape.num_rows, window = (uint64_t)1 << c->win.list_shift;
    GPL_CHECK(vk_begin(c, "begin_tree"));
    for (uint64_t first = 0; first < N; first += window) {
        const uint64_t count = N - first < window ? N - first : window;
        gpl_rows_init_push p = {(uint32_t)count, (uint32_t)first};
        vk_range b[1] = {vk_rows_range(&c->buf.rows, first, count, 4)};
        GPL_CHECK(vk_dispatch(c, VK_K_ROWS_INIT, b, &p, vk_groups_for(c, count)));
    }
    return vk_submit_async(c);
}
