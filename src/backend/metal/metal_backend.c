/* metal_backend.c -- the Metal backend (accelerator "mps"): its operation
 * table, creation, destruction and memory report. The operations are in
 * files named after them: metal_upload.c, metal_gradients.c,
 * metal_hist.c, metal_split.c, metal_partition.c (and the start of a
 * tree), metal_margins.c; the runtime is behind metal_host.h. */
#include <stdio.h>
#include <stdlib.h>

#include "error.h"
#include "metal_context.h"

static void release_all(mtl_context *c)
{
    gpl_mtl_buf *all[] = {&c->buf.bins, &c->buf.bin_rows, &c->buf.offsets, &c->buf.labels, &c->buf.weights, &c->buf.margins, &c->buf.softmax_norm,
                          &c->buf.grad, &c->buf.rows, &c->buf.scratch, &c->buf.group_max, &c->buf.partial,
                          &c->buf.tiles, &c->buf.child_counts, &c->buf.records, &c->buf.mask,
                          &c->buf.categorical};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) gpl_mtl_buf_release(c->rt, all[i]);
    if (c->pages) mtl_hist_free_pages(c);
}

static void mtl_destroy(gpl_backend *be)
{
    if (!be) return;
    mtl_context *c = mtl_ctx(be);
    if (c) {
        if (c->rt) {
            release_all(c);
            size_t leaked = 0;
            gpl_mtl_context_destroy(c->rt, &leaked);
            /* Every buffer was released above: a leak is a bug here. */
            if (leaked && c->verbose)
                (void)gpl_error(GPULAYER_ERR_INTERNAL,
                                "metal backend: %zu buffers were not returned", leaked);
        }
        free(c->feature_offset);
        free(c->chunks);
        free(c->pages);
        gpl_hist_slots_free(&c->slots);
        gpl_node_table_free(&c->nodes);
        free(c);
    }
    free(be);
}

static void mtl_memory(gpl_backend *be, gpl_memory_report *out)
{
    mtl_context *c = mtl_ctx(be);
    gpl_mtl_pool_stats s;
    gpl_mtl_context_pool_stats(c->rt, &s);
    out->allocated_bytes = s.live_bytes + s.pending_bytes + s.cached_bytes;
    out->peak_bytes = s.peak_bytes;
    out->estimate_bytes = c->estimate_bytes;
}

static const struct gpl_backend_ops mtl_ops = {
    .version = GPL_BACKEND_OPS_VERSION,
    .name = "mps",
    .destroy = mtl_destroy,
    .upload = mtl_upload,
    .set_margins = mtl_set_margins,
    .get_margins = mtl_get_margins,
    .compute_gradients = mtl_compute_gradients,
    .begin_tree = mtl_begin_tree,
    .build_histograms = mtl_build_histograms,
    .subtract_histograms = mtl_subtract_histograms,
    .evaluate_splits = mtl_evaluate_splits,
    .partition_rows = mtl_partition_rows,
    .update_margins = mtl_update_margins,
    .release_histograms = mtl_release_histograms,
    .read_histogram = mtl_read_histogram,
    .memory = mtl_memory,
    /* Optional: only the host's pairs; no device prediction, leaf refit or
     * ranking gradients yet, and every split's rows are moved. */
    .capabilities = GPL_BACKEND_CAP_WRITE_PAIRS,
    .write_pairs = mtl_write_pairs,
};

gpulayer_status gpl_metal_backend_create(const gpl_backend_config *config, gpl_backend **out)
{
    *out = NULL;
    gpl_backend *be;
    GPL_CHECK(gpl_backend_new("metal", &mtl_ops, config, sizeof(mtl_context), &be));
    mtl_context *c = be->ctx;
    c->shape.max_nodes = config->max_nodes;
    c->shape.num_outputs = config->num_outputs;
    c->verbose = config->verbose;
    mtl_tuning_read(&c->tuning);
    c->buf.workspace = c->tuning.workspace;
    gpulayer_status st = gpl_mtl_context_create(config->device, config->verbose, &c->rt);
    if (st != GPULAYER_OK) {
        mtl_destroy(be);
        return st;
    }
    if (c->verbose) {
        char key[256];
        mtl_tuning_key(&c->tuning, key, sizeof key);
        fprintf(stderr, "[gpulayer] metal backend: tuning %s\n", key);
    }
    *out = be;
    return GPULAYER_OK;
}

void gpl_metal_pool_stats(gpl_backend *be, gpl_mtl_pool_stats *out)
{
    gpl_mtl_context_pool_stats(mtl_ctx(be)->rt, out);
}
