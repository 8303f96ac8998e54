/* cuda_backend.c -- the CUDA backend's operation table, creation and
 * destruction, and its memory report. The operations are in files named
 * after them: cuda_upload.c, cuda_gradients.c, cuda_hist.c, cuda_split.c,
 * cuda_partition.c (and the start of a tree), cuda_margins.c,
 * cuda_predict.c, cuda_shap.c, cuda_rank.c (query groups), cuda_cox.c
 * (survival:cox's order); cuda_startup.c checks the
 * device, cuda_memory.c plans and holds the workspace. */
#include <stdlib.h>

#include "cuda_context.h"
#include "error.h"

static void cuda_destroy(gpl_backend *be)
{
    if (!be) return;
    cuda_context *c = cuda_ctx(be);
    if (c) {
        if (c->dev.stream) (void)cudaSetDevice(c->dev.device);
        if (c->dev.stream) {
            /* Work still queued must finish before its memory goes. */
            cudaStreamSynchronize(c->dev.stream);
            (void)cudaGetLastError();
        }
        cuda_profile_report(c);
        cuda_profile_destroy(c);
        cuda_workspace_destroy(c);
        if (c->dev.stream) cudaStreamDestroy(c->dev.stream);
        (void)cudaGetLastError();
        free(c);
    }
    free(be);
}

static void cuda_memory(gpl_backend *be, gpl_memory_report *out)
{
    cuda_context *c = cuda_ctx(be);
    out->allocated_bytes = c->buf.pool.allocated;
    out->peak_bytes = c->buf.pool.peak;
    out->estimate_bytes = c->estimate_bytes;
}

static const struct gpl_backend_ops cuda_ops = {
    .version = GPL_BACKEND_OPS_VERSION,
    .name = "cuda",
    .destroy = cuda_destroy,
    .upload = cuda_upload,
    .set_margins = cuda_set_margins,
    .get_margins = cuda_get_margins,
    .compute_gradients = cuda_compute_gradients,
    .begin_tree = cuda_begin_tree,
    .build_histograms = cuda_build_histograms,
    .subtract_histograms = cuda_subtract_histograms,
    .evaluate_splits = cuda_evaluate_splits,
    .partition_rows = cuda_partition_rows,
    .update_margins = cuda_update_margins,
    .release_histograms = cuda_release_histograms,
    .read_histogram = cuda_read_histogram,
    .memory = cuda_memory,
    /* Optional: every one. WIDE_BINS: 16-bit codes in training (the
     * kernels' Code template argument, hist_wide_kernel); WIDE_CATEGORIES:
     * split_wide_cat_kernel, wide_set in partition_rows. */
    .capabilities = GPL_BACKEND_CAP_SPLIT_INTO_LEAVES | GPL_BACKEND_CAP_WRITE_PAIRS |
                    GPL_BACKEND_CAP_PREDICT | GPL_BACKEND_CAP_REFIT |
                    GPL_BACKEND_CAP_RANK_GROUPS | GPL_BACKEND_CAP_SHAP |
                    GPL_BACKEND_CAP_WIDE_BINS | GPL_BACKEND_CAP_WIDE_PREDICT |
                    GPL_BACKEND_CAP_SURVIVAL_ORDER | GPL_BACKEND_CAP_WIDE_SETS |
                    GPL_BACKEND_CAP_WIDE_CATEGORIES,
    .split_into_leaves = cuda_split_into_leaves,
    .write_pairs = cuda_write_pairs,
    .predict = cuda_predict,
    .shap = cuda_shap,
    .refit_sort = cuda_refit_sort,
    .refit_values = cuda_refit_values,
    .set_groups = cuda_set_groups,
    .set_survival_order = cuda_set_survival_order,
};

gpulayer_status gpl_cuda_backend_create(const gpl_backend_config *config,
                                        gpl_backend **out)
{
    *out = NULL;
    gpl_backend *be;
    GPL_CHECK(gpl_backend_new("cuda", &cuda_ops, config, sizeof(cuda_context), &be));
    cuda_context *c = be->ctx;
    c->level = -1;
    c->dev.verbose = config->verbose;
    c->shape.max_nodes = config->max_nodes;
    c->shape.num_outputs = config->num_outputs;
    cuda_tuning_read(&c->tuning);
    gpulayer_status st = cuda_startup(c, config->device);
    if (st != GPULAYER_OK) {
        cuda_destroy(be);
        return st;
    }
    cuda_profile_init(c);
    *out = be;
    return GPULAYER_OK;
}
