/* vk_partition.c -- partition_rows: a stable three-stage partition of
 * every split node's rows (tile counts, a scan per node, scatter into the
 * scratch list, copied back), one batch for the level; only the child row
 * counts come back. */
#include <stdlib.h>

#include "error.h"
#include "vk_backend.h"

typedef struct partition_push {
    uint32_t row_begin, row_count, bin, default_left;
    uint32_t tile_first, num_tiles, split;
} partition_push;

static gpulayer_status check_split(const vk_context *c, const gpl_split_apply *s)
{
    if (s->node < 0 || s->node >= c->max_nodes || c->node_state[s->node] != VK_NODE_LIVE ||
        s->left_child < 0 || s->left_child >= c->max_nodes || s->right_child < 0 ||
        s->right_child >= c->max_nodes || s->feature < 0 || s->feature >= c->num_features ||
        s->bin < 0 || s->bin > 255)
        return gpl_error(GPULAYER_ERR_INTERNAL, "vulkan backend: invalid split of node %d",
                         s->node);
    return GPULAYER_OK;
}

static gpulayer_status record_level(vk_context *c, const gpl_split_apply *splits,
                                    int32_t count, partition_push *push)
{
    uint32_t tile = 0;
    for (int32_t i = 0; i < count; i++) {
        const gpl_split_apply *s = &splits[i];
        const uint32_t rows = (uint32_t)c->node_count[s->node];
        push[i] = (partition_push){(uint32_t)c->node_begin[s->node], rows, (uint32_t)s->bin,
                                   s->default_left ? 1u : 0u, tile,
                                   (rows + c->wg - 1) / c->wg, (uint32_t)i};
        tile += push[i].num_tiles;
    }
    for (int32_t i = 0; i < count; i++) {
        vk_range column = {&c->bins, (VkDeviceSize)splits[i].feature * c->column_bytes,
                           c->column_bytes};
        vk_range b[3] = {vk_whole(&c->rows), column, vk_whole(&c->tiles)};
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
        vk_range b[5] = {vk_whole(&c->rows), column, vk_whole(&c->tiles),
                         vk_whole(&c->child_counts), vk_whole(&c->scratch)};
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
    GPL_CHECK(vk_buffer_reserve(c, &c->child_counts, (VkDeviceSize)count * 8,
                                "child row counts"));
    partition_push *push = malloc(sizeof *push * (size_t)count);
    uint32_t *counts = malloc(sizeof(uint32_t) * 2 * (size_t)count);
    if (!push || !counts) {
        free(push);
        free(counts);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
    }
    c->level = c->node_depth[splits[0].node];
    gpulayer_status st = vk_begin(c, "partition_rows");
    if (st == GPULAYER_OK) st = record_level(c, splits, count, push);
    if (st == GPULAYER_OK) st = vk_submit(c);
    else vk_abandon(c);
    if (st == GPULAYER_OK)
        st = vk_buffer_read(c, &c->child_counts, 0, counts, sizeof(uint32_t) * 2 * (size_t)count);
    for (int32_t i = 0; st == GPULAYER_OK && i < count; i++) {
        const gpl_split_apply *s = &splits[i];
        const int64_t begin = c->node_begin[s->node], nl = counts[2 * i];
        const int64_t total = c->node_count[s->node];
        c->node_begin[s->left_child] = begin;
        c->node_count[s->left_child] = nl;
        c->node_begin[s->right_child] = begin + nl;
        c->node_count[s->right_child] = total - nl;
        c->node_state[s->left_child] = VK_NODE_LIVE;
        c->node_state[s->right_child] = VK_NODE_LIVE;
        c->node_state[s->node] = VK_NODE_SPLIT;
        c->node_depth[s->left_child] = c->node_depth[s->node] + 1;
        c->node_depth[s->right_child] = c->node_depth[s->node] + 1;
        child_rows[2 * i] = nl;
        child_rows[2 * i + 1] = total - nl;
    }
    free(push);
    free(counts);
    return st;
}
