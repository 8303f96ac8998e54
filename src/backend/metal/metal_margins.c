/* metal_margins.c -- the margins: set, read back, and updated by a tree's
 * leaves. */
#include "error.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "metal_context.h"

gpulayer_status mtl_set_margins(gpl_backend *be, const float *margins)
{
    mtl_context *c = mtl_ctx(be);
    GPL_CHECK(gpl_mtl_context_status(c->rt));
    c->softmax_norm_ready = 0;
    return gpl_mtl_buf_write(c->rt, &c->buf.margins, 0, margins,
                             (size_t)c->shape.num_rows * (size_t)c->shape.num_outputs * 4);
}

gpulayer_status mtl_get_margins(gpl_backend *be, float *margins)
{
    mtl_context *c = mtl_ctx(be);
    GPL_CHECK(gpl_mtl_context_status(c->rt));
    return gpl_mtl_buf_read(c->rt, &c->buf.margins, 0, margins,
                            (size_t)c->shape.num_rows * (size_t)c->shape.num_outputs * 4);
}

/* One dispatch a leaf, all in one batch: leaves hold disjoint rows, each
 * in the row list its node's are in. */
gpulayer_status mtl_update_margins(gpl_backend *be, int32_t output,
                                   const float *leaf_value)
{
    mtl_context *c = mtl_ctx(be);
    gpl_mtl_bind b[GPL_MARGINS_BINDINGS];
    mtl_windows(&c->buf.margins, c->win.margin_shift, (size_t)c->shape.num_outputs * 4,
                b + GPL_KERNEL_WINDOWS);
    GPL_CHECK(gpl_mtl_begin(c->rt, "update_margins", -1));
    for (int32_t n = 0; n < c->shape.max_nodes; n++) {
        if (c->nodes.state[n] != GPL_NODE_LIVE || c->nodes.count[n] == 0) continue;
        gpl_margins_push p = {(uint32_t)c->nodes.begin[n], (uint32_t)c->nodes.count[n],
                              (uint32_t)c->shape.num_outputs, (uint32_t)output, leaf_value[n],
                              c->win.margin_shift};
        mtl_windows(mtl_node_rows(c, n), c->win.list_shift, 4, b);
        GPL_CHECK(gpl_mtl_dispatch(c->rt, MTL_K_UPDATE_MARGINS, b, &p,
                                   gpl_mtl_groups_for(c->rt, (uint64_t)c->nodes.count[n])));
    }
    return gpl_mtl_commit(c->rt, 0);
}
