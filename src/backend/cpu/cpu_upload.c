/* cpu_upload.c -- upload: the CPU backend takes the binned matrix in place
 * and makes the buffers of a training (margins, gradient pairs, row
 * lists, node table, histogram slots, accumulators). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "common/checks.h"
#include "cpu_context.h"
#include "error.h"
#include "memory_limit.h"

/* Rows [start, end) of 16-bit column f of the row-major matrix bins. */
static void copy_wide_column(uint8_t *col, const uint8_t *bins, int32_t F, int32_t f,
                           int64_t start, int64_t end)
{
    for (int64_t r = start; r < end; r++) memcpy(col + 2 * r, bins + 2 * (r * F + f), 2);
}

static void transpose_bins(cpu_context *c)
{
    const int64_t N = c->shape.num_rows, block = 4096;
    const int32_t F = c->shape.num_features;
    const int w = c->buf.code_bytes;
#pragma omp parallel for num_threads(c->nthread) schedule(static)
    for (int64_t start = 0; start < N; start += block) {
        int64_t end = start + block < N ? start + block : N;
        for (int32_t f = 0; f < F; f++) {
            uint8_t *col = c->buf.bins_by_feature + (int64_t)f * N * w;
            if (w == 1)
                for (int64_t r = start; r < end; r++) col[r] = c->buf.bins[r * F + f];
            else
                copy_wide_column(col, c->buf.bins, F, f, start, end);
        }
    }
}

/* The bins word of every row record (the pair word is written by
 * compute_gradients). */
static void fill_record_bins(cpu_context *c)
{
    const int32_t F = c->shape.num_features;
#pragma omp parallel for num_threads(c->nthread) schedule(static)
    for (int64_t r = 0; r < c->shape.num_rows; r++) {
        uint8_t word[8] = {0};
        memcpy(word, c->buf.bins + r * F, (size_t)F);
        memcpy(&c->buf.row_records[2 * r], word, sizeof word);
    }
}

gpulayer_status cpu_upload(gpl_backend *be, const gpl_binned_matrix *m,
                           const float *label, const float *weight)
{
    cpu_context *c = cpu_ctx(be);
    GPL_CHECK(gpl_check_row_limit("cpu", m->num_rows));
    const int wide = m->code_bytes == 2;
    for (int32_t f = 0; f < m->num_features; f++)
        if (!wide && m->feature_offset[f + 1] - m->feature_offset[f] > CPU_ACC_STRIDE)
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "cpu backend: feature %d has more than %d bins but byte codes", f,
                             CPU_ACC_STRIDE);
    c->shape.num_rows = m->num_rows;
    c->shape.num_features = m->num_features;
    c->buf.bins = m->bins; /* the host matrix is used in place, not copied */
    c->buf.code_bytes = wide ? 2 : 1;
    c->feature_offset = m->feature_offset;
    c->categorical = m->categorical;
    c->shape.hist_len = m->feature_offset[m->num_features];
    c->buf.label = label;
    c->buf.weight = weight;
    size_t n = (size_t)m->num_rows;
    size_t nodes = (size_t)c->shape.max_nodes;
    const int softmax = c->shape.num_outputs > 1;
    const int records = !wide && m->num_features <= CPU_RECORD_FEATURES;
    c->buf.acc_len = wide ? (size_t)c->shape.hist_len
                          : (size_t)CPU_ACC_STRIDE * (size_t)m->num_features;
    /* What the buffers below take: checked against the limit before, and
     * counted after. A row: its bins by feature, margins, pair, packed
     * pair(s), row list entries (and softmax normaliser). */
    const uint64_t row_bytes = (uint64_t)m->num_features * (uint64_t)c->buf.code_bytes +
                               sizeof(float) * (uint64_t)c->shape.num_outputs +
                               sizeof(gpl_grad_pair) + sizeof(int64_t) * (records ? 2 : 1) +
                               3 * sizeof(uint32_t) + (softmax ? 2 * sizeof(double) : 0);
    const uint64_t workspace = row_bytes * n +
                               nodes * (2 * sizeof(int64_t) + 1 + 2 * sizeof(void *)) +
                               sizeof(int64_t) * c->buf.acc_len * (uint64_t)c->nthread;
    char what[96];
    snprintf(what, sizeof what, "the cpu backend's workspace for %zu rows", n);
    GPL_CHECK(gpl_check_host_memory(workspace, what));
    c->buf.margins = gpl_malloc_large(sizeof(float) * n * (size_t)c->shape.num_outputs, "margins");
    c->buf.grad = gpl_malloc_large(sizeof(gpl_grad_pair) * (n ? n : 1), "gradients");
    if (softmax)
        c->buf.softmax_norm = gpl_malloc_large(2 * sizeof(double) * (n ? n : 1),
                                               "softmax normalisers");
    if (records) {
        c->buf.row_records = gpl_malloc_large(2 * sizeof(int64_t) * (n ? n : 1), "row records");
        c->buf.packed_grad = c->buf.row_records ? c->buf.row_records + 1 : NULL;
        c->buf.pair_stride = 2;
    } else {
        c->buf.packed_grad = gpl_malloc_large(sizeof(int64_t) * (n ? n : 1), "packed gradients");
        c->buf.pair_stride = 1;
    }
    c->buf.rows = gpl_malloc_large(sizeof(uint32_t) * (n ? n : 1), "row lists");
    /* Two halves: left and right pieces of a parallel partition. */
    c->buf.rows_scratch = gpl_malloc_large(sizeof(uint32_t) * 2 * (n ? n : 1), "row lists");
    const int tables =
        gpl_node_table_init(&c->nodes, c->shape.max_nodes) == 0 &&
        gpl_hist_slots_init(&c->slots, "cpu", c->shape.max_nodes, cpu_hist_grow, c) == 0;
    c->slot_hist = calloc(nodes, sizeof(gpl_grad_pair *));
    c->buf.thread_hist = malloc(sizeof(int64_t) * c->buf.acc_len * (size_t)c->nthread);
    c->buf.bins_by_feature = gpl_malloc_large(n * (size_t)m->num_features * (size_t)c->buf.code_bytes + 1,
                                              "binned columns");
    if (!c->buf.margins || !c->buf.grad || !c->buf.packed_grad || !c->buf.rows || !c->buf.rows_scratch ||
        (softmax && !c->buf.softmax_norm) ||
        !tables || !c->slot_hist || !c->buf.thread_hist || !c->buf.bins_by_feature)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "cpu backend: out of host memory for %zu rows", n);
    transpose_bins(c);
    if (records) fill_record_bins(c);
    cpu_track_alloc(c, (size_t)workspace);
    return GPULAYER_OK;
}
