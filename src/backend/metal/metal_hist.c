/* metal_hist.c -- node histograms: the two-stage build (threadgroup
 * histograms per feature chunk, then a reduction of the partials, for the
 * nodes of a level together in one command buffer), subtraction, release
 * read-back and the pairs the host writes (write_pairs). Histograms live
 * in pages of slots; the level's reductions and subtractions follow the
 * plan the Vulkan host follows (common/level_plan.h): a hist_reduce_nodes
 * or hist_subtract_nodes dispatch a page, their tables in a buffer of the
 * batch. */
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "error.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "metal_context.h"

/* Histograms are in shared storage: read_histogram and the tests read
 * them in place. */
static gpulayer_status acquire(mtl_context *c, int32_t node, const char *op)
{
    int32_t s;
    return gpl_hist_slots_acquire(&c->slots, op, node, &s);
}

gpulayer_status mtl_hist_grow(void *user, int32_t node, int32_t first, int32_t room,
                              int32_t *made)
{
    mtl_context *c = user;
    (void)node;
    (void)room;
    const int32_t page = first / c->slots_per_page;
    if (page == c->num_pages) {
        GPL_CHECK(gpl_mtl_buf_acquire(c->rt, &c->pages[page],
                                      c->slot_bytes * (size_t)c->slots_per_page, GPL_MTL_SHARED,
                                      "histogram page"));
        c->num_pages++;
    }
    *made = 1;
    return GPULAYER_OK;
}

void mtl_hist_release_all(mtl_context *c)
{
    gpl_hist_slots_release_all(&c->slots);
}

void mtl_hist_free_pages(mtl_context *c)
{
    gpl_hist_slots_release_all(&c->slots);
    for (int32_t i = 0; i < c->num_pages; i++) gpl_mtl_buf_release(c->rt, &c->pages[i]);
    c->num_pages = 0;
}

/* A buffer of the batch for a level table of `bytes` bytes, written now:
 * fresh from the pool, so no batch in flight reads it; released after
 * the commit, it returns to the pool when the batch has completed. */
static gpulayer_status table_buffer(mtl_context *c, gpl_mtl_buf *b, const void *table,
                                    size_t bytes, const char *what)
{
    GPL_CHECK(gpl_mtl_buf_acquire(c->rt, b, bytes ? bytes : 16, GPL_MTL_SHARED, what));
    if (bytes) memcpy(b->contents, table, bytes);
    return GPULAYER_OK;
}

/* The plan's table steps of kernel k over the table buffer; b[page_binding]
 * takes each step's page. */
static gpulayer_status dispatch_table(mtl_context *c, gpl_mtl_kernel k, gpl_mtl_bind *b,
                                      int page_binding, const gpl_plan_step *steps,
                                      int32_t num_steps)
{
    for (int32_t i = 0; i < num_steps; i++) {
        const gpl_hist_nodes_push p = {c->shape.hist_len, steps[i].entries,
                                       4 * steps[i].first};
        b[page_binding] = (gpl_mtl_bind){&c->pages[steps[i].page], (size_t)steps[i].offset};
        GPL_CHECK(gpl_mtl_dispatch(c->rt, k, b, &p, steps[i].groups));
    }
    return GPULAYER_OK;
}

static gpulayer_status record_partials(mtl_context *c, const gpl_plan_wave_node *w)
{
    for (int32_t k = 0; k < c->num_chunks; k++) {
        const mtl_chunk *ch = &c->chunks[k];
        gpl_histogram_push p = {(uint32_t)c->nodes.begin[w->node],
                                gpl_node_live_rows(&c->nodes, w->node), ch->feature_first,
                                ch->feature_count, ch->bin_first, ch->bin_count,
                                (uint32_t)c->column_bytes, c->shape.hist_len, w->partial_first};
        /* bins, offsets, partials, then the row list and the gradient
         * pairs in windows (histogram.comp). */
        gpl_mtl_bind b[GPL_HISTOGRAM_BINDINGS] = {
            {&c->buf.bins, (size_t)ch->feature_first * c->column_bytes},
            mtl_whole(&c->buf.offsets), mtl_whole(&c->buf.partial)};
        mtl_windows(mtl_node_rows(c, w->node), c->win.list_shift, 4, b + 3);
        mtl_windows(&c->buf.grad, c->win.grad_shift, 16, b + 3 + GPL_KERNEL_WINDOWS);
        GPL_CHECK(gpl_mtl_dispatch(c->rt, MTL_K_HISTOGRAM, b, &p, w->groups));
    }
    return GPULAYER_OK;
}

/* The level's plan: its waves, then each wave's node table (at the
 * wave's first node in the level's table) and reduction steps (their
 * first entries made the level table's). Returns the steps. */
static int32_t plan_level(mtl_context *c, const int32_t *nodes, const int32_t *slots,
                          int32_t num_nodes, gpl_plan_wave_node *wave, int32_t *wave_end,
                          int32_t *num_waves, gpl_hist_node *table, gpl_plan_step *steps,
                          int32_t *steps_end)
{
    const gpl_plan_limits l = mtl_plan_limits(c);
    const gpl_plan_pool pool = mtl_plan_pool(c);
    *num_waves = gpl_plan_waves(&l, &c->nodes, nodes, slots, num_nodes, wave, wave_end);
    int32_t s = 0;
    for (int32_t w = 0, first = 0; w < *num_waves; first = wave_end[w++]) {
        const int32_t n = gpl_plan_reductions(&l, &pool, c->shape.hist_len, wave + first,
                                              wave_end[w] - first, table + first, steps + s);
        for (int32_t i = s; i < s + n; i++) steps[i].first += (uint32_t)first;
        s += n;
        steps_end[w] = s;
    }
    return s;
}

/* Each wave: the partials of its nodes, then its reductions, a
 * hist_reduce_nodes dispatch a page; the barrier after them lets the next
 * wave reuse the partial buffer. */
static gpulayer_status record_level(mtl_context *c, const gpl_plan_wave_node *wave,
                                    const int32_t *wave_end, int32_t num_waves,
                                    const gpl_plan_step *steps, const int32_t *steps_end,
                                    gpl_mtl_buf *table)
{
    for (int32_t w = 0, first = 0, s = 0; w < num_waves; first = wave_end[w], s = steps_end[w++]) {
        for (int32_t i = first; i < wave_end[w]; i++) GPL_CHECK(record_partials(c, &wave[i]));
        gpl_mtl_barrier(c->rt);
        gpl_mtl_bind b[3] = {mtl_whole(&c->buf.partial), {0}, mtl_whole(table)};
        GPL_CHECK(dispatch_table(c, MTL_K_HIST_REDUCE_NODES, b, 1, steps + s, steps_end[w] - s));
        gpl_mtl_barrier(c->rt);
    }
    return GPULAYER_OK;
}

gpulayer_status mtl_build_histograms(gpl_backend *be, const int32_t *nodes, int32_t num_nodes)
{
    mtl_context *c = mtl_ctx(be);
    if (num_nodes <= 0) return GPULAYER_OK;
    GPL_CHECK(gpl_mtl_context_status(c->rt));
    for (int32_t i = 0; i < num_nodes; i++) GPL_CHECK(acquire(c, nodes[i], "build_histograms"));
    const size_t n = (size_t)num_nodes;
    int32_t *ints = malloc(sizeof(int32_t) * 3 * n);
    gpl_plan_wave_node *wave = malloc(sizeof *wave * n);
    gpl_hist_node *nodes_table = malloc(sizeof *nodes_table * n);
    gpl_plan_step *steps = malloc(sizeof *steps * n);
    gpulayer_status st = ints && wave && nodes_table && steps
                             ? GPULAYER_OK
                             : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                                         "metal backend: out of memory");
    gpl_mtl_buf table = {0};
    if (st == GPULAYER_OK) {
        int32_t *slots = ints, *wave_end = ints + n, *steps_end = ints + 2 * n;
        for (int32_t i = 0; i < num_nodes; i++) slots[i] = gpl_hist_slot(&c->slots, nodes[i]);
        int32_t num_waves = 0;
        plan_level(c, nodes, slots, num_nodes, wave, wave_end, &num_waves, nodes_table, steps,
                   steps_end);
        st = table_buffer(c, &table, nodes_table, sizeof *nodes_table * n, "histogram node table");
        if (st == GPULAYER_OK)
            st = gpl_mtl_begin(c->rt, "build_histograms", c->nodes.depth[nodes[0]]);
        if (st == GPULAYER_OK) {
            st = record_level(c, wave, wave_end, num_waves, steps, steps_end, &table);
            if (st == GPULAYER_OK) st = gpl_mtl_commit(c->rt, 0);
            else gpl_mtl_abandon(c->rt);
        }
    }
    gpl_mtl_buf_release(c->rt, &table);
    free(ints);
    free(wave);
    free(nodes_table);
    free(steps);
    return st;
}

/* The plan's subtractions: those whose three histograms share a page in a
 * hist_subtract_nodes dispatch a page, the others a hist_subtract
 * dispatch each. */
static gpulayer_status record_subtractions(mtl_context *c, const gpl_hist_subtract *subs,
                                           const int32_t *apart, int32_t num_apart,
                                           const gpl_plan_step *steps, int32_t num_steps,
                                           gpl_mtl_buf *table)
{
    for (int32_t i = 0; i < num_apart; i++) {
        const gpl_hist_subtract *s = &subs[apart[i]];
        gpl_mtl_bind b[3] = {mtl_node_hist(c, s->parent), mtl_node_hist(c, s->built),
                             mtl_node_hist(c, s->target)};
        GPL_CHECK(gpl_mtl_dispatch(c->rt, MTL_K_HIST_SUBTRACT, b, &c->shape.hist_len,
                                   gpl_mtl_groups_for(c->rt, c->shape.hist_len)));
    }
    if (num_steps == 0) return GPULAYER_OK;
    gpl_mtl_barrier(c->rt);
    gpl_mtl_bind b[2] = {{0}, mtl_whole(table)};
    return dispatch_table(c, MTL_K_HIST_SUBTRACT_NODES, b, 0, steps, num_steps);
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
    const size_t n = (size_t)count;
    int32_t *ints = malloc(sizeof(int32_t) * 4 * n);
    gpl_hist_subtraction *subs_table = malloc(sizeof *subs_table * n);
    gpl_plan_step *steps = malloc(sizeof *steps * n);
    gpulayer_status st = ints && subs_table && steps
                             ? GPULAYER_OK
                             : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                                         "metal backend: out of memory");
    gpl_mtl_buf table = {0};
    if (st == GPULAYER_OK) {
        int32_t *slots = ints, *apart = ints + 3 * n;
        for (int32_t i = 0; i < count; i++) {
            slots[3 * i] = gpl_hist_slot(&c->slots, subs[i].parent);
            slots[3 * i + 1] = gpl_hist_slot(&c->slots, subs[i].built);
            slots[3 * i + 2] = gpl_hist_slot(&c->slots, subs[i].target);
        }
        const gpl_plan_limits l = mtl_plan_limits(c);
        const gpl_plan_pool pool = mtl_plan_pool(c);
        uint32_t entries = 0;
        int32_t num_apart = 0;
        const int32_t num_steps = gpl_plan_subtractions(&l, &pool, c->shape.hist_len, slots,
                                                        count, subs_table, &entries, apart,
                                                        &num_apart, steps);
        st = table_buffer(c, &table, subs_table, sizeof *subs_table * entries,
                          "histogram subtraction table");
        if (st == GPULAYER_OK)
            st = gpl_mtl_begin(c->rt, "subtract_histograms", c->nodes.depth[subs[0].target]);
        if (st == GPULAYER_OK) {
            st = record_subtractions(c, subs, apart, num_apart, steps, num_steps, &table);
            if (st == GPULAYER_OK) st = gpl_mtl_commit(c->rt, 0);
            else gpl_mtl_abandon(c->rt);
        }
    }
    gpl_mtl_buf_release(c->rt, &table);
    free(ints);
    free(subs_table);
    free(steps);
    return st;
}

gpulayer_status mtl_release_histograms(gpl_backend *be, const int32_t *nodes, int32_t num_nodes)
{
    mtl_context *c = mtl_ctx(be);
    gpl_hist_slots_release_nodes(&c->slots, nodes, num_nodes);
    return GPULAYER_OK;
}

gpulayer_status mtl_read_histogram(gpl_backend *be, int32_t node, gpl_grad_pair *out)
{
    mtl_context *c = mtl_ctx(be);
    GPL_CHECK(gpl_check_histogram("metal", NULL, GPULAYER_ERR_INVALID_ARGUMENT, &c->slots, node));
    GPL_CHECK(gpl_mtl_context_status(c->rt));
    /* Word pairs (lo, hi) of little-endian int64: gpl_grad_pair's layout. */
    const gpl_mtl_bind h = mtl_node_hist(c, node);
    return gpl_mtl_buf_read(c->rt, h.buf, h.offset, out, (size_t)c->shape.hist_len * 16);
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
    const gpl_mtl_bind h = mtl_node_hist(c, node);
    return gpl_mtl_buf_write(c->rt, h.buf, h.offset, in, (size_t)c->shape.hist_len * 16);
}
