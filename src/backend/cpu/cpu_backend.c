/* cpu_backend.c -- the CPU backend: context, data, margins and gradients.
 * The reference implementation of every operation of backend.h. */
#include "cpu_backend.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "objective_math.h"
#include "quantize.h"

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
        free(c->bins_by_feature);
        free(c->margins);
        free(c->grad);
        if (c->row_records) free(c->row_records);
        else free(c->packed_grad);
        free(c->rows);
        free(c->rows_scratch);
        gpl_node_table_free(&c->nodes);
        if (c->slot_hist)
            for (int32_t i = 0; i < c->slots.num_slots; i++) free(c->slot_hist[i]);
        gpl_hist_slots_free(&c->slots);
        free(c->slot_hist);
        free(c->thread_hist);
        free(c);
    }
    free(be);
}

static void transpose_bins(cpu_context *c)
{
    const int64_t N = c->num_rows, block = 4096;
    const int32_t F = c->num_features;
#pragma omp parallel for num_threads(c->nthread) schedule(static)
    for (int64_t start = 0; start < N; start += block) {
        int64_t end = start + block < N ? start + block : N;
        for (int32_t f = 0; f < F; f++) {
            uint8_t *col = c->bins_by_feature + (int64_t)f * N;
            for (int64_t r = start; r < end; r++) col[r] = c->bins[r * F + f];
        }
    }
}

/* The bins word of every row record (the pair word is written by
 * compute_gradients). */
static void fill_record_bins(cpu_context *c)
{
    const int32_t F = c->num_features;
#pragma omp parallel for num_threads(c->nthread) schedule(static)
    for (int64_t r = 0; r < c->num_rows; r++) {
        uint8_t word[8] = {0};
        memcpy(word, c->bins + r * F, (size_t)F);
        memcpy(&c->row_records[2 * r], word, sizeof word);
    }
}

static gpulayer_status cpu_upload(gpl_backend *be, const gpl_binned_matrix *m,
                                  const float *label, const float *weight)
{
    cpu_context *c = cpu_ctx(be);
    if (m->num_rows >= (int64_t)UINT32_MAX)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "cpu backend: %lld rows exceed the limit of 2^32 - 1",
                         (long long)m->num_rows);
    for (int32_t f = 0; f < m->num_features; f++)
        if (m->feature_offset[f + 1] - m->feature_offset[f] > CPU_ACC_STRIDE)
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "cpu backend: feature %d has more than %d bins", f,
                             CPU_ACC_STRIDE);
    c->num_rows = m->num_rows;
    c->num_features = m->num_features;
    c->bins = m->bins; /* the host matrix is used in place, not copied */
    c->feature_offset = m->feature_offset;
    c->hist_len = m->feature_offset[m->num_features];
    c->label = label;
    c->weight = weight;
    size_t n = (size_t)m->num_rows;
    size_t nodes = (size_t)c->max_nodes;
    c->margins = gpl_malloc_large(sizeof(float) * n * (size_t)c->num_outputs, "margins");
    c->grad = gpl_malloc_large(sizeof(gpl_grad_pair) * (n ? n : 1), "gradients");
    const int records = m->num_features <= CPU_RECORD_FEATURES;
    if (records) {
        c->row_records = gpl_malloc_large(2 * sizeof(int64_t) * (n ? n : 1), "row records");
        c->packed_grad = c->row_records ? c->row_records + 1 : NULL;
        c->pair_stride = 2;
    } else {
        c->packed_grad = gpl_malloc_large(sizeof(int64_t) * (n ? n : 1), "packed gradients");
        c->pair_stride = 1;
    }
    c->rows = gpl_malloc_large(sizeof(uint32_t) * (n ? n : 1), "row lists");
    /* Two halves: left and right pieces of a parallel partition. */
    c->rows_scratch = gpl_malloc_large(sizeof(uint32_t) * 2 * (n ? n : 1), "row lists");
    const int tables = gpl_node_table_init(&c->nodes, c->max_nodes) == 0 &&
                       gpl_hist_slots_init(&c->slots, "cpu", c->max_nodes, cpu_hist_grow, c) == 0;
    c->slot_hist = calloc(nodes, sizeof(gpl_grad_pair *));
    c->acc_len = (size_t)CPU_ACC_STRIDE * (size_t)m->num_features;
    c->thread_hist = malloc(sizeof(int64_t) * c->acc_len * (size_t)c->nthread);
    c->bins_by_feature = gpl_malloc_large(n * (size_t)m->num_features + 1, "binned columns");
    if (!c->margins || !c->grad || !c->packed_grad || !c->rows || !c->rows_scratch ||
        !tables || !c->slot_hist || !c->thread_hist || !c->bins_by_feature)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "cpu backend: out of host memory for %zu rows", n);
    transpose_bins(c);
    if (records) fill_record_bins(c);
    cpu_track_alloc(c, n * (size_t)m->num_features);
    cpu_track_alloc(c, n * (sizeof(float) * (size_t)c->num_outputs +
                            sizeof(gpl_grad_pair) + sizeof(int64_t) * (size_t)c->pair_stride +
                            3 * sizeof(uint32_t)) +
                           nodes * (2 * sizeof(int64_t) + 1 + 2 * sizeof(void *)) +
                           sizeof(int64_t) * c->acc_len * (size_t)c->nthread);
    return GPULAYER_OK;
}

static gpulayer_status cpu_set_margins(gpl_backend *be, const float *margins)
{
    cpu_context *c = cpu_ctx(be);
    memcpy(c->margins, margins,
           sizeof(float) * (size_t)c->num_rows * (size_t)c->num_outputs);
    return GPULAYER_OK;
}

static gpulayer_status cpu_get_margins(gpl_backend *be, float *margins)
{
    cpu_context *c = cpu_ctx(be);
    memcpy(margins, c->margins,
           sizeof(float) * (size_t)c->num_rows * (size_t)c->num_outputs);
    return GPULAYER_OK;
}

void cpu_pack_gradients(cpu_context *c)
{
#pragma omp parallel for num_threads(c->nthread) schedule(static)
    for (int64_t r = 0; r < c->num_rows; r++)
        c->packed_grad[r * c->pair_stride] = gpl_pack_pair(c->grad[r].grad, c->grad[r].hess);
}

static gpulayer_status cpu_begin_tree(gpl_backend *be)
{
    cpu_context *c = cpu_ctx(be);
    gpl_hist_slots_release_all(&c->slots);
    gpl_node_table_reset(&c->nodes, c->num_rows);
    for (int64_t r = 0; r < c->num_rows; r++) c->rows[r] = (uint32_t)r;
    return GPULAYER_OK;
}

static gpulayer_status cpu_update_margins(gpl_backend *be, int32_t output,
                                          const float *leaf_value)
{
    cpu_context *c = cpu_ctx(be);
    const int32_t K = c->num_outputs;
#pragma omp parallel for num_threads(c->nthread) schedule(dynamic)
    for (int32_t n = 0; n < c->max_nodes; n++) {
        if (c->nodes.state[n] != GPL_NODE_LIVE) continue;
        const uint32_t *rows = c->rows + c->nodes.begin[n];
        const float v = leaf_value[n];
        for (int64_t i = 0; i < c->nodes.count[n]; i++)
            c->margins[(int64_t)rows[i] * K + output] += v;
    }
    return GPULAYER_OK;
}

static void cpu_memory(gpl_backend *be, gpl_memory_report *out)
{
    cpu_context *c = cpu_ctx(be);
    out->allocated_bytes = c->allocated_bytes;
    out->peak_bytes = c->peak_bytes;
    out->estimate_bytes = 0;
}

static const struct gpl_backend_ops cpu_ops = {
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
    .write_pairs = gpl_cpu_write_pairs,
};

gpulayer_status gpl_cpu_backend_create(const gpl_backend_config *config,
                                       gpl_backend **out)
{
    *out = NULL;
    gpl_backend *be;
    GPL_CHECK(gpl_backend_new("cpu", &cpu_ops, config, sizeof(cpu_context), &be));
    cpu_context *c = be->ctx;
    c->nthread = config->nthread > 0 ? config->nthread : omp_get_max_threads();
    c->max_nodes = config->max_nodes;
    c->num_outputs = config->num_outputs;
    *out = be;
    return GPULAYER_OK;
}
