/* vk_backend.c -- the Vulkan backend: its operation table, creation,
 * destruction and memory report. The operations are in files named after
 * them: vk_upload.c, vk_gradients.c, vk_hist.c, vk_split.c,
 * vk_partition.c (and the start of a tree), vk_margins.c, vk_predict.c,
 * vk_shap.c, vk_rank.c (set_groups and the ranking gradients), vk_cox.c
 * (set_survival_order and survival:cox's gradients). */
#include <stdlib.h>

#include "error.h"
#include "vk_context.h"

static void vk_destroy(gpl_backend *be)
{
    if (!be) return;
    vk_context *c = vk_ctx(be);
    if (c) {
        if (c->device) {
            vk_abandon(c);
            (void)vk_finish(c); /* nothing may be in flight when buffers go */
            vk_profile_report(c);
            vk_buffer *all[] = {&c->buf.bins, &c->buf.bin_rows, &c->buf.offsets, &c->buf.labels, &c->buf.weights,
                                &c->buf.margins, &c->buf.grad, &c->buf.softmax_norm, &c->buf.rows, &c->buf.scratch, &c->buf.group_max,
                                &c->buf.partial,
                                &c->buf.tiles, &c->buf.child_counts, &c->buf.counts_host, &c->buf.records,
                                &c->buf.split_nodes, &c->buf.mask, &c->buf.categorical,
                                &c->buf.staging};
            for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) vk_buffer_destroy(c, all[i]);
            vk_hist_free_pool(c);
            vk_rank_free(c);
            vk_cox_free(c);
        }
        vk_device_close(c);
        free(c->feature_offset);
        free(c->buf.mask_cache);
        free(c->chunks);
        gpl_hist_slots_free(&c->slots);
        gpl_node_table_free(&c->nodes);
        free(c->leaf_splits);
        free(c->early);
        free(c);
    }
    free(be);
}

static void vk_memory(gpl_backend *be, gpl_memory_report *out)
{
    vk_context *c = vk_ctx(be);
    out->allocated_bytes = c->allocated_bytes;
    out->peak_bytes = c->peak_bytes;
    out->estimate_bytes = c->estimate_bytes;
}

static const struct gpl_backend_ops vk_ops = {
    .version = GPL_BACKEND_OPS_VERSION,
    .name = "vulkan",
    .destroy = vk_destroy,
    .upload = vk_upload,
    .set_margins = vk_set_margins,
    .get_margins = vk_get_margins,
    .compute_gradients = vk_compute_gradients,
    .begin_tree = vk_begin_tree,
    .build_histograms = vk_build_histograms,
    .subtract_histograms = vk_subtract_histograms,
    .evaluate_splits = vk_evaluate_splits,
    .partition_rows = vk_partition_rows,
    .update_margins = vk_update_margins,
    .release_histograms = vk_release_histograms,
    .read_histogram = vk_read_histogram,
    .memory = vk_memory,
    /* Optional: all but the leaf refit, which reads the rows on the host. */
    .capabilities = GPL_BACKEND_CAP_SPLIT_INTO_LEAVES | GPL_BACKEND_CAP_WRITE_PAIRS |
                    GPL_BACKEND_CAP_PREDICT | GPL_BACKEND_CAP_RANK_GROUPS |
                    GPL_BACKEND_CAP_SHAP | GPL_BACKEND_CAP_WIDE_BINS |
                    GPL_BACKEND_CAP_WIDE_PREDICT | GPL_BACKEND_CAP_SURVIVAL_ORDER |
                    GPL_BACKEND_CAP_WIDE_SETS | GPL_BACKEND_CAP_WIDE_CATEGORIES,
    .split_into_leaves = vk_split_into_leaves,
    .write_pairs = vk_write_pairs,
    .predict = vk_predict,
    .shap = vk_shap,
    .set_groups = vk_set_groups,
    .set_survival_order = vk_set_survival_order,
};

gpulayer_status gpl_vulkan_backend_create(const gpl_backend_config *config,
                                          gpl_backend **out)
{
    *out = NULL;
    gpl_backend *be;
    GPL_CHECK(gpl_backend_new("vulkan", &vk_ops, config, sizeof(vk_context), &be));
    vk_context *c = be->ctx;
    c->shape.max_nodes = config->max_nodes;
    c->shape.num_outputs = config->num_outputs;
    c->dev.verbose = config->verbose;
    vk_tuning_read(&c->tuning);
    gpulayer_status st = vk_device_open(c, config->device);
    if (st != GPULAYER_OK) {
        vk_destroy(be);
        return st;
    }
    *out = be;
    return GPULAYER_OK;
}
