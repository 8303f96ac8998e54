/* metal_backend.c -- the Metal backend (accelerator "mps"): creation, the
 * training data on the device, margins, gradients, tree start, prediction
 * update and memory. The histogram, split and partition operations are in
 * their own files; the runtime is behind metal_host.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "metal_backend.h"
#include "quantize.h"


static void release_all(mtl_context *c)
{
    gpl_mtl_buf *all[] = {&c->bins, &c->offsets, &c->labels, &c->weights, &c->margins,
                          &c->grad, &c->rows, &c->scratch, &c->group_max, &c->partial,
                          &c->tiles, &c->child_counts, &c->records, &c->mask};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) gpl_mtl_buf_release(c->rt, all[i]);
    if (c->hist) mtl_hist_release_all(c);
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
        free(c->hist);
        gpl_hist_slots_free(&c->slots);
        gpl_node_table_free(&c->nodes);
        free(c);
    }
    free(be);
}

static size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

static gpulayer_status plan_chunks(mtl_context *c)
{
    const int32_t F = c->num_features;
    c->chunks = malloc(sizeof(mtl_chunk) * (size_t)(F > 0 ? F : 1));
    if (!c->chunks) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "metal backend: out of memory");
    const int32_t f = gpl_hist_chunks_plan(c->feature_offset, F, GPL_MTL_SHARED_BINS,
                                           UINT64_MAX, 0, c->chunks, &c->num_chunks);
    if (f >= 0)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "metal backend: feature %d has %u bins; at most %u fit the "
                         "threadgroup histogram", f,
                         c->feature_offset[f + 1] - c->feature_offset[f], GPL_MTL_SHARED_BINS);
    return GPULAYER_OK;
}

/* Feature-major, one column a feature: a split binds one column, a
 * histogram chunk a run of columns, at aligned offsets. */
static gpulayer_status upload_bins(mtl_context *c, const gpl_binned_matrix *m)
{
    const size_t F = (size_t)m->num_features, col = c->column_bytes;
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->bins, F * col + 4, GPL_MTL_SHARED, "bin matrix"));
    uint8_t *t = c->bins.contents; /* unified memory: written in place */
    memset(t, 0, F * col + 4);
    gpl_bins_to_columns(m, col, t);
    return GPULAYER_OK;
}

static gpulayer_status alloc_nodes(mtl_context *c)
{
    const size_t M = (size_t)c->max_nodes;
    c->hist = calloc(M, sizeof(gpl_mtl_buf));
    const int tables = gpl_node_table_init(&c->nodes, c->max_nodes) == 0 &&
                       gpl_hist_slots_init(&c->slots, "metal", c->max_nodes, mtl_hist_grow,
                                           c) == 0;
    if (!c->hist || !tables)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "metal backend: out of host memory");
    return GPULAYER_OK;
}

static gpulayer_status mtl_upload(gpl_backend *be, const gpl_binned_matrix *m,
                                  const float *label, const float *weight)
{
    mtl_context *c = mtl_ctx(be);
    if (c->uploaded)
        return gpl_error(GPULAYER_ERR_INTERNAL, "metal backend: upload called twice");
    if (m->num_rows >= (int64_t)UINT32_MAX)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "metal backend: %lld rows exceed the limit of 2^32 - 1",
                         (long long)m->num_rows);
    const size_t N = (size_t)m->num_rows, K = (size_t)c->num_outputs;
    const size_t F = (size_t)m->num_features, M = (size_t)c->max_nodes;
    c->num_rows = m->num_rows;
    c->num_features = m->num_features;
    c->hist_len = m->feature_offset[m->num_features];
    c->has_weight = weight != NULL;
    c->column_bytes = align_up(N ? N : 1, MTL_COLUMN_ALIGN);
    c->feature_offset = malloc(sizeof(uint32_t) * (F + 1));
    if (!c->feature_offset)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "metal backend: out of host memory");
    memcpy(c->feature_offset, m->feature_offset, sizeof(uint32_t) * (F + 1));
    GPL_CHECK(alloc_nodes(c));
    GPL_CHECK(plan_chunks(c));
    /* Per-row buffers in windows, as on Vulkan (window.glsl). */
    if (!gpl_window_plan_make(GPL_MTL_WINDOW_SHIFT, (uint32_t)K, MTL_COLUMN_ALIGN, &c->win))
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "metal backend: the margins of one row (%zu outputs) do not fit a "
                         "kernel window", K);
    /* The partition reads any split's column from the one bins buffer:
     * its 4-byte words are windowed like a row list. */
    const struct {
        size_t rows;
        uint32_t shift;
        size_t row_bytes;
        const char *what;
    } windowed[4] = {{N, c->win.grad_shift, 16, "gradient pairs"},
                     {N, c->win.list_shift, 4, "row lists"},
                     {N, c->win.margin_shift, K * 4, "margins"},
                     {F * c->column_bytes / 4, c->win.list_shift, 4, "bin columns"}};
    for (int i = 0; i < 4; i++) {
        const uint64_t w = gpl_windows_for(windowed[i].rows, windowed[i].shift);
        if (w > GPL_KERNEL_WINDOWS)
            return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                             "metal backend: the %s need %zu bytes, %llu windows of %zu bytes; "
                             "the kernels bind at most %d windows a buffer; use fewer rows or "
                             "the cpu backend", windowed[i].what,
                             windowed[i].rows * windowed[i].row_bytes,
                             (unsigned long long)w,
                             ((size_t)1 << windowed[i].shift) * windowed[i].row_bytes,
                             GPL_KERNEL_WINDOWS);
    }

    const size_t hist_bytes = (size_t)c->hist_len * 16;
    /* Partial histograms of a wave of nodes (metal_hist.c). */
    const size_t max_groups = c->tuning.partial_groups;
    size_t pg = hist_bytes ? (size_t)c->tuning.partial_budget / hist_bytes : max_groups;
    if (pg < 1) pg = 1;
    if (pg > max_groups) pg = max_groups;
    c->partial_groups = (uint32_t)pg;
    /* The gradients kernel runs once a window of 2^chunk_shift rows, each
     * dispatch writing its threadgroups' maxima at its own offset. */
    const size_t chunk_rows = (size_t)1 << c->win.chunk_shift;
    c->grad_groups = gpl_mtl_groups_for(c->rt, N < chunk_rows ? N : chunk_rows);
    if (c->grad_groups > c->tuning.gradient_groups) c->grad_groups = c->tuning.gradient_groups;
    c->grad_dispatches = (uint32_t)gpl_windows_for(N, c->win.chunk_shift);
    c->group_stride = align_up((size_t)c->grad_groups * 16, MTL_COLUMN_ALIGN);
    const size_t level = M < 64 ? M : 64;
    const size_t tiles = (N + GPL_MTL_WG - 1) / GPL_MTL_WG + level;
    c->estimate_bytes = F * c->column_bytes + (F + 1) * 4 + N * 4 * (c->has_weight ? 2 : 1) +
                        N * K * 4 + N * 16 + N * 8 + c->group_stride * c->grad_dispatches +
                        (size_t)c->partial_groups * hist_bytes + tiles * 4 +
                        level * (GPL_CHILD_COUNTS_BYTES + sizeof(gpl_partition_split) +
                                 GPL_SPLIT_RECORD_BYTES) + F * 4 +
                        M * (hist_bytes ? hist_bytes : 16);
    /* Refused before anything is allocated when the buffers that do not
     * grow (and two histograms) exceed what Metal recommends this process
     * keep resident: unified memory is shared with the CPU. */
    const gpl_mtl_caps *caps = gpl_mtl_context_caps(c->rt);
    const size_t needed = c->estimate_bytes - (M > 2 ? M - 2 : 0) * (hist_bytes ? hist_bytes : 16);
    if (caps->working_set_bytes && needed > caps->working_set_bytes)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "metal backend: this job needs an estimated %.1f MiB of GPU memory; "
                         "device '%s' recommends at most %.1f MiB (unified memory shared with "
                         "the CPU)", needed / 1048576.0, caps->name,
                         caps->working_set_bytes / 1048576.0);

    const gpl_mtl_storage ws = c->workspace;
    GPL_CHECK(upload_bins(c, m));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->offsets, (F + 1) * 4, GPL_MTL_SHARED, "feature offsets"));
    GPL_CHECK(gpl_mtl_buf_write(c->rt, &c->offsets, 0, m->feature_offset, (F + 1) * 4));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->labels, N * 4, GPL_MTL_SHARED, "labels"));
    GPL_CHECK(gpl_mtl_buf_write(c->rt, &c->labels, 0, label, N * 4));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->weights, weight ? N * 4 : 16, GPL_MTL_SHARED, "weights"));
    if (weight) GPL_CHECK(gpl_mtl_buf_write(c->rt, &c->weights, 0, weight, N * 4));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->margins, N * K * 4, GPL_MTL_SHARED, "margins"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->grad, N * 16, ws, "gradient pairs"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->rows, N * 4, ws, "row lists"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->scratch, N * 4, ws, "partition scratch"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->group_max, c->group_stride * c->grad_dispatches,
                                  GPL_MTL_SHARED, "gradient maxima"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->partial, (size_t)c->partial_groups * hist_bytes,
                                  ws, "partial histograms"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->tiles, tiles * 4, ws, "partition tiles"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->child_counts, level * GPL_CHILD_COUNTS_BYTES,
                                  GPL_MTL_SHARED, "child row counts"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->records, level * GPL_SPLIT_RECORD_BYTES,
                                  GPL_MTL_SHARED, "split records"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->mask, F * 4, GPL_MTL_SHARED, "feature mask"));
    c->uploaded = 1;
    return GPULAYER_OK;
}

static gpulayer_status mtl_set_margins(gpl_backend *be, const float *margins)
{
    mtl_context *c = mtl_ctx(be);
    GPL_CHECK(gpl_mtl_context_status(c->rt));
    return gpl_mtl_buf_write(c->rt, &c->margins, 0, margins,
                             (size_t)c->num_rows * (size_t)c->num_outputs * 4);
}

static gpulayer_status mtl_get_margins(gpl_backend *be, float *margins)
{
    mtl_context *c = mtl_ctx(be);
    GPL_CHECK(gpl_mtl_context_status(c->rt));
    return gpl_mtl_buf_read(c->rt, &c->margins, 0, margins,
                            (size_t)c->num_rows * (size_t)c->num_outputs * 4);
}


/* Two batches with the scale in between (a phase boundary: the driver
 * needs the scale too). Both kernels go through the rows in order and run
 * once a window of rows, each dispatch bound from its window's first row. */
static gpulayer_status mtl_compute_gradients(gpl_backend *be, const gpl_gradient_request *req,
                                             gpl_quant_scale *scale)
{
    mtl_context *c = mtl_ctx(be);
    const uint64_t N = (uint64_t)c->num_rows, chunk = (uint64_t)1 << c->win.chunk_shift;
    const size_t K = (size_t)c->num_outputs;
    GPL_CHECK(gpl_mtl_begin(c->rt, "compute_gradients", -1));
    for (uint32_t d = 0; d < c->grad_dispatches; d++) {
        const uint64_t first = (uint64_t)d * chunk;
        const uint64_t count = N - first < chunk ? N - first : chunk;
        gpl_gradient_push gp = {req->seed, (uint32_t)count, (uint32_t)c->num_outputs,
                                (uint32_t)req->output, (int32_t)req->objective, req->round,
                                (uint32_t)c->has_weight, req->subsample, (uint32_t)first};
        gpl_mtl_bind b[5] = {{&c->grad, (size_t)first * 16},
                             {&c->margins, (size_t)first * K * 4},
                             {&c->labels, (size_t)first * 4},
                             {&c->weights, c->has_weight ? (size_t)first * 4 : 0},
                             {&c->group_max, (size_t)d * c->group_stride}};
        GPL_CHECK(gpl_mtl_dispatch(c->rt, MTL_K_GRADIENTS, b, &gp, c->grad_groups));
    }
    GPL_CHECK(gpl_mtl_commit(c->rt, 1));
    /* Shared storage: the maxima are read in place. */
    double max_g = 0.0, max_h = 0.0;
    for (uint32_t d = 0; d < c->grad_dispatches; d++) {
        const double *mx = (const double *)((const char *)c->group_max.contents +
                                            (size_t)d * c->group_stride);
        for (uint32_t i = 0; i < c->grad_groups; i++) {
            if (mx[2 * i] > max_g) max_g = mx[2 * i];
            if (mx[2 * i + 1] > max_h) max_h = mx[2 * i + 1];
        }
    }
    scale->grad = gpl_quant_scale_for(max_g, c->num_rows);
    scale->hess = gpl_quant_scale_for(max_h, c->num_rows);
    const uint64_t window = (uint64_t)1 << c->win.grad_shift;
    GPL_CHECK(gpl_mtl_begin(c->rt, "quantize_gradients", -1));
    for (uint64_t first = 0; first < N; first += window) {
        const uint64_t count = N - first < window ? N - first : window;
        gpl_quantize_push qp = {scale->grad, scale->hess, (uint32_t)count};
        gpl_mtl_bind q[1] = {{&c->grad, (size_t)first * 16}};
        GPL_CHECK(gpl_mtl_dispatch(c->rt, MTL_K_QUANTIZE, q, &qp,
                                   gpl_mtl_groups_for(c->rt, count)));
    }
    return gpl_mtl_commit(c->rt, 0);
}

static gpulayer_status mtl_begin_tree(gpl_backend *be)
{
    mtl_context *c = mtl_ctx(be);
    mtl_hist_release_all(c);
    gpl_node_table_reset(&c->nodes, c->num_rows);
    const uint64_t N = (uint64_t)c->num_rows, window = (uint64_t)1 << c->win.list_shift;
    GPL_CHECK(gpl_mtl_begin(c->rt, "begin_tree", 0));
    for (uint64_t first = 0; first < N; first += window) {
        const uint64_t count = N - first < window ? N - first : window;
        gpl_rows_init_push p = {(uint32_t)count, (uint32_t)first};
        gpl_mtl_bind b[1] = {{&c->rows, (size_t)first * 4}};
        GPL_CHECK(gpl_mtl_dispatch(c->rt, MTL_K_ROWS_INIT, b, &p,
                                   gpl_mtl_groups_for(c->rt, count)));
    }
    return gpl_mtl_commit(c->rt, 0);
}


/* One dispatch a leaf, all in one batch: leaves hold disjoint rows. */
static gpulayer_status mtl_update_margins(gpl_backend *be, int32_t output,
                                          const float *leaf_value)
{
    mtl_context *c = mtl_ctx(be);
    gpl_mtl_bind b[GPL_MARGINS_BINDINGS];
    mtl_windows(&c->rows, c->win.list_shift, 4, b);
    mtl_windows(&c->margins, c->win.margin_shift, (size_t)c->num_outputs * 4,
                b + GPL_KERNEL_WINDOWS);
    GPL_CHECK(gpl_mtl_begin(c->rt, "update_margins", -1));
    for (int32_t n = 0; n < c->max_nodes; n++) {
        if (c->nodes.state[n] != GPL_NODE_LIVE || c->nodes.count[n] == 0) continue;
        gpl_margins_push p = {(uint32_t)c->nodes.begin[n], (uint32_t)c->nodes.count[n],
                              (uint32_t)c->num_outputs, (uint32_t)output, leaf_value[n],
                              c->win.margin_shift};
        GPL_CHECK(gpl_mtl_dispatch(c->rt, MTL_K_UPDATE_MARGINS, b, &p,
                                   gpl_mtl_groups_for(c->rt, (uint64_t)c->nodes.count[n])));
    }
    return gpl_mtl_commit(c->rt, 0);
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
};

gpulayer_status gpl_metal_backend_create(const gpl_backend_config *config, gpl_backend **out)
{
    *out = NULL;
    gpl_backend *be;
    GPL_CHECK(gpl_backend_new("metal", &mtl_ops, config, sizeof(mtl_context), &be));
    mtl_context *c = be->ctx;
    c->max_nodes = config->max_nodes;
    c->num_outputs = config->num_outputs;
    c->verbose = config->verbose;
    mtl_tuning_read(&c->tuning);
    c->workspace = c->tuning.workspace;
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
