/* metal_split.c -- evaluate_splits: one split_eval_level threadgroup a
 * node, a dispatch for the nodes of each histogram page (the level plan's
 * search, as on Vulkan), all in one command buffer; only the compact
 * records come back (read in place from shared storage). */
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "error.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "metal_context.h"

gpulayer_status mtl_evaluate_splits(gpl_backend *be, const int32_t *nodes, int32_t num_nodes,
                                    const gpl_split_params *params,
                                    const uint8_t *feature_mask, gpl_split_record *out)
{
    mtl_context *c = mtl_ctx(be);
    if (num_nodes <= 0) return GPULAYER_OK;
    GPL_CHECK(gpl_mtl_context_status(c->rt));
    for (int32_t i = 0; i < num_nodes; i++)
        GPL_CHECK(gpl_check_histogram("metal", "evaluate_splits", GPULAYER_ERR_INTERNAL,
                                      &c->slots, nodes[i]));
    const int has_mask = feature_mask != NULL || params->monotone != NULL;
    if (has_mask) {
        /* The feature words are read by the previous level's batch too:
         * the write waits for it (gpl_mtl_buf_write). */
        const size_t F = (size_t)c->shape.num_features;
        uint32_t *m = malloc(sizeof(uint32_t) * (F ? F : 1));
        if (!m) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "metal backend: out of memory");
        for (size_t f = 0; f < F; f++)
            m[f] = gpl_split_feature_word(feature_mask, params->monotone, (int32_t)f);
        gpulayer_status st = gpl_mtl_buf_write(c->rt, &c->buf.mask, 0, m, sizeof(uint32_t) * F);
        free(m);
        GPL_CHECK(st);
    }
    const size_t bytes = sizeof(uint32_t) * GPL_SPLIT_RECORD_WORDS * (size_t)num_nodes;
    GPL_CHECK(gpl_mtl_buf_reserve(c->rt, &c->buf.records, bytes, GPL_MTL_SHARED, "split records"));
    /* The plan's node table goes in a buffer of the batch, fresh from the
     * pool (no batch in flight reads it), back to the pool once done. */
    const size_t n = (size_t)num_nodes;
    int32_t *slots = malloc(sizeof *slots * n);
    gpl_plan_wave_node *order = malloc(sizeof *order * n);
    gpl_plan_step *steps = malloc(sizeof *steps * n);
    gpl_mtl_buf table = {0};
    int began = 0;
    gpulayer_status st = slots && order && steps ? GPULAYER_OK
                                                 : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                                                             "metal backend: out of memory");
    if (st == GPULAYER_OK)
        st = gpl_mtl_buf_acquire(c->rt, &table, n * (params->bounds ? 32 : 16), GPL_MTL_SHARED,
                                 "split node table");
    if (st == GPULAYER_OK) {
        for (int32_t i = 0; i < num_nodes; i++) slots[i] = gpl_hist_slot(&c->slots, nodes[i]);
        const gpl_plan_pool pool = mtl_plan_pool(c);
        const int32_t num_steps =
            gpl_plan_search(&pool, nodes, slots, num_nodes, order, table.contents, steps);
        gpl_split_rows_write(params, num_nodes, table.contents);
        gpl_split_push p = gpl_split_push_make(params, -1, 0, c->shape.num_features,
                                               has_mask);
        p.bounds_first = gpl_split_bounds_write(params, num_nodes, (uint32_t)num_nodes,
                                                table.contents);
        st = gpl_mtl_begin(c->rt, "evaluate_splits", c->nodes.depth[nodes[0]]);
        began = st == GPULAYER_OK;
        for (int32_t i = 0; i < num_steps && st == GPULAYER_OK; i++) {
            gpl_mtl_bind b[6] = {{&c->pages[steps[i].page], (size_t)steps[i].offset},
                                 mtl_whole(&c->buf.offsets), mtl_whole(&c->buf.mask),
                                 mtl_whole(&c->buf.records), mtl_whole(&c->buf.categorical),
                                 mtl_whole(&table)};
            p.record = steps[i].first;
            st = gpl_mtl_dispatch(c->rt, MTL_K_SPLIT_EVAL_LEVEL, b, &p, steps[i].groups);
        }
    }
    /* The one wait of the level's split: the host needs the records. */
    if (st == GPULAYER_OK) st = gpl_mtl_commit(c->rt, 1);
    else if (began) gpl_mtl_abandon(c->rt);
    gpl_mtl_buf_release(c->rt, &table);
    free(slots);
    free(order);
    free(steps);
    GPL_CHECK(st);
    const uint32_t *words = c->buf.records.contents;
    for (int32_t i = 0; i < num_nodes; i++)
        gpl_split_record_decode(words + (size_t)i * GPL_SPLIT_RECORD_WORDS, &out[i]);
    return GPULAYER_OK;
}
