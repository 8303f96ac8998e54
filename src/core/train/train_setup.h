/* train_setup.h -- the steps before the boosting loop. */
#ifndef GPL_TRAIN_SETUP_H
#define GPL_TRAIN_SETUP_H

#include "backend.h"
#include "model.h"
#include "params.h"

/* Labels, shapes and parameters checked against each other; messages name
 * the row and value at fault. */
gpulayer_status gpl_train_validate(const gpl_params *p,
                                   const gpulayer_dataset *train,
                                   const gpulayer_dataset *const *evals,
                                   int num_evals);
/* A model with cuts, objective, base score, names and categories.
 * labels: the rows whose labels give the base score (NULL: train); cuts:
 * cuts made elsewhere, moved into the model (NULL: found from train).
 * Data-parallel training passes every rank's labels and the merged cuts. */
gpulayer_status gpl_train_model_init(const gpl_params *p,
                                     const gpulayer_dataset *train,
                                     const gpulayer_dataset *labels,
                                     gpl_bin_cuts *cuts, int nthread,
                                     gpl_model **out);
/* Continued training without an objective given: p takes init's recorded
 * objective and num_class, and each objective parameter still at its
 * default takes init's recorded value (XGBoost keeps a loaded model's). */
gpulayer_status gpl_train_adopt_objective(gpl_params *p, const gpl_model *init);
/* The starting model of continued training: a copy of init, checked
 * against the parameters and the data, its parameter record made for the
 * rounds it will have (init's plus num_round). */
gpulayer_status gpl_train_model_continue(const gpl_params *p,
                                         const gpulayer_dataset *train,
                                         const gpl_model *init, gpl_model **out);
gpl_objective_kind gpl_train_objective(const gpl_model *m);
/* Outputs a tree per round: num_class for softmax, else 1. */
int32_t gpl_train_num_outputs(const gpl_params *p);
/* The capabilities beyond the required operations that a backend needs
 * to train on m's bins (GPL_BACKEND_CAP_WIDE_BINS, WIDE_CATEGORIES). */
unsigned gpl_train_needs(const gpl_model *m);
/* Uploads the binned rows, labels, weights (scale_pos_weight folded in)
 * and the margins: the base margin plus the model's trees so far
 * (continued training), added tree by tree as training added them.
 * *weights_kept: the weights uploaded where they are not the data's own
 * (else NULL); the backend may read them until it is destroyed, and the
 * caller frees them after that. */
gpulayer_status gpl_train_backend_load(gpl_backend *be, const gpl_params *p,
                                       const gpl_model *m, const gpulayer_dataset *train,
                                       const uint8_t *bins, const uint32_t *feature_offset,
                                       int nthread, float **weights_kept);

#endif
