/* report_charts.h -- the training report's charts as inline SVG: learning
 * curves and feature importance, with axes, ticks and labels. */
#ifndef GPL_CLI_REPORT_CHARTS_H
#define GPL_CLI_REPORT_CHARTS_H

#include <stdio.h>

#include "train_history.h"

/* One chart a metric, one polyline a data set with one point a round (a
 * value that is not finite leaves its point out). best_round, the
 * callback's round number of the best round or -1, is marked on every
 * chart with a dashed line (class best-round, data-round counted from 1)
 * and a dot on each curve. */
void chart_learning_curves(FILE *out, const train_history *h, int best_round);

/* Horizontal bars, the first (the largest) on top; values must be sorted
 * largest first. value_label names the axis. */
void chart_importance(FILE *out, const char *const *names, const double *values, int n,
                      const char *value_label);

#endif
