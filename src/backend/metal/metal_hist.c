/* metal_hist.c -- node histograms: the two-stage build (threadgroup
 * histograms of row blocks and feature chunks from the bins in rows, then
 * a reduction of the partials, for the nodes of a level together in one
 * command buffer), subtraction, release read-back and the pairs the host
 * writes (write_pairs). Histograms live in pages of slots; the level's
 * partials, reductions and subtractions follow the plan the Vulkan host
 * follows (common/level_plan.h): a histogram_rows dispatch a wave, row
 * list and run of chunks, a hist_reduce_nodes or hist_subtract_nodes
 * dispatch a page, their tables in a buffer of the batch. */
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

/* The plan's table steps of kernel k (hist_reduce_nodes,
 * hist_subtract_nodes) over the table at word table_word of the table
 * buffer; b[page_binding] takes each step's page. */
static gpulayer_status dispatch_table(mtl_context *c, gpl_mtl_kernel k, gpl_mtl_bind *b,
                                      int page_binding, uint32_t table_word,
                                      const gpl_plan_step *steps, int32_t num_steps)
{
    for (int32_t i = 0; i < num_steps; i++) {
        const gpl_hist_nodes_push p = {c->shape.hist_len, steps[i].entries,
                                       table_word + 4 * steps[i].first};
        b[page_binding] = (gpl_mtl_bind){&c->pages[steps[i].page], (size_t)steps[i].offset};
        GPL_CHECK(gpl_mtl_dispatch(c->rt, k, b, &p, steps[i].groups));
    }
    return GPULAYER_OK;
}

/* Where a level's tables go in its table buffer, by word: the feature
 * offsets and the chunk table (the offsets buffer's, histogram_rows reads
 * them through the same binding), then each wave's block table and node
 * table in turn. */
typedef struct level_words {
    uint32_t *words;
    uint32_t next;
} level_words;

/* Stage 1 of a wave, from the bins in rows (histogram_rows), as the
 * Vulkan host issues it: the plan's block table, then a dispatch a row
 * list and run of chunks. */
static gpulayer_status record_partials(mtl_context *c, const gpl_plan_wave_node *wave,
                                       int32_t n, level_words *t, gpl_mtl_buf *table,
                                       gpl_plan_step *steps)
{
    const gpl_plan_limits l = mtl_plan_limits(c);
    const uint32_t blocks_word = t->next;
    uint32_t num_blocks = 0;
    const int32_t num_steps = gpl_plan_partials(&l, &c->nodes, wave, n,
                                                (gpl_hist_block *)(t->words + blocks_word),
                                                &num_blocks, steps);
    t->next += 4 * num_blocks;
    /* Offsets and tables, partials, then the row list, the gradient pairs
     * and the bins in rows in windows (histogram_rows.comp). */
    gpl_mtl_bind b[GPL_HISTOGRAM_ROWS_BINDINGS] = {mtl_whole(table), mtl_whole(&c->buf.partial)};
    mtl_windows(&c->buf.grad, c->win.grad_shift, 16, b + 2 + GPL_KERNEL_WINDOWS);
    mtl_windows(&c->buf.bin_rows, c->win.list_shift, 4, b + 2 + 2 * GPL_KERNEL_WINDOWS);
    for (int32_t i = 0; i < num_steps; i++) {
        const gpl_plan_step *s = &steps[i];
        mtl_windows(s->list ? &c->buf.scratch : &c->buf.rows, c->win.list_shift, 4, b + 2);
        const gpl_histogram_rows_push p =
            gpl_plan_rows_push(s, (uint32_t)c->shape.num_features, (uint32_t)(c->row_bytes / 4),
                               c->shape.hist_len, blocks_word, gpl_code_bits(1));
        GPL_CHECK(gpl_mtl_dispatch(c->rt, MTL_K_HISTOGRAM_ROWS, b, &p, s->groups));
    }
    return GPULAYER_OK;
}

/* Both stages of a wave: its partials, then its node table and a
 * hist_reduce_nodes dispatch a page; the barrier after them lets the next
 * wave reuse the partial buffer. */
static gpulayer_status record_wave(mtl_context *c, gpl_plan_wave_node *wave, int32_t n,
                                   level_words *t, gpl_mtl_buf *table, gpl_plan_step *steps)
{
    GPL_CHECK(record_partials(c, wave, n, t, table, steps));
    gpl_mtl_barrier(c->rt);
    const gpl_plan_limits l = mtl_plan_limits(c);
    const gpl_plan_pool pool = mtl_plan_pool(c);
    const uint32_t nodes_word = t->next;
    const int32_t num_steps =
        gpl_plan_reductions(&l, &pool, c->shape.hist_len, wave, n,
                            (gpl_hist_node *)(t->words + nodes_word), steps);
    t->next += 4 * (uint32_t)n;
    gpl_mtl_bind b[3] = {mtl_whole(&c->buf.partial), {0}, mtl_whole(table)};
    GPL_CHECK(dispatch_table(c, MTL_K_HIST_REDUCE_NODES, b, 1, nodes_word, steps, num_steps));
    gpl_mtl_barrier(c->rt);
    return GPULAYER_OK;
}

/* The level's waves into the open batch; the tables are written into
 * the table buffer as they are planned (shared memory, read once the
 * batch is committed). */
static gpulayer_status record_level(mtl_context *c, gpl_plan_wave_node *wave,
                                    const int32_t *wave_end, int32_t num_waves,
                                    gpl_mtl_buf *table, gpl_plan_step *steps)
{
    level_words t = {table->contents, c->table_word};
    memcpy(t.words, c->buf.offsets.contents, (size_t)c->table_word * 4);
    for (int32_t w = 0, first = 0; w < num_waves; first = wave_end[w++])
        GPL_CHECK(record_wave(c, wave + first, wave_end[w] - first, &t, table, steps));
    return GPULAYER_OK;
}

gpulayer_status mtl_build_histograms(gpl_backend *be, const int32_t *nodes, int32_t num_nodes)
{
    mtl_context *c = mtl_ctx(be);
    if (num_nodes <= 0) return GPULAYER_OK;
    GPL_CHECK(gpl_mtl_context_status(c->rt));
    for (int32_t i = 0; i < num_nodes; i++) GPL_CHECK(acquire(c, nodes[i], "build_histograms"));
    const size_t n = (size_t)num_nodes;
    /* Steps: a wave's partials (two lists, its chunks) or reductions. */
    const size_t num_steps = 2 * (size_t)c->num_chunks > n ? 2 * (size_t)c->num_chunks : n;
    int32_t *ints = malloc(sizeof(int32_t) * 2 * n);
    gpl_plan_wave_node *wave = malloc(sizeof *wave * n);
    gpl_plan_step *steps = malloc(sizeof *steps * num_steps);
    gpulayer_status st = ints && wave && steps
                             ? GPULAYER_OK
                             : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                                         "metal backend: out of memory");
    gpl_mtl_buf table = {0};
    if (st == GPULAYER_OK) {
        int32_t *slots = ints, *wave_end = ints + n;
        for (int32_t i = 0; i < num_nodes; i++) slots[i] = gpl_hist_slot(&c->slots, nodes[i]);
        const gpl_plan_limits l = mtl_plan_limits(c);
        const int32_t num_waves =
            gpl_plan_waves(&l, &c->nodes, nodes, slots, num_nodes, wave, wave_end);
        /* A block table entry a partial, a node table entry a node. */
        size_t entries = n;
        for (int32_t i = 0; i < num_nodes; i++) entries += wave[i].groups;
        st = gpl_mtl_buf_acquire(c->rt, &table, ((size_t)c->table_word + 4 * entries) * 4,
                                 GPL_MTL_SHARED, "histogram level tables");
        if (st == GPULAYER_OK)
            st = gpl_mtl_begin(c->rt, "build_histograms", c->nodes.depth[nodes[0]]);
        if (st == GPULAYER_OK) {
            st = record_level(c, wave, wave_end, num_waves, &table, steps);
            if (st == GPULAYER_OK) st = gpl_mtl_commit(c->rt, 0);
            else gpl_mtl_abandon(c->rt);
        }
    }
    gpl_mtl_buf_release(c->rt, &table);
    free(ints);
    free(wave);
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
    return dispatch_table(c, MTL_K_HIST_SUBTRACT_NODES, b, 0, 0, steps, num_steps);
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
