/* metric.h -- evaluation metrics over predictions in output space. */
#ifndef GPL_METRIC_H
#define GPL_METRIC_H

#include <stdint.h>

#include "gpulayer.h"

typedef enum gpl_metric_kind {
    GPL_METRIC_RMSE,
    GPL_METRIC_MAE,
    GPL_METRIC_LOGLOSS,
    GPL_METRIC_ERROR,    /* binary: threshold 0.5 on the probability   */
    GPL_METRIC_AUC,
    GPL_METRIC_MLOGLOSS,
    GPL_METRIC_MERROR
} gpl_metric_kind;

gpulayer_status gpl_metric_parse(const char *name, gpl_metric_kind *out);
const char *gpl_metric_name(gpl_metric_kind kind);
/* 1 when larger values are better (auc), 0 otherwise. */
int gpl_metric_higher_is_better(gpl_metric_kind kind);

/* Evaluates a metric. pred holds num_rows * num_outputs values in output
 * space (probabilities for logistic/softmax, values for regression),
 * row-major. weight may be NULL. Weighted where the metric allows, as
 * XGBoost does. nthread: 0 = default. */
double gpl_metric_eval(gpl_metric_kind kind, const float *pred,
                       const float *label, const float *weight,
                       int64_t num_rows, int32_t num_outputs, int nthread);

#endif
