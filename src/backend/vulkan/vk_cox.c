/* vk_cox.c -- survival:cox on the device: set_survival_order (the rows'
 * order by time, copied once) and the gradients of cox_math.h in one
 * batch of cox.comp's five phases, quantized by the path every objective
 * takes (vk_quantize_gradients). */
#include "cox_math.h"
#include "error.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "vk_context.h"

void vk_cox_free(vk_context *c)
{
    vk_cox *x = &c->cox;
    vk_buffer *all[] = {&x->order, &x->tie_start, &x->e, &x->s_sum, &x->blocks};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) vk_buffer_destroy(c, all[i]);
    x->num_blocks = 0;
}

/* A device buffer of `bytes` bytes holding data (NULL: uninitialised); the
 * kernel binds it whole, so it must fit one storage binding. */
static gpulayer_status make_buffer(vk_context *c, vk_buffer *b, uint64_t bytes, const void *data,
                                   const char *what)
{
    if (bytes > c->dev.max_range)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "vulkan backend: survival:cox needs the %s (%llu bytes) in one "
                         "storage binding; device '%s' binds at most %llu bytes "
                         "(maxStorageBufferRange); use fewer rows or the cpu backend", what,
                         (unsigned long long)bytes, c->dev.device_name,
                         (unsigned long long)c->dev.max_range);
    GPL_CHECK(vk_buffer_create(c, b, bytes ? bytes : 16, what));
    if (data && bytes) GPL_CHECK(vk_buffer_write(c, b, 0, data, bytes));
    c->estimate_bytes += (size_t)(bytes ? bytes : 16);
    return GPULAYER_OK;
}

gpulayer_status vk_set_survival_order(gpl_backend *be, const gpl_survival_order *o)
{
    vk_context *c = vk_ctx(be);
    const uint64_t N = (uint64_t)c->shape.num_rows;
    const int64_t nb = (int64_t)((N + GPL_COX_BLOCK - 1) / GPL_COX_BLOCK);
    vk_cox_free(c);
    vk_cox *x = &c->cox;
    gpulayer_status st = make_buffer(c, &x->order, N * 4, o->order, "survival order");
    if (st == GPULAYER_OK)
        st = make_buffer(c, &x->tie_start, N * 4, o->tie_start, "survival tie starts");
    if (st == GPULAYER_OK) st = make_buffer(c, &x->e, N * 8, NULL, "survival exp(margin)");
    if (st == GPULAYER_OK) st = make_buffer(c, &x->s_sum, N * 8, NULL, "survival risk sums");
    if (st == GPULAYER_OK)
        st = make_buffer(c, &x->blocks, (uint64_t)nb * 24, NULL, "survival block sums");
    if (st != GPULAYER_OK) {
        vk_cox_free(c);
        return st;
    }
    x->num_blocks = nb;
    return GPULAYER_OK;
}

gpulayer_status vk_cox_gradients(gpl_backend *be, const gpl_gradient_request *req,
                                 gpl_quant_scale *scale)
{
    vk_context *c = vk_ctx(be);
    vk_cox *x = &c->cox;
    c->level = -1;
    if (!x->order.buffer)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "vulkan backend: survival:cox needs the rows' order by time "
                         "(set_survival_order) before compute_gradients");
    const uint64_t N = (uint64_t)c->shape.num_rows;
    const vk_range b[GPL_COX_BINDINGS] = {
        vk_whole(&c->buf.margins), vk_whole(&c->buf.labels), vk_whole(&c->buf.weights),
        vk_whole(&x->order), vk_whole(&x->tie_start), vk_whole(&x->e), vk_whole(&x->s_sum),
        vk_whole(&x->blocks), vk_whole(&c->buf.grad),
        {&c->buf.group_max, 0, (VkDeviceSize)c->grad_groups * 16}};
    gpl_cox_push p = {req->seed, (uint32_t)N, (uint32_t)x->num_blocks,
                      (uint32_t)c->shape.num_outputs, (uint32_t)req->output, 0,
                      (uint32_t)c->has_weight, gpl_sample_round(req), req->subsample};
    GPL_CHECK(vk_begin(c, "cox_gradients"));
    for (uint32_t phase = 0; phase < 4; phase++) {
        p.phase = phase;
        GPL_CHECK(vk_dispatch(c, VK_K_COX, b, &p, vk_groups_for(c, (uint64_t)x->num_blocks)));
        vk_barrier(c);
    }
    /* grad_groups workgroups, as the gradients kernel: the maxima are read
     * as one dispatch's. */
    p.phase = 4;
    GPL_CHECK(vk_dispatch(c, VK_K_COX, b, &p, c->grad_groups));
    GPL_CHECK(vk_submit(c));
    return vk_quantize_gradients(c, 1, scale);
}
