/* cuda_cox.c -- survival:cox on the device: set_survival_order (the rows'
 * order by time, copied once) and the launch of its gradients
 * (kernels_cox.cu) for compute_gradients. */
#include <string.h>

#include "cox_math.h"
#include "cuda_context.h"
#include "error.h"

/* A new order replaces the old: its blocks go back to the pool. */
static void release_order(cuda_context *c)
{
    void *blocks[] = {c->cox.d_order, c->cox.d_tie_start, c->cox.d_e, c->cox.d_s,
                      c->cox.d_blocks, c->cox.d_pairs};
    for (size_t i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
        if (blocks[i]) cuda_pool_put(&c->buf.pool, blocks[i]);
    memset(&c->cox, 0, sizeof c->cox);
}

static gpulayer_status upload_order(cuda_context *c, const gpl_survival_order *o)
{
    gpulayer_status st = GPULAYER_OK;
    const size_t N = (size_t)c->shape.num_rows;
    const int64_t nb = ((int64_t)N + GPL_COX_BLOCK - 1) / GPL_COX_BLOCK;
    CUDA_EXTRA_GET(c->cox.d_order, sizeof(uint32_t) * N, "survival order");
    CUDA_EXTRA_GET(c->cox.d_tie_start, sizeof(uint32_t) * N, "survival tie starts");
    CUDA_EXTRA_GET(c->cox.d_e, sizeof(double) * N, "survival exp(margin)");
    CUDA_EXTRA_GET(c->cox.d_s, sizeof(double) * N, "survival risk sums");
    CUDA_EXTRA_GET(c->cox.d_blocks, 3 * sizeof(double) * (size_t)(nb ? nb : 1), "survival block sums");
    CUDA_EXTRA_GET(c->cox.d_pairs, 2 * sizeof(double) * N, "survival gradient pairs");
    CUDA_TRY(c, cudaMemcpyAsync(c->cox.d_order, o->order, sizeof(uint32_t) * N,
                                cudaMemcpyHostToDevice, c->dev.stream),
             "copying the survival order");
    CUDA_TRY(c, cudaMemcpyAsync(c->cox.d_tie_start, o->tie_start, sizeof(uint32_t) * N,
                                cudaMemcpyHostToDevice, c->dev.stream),
             "copying the survival tie starts");
    /* The host tables may go once this returns. */
    CUDA_TRY(c, cudaStreamSynchronize(c->dev.stream), "copying the survival order");
    c->cox.num_blocks = nb;
    return GPULAYER_OK;
}

gpulayer_status cuda_set_survival_order(gpl_backend *be, const gpl_survival_order *o)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    if (!c->buf.d_bins)
        return gpl_error(GPULAYER_ERR_INTERNAL,
                         "cuda backend: set_survival_order before upload");
    release_order(c);
    const gpulayer_status st = upload_order(c, o);
    /* A half-made copy would pass for an order. */
    if (st != GPULAYER_OK) release_order(c);
    return st;
}

gpulayer_status cuda_cox_pairs(cuda_context *c, const gpl_gradient_request *req,
                               const double **pairs)
{
    if (!c->cox.d_order)
        return gpl_error(GPULAYER_ERR_INTERNAL,
                         "cuda backend: survival:cox without the rows' order by time");
    gpl_cuda_cox_args a = {c->shape.num_rows, c->cox.num_blocks, c->shape.num_outputs,
                           req->output, c->buf.d_margins, c->buf.d_label, c->buf.d_weight,
                           c->cox.d_order, c->cox.d_tie_start, c->cox.d_e, c->cox.d_s,
                           c->cox.d_blocks, c->cox.d_pairs};
    CUDA_TRY(c, gpl_cuda_launch_cox(&a, c->dev.stream), "survival:cox kernels");
    *pairs = c->cox.d_pairs;
    return GPULAYER_OK;
}
