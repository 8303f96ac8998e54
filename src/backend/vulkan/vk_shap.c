/* vk_shap.c -- SHAP values on a Vulkan device (the shap operation of
 * backend.h): the forest, its per-node numbers and the cuts are uploaded
 * once; the rows go through in blocks sized so that every buffer fits one
 * binding and the device's memory, each block binned, walked and read
 * back as floats by the phases of shap.comp. Independent of training,
 * like prediction. */
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "common/checks.h"
#include "common/predict_job.h"
#include "error.h"
#include "shap_math.h"
#include "vk_context.h"

/* At most this much device memory goes to one block's buffers. */
#define VK_SHAP_BLOCK_BYTES ((VkDeviceSize)1 << 30)

enum { PHASE_BINS, PHASE_CONTRIBS, PHASE_INTERACTIONS, PHASE_FINISH_CONTRIBS,
       PHASE_FINISH_INTERACTIONS, PHASE_INTERACTIONS_OFF, PHASE_INTERACTIONS_PAIRS, PHASE_PAIRS,
       PHASE_FINISH_PAIRS };

/* Push constants of shap.comp. */
typedef struct shap_push {
    uint32_t phase, num_rows, num_features, num_outputs, num_trees, num_nodes, approx, threads,
        slots, stack_len, row_words, has_row_base, tree, code_bits, set_words;
} shap_push;

/* Everything shap.comp binds, in binding order. */
typedef struct shap_buffers {
    vk_buffer data, cut_ptr, cuts, nodes, leaf, trees, numbers, features, cat_sets, bins, sums,
        walk_d, walk_i, out, row_base;
} shap_buffers;

static void release(vk_context *c, shap_buffers *b)
{
    vk_abandon(c);
    (void)vk_finish(c);
    vk_buffer *all[] = {&b->data,     &b->cut_ptr, &b->cuts,   &b->nodes,  &b->leaf,
                        &b->trees,    &b->numbers, &b->features, &b->cat_sets, &b->bins,
                        &b->sums,     &b->walk_d,  &b->walk_i, &b->out,    &b->row_base};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) vk_buffer_destroy(c, all[i]);
}

/* A buffer of bytes (at least 16) holding src's bytes when src is given. */
static gpulayer_status make(vk_context *c, vk_buffer *b, const void *src, VkDeviceSize bytes,
                            const char *what)
{
    if (bytes > c->dev.max_range)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "vulkan backend: SHAP values: the %s need %llu bytes, more than "
                         "device '%s' can bind (maxStorageBufferRange %llu); compute them on "
                         "the cpu", what, (unsigned long long)bytes, c->dev.device_name,
                         (unsigned long long)c->dev.max_range);
    GPL_CHECK(vk_buffer_create(c, b, bytes ? bytes : 16, what));
    if (src && bytes) GPL_CHECK(vk_buffer_write(c, b, 0, src, bytes));
    return GPULAYER_OK;
}

static gpulayer_status upload_model(vk_context *c, const gpl_shap_job *job, shap_buffers *b)
{
    const gpl_infer_forest *f = job->predict.forest;
    const gpl_shap_forest *sf = job->shap;
    const int32_t F = job->predict.num_features, K = job->predict.num_outputs;
    const size_t nodes = (size_t)f->num_nodes, trees = (size_t)f->num_trees;
    uint32_t *table = malloc(sizeof(uint32_t) * 4 * (trees ? trees : 1));
    double *numbers = malloc(sizeof(double) * 2 * (nodes ? nodes : 1));
    float *leaf = malloc(sizeof(float) * (nodes + (size_t)K));
    if (!table || !numbers || !leaf) {
        free(table);
        free(numbers);
        free(leaf);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: SHAP values: out of memory");
    }
    for (size_t t = 0; t < trees; t++) {
        table[4 * t] = (uint32_t)f->first[t];
        table[4 * t + 1] = sf->linear[t];
        table[4 * t + 2] = (uint32_t)sf->feat_first[t];
        table[4 * t + 3] = (uint32_t)sf->feat_first[t + 1];
    }
    memcpy(numbers, sf->frac, sizeof(double) * nodes);
    memcpy(numbers + nodes, sf->mean, sizeof(double) * nodes);
    memcpy(leaf, f->leaf, sizeof(float) * nodes);
    memcpy(leaf + nodes, job->predict.base_margins, sizeof(float) * (size_t)K);
    const size_t feats = (size_t)sf->feat_first[sf->num_trees];
    gpulayer_status st = make(c, &b->nodes, f->nodes, sizeof(gpl_infer_node) * nodes, "tree nodes");
    if (st == GPULAYER_OK) st = make(c, &b->leaf, leaf, sizeof(float) * (nodes + (size_t)K), "leaf values");
    if (st == GPULAYER_OK) st = make(c, &b->trees, table, 16 * trees, "tree table");
    if (st == GPULAYER_OK)
        st = make(c, &b->numbers, numbers, sizeof(double) * 2 * nodes, "cover shares and means");
    if (st == GPULAYER_OK)
        st = make(c, &b->features, sf->features, sizeof(int32_t) * feats, "tree features");
    if (st == GPULAYER_OK)
        st = make(c, &b->cat_sets, f->cat_sets, f->cat_sets ? 4 * (size_t)f->cat_words * nodes : 0,
                  "category sets");
    if (st == GPULAYER_OK)
        st = make(c, &b->cut_ptr, job->predict.cut_ptr, 4 * ((size_t)F + 1), "cut offsets");
    if (st == GPULAYER_OK)
        st = make(c, &b->cuts, job->predict.cut_values, 4 * (size_t)job->predict.cut_ptr[F],
                  "cut values");
    free(table);
    free(numbers);
    free(leaf);
    return st;
}

/* Bytes of each per-block buffer for a block of n rows. */
typedef struct shap_sizes {
    VkDeviceSize data, bins, sums, walk_d, walk_i, out, row_base;
} shap_sizes;

static shap_sizes sizes_for(const gpl_shap_job *job, uint64_t n, uint32_t row_words, int alg2,
                            uint64_t slots)
{
    const uint64_t F = (uint64_t)job->predict.num_features, C = F + 1;
    const uint64_t K = (uint64_t)job->predict.num_outputs;
    const int inter = job->kind == GPL_SHAP_INTERACTIONS;
    /* Interactions without paths go by quadrature: no on and off. */
    const uint64_t width = K * (inter ? C * C : C), threads = inter && alg2 ? n * C : n;
    const uint64_t stack = (uint64_t)job->shap->max_depth + 2;
    shap_sizes s;
    s.data = n * F * 4;
    s.bins = n * row_words * 4;
    s.sums = 8 * (width * n + (inter ? K * C * n + (alg2 ? 2 * C * threads : 0) : 0));
    s.walk_d = alg2 ? 8 * (3 * slots + 3 * stack) * threads : 0;
    s.walk_i = alg2 ? 4 * (slots + 4 * stack) * threads : 0;
    s.out = 4 * width * n;
    s.row_base = job->row_base ? 4 * K * n : 0;
    return s;
}

static VkDeviceSize largest(const shap_sizes *s)
{
    const VkDeviceSize all[] = {s->data, s->bins, s->sums, s->walk_d, s->walk_i, s->out,
                                s->row_base};
    VkDeviceSize m = 0;
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) m = all[i] > m ? all[i] : m;
    return m;
}

static VkDeviceSize total(const shap_sizes *s)
{
    return s->data + s->bins + s->sums + s->walk_d + s->walk_i + s->out + s->row_base;
}

/* The rows of a block: every buffer within a binding, all within the
 * budget, indices within 32 bits; a row that cannot fit is refused with
 * the numbers. */
static gpulayer_status plan_block(const vk_context *c, const gpl_shap_job *job,
                                  uint32_t row_words, int alg2, uint64_t slots, int64_t *rows)
{
    const shap_sizes one = sizes_for(job, 1, row_words, alg2, slots);
    VkDeviceSize budget = VK_SHAP_BLOCK_BYTES;
    if (budget > c->dev.heap_bytes / 2) budget = c->dev.heap_bytes / 2;
    if (largest(&one) > c->dev.max_range || total(&one) > budget) {
        char need[32], have[32];
        gpl_format_bytes((size_t)total(&one), need, sizeof need);
        gpl_format_bytes((size_t)budget, have, sizeof have);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "vulkan backend: %s of one row need %s of workspace on '%s' (%d "
                         "features, %d outputs; largest buffer %llu bytes, the device binds "
                         "%llu), more than the %s a block may take; compute them on the cpu",
                         job->kind == GPL_SHAP_INTERACTIONS ? "SHAP interactions"
                                                            : "SHAP values",
                         need, c->dev.device_name, job->predict.num_features,
                         job->predict.num_outputs, (unsigned long long)largest(&one),
                         (unsigned long long)c->dev.max_range, have);
    }
    uint64_t n = budget / total(&one);
    const VkDeviceSize big = largest(&one);
    if (n > c->dev.max_range / big) n = c->dev.max_range / big;
    /* Word indices of the largest buffer stay below 2^32. */
    if (n > ((uint64_t)1 << 34) / big) n = ((uint64_t)1 << 34) / big;
    const char *cap = getenv("GPULAYER_SHAP_BLOCK_ROWS");
    if (cap && atoll(cap) > 0 && (uint64_t)atoll(cap) < n) n = (uint64_t)atoll(cap);
    if (n > (uint64_t)job->predict.num_rows) n = (uint64_t)job->predict.num_rows;
    if (n < 1) n = 1;
    *rows = (int64_t)n;
    return GPULAYER_OK;
}

static gpulayer_status dispatch(vk_context *c, const shap_buffers *b, shap_push *p,
                                uint32_t phase, uint64_t items)
{
    p->phase = phase;
    const vk_range bind[15] = {
        vk_whole(&b->data),     vk_whole(&b->cut_ptr), vk_whole(&b->cuts),
        vk_whole(&b->nodes),    vk_whole(&b->leaf),    vk_whole(&b->trees),
        vk_whole(&b->numbers),  vk_whole(&b->features), vk_whole(&b->cat_sets),
        vk_whole(&b->bins),     vk_whole(&b->sums),    vk_whole(&b->walk_d),
        vk_whole(&b->walk_i),   vk_whole(&b->out),     vk_whole(&b->row_base)};
    GPL_CHECK(vk_dispatch(c, VK_K_SHAP, bind, p, vk_groups_for(c, items)));
    vk_barrier(c);
    return GPULAYER_OK;
}

gpulayer_status vk_shap(gpl_backend *be, const gpl_shap_job *job, float *out)
{
    vk_context *c = vk_ctx(be);
    const gpl_predict_job *pj = &job->predict;
    const int64_t N = pj->num_rows;
    const int32_t F = pj->num_features, K = pj->num_outputs, C = F + 1;
    GPL_CHECK(gpl_check_predict_job("vulkan", pj));
    if (N <= 0) return GPULAYER_OK;
    c->level = -1;
    const int inter = job->kind == GPL_SHAP_INTERACTIONS;
    const int64_t width = (int64_t)K * (inter ? (int64_t)C * C : C);
    const int alg2 = gpl_shap_job_walks_paths(job);
    const int pairs = inter && !alg2; /* interactions by quadrature */
    const uint64_t slots = (uint64_t)gpl_shap_path_slots(job->shap->max_depth);
    const uint32_t row_words = gpl_packed_row_words(F, pj->forest->code_bytes);
    int64_t block = 0;
    GPL_CHECK(plan_block(c, job, row_words, alg2, slots, &block));
    const shap_sizes sz = sizes_for(job, (uint64_t)block, row_words, alg2, slots);
    float *host = malloc(sizeof(float) * (size_t)block * (size_t)(F ? F : 1));
    if (!host)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "vulkan backend: SHAP values: out of host memory for a block of rows");
    shap_buffers b;
    memset(&b, 0, sizeof b);
    gpulayer_status st = upload_model(c, job, &b);
    if (st == GPULAYER_OK) st = make(c, &b.data, NULL, sz.data, "raw values");
    if (st == GPULAYER_OK) st = make(c, &b.bins, NULL, sz.bins, "bins");
    if (st == GPULAYER_OK) st = make(c, &b.sums, NULL, sz.sums, "sums");
    if (st == GPULAYER_OK) st = make(c, &b.walk_d, NULL, sz.walk_d, "walk paths");
    if (st == GPULAYER_OK) st = make(c, &b.walk_i, NULL, sz.walk_i, "walk paths");
    if (st == GPULAYER_OK) st = make(c, &b.out, NULL, sz.out, "values");
    if (st == GPULAYER_OK) st = make(c, &b.row_base, NULL, sz.row_base, "row base margins");
    for (int64_t start = 0; st == GPULAYER_OK && start < N; start += block) {
        const int64_t n = N - start < block ? N - start : block;
        gpl_predict_job_block(pj, start, n, host);
        if (F) st = vk_buffer_write(c, &b.data, 0, host, (VkDeviceSize)n * (VkDeviceSize)F * 4);
        if (st == GPULAYER_OK && job->row_base)
            st = vk_buffer_write(c, &b.row_base, 0, job->row_base + start * K,
                                 (VkDeviceSize)n * (VkDeviceSize)K * 4);
        const uint64_t threads = inter && !pairs ? (uint64_t)n * (uint64_t)C : (uint64_t)n;
        shap_push p = {0,
                       (uint32_t)n,
                       (uint32_t)F,
                       (uint32_t)K,
                       (uint32_t)pj->forest->num_trees,
                       (uint32_t)pj->forest->num_nodes,
                       job->kind == GPL_SHAP_APPROX,
                       (uint32_t)threads,
                       (uint32_t)slots,
                       (uint32_t)(job->shap->max_depth + 2),
                       row_words,
                       job->row_base != NULL,
                       0,
                       8u * (uint32_t)pj->forest->code_bytes,
                       (uint32_t)pj->forest->cat_words};
        if (st == GPULAYER_OK) st = vk_begin(c, "shap");
        if (st != GPULAYER_OK) break;
        /* The sums start at zero (the walks add); on and off stay zero. */
        vk_fill(c, &b.sums, 0, b.sums.bytes, 0u);
        vk_barrier(c);
        st = dispatch(c, &b, &p, PHASE_BINS, (uint64_t)n);
        /* One tree and one walk a dispatch, in order (shap.comp says why). */
        for (p.tree = 0; st == GPULAYER_OK && p.tree < p.num_trees; p.tree++) {
            if (pairs) {
                st = dispatch(c, &b, &p, PHASE_PAIRS, threads);
                continue;
            }
            st = dispatch(c, &b, &p, inter ? PHASE_INTERACTIONS : PHASE_CONTRIBS, threads);
            if (st == GPULAYER_OK && inter)
                st = dispatch(c, &b, &p, PHASE_INTERACTIONS_OFF, threads);
            if (st == GPULAYER_OK && inter)
                st = dispatch(c, &b, &p, PHASE_INTERACTIONS_PAIRS, threads);
        }
        if (st == GPULAYER_OK)
            st = dispatch(c, &b, &p,
                          pairs   ? PHASE_FINISH_PAIRS
                          : inter ? PHASE_FINISH_INTERACTIONS
                                  : PHASE_FINISH_CONTRIBS,
                          (uint64_t)n * (uint64_t)K * (uint64_t)C);
        if (st == GPULAYER_OK) st = vk_submit(c);
        if (st == GPULAYER_OK)
            st = vk_buffer_read(c, &b.out, 0, out + start * width,
                                (VkDeviceSize)n * (VkDeviceSize)width * 4);
    }
    release(c, &b);
    free(host);
    return st;
}
