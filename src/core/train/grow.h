/* grow.h -- growing one tree through the backend operations. */
#ifndef GPL_GROW_H
#define GPL_GROW_H

#include "backend.h"
#include "model.h"
#include "params.h"

/* Data-parallel training (src/distributed/): every rank holds some of the
 * rows, and these make the per-node numbers global, so that every rank
 * grows the same tree. Histograms are exact integer sums, so the result is the
 * same bits as one process holding all the rows. */
typedef struct gpl_grow_reduce {
    /* Replaces the backend histograms of nodes with their sums over ranks. */
    gpulayer_status (*histograms)(void *user, gpl_backend *be,
                                  const int32_t *nodes, int32_t count);
    /* Replaces counts[0..n) (rows per child) with their sums over ranks. */
    void (*counts)(void *user, int64_t *counts, int32_t n);
    void *user;
} gpl_grow_reduce;

typedef struct gpl_grow_config {
    const gpl_params *params;
    const gpl_bin_cuts *cuts;
    int32_t max_nodes;           /* from gpl_grow_max_nodes            */
    int64_t num_rows;            /* the training rows (of this rank)   */
    const uint8_t *feature_mask; /* num_features bytes, or NULL = all  */
    gpl_quant_scale scale;       /* of the current gradients           */
    const gpl_grow_reduce *reduce; /* NULL in a single process         */
    /* Optional: called once the leaf values are set and before the
     * margins are updated, to replace them (leaf_refit.h). */
    gpulayer_status (*refit_leaves)(void *user, int32_t output, gpl_tree_node *nodes,
                                    int32_t num_nodes, float *leaf_value);
    void *refit_user;
    /* The tree's column-sampling stream (feature_sample.h), from which
     * colsample_bylevel and colsample_bynode draw their features. */
    uint64_t sample_stream;
    /* interaction_constraints, or NULL (interaction.h) */
    const struct gpl_interactions *interactions;
    /* feature_weights of column sampling (num_features), or NULL */
    const float *feature_weights;
    /* monotone_constraints (num_features entries of -1, 0, 1), or NULL */
    const int8_t *monotone;
} gpl_grow_config;

/* The largest node id + 1 a tree may use with these parameters. */
int32_t gpl_grow_max_nodes(const gpl_params *p, int64_t num_rows);

/* Grows one tree for the backend's current gradients, adds its leaf values
 * to the backend's margins of output, and returns the tree. */
gpulayer_status gpl_grow_tree(gpl_backend *be, const gpl_grow_config *cfg,
                              int32_t output, gpl_tree *out);

#endif
