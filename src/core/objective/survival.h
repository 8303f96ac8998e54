/* survival.h -- survival:cox's order of the rows by time, for the
 * gradients (backend.h's gpl_survival_order) and the cox-nloglik metric. */
#ifndef GPL_SURVIVAL_H
#define GPL_SURVIVAL_H

#include <stdint.h>

#include "error.h"

/* The rows by |label| ascending, ties in row order (XGBoost's stable
 * sort), and each position's first position of its tie: two arrays of n,
 * the caller frees both (tie_start may be NULL when not wanted). */
gpulayer_status gpl_survival_order_build(const float *label, int64_t n, uint32_t **order,
                                         uint32_t **tie_start);

/* XGBoost's cox-nloglik of predictions pred (exp of the margins): the
 * negative log partial likelihood over the events, divided by their
 * number (Breslow's ties); NaN without events or on failure. */
double gpl_cox_nloglik(const float *pred, const float *label, int64_t n);
/* The same over the rows' order of gpl_survival_order_build, for callers
 * that evaluate the same labels again (an evaluation set each round). */
double gpl_cox_nloglik_ordered(const float *pred, const float *label, int64_t n,
                               const uint32_t *order);

#endif
