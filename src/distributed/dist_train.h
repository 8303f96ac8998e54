/*
 * dist_train.h -- the data-parallel steps of training: the hooks table of
 * the boosting loop (core's train_hooks.h) over the collectives of dist.h.
 *
 * Each rank holds a contiguous block of the global rows, in rank order.
 * Everything that decides the model is made global so that every rank
 * grows the same trees, bit for bit the trees one process would grow on
 * all the rows:
 *   - bin cuts: the row sample is chosen by a hash of the global row
 *     index, gathered in rank order (= global order), cut as one process;
 *   - base score: from every rank's labels, gathered in global order;
 *   - gradients: subsampling by global row index, quantization scale from
 *     the global max |g|, max h and global row count;
 *   - histograms and child row counts: summed over ranks (exact integers).
 */
#ifndef GPL_DIST_TRAIN_H
#define GPL_DIST_TRAIN_H

#include <stdint.h>

#include "backend.h"
#include "binning.h"
#include "dataset.h"
#include "grow.h"
#include "model.h"
#include "train_hooks.h"

typedef struct gpl_dist_trainer {
    gpl_train_hooks hooks;         /* for gpl_train_run; user = this     */
    const gpulayer_dataset *train; /* this rank's rows                   */
    int nthread;
    int64_t first_row;             /* global index of its first row      */
    int64_t global_rows;
    uint32_t hist_len;
    float *margins;                /* scratch of the gradients           */
    double *softmax_norm;          /* 2 a row with several outputs       */
    int softmax_norm_ready;
    gpl_grad_pair *pairs;
    gpl_grad_pair *hist;           /* scratch of the histogram sums      */
    int32_t hist_nodes;            /* histograms hist can hold           */
} gpl_dist_trainer;

/* An empty trainer with its hooks set (dist_train.c). Local. */
void gpl_dist_trainer_init(gpl_dist_trainer *dt);
void gpl_dist_trainer_free(gpl_dist_trainer *dt);

/* The hooks, one a file; user is the trainer. */

/* Refuses devices that cannot take part, checks that every rank's data
 * have the same layout, finds this rank's place in the global rows, and
 * gathers what the model is initialised from: every rank's labels (and
 * weights) and the bin cuts (train_hooks.h, prepare). */
gpulayer_status gpl_dist_prepare(void *user, const gpl_params *p,
                                 const gpulayer_dataset *train, int nthread,
                                 gpulayer_status st, gpulayer_dataset *labels,
                                 gpl_bin_cuts *cuts);
/* Ties the trainer to the backend, which must have write_pairs, and
 * agrees the outcome of the setup (dist_train.c). */
gpulayer_status gpl_dist_ready(void *user, gpulayer_status st, gpl_backend *be,
                               const uint32_t *feature_offset);
/* compute_gradients over every rank's rows (dist_gradients.c). */
gpulayer_status gpl_dist_gradients(void *user, gpl_backend *be,
                                   const gpl_gradient_request *req,
                                   gpl_quant_scale *scale);
/* Sets dt->hooks.reduce: histogram and row count sums (dist_grow.c). */
void gpl_dist_grow_hooks(gpl_dist_trainer *dt);
/* The leaf refit's rows of every rank, leaf by leaf in rank order
 * (dist_refit.c). */
gpulayer_status gpl_dist_gather_leaf_rows(void *user, int32_t num_nodes, int64_t *start,
                                          float **residual, float **weight);
/* Stop and halt flags: the largest over ranks (dist_train.c). */
void gpl_dist_end_round(void *user, int *stop, int *halt);
/* Agreed check that every rank built the same model (a hash of every
 * node); a difference is a bug, reported rather than saved. */
gpulayer_status gpl_dist_check_model(void *user, const gpl_model *m);

/* Cuts from the binning sample merged over ranks (dist_sketch.c). */
gpulayer_status gpl_dist_bin_cuts(const gpl_dist_trainer *dt, int max_bin,
                                  gpl_bin_cuts *out);

#endif
