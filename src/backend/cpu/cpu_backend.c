/* cpu_backend.c -- the CPU backend, the reference implementation of every
 * operation of backend.h: its operation table, creation, destruction and
 * memory report. The operations are in files named after them:
 * cpu_upload.c, cpu_gradients.c, cpu_hist.c, cpu_split.c, cpu_partition.c
 * (and the start of a tree), cpu_margins.c; cpu_dist.c writes the pairs
 * of data-parallel training. */
#include "cpu_context.h"

#include <omp.h>
#include <stdlib.h>

#include "error.h"

void cpu_track_alloc(cpu_context *c, size_t bytes)
{
    c->allocated_bytes += bytes;
    if (c->allocated_bytes > c->peak_bytes) c->peak_bytes = c->allocated_bytes;
}

static void cpu_destroy(gpl_backend *be)
{
    if (!be) return;
    cpu_context *c = cpu_ctx(be);
    if (c) {
        free(c->buf.bins_by_feature);
        free(c->buf.margins);
        free(c->buf.softmax_norm);
        free(c->buf.grad);
        if (c->buf.row_records) free(c->buf.row_records);
        else free(c->buf.packed_grad);
        free(c->buf.rows);
        free(c->buf.rows_scratch);
        gpl_node_table_free(&c->nodes);
        if (c->slot_hist)
            for (int32_t i = 0; i < c->slots.num_slots; i++) free(c->slot_hist[i]);
        gpl_hist_slots_free(&c->slots);
        free(c->slot_hist);
        free(c->buf.thread_hist);
        cpu_rank_free(c->rank);
        cpu_cox_free(c->cox);
        free(c);
    }
    free(be);
}

static void cpu_memory(gpl_backend *be, gpl_memory_report *out)
{
    cpu_context *c = cpu_ctx(be);
    out->allocated_bytes = c->allocated_bytes;
    out->peak_bytes = c->peak_bytes;
    out->estimate_bytes = 0;
}

static const struct gpl_backend_ops cpu_ops = {
    .version = GPL_BACKEND_OPS_VERSION,
    .name = "cpu",
    .destroy = cpu_destroy,
    .upload = cpu_upload,
    .set_margins = cpu_set_margins,
    .get_margins = cpu_get_margins,
    .compute_gradients = cpu_compute_gradients,
    .begin_tree = cpu_begin_tree,
    .build_histograms = cpu_build_histograms,
    .subtract_histograms = cpu_subtract_histograms,
    .evaluate_splits = cpu_evaluate_splits,
    .partition_rows = cpu_partition_rows,
    .update_margins = cpu_update_margins,
    .release_histograms = cpu_release_histograms,
    .read_histogram = cpu_read_histogram,
    .memory = cpu_memory,
    /* Optional: the CPU moves the rows of every split and predicts on the
     * host (src/core/booster/predict.c), and the leaf refit reads its rows there. */
    .capabilities = GPL_BACKEND_CAP_WRITE_PAIRS | GPL_BACKEND_CAP_RANK_GROUPS |
                    GPL_BACKEND_CAP_WIDE_BINS | GPL_BACKEND_CAP_WIDE_PREDICT |
                    GPL_BACKEND_CAP_SURVIVAL_ORDER | GPL_BACKEND_CAP_WIDE_SETS |
                    GPL_BACKEND_CAP_WIDE_CATEGORIES,
    .write_pairs = gpl_cpu_write_pairs,
    .set_groups = cpu_set_groups,
    .set_survival_order = cpu_set_survival_order,
};

gpulayer_status gpl_cpu_backend_create(const gpl_backend_config *config,
                                       gpl_backend **out)
{
    *out = NULL;
    gpl_backend *be;
    GPL_CHECK(gpl_backend_new("cpu", &cpu_ops, config, sizeof(cpu_context), &be));
    cpu_context *c = be->ctx;
    c->nthread = config->nthread > 0 ? config->nthread : omp_get_max_threads();
    c->shape.max_nodes = config->max_nodes;
    c->shape.num_outputs = config->num_outputs;
    *out = be;
    return GPULAYER_OK;
}
