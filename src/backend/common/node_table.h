/* node_table.h -- the host's table of the nodes of the tree being grown,
 * the same for every backend: where each node's rows are in its row list,
 * whether it holds rows, and its depth. The rows themselves, and the
 * partition that moves them, are the backend's; after a partition the
 * backend enters the children with gpl_node_table_apply_children. */
#ifndef GPL_NODE_TABLE_H
#define GPL_NODE_TABLE_H

#include <stdint.h>

#include "backend.h"

typedef enum gpl_node_state {
    GPL_NODE_UNUSED = 0,
    GPL_NODE_LIVE = 1, /* holds rows, not split (yet) */
    GPL_NODE_SPLIT = 2
} gpl_node_state;

typedef struct gpl_node_table {
    int32_t max_nodes; /* node ids are 0..max_nodes-1            */
    /* The rows of node n are positions begin[n] .. begin[n] + count[n]
     * - 1 of the row list buf[n] (backends with one list: always 0). */
    int64_t *begin;
    int64_t *count;
    uint8_t *state; /* gpl_node_state */
    int32_t *depth;
    uint8_t *buf;
} gpl_node_table;

/* Allocates the table of max_nodes nodes, all unused. Returns 0, or -1
 * when out of memory (the caller names itself in the message). */
int gpl_node_table_init(gpl_node_table *t, int32_t max_nodes);
void gpl_node_table_free(gpl_node_table *t);

/* The start of a tree: every node unused but the root, which holds all
 * num_rows rows at depth 0 in row list 0. */
void gpl_node_table_reset(gpl_node_table *t, int64_t num_rows);

/* The table after split s, whose left child got left_rows of its node's
 * rows, both children now in row list buf: the children live one level
 * deeper, the node split; the children's row counts go to
 * child_rows[0..1]. */
void gpl_node_table_apply_children(gpl_node_table *t, const gpl_split_apply *s,
                                   int64_t left_rows, uint8_t buf, int64_t *child_rows);

/* The rows of node if it holds rows (live), else 0. */
static inline uint32_t gpl_node_live_rows(const gpl_node_table *t, int32_t node)
{
    return t->state[node] == GPL_NODE_LIVE ? (uint32_t)t->count[node] : 0;
}

#endif
