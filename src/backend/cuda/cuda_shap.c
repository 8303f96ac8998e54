/* cuda_shap.c -- SHAP values on a CUDA GPU (the shap operation of
 * backend.h): the forest, its per-node numbers and the cuts are copied
 * once; the rows go through in blocks sized so that the block's workspace
 * fits the device, each binned, walked and copied back as floats.
 * Independent of training, like prediction. */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "common/checks.h"
#include "common/predict_job.h"
#include "cuda_context.h"
#include "error.h"

/* At most this much of the device's free memory goes to one block's
 * workspace. */
#define CUDA_SHAP_MAX_BLOCK_BYTES ((size_t)4 << 30)


/* A copy of host bytes on the device (NULL when src is). */
static void *dev_copy(cuda_context *c, cuda_job_mem *m, const void *src, size_t bytes,
                      const char *what, gpulayer_status *st)
{
    if (!src || *st != GPULAYER_OK) return NULL;
    void *p = cuda_job_get(c, m, bytes, what, st);
    if (!p || bytes == 0) return p;
    cudaError_t e = cudaMemcpyAsync(p, src, bytes, cudaMemcpyHostToDevice, c->dev.stream);
    if (e != cudaSuccess) *st = cuda_fail(c, e, what);
    return p;
}

/* Device bytes a row of the block needs, beside the model. */
static size_t row_bytes(const gpl_shap_job *job, int alg2, int64_t slots, int pairs)
{
    const size_t F = (size_t)job->predict.num_features, C = F + 1;
    const size_t K = (size_t)job->predict.num_outputs;
    const size_t walk = alg2 ? (size_t)slots * (sizeof(int32_t) + 3 * sizeof(double)) +
                                   (size_t)(job->shap->max_depth + 2) * sizeof(gpl_shap_visit)
                             : 0;
    size_t bytes = F * (sizeof(float) + sizeof(uint16_t)) + (job->row_base ? K * sizeof(float) : 0);
    if (job->kind == GPL_SHAP_INTERACTIONS)
        return bytes + K * C * C * (sizeof(double) + sizeof(float)) + K * C * sizeof(double) +
               (pairs ? 0 : C * (walk + 2 * C * sizeof(double)));
    return bytes + K * C * (sizeof(double) + sizeof(float)) + walk;
}

gpulayer_status cuda_shap(gpl_backend *be, const gpl_shap_job *job, float *out)
{
    cuda_context *c = cuda_ctx(be);
    CUDA_ENTER(c);
    const gpl_predict_job *pj = &job->predict;
    const gpl_infer_forest *fo = pj->forest;
    const gpl_shap_forest *sf = job->shap;
    const int64_t N = pj->num_rows;
    const int32_t F = pj->num_features, K = pj->num_outputs, C = F + 1;
    GPL_CHECK(gpl_check_predict_job("cuda", pj));
    if (N <= 0) return GPULAYER_OK;
    c->level = -1;
    const int64_t width = (int64_t)K * (job->kind == GPL_SHAP_INTERACTIONS ? (int64_t)C * C : C);

    /* Algorithm 2's paths grow with the depth. */
    const int alg2 = gpl_shap_job_walks_paths(job);
    const int pairs = job->kind == GPL_SHAP_INTERACTIONS &&
                      gpl_shap_pairs_by_quadrature(sf->linear, sf->num_trees);
    const int64_t slots = gpl_shap_path_slots(sf->max_depth);
    const size_t per_row = row_bytes(job, alg2, slots, pairs);
    size_t free_b = 0, total_b = 0;
    cudaMemGetInfo(&free_b, &total_b);
    size_t budget = free_b / 2 < CUDA_SHAP_MAX_BLOCK_BYTES ? free_b / 2 : CUDA_SHAP_MAX_BLOCK_BYTES;
    if (per_row > budget) {
        char need[32], have[32];
        gpl_format_bytes(per_row, need, sizeof need);
        gpl_format_bytes(budget, have, sizeof have);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "cuda backend: %s of one row need %s of workspace on %s (%d features, "
                         "%d outputs), more than the %s a block may take; compute them on "
                         "the cpu", job->kind == GPL_SHAP_INTERACTIONS ? "SHAP interactions"
                                                                       : "SHAP values",
                         need, c->dev.device_name, F, K, have);
    }
    int64_t block = (int64_t)(budget / per_row);
    /* A smaller block on request: the tests' way to cross block seams. */
    const char *cap = getenv("GPULAYER_SHAP_BLOCK_ROWS");
    if (cap && atoll(cap) > 0 && atoll(cap) < block) block = atoll(cap);
    if (block > N) block = N;
    const size_t B = (size_t)block;
    const int64_t threads = job->kind == GPL_SHAP_INTERACTIONS && !pairs ? block * C : block;

    float *host = malloc(sizeof(float) * B * (size_t)(F ? F : 1));
    if (!host)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "cuda backend: SHAP values: out of host memory for a block of rows");
    cuda_job_mem m = {{0}, 0};
    gpulayer_status st = GPULAYER_OK;
    const size_t nodes = (size_t)fo->num_nodes, trees = (size_t)fo->num_trees;
    const size_t feats = (size_t)sf->feat_first[sf->num_trees];
    gpl_cuda_shap_args a;
    memset(&a, 0, sizeof a);
    a.view.nodes = dev_copy(c, &m, fo->nodes, sizeof(gpl_infer_node) * nodes, "SHAP tree nodes", &st);
    a.view.leaf = dev_copy(c, &m, fo->leaf, sizeof(float) * nodes, "SHAP leaf values", &st);
    a.view.sets = dev_copy(c, &m, fo->cat_sets, sizeof(uint32_t) * (size_t)fo->cat_words * nodes,
                           "SHAP category sets", &st);
    a.view.set_words = fo->cat_words;
    a.view.first = dev_copy(c, &m, fo->first, sizeof(int64_t) * (trees + 1), "SHAP tree offsets",
                            &st);
    a.view.frac = dev_copy(c, &m, sf->frac, sizeof(double) * nodes, "SHAP cover shares", &st);
    a.view.mean = dev_copy(c, &m, sf->mean, sizeof(double) * nodes, "SHAP node means", &st);
    a.view.linear = dev_copy(c, &m, sf->linear, trees, "SHAP tree kinds", &st);
    a.view.feat_first = dev_copy(c, &m, sf->feat_first, sizeof(int64_t) * (trees + 1),
                                 "SHAP feature offsets", &st);
    a.view.features = dev_copy(c, &m, sf->features, sizeof(int32_t) * (feats ? feats : 1),
                               "SHAP tree features", &st);
    a.view.num_trees = fo->num_trees;
    a.view.num_outputs = K;
    a.view.num_features = F;
    a.kind = job->kind;
    a.pairs = pairs;
    a.cut_ptr = dev_copy(c, &m, pj->cut_ptr, sizeof(uint32_t) * ((size_t)F + 1),
                         "SHAP cut offsets", &st);
    a.cuts = dev_copy(c, &m, pj->cut_values, sizeof(float) * pj->cut_ptr[F], "SHAP cut values",
                      &st);
    a.base = dev_copy(c, &m, pj->base_margins, sizeof(float) * (size_t)K, "SHAP base margins",
                      &st);
    float *d_data = cuda_job_get(c, &m, sizeof(float) * B * (size_t)F, "SHAP raw values", &st);
    a.data = d_data;
    a.bins = cuda_job_get(c, &m, B * (size_t)F * sizeof(uint16_t), "SHAP bins", &st);
    const size_t acc_values = (size_t)width * B;
    a.acc = cuda_job_get(c, &m, sizeof(double) * acc_values, "SHAP sums", &st);
    float *d_row_base = job->row_base ? cuda_job_get(c, &m, sizeof(float) * B * (size_t)K,
                                                  "SHAP row base margins", &st)
                                      : NULL;
    a.out = cuda_job_get(c, &m, sizeof(float) * acc_values, "SHAP values", &st);
    if (job->kind == GPL_SHAP_INTERACTIONS)
        a.diag = cuda_job_get(c, &m, sizeof(double) * (size_t)K * (size_t)C * B, "SHAP diagonals",
                              &st);
    if (job->kind == GPL_SHAP_INTERACTIONS && !pairs) {
        const size_t onoff = sizeof(double) * (size_t)C * (size_t)threads;
        a.on = cuda_job_get(c, &m, onoff, "SHAP interaction sums", &st);
        a.off = cuda_job_get(c, &m, onoff, "SHAP interaction sums", &st);
        if (st == GPULAYER_OK) {
            cudaError_t e = cudaMemsetAsync(a.on, 0, onoff, c->dev.stream);
            if (e == cudaSuccess) e = cudaMemsetAsync(a.off, 0, onoff, c->dev.stream);
            if (e != cudaSuccess) st = cuda_fail(c, e, "clearing the SHAP interaction sums");
        }
    }
    if (alg2) {
        const size_t s = (size_t)slots * (size_t)threads;
        a.path.feature = cuda_job_get(c, &m, sizeof(int32_t) * s, "SHAP paths", &st);
        a.path.zero = cuda_job_get(c, &m, sizeof(double) * s, "SHAP paths", &st);
        a.path.one = cuda_job_get(c, &m, sizeof(double) * s, "SHAP paths", &st);
        a.path.weight = cuda_job_get(c, &m, sizeof(double) * s, "SHAP paths", &st);
        a.stack_len = sf->max_depth + 2;
        a.stack = cuda_job_get(c, &m, sizeof(gpl_shap_visit) * (size_t)a.stack_len * (size_t)threads,
                            "SHAP walk stacks", &st);
    }
    for (int64_t start = 0; st == GPULAYER_OK && start < N; start += block) {
        const int64_t n = N - start < block ? N - start : block;
        gpl_predict_job_block(pj, start, n, host);
        cudaError_t e = cudaMemcpyAsync(d_data, host, sizeof(float) * (size_t)n * (size_t)F,
                                        cudaMemcpyHostToDevice, c->dev.stream);
        if (e == cudaSuccess && d_row_base)
            e = cudaMemcpyAsync(d_row_base, job->row_base + start * K,
                                sizeof(float) * (size_t)n * (size_t)K, cudaMemcpyHostToDevice,
                                c->dev.stream);
        if (e == cudaSuccess)
            e = cudaMemsetAsync(a.acc, 0, sizeof(double) * (size_t)width * (size_t)n,
                                c->dev.stream);
        if (e == cudaSuccess && a.diag)
            e = cudaMemsetAsync(a.diag, 0, sizeof(double) * (size_t)K * C * (size_t)n,
                                c->dev.stream);
        if (e != cudaSuccess) {
            st = cuda_fail(c, e, "copying a block of rows for SHAP values to the device");
            break;
        }
        a.num_rows = n;
        a.row_base = d_row_base;
        /* The paths interleave the block's threads: a shorter last block
         * keeps the stride of its own thread count, within the buffers. */
        e = gpl_cuda_launch_shap(&a, c->dev.stream);
        if (e == cudaSuccess) e = cudaStreamSynchronize(c->dev.stream);
        if (e != cudaSuccess) {
            st = cuda_fail(c, e, "kernels of SHAP values (kernels_shap.cu)");
            break;
        }
        e = cudaMemcpyAsync(out + start * width, a.out, sizeof(float) * (size_t)n * (size_t)width,
                            cudaMemcpyDeviceToHost, c->dev.stream);
        if (e == cudaSuccess) e = cudaStreamSynchronize(c->dev.stream);
        if (e != cudaSuccess) st = cuda_fail(c, e, "copying SHAP values to the host");
    }
    cudaError_t se = cudaStreamSynchronize(c->dev.stream);
    if (st == GPULAYER_OK && se != cudaSuccess) st = cuda_fail(c, se, "finishing SHAP values");
    cuda_job_put_all(c, &m);
    free(host);
    return st;
}
