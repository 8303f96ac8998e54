/* cpu_partition.c -- stable partition of each split node's rows into its
 * two children (rows keep their ascending order within a node). */
#include <omp.h>
#include <string.h>

#include "cpu_backend.h"
#include "error.h"

static int64_t partition_node(cpu_context *c, const gpl_split_apply *s)
{
    const int32_t F = c->num_features;
    const int64_t begin = c->node_begin[s->node], count = c->node_count[s->node];
    uint32_t *rows = c->rows + begin;
    uint32_t *right = c->rows_scratch + begin;
    const uint8_t *column = c->bins + s->feature;
    const int bin_limit = s->bin, missing_left = s->default_left;
    int64_t nl = 0, nr = 0;
    for (int64_t i = 0; i < count; i++) {
        uint32_t r = rows[i];
        int b = column[(int64_t)r * F];
        int go_left = b == 0 ? missing_left : b <= bin_limit;
        if (go_left) rows[nl++] = r;
        else right[nr++] = r;
    }
    memcpy(rows + nl, right, sizeof(uint32_t) * (size_t)nr);
    return nl;
}

gpulayer_status cpu_partition_rows(gpl_backend *be,
                                   const gpl_split_apply *splits,
                                   int32_t count, int64_t *child_rows)
{
    cpu_context *c = cpu_ctx(be);
    for (int32_t i = 0; i < count; i++) {
        const gpl_split_apply *s = &splits[i];
        if (s->node < 0 || s->node >= c->max_nodes ||
            c->node_state[s->node] != CPU_NODE_LIVE || s->left_child < 0 ||
            s->left_child >= c->max_nodes || s->right_child < 0 ||
            s->right_child >= c->max_nodes || s->feature < 0 ||
            s->feature >= c->num_features)
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "cpu backend: invalid split of node %d", s->node);
    }
#pragma omp parallel for num_threads(c->nthread) schedule(dynamic)
    for (int32_t i = 0; i < count; i++) {
        const gpl_split_apply *s = &splits[i];
        int64_t nl = partition_node(c, s);
        int64_t begin = c->node_begin[s->node], total = c->node_count[s->node];
        c->node_begin[s->left_child] = begin;
        c->node_count[s->left_child] = nl;
        c->node_begin[s->right_child] = begin + nl;
        c->node_count[s->right_child] = total - nl;
        c->node_state[s->left_child] = CPU_NODE_LIVE;
        c->node_state[s->right_child] = CPU_NODE_LIVE;
        c->node_state[s->node] = CPU_NODE_SPLIT;
        child_rows[2 * i] = nl;
        child_rows[2 * i + 1] = total - nl;
    }
    return GPULAYER_OK;
}
