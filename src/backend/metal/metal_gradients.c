/* metal_gradients.c -- compute_gradients: the gradient pairs of every row
 * and their quantization, on the device. */
#include "error.h"
#include "objective_math.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "metal_context.h"
#include "quantize.h"

/* Two batches with the scale in between (a phase boundary: the driver
 * needs the scale too). Both kernels go through the rows in order and run
 * once a window of rows, each dispatch bound from its window's first row. */
gpulayer_status mtl_compute_gradients(gpl_backend *be, const gpl_gradient_request *req,
                                      gpl_quant_scale *scale)
{
    mtl_context *c = mtl_ctx(be);
    const uint64_t N = (uint64_t)c->shape.num_rows, chunk = (uint64_t)1 << c->win.chunk_shift;
    const size_t K = (size_t)c->shape.num_outputs;
    const int norm_write =
        gpl_softmax_norm_due(req, &c->softmax_norm_ready) || gpl_expectile_shift_due(req);
    GPL_CHECK(gpl_mtl_begin(c->rt, "compute_gradients", -1));
    for (uint32_t d = 0; d < c->grad_dispatches; d++) {
        const uint64_t first = (uint64_t)d * chunk;
        const uint64_t count = N - first < chunk ? N - first : chunk;
        gpl_gradient_push gp = gpl_gradient_push_make(req, first, count, c->shape.num_outputs,
                                                      c->has_weight, norm_write);
        gpl_mtl_bind b[6] = {{&c->buf.grad, (size_t)first * 16},
                             {&c->buf.margins, (size_t)first * K * 4},
                             {&c->buf.labels, (size_t)first * 4},
                             {&c->buf.weights, c->has_weight ? (size_t)first * 4 : 0},
                             {&c->buf.group_max, (size_t)d * c->group_stride},
                             {&c->buf.softmax_norm, K > 1 ? (size_t)first * 16 : 0}};
        GPL_CHECK(gpl_mtl_dispatch(c->rt, MTL_K_GRADIENTS, b, &gp, c->grad_groups));
    }
    GPL_CHECK(gpl_mtl_commit(c->rt, 1));
    /* Shared storage: the maxima are read in place. */
    double max_g, max_h;
    gpl_gradient_maxima(c->buf.group_max.contents, c->group_stride, c->grad_dispatches,
                        c->grad_groups, &max_g, &max_h);
    scale->grad = gpl_quant_scale_for(max_g, c->shape.num_rows);
    scale->hess = gpl_quant_scale_for(max_h, c->shape.num_rows);
    const uint64_t window = (uint64_t)1 << c->win.grad_shift;
    GPL_CHECK(gpl_mtl_begin(c->rt, "quantize_gradients", -1));
    for (uint64_t first = 0; first < N; first += window) {
        const uint64_t count = N - first < window ? N - first : window;
        gpl_quantize_push qp = {scale->grad, scale->hess, (uint32_t)count};
        gpl_mtl_bind q[1] = {{&c->buf.grad, (size_t)first * 16}};
        GPL_CHECK(gpl_mtl_dispatch(c->rt, MTL_K_QUANTIZE, q, &qp,
                                   gpl_mtl_groups_for(c->rt, count)));
    }
    return gpl_mtl_commit(c->rt, 0);
}
