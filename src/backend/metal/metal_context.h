/* metal_context.h -- the Metal backend's state, shared by its C files
 * (metal_backend.c and the files of its operations, metal_upload.c to
 * metal_margins.c). The
 * runtime is reached only through metal_host.h. The operations mirror the
 * Vulkan host's (src/backend/vulkan); both use the kernels of
 * src/backend/gpu_kernels, with the same push constants and bindings. */
#ifndef GPL_METAL_CONTEXT_H
#define GPL_METAL_CONTEXT_H

#include <stdint.h>

#include "backend.h"
#include "common/hist_slots.h"
#include "common/level_plan.h"
#include "common/node_table.h"
#include "common/shape.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "metal_host.h"
#include "metal_tuning.h"

/* A run of features whose bins fit the histogram kernel's threadgroup
 * chunk (GPL_MTL_SHARED_BINS) and whose bytes of a row fit its registers
 * (GPL_ROW_CHUNK_FEATURES). */
typedef gpl_hist_chunk mtl_chunk;

/* Bin columns start at multiples of this (the kernels read them as 32-bit
 * words, and buffer offsets must be aligned). */
#define MTL_COLUMN_ALIGN 256u

/* The job's device buffers (metal_upload.c) and the storage of those
 * the host never reads. */
typedef struct mtl_buffers {
    gpl_mtl_storage workspace; /* storage of buffers the host never reads (tuning's) */
    /* bins: the columns the partition reads, made on the device from
     * bin_rows, the bins in rows the histograms read (as on Vulkan);
     * offsets: the feature offsets, then the chunk table. */
    gpl_mtl_buf bins, bin_rows, offsets, labels, weights, margins, grad, rows, scratch;
    gpl_mtl_buf softmax_norm; /* 16 bytes a row with several outputs (backend.h) */
    gpl_mtl_buf group_max, partial, tiles, child_counts, records, mask;
    gpl_mtl_buf categorical; /* split_eval's categorical table (gpl_cat_table_make) */
} mtl_buffers;

/* The context in parts by job, in the order every backend's has: the
 * runtime (device facts are its: gpl_mtl_context_caps), shape, buffers,
 * histogram pool, node table, tuning. */
typedef struct mtl_context {
    /* runtime and device facts */
    gpl_mtl_context *rt;
    int verbose;

    /* shape */
    gpl_shape shape;
    size_t column_bytes, row_bytes;
    uint32_t table_word; /* a level's tables after the offsets buffer's words */
    uint32_t *feature_offset;
    mtl_chunk *chunks;
    int32_t num_chunks;
    int has_weight;
    int softmax_norm_ready; /* buf.softmax_norm holds this round's */
    int uploaded;
    gpl_window_plan win;      /* windows of the per-row buffers (window.glsl) */
    uint32_t grad_dispatches; /* gradients dispatches: windows of 2^win.chunk_shift rows */
    size_t group_stride;      /* bytes of one dispatch's workgroup maxima, aligned */

    /* buffers */
    mtl_buffers buf;
    uint32_t grad_groups, partial_groups;

    /* histogram pool: a slot a node (common/hist_slots.h); slot s is slot
     * s % slots_per_page of page s / slots_per_page, as on Vulkan
     * (common/level_plan.h), so that one binding covers a page's nodes.
     * Pages are made as the pool grows and kept until the backend goes. */
    gpl_hist_slots slots;
    gpl_mtl_buf *pages; /* room for every page max_nodes slots need */
    int32_t num_pages, slots_per_page;
    size_t slot_bytes; /* one histogram, aligned */

    /* node table: the row partition's bookkeeping (host side; counts come
     * from the device) */
    gpl_node_table nodes;

    size_t estimate_bytes;

    /* tuning, read once at creation (metal_tuning.h) */
    mtl_tuning tuning;
} mtl_context;

static inline mtl_context *mtl_ctx(gpl_backend *be) { return (mtl_context *)be->ctx; }

/* Where slot s's histogram is: its page from the slot's offset. */
static inline gpl_mtl_bind mtl_slot_hist(mtl_context *c, int32_t s)
{
    gpl_mtl_bind b = {&c->pages[s / c->slots_per_page],
                      (size_t)(s % c->slots_per_page) * c->slot_bytes};
    return b;
}

/* The histogram of node, which holds a slot. */
static inline gpl_mtl_bind mtl_node_hist(mtl_context *c, int32_t node)
{
    return mtl_slot_hist(c, c->slots.node_slot[node]);
}

/* The histogram pool's geometry and the limits of the level plan
 * (common/level_plan.h): a block table entry a partial, a partial for
 * every threadgroup's worth of a node's rows, and as many chunks a
 * histogram_rows dispatch as GPL_MTL_MAX_GROUPS threadgroups allow. */
static inline gpl_plan_pool mtl_plan_pool(const mtl_context *c)
{
    gpl_plan_pool p = {c->slots_per_page, c->slot_bytes, (uint64_t)c->shape.hist_len * 16,
                       (uint64_t)c->slots_per_page * c->slot_bytes};
    return p;
}

static inline gpl_plan_limits mtl_plan_limits(const mtl_context *c)
{
    gpl_plan_limits l = {GPL_MTL_MAX_GROUPS, GPL_MTL_WG, c->partial_groups, c->partial_groups,
                         GPL_MTL_WG, c->tuning.node_partials, (uint32_t)c->num_chunks,
                         gpl_plan_chunks_per_dispatch((uint32_t)c->num_chunks,
                                                      GPL_MTL_MAX_GROUPS)};
    return l;
}

/* The row list node's rows are in: partition_place moves a split's rows
 * to the other list (node_table.h's buf). */
static inline gpl_mtl_buf *mtl_node_rows(mtl_context *c, int32_t node)
{
    return c->nodes.buf[node] ? &c->buf.scratch : &c->buf.rows;
}

/* Bindings: a whole buffer, and a per-row buffer in windows. */
static inline gpl_mtl_bind mtl_whole(gpl_mtl_buf *b)
{
    gpl_mtl_bind r = {b, 0};
    return r;
}

/* The GPL_KERNEL_WINDOWS bindings of per-row buffer b, whose windows hold
 * 2^rows_shift rows of row_bytes bytes. */
static inline void mtl_windows(gpl_mtl_buf *b, uint32_t rows_shift, size_t row_bytes,
                               gpl_mtl_bind *out)
{
    for (uint32_t w = 0; w < GPL_KERNEL_WINDOWS; w++) {
        uint64_t offset, size;
        gpl_window_range(b->bytes, ((uint64_t)1 << rows_shift) * row_bytes, w, &offset, &size);
        out[w] = (gpl_mtl_bind){b, (size_t)offset};
    }
}

/* For the hardware tests: the BufferPool's counters of a Metal backend. */
void gpl_metal_pool_stats(gpl_backend *be, gpl_mtl_pool_stats *out);

/* metal_upload.c, metal_gradients.c, metal_margins.c */
gpulayer_status mtl_upload(gpl_backend *be, const gpl_binned_matrix *m, const float *label,
                           const float *weight);
gpulayer_status mtl_compute_gradients(gpl_backend *be, const gpl_gradient_request *req,
                                      gpl_quant_scale *scale);
gpulayer_status mtl_set_margins(gpl_backend *be, const float *margins);
gpulayer_status mtl_get_margins(gpl_backend *be, float *margins);
gpulayer_status mtl_update_margins(gpl_backend *be, int32_t output, const float *leaf_value);

/* metal_hist.c */
gpulayer_status mtl_build_histograms(gpl_backend *be, const int32_t *nodes, int32_t num_nodes);
gpulayer_status mtl_subtract_histograms(gpl_backend *be, const gpl_hist_subtract *subs,
                                        int32_t count);
gpulayer_status mtl_release_histograms(gpl_backend *be, const int32_t *nodes,
                                       int32_t num_nodes);
gpulayer_status mtl_read_histogram(gpl_backend *be, int32_t node, gpl_grad_pair *out);
gpulayer_status mtl_write_pairs(gpl_backend *be, int32_t node, const gpl_grad_pair *in);
void mtl_hist_release_all(mtl_context *c);
/* The histogram pages back to the pool (when the backend goes). */
void mtl_hist_free_pages(mtl_context *c);
/* The slot pool's grow callback: one slot at a time, a new page when the
 * last one is full. */
gpulayer_status mtl_hist_grow(void *user, int32_t node, int32_t first, int32_t room,
                              int32_t *made);

/* metal_split.c, metal_partition.c */
gpulayer_status mtl_evaluate_splits(gpl_backend *be, const int32_t *nodes, int32_t num_nodes,
                                    const gpl_split_params *params,
                                    const uint8_t *feature_mask, gpl_split_record *out);
gpulayer_status mtl_partition_rows(gpl_backend *be, const gpl_split_apply *splits,
                                   int32_t count, int64_t *child_rows);
/* Every row in the root (metal_partition.c). */
gpulayer_status mtl_begin_tree(gpl_backend *be);

#endif
