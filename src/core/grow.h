/* grow.h -- growing one tree through the backend operations. */
#ifndef GPL_GROW_H
#define GPL_GROW_H

#include "backend.h"
#include "model.h"
#include "params.h"

typedef struct gpl_grow_config {
    const gpl_params *params;
    const gpl_bin_cuts *cuts;
    int32_t max_nodes;           /* from gpl_grow_max_nodes            */
    const uint8_t *feature_mask; /* num_features bytes, or NULL = all  */
    gpl_quant_scale scale;       /* of the current gradients           */
} gpl_grow_config;

/* The largest node id + 1 a tree may use with these parameters. */
int32_t gpl_grow_max_nodes(const gpl_params *p, int64_t num_rows);

/* Grows one tree for the backend's current gradients, adds its leaf values
 * to the backend's margins of output, and returns the tree. */
gpulayer_status gpl_grow_tree(gpl_backend *be, const gpl_grow_config *cfg,
                              int32_t output, gpl_tree *out);

#endif
