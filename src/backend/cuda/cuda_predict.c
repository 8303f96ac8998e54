/* cuda_predict.c -- batch prediction on a CUDA GPU (the predict operation
 * of backend.h): the forest and the cuts are copied once, then the rows go
 * through in blocks; for each block the predict kernel bins the raw values
 * and walks every tree on the device, and the margins are copied back.
 * Independent of training: a backend created only to predict. Every copy
 * and launch is checked and a failure names it. */
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "common/predict_job.h"
#include "cuda_context.h"
#include "error.h"

/* Device bytes of one block's raw values, bins and margins: a bound on
 * the workspace whatever the number of rows. */
#define CUDA_PREDICT_BLOCK_BYTES ((size_t)256 << 20)


static gpulayer_status copy_in(cuda_context *c, void *dst, const void *src, size_t bytes,
                               const char *what)
{
    if (bytes == 0) return GPULAYER_OK;
    CUDA_TRY(c, cudaMemcpyAsync(dst, src, bytes, cudaMemcpyHostToDevice, c->dev.stream), what);
    return GPULAYER_OK;
}

gpulayer_status cuda_predict(gpl_backend *be, const gpl_predict_job *job, float *margins)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    const gpl_infer_forest *fo = job->forest;
    const int64_t N = job->num_rows;
    const int32_t F = job->num_features, K = job->num_outputs;
    GPL_CHECK(gpl_check_predict_job("cuda", job));
    if (N <= 0) return GPULAYER_OK;
    c->level = -1;
    const size_t code_bytes = (size_t)fo->code_bytes;
    const size_t row_bytes = (size_t)F * (4 + code_bytes) + (size_t)K * 4;
    int64_t block = (int64_t)(CUDA_PREDICT_BLOCK_BYTES / row_bytes);
    if (block < 1) block = 1;
    if (block > N) block = N;
    const size_t B = (size_t)block;
    const size_t num_cuts = job->cut_ptr[F];

    float *host = malloc(sizeof(float) * B * (size_t)(F ? F : 1));
    if (!host)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "cuda backend: predict: out of host memory for a block of rows");
    cuda_job_mem m = {{0}, 0};
    gpulayer_status st = GPULAYER_OK;
    gpl_infer_node *d_nodes = cuda_job_get(c, &m, sizeof(gpl_infer_node) * (size_t)fo->num_nodes,
                                        "prediction tree nodes", &st);
    /* The leaf values, then the K base margins. */
    float *d_leaf = cuda_job_get(c, &m, sizeof(float) * ((size_t)fo->num_nodes + (size_t)K),
                              "prediction leaf values", &st);
    int64_t *d_first = cuda_job_get(c, &m, sizeof(int64_t) * ((size_t)fo->num_trees + 1),
                                 "prediction tree offsets", &st);
    int32_t *d_depth = cuda_job_get(c, &m, sizeof(int32_t) * ((size_t)fo->num_trees + 1),
                                 "prediction tree depths", &st);
    uint32_t *d_cut_ptr = cuda_job_get(c, &m, sizeof(uint32_t) * ((size_t)F + 1),
                                    "prediction cut offsets", &st);
    float *d_cuts = cuda_job_get(c, &m, sizeof(float) * num_cuts, "prediction cut values", &st);
    float *d_data = cuda_job_get(c, &m, sizeof(float) * B * (size_t)F, "prediction raw values",
                              &st);
    void *d_bins = cuda_job_get(c, &m, B * (size_t)F * code_bytes, "prediction bins", &st);
    uint32_t *d_sets = NULL;
    if (fo->cat_sets) {
        const size_t set_bytes =
            sizeof(uint32_t) * (size_t)fo->cat_words * (size_t)fo->num_nodes;
        d_sets = cuda_job_get(c, &m, set_bytes, "prediction category sets", &st);
        if (st == GPULAYER_OK)
            st = copy_in(c, d_sets, fo->cat_sets, set_bytes,
                         "copying the prediction category sets to the device");
    }
    float *d_out = cuda_job_get(c, &m, sizeof(float) * B * (size_t)K, "prediction margins", &st);
    if (st == GPULAYER_OK)
        st = copy_in(c, d_nodes, fo->nodes, sizeof(gpl_infer_node) * (size_t)fo->num_nodes,
                     "copying the prediction tree nodes to the device");
    if (st == GPULAYER_OK)
        st = copy_in(c, d_leaf, fo->leaf, sizeof(float) * (size_t)fo->num_nodes,
                     "copying the prediction leaf values to the device");
    if (st == GPULAYER_OK)
        st = copy_in(c, d_leaf + fo->num_nodes, job->base_margins, sizeof(float) * (size_t)K,
                     "copying the base margins to the device");
    if (st == GPULAYER_OK)
        st = copy_in(c, d_first, fo->first, sizeof(int64_t) * ((size_t)fo->num_trees + 1),
                     "copying the prediction tree offsets to the device");
    if (st == GPULAYER_OK)
        st = copy_in(c, d_depth, fo->depth, sizeof(int32_t) * (size_t)fo->num_trees,
                     "copying the prediction tree depths to the device");
    if (st == GPULAYER_OK)
        st = copy_in(c, d_cut_ptr, job->cut_ptr, sizeof(uint32_t) * ((size_t)F + 1),
                     "copying the prediction cut offsets to the device");
    if (st == GPULAYER_OK)
        st = copy_in(c, d_cuts, job->cut_values, sizeof(float) * num_cuts,
                     "copying the prediction cut values to the device");
    for (int64_t start = 0; st == GPULAYER_OK && start < N; start += block) {
        const int64_t n = N - start < block ? N - start : block;
        /* Feature-major within the block: the kernel's reads of one
         * feature by neighbouring rows are neighbouring words. The copy
         * from pageable memory is done with host before it returns. */
        gpl_predict_job_block(job, start, n, host);
        st = copy_in(c, d_data, host, sizeof(float) * (size_t)n * (size_t)F,
                     "copying a block of raw values to the device");
        if (st != GPULAYER_OK) break;
        gpl_cuda_predict_args a = {d_data, n, F, fo->num_trees, K, d_leaf + fo->num_nodes,
                                   d_cut_ptr, d_cuts, d_nodes, d_sets, fo->cat_words, d_leaf,
                                   d_first, d_depth, d_bins, d_out, fo->code_bytes};
        cudaError_t e = gpl_cuda_launch_predict(&a, c->dev.stream);
        if (e == cudaSuccess) e = cudaStreamSynchronize(c->dev.stream);
        if (e != cudaSuccess) {
            st = cuda_fail(c, e, "kernel predict_kernel (kernels_predict.cu)");
            break;
        }
        e = cudaMemcpyAsync(margins + start * K, d_out, sizeof(float) * (size_t)n * (size_t)K,
                            cudaMemcpyDeviceToHost, c->dev.stream);
        if (e == cudaSuccess) e = cudaStreamSynchronize(c->dev.stream);
        if (e != cudaSuccess) st = cuda_fail(c, e, "copying prediction margins to the host");
    }
    /* Nothing of this job may still run when its buffers are reused. */
    cudaError_t se = cudaStreamSynchronize(c->dev.stream);
    if (st == GPULAYER_OK && se != cudaSuccess)
        st = cuda_fail(c, se, "finishing the prediction");
    cuda_job_put_all(c, &m);
    free(host);
    return st;
}
