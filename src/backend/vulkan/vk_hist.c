/* vk_hist.c -- node histograms: the pool of histogram slots, the two-stage
 * build (workgroup-local histograms per feature chunk, then a reduction of
 * the partials, for the nodes of a level together), subtraction, release
 * read-back, and the pairs the host writes (write_pairs). */
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "error.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "vk_context.h"

vk_range vk_hist_range(const vk_context *c, vk_hist_slot s)
{
    vk_range r = {&c->pages[s.page], (VkDeviceSize)s.index * c->slot_bytes,
                  c->shape.hist_len ? (VkDeviceSize)c->shape.hist_len * 16 : 16};
    return r;
}

gpulayer_status vk_hist_grow(void *user, int32_t node, int32_t first, int32_t room,
                             int32_t *made)
{
    vk_context *c = user;
    (void)node;
    (void)room;
    const int32_t page = first / c->slots_per_page;
    if (page == c->num_pages) {
        vk_buffer *grown = realloc(c->pages, sizeof(vk_buffer) * (size_t)(page + 1));
        if (!grown)
            return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
        c->pages = grown;
        GPL_CHECK(vk_buffer_create(c, &c->pages[page],
                                   c->slot_bytes * (VkDeviceSize)c->slots_per_page,
                                   "histogram pool"));
        c->num_pages++;
    }
    *made = 1;
    return GPULAYER_OK;
}

/* The slot of node's histogram: its own, a released one, or a new one (in
 * a new page when the last page is full). */
static gpulayer_status acquire(vk_context *c, int32_t node, vk_hist_slot *out)
{
    int32_t s;
    GPL_CHECK(gpl_hist_slots_acquire(&c->slots, "histogram", node, &s));
    *out = vk_slot_place(c, s);
    return GPULAYER_OK;
}

void vk_hist_free_pool(vk_context *c)
{
    for (int32_t i = 0; i < c->num_pages; i++) vk_buffer_destroy(c, &c->pages[i]);
    free(c->pages);
    c->pages = NULL;
    c->num_pages = 0;
}

/* The level tables in the offsets buffer, by word: a wave's blocks, its
 * nodes, a level's subtractions. */
static uint32_t blocks_word(const vk_context *c) { return c->table_word; }
static uint32_t nodes_word(const vk_context *c) { return c->table_word + 4 * c->table_blocks; }
static uint32_t subs_word(const vk_context *c) { return nodes_word(c) + 4 * c->table_blocks; }

/* The page (or run of its slots) a step binds. */
static vk_range step_range(const vk_context *c, const gpl_plan_step *s)
{
    vk_range r = {&c->pages[s->page], s->offset, s->bytes};
    return r;
}

/* Stage 1, from the bins in rows (histogram_rows.comp, on both hosts):
 * the wave's row blocks in the block table, then the plan's dispatches,
 * each over the blocks of one row list and a run of chunks. */
static gpulayer_status record_partials_rows(vk_context *c, const gpl_plan_wave_node *wave,
                                           int32_t n, gpl_hist_block *table,
                                           gpl_plan_step *steps)
{
    const gpl_plan_limits l = vk_plan_limits(c);
    uint32_t num_blocks = 0;
    const int32_t num_steps = gpl_plan_partials(&l, &c->nodes, wave, n, table, &num_blocks, steps);
    vk_update(c, &c->buf.offsets, (VkDeviceSize)blocks_word(c) * 4, table,
              sizeof *table * (VkDeviceSize)num_blocks);
    vk_barrier(c);
    vk_profile_mark(c, "histogram partials");
    /* Offsets and tables, partials, then the row list, the gradient pairs
     * and the bins in rows in windows. */
    vk_range b[GPL_MAX_KERNEL_BINDINGS];
    b[0] = vk_whole(&c->buf.offsets);
    b[1] = vk_whole(&c->buf.partial);
    vk_windows(c, &c->buf.grad, c->win.grad_shift, 16, b + 2 + GPL_KERNEL_WINDOWS);
    vk_windows(c, &c->buf.bin_rows, c->win.list_shift, 4, b + 2 + 2 * GPL_KERNEL_WINDOWS);
    for (int32_t i = 0; i < num_steps; i++) {
        const gpl_plan_step *s = &steps[i];
        vk_windows(c, s->list ? &c->buf.scratch : &c->buf.rows, c->win.list_shift, 4, b + 2);
        const gpl_histogram_rows_push p =
            gpl_plan_rows_push(s, (uint32_t)c->shape.num_features, (uint32_t)(c->row_bytes / 4),
                               c->shape.hist_len, blocks_word(c), c->code_bits);
        GPL_CHECK(vk_dispatch(c, VK_K_HISTOGRAM_ROWS, b, &p, s->groups));
    }
    return GPULAYER_OK;
}

/* Table steps of kernel k (hist_reduce_nodes, hist_subtract_nodes) over
 * the table at word table_word; b[page_binding] takes each step's page. */
static gpulayer_status dispatch_table(vk_context *c, gpl_vk_kernel k, vk_range *b,
                                      int page_binding, uint32_t table_word,
                                      const gpl_plan_step *steps, int32_t num_steps)
{
    for (int32_t i = 0; i < num_steps; i++) {
        const gpl_hist_nodes_push p = {c->shape.hist_len, steps[i].entries,
                                       table_word + 4 * steps[i].first};
        b[page_binding] = step_range(c, &steps[i]);
        GPL_CHECK(vk_dispatch(c, k, b, &p, steps[i].groups));
    }
    return GPULAYER_OK;
}

/* Stage 2 of a wave (hist_reduce_nodes.comp, on both hosts): the node
 * table written, then the plan's dispatches, one a histogram page. */
static gpulayer_status record_reductions(vk_context *c, gpl_plan_wave_node *wave, int32_t n,
                                         gpl_plan_step *steps)
{
    gpl_hist_node *table = malloc(sizeof *table * (size_t)n);
    if (!table) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
    const gpl_plan_limits l = vk_plan_limits(c);
    const gpl_plan_pool pool = vk_plan_pool(c);
    const int32_t num_steps =
        gpl_plan_reductions(&l, &pool, c->shape.hist_len, wave, n, table, steps);
    vk_update(c, &c->buf.offsets, (VkDeviceSize)nodes_word(c) * 4, table,
              sizeof *table * (VkDeviceSize)n);
    free(table);
    vk_barrier(c);
    vk_profile_mark(c, "histogram reduce");
    vk_range b[3] = {vk_whole(&c->buf.partial), {0}, vk_whole(&c->buf.offsets)};
    GPL_CHECK(dispatch_table(c, VK_K_HIST_REDUCE_NODES, b, 1, nodes_word(c), steps, num_steps));
    vk_barrier(c);
    return GPULAYER_OK;
}

/* Both stages of a wave; the barrier after them lets the next wave reuse
 * the partial buffer and the tables. */
static gpulayer_status record_wave(vk_context *c, gpl_plan_wave_node *wave, int32_t n,
                                   gpl_hist_block *table, gpl_plan_step *steps)
{
    GPL_CHECK(record_partials_rows(c, wave, n, table, steps));
    return record_reductions(c, wave, n, steps);
}

/* The nodes of a level in the plan's waves: as many row blocks as the
 * partial buffer, the block table and one dispatch hold run their first
 * stage together, then the wave's reductions. */
static gpulayer_status record_level(vk_context *c, const int32_t *nodes, int32_t num_nodes,
                                    const int32_t *slots, gpl_plan_wave_node *wave,
                                    int32_t *wave_end, gpl_hist_block *table,
                                    gpl_plan_step *steps)
{
    const gpl_plan_limits l = vk_plan_limits(c);
    const int32_t waves = gpl_plan_waves(&l, &c->nodes, nodes, slots, num_nodes, wave, wave_end);
    for (int32_t w = 0, first = 0; w < waves; first = wave_end[w++])
        GPL_CHECK(record_wave(c, wave + first, wave_end[w] - first, table, steps));
    return GPULAYER_OK;
}

gpulayer_status vk_build_histograms(gpl_backend *be, const int32_t *nodes, int32_t num_nodes)
{
    vk_context *c = vk_ctx(be);
    const size_t n = (size_t)(num_nodes > 0 ? num_nodes : 1);
    /* Steps: a wave's partials (two lists, its chunks) or reductions. */
    const size_t num_steps = 2 * (size_t)c->num_chunks > n ? 2 * (size_t)c->num_chunks : n;
    int32_t *slots = malloc(sizeof(int32_t) * n);
    int32_t *wave_end = malloc(sizeof(int32_t) * n);
    gpl_plan_wave_node *wave = malloc(sizeof(gpl_plan_wave_node) * n);
    gpl_plan_step *steps = malloc(sizeof(gpl_plan_step) * num_steps);
    gpl_hist_block *table = malloc(sizeof(gpl_hist_block) * (c->table_blocks ? c->table_blocks : 1));
    gpulayer_status st = slots && wave_end && wave && steps && table
                             ? GPULAYER_OK
                             : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                                         "vulkan backend: out of memory");
    for (int32_t i = 0; i < num_nodes && st == GPULAYER_OK; i++) {
        vk_hist_slot place;
        st = acquire(c, nodes[i], &place);
        slots[i] = gpl_hist_slot(&c->slots, nodes[i]);
    }
    if (st == GPULAYER_OK && num_nodes > 0) {
        c->level = c->nodes.depth[nodes[0]];
        st = vk_begin(c, "build_histograms");
        if (st == GPULAYER_OK)
            st = record_level(c, nodes, num_nodes, slots, wave, wave_end, table, steps);
        if (st == GPULAYER_OK) st = vk_submit_async(c);
        else vk_abandon(c);
    }
    free(slots);
    free(wave_end);
    free(wave);
    free(steps);
    free(table);
    return st;
}

/* A hist_subtract dispatch: target = parent - built, bound one by one. */
static gpulayer_status record_subtraction(vk_context *c, const gpl_hist_subtract *s)
{
    vk_range b[3] = {vk_hist_range(c, vk_node_slot(c, s->parent)),
                     vk_hist_range(c, vk_node_slot(c, s->built)),
                     vk_hist_range(c, vk_node_slot(c, s->target))};
    return vk_dispatch(c, VK_K_HIST_SUBTRACT, b, &c->shape.hist_len,
                       vk_groups_for(c, c->shape.hist_len));
}

/* The plan's subtractions: those whose three histograms share a page in
 * one hist_subtract_nodes dispatch a page, the others a hist_subtract
 * dispatch each (the Metal host records the same). */
static gpulayer_status record_subtractions(vk_context *c, const gpl_hist_subtract *subs,
                                           int32_t count, gpl_hist_subtraction *table)
{
    int32_t *slots = malloc(sizeof(int32_t) * 4 * (size_t)count);
    gpl_plan_step *steps = malloc(sizeof *steps * (size_t)count);
    if (!slots || !steps) {
        free(slots);
        free(steps);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
    }
    int32_t *apart = slots + 3 * (size_t)count;
    for (int32_t i = 0; i < count; i++) {
        slots[3 * i] = gpl_hist_slot(&c->slots, subs[i].parent);
        slots[3 * i + 1] = gpl_hist_slot(&c->slots, subs[i].built);
        slots[3 * i + 2] = gpl_hist_slot(&c->slots, subs[i].target);
    }
    const gpl_plan_limits l = vk_plan_limits(c);
    const gpl_plan_pool pool = vk_plan_pool(c);
    uint32_t entries = 0;
    int32_t num_apart = 0;
    const int32_t num_steps = gpl_plan_subtractions(&l, &pool, c->shape.hist_len, slots, count,
                                                    table, &entries, apart, &num_apart, steps);
    gpulayer_status st = GPULAYER_OK;
    for (int32_t i = 0; i < num_apart && st == GPULAYER_OK; i++)
        st = record_subtraction(c, &subs[apart[i]]);
    if (st == GPULAYER_OK && entries > 0) {
        vk_update(c, &c->buf.offsets, (VkDeviceSize)subs_word(c) * 4, table,
                  sizeof *table * (VkDeviceSize)entries);
        vk_barrier(c);
        vk_range b[2] = {{0}, vk_whole(&c->buf.offsets)};
        st = dispatch_table(c, VK_K_HIST_SUBTRACT_NODES, b, 0, subs_word(c), steps, num_steps);
    }
    free(slots);
    free(steps);
    return st;
}

gpulayer_status vk_subtract_histograms(gpl_backend *be, const gpl_hist_subtract *subs,
                                       int32_t count)
{
    vk_context *c = vk_ctx(be);
    if (count <= 0) return GPULAYER_OK;
    for (int32_t i = 0; i < count; i++) {
        GPL_CHECK(gpl_check_subtract("vulkan", &c->slots, &subs[i]));
        vk_hist_slot t;
        GPL_CHECK(acquire(c, subs[i].target, &t));
    }
    gpl_hist_subtraction *table = malloc(sizeof *table * (size_t)count);
    if (!table) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
    c->level = c->nodes.depth[subs[0].target];
    gpulayer_status st = vk_begin(c, "subtract_histograms");
    if (st == GPULAYER_OK) st = record_subtractions(c, subs, count, table);
    if (st == GPULAYER_OK) st = vk_submit_async(c);
    else vk_abandon(c);
    free(table);
    return st;
}

gpulayer_status vk_release_histograms(gpl_backend *be, const int32_t *nodes, int32_t num_nodes)
{
    vk_context *c = vk_ctx(be);
    gpl_hist_slots_release_nodes(&c->slots, nodes, num_nodes);
    return GPULAYER_OK;
}

gpulayer_status vk_read_histogram(gpl_backend *be, int32_t node, gpl_grad_pair *out)
{
    vk_context *c = vk_ctx(be);
    GPL_CHECK(gpl_check_histogram("vulkan", NULL, GPULAYER_ERR_INVALID_ARGUMENT, &c->slots,
                                  node));
    vk_range r = vk_hist_range(c, vk_node_slot(c, node));
    /* Word pairs (lo, hi) of little-endian int64: gpl_grad_pair's layout. */
    return vk_buffer_read(c, r.buf, r.offset, out, (VkDeviceSize)c->shape.hist_len * 16);
}

/* Pairs from the host replace a node's histogram, or every row's quantized
 * gradient pair (GPL_ROW_GRADIENTS): quantize.comp's layout, two
 * little-endian int64 a row, is gpl_grad_pair's. */
gpulayer_status vk_write_pairs(gpl_backend *be, int32_t node, const gpl_grad_pair *in)
{
    vk_context *c = vk_ctx(be);
    if (node == GPL_ROW_GRADIENTS) {
        const VkDeviceSize bytes = (VkDeviceSize)c->shape.num_rows * 16;
        return bytes ? vk_buffer_write(c, &c->buf.grad, 0, in, bytes) : GPULAYER_OK;
    }
    vk_hist_slot slot;
    GPL_CHECK(acquire(c, node, &slot));
    return vk_buffer_write(c, &c->pages[slot.page], (VkDeviceSize)slot.index * c->slot_bytes, in,
                           (VkDeviceSize)c->shape.hist_len * 16);
}
