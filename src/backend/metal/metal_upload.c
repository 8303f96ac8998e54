/* metal_upload.c -- upload: the plan of a job (windows, feature chunks,
 * partials, the memory estimate and its refusal) and the training data in
 * the device's buffers. */
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "error.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "metal_context.h"

static size_t align_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

/* Features in runs whose bins fit the threadgroup histogram and whose
 * bytes of a row fit histogram_rows' registers, as on Vulkan. The Metal
 * host takes 8-bit codes only (it has no GPL_BACKEND_CAP_WIDE_BINS). */
static gpulayer_status plan_chunks(mtl_context *c)
{
    const int32_t F = c->shape.num_features;
    const int32_t n = gpl_hist_chunks_plan(c->feature_offset, F, GPL_MTL_SHARED_BINS,
                                           GPL_ROW_CHUNK_FEATURES, 1, NULL);
    c->chunks = malloc(sizeof(mtl_chunk) * (size_t)(n > 0 ? n : 1));
    if (!c->chunks) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "metal backend: out of memory");
    c->num_chunks = gpl_hist_chunks_plan(c->feature_offset, F, GPL_MTL_SHARED_BINS,
                                         GPL_ROW_CHUNK_FEATURES, 1, c->chunks);
    return GPULAYER_OK;
}

/* The bins go in once, in rows (row_bytes a row: the histograms read a
 * row's chunk at scattered rows); the columns the partition reads (a byte
 * of a row per split, column_bytes a feature) are made from them on the
 * device by bins_columns, as on Vulkan. */
static gpulayer_status upload_bins(mtl_context *c, const gpl_binned_matrix *m)
{
    const size_t N = (size_t)m->num_rows, F = (size_t)m->num_features;
    const size_t rows_bytes = N * c->row_bytes, col = c->column_bytes;
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.bin_rows, rows_bytes ? rows_bytes : 16,
                                  GPL_MTL_SHARED, "bins in rows"));
    uint8_t *t = c->buf.bin_rows.contents; /* unified memory: written in place */
    if (c->row_bytes == F) {
        if (rows_bytes) memcpy(t, m->bins, rows_bytes);
    } else {
        memset(t, 0, rows_bytes);
        for (size_t r = 0; r < N; r++) memcpy(t + r * c->row_bytes, m->bins + r * F, F);
    }
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.bins, F * col + 4, GPL_MTL_SHARED,
                                  "bin columns"));
    /* The kernel writes every column word; the word after them is the
     * pool's until zeroed. */
    memset((uint8_t *)c->buf.bins.contents + F * col, 0, 4);
    const gpl_columns_push p = {(uint32_t)N, (uint32_t)(c->row_bytes / 4), (uint32_t)F,
                                (uint32_t)(col / 4), gpl_code_bits(1)};
    gpl_mtl_bind b[GPL_BINS_COLUMNS_BINDINGS];
    mtl_windows(&c->buf.bin_rows, c->win.list_shift, 4, b);
    mtl_windows(&c->buf.bins, c->win.list_shift, 4, b + GPL_KERNEL_WINDOWS);
    GPL_CHECK(gpl_mtl_begin(c->rt, "upload", -1));
    gpulayer_status st = gpl_mtl_dispatch(c->rt, MTL_K_BINS_COLUMNS, b, &p,
                                          gpl_mtl_groups_for(c->rt, (uint64_t)F * p.column_words));
    if (st == GPULAYER_OK) return gpl_mtl_commit(c->rt, 1);
    gpl_mtl_abandon(c->rt);
    return st;
}

/* Histogram pages hold at most this many bytes of slots (and at most a
 * buffer): a level's reductions and subtractions are a dispatch a page,
 * and a page is made whole when its first slot is needed (as on Vulkan). */
#define MTL_PAGE_BYTES ((size_t)64 << 20)

static gpulayer_status alloc_nodes(mtl_context *c)
{
    const size_t M = (size_t)c->shape.max_nodes;
    const size_t hist_bytes = c->shape.hist_len ? (size_t)c->shape.hist_len * 16 : 16;
    c->slot_bytes = align_up(hist_bytes, MTL_COLUMN_ALIGN);
    const uint64_t max_buffer = gpl_mtl_context_caps(c->rt)->max_buffer_length;
    const size_t page_bytes =
        max_buffer && max_buffer < MTL_PAGE_BYTES ? (size_t)max_buffer : MTL_PAGE_BYTES;
    const size_t per_page = page_bytes / c->slot_bytes;
    c->slots_per_page = (int32_t)(per_page < 1 ? 1 : per_page > M ? M : per_page);
    if (c->slots_per_page < 1) c->slots_per_page = 1;
    const size_t pages = (M + (size_t)c->slots_per_page - 1) / (size_t)c->slots_per_page;
    c->pages = calloc(pages ? pages : 1, sizeof(gpl_mtl_buf));
    const int tables = gpl_node_table_init(&c->nodes, c->shape.max_nodes) == 0 &&
                       gpl_hist_slots_init(&c->slots, "metal", c->shape.max_nodes, mtl_hist_grow,
                                           c) == 0;
    if (!c->pages || !tables)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "metal backend: out of host memory");
    return GPULAYER_OK;
}

gpulayer_status mtl_upload(gpl_backend *be, const gpl_binned_matrix *m,
                           const float *label, const float *weight)
{
    mtl_context *c = mtl_ctx(be);
    if (c->uploaded)
        return gpl_error(GPULAYER_ERR_INTERNAL, "metal backend: upload called twice");
    GPL_CHECK(gpl_check_row_limit("metal", m->num_rows));
    const size_t N = (size_t)m->num_rows, K = (size_t)c->shape.num_outputs;
    const size_t F = (size_t)m->num_features, M = (size_t)c->shape.max_nodes;
    c->shape.num_rows = m->num_rows;
    c->shape.num_features = m->num_features;
    c->shape.hist_len = m->feature_offset[m->num_features];
    c->has_weight = weight != NULL;
    c->column_bytes = align_up(N ? N : 1, MTL_COLUMN_ALIGN);
    c->row_bytes = align_up(F ? F : 1, 4);
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
    } windowed[5] = {{N, c->win.grad_shift, 16, "gradient pairs"},
                     {N, c->win.list_shift, 4, "row lists"},
                     {N, c->win.margin_shift, K * 4, "margins"},
                     {F * c->column_bytes / 4, c->win.list_shift, 4, "bin columns"},
                     {N * c->row_bytes / 4, c->win.list_shift, 4, "bins in rows"}};
    for (int i = 0; i < 5; i++) {
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

    const size_t hist_bytes = (size_t)c->shape.hist_len * 16;
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
    /* The feature offsets and the chunk table (histogram_rows reads both
     * through one binding); a level's tables follow them in a buffer of
     * its batch (metal_hist.c), from word table_word, as on Vulkan. */
    c->table_word = gpl_plan_table_word((uint32_t)F, (uint32_t)c->num_chunks);
    c->estimate_bytes = F * c->column_bytes + N * c->row_bytes + (size_t)c->table_word * 4 +
                        N * 4 * (c->has_weight ? 2 : 1) +
                        N * K * 4 + N * 16 + N * 8 + c->group_stride * c->grad_dispatches +
                        (size_t)c->partial_groups * hist_bytes + tiles * 4 +
                        level * (GPL_CHILD_COUNTS_BYTES + sizeof(gpl_partition_split) +
                                 GPL_SPLIT_RECORD_BYTES) + F * 4 +
                        gpl_cat_table_words(m->num_features) * 4 +
                        M * c->slot_bytes;
    /* Refused before anything is allocated when the buffers that do not
     * grow (and two histograms) exceed what Metal recommends this process
     * keep resident: unified memory is shared with the CPU. */
    const gpl_mtl_caps *caps = gpl_mtl_context_caps(c->rt);
    const size_t needed = c->estimate_bytes - (M > 2 ? M - 2 : 0) * c->slot_bytes;
    if (caps->working_set_bytes && needed > caps->working_set_bytes)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "metal backend: this job needs an estimated %.1f MiB of GPU memory; "
                         "device '%s' recommends at most %.1f MiB (unified memory shared with "
                         "the CPU)", needed / 1048576.0, caps->name,
                         caps->working_set_bytes / 1048576.0);

    const gpl_mtl_storage ws = c->buf.workspace;
    GPL_CHECK(upload_bins(c, m));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.offsets, (size_t)c->table_word * 4,
                                  GPL_MTL_SHARED, "feature offsets and chunk table"));
    GPL_CHECK(gpl_mtl_buf_write(c->rt, &c->buf.offsets, 0, m->feature_offset, (F + 1) * 4));
    GPL_CHECK(gpl_mtl_buf_write(c->rt, &c->buf.offsets, (F + 1) * 4, c->chunks,
                                sizeof(gpl_hist_chunk) * (size_t)c->num_chunks));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.labels, N * 4, GPL_MTL_SHARED, "labels"));
    GPL_CHECK(gpl_mtl_buf_write(c->rt, &c->buf.labels, 0, label, N * 4));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.weights, weight ? N * 4 : 16, GPL_MTL_SHARED, "weights"));
    if (weight) GPL_CHECK(gpl_mtl_buf_write(c->rt, &c->buf.weights, 0, weight, N * 4));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.margins, N * K * 4, GPL_MTL_SHARED, "margins"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.grad, N * 16, ws, "gradient pairs"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.softmax_norm, K > 1 ? N * 16 : 16, ws,
                                  "softmax normalisers"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.rows, N * 4, ws, "row lists"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.scratch, N * 4, ws, "partition scratch"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.group_max, c->group_stride * c->grad_dispatches,
                                  GPL_MTL_SHARED, "gradient maxima"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.partial, (size_t)c->partial_groups * hist_bytes,
                                  ws, "partial histograms"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.tiles, tiles * 4, ws, "partition tiles"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.child_counts, level * GPL_CHILD_COUNTS_BYTES,
                                  GPL_MTL_SHARED, "child row counts"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.records, level * GPL_SPLIT_RECORD_BYTES,
                                  GPL_MTL_SHARED, "split records"));
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->buf.mask, F * 4, GPL_MTL_SHARED, "feature mask"));
    const size_t cat_words = gpl_cat_table_words(m->num_features);
    uint32_t *cat = malloc(sizeof(uint32_t) * cat_words);
    if (!cat) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "metal backend: out of host memory");
    gpl_cat_table_make(m, cat);
    gpulayer_status st = gpl_mtl_buf_acquire(c->rt, &c->buf.categorical, cat_words * 4,
                                             GPL_MTL_SHARED, "categorical features");
    if (st == GPULAYER_OK) st = gpl_mtl_buf_write(c->rt, &c->buf.categorical, 0, cat, cat_words * 4);
    free(cat);
    GPL_CHECK(st);
    c->uploaded = 1;
    return GPULAYER_OK;
}
