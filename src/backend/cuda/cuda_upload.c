/* cuda_upload.c -- upload: the workspace of a training (cuda_memory.c
 * plans and allocates it) and the training data on the device. */
#include "cuda_context.h"
#include "error.h"

/* Rows are uint32 positions; the kernels' loop bounds need some headroom. */
#define CUDA_MAX_ROWS ((int64_t)UINT32_MAX - ((int64_t)1 << 24))

gpulayer_status cuda_upload(gpl_backend *be, const gpl_binned_matrix *m,
                            const float *label, const float *weight)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    if (c->buf.d_bins)
        return gpl_error(GPULAYER_ERR_INTERNAL, "cuda backend: upload called twice");
    if (m->num_rows > CUDA_MAX_ROWS)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "cuda backend: %lld rows exceed the limit of %lld",
                         (long long)m->num_rows, (long long)CUDA_MAX_ROWS);
    if (m->num_features < 1)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "cuda backend: no features");
    if (m->code_bytes != 1 && m->code_bytes != 2)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "cuda backend: bin codes of %d bytes (1 or 2)", (int)m->code_bytes);
    GPL_CHECK(cuda_workspace_create(c, m, weight != NULL));
    cuda_profile_begin(c);
    const size_t N = (size_t)m->num_rows;
    /* All copies on the backend's stream (which does not synchronize with
     * the legacy default stream), then one wait. */
    CUDA_TRY(c, cudaMemcpyAsync(c->buf.d_bins, m->bins, N * (size_t)c->stride * c->code_bytes,
                                cudaMemcpyHostToDevice, c->dev.stream),
             "copying the binned matrix");
    CUDA_TRY(c, cudaMemcpyAsync(c->buf.d_feature_offset, m->feature_offset,
                                sizeof(uint32_t) * ((size_t)m->num_features + 1),
                                cudaMemcpyHostToDevice, c->dev.stream), "copying feature offsets");
    CUDA_TRY(c, cudaMemcpyAsync(c->buf.d_label, label, sizeof(float) * N, cudaMemcpyHostToDevice,
                                c->dev.stream), "copying labels");
    if (weight)
        CUDA_TRY(c, cudaMemcpyAsync(c->buf.d_weight, weight, sizeof(float) * N,
                                    cudaMemcpyHostToDevice, c->dev.stream), "copying weights");
    /* The partition reads one feature of many rows: feature-major, a split
     * reads its feature's bytes densely instead of a sector a row. */
    if (c->buf.d_columns)
        CUDA_TRY(c, gpl_cuda_launch_bins_to_columns(c->buf.d_bins, m->num_rows, m->num_features,
                                                    c->code_bytes, c->buf.d_columns,
                                                    c->dev.stream),
                 "kernel bins_to_columns");
    CUDA_TRY(c, cudaStreamSynchronize(c->dev.stream), "upload");
    cuda_profile_end(c, CUDA_OP_UPLOAD);
    return GPULAYER_OK;
}
