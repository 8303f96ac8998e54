/* vk_margins.c -- the margins: set, read back, and updated by a tree's
 * leaves. */
#include "error.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "vk_context.h"

gpulayer_status vk_set_margins(gpl_backend *be, const float *margins)
{
    vk_context *c = vk_ctx(be);
    VkDeviceSize bytes = (VkDeviceSize)c->shape.num_rows * (VkDeviceSize)c->shape.num_outputs * 4;
    c->softmax_norm_ready = 0;
    return bytes ? vk_buffer_write(c, &c->buf.margins, 0, margins, bytes) : GPULAYER_OK;
}

gpulayer_status vk_get_margins(gpl_backend *be, float *margins)
{
    vk_context *c = vk_ctx(be);
    VkDeviceSize bytes = (VkDeviceSize)c->shape.num_rows * (VkDeviceSize)c->shape.num_outputs * 4;
    return bytes ? vk_buffer_read(c, &c->buf.margins, 0, margins, bytes) : GPULAYER_OK;
}

/* One dispatch a leaf, and one a split into leaves, all in one batch:
 * leaves hold disjoint rows. */
gpulayer_status vk_update_margins(gpl_backend *be, int32_t output,
                                  const float *leaf_value)
{
    vk_context *c = vk_ctx(be);
    c->level = -1;
    /* The row list, the margins, then the bin columns (margins_split.comp
     * only), in windows. */
    vk_range b[GPL_MARGINS_SPLIT_BINDINGS];
    vk_windows(c, &c->buf.margins, c->win.margin_shift, (VkDeviceSize)c->shape.num_outputs * 4,
               b + GPL_KERNEL_WINDOWS);
    vk_windows(c, &c->buf.bins, c->win.list_shift, 4, b + 2 * GPL_KERNEL_WINDOWS);
    GPL_CHECK(vk_begin(c, "update_margins"));
    for (int32_t n = 0; n < c->shape.max_nodes; n++) {
        if (c->nodes.state[n] != GPL_NODE_LIVE || c->nodes.count[n] == 0) continue;
        gpl_margins_push p = {(uint32_t)c->nodes.begin[n], (uint32_t)c->nodes.count[n],
                              (uint32_t)c->shape.num_outputs, (uint32_t)output, leaf_value[n],
                              c->win.margin_shift};
        vk_windows(c, vk_node_rows(c, n), c->win.list_shift, 4, b);
        GPL_CHECK(vk_dispatch(c, VK_K_UPDATE_MARGINS, b, &p,
                              vk_groups_for(c, (uint64_t)c->nodes.count[n])));
    }
    for (int32_t i = 0; i < c->num_leaf_splits; i++) {
        const gpl_split_apply *s = &c->leaf_splits[i];
        if (c->nodes.count[s->node] == 0) continue;
        gpl_margins_split_push p = {(uint32_t)c->nodes.begin[s->node],
                                    (uint32_t)c->nodes.count[s->node],
                                    (uint32_t)c->shape.num_outputs, (uint32_t)output,
                                    leaf_value[s->left_child], leaf_value[s->right_child],
                                    c->win.margin_shift,
                                    (uint32_t)((VkDeviceSize)s->feature * c->column_bytes / 4),
                                    gpl_split_how(s), (uint32_t)s->bin, c->code_bits, {0}};
        if (s->categorical) memcpy(p.left_set, s->left_set, sizeof p.left_set);
        vk_windows(c, vk_node_rows(c, s->node), c->win.list_shift, 4, b);
        GPL_CHECK(vk_dispatch(c, VK_K_MARGINS_SPLIT, b, &p,
                              vk_groups_for(c, (uint64_t)c->nodes.count[s->node])));
    }
    return vk_submit_async(c);
}
