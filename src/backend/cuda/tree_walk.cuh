/* tree_walk.cuh -- a row's leaf in a tree table (gpl_infer_node, as in
 * prediction), for the kernels that walk the tree being grown. */
#ifndef GPL_CUDA_TREE_WALK_CUH
#define GPL_CUDA_TREE_WALK_CUH

#include <stdint.h>

#include "backend.h"

/* The leaf of a row of bins (codes of type Code, uint8_t or uint16_t);
 * num_nodes bounds the walk. sets: GPL_CAT_WORDS words a node (the tree
 * has no set of a feature of more than 255 value bins). */
template <typename Code>
__device__ inline int32_t gpl_cuda_leaf_of_row(const Code *row, const gpl_infer_node *nodes,
                                               const uint32_t *sets, int32_t num_nodes)
{
    int32_t i = 0;
    for (int32_t d = 0; d < num_nodes; d++) {
        const gpl_infer_node nd = nodes[i];
        if (nd.child[0] == i) break; /* a leaf */
        const unsigned b = row[nd.feature];
        unsigned left = nd.categorical
            ? (sets[(size_t)i * GPL_CAT_WORDS + (b >> 5)] >> (b & 31)) & 1u
            : (b - 1u) < nd.bin;
        left |= (b == 0u) & nd.default_left;
        i = nd.child[left ^ 1u];
    }
    return i;
}

#endif
