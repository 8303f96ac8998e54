/* vk_gradients.c -- compute_gradients: the gradient pairs of every row and
 * their quantization, on the device (the ranking objectives' pairs come
 * from vk_rank.c, quantized here too). */
#include <stdlib.h>

#include "error.h"
#include "objective_math.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "quantize.h"
#include "vk_context.h"

/* Two batches with the scale in between (a phase boundary: the driver
 * needs the scale too): float64 pairs and group maxima, then quantization
 * in place. Both kernels go through the rows in order, so they run once a
 * window of rows, each dispatch binding only its window. */
gpulayer_status vk_compute_gradients(gpl_backend *be, const gpl_gradient_request *req,
                                     gpl_quant_scale *scale)
{
    vk_context *c = vk_ctx(be);
    if (gpl_objective_is_ranking(req->objective)) return vk_rank_gradients(be, req, scale);
    if (req->objective == GPL_OBJ_COX) return vk_cox_gradients(be, req, scale);
    c->level = -1;
    const uint64_t N = (uint64_t)c->shape.num_rows, chunk = (uint64_t)1 << c->win.chunk_shift;
    const VkDeviceSize K = (VkDeviceSize)c->shape.num_outputs;
    const int norm_write =
        gpl_softmax_norm_due(req, &c->softmax_norm_ready) || gpl_expectile_shift_due(req);
    GPL_CHECK(vk_begin(c, "compute_gradients"));
    for (uint32_t d = 0; d < c->grad_dispatches; d++) {
        const uint64_t first = (uint64_t)d * chunk;
        const uint64_t count = N - first < chunk ? N - first : chunk;
        gpl_gradient_push gp = gpl_gradient_push_make(req, first, count, c->shape.num_outputs,
                                                      c->has_weight, norm_write);
        vk_range b[6] = {vk_rows_range(&c->buf.grad, first, count, 16),
                         vk_rows_range(&c->buf.margins, first, count, K * 4),
                         vk_rows_range(&c->buf.labels, first, count, 4),
                         c->has_weight ? vk_rows_range(&c->buf.weights, first, count, 4)
                                       : vk_whole(&c->buf.weights),
                         {&c->buf.group_max, d * c->group_stride, (VkDeviceSize)c->grad_groups * 16},
                         K > 1 ? vk_rows_range(&c->buf.softmax_norm, first, count, 16)
                               : vk_whole(&c->buf.softmax_norm)};
        GPL_CHECK(vk_dispatch(c, VK_K_GRADIENTS, b, &gp, c->grad_groups));
    }
    GPL_CHECK(vk_submit(c));
    return vk_quantize_gradients(c, c->grad_dispatches, scale);
}

gpulayer_status vk_quantize_gradients(vk_context *c, uint32_t dispatches,
                                      gpl_quant_scale *scale)
{
    const uint64_t N = (uint64_t)c->shape.num_rows;
    const VkDeviceSize bytes = c->group_stride * dispatches;
    double *mx = malloc((size_t)bytes);
    if (!mx) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
    gpulayer_status st = vk_buffer_read(c, &c->buf.group_max, 0, mx, bytes);
    double max_g = 0.0, max_h = 0.0;
    if (st == GPULAYER_OK)
        gpl_gradient_maxima(mx, (size_t)c->group_stride, dispatches, c->grad_groups,
                            &max_g, &max_h);
    free(mx);
    GPL_CHECK(st);
    scale->grad = gpl_quant_scale_for(max_g, c->shape.num_rows);
    scale->hess = gpl_quant_scale_for(max_h, c->shape.num_rows);
    const uint64_t window = (uint64_t)1 << c->win.grad_shift;
    GPL_CHECK(vk_begin(c, "quantize_gradients"));
    for (uint64_t first = 0; first < N; first += window) {
        const uint64_t count = N - first < window ? N - first : window;
        gpl_quantize_push qp = {scale->grad, scale->hess, (uint32_t)count};
        vk_range q[1] = {vk_rows_range(&c->buf.grad, first, count, 16)};
        GPL_CHECK(vk_dispatch(c, VK_K_QUANTIZE, q, &qp, vk_groups_for(c, count)));
    }
    return vk_submit_async(c);
}
