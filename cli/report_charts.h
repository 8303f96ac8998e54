/* report_charts.h -- the training report's charts as inline SVG: learning
 * curves, bars (feature importance) and lines (ROC and other curves of
 * the validation set), with axes, ticks and labels. */
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
 * largest first. value_label names the axis; css_class the chart. */
void chart_importance(FILE *out, const char *css_class, const char *const *names,
                      const double *values, int n, const char *value_label);

/* A line of n points (x[i], y[i]) named name. */
typedef struct chart_line {
    const char *name;
    const double *x, *y;
    int n;
} chart_line;

/* Lines on one pair of axes (from the points' ranges, [0, 1] both ways
 * with diagonal, which also draws the line y = x), a legend naming them;
 * a line of one point is drawn as a dot. */
void chart_lines(FILE *out, const char *css_class, const char *title, const char *x_label,
                 const char *y_label, const chart_line *lines, int num_lines, int diagonal);

#endif
