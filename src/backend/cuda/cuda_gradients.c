/* cuda_gradients.c -- compute_gradients: the gradient pairs of every row
 * and their quantization, on the device. */
#include <string.h>

#include "cuda_context.h"
#include "error.h"
#include "objective_math.h"

/* Three kernels on the device (after the ranking kernels for a ranking
 * objective); only the two scales come back (the driver needs them for
 * the split parameters). */
gpulayer_status cuda_compute_gradients(gpl_backend *be, const gpl_gradient_request *req,
                                       gpl_quant_scale *scale)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    if (req->output < 0 || req->output >= c->shape.num_outputs)
        return gpl_error(GPULAYER_ERR_INTERNAL, "cuda backend: output %d of %d",
                         req->output, c->shape.num_outputs);
    gpl_cuda_grad_args a = {(int32_t)req->objective, c->shape.num_outputs, req->output,
                            gpl_sample_round(req), req->seed, req->subsample,
                            c->shape.num_rows,
                            c->buf.d_margins, c->buf.d_label, c->buf.d_weight, c->buf.d_grad, c->buf.d_max,
                            c->buf.d_scale, c->buf.d_softmax_norm, 0, req->param, NULL, {0}};
    if (req->objective == GPL_OBJ_SOFTMAX) {
        if (!c->buf.d_softmax_norm)
            return gpl_error(GPULAYER_ERR_INTERNAL, "cuda backend: softmax with one output");
        a.norm_write = gpl_softmax_norm_due(req, &c->softmax_norm_ready);
    }
    if (req->objective == GPL_OBJ_EXPECTILE) {
        a.norm_write = gpl_expectile_shift_due(req);
        memcpy(a.alphas, req->alphas, sizeof a.alphas);
    }
    cuda_profile_begin(c);
    /* Ranking: the pairs come from the query's order (cuda_rank.c); the
     * passes below subsample and quantize them like any objective's. */
    if (gpl_objective_is_ranking(req->objective))
        GPL_CHECK(cuda_rank_pairs(c, req, &a.rank_pairs));
    if (req->objective == GPL_OBJ_COX) GPL_CHECK(cuda_cox_pairs(c, req, &a.rank_pairs));
    CUDA_TRY(c, cudaMemsetAsync(c->buf.d_max, 0, 2 * sizeof(unsigned long long), c->dev.stream),
             "clearing gradient maxima");
    CUDA_TRY(c, gpl_cuda_launch_grad_max(&a, c->dev.stream), "kernel grad_max");
    CUDA_TRY(c, gpl_cuda_launch_grad_scale(&a, c->dev.stream), "kernel grad_scale");
    CUDA_TRY(c, gpl_cuda_launch_grad_quantize(&a, c->dev.stream), "kernel grad_quantize");
    CUDA_TRY(c, cudaMemcpyAsync(c->buf.h_scale, c->buf.d_scale, sizeof *c->buf.h_scale,
                                cudaMemcpyDeviceToHost, c->dev.stream), "copying scales");
    CUDA_TRY(c, cudaStreamSynchronize(c->dev.stream), "kernels grad_max/grad_quantize");
    cuda_profile_end(c, CUDA_OP_GRADIENTS);
    *scale = *c->buf.h_scale;
    return GPULAYER_OK;
}
