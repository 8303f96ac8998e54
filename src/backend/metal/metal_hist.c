/* metal_hist.c -- node histograms: the two-stage build (threadgroup
 * histograms per feature chunk, then a reduction of the partials, for the
 * nodes of a level together in one command buffer), subtraction, release
 * read-back and the pairs the host writes (write_pairs). Each node's histogram is a pool buffer; a released one
 * returns to the pool once the batches that used it have completed. */
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "error.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "metal_context.h"

static size_t hist_bytes(const mtl_context *c)
{
    return c->shape.hist_len ? (size_t)c->shape.hist_len * 16 : 16;
}

/* Histograms are in shared storage: read_histogram and the tests read
 * them in place. */
static gpulayer_status acquire(mtl_context *c, int32_t node, const char *op)
{
    int32_t s;
    GPL_CHECK(gpl_hist_slots_acquire(&c->slots, op, node, &s));
    if (c->hist[s].block.handle) return GPULAYER_OK;
    return gpl_mtl_buf_acquire(c->rt, &c->hist[s], hist_bytes(c), GPL_MTL_SHARED,
                               "node histogram");
}

gpulayer_status mtl_hist_grow(void *user, int32_t node, int32_t first, int32_t room,
                              int32_t *made)
{
    (void)user;
    (void)node;
    (void)first;
    (void)room;
    *made = 1;
    return GPULAYER_OK;
}

/* Node's buffer back to the pool, and its slot to the free slots. */
static void release(mtl_context *c, int32_t node)
{
    const int32_t s = gpl_hist_slot(&c->slots, node);
    if (s < 0) return;
    gpl_mtl_buf_release(c->rt, &c->hist[s]);
    gpl_hist_slots_release(&c->slots, node);
}

void mtl_hist_release_all(mtl_context *c)
{
    for (int32_t n = 0; n < c->shape.max_nodes; n++) release(c, n);
}



typedef struct wave_node {
    int32_t node;
    uint32_t partial_first, groups;
} wave_node;

static uint32_t live_rows(const mtl_context *c, int32_t node)
{
    return gpl_node_live_rows(&c->nodes, node);
}

static gpulayer_status record_partials(mtl_context *c, const wave_node *w)
{
    for (int32_t k = 0; k < c->num_chunks; k++) {
        const mtl_chunk *ch = &c->chunks[k];
        gpl_histogram_push p = {(uint32_t)c->nodes.begin[w->node], live_rows(c, w->node),
                                ch->feature_first, ch->feature_count, ch->bin_first,
                                ch->bin_count, (uint32_t)c->column_bytes, c->shape.hist_len,
                                w->partial_first};
        /* bins, offsets, partials, then the row list and the gradient
         * pairs in windows (histogram.comp). */
        gpl_mtl_bind b[GPL_HISTOGRAM_BINDINGS] = {
            {&c->buf.bins, (size_t)ch->feature_first * c->column_bytes},
            mtl_whole(&c->buf.offsets), mtl_whole(&c->buf.partial)};
        mtl_windows(&c->buf.rows, c->win.list_shift, 4, b + 3);
        mtl_windows(&c->buf.grad, c->win.grad_shift, 16, b + 3 + GPL_KERNEL_WINDOWS);
        GPL_CHECK(gpl_mtl_dispatch(c->rt, MTL_K_HISTOGRAM, b, &p, w->groups));
    }
    return GPULAYER_OK;
}

static gpulayer_status record_reductions(mtl_context *c, const wave_node *wave, int32_t n)
{
    gpl_mtl_barrier(c->rt);
    for (int32_t i = 0; i < n; i++) {
        gpl_reduce_push rp = {c->shape.hist_len, wave[i].groups, wave[i].partial_first};
        gpl_mtl_bind rb[2] = {mtl_whole(&c->buf.partial), mtl_whole(mtl_node_hist(c, wave[i].node))};
        GPL_CHECK(gpl_mtl_dispatch(c->rt, MTL_K_HIST_REDUCE, rb, &rp,
                                   gpl_reduce_groups(c->shape.hist_len, UINT32_MAX)));
    }
    gpl_mtl_barrier(c->rt);
    return GPULAYER_OK;
}

/* The nodes of a level go in waves that fit the partial buffer: their
 * first stages run together, then the wave's reductions. */
static gpulayer_status record_level(mtl_context *c, const int32_t *nodes, int32_t num_nodes,
                                    wave_node *wave)
{
    int32_t in_wave = 0;
    uint32_t used = 0;
    for (int32_t i = 0; i < num_nodes; i++) {
        uint32_t groups = gpl_mtl_groups_for(c->rt, live_rows(c, nodes[i]));
        if (groups > c->tuning.node_partials) groups = c->tuning.node_partials;
        if (groups > c->partial_groups) groups = c->partial_groups;
        if (used + groups > c->partial_groups) {
            GPL_CHECK(record_reductions(c, wave, in_wave));
            in_wave = 0;
            used = 0;
        }
        wave[in_wave] = (wave_node){nodes[i], used, groups};
        used += groups;
        GPL_CHECK(record_partials(c, &wave[in_wave]));
        in_wave++;
    }
    return record_reductions(c, wave, in_wave);
}

gpulayer_status mtl_build_histograms(gpl_backend *be, const int32_t *nodes, int32_t num_nodes)
{
    mtl_context *c = mtl_ctx(be);
    if (num_nodes <= 0) return GPULAYER_OK;
    GPL_CHECK(gpl_mtl_context_status(c->rt));
    for (int32_t i = 0; i < num_nodes; i++) GPL_CHECK(acquire(c, nodes[i], "build_histograms"));
    wave_node *wave = malloc(sizeof(wave_node) * (size_t)num_nodes);
    if (!wave) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "metal backend: out of memory");
    gpulayer_status st = gpl_mtl_begin(c->rt, "build_histograms", c->nodes.depth[nodes[0]]);
    if (st == GPULAYER_OK) st = record_level(c, nodes, num_nodes, wave);
    if (st == GPULAYER_OK) st = gpl_mtl_commit(c->rt, 0);
    else gpl_mtl_abandon(c->rt);
    free(wave);
    return st;
}

gpulayer_status mtl_subtract_histograms(gpl_backend *be, const gpl_hist_subtract *subs,
                                        int32_t count)
{
    mtl_context *c = mtl_ctx(be);
    if (count <= 0) return GPULAYER_OK;
    GPL_CHECK(gpl_mtl_context_status(c->rt));
    for (int32_t i = 0; i < count; i++) {
        GPL_CHECK(gpl_check_subtract("metal", &c->slots, &subs[i]));
        GPL_CHECK(acquire(c, subs[i].target, "subtract_histograms"));
    }
    GPL_CHECK(gpl_mtl_begin(c->rt, "subtract_histograms", c->nodes.depth[subs[0].target]));
    for (int32_t i = 0; i < count; i++) {
        gpl_mtl_bind b[3] = {mtl_whole(mtl_node_hist(c, subs[i].parent)),
                             mtl_whole(mtl_node_hist(c, subs[i].built)),
                             mtl_whole(mtl_node_hist(c, subs[i].target))};
        GPL_CHECK(gpl_mtl_dispatch(c->rt, MTL_K_HIST_SUBTRACT, b, &c->shape.hist_len,
                                   gpl_mtl_groups_for(c->rt, c->shape.hist_len)));
    }
    return gpl_mtl_commit(c->rt, 0);
}

gpulayer_status mtl_release_histograms(gpl_backend *be, const int32_t *nodes, int32_t num_nodes)
{
    mtl_context *c = mtl_ctx(be);
    for (int32_t i = 0; i < num_nodes; i++) release(c, nodes[i]);
    return GPULAYER_OK;
}

gpulayer_status mtl_read_histogram(gpl_backend *be, int32_t node, gpl_grad_pair *out)
{
    mtl_context *c = mtl_ctx(be);
    GPL_CHECK(gpl_check_histogram("metal", NULL, GPULAYER_ERR_INVALID_ARGUMENT, &c->slots, node));
    GPL_CHECK(gpl_mtl_context_status(c->rt));
    /* Word pairs (lo, hi) of little-endian int64: gpl_grad_pair's layout. */
    return gpl_mtl_buf_read(c->rt, mtl_node_hist(c, node), 0, out, (size_t)c->shape.hist_len * 16);
}

/* Private storage (the workspace tuning) has no host view: the pairs go
 * through a shared buffer and a copy on the device. */
static gpulayer_status write_row_gradients(mtl_context *c, const gpl_grad_pair *in)
{
    const size_t bytes = (size_t)c->shape.num_rows * 16;
    if (bytes == 0) return GPULAYER_OK;
    if (c->buf.grad.contents) return gpl_mtl_buf_write(c->rt, &c->buf.grad, 0, in, bytes);
    gpl_mtl_buf host;
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &host, bytes, GPL_MTL_SHARED, "gradient pairs"));
    gpulayer_status st = gpl_mtl_buf_write(c->rt, &host, 0, in, bytes);
    if (st == GPULAYER_OK) st = gpl_mtl_begin(c->rt, "write_pairs", -1);
    if (st == GPULAYER_OK) {
        st = gpl_mtl_copy(c->rt, &host, 0, &c->buf.grad, 0, bytes);
        if (st == GPULAYER_OK) st = gpl_mtl_commit(c->rt, 1);
        else gpl_mtl_abandon(c->rt);
    }
    gpl_mtl_buf_release(c->rt, &host);
    return st;
}

/* Pairs from the host replace a node's histogram, or every row's quantized
 * gradient pair (GPL_ROW_GRADIENTS): quantize.comp's layout, two
 * little-endian int64 a row, is gpl_grad_pair's. */
gpulayer_status mtl_write_pairs(gpl_backend *be, int32_t node, const gpl_grad_pair *in)
{
    mtl_context *c = mtl_ctx(be);
    GPL_CHECK(gpl_mtl_context_status(c->rt));
    if (node == GPL_ROW_GRADIENTS) return write_row_gradients(c, in);
    GPL_CHECK(acquire(c, node, "write_pairs"));
    return gpl_mtl_buf_write(c->rt, mtl_node_hist(c, node), 0, in,
                             (size_t)c->shape.hist_len * 16);
}
