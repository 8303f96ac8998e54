/*
 * train_hooks.h -- the steps of the boosting loop that a training run
 * spread over several processes replaces.
 *
 * train.c trains in one process unless it is given a hooks table: then
 * each step that decides the model calls out to the table, so that
 * processes holding different rows grow the same trees. The data-parallel
 * trainer (src/distributed/) implements the table over its collectives and
 * calls gpl_train_run with it; the core never includes anything from there.
 *
 * Every hook is collective: each process calls it at the same point of the
 * loop, and a hook that reports a status reports the one every process
 * agreed on.
 */
#ifndef GPL_TRAIN_HOOKS_H
#define GPL_TRAIN_HOOKS_H

#include <stdint.h>

#include "backend.h"
#include "binning.h"
#include "booster.h"
#include "grow.h"
#include "model.h"
#include "params.h"

typedef struct gpl_train_hooks {
    void *user; /* passed to every hook */
    /* This process's place among the processes of its host, which take one
     * device each. */
    int local_rank, local_size;
    /* Before the model is initialised. st is this process's status so far;
     * agreed first, then on success *labels gets every process's labels
     * (and weights) as a dataset of those arrays only, freed by the caller
     * with free(), and *cuts the bin cuts of all the rows. */
    gpulayer_status (*prepare)(void *user, const gpl_params *p,
                               const gpulayer_dataset *train, int nthread,
                               gpulayer_status st, gpulayer_dataset *labels,
                               gpl_bin_cuts *cuts);
    /* At the end of setup: takes the backend (when st is OK) and agrees st,
     * the local outcome of the steps since prepare. */
    gpulayer_status (*ready)(void *user, gpulayer_status st, gpl_backend *be,
                             const uint32_t *feature_offset);
    /* Replaces be->ops->compute_gradients: the pairs of this process's rows,
     * quantized with the scale of all the rows. */
    gpulayer_status (*gradients)(void *user, gpl_backend *be,
                                 const gpl_gradient_request *req,
                                 gpl_quant_scale *scale);
    /* Histogram and row count sums, for gpl_grow_config.reduce. */
    gpl_grow_reduce reduce;
    /* The leaf refit's rows of every process (leaf_refit.h, gather), and
     * the global index of this process's first row. */
    gpulayer_status (*gather_leaf_rows)(void *user, int32_t num_nodes, int64_t *start,
                                        float **residual, float **weight);
    int64_t first_row;
    /* After each round: a stop or halt asked on any process becomes every
     * process's. */
    void (*end_round)(void *user, int *stop, int *halt);
    /* After the last round: every process built the same model. */
    gpulayer_status (*check_model)(void *user, const gpl_model *m);
} gpl_train_hooks;

/* gpulayer_booster_train with hooks (NULL: one process); caller is the
 * public function named in a message on bad arguments. */
gpulayer_status gpl_train_run(const char *caller, gpulayer_booster *b,
                              const gpulayer_dataset *train,
                              const gpulayer_dataset *const *evals,
                              const char *const *eval_names, int num_evals,
                              gpulayer_round_callback callback, void *user_data,
                              const gpl_train_hooks *hooks);

#endif
