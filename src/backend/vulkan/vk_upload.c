/* vk_upload.c -- upload: the plan of a job (windows, feature chunks,
 * partials, the memory estimate and its refusal) and the training data on
 * the device. */
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "error.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "vk_context.h"

/* Workgroups of the gradient pass: enough to fill a large GPU, few enough
 * that the host reads their maxima back cheaply (the kernel loops). */
#define VK_GRADIENT_GROUPS 1024u

/* Partial histograms (of all the nodes of a wave, vk_hist.c) are kept
 * within the tuning's budget and this many workgroups. */
#define VK_MAX_PARTIAL_GROUPS 2048u

/* Histogram pages hold at most this many bytes of slots (and at most a
 * binding): a level's reductions and subtractions are a dispatch a page,
 * and a page is allocated whole when its first slot is needed. */
#define VK_PAGE_BYTES ((VkDeviceSize)64 << 20)

/* A buffer the kernels bind whole must fit one storage buffer binding;
 * this also keeps every element index of the kernels within 32 bits. */
static gpulayer_status check_range(const vk_context *c, VkDeviceSize bytes, const char *what)
{
    if (bytes <= c->dev.max_range) return GPULAYER_OK;
    return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                     "vulkan backend: the %s needs %llu bytes, more than device '%s' can "
                     "bind (maxStorageBufferRange %llu); use fewer rows or the cpu backend",
                     what, (unsigned long long)bytes, c->dev.device_name,
                     (unsigned long long)c->dev.max_range);
}

/* A per-row buffer the kernels reach at arbitrary rows is bound in
 * GPL_KERNEL_WINDOWS windows of 2^rows_shift rows (window.glsl); a job
 * that needs more is refused, naming the buffer and the limits. */
static gpulayer_status check_windows(const vk_context *c, uint64_t rows, uint32_t rows_shift,
                                     uint64_t row_bytes, const char *what)
{
    const uint64_t windows = gpl_windows_for(rows, rows_shift);
    if (windows <= GPL_KERNEL_WINDOWS) return GPULAYER_OK;
    return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                     "vulkan backend: the %s need %llu bytes, %llu windows of %llu bytes "
                     "(the largest power of two within maxStorageBufferRange %llu of device "
                     "'%s'); the kernels bind at most %d windows a buffer; use fewer rows or "
                     "the cpu backend", what, (unsigned long long)(rows * row_bytes),
                     (unsigned long long)windows,
                     (unsigned long long)(((uint64_t)1 << rows_shift) * row_bytes),
                     (unsigned long long)c->dev.max_range, c->dev.device_name, GPL_KERNEL_WINDOWS);
}

/* Features in runs whose bins fit the shared-memory histogram and whose
 * codes of a row fit histogram_rows.comp's registers, a feature of more
 * bins in runs of its bins: the histogram kernel's unit of work. */
static gpulayer_status plan_chunks(vk_context *c)
{
    const int32_t F = c->shape.num_features;
    const uint64_t columns = GPL_ROW_CHUNK_FEATURES * 8 / c->code_bits;
    const int32_t n = gpl_hist_chunks_plan(c->feature_offset, F, c->dev.shared_bins, columns, 1,
                                           NULL);
    c->chunks = malloc(sizeof(vk_chunk) * (size_t)(n > 0 ? n : 1));
    if (!c->chunks) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
    c->num_chunks = gpl_hist_chunks_plan(c->feature_offset, F, c->dev.shared_bins, columns, 1,
                                         c->chunks);
    return GPULAYER_OK;
}

/* The bins go up once, in rows (the histograms read a row's chunk, one
 * or two sectors, at scattered rows); the columns the partition reads (a
 * code of a row per split) are made from them on the device. The Metal
 * host does the same. */
static gpulayer_status upload_bins(vk_context *c, const gpl_binned_matrix *m)
{
    const VkDeviceSize N = (VkDeviceSize)m->num_rows, F = (VkDeviceSize)m->num_features;
    GPL_CHECK(vk_buffer_create(c, &c->buf.bin_rows, N * c->row_bytes, "bins in rows"));
    if (N) GPL_CHECK(vk_buffer_write_rows(c, &c->buf.bin_rows, m->bins, (size_t)N,
                                          (size_t)F * (size_t)m->code_bytes,
                                          (size_t)c->row_bytes));
    GPL_CHECK(vk_buffer_create(c, &c->buf.bins, F * c->column_bytes, "bin columns"));
    const gpl_columns_push p = {(uint32_t)N, (uint32_t)(c->row_bytes / 4), (uint32_t)F,
                                (uint32_t)(c->column_bytes / 4), c->code_bits};
    vk_range b[GPL_BINS_COLUMNS_BINDINGS];
    vk_windows(c, &c->buf.bin_rows, c->win.list_shift, 4, b);
    vk_windows(c, &c->buf.bins, c->win.list_shift, 4, b + GPL_KERNEL_WINDOWS);
    GPL_CHECK(vk_begin(c, "upload"));
    GPL_CHECK(vk_dispatch(c, VK_K_BINS_COLUMNS, b, &p, vk_groups_for(c, F * p.column_words)));
    return vk_submit(c);
}

gpulayer_status vk_upload(gpl_backend *be, const gpl_binned_matrix *m,
                          const float *label, const float *weight)
{
    vk_context *c = vk_ctx(be);
    GPL_CHECK(gpl_check_row_limit("vulkan", m->num_rows));
    const VkDeviceSize N = (VkDeviceSize)m->num_rows, K = (VkDeviceSize)c->shape.num_outputs;
    const VkDeviceSize M = (VkDeviceSize)c->shape.max_nodes;
    c->shape.num_rows = m->num_rows;
    c->shape.num_features = m->num_features;
    c->shape.hist_len = m->feature_offset[m->num_features];
    c->has_weight = weight != NULL;
    const VkDeviceSize code_bytes = (VkDeviceSize)m->code_bytes;
    c->code_bits = gpl_code_bits(m->code_bytes);
    c->column_bytes = vk_align_up(N ? N * code_bytes : 1, c->dev.align);
    c->row_bytes = vk_align_up(m->num_features ? (VkDeviceSize)m->num_features * code_bytes : 1, 4);
    c->feature_offset = malloc(sizeof(uint32_t) * ((size_t)m->num_features + 1));
    const int tables = gpl_node_table_init(&c->nodes, c->shape.max_nodes) == 0 &&
                       gpl_hist_slots_init(&c->slots, "vulkan", c->shape.max_nodes, vk_hist_grow,
                                           c) == 0;
    c->leaf_splits = malloc(sizeof(gpl_split_apply) * (size_t)M);
    c->early = malloc(sizeof(vk_early_split) * (size_t)M);
    if (!c->feature_offset || !tables || !c->leaf_splits || !c->early)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of host memory");
    memcpy(c->feature_offset, m->feature_offset,
           sizeof(uint32_t) * ((size_t)m->num_features + 1));

    const VkDeviceSize hist_bytes = (VkDeviceSize)c->shape.hist_len * 16;
    GPL_CHECK(check_range(c, c->column_bytes, "bin column of one feature"));
    if (!gpl_window_plan_make(c->dev.window_shift, (uint32_t)K, c->dev.align, &c->win))
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "vulkan backend: the margins of one row (%llu outputs) do not fit a "
                         "storage binding of device '%s' (maxStorageBufferRange %llu)",
                         (unsigned long long)K, c->dev.device_name,
                         (unsigned long long)c->dev.max_range);
    GPL_CHECK(check_windows(c, N, c->win.grad_shift, 16, "gradient pairs"));
    GPL_CHECK(check_windows(c, N, c->win.list_shift, 4, "row lists"));
    GPL_CHECK(check_windows(c, N, c->win.margin_shift, K * 4, "margins"));
    /* The partition reads any split's column from the one bins buffer. */
    GPL_CHECK(check_windows(c, (uint64_t)m->num_features * c->column_bytes / 4,
                            c->win.list_shift, 4, "bin columns"));
    GPL_CHECK(check_windows(c, N * c->row_bytes / 4, c->win.list_shift, 4, "bins in rows"));
    GPL_CHECK(check_range(c, hist_bytes, "histogram of one node"));
    GPL_CHECK(plan_chunks(c));
    c->slot_bytes = vk_align_up(hist_bytes ? hist_bytes : 16, c->dev.align);
    const VkDeviceSize budget = c->dev.max_range < c->tuning.partial_budget
                                    ? c->dev.max_range : c->tuning.partial_budget;
    /* Partials are int32 pairs (histogram.comp), 8 bytes a bin. */
    const VkDeviceSize partial_bytes = (VkDeviceSize)c->shape.hist_len * 8;
    VkDeviceSize pg = partial_bytes ? budget / partial_bytes : VK_MAX_PARTIAL_GROUPS;
    if (pg < 1) pg = 1;
    if (pg > VK_MAX_PARTIAL_GROUPS) pg = VK_MAX_PARTIAL_GROUPS;
    c->partial_groups = (uint32_t)pg;
    /* The gradients kernel runs once a window of 2^chunk_shift rows, each
     * dispatch writing its workgroups' maxima at its own aligned offset. */
    const VkDeviceSize chunk_rows = (VkDeviceSize)1 << c->win.chunk_shift;
    c->grad_groups = vk_groups_for(c, N < chunk_rows ? N : chunk_rows);
    if (c->grad_groups > VK_GRADIENT_GROUPS) c->grad_groups = VK_GRADIENT_GROUPS;
    c->grad_dispatches = (uint32_t)gpl_windows_for(N, c->win.chunk_shift);
    c->group_stride = vk_align_up((VkDeviceSize)c->grad_groups * 16, c->dev.align);
    GPL_CHECK(check_range(c, c->group_stride, "gradient maxima of one dispatch"));
    /* Level-sized buffers are planned for a level of up to 64 nodes. */
    const VkDeviceSize level = M < 64 ? M : 64;
    const VkDeviceSize tiles = (N + c->dev.wg - 1) / c->dev.wg + level;
    /* The feature offsets, the chunk table (histogram_rows.comp), then
     * the level tables each histogram batch writes (vk_hist.c): a wave's
     * blocks and its nodes, a level's subtractions. */
    c->table_word = gpl_plan_table_word((uint32_t)m->num_features, (uint32_t)c->num_chunks);
    c->table_blocks = c->partial_groups;
    const VkDeviceSize offsets_bytes =
        ((VkDeviceSize)c->table_word + 4 * (2 * (VkDeviceSize)c->table_blocks + M)) * 4;
    GPL_CHECK(check_range(c, offsets_bytes, "feature offsets and level tables"));
    /* Histogram pages: a page of several slots, lazily added; one binding
     * covers a page, so that a level's reductions and subtractions in it
     * are one dispatch. */
    const VkDeviceSize page_bytes = c->dev.max_range < VK_PAGE_BYTES ? c->dev.max_range : VK_PAGE_BYTES;
    VkDeviceSize per_page = page_bytes / c->slot_bytes;
    c->slots_per_page = (int32_t)(per_page < 1 ? 1 : per_page > M ? M : per_page);

    const VkDeviceSize F = (VkDeviceSize)m->num_features;
    /* The plan; histogram slots at their upper bound, one per node. */
    c->estimate_bytes = (size_t)(F * c->column_bytes + N * c->row_bytes + offsets_bytes +
                                 N * 4 * (c->has_weight ? 2 : 1) + N * K * 4 + N * 16 + N * 8 +
                                 (K > 1 ? N * 16 : 0) +
                                 c->group_stride * c->grad_dispatches +
                                 (VkDeviceSize)c->partial_groups * partial_bytes + tiles * 4 +
                                 level * (GPL_CHILD_COUNTS_BYTES + sizeof(gpl_partition_split) +
                                          GPL_SPLIT_RECORD_BYTES) +
                                 F * 4 + gpl_cat_table_words(m->num_features) * 4 +
                                 M * c->slot_bytes +
                                 (c->dev.host_visible ? 0 : c->dev.staging_bytes));
    /* Refused before anything is allocated when even the buffers that do
     * not grow (and two histograms) exceed the device's memory heap. */
    const size_t needed = c->estimate_bytes - (size_t)((M > 2 ? M - 2 : 0) * c->slot_bytes);
    if (needed > c->dev.heap_bytes)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "vulkan backend: this job needs an estimated %.1f MiB of device "
                         "memory; device '%s' has a %.1f MiB heap",
                         needed / 1048576.0, c->dev.device_name, c->dev.heap_bytes / 1048576.0);
    /* Where the driver says what is free (other processes' use included),
     * a job that cannot fit now is refused before it allocates. */
    const VkDeviceSize free_bytes = vk_device_free_bytes(c);
    if (c->dev.memory_budget && needed > free_bytes)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "vulkan backend: this job needs an estimated %.1f MiB of device "
                         "memory; device '%s' has %.1f MiB free of a %.1f MiB heap",
                         needed / 1048576.0, c->dev.device_name, free_bytes / 1048576.0,
                         c->dev.heap_bytes / 1048576.0);
    GPL_CHECK(upload_bins(c, m));
    const VkDeviceSize table_bytes = (VkDeviceSize)c->num_chunks * sizeof(gpl_hist_chunk);
    GPL_CHECK(vk_buffer_create(c, &c->buf.offsets, offsets_bytes, "feature offsets"));
    GPL_CHECK(vk_buffer_write(c, &c->buf.offsets, 0, m->feature_offset, (F + 1) * 4));
    GPL_CHECK(vk_buffer_write(c, &c->buf.offsets, (F + 1) * 4, c->chunks, table_bytes));
    GPL_CHECK(vk_buffer_create(c, &c->buf.labels, N * 4, "labels"));
    if (N) GPL_CHECK(vk_buffer_write(c, &c->buf.labels, 0, label, N * 4));
    GPL_CHECK(vk_buffer_create(c, &c->buf.weights, weight ? N * 4 : 16, "weights"));
    if (weight && N) GPL_CHECK(vk_buffer_write(c, &c->buf.weights, 0, weight, N * 4));
    GPL_CHECK(vk_buffer_create(c, &c->buf.margins, N * K * 4, "margins"));
    GPL_CHECK(vk_buffer_create(c, &c->buf.grad, N * 16, "gradient pairs"));
    GPL_CHECK(vk_buffer_create(c, &c->buf.softmax_norm, K > 1 ? N * 16 : 16,
                               "softmax normalisers"));
    GPL_CHECK(vk_buffer_create(c, &c->buf.rows, N * 4, "row lists"));
    GPL_CHECK(vk_buffer_create(c, &c->buf.scratch, N * 4, "partition scratch"));
    /* Read by the host every round: host-visible (vk_memory.c says why). */
    GPL_CHECK(vk_buffer_create_host(c, &c->buf.group_max, c->group_stride * c->grad_dispatches,
                                    "gradient maxima"));
    GPL_CHECK(vk_buffer_create(c, &c->buf.partial, (VkDeviceSize)c->partial_groups * partial_bytes,
                               "partial histograms"));
    GPL_CHECK(vk_buffer_reserve(c, &c->buf.tiles, tiles * 4, "partition tiles"));
    GPL_CHECK(vk_buffer_reserve(c, &c->buf.child_counts, level * GPL_CHILD_COUNTS_BYTES,
                                "child row counts"));
    GPL_CHECK(vk_buffer_reserve_host(c, &c->buf.records, level * GPL_SPLIT_RECORD_BYTES, "split records"));
    GPL_CHECK(vk_buffer_create_host(c, &c->buf.mask, F * 4, "feature mask"));
    const size_t cat_words = gpl_cat_table_words(m->num_features);
    uint32_t *cat = malloc(sizeof(uint32_t) * cat_words);
    if (!cat) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of host memory");
    gpl_cat_table_make(m, cat);
    gpulayer_status st = vk_buffer_create(c, &c->buf.categorical, cat_words * 4,
                                          "categorical features");
    if (st == GPULAYER_OK) st = vk_buffer_write(c, &c->buf.categorical, 0, cat, cat_words * 4);
    free(cat);
    GPL_CHECK(st);
    c->buf.mask_valid = 0;
    return GPULAYER_OK;
}
