/* vk_predict.c -- batch prediction on a Vulkan device (the predict
 * operation of backend.h): the forest and the cuts are uploaded once, then
 * the rows go through in blocks; for each block the predict kernel bins the
 * raw values and walks every tree on the device, and the margins are read
 * back. Independent of training: a backend created only to predict. */
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "common/predict_job.h"
#include "error.h"
#include "vk_context.h"

/* The raw values of one block are at most this many bytes (one staging
 * copy where the device memory is not host-visible). */
#define VK_PREDICT_BLOCK_BYTES ((VkDeviceSize)16 << 20)

/* Push constants of predict.comp. */
typedef struct predict_push {
    uint32_t num_rows, num_features, row_words, num_trees, num_outputs;
    uint32_t base_at; /* the base margins' first word in the leaf buffer */
    uint32_t code_bits;
    uint32_t set_words; /* gpl_infer_forest.cat_words */
} predict_push;

/* Everything predict.comp binds, bound whole. */
typedef struct predict_buffers {
    vk_buffer data, cut_ptr, cuts, nodes, leaf, trees, bins, out, cat_sets;
} predict_buffers;

static gpulayer_status fits_binding(const vk_context *c, VkDeviceSize bytes, const char *what)
{
    if (bytes <= c->dev.max_range) return GPULAYER_OK;
    return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                     "vulkan backend: predict: the %s needs %llu bytes, more than device "
                     "'%s' can bind (maxStorageBufferRange %llu); predict on the cpu",
                     what, (unsigned long long)bytes, c->dev.device_name,
                     (unsigned long long)c->dev.max_range);
}

static void release(vk_context *c, predict_buffers *b)
{
    vk_abandon(c);
    (void)vk_finish(c); /* nothing may be in flight when buffers go */
    vk_buffer *all[] = {&b->data, &b->cut_ptr, &b->cuts, &b->nodes,
                        &b->leaf, &b->trees, &b->bins, &b->out, &b->cat_sets};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) vk_buffer_destroy(c, all[i]);
}

/* The forest and the cuts on the device. Tree offsets become 32-bit: the
 * node buffer fits one binding, so every node index does. */
static gpulayer_status upload_model(vk_context *c, const gpl_predict_job *job,
                                    predict_buffers *b)
{
    const gpl_infer_forest *f = job->forest;
    const VkDeviceSize F = (VkDeviceSize)job->num_features;
    const VkDeviceSize num_cuts = job->cut_ptr[job->num_features];
    GPL_CHECK(fits_binding(c, (VkDeviceSize)f->num_nodes * sizeof(gpl_infer_node),
                           "tree nodes"));
    GPL_CHECK(fits_binding(c, ((VkDeviceSize)f->num_nodes + (VkDeviceSize)job->num_outputs) * 4,
                           "leaf values"));
    GPL_CHECK(fits_binding(c, (VkDeviceSize)f->num_trees * 8, "tree table"));
    GPL_CHECK(fits_binding(c, num_cuts * 4, "cut values"));
    const VkDeviceSize set_bytes =
        f->cat_sets ? (VkDeviceSize)f->num_nodes * (VkDeviceSize)f->cat_words * 4 : 0;
    GPL_CHECK(fits_binding(c, set_bytes, "category sets"));
    uint32_t *trees = malloc(sizeof(uint32_t) * 2 * (size_t)(f->num_trees ? f->num_trees : 1));
    if (!trees)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: predict: out of memory");
    for (int32_t t = 0; t < f->num_trees; t++) {
        trees[2 * t] = (uint32_t)f->first[t];
        trees[2 * t + 1] = (uint32_t)f->depth[t];
    }
    const VkDeviceSize node_bytes = (VkDeviceSize)f->num_nodes * sizeof(gpl_infer_node);
    const VkDeviceSize tree_bytes = (VkDeviceSize)f->num_trees * 8;
    gpulayer_status st = vk_buffer_create(c, &b->nodes, node_bytes, "prediction tree nodes");
    if (st == GPULAYER_OK && node_bytes)
        st = vk_buffer_write(c, &b->nodes, 0, f->nodes, node_bytes);
    /* The leaf values, then the K base margins. */
    const VkDeviceSize leaf_bytes = (VkDeviceSize)f->num_nodes * 4;
    const VkDeviceSize base_bytes = (VkDeviceSize)job->num_outputs * 4;
    if (st == GPULAYER_OK)
        st = vk_buffer_create(c, &b->leaf, leaf_bytes + base_bytes, "prediction leaf values");
    if (st == GPULAYER_OK && f->num_nodes)
        st = vk_buffer_write(c, &b->leaf, 0, f->leaf, leaf_bytes);
    if (st == GPULAYER_OK)
        st = vk_buffer_write(c, &b->leaf, leaf_bytes, job->base_margins, base_bytes);
    if (st == GPULAYER_OK)
        st = vk_buffer_create(c, &b->trees, tree_bytes, "prediction tree table");
    if (st == GPULAYER_OK && tree_bytes) st = vk_buffer_write(c, &b->trees, 0, trees, tree_bytes);
    free(trees);
    /* Without categorical nodes the kernel never reads the sets. */
    if (st == GPULAYER_OK)
        st = vk_buffer_create(c, &b->cat_sets, set_bytes ? set_bytes : 16,
                              "prediction category sets");
    if (st == GPULAYER_OK && set_bytes)
        st = vk_buffer_write(c, &b->cat_sets, 0, f->cat_sets, set_bytes);
    GPL_CHECK(st);
    GPL_CHECK(vk_buffer_create(c, &b->cut_ptr, (F + 1) * 4, "prediction cut offsets"));
    GPL_CHECK(vk_buffer_write(c, &b->cut_ptr, 0, job->cut_ptr, (F + 1) * 4));
    GPL_CHECK(vk_buffer_create(c, &b->cuts, num_cuts * 4, "prediction cut values"));
    if (num_cuts) GPL_CHECK(vk_buffer_write(c, &b->cuts, 0, job->cut_values, num_cuts * 4));
    return GPULAYER_OK;
}

/* Rows a block: its raw values, packed bins and margins each fit one
 * binding (and the values one staging copy), and the count fits 32 bits. */
static gpulayer_status plan_block(const vk_context *c, const gpl_predict_job *job,
                                  uint32_t row_words, int64_t *rows)
{
    const VkDeviceSize value_row = (VkDeviceSize)job->num_features * 4;
    const VkDeviceSize bin_row = (VkDeviceSize)row_words * 4;
    const VkDeviceSize out_row = (VkDeviceSize)job->num_outputs * 4;
    GPL_CHECK(fits_binding(c, value_row, "raw values of one row"));
    GPL_CHECK(fits_binding(c, bin_row, "bins of one row"));
    GPL_CHECK(fits_binding(c, out_row, "margins of one row"));
    VkDeviceSize n = value_row ? VK_PREDICT_BLOCK_BYTES / value_row : (VkDeviceSize)job->num_rows;
    if (n < 1) n = 1;
    if (n > c->dev.max_range / bin_row) n = c->dev.max_range / bin_row;
    if (n > c->dev.max_range / out_row) n = c->dev.max_range / out_row;
    if (value_row && n > c->dev.max_range / value_row) n = c->dev.max_range / value_row;
    if (n > (VkDeviceSize)job->num_rows) n = (VkDeviceSize)job->num_rows;
    if (n > UINT32_MAX / 2) n = UINT32_MAX / 2;
    *rows = (int64_t)n;
    return GPULAYER_OK;
}

gpulayer_status vk_predict(gpl_backend *be, const gpl_predict_job *job, float *margins)
{
    vk_context *c = vk_ctx(be);
    const int64_t N = job->num_rows;
    const int32_t F = job->num_features, K = job->num_outputs;
    GPL_CHECK(gpl_check_predict_job("vulkan", job));
    if (N <= 0) return GPULAYER_OK;
    c->level = -1;
    const uint32_t row_words = gpl_packed_row_words(F, job->forest->code_bytes);
    int64_t block = 0;
    GPL_CHECK(plan_block(c, job, row_words, &block));
    const VkDeviceSize B = (VkDeviceSize)block;
    const VkDeviceSize model_bytes =
        (VkDeviceSize)job->forest->num_nodes *
            (20 + (job->forest->cat_sets ? 4 * (VkDeviceSize)job->forest->cat_words : 0)) +
        (VkDeviceSize)job->forest->num_trees * 8 + (VkDeviceSize)K * 4 +
        ((VkDeviceSize)F + 1) * 4 + (VkDeviceSize)job->cut_ptr[F] * 4;
    const VkDeviceSize need = model_bytes + B * ((VkDeviceSize)F * 4 + row_words * 4 +
                                                 (VkDeviceSize)K * 4);
    if (need > c->dev.heap_bytes)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "vulkan backend: predict needs %.1f MiB of device memory; device "
                         "'%s' has a %.1f MiB heap", need / 1048576.0, c->dev.device_name,
                         c->dev.heap_bytes / 1048576.0);
    float *host = malloc(sizeof(float) * (size_t)(B * (VkDeviceSize)(F ? F : 1)));
    if (!host)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "vulkan backend: predict: out of host memory for a block of rows");
    predict_buffers b;
    memset(&b, 0, sizeof b);
    gpulayer_status st = upload_model(c, job, &b);
    if (st == GPULAYER_OK)
        st = vk_buffer_create(c, &b.data, B * (VkDeviceSize)F * 4, "prediction raw values");
    if (st == GPULAYER_OK)
        st = vk_buffer_create(c, &b.bins, B * row_words * 4, "prediction bins");
    if (st == GPULAYER_OK)
        st = vk_buffer_create(c, &b.out, B * (VkDeviceSize)K * 4, "prediction margins");
    for (int64_t start = 0; st == GPULAYER_OK && start < N; start += block) {
        const int64_t n = N - start < block ? N - start : block;
        /* Feature-major within the block: the kernel's reads of one
         * feature by neighbouring rows are neighbouring words. */
        gpl_predict_job_block(job, start, n, host);
        if (F) st = vk_buffer_write(c, &b.data, 0, host, (VkDeviceSize)n * (VkDeviceSize)F * 4);
        predict_push p = {(uint32_t)n, (uint32_t)F, row_words, (uint32_t)job->forest->num_trees,
                          (uint32_t)K, (uint32_t)job->forest->num_nodes,
                          8u * (uint32_t)job->forest->code_bytes,
                          (uint32_t)job->forest->cat_words};
        vk_range bind[9] = {vk_whole(&b.data), vk_whole(&b.cut_ptr), vk_whole(&b.cuts),
                            vk_whole(&b.nodes), vk_whole(&b.leaf), vk_whole(&b.trees),
                            vk_whole(&b.bins), vk_whole(&b.out), vk_whole(&b.cat_sets)};
        if (st == GPULAYER_OK) st = vk_begin(c, "predict");
        if (st == GPULAYER_OK)
            st = vk_dispatch(c, VK_K_PREDICT, bind, &p, vk_groups_for(c, (uint64_t)n));
        if (st == GPULAYER_OK) st = vk_submit(c);
        if (st == GPULAYER_OK)
            st = vk_buffer_read(c, &b.out, 0, margins + start * K,
                                (VkDeviceSize)n * (VkDeviceSize)K * 4);
    }
    release(c, &b);
    free(host);
    return st;
}
