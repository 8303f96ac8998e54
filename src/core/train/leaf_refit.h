/* leaf_refit.h -- quantiles as XGBoost defines them, and the refit of a
 * tree's leaves to the quantile of their rows' residuals
 * (reg:absoluteerror, reg:quantileerror). */
#ifndef GPL_LEAF_REFIT_H
#define GPL_LEAF_REFIT_H

#include <stdint.h>

#include "backend.h"
#include "model.h"

/* The alpha-quantile of values[0..n) (n >= 1), weighted by weight[0..n)
 * when weight is not NULL. Unweighted: XGBoost's interpolation between
 * the order statistics around alpha * (n + 1). Weighted: the smallest
 * value whose cumulative weight, values ascending, reaches alpha times
 * the total. Reorders values (and weight with them). NaN when out of
 * memory (the weighted case sorts a copy). */
double gpl_weighted_quantile(float *values, float *weight, int64_t n, double alpha);

/* What the refit of one tree needs: the training rows as the backend has
 * them (binned rows, labels, weights, the margins before the tree) and
 * the row sample of the round. */
typedef struct gpl_leaf_refit_job {
    const uint8_t *bins;  /* num_rows x num_features codes      */
    int code_bytes;       /* of a code (binning.h)             */
    int64_t num_rows;
    int32_t num_features;
    const float *label;
    const float *weight;  /* NULL = every weight 1             */
    int32_t num_outputs;
    int32_t round;
    uint64_t seed;
    float subsample;
    double eta;
    const gpl_objective_params *obj;
    gpl_objective_kind objective;
    int nthread;
    int64_t first_row;    /* global index of row 0 (the row sample) */
    /* Data-parallel training: replaces this process's rows of each leaf
     * (leaf i's at start[i]..start[i+1] of residual and weight) with every
     * process's, so that each computes the quantiles of all the rows.
     * NULL in one process. */
    gpulayer_status (*gather)(void *user, int32_t num_nodes, int64_t *start,
                              float **residual, float **weight);
    void *gather_user;
} gpl_leaf_refit_job;

/* Sets every leaf of the tree (nodes[0..num_nodes)) of output k to eta
 * times the alpha-quantile of label - margin over the sampled rows it
 * holds, in nodes and in leaf_value (indexed by node); a leaf without
 * rows keeps its value. margins: num_rows x num_outputs, before the
 * tree. */
gpulayer_status gpl_leaf_refit(const gpl_leaf_refit_job *job, const float *margins,
                               int32_t output, gpl_tree_node *nodes, int32_t num_nodes,
                               float *leaf_value);

/* Non-zero when the backend sorts the refit's rows itself (backend.h,
 * refit_sort; rows without weights, in one process): then
 * gpl_leaf_refit_backend does the refit with the same results as
 * gpl_leaf_refit, without the margins on the host. */
int gpl_leaf_refit_on_backend(const gpl_leaf_refit_job *job, const gpl_backend *be);
gpulayer_status gpl_leaf_refit_backend(const gpl_leaf_refit_job *job, gpl_backend *be,
                                       int32_t output, gpl_tree_node *nodes, int32_t num_nodes,
                                       float *leaf_value);

#endif
