/* metric_rank.h -- ndcg, map and pre over query groups (metric.h). */
#ifndef GPL_METRIC_RANK_H
#define GPL_METRIC_RANK_H

#include <stdint.h>

#include "metric.h"

/* m's figure over the queries of group_ptr (NULL: one query of every
 * row); the arguments are gpl_metric_eval_groups's. NaN when the groups
 * do not cover the rows, a label breaks the metric's rule (ndcg with
 * exponential gain: whole grades in [0, 31]; map and pre: 0 or 1), the
 * total query weight is not positive, or memory runs out. */
double gpl_metric_rank_eval(const gpl_metric *m, const float *pred, const float *label,
                            const float *weight, int64_t num_rows, int32_t num_outputs,
                            const int64_t *group_ptr, int64_t num_groups, int nthread);

#endif
