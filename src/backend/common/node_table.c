/* node_table.c -- the host's node table shared by the backends. */
#include "node_table.h"

#include <stdlib.h>
#include <string.h>

int gpl_node_table_init(gpl_node_table *t, int32_t max_nodes)
{
    const size_t M = (size_t)(max_nodes > 0 ? max_nodes : 1);
    memset(t, 0, sizeof *t);
    t->max_nodes = max_nodes;
    t->begin = calloc(M, sizeof *t->begin);
    t->count = calloc(M, sizeof *t->count);
    t->state = calloc(M, sizeof *t->state);
    t->depth = calloc(M, sizeof *t->depth);
    t->buf = calloc(M, sizeof *t->buf);
    if (!t->begin || !t->count || !t->state || !t->depth || !t->buf) {
        gpl_node_table_free(t);
        return -1;
    }
    return 0;
}

void gpl_node_table_free(gpl_node_table *t)
{
    free(t->begin);
    free(t->count);
    free(t->state);
    free(t->depth);
    free(t->buf);
    t->begin = t->count = NULL;
    t->state = t->buf = NULL;
    t->depth = NULL;
}

void gpl_node_table_reset(gpl_node_table *t, int64_t num_rows)
{
    memset(t->state, GPL_NODE_UNUSED, (size_t)t->max_nodes);
    t->begin[0] = 0;
    t->count[0] = num_rows;
    t->state[0] = GPL_NODE_LIVE;
    t->depth[0] = 0;
    t->buf[0] = 0;
}

void gpl_node_table_apply_children(gpl_node_table *t, const gpl_split_apply *s,
                                   int64_t left_rows, uint8_t buf, int64_t *child_rows)
{
    const int64_t begin = t->begin[s->node], total = t->count[s->node];
    t->begin[s->left_child] = begin;
    t->count[s->left_child] = left_rows;
    t->begin[s->right_child] = begin + left_rows;
    t->count[s->right_child] = total - left_rows;
    t->buf[s->left_child] = buf;
    t->buf[s->right_child] = buf;
    t->state[s->left_child] = GPL_NODE_LIVE;
    t->state[s->right_child] = GPL_NODE_LIVE;
    t->state[s->node] = GPL_NODE_SPLIT;
    t->depth[s->left_child] = t->depth[s->node] + 1;
    t->depth[s->right_child] = t->depth[s->node] + 1;
    child_rows[0] = left_rows;
    child_rows[1] = total - left_rows;
}
