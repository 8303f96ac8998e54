/* vk_partition.c -- partition_rows: every split node's rows into the
 * scratch list, then copied back, one dispatch for all the splits of the
 * level (partition_place: workgroups reserve places in the children with
 * atomics), in one batch; only the child row counts come back.
 * GPULAYER_VULKAN_PARTITION=stable takes the three-stage stable partition
 * instead (tile counts, a scan per node, scatter), which the Metal host
 * uses. */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "gpu_kernel_abi.h"
#include "vk_backend.h"

static gpulayer_status check_split(const vk_context *c, const gpl_split_apply *s)
{
    if (!gpl_split_apply_valid(s, c->max_nodes, c->num_features, c->node_state, VK_NODE_LIVE))
        return gpl_error(GPULAYER_ERR_INTERNAL, "vulkan backend: invalid split of node %d",
                         s->node);
    return GPULAYER_OK;
}

static gpulayer_status record_level(vk_context *c, const gpl_split_apply *splits,
                                    int32_t count, gpl_partition_split *table)
{
    const gpl_partition_push push = gpl_partition_plan_level(
        table, splits, count, c->node_begin, c->node_count, c->wg * GPL_PART_ITEMS,
        c->column_bytes);
    /* The split table travels inside the batch. */
    vk_update(c, &c->child_counts, (VkDeviceSize)push.table_first * 4, table,
              sizeof *table * (VkDeviceSize)count);
    /* The one-pass kernel adds each workgroup's rows to the child counts. */
    if (!c->partition_stable)
        vk_fill(c, &c->child_counts, 0, (VkDeviceSize)count * GPL_CHILD_COUNTS_BYTES, 0);
    vk_barrier(c);
    /* Tiles and the level buffer, then the bin columns, the row list and
     * the scratch list in windows (window.glsl). */
    vk_range b[GPL_PART_SCATTER_BINDINGS] = {vk_whole(&c->tiles), vk_whole(&c->child_counts)};
    vk_windows(c, &c->bins, c->win.list_shift, 4, b + 2);
    vk_windows(c, &c->rows, c->win.list_shift, 4, b + 2 + GPL_KERNEL_WINDOWS);
    vk_windows(c, &c->scratch, c->win.list_shift, 4, b + 2 + 2 * GPL_KERNEL_WINDOWS);
    const uint32_t groups = push.num_tiles < c->max_groups ? push.num_tiles : c->max_groups;
    if (c->partition_stable) {
        GPL_CHECK(vk_dispatch(c, VK_K_PARTITION_COUNT, b, &push, groups));
        vk_barrier(c);
        GPL_CHECK(vk_dispatch(c, VK_K_PARTITION_SCAN, b, &push,
                              (uint32_t)count < c->max_groups ? (uint32_t)count
                                                              : c->max_groups));
        vk_barrier(c);
        GPL_CHECK(vk_dispatch(c, VK_K_PARTITION_SCATTER, b, &push, groups));
    } else {
        GPL_CHECK(vk_dispatch(c, VK_K_PARTITION_PLACE, b, &push, groups));
    }
    vk_barrier(c);
    /* The split nodes' rows back from the scratch list: one copy command. */
    VkBufferCopy *regions = malloc(sizeof *regions * (size_t)count);
    if (!regions) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
    uint32_t n = 0;
    for (int32_t i = 0; i < count; i++)
        if (table[i].row_count)
            regions[n++] = (VkBufferCopy){(VkDeviceSize)table[i].row_begin * 4,
                                          (VkDeviceSize)table[i].row_begin * 4,
                                          (VkDeviceSize)table[i].row_count * 4};
    vk_copy_regions(c, &c->scratch, &c->rows, regions, n);
    free(regions);
    return GPULAYER_OK;
}

gpulayer_status vk_partition_rows(gpl_backend *be, const gpl_split_apply *splits,
                                  int32_t count, int64_t *child_rows)
{
    vk_context *c = vk_ctx(be);
    if (count <= 0) return GPULAYER_OK;
    uint64_t tiles = 0;
    for (int32_t i = 0; i < count; i++) {
        GPL_CHECK(check_split(c, &splits[i]));
        tiles += gpl_partition_tiles((uint64_t)c->node_count[splits[i].node],
                                     c->wg * GPL_PART_ITEMS);
    }
    if (tiles > UINT32_MAX)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED, "vulkan backend: too many partition tiles");
    GPL_CHECK(vk_buffer_reserve(c, &c->tiles, tiles * 4, "partition tiles"));
    /* The level buffer: child counts, then the split table. The scatter
     * reads the counts, so they stay in device memory; on a discrete GPU
     * the batch ends with a copy of the counts into host-visible memory,
     * read once its fence has signalled (no second batch and wait). */
    GPL_CHECK(vk_buffer_reserve(c, &c->child_counts,
                                (VkDeviceSize)count * (GPL_CHILD_COUNTS_BYTES +
                                                       sizeof(gpl_partition_split)),
                                "child row counts and split table"));
    const int mirror = c->child_counts.mapped == NULL;
    if (mirror)
        GPL_CHECK(vk_buffer_reserve_host(c, &c->counts_host, (VkDeviceSize)count * 8,
                                         "child row counts (host copy)"));
    gpl_partition_split *table = malloc(sizeof *table * (size_t)count);
    uint32_t *counts = malloc(sizeof(uint32_t) * 2 * (size_t)count);
    if (!table || !counts) {
        free(table);
        free(counts);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
    }
    c->level = c->node_depth[splits[0].node];
    gpulayer_status st = vk_begin(c, "partition_rows");
    if (st == GPULAYER_OK) st = record_level(c, splits, count, table);
    if (st == GPULAYER_OK && mirror)
        vk_copy(c, &c->child_counts, 0, &c->counts_host, 0, (VkDeviceSize)count * 8);
    if (st == GPULAYER_OK) st = vk_submit(c);
    else vk_abandon(c);
    if (st == GPULAYER_OK)
        st = vk_buffer_read(c, mirror ? &c->counts_host : &c->child_counts, 0, counts,
                            sizeof(uint32_t) * 2 * (size_t)count);
    for (int32_t i = 0; st == GPULAYER_OK && i < count; i++) {
        gpl_partition_apply_children(&splits[i], counts[2 * i], c->node_begin, c->node_count,
                                     c->node_state, c->node_depth, VK_NODE_LIVE, VK_NODE_SPLIT,
                                     &child_rows[2 * i]);
    }
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
    if (c->partition_leaves) { /* for measurement: as without this operation */
        int64_t *child_rows = malloc(sizeof(int64_t) * 2 * (size_t)(count > 0 ? count : 1));
        if (!child_rows)
            return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
        gpulayer_status st = vk_partition_rows(be, splits, count, child_rows);
        free(child_rows);
        return st;
    }
    /* Each split takes a live node (at most max_nodes entries). */
    for (int32_t i = 0; i < count; i++) {
        GPL_CHECK(check_split(c, &splits[i]));
        c->leaf_splits[c->num_leaf_splits++] = splits[i];
        c->node_state[splits[i].node] = VK_NODE_SPLIT;
    }
    return GPULAYER_OK;
}
