/* evaluate.c -- gpulayer_evaluate: one metric of given predictions, for
 * callers scoring a model outside training (the estimators' score). */
#include <math.h>

#include "dataset.h"
#include "error.h"
#include "gpulayer.h"
#include "metric.h"

gpulayer_status gpulayer_evaluate(const gpulayer_dataset *ds, const char *metric,
                                  const float *pred, int64_t num_rows, int32_t num_outputs,
                                  double *out)
{
    if (!ds || !metric || !pred || !out || num_outputs < 1)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_evaluate: data, metric, predictions and output are required");
    if (!ds->label)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "gpulayer_evaluate: %s has no labels",
                         ds->source ? ds->source : "the data");
    if (num_rows != ds->num_rows)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_evaluate: %lld predictions for %lld rows",
                         (long long)num_rows, (long long)ds->num_rows);
    gpl_metric m;
    GPL_CHECK(gpl_metric_parse(metric, &m));
    *out = gpl_metric_eval_groups(&m, pred, ds->label, ds->weight, num_rows, num_outputs,
                                  ds->group_ptr, ds->num_groups, 0);
    if (isnan(*out))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_evaluate: metric %s cannot score these labels, weights or "
                         "groups (docs/metrics.md gives what each metric takes)",
                         m.name);
    return GPULAYER_OK;
}
