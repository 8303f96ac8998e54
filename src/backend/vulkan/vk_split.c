/* vk_split.c -- evaluate_splits: one split_eval workgroup a node, all the
 * nodes of a level in one batch; only the compact records come back.
 * Unless the children will be leaves, the same batch partitions each node
 * by its best split (vk_partition.c). */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "gpu_kernel_abi.h"
#include "vk_backend.h"

/* The mask is written only when it changed: without column sampling it is
 * the same every level, and a write waits for the batches in flight. */
static gpulayer_status upload_mask(vk_context *c, const uint8_t *feature_mask)
{
    const size_t F = (size_t)c->num_features;
    if (!c->mask_cache) {
        c->mask_cache = malloc(sizeof(uint32_t) * (F ? F : 1));
        if (!c->mask_cache)
            return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
        c->mask_valid = 0;
    }
    int same = c->mask_valid;
    for (size_t f = 0; f < F; f++) {
        uint32_t v = feature_mask[f] != 0;
        same &= c->mask_cache[f] == v;
        c->mask_cache[f] = v;
    }
    if (same || F == 0) return GPULAYER_OK;
    c->mask_valid = 0;
    GPL_CHECK(vk_buffer_write(c, &c->mask, 0, c->mask_cache, sizeof(uint32_t) * F));
    c->mask_valid = 1;
    return GPULAYER_OK;
}

gpulayer_status vk_evaluate_splits(gpl_backend *be, const int32_t *nodes, int32_t num_nodes,
                                   const gpl_split_params *params,
                                   const uint8_t *feature_mask, gpl_split_record *out)
{
    vk_context *c = vk_ctx(be);
    if (num_nodes <= 0) return GPULAYER_OK;
    for (int32_t i = 0; i < num_nodes; i++)
        if (nodes[i] < 0 || nodes[i] >= c->max_nodes || c->node_slot[nodes[i]].page < 0)
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "vulkan backend: evaluate_splits: node %d has no histogram",
                             nodes[i]);
    if (feature_mask) GPL_CHECK(upload_mask(c, feature_mask));
    const size_t bytes = sizeof(uint32_t) * GPL_SPLIT_RECORD_WORDS * (size_t)num_nodes;
    GPL_CHECK(vk_buffer_reserve_host(c, &c->records, bytes, "split records"));
    const int early = c->partition_early && !params->leaf_children;
    if (early) GPL_CHECK(vk_partition_early_prepare(c, nodes, num_nodes));
    c->level = c->node_depth[nodes[0]];
    GPL_CHECK(vk_begin(c, "evaluate_splits"));
    for (int32_t i = 0; i < num_nodes; i++) {
        gpl_split_push p = gpl_split_push_make(params, nodes[i], (uint32_t)i, c->num_features,
                                               feature_mask != NULL);
        vk_range b[4] = {vk_hist_range(c, c->node_slot[nodes[i]]), vk_whole(&c->offsets),
                         vk_whole(&c->mask), vk_whole(&c->records)};
        GPL_CHECK(vk_dispatch(c, VK_K_SPLIT_EVAL, b, &p, 1));
    }
    if (early) {
        gpulayer_status st = vk_partition_early_record(c, nodes, num_nodes);
        if (st != GPULAYER_OK) {
            vk_abandon(c);
            return st;
        }
    }
    GPL_CHECK(vk_submit(c));
    uint32_t *words = malloc(bytes);
    if (!words) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
    gpulayer_status st = vk_buffer_read(c, &c->records, 0, words, bytes);
    for (int32_t i = 0; st == GPULAYER_OK && i < num_nodes; i++)
        gpl_split_record_decode(words + (size_t)i * GPL_SPLIT_RECORD_WORDS, &out[i]);
    free(words);
    if (st == GPULAYER_OK && early) st = vk_partition_early_take(c, nodes, num_nodes, out);
    return st;
}
