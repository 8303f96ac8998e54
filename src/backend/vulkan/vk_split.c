/* vk_split.c -- evaluate_splits: one split_eval workgroup a node, all the
 * nodes of a level in one batch; only the compact records come back.
 * Unless the children will be leaves, the same batch partitions each node
 * by its best split (vk_partition.c). */
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "error.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "vk_context.h"

/* The feature words (mask and monotone constraints,
 * gpl_split_feature_word) are written only when they changed: without
 * column sampling they are the same every level, and a write waits for
 * the batches in flight. */
static gpulayer_status upload_features(vk_context *c, const uint8_t *feature_mask,
                                       const int8_t *monotone)
{
    const size_t F = (size_t)c->shape.num_features;
    if (!c->buf.mask_cache) {
        c->buf.mask_cache = malloc(sizeof(uint32_t) * (F ? F : 1));
        if (!c->buf.mask_cache)
            return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
        c->buf.mask_valid = 0;
    }
    int same = c->buf.mask_valid;
    for (size_t f = 0; f < F; f++) {
        const uint32_t v = gpl_split_feature_word(feature_mask, monotone, (int32_t)f);
        same &= c->buf.mask_cache[f] == v;
        c->buf.mask_cache[f] = v;
    }
    if (same || F == 0) return GPULAYER_OK;
    c->buf.mask_valid = 0;
    GPL_CHECK(vk_buffer_write(c, &c->buf.mask, 0, c->buf.mask_cache, sizeof(uint32_t) * F));
    c->buf.mask_valid = 1;
    return GPULAYER_OK;
}

/* split_eval_level: the plan's runs of slots of a page (at most a binding
 * long), a dispatch each, workgroup w taking entry first + w of the node
 * table (node, record, first element of its histogram in the run; first
 * travels as the push's record). The table is in mapped memory, written
 * while no search is in flight. */
static gpulayer_status record_level_search(vk_context *c, const int32_t *nodes,
                                           int32_t num_nodes, const gpl_split_params *params,
                                           gpl_split_push push)
{
    const size_t n = (size_t)num_nodes;
    int32_t *slots = malloc(sizeof *slots * n);
    gpl_plan_wave_node *order = malloc(sizeof *order * n);
    gpl_plan_step *steps = malloc(sizeof *steps * n);
    gpulayer_status st = slots && order && steps ? GPULAYER_OK
                                                 : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                                                             "vulkan backend: out of memory");
    const gpl_plan_pool pool = vk_plan_pool(c);
    int32_t num_steps = 0;
    if (st == GPULAYER_OK) {
        for (int32_t i = 0; i < num_nodes; i++) slots[i] = gpl_hist_slot(&c->slots, nodes[i]);
        num_steps = gpl_plan_search(&pool, nodes, slots, num_nodes, order,
                                    c->buf.split_nodes.mapped, steps);
        gpl_split_rows_write(params, num_nodes, c->buf.split_nodes.mapped);
        push.bounds_first = gpl_split_bounds_write(params, num_nodes, (uint32_t)num_nodes,
                                                   c->buf.split_nodes.mapped);
    }
    for (int32_t i = 0; i < num_steps && st == GPULAYER_OK; i++) {
        const gpl_plan_step *s = &steps[i];
        vk_range b[6] = {{&c->pages[s->page], s->offset, s->bytes},
                         vk_whole(&c->buf.offsets), vk_whole(&c->buf.mask), vk_whole(&c->buf.records),
                         vk_whole(&c->buf.categorical), vk_whole(&c->buf.split_nodes)};
        push.record = s->first;
        st = vk_dispatch(c, VK_K_SPLIT_EVAL_LEVEL, b, &push, s->groups);
    }
    free(slots);
    free(order);
    free(steps);
    return st;
}

gpulayer_status vk_evaluate_splits(gpl_backend *be, const int32_t *nodes, int32_t num_nodes,
                                   const gpl_split_params *params,
                                   const uint8_t *feature_mask, gpl_split_record *out)
{
    vk_context *c = vk_ctx(be);
    if (num_nodes <= 0) return GPULAYER_OK;
    for (int32_t i = 0; i < num_nodes; i++)
        GPL_CHECK(gpl_check_histogram("vulkan", "evaluate_splits", GPULAYER_ERR_INTERNAL,
                                      &c->slots, nodes[i]));
    const int has_mask = feature_mask != NULL || params->monotone != NULL;
    if (has_mask) GPL_CHECK(upload_features(c, feature_mask, params->monotone));
    const size_t bytes = sizeof(uint32_t) * GPL_SPLIT_RECORD_WORDS * (size_t)num_nodes;
    GPL_CHECK(vk_buffer_reserve_host(c, &c->buf.records, bytes, "split records"));
    /* The Metal host partitions in partition_rows only: so does its
     * emulation (GPULAYER_VULKAN_KERNELS=metal). */
    const int early = !params->leaf_children && !c->tuning.metal_kernels;
    if (early) GPL_CHECK(vk_partition_early_prepare(c, nodes, num_nodes));
    /* The level's search (both hosts), or a split_eval dispatch a node
     * where the node table has no host-visible memory. */
    GPL_CHECK(vk_buffer_reserve_host(c, &c->buf.split_nodes,
                                     (VkDeviceSize)num_nodes * (params->bounds ? 32 : 16),
                                     "split node table"));
    const int per_node = c->buf.split_nodes.mapped == NULL;
    c->level = c->nodes.depth[nodes[0]];
    GPL_CHECK(vk_begin(c, "evaluate_splits"));
    if (per_node) {
        for (int32_t i = 0; i < num_nodes; i++) {
            gpl_split_push p = gpl_split_push_make(params, nodes[i], (uint32_t)i,
                                                   c->shape.num_features, has_mask);
            const gpl_node_bounds nb = gpl_split_node_bounds(params, i);
            p.lower = nb.lo;
            p.upper = nb.hi;
            p.node_rows = gpl_split_node_rows(params, i);
            vk_range b[5] = {vk_hist_range(c, vk_node_slot(c, nodes[i])), vk_whole(&c->buf.offsets),
                             vk_whole(&c->buf.mask), vk_whole(&c->buf.records),
                             vk_whole(&c->buf.categorical)};
            GPL_CHECK(vk_dispatch(c, VK_K_SPLIT_EVAL, b, &p, 1));
        }
    } else {
        const gpl_split_push p = gpl_split_push_make(params, -1, 0, c->shape.num_features,
                                                     has_mask);
        gpulayer_status st = record_level_search(c, nodes, num_nodes, params, p);
        if (st != GPULAYER_OK) {
            vk_abandon(c);
            return st;
        }
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
    gpulayer_status st = vk_buffer_read(c, &c->buf.records, 0, words, bytes);
    for (int32_t i = 0; st == GPULAYER_OK && i < num_nodes; i++)
        gpl_split_record_decode(words + (size_t)i * GPL_SPLIT_RECORD_WORDS, &out[i]);
    free(words);
    if (st == GPULAYER_OK && early) st = vk_partition_early_take(c, nodes, num_nodes, out);
    return st;
}
