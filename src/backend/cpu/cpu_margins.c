/* cpu_margins.c -- the margins: set, read back, and updated by a tree's
 * leaves. */
#include <omp.h>
#include <string.h>

#include "cpu_context.h"

gpulayer_status cpu_set_margins(gpl_backend *be, const float *margins)
{
    cpu_context *c = cpu_ctx(be);
    memcpy(c->buf.margins, margins,
           sizeof(float) * (size_t)c->shape.num_rows * (size_t)c->shape.num_outputs);
    c->buf.softmax_norm_ready = 0;
    return GPULAYER_OK;
}

gpulayer_status cpu_get_margins(gpl_backend *be, float *margins)
{
    cpu_context *c = cpu_ctx(be);
    memcpy(margins, c->buf.margins,
           sizeof(float) * (size_t)c->shape.num_rows * (size_t)c->shape.num_outputs);
    return GPULAYER_OK;
}

gpulayer_status cpu_update_margins(gpl_backend *be, int32_t output,
                                   const float *leaf_value)
{
    cpu_context *c = cpu_ctx(be);
    const int32_t K = c->shape.num_outputs;
#pragma omp parallel for num_threads(c->nthread) schedule(dynamic)
    for (int32_t n = 0; n < c->shape.max_nodes; n++) {
        if (c->nodes.state[n] != GPL_NODE_LIVE) continue;
        const uint32_t *rows = c->buf.rows + c->nodes.begin[n];
        const float v = leaf_value[n];
        for (int64_t i = 0; i < c->nodes.count[n]; i++)
            c->buf.margins[(int64_t)rows[i] * K + output] += v;
    }
    return GPULAYER_OK;
}
