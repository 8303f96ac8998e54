/* report_charts.h -- the training report's charts as inline SVG: learning
 * curves, bars (feature importance) and lines (ROC and other curves of
 * the validation set), with axes, ticks and labels. */
#ifndef GPL_CLI_REPORT_CHARTS_H
#define GPL_CLI_REPORT_CHARTS_H

#include <stdio.h>

#include <stdint.h>

/* Every round's values of the learning curves: one series a (data set,
 * metric) pair; values is num_rounds x num_series, row-major; first_round
 * is the round number of the first round kept (gpulayer_report_info). */
typedef struct gpl_report_curves {
    int first_round, num_rounds, num_series;
    const char *const *data_names, *const *metric_names;
    const double *values;
} gpl_report_curves;

/* A feature's value in a ranking; gpl_report_by_value_desc (for qsort)
 * puts the largest first and equal values in feature order. */
typedef struct gpl_report_ranked {
    int32_t feature;
    double value;
} gpl_report_ranked;
int gpl_report_by_value_desc(const void *a, const void *b);

/* A row of a two-column table: key and value, escaped. */
void gpl_report_row(FILE *out, const char *key, const char *value);

/* One chart a metric, one polyline a data set with one point a round (a
 * value that is not finite leaves its point out). best_round, the
 * callback's round number of the best round or -1, is marked on every
 * chart with a dashed line (class best-round, data-round counted from 1)
 * and a dot on each curve. */
void chart_learning_curves(FILE *out, const gpl_report_curves *h, int best_round);

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
