/* train_eval.h -- the per-round evaluation bookkeeping of the boosting
 * loop: the figures of each evaluation set and early stopping. */
#ifndef GPL_TRAIN_EVAL_H
#define GPL_TRAIN_EVAL_H

#include "model.h"
#include "params.h"

/* Figures per evaluation set: each metric, quantile one per alpha too. */
#define GPL_MAX_FIGURES (GPL_MAX_METRICS + GPL_MAX_QUANTILES)

typedef struct gpl_eval_tracker {
    int num_metrics;               /* figures, in the order reported  */
    gpl_metric metrics[GPL_MAX_FIGURES];
    int num_evals;
    gpulayer_eval_result *results; /* num_evals * num_metrics; names
                                    * point into metrics[]          */
    int num_results;
    int early_stopping_rounds;
    int verbosity;
    int warned_nan;                /* the NaN warning was printed   */
    double best_score;
    int32_t best_round;            /* -1 when not tracking          */
    /* num_evals entries, NULL until cox-nloglik needs one: each set's
     * rows by time, sorted once (its labels stay). */
    uint32_t **survival_order;
} gpl_eval_tracker;

/* The figures of p's metrics (or of the objective's default metric):
 * mphe takes huber_slope, quantile the model's quantile_alpha values,
 * reported one per alpha and then their mean when there are several. */
gpulayer_status gpl_eval_tracker_init(gpl_eval_tracker *t, const gpl_params *p,
                                      const gpl_model *m, int num_evals);
void gpl_eval_tracker_add(gpl_eval_tracker *t, const gpl_model *m, int index,
                          const char *name, const gpulayer_dataset *ds,
                          const float *margins, float *outputs, int nthread);
/* Returns non-zero when early stopping says stop. */
int gpl_eval_tracker_end_round(gpl_eval_tracker *t, int32_t round,
                               const gpulayer_eval_result **results,
                               int *num_results);
void gpl_eval_tracker_free(gpl_eval_tracker *t);

#endif
