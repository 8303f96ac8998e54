/* vk_rank.c -- the ranking objectives on the device: set_groups (the query
 * groups and their tables, copied once) and the gradients of
 * rank_math.h in one batch: the model order of every query (a counting
 * rank), the grade order (mean method) or MAP's running sums, the pairs'
 * fixed-point sums, then each row's pair and the maxima, quantized by the
 * path every objective takes (vk_quantize_gradients). */
#include <stdlib.h>

#include "alloc.h"
#include "error.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "vk_context.h"

void vk_rank_free(vk_context *c)
{
    vk_rank *rk = &c->rank;
    vk_buffer *all[] = {&rk->group_ptr, &rk->discount, &rk->inv_idcg, &rk->group_weight,
                        &rk->qsums, &rk->order, &rk->yorder, &rk->runs, &rk->map};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) vk_buffer_destroy(c, all[i]);
    rk->num_groups = 0;
    rk->max_group_size = 0;
}

/* The ranking kernels bind every per-row and per-query buffer whole (a
 * query's rows are reached at any place), so each must fit one storage
 * binding: jobs beyond that are refused, naming the buffer and the limit. */
static gpulayer_status check_binding(const vk_context *c, uint64_t bytes, const char *what)
{
    if (bytes <= c->dev.max_range) return GPULAYER_OK;
    return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                     "vulkan backend: ranking needs the %s (%llu bytes) in one storage "
                     "binding; device '%s' binds at most %llu bytes (maxStorageBufferRange); "
                     "use fewer rows or the cpu backend", what, (unsigned long long)bytes,
                     c->dev.device_name, (unsigned long long)c->dev.max_range);
}

/* A device buffer of `bytes` bytes holding data (NULL: uninitialised). */
static gpulayer_status make_buffer(vk_context *c, vk_buffer *b, uint64_t bytes, const void *data,
                                   const char *what)
{
    GPL_CHECK(vk_buffer_create(c, b, bytes, what));
    if (data && bytes) GPL_CHECK(vk_buffer_write(c, b, 0, data, bytes));
    c->estimate_bytes += (size_t)(bytes ? bytes : 16);
    return GPULAYER_OK;
}

/* The kernels order a query by a counting rank, quadratic in its rows:
 * larger queries are refused rather than left to run for minutes a round. */
#define VK_RANK_MAX_QUERY_ROWS 65536

gpulayer_status vk_set_groups(gpl_backend *be, const gpl_rank_groups *g)
{
    vk_context *c = vk_ctx(be);
    const int64_t N = c->shape.num_rows, G = g->num_groups;
    if (G < 0 || (G == 0 && N > 0) || (G > 0 && (g->group_ptr[0] != 0 || g->group_ptr[G] != N)))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "vulkan backend: %lld query groups cover rows 0 .. %lld; the uploaded "
                         "data has %lld rows", (long long)G,
                         (long long)(G > 0 ? g->group_ptr[G] : 0), (long long)N);
    for (int64_t q = 0; q < G; q++)
        if (g->group_ptr[q + 1] - g->group_ptr[q] > VK_RANK_MAX_QUERY_ROWS)
            return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                             "vulkan backend: query %lld has %lld rows; the Vulkan ranking "
                             "kernels take queries of at most %d rows (each query is ordered "
                             "by a counting rank, quadratic in its rows); use the cpu or cuda "
                             "backend", (long long)q,
                             (long long)(g->group_ptr[q + 1] - g->group_ptr[q]),
                             VK_RANK_MAX_QUERY_ROWS);
    const uint64_t K = (uint64_t)c->shape.num_outputs, M = (uint64_t)g->max_group_size;
    GPL_CHECK(check_binding(c, (uint64_t)N * 16, "gradient pairs"));
    GPL_CHECK(check_binding(c, (uint64_t)N * K * 4, "margins"));
    GPL_CHECK(check_binding(c, ((uint64_t)G + 1) * 8, "query tables"));
    GPL_CHECK(check_binding(c, M * 8, "discount table"));
    vk_rank_free(c);
    uint32_t *ptr = gpl_malloc(sizeof(uint32_t) * ((size_t)G + 1), "vulkan query offsets");
    if (!ptr) return GPULAYER_ERR_OUT_OF_MEMORY;
    for (int64_t q = 0; q <= G; q++) ptr[q] = G > 0 ? (uint32_t)g->group_ptr[q] : 0u;
    vk_rank *rk = &c->rank;
    gpulayer_status st = make_buffer(c, &rk->group_ptr, ((uint64_t)G + 1) * 4, ptr, "query offsets");
    free(ptr);
    if (st == GPULAYER_OK)
        st = make_buffer(c, &rk->discount, M * 8, g->discount, "ranking discounts");
    if (st == GPULAYER_OK)
        st = make_buffer(c, &rk->inv_idcg, (uint64_t)G * 8, g->inv_idcg, "query ideal DCGs");
    if (st == GPULAYER_OK)
        st = make_buffer(c, &rk->group_weight, (uint64_t)G * 8, g->group_weight,
                         "query weights");
    if (st == GPULAYER_OK)
        st = make_buffer(c, &rk->qsums, (uint64_t)G * 8, NULL, "query lambda sums");
    if (st == GPULAYER_OK)
        st = make_buffer(c, &rk->order, (uint64_t)N * 4, NULL, "ranking order");
    if (st != GPULAYER_OK) {
        vk_rank_free(c);
        return st;
    }
    rk->num_groups = G;
    rk->max_group_size = g->max_group_size;
    return GPULAYER_OK;
}

/* Grade order and runs for the mean method, running sums for rank:map:
 * made the first time a request needs them. */
static gpulayer_status ensure_extras(vk_context *c, int mean, int map)
{
    vk_rank *rk = &c->rank;
    const uint64_t N = (uint64_t)c->shape.num_rows;
    if (mean && !rk->yorder.buffer)
        GPL_CHECK(make_buffer(c, &rk->yorder, N * 4, NULL, "ranking grade order"));
    if (mean && !rk->runs.buffer)
        GPL_CHECK(make_buffer(c, &rk->runs, N * 8, NULL, "ranking grade runs"));
    if (map && !rk->map.buffer)
        GPL_CHECK(make_buffer(c, &rk->map, N * 16, NULL, "rank:map running sums"));
    return GPULAYER_OK;
}

gpulayer_status vk_rank_gradients(gpl_backend *be, const gpl_gradient_request *req,
                                  gpl_quant_scale *scale)
{
    vk_context *c = vk_ctx(be);
    vk_rank *rk = &c->rank;
    c->level = -1;
    if (!rk->group_ptr.buffer)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "vulkan backend: a ranking objective needs the query groups "
                         "(set_groups) before compute_gradients");
    const int mean = req->rank.pair_method == GPL_RANK_MEAN;
    const int map = req->objective == GPL_OBJ_RANK_MAP;
    GPL_CHECK(ensure_extras(c, mean, map));
    const uint64_t N = (uint64_t)c->shape.num_rows;
    const vk_buffer *spare = &rk->order; /* bound where a pass reads nothing */
    const vk_range b[GPL_RANK_BINDINGS] = {
        vk_whole(&rk->group_ptr), vk_whole(&c->buf.margins), vk_whole(&c->buf.labels),
        vk_whole(&rk->order), vk_whole(mean ? &rk->yorder : spare),
        vk_whole(mean ? &rk->runs : spare), vk_whole(map ? &rk->map : spare),
        vk_whole(&c->buf.grad), vk_whole(&rk->qsums), vk_whole(&rk->discount),
        vk_whole(&rk->inv_idcg), vk_whole(&rk->group_weight),
        {&c->buf.group_max, 0, (VkDeviceSize)c->grad_groups * 16}};
    gpl_rank_push p = gpl_rank_push_make(req, N, rk->num_groups, c->shape.num_outputs);
    const uint32_t row_groups = vk_groups_for(c, N);
    GPL_CHECK(vk_begin(c, "rank_gradients"));
    vk_fill(c, &c->buf.grad, 0, N * 16, 0);
    vk_fill(c, &rk->qsums, 0, (VkDeviceSize)rk->num_groups * 8, 0);
    GPL_CHECK(vk_dispatch(c, VK_K_RANK_ORDER, b, &p, row_groups));
    vk_barrier(c);
    if (mean) {
        p.mode = 1;
        GPL_CHECK(vk_dispatch(c, VK_K_RANK_ORDER, b, &p, row_groups));
        vk_barrier(c);
    }
    if (map) {
        GPL_CHECK(vk_dispatch(c, VK_K_RANK_MAP, b, &p,
                              vk_groups_for(c, (uint64_t)rk->num_groups)));
        vk_barrier(c);
    }
    GPL_CHECK(vk_dispatch(c, VK_K_RANK_PAIRS, b, &p, row_groups));
    vk_barrier(c);
    /* grad_groups workgroups, as the gradients kernel: the maxima are read
     * as one dispatch's. */
    GPL_CHECK(vk_dispatch(c, VK_K_RANK_FINISH, b, &p, c->grad_groups));
    GPL_CHECK(vk_submit(c));
    return vk_quantize_gradients(c, 1, scale);
}
