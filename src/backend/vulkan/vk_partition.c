/* vk_partition.c -- partition_rows: a stable three-stage partition of
 * every split node's rows (tile counts, a scan per node, scatter into the
 * scratch list, copied back), one batch for the level; only the child row
 * counts come back. */
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
                                    int32_t count, gpl_partition_push *push)
{
    gpl_partition_push_level(push, splits, count, c->node_begin, c->node_count, c->wg);
    /* The row list and the scratch list in windows (window.glsl), after
     * the kernels' plain buffers. */
    vk_range rows[GPL_KERNEL_WINDOWS], scratch[GPL_KERNEL_WINDOWS];
    vk_windows(c, &c->rows, c->win.list_shift, 4, rows);
    vk_windows(c, &c->scratch, c->win.list_shift, 4, scratch);
    for (int32_t i = 0; i < count; i++) {
        vk_range column = {&c->bins, (VkDeviceSize)splits[i].feature * c->column_bytes,
                           c->column_bytes};
        vk_range b[GPL_PART_COUNT_BINDINGS] = {column, vk_whole(&c->tiles)};
        memcpy(b + 2, rows, sizeof rows);
        uint32_t groups = push[i].num_tiles < c->max_groups ? push[i].num_tiles : c->max_groups;
        GPL_CHECK(vk_dispatch(c, VK_K_PARTITION_COUNT, b, &push[i], groups));
    }
    vk_barrier(c);
    for (int32_t i = 0; i < count; i++) {
        vk_range b[2] = {vk_whole(&c->tiles), vk_whole(&c->child_counts)};
        GPL_CHECK(vk_dispatch(c, VK_K_PARTITION_SCAN, b, &push[i], 1));
    }
    vk_barrier(c);
    for (int32_t i = 0; i < count; i++) {
        vk_range column = {&c->bins, (VkDeviceSize)splits[i].feature * c->column_bytes,
                           c->column_bytes};
        vk_range b[GPL_PART_SCATTER_BINDINGS] = {column, vk_whole(&c->tiles),
                                                 vk_whole(&c->child_counts)};
        memcpy(b + 3, rows, sizeof rows);
        memcpy(b + 3 + GPL_KERNEL_WINDOWS, scratch, sizeof scratch);
        uint32_t groups = push[i].num_tiles < c->max_groups ? push[i].num_tiles : c->max_groups;
        GPL_CHECK(vk_dispatch(c, VK_K_PARTITION_SCATTER, b, &push[i], groups));
    }
    vk_barrier(c);
    for (int32_t i = 0; i < count; i++)
        if (push[i].row_count)
            vk_copy(c, &c->scratch, (VkDeviceSize)push[i].row_begin * 4, &c->rows,
                    (VkDeviceSize)push[i].row_begin * 4, (VkDeviceSize)push[i].row_count * 4);
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
        tiles += ((uint64_t)c->node_count[splits[i].node] + c->wg - 1) / c->wg;
    }
    GPL_CHECK(vk_buffer_reserve(c, &c->tiles, tiles * 4, "partition tiles"));
    /* The scatter reads the counts, so they stay in device memory; on a
     * discrete GPU the batch ends with a copy into host-visible memory,
     * read once its fence has signalled (no second batch and wait). */
    GPL_CHECK(vk_buffer_reserve(c, &c->child_counts, (VkDeviceSize)count * 8,
                                "child row counts"));
    const int mirror = c->child_counts.mapped == NULL;
    if (mirror)
        GPL_CHECK(vk_buffer_reserve_host(c, &c->counts_host, (VkDeviceSize)count * 8,
                                         "child row counts (host copy)"));
    gpl_partition_push *push = malloc(sizeof *push * (size_t)count);
    uint32_t *counts = malloc(sizeof(uint32_t) * 2 * (size_t)count);
    if (!push || !counts) {
        free(push);
        free(counts);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
    }
    c->level = c->node_depth[splits[0].node];
    gpulayer_status st = vk_begin(c, "partition_rows");
    if (st == GPULAYER_OK) st = record_level(c, splits, count, push);
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
    free(push);
    free(counts);
    return st;
}
