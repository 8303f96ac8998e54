/* custom_objective.h -- training on the caller's gradients and reporting
 * evaluation margins to the caller (gpulayer_booster_set_objective_callback
 * and gpulayer_booster_set_eval_callback). */
#ifndef GPL_CUSTOM_OBJECTIVE_H
#define GPL_CUSTOM_OBJECTIVE_H

#include "backend.h"
#include "booster.h"
#include "params.h"

typedef struct gpl_custom_objective {
    gpulayer_objective_callback fn; /* NULL: the objective's own gradients */
    void *user;
    int64_t num_rows;
    int32_t num_outputs;
    float *margins;      /* num_rows x num_outputs, before the round */
    double *grad, *hess; /* the caller's, same shape                 */
    gpl_grad_pair *pairs; /* num_rows: one output's quantized pairs  */
} gpl_custom_objective;

/* The parameters a training of b runs with: b's, with XGBoost's base score
 * of custom objectives (0.5) when b has one and base_score is not given.
 * Refuses a custom objective in data-parallel training. */
gpulayer_status gpl_custom_objective_params(const gpulayer_booster *b, int distributed,
                                            gpl_params *out);
/* Prepares c for b's callback (c->fn stays NULL when b has none); the
 * backend must have write_pairs. */
gpulayer_status gpl_custom_objective_start(gpl_custom_objective *c, const gpulayer_booster *b,
                                           const gpl_backend *be, int64_t num_rows,
                                           int32_t num_outputs);
/* compute_gradients with the caller's gradients: the callback runs at a
 * round's first tree, on the margins before it; every tree of the round
 * takes its output's column, sampled and quantized as the backends do. */
gpulayer_status gpl_custom_gradients(gpl_custom_objective *c, gpl_backend *be,
                                     const gpl_gradient_request *req, gpl_quant_scale *scale);
void gpl_custom_objective_free(gpl_custom_objective *c);

/* b's evaluation callback, if any, for evaluation set index. */
gpulayer_status gpl_custom_eval(const gpulayer_booster *b, int32_t round, int index,
                                const float *margins, const float *predictions,
                                int64_t num_rows, int32_t num_outputs);

#endif
