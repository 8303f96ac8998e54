/* vk_hist.c -- node histograms: the pool of histogram slots, the two-stage
 * build (workgroup-local histograms per feature chunk, then a reduction of
 * the partials, for the nodes of a level together), subtraction, release
 * and read-back. */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "gpu_kernel_abi.h"
#include "vk_backend.h"

vk_range vk_hist_range(const vk_context *c, vk_hist_slot s)
{
    vk_range r = {&c->pages[s.page], (VkDeviceSize)s.index * c->slot_bytes,
                  c->hist_len ? (VkDeviceSize)c->hist_len * 16 : 16};
    return r;
}

static gpulayer_status check_node(const vk_context *c, int32_t node, const char *op)
{
    if (node < 0 || node >= c->max_nodes)
        return gpl_error(GPULAYER_ERR_INTERNAL, "vulkan backend: %s: node id %d outside 0..%d",
                         op, node, c->max_nodes - 1);
    return GPULAYER_OK;
}

/* The slot of node's histogram: its own, a released one, or a new one
 * (in a new page when the last page is full). */
static gpulayer_status acquire(vk_context *c, int32_t node, vk_hist_slot *out)
{
    GPL_CHECK(check_node(c, node, "histogram"));
    vk_hist_slot s = c->node_slot[node];
    if (s.page < 0 && c->num_free_slots > 0) s = c->free_slots[--c->num_free_slots];
    if (s.page < 0) {
        int32_t page = c->slots_created / c->slots_per_page;
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
        s.page = page;
        s.index = c->slots_created % c->slots_per_page;
        c->slots_created++;
    }
    c->node_slot[node] = s;
    *out = s;
    return GPULAYER_OK;
}

void vk_hist_reset(vk_context *c)
{
    for (int32_t n = 0; n < c->max_nodes; n++)
        if (c->node_slot[n].page >= 0) {
            c->free_slots[c->num_free_slots++] = c->node_slot[n];
            c->node_slot[n] = (vk_hist_slot){-1, -1};
        }
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
    vk_hist_slot slot;
    uint32_t partial_first, groups;
} wave_node;

/* Chunks a histogram_rows dispatch covers: all of a node's, as the
 * workgroup count allows (record_level keeps a node's blocks times this
 * within it). */
static uint32_t chunks_per_dispatch(const vk_context *c)
{
    if (c->hist_chunkwise) return 1;
    return (uint32_t)c->num_chunks < c->max_groups ? (uint32_t)c->num_chunks : c->max_groups;
}

/* Stage 1 of one node: every chunk's workgroups write its partials. */
static gpulayer_status record_partials(vk_context *c, int32_t node, const wave_node *w)
{
    const uint32_t count =
        c->node_state[node] == VK_NODE_LIVE ? (uint32_t)c->node_count[node] : 0;
    vk_range b[GPL_MAX_KERNEL_BINDINGS];
    if (!c->hist_columns) {
        /* Offsets and chunk table, partials, then the row list, the
         * gradient pairs and the bins in rows in windows
         * (histogram_rows.comp). */
        b[0] = vk_whole(&c->offsets);
        b[1] = vk_whole(&c->partial);
        vk_windows(c, vk_node_rows(c, node), c->win.list_shift, 4, b + 2);
        vk_windows(c, &c->grad, c->win.grad_shift, 16, b + 2 + GPL_KERNEL_WINDOWS);
        vk_windows(c, &c->bin_rows, c->win.list_shift, 4, b + 2 + 2 * GPL_KERNEL_WINDOWS);
        const uint32_t per = chunks_per_dispatch(c);
        for (uint32_t k = 0; k < (uint32_t)c->num_chunks; k += per) {
            const uint32_t n = (uint32_t)c->num_chunks - k < per ? (uint32_t)c->num_chunks - k
                                                                  : per;
            gpl_histogram_rows_push p = {(uint32_t)c->node_begin[node], count, n,
                                         (uint32_t)c->num_features + 1 + 4 * k,
                                         (uint32_t)(c->row_bytes / 4), c->hist_len,
                                         w->partial_first};
            GPL_CHECK(vk_dispatch(c, VK_K_HISTOGRAM_ROWS, b, &p, w->groups * n));
        }
        return GPULAYER_OK;
    }
    for (int32_t k = 0; k < c->num_chunks; k++) {
        const vk_chunk *ch = &c->chunks[k];
        gpl_histogram_push p = {(uint32_t)c->node_begin[node], count, ch->feature_first,
                                ch->feature_count, ch->bin_first, ch->bin_count,
                                (uint32_t)c->column_bytes, c->hist_len, w->partial_first};
        /* The chunk's columns, offsets, partials, then the row list and
         * the gradient pairs in windows (histogram.comp). */
        b[0] = (vk_range){&c->bins, (VkDeviceSize)ch->feature_first * c->column_bytes,
                          (VkDeviceSize)ch->feature_count * c->column_bytes};
        b[1] = vk_whole(&c->offsets);
        b[2] = vk_whole(&c->partial);
        vk_windows(c, vk_node_rows(c, node), c->win.list_shift, 4, b + 3);
        vk_windows(c, &c->grad, c->win.grad_shift, 16, b + 3 + GPL_KERNEL_WINDOWS);
        GPL_CHECK(vk_dispatch(c, VK_K_HISTOGRAM, b, &p, w->groups));
    }
    return GPULAYER_OK;
}

/* Stage 2 of a wave: after a barrier, each node's partials are reduced
 * into its slot; the barrier after lets the next wave reuse the buffer. */
static gpulayer_status record_reductions(vk_context *c, const wave_node *wave, int32_t n)
{
    vk_barrier(c);
    vk_profile_mark(c, "histogram reduce");
    for (int32_t i = 0; i < n; i++) {
        gpl_reduce_push rp = {c->hist_len, wave[i].groups, wave[i].partial_first};
        vk_range rb[2] = {vk_whole(&c->partial), vk_hist_range(c, wave[i].slot)};
        GPL_CHECK(vk_dispatch(c, VK_K_HIST_REDUCE, rb, &rp,
                              gpl_reduce_groups(c->hist_len, c->max_groups)));
    }
    vk_barrier(c);
    return GPULAYER_OK;
}

/* The nodes of a level go in waves: as many nodes as the partial buffer
 * holds run their first stage together (no barrier between them), then
 * the wave's reductions. */
static gpulayer_status record_level(vk_context *c, const int32_t *nodes, int32_t num_nodes,
                                    const vk_hist_slot *slots, wave_node *wave)
{
    int32_t in_wave = 0;
    uint32_t used = 0;
    for (int32_t i = 0; i < num_nodes; i++) {
        const int32_t node = nodes[i];
        const uint32_t count =
            c->node_state[node] == VK_NODE_LIVE ? (uint32_t)c->node_count[node] : 0;
        uint32_t groups = (uint32_t)((count + c->rows_per_partial - 1) / c->rows_per_partial);
        if (groups < 1) groups = 1;
        if (groups > c->node_partials) groups = c->node_partials;
        if (groups > c->partial_groups) groups = c->partial_groups;
        /* A histogram_rows dispatch takes a node's blocks for several chunks. */
        const uint32_t block_cap = c->max_groups / (c->hist_columns ? 1 : chunks_per_dispatch(c));
        if (groups > block_cap) groups = block_cap;
        if (used + groups > c->partial_groups) {
            GPL_CHECK(record_reductions(c, wave, in_wave));
            in_wave = 0;
            used = 0;
        }
        if (in_wave == 0) vk_profile_mark(c, "histogram partials");
        wave[in_wave] = (wave_node){slots[i], used, groups};
        used += groups;
        GPL_CHECK(record_partials(c, node, &wave[in_wave]));
        in_wave++;
    }
    return record_reductions(c, wave, in_wave);
}

gpulayer_status vk_build_histograms(gpl_backend *be, const int32_t *nodes, int32_t num_nodes)
{
    vk_context *c = vk_ctx(be);
    const size_t n = (size_t)(num_nodes > 0 ? num_nodes : 1);
    vk_hist_slot *slots = malloc(sizeof(vk_hist_slot) * n);
    wave_node *wave = malloc(sizeof(wave_node) * n);
    gpulayer_status st = slots && wave ? GPULAYER_OK
                                       : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                                                   "vulkan backend: out of memory");
    for (int32_t i = 0; i < num_nodes && st == GPULAYER_OK; i++)
        st = acquire(c, nodes[i], &slots[i]);
    if (st == GPULAYER_OK && num_nodes > 0) {
        c->level = c->node_depth[nodes[0]];
        st = vk_begin(c, "build_histograms");
        if (st == GPULAYER_OK) st = record_level(c, nodes, num_nodes, slots, wave);
        if (st == GPULAYER_OK) st = vk_submit_async(c);
        else vk_abandon(c);
    }
    free(slots);
    free(wave);
    return st;
}

gpulayer_status vk_subtract_histograms(gpl_backend *be, const gpl_hist_subtract *subs,
                                       int32_t count)
{
    vk_context *c = vk_ctx(be);
    if (count <= 0) return GPULAYER_OK;
    for (int32_t i = 0; i < count; i++) {
        GPL_CHECK(check_node(c, subs[i].parent, "subtract_histograms"));
        GPL_CHECK(check_node(c, subs[i].built, "subtract_histograms"));
        if (c->node_slot[subs[i].parent].page < 0 || c->node_slot[subs[i].built].page < 0)
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "vulkan backend: subtract needs the histograms of nodes %d and %d",
                             subs[i].parent, subs[i].built);
        vk_hist_slot t;
        GPL_CHECK(acquire(c, subs[i].target, &t));
    }
    c->level = c->node_depth[subs[0].target];
    GPL_CHECK(vk_begin(c, "subtract_histograms"));
    for (int32_t i = 0; i < count; i++) {
        vk_range b[3] = {vk_hist_range(c, c->node_slot[subs[i].parent]),
                         vk_hist_range(c, c->node_slot[subs[i].built]),
                         vk_hist_range(c, c->node_slot[subs[i].target])};
        GPL_CHECK(vk_dispatch(c, VK_K_HIST_SUBTRACT, b, &c->hist_len,
                              vk_groups_for(c, c->hist_len)));
    }
    return vk_submit_async(c);
}

gpulayer_status vk_release_histograms(gpl_backend *be, const int32_t *nodes, int32_t num_nodes)
{
    vk_context *c = vk_ctx(be);
    for (int32_t i = 0; i < num_nodes; i++) {
        int32_t n = nodes[i];
        if (n < 0 || n >= c->max_nodes || c->node_slot[n].page < 0) continue;
        c->free_slots[c->num_free_slots++] = c->node_slot[n];
        c->node_slot[n] = (vk_hist_slot){-1, -1};
    }
    return GPULAYER_OK;
}

gpulayer_status vk_read_histogram(gpl_backend *be, int32_t node, gpl_grad_pair *out)
{
    vk_context *c = vk_ctx(be);
    if (node < 0 || node >= c->max_nodes || c->node_slot[node].page < 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "vulkan backend: node %d has no histogram", node);
    vk_range r = vk_hist_range(c, c->node_slot[node]);
    /* Word pairs (lo, hi) of little-endian int64: gpl_grad_pair's layout. */
    return vk_buffer_read(c, r.buf, r.offset, out, (VkDeviceSize)c->hist_len * 16);
}
