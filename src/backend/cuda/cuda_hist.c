/* cuda_hist.c -- node histograms: the build of a level's nodes (one batch
 * of launches over all of them), subtraction, release and read-back, and
 * the pairs of data-parallel training (write_pairs). Only small tables go
 * to the device (node ranges, slots). */
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "cuda_context.h"
#include "error.h"

static gpl_cuda_hist_args hist_args(const cuda_context *c)
{
    gpl_cuda_hist_args a;
    memset(&a, 0, sizeof a);
    a.bins = c->buf.d_bins;
    a.stride = c->stride;
    a.code_bytes = c->code_bytes;
    a.grad = c->buf.d_grad;
    a.rows0 = c->buf.d_rows[0];
    a.rows1 = c->buf.d_rows[1];
    a.feature_offset = c->buf.d_feature_offset;
    a.num_features = c->shape.num_features;
    a.hist_len = c->shape.hist_len;
    a.chunks = c->d_chunks;
    a.num_chunks = c->num_chunks;
    a.slot_ptr = c->d_slot_ptr;
    a.wide_features = c->d_wide_features;
    a.num_wide = c->num_wide;
    return a;
}

/* Cuts the nodes' rows into work items of similar size: about four blocks
 * per multiprocessor over all chunks (a wide feature counting as one), and
 * at least one item per non-empty node. */
gpulayer_status cuda_build_histograms(gpl_backend *be, const int32_t *nodes,
                                      int32_t num_nodes)
{
    cuda_context *c = cuda_ctx(be);
    cuda_stage *s = &c->stage_hist;
    if (num_nodes == 0) return GPULAYER_OK;
    GPL_CHECK(cuda_check_level_size(c, s, sizeof(int32_t) + sizeof(gpl_cuda_hist_item),
                                    num_nodes, "build_histograms"));
    int64_t total = 0;
    int32_t slot;
    for (int32_t i = 0; i < num_nodes; i++) {
        GPL_CHECK(gpl_check_node_live("cuda", "build_histograms", &c->nodes, nodes[i]));
        GPL_CHECK(gpl_hist_slots_acquire(&c->slots, NULL, nodes[i], &slot));
        total += c->nodes.count[nodes[i]];
    }
    /* F >= 1: some chunk or wide feature. */
    const int64_t parts = (int64_t)c->num_chunks + c->num_wide;
    const int64_t target = (4 * (int64_t)c->dev.sm_count + parts - 1) / parts;
    int64_t per_item = (total + target - 1) / (target > 0 ? target : 1);
    if (per_item < 1024) per_item = 1024;
    const size_t cap = (s->bytes - sizeof(int32_t) * (size_t)num_nodes) /
                       sizeof(gpl_cuda_hist_item);
    GPL_CHECK(cuda_stage_wait(c, s));
    gpl_cuda_hist_item *items = s->host;
    size_t num_items = 0;
    for (int32_t i = 0; i < num_nodes; i++) {
        const int32_t n = nodes[i];
        for (int64_t b = 0; b < c->nodes.count[n]; b += per_item) {
            if (num_items == cap)
                return gpl_error(GPULAYER_ERR_INTERNAL,
                                 "cuda backend: too many histogram work items");
            int64_t e = b + per_item < c->nodes.count[n] ? b + per_item : c->nodes.count[n];
            const int32_t buf = n == 0 && c->rows_identity ? GPL_CUDA_ROWS_IDENTITY
                                                           : c->nodes.buf[n];
            items[num_items++] = (gpl_cuda_hist_item){(uint32_t)(c->nodes.begin[n] + b),
                                                      (uint32_t)(c->nodes.begin[n] + e), buf,
                                                      c->slots.node_slot[n]};
        }
    }
    int32_t *clear = (int32_t *)(items + num_items);
    for (int32_t i = 0; i < num_nodes; i++) clear[i] = c->slots.node_slot[nodes[i]];
    cuda_profile_begin(c);
    GPL_CHECK(cuda_stage_send(c, s, sizeof *items * num_items + sizeof(int32_t) * (size_t)num_nodes,
                              "copying histogram work items"));
    gpl_cuda_hist_args a = hist_args(c);
    a.items = s->dev;
    a.num_items = (int32_t)num_items;
    a.clear_slots = (const int32_t *)((const gpl_cuda_hist_item *)s->dev + num_items);
    a.num_clear = num_nodes;
    CUDA_TRY(c, gpl_cuda_launch_hist_clear(&a, c->dev.stream), "kernel hist_clear");
    CUDA_TRY(c, gpl_cuda_launch_hist(c->dev.hist_kind, &a, c->hist_smem, c->dev.stream),
             c->dev.hist_kind == GPL_CUDA_HIST_GLOBAL ? "kernel hist_global" : "kernel hist_shared");
    cuda_profile_end(c, CUDA_OP_HISTOGRAMS);
    /* Bytes the kernel must read: each row's bins once, its gradient pair
     * and row index once per feature chunk. */
    c->prof.hist_bytes += (double)total *
                          ((double)c->stride * c->code_bytes +
                           (double)(sizeof(gpl_cuda_qpair) + sizeof(uint32_t)) *
                               (double)(c->num_chunks + c->num_wide));
    return GPULAYER_OK;
}

gpulayer_status cuda_subtract_histograms(gpl_backend *be, const gpl_hist_subtract *subs,
                                         int32_t count)
{
    cuda_context *c = cuda_ctx(be);
    cuda_stage *s = &c->stage_sub;
    if (count == 0) return GPULAYER_OK;
    GPL_CHECK(cuda_check_level_size(c, s, 3 * sizeof(int32_t), count, "subtract_histograms"));
    int32_t slot;
    for (int32_t i = 0; i < count; i++) {
        GPL_CHECK(gpl_check_subtract("cuda", &c->slots, &subs[i]));
        GPL_CHECK(gpl_hist_slots_acquire(&c->slots, NULL, subs[i].target, &slot));
    }
    GPL_CHECK(cuda_stage_wait(c, s));
    int32_t *t = s->host;
    for (int32_t i = 0; i < count; i++) {
        t[3 * i] = c->slots.node_slot[subs[i].parent];
        t[3 * i + 1] = c->slots.node_slot[subs[i].built];
        t[3 * i + 2] = c->slots.node_slot[subs[i].target];
    }
    cuda_profile_begin(c);
    GPL_CHECK(cuda_stage_send(c, s, 3 * sizeof(int32_t) * (size_t)count,
                              "copying subtraction table"));
    CUDA_TRY(c, gpl_cuda_launch_hist_subtract(c->d_slot_ptr, s->dev, count, c->shape.hist_len,
                                              c->dev.stream), "kernel hist_subtract");
    cuda_profile_end(c, CUDA_OP_SUBTRACT);
    return GPULAYER_OK;
}

gpulayer_status cuda_release_histograms(gpl_backend *be, const int32_t *nodes,
                                        int32_t num_nodes)
{
    cuda_context *c = cuda_ctx(be);
    gpl_hist_slots_release_nodes(&c->slots, nodes, num_nodes);
    return GPULAYER_OK;
}

gpulayer_status cuda_read_histogram(gpl_backend *be, int32_t node, gpl_grad_pair *out)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    GPL_CHECK(gpl_check_histogram("cuda", NULL, GPULAYER_ERR_INVALID_ARGUMENT, &c->slots, node));
    CUDA_TRY(c, cudaMemcpyAsync(out, c->slot_ptr[c->slots.node_slot[node]],
                                sizeof(gpl_grad_pair) * c->shape.hist_len, cudaMemcpyDeviceToHost,
                                c->dev.stream), "read_histogram");
    CUDA_TRY(c, cudaStreamSynchronize(c->dev.stream), "read_histogram (kernels before it)");
    return GPULAYER_OK;
}

/* Row gradients are kept as int32 pairs (gpl_cuda_qpair); the bound of
 * quantize.h makes the narrowing exact, and a value outside it is refused. */
static gpulayer_status write_row_gradients(cuda_context *c, const gpl_grad_pair *in)
{
    const size_t n = (size_t)c->shape.num_rows;
    gpl_cuda_qpair *q = malloc(sizeof *q * (n ? n : 1));
    if (!q) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "cuda backend: out of host memory");
    for (size_t r = 0; r < n; r++) {
        if (in[r].grad != (int32_t)in[r].grad || in[r].hess != (int32_t)in[r].hess) {
            free(q);
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "cuda backend: the gradient pair of row %zu exceeds 32 bits", r);
        }
        q[r] = (gpl_cuda_qpair){(int32_t)in[r].grad, (int32_t)in[r].hess};
    }
    cudaError_t e = cudaMemcpyAsync(c->buf.d_grad, q, sizeof *q * n, cudaMemcpyHostToDevice,
                                    c->dev.stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(c->dev.stream);
    free(q);
    if (e != cudaSuccess) return cuda_fail(c, e, "write_pairs");
    return GPULAYER_OK;
}

/* Data-parallel training: pairs summed over ranks replace a node's
 * histogram, or every row's gradient pair (GPL_ROW_GRADIENTS). */
gpulayer_status cuda_write_pairs(gpl_backend *be, int32_t node, const gpl_grad_pair *in)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    if (node == GPL_ROW_GRADIENTS) return write_row_gradients(c, in);
    int32_t slot;
    GPL_CHECK(gpl_hist_slots_acquire(&c->slots, NULL, node, &slot));
    CUDA_TRY(c, cudaMemcpyAsync(c->slot_ptr[c->slots.node_slot[node]], in,
                                sizeof(gpl_grad_pair) * c->shape.hist_len, cudaMemcpyHostToDevice,
                                c->dev.stream), "write_pairs");
    CUDA_TRY(c, cudaStreamSynchronize(c->dev.stream), "write_pairs");
    return GPULAYER_OK;
}
