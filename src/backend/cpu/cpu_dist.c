/* cpu_dist.c -- write_pairs for the CPU backend: the global gradient pairs
 * and node histograms of data-parallel training replace the local ones. */
#include <string.h>

#include "cpu_context.h"
#include "error.h"

gpulayer_status gpl_cpu_write_pairs(gpl_backend *be, int32_t node,
                                    const gpl_grad_pair *in)
{
    cpu_context *c = cpu_ctx(be);
    if (node == GPL_ROW_GRADIENTS) {
        memcpy(c->buf.grad, in, sizeof(gpl_grad_pair) * (size_t)c->shape.num_rows);
        cpu_pack_gradients(c);
        return GPULAYER_OK;
    }
    gpl_grad_pair *hist;
    GPL_CHECK(cpu_hist_acquire(c, node, &hist));
    memcpy(hist, in, sizeof(gpl_grad_pair) * c->shape.hist_len);
    return GPULAYER_OK;
}
