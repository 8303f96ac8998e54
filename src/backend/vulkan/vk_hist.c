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

/* A node of the wave being recorded: where its partials are. */
typedef struct wave_node {
    int32_t node;
    vk_hist_slot slot;
    uint32_t partial_first, groups;
} wave_node;

/* Chunks a histogram_rows dispatch covers: all of them, as the workgroup
 * count allows (record_level keeps a wave's blocks times this within it). */
static uint32_t chunks_per_dispatch(const vk_context *c)
{
    return (uint32_t)c->num_chunks < c->dev.max_groups ? (uint32_t)c->num_chunks : c->dev.max_groups;
}

static uint32_t live_rows(const vk_context *c, int32_t node)
{
    return gpl_node_live_rows(&c->nodes, node);
}

/* The level tables in the offsets buffer, by word: a wave's blocks, its
 * nodes, a level's subtractions. */
static uint32_t blocks_word(const vk_context *c) { return c->table_word; }
static uint32_t nodes_word(const vk_context *c) { return c->table_word + 4 * c->table_blocks; }
static uint32_t subs_word(const vk_context *c) { return nodes_word(c) + 4 * c->table_blocks; }

/* A page's slots from the first as one binding (a page is at most one). */
static vk_range page_range(const vk_context *c, int32_t page)
{
    vk_range r = {&c->pages[page], 0,
                  (VkDeviceSize)(c->slots_per_page - 1) * c->slot_bytes +
                      (VkDeviceSize)c->shape.hist_len * 16};
    return r;
}

/* A histogram's first element (16 bytes) in its page's binding. */
static uint32_t slot_element(const vk_context *c, vk_hist_slot s)
{
    return (uint32_t)((VkDeviceSize)s.index * c->slot_bytes / 16);
}

/* Stage 1, from the bins in rows (histogram_rows.comp): the wave's row
 * blocks in the block table, those of each row list in one dispatch (a
 * level's nodes are in one list, as the partition leaves them; the table
 * does not rely on it). */
static gpulayer_status record_partials_rows(vk_context *c, const wave_node *wave, int32_t n,
                                           gpl_hist_block *table)
{
    uint32_t first[3] = {0, 0, 0};
    for (int list = 0; list < 2; list++) {
        uint32_t k = first[list];
        for (int32_t i = 0; i < n; i++) {
            const wave_node *w = &wave[i];
            if (c->nodes.buf[w->node] != list) continue;
            for (uint32_t b = 0; b < w->groups; b++)
                table[k++] = (gpl_hist_block){(uint32_t)c->nodes.begin[w->node],
                                              live_rows(c, w->node), b | w->groups << 16,
                                              w->partial_first + b};
        }
        first[list + 1] = k;
    }
    vk_update(c, &c->buf.offsets, (VkDeviceSize)blocks_word(c) * 4, table,
              sizeof *table * (VkDeviceSize)first[2]);
    vk_barrier(c);
    vk_profile_mark(c, "histogram partials");
    /* Offsets and tables, partials, then the row list, the gradient pairs
     * and the bins in rows in windows. */
    vk_range b[GPL_MAX_KERNEL_BINDINGS];
    b[0] = vk_whole(&c->buf.offsets);
    b[1] = vk_whole(&c->buf.partial);
    vk_windows(c, &c->buf.grad, c->win.grad_shift, 16, b + 2 + GPL_KERNEL_WINDOWS);
    vk_windows(c, &c->buf.bin_rows, c->win.list_shift, 4, b + 2 + 2 * GPL_KERNEL_WINDOWS);
    const uint32_t per = chunks_per_dispatch(c);
    for (int list = 0; list < 2; list++) {
        const uint32_t blocks = first[list + 1] - first[list];
        if (blocks == 0) continue;
        vk_windows(c, list ? &c->buf.scratch : &c->buf.rows, c->win.list_shift, 4, b + 2);
        for (uint32_t k = 0; k < (uint32_t)c->num_chunks; k += per) {
            const uint32_t chunks = (uint32_t)c->num_chunks - k < per
                                        ? (uint32_t)c->num_chunks - k : per;
            const gpl_histogram_rows_push p = {
                chunks, (uint32_t)c->shape.num_features + 1 + 4 * k, (uint32_t)(c->row_bytes / 4),
                c->shape.hist_len, blocks_word(c) + 4 * first[list]};
            GPL_CHECK(vk_dispatch(c, VK_K_HISTOGRAM_ROWS, b, &p, blocks * chunks));
        }
    }
    return GPULAYER_OK;
}

/* Stage 1 from the bin columns (histogram.comp, as the Metal host builds
 * it): a dispatch a node and chunk. */
static gpulayer_status record_partials_columns(vk_context *c, const wave_node *w)
{
    vk_range b[GPL_MAX_KERNEL_BINDINGS];
    for (int32_t k = 0; k < c->num_chunks; k++) {
        const vk_chunk *ch = &c->chunks[k];
        gpl_histogram_push p = {(uint32_t)c->nodes.begin[w->node], live_rows(c, w->node),
                                ch->feature_first, ch->feature_count, ch->bin_first,
                                ch->bin_count, (uint32_t)c->column_bytes, c->shape.hist_len,
                                w->partial_first};
        /* The chunk's columns, offsets, partials, then the row list and
         * the gradient pairs in windows (histogram.comp). */
        b[0] = (vk_range){&c->buf.bins, (VkDeviceSize)ch->feature_first * c->column_bytes,
                          (VkDeviceSize)ch->feature_count * c->column_bytes};
        b[1] = vk_whole(&c->buf.offsets);
        b[2] = vk_whole(&c->buf.partial);
        vk_windows(c, vk_node_rows(c, w->node), c->win.list_shift, 4, b + 3);
        vk_windows(c, &c->buf.grad, c->win.grad_shift, 16, b + 3 + GPL_KERNEL_WINDOWS);
        GPL_CHECK(vk_dispatch(c, VK_K_HISTOGRAM, b, &p, w->groups));
    }
    return GPULAYER_OK;
}

/* Entries first .. first + entries - 1 of the table at word table_word
 * (4 words an entry), each `blocks` work items of kernel k
 * (hist_reduce_nodes, hist_subtract_nodes): in dispatches whose items stay
 * within 32 bits. */
static gpulayer_status dispatch_table(vk_context *c, gpl_vk_kernel k, const vk_range *b,
                                      uint32_t table_word, int32_t first, int32_t entries,
                                      uint32_t blocks)
{
    const uint32_t most = blocks ? UINT32_MAX / blocks : UINT32_MAX;
    for (uint32_t i = (uint32_t)first, left = (uint32_t)entries; left > 0;) {
        const uint32_t n = left < most ? left : most;
        const gpl_hist_nodes_push p = {c->shape.hist_len, n, table_word + 4 * i};
        const uint64_t items = (uint64_t)n * blocks;
        GPL_CHECK(vk_dispatch(c, k, b, &p,
                              items < c->dev.max_groups ? (uint32_t)items : c->dev.max_groups));
        i += n;
        left -= n;
    }
    return GPULAYER_OK;
}

static int by_page(const void *a, const void *b)
{
    const wave_node *x = a, *y = b;
    return (x->slot.page > y->slot.page) - (x->slot.page < y->slot.page);
}

/* Stage 2 of a wave (hist_reduce_nodes.comp): the node table written,
 * then a dispatch for the nodes of each histogram page. */
static gpulayer_status record_reductions(vk_context *c, wave_node *wave, int32_t n)
{
    qsort(wave, (size_t)n, sizeof *wave, by_page);
    gpl_hist_node *table = malloc(sizeof *table * (size_t)n);
    if (!table) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
    for (int32_t i = 0; i < n; i++)
        table[i] = (gpl_hist_node){wave[i].partial_first, wave[i].groups,
                                   slot_element(c, wave[i].slot), 0};
    vk_update(c, &c->buf.offsets, (VkDeviceSize)nodes_word(c) * 4, table,
              sizeof *table * (VkDeviceSize)n);
    free(table);
    vk_barrier(c);
    vk_profile_mark(c, "histogram reduce");
    const uint32_t blocks = gpl_reduce_groups(c->shape.hist_len, UINT32_MAX);
    for (int32_t i = 0; i < n;) {
        int32_t end = i;
        while (end < n && wave[end].slot.page == wave[i].slot.page) end++;
        vk_range b[3] = {vk_whole(&c->buf.partial), page_range(c, wave[i].slot.page),
                         vk_whole(&c->buf.offsets)};
        GPL_CHECK(dispatch_table(c, VK_K_HIST_REDUCE_NODES, b, nodes_word(c), i, end - i,
                                 blocks));
        i = end;
    }
    vk_barrier(c);
    return GPULAYER_OK;
}

/* Stage 2 as the Metal host records it: a hist_reduce dispatch a node. */
static gpulayer_status record_reductions_per_node(vk_context *c, const wave_node *wave,
                                                  int32_t n)
{
    vk_barrier(c);
    vk_profile_mark(c, "histogram reduce");
    for (int32_t i = 0; i < n; i++) {
        gpl_reduce_push rp = {c->shape.hist_len, wave[i].groups, wave[i].partial_first};
        vk_range rb[2] = {vk_whole(&c->buf.partial), vk_hist_range(c, wave[i].slot)};
        GPL_CHECK(vk_dispatch(c, VK_K_HIST_REDUCE, rb, &rp,
                              gpl_reduce_groups(c->shape.hist_len, c->dev.max_groups)));
    }
    vk_barrier(c);
    return GPULAYER_OK;
}

/* Both stages of a wave; the barrier after them lets the next wave reuse
 * the partial buffer and the tables. */
static gpulayer_status record_wave(vk_context *c, wave_node *wave, int32_t n,
                                   gpl_hist_block *table)
{
    if (c->tuning.metal_kernels) {
        vk_profile_mark(c, "histogram partials");
        for (int32_t i = 0; i < n; i++) GPL_CHECK(record_partials_columns(c, &wave[i]));
        return record_reductions_per_node(c, wave, n);
    }
    GPL_CHECK(record_partials_rows(c, wave, n, table));
    return record_reductions(c, wave, n);
}

/* The nodes of a level go in waves: as many row blocks as the partial
 * buffer, the block table and one dispatch hold run their first stage
 * together, then the wave's reductions. */
static gpulayer_status record_level(vk_context *c, const int32_t *nodes, int32_t num_nodes,
                                    const vk_hist_slot *slots, wave_node *wave,
                                    gpl_hist_block *table)
{
    uint32_t cap = c->partial_groups < c->table_blocks ? c->partial_groups : c->table_blocks;
    /* A histogram_rows dispatch takes the wave's blocks times its chunks. */
    const uint32_t per = c->tuning.metal_kernels ? 1 : chunks_per_dispatch(c);
    if (cap > c->dev.max_groups / per) cap = c->dev.max_groups / per;
    if (cap < 1) cap = 1;
    int32_t in_wave = 0;
    uint32_t used = 0;
    for (int32_t i = 0; i < num_nodes; i++) {
        const int32_t node = nodes[i];
        const uint32_t rows_per_partial = c->tuning.rows_per_partial;
        uint32_t groups = (live_rows(c, node) + rows_per_partial - 1) / rows_per_partial;
        if (groups < 1) groups = 1;
        if (groups > c->tuning.node_partials) groups = c->tuning.node_partials;
        if (groups > cap) groups = cap;
        if (groups > 0xffff) groups = 0xffff; /* a block table entry's field */
        if (used + groups > cap) {
            GPL_CHECK(record_wave(c, wave, in_wave, table));
            in_wave = 0;
            used = 0;
        }
        wave[in_wave++] = (wave_node){node, slots[i], used, groups};
        used += groups;
    }
    return record_wave(c, wave, in_wave, table);
}

gpulayer_status vk_build_histograms(gpl_backend *be, const int32_t *nodes, int32_t num_nodes)
{
    vk_context *c = vk_ctx(be);
    const size_t n = (size_t)(num_nodes > 0 ? num_nodes : 1);
    vk_hist_slot *slots = malloc(sizeof(vk_hist_slot) * n);
    wave_node *wave = malloc(sizeof(wave_node) * n);
    gpl_hist_block *table = malloc(sizeof(gpl_hist_block) * (c->table_blocks ? c->table_blocks : 1));
    gpulayer_status st = slots && wave && table ? GPULAYER_OK
                                                : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                                                            "vulkan backend: out of memory");
    for (int32_t i = 0; i < num_nodes && st == GPULAYER_OK; i++)
        st = acquire(c, nodes[i], &slots[i]);
    if (st == GPULAYER_OK && num_nodes > 0) {
        c->level = c->nodes.depth[nodes[0]];
        st = vk_begin(c, "build_histograms");
        if (st == GPULAYER_OK) st = record_level(c, nodes, num_nodes, slots, wave, table);
        if (st == GPULAYER_OK) st = vk_submit_async(c);
        else vk_abandon(c);
    }
    free(slots);
    free(wave);
    free(table);
    return st;
}

/* The page of all three histograms of subtraction s, or -1 when they are
 * not in one page. */
static int32_t common_page(const vk_context *c, const gpl_hist_subtract *s)
{
    const int32_t page = vk_node_slot(c, s->target).page;
    return vk_node_slot(c, s->parent).page == page && vk_node_slot(c, s->built).page == page ? page
                                                                                       : -1;
}

/* Subtractions whose three histograms share a page go in one
 * hist_subtract_nodes dispatch a page, their table grouped by page; the
 * others (and all with GPULAYER_VULKAN_KERNELS=metal, as the Metal host
 * records them) a hist_subtract dispatch each. */
static gpulayer_status record_subtractions(vk_context *c, const gpl_hist_subtract *subs,
                                           int32_t count, gpl_hist_subtraction *table)
{
    for (int32_t i = 0; i < count; i++) {
        if (!c->tuning.metal_kernels && common_page(c, &subs[i]) >= 0) continue;
        vk_range b[3] = {vk_hist_range(c, vk_node_slot(c, subs[i].parent)),
                         vk_hist_range(c, vk_node_slot(c, subs[i].built)),
                         vk_hist_range(c, vk_node_slot(c, subs[i].target))};
        GPL_CHECK(vk_dispatch(c, VK_K_HIST_SUBTRACT, b, &c->shape.hist_len,
                              vk_groups_for(c, c->shape.hist_len)));
    }
    if (c->tuning.metal_kernels) return GPULAYER_OK;
    int32_t n = 0;
    for (int32_t page = 0; page < c->num_pages; page++)
        for (int32_t i = 0; i < count; i++)
            if (common_page(c, &subs[i]) == page)
                table[n++] = (gpl_hist_subtraction){
                    slot_element(c, vk_node_slot(c, subs[i].parent)),
                    slot_element(c, vk_node_slot(c, subs[i].built)),
                    slot_element(c, vk_node_slot(c, subs[i].target)), 0};
    if (n == 0) return GPULAYER_OK;
    vk_update(c, &c->buf.offsets, (VkDeviceSize)subs_word(c) * 4, table,
              sizeof *table * (VkDeviceSize)n);
    vk_barrier(c);
    const uint32_t blocks = (c->shape.hist_len + c->dev.wg - 1) / c->dev.wg;
    int32_t first = 0;
    for (int32_t page = 0; page < c->num_pages; page++) {
        int32_t entries = 0;
        for (int32_t i = 0; i < count; i++) entries += common_page(c, &subs[i]) == page;
        if (entries == 0) continue;
        vk_range b[2] = {page_range(c, page), vk_whole(&c->buf.offsets)};
        GPL_CHECK(dispatch_table(c, VK_K_HIST_SUBTRACT_NODES, b, subs_word(c), first, entries,
                                 blocks));
        first += entries;
    }
    return GPULAYER_OK;
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
