/*
 * dist_train.h -- the data-parallel steps of training, used by
 * src/core/train.c when gpl_dist_active().
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

typedef struct gpl_dist_trainer {
    const gpulayer_dataset *train; /* this rank's rows                   */
    int nthread;
    int64_t first_row;             /* global index of its first row      */
    int64_t global_rows;
    uint32_t hist_len;
    gpl_grow_reduce reduce;        /* for gpl_grow_config.reduce         */
    float *margins;                /* scratch of gpl_dist_gradients      */
    gpl_grad_pair *pairs;
    gpl_grad_pair *hist;           /* scratch of the histogram sums      */
    int32_t hist_nodes;            /* histograms hist can hold           */
} gpl_dist_trainer;

/* Checks that every rank's data have the same layout, finds this rank's
 * place in the global rows, and gathers what the model is initialised
 * from: every rank's labels (and weights) as a values-less dataset
 * *labels for the base score (free with gpl_dist_labels_free) and the
 * bin cuts. Collective; the status is agreed by every rank. */
gpulayer_status gpl_dist_prepare(gpl_dist_trainer *dt, const gpulayer_dataset *train,
                                 int max_bin, int nthread, gpulayer_dataset *labels,
                                 gpl_bin_cuts *cuts);
void gpl_dist_labels_free(gpulayer_dataset *labels);

/* Sets dt->reduce: histogram and row count sums (dist_grow.c). */
void gpl_dist_grow_hooks(gpl_dist_trainer *dt);

/* Cuts from the binning sample merged over ranks (dist_sketch.c). */
gpulayer_status gpl_dist_bin_cuts(const gpl_dist_trainer *dt, int max_bin,
                                  gpl_bin_cuts *out);

/* Ties the trainer to the backend; the backend must have write_pairs.
 * Local (no communication). */
gpulayer_status gpl_dist_attach(gpl_dist_trainer *dt, gpl_backend *be,
                                const uint32_t *feature_offset);

/* compute_gradients over every rank's rows (dist_gradients.c). */
gpulayer_status gpl_dist_gradients(gpl_dist_trainer *dt, gpl_backend *be,
                                   const gpl_gradient_request *req,
                                   gpl_quant_scale *scale);

/* Agreed check that every rank built the same model (a hash of every
 * node); a difference is a bug, reported rather than saved. */
gpulayer_status gpl_dist_check_model(const gpl_model *m);

void gpl_dist_trainer_free(gpl_dist_trainer *dt);

#endif
