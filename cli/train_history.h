/* train_history.h -- every round's evaluation results, kept from the
 * round callback that prints progress, for the training report. */
#ifndef GPL_CLI_TRAIN_HISTORY_H
#define GPL_CLI_TRAIN_HISTORY_H

#include "gpulayer.h"

/* One series a (data set, metric) pair, in the callback's order; values
 * is num_rounds x num_series, row-major. */
typedef struct train_history {
    int first_round; /* the callback's round number of the first round kept */
    int num_rounds;
    int num_series;
    char **data_names, **metric_names;
    double *values;
    int capacity; /* rounds values has room for */
} train_history;

/* Keeps the results of one round. The first call fixes the series; a
 * later round with other results is refused, as is running out of memory
 * (both return non-zero and leave the history as it was). */
int train_history_add(train_history *h, int round, const gpulayer_eval_result *results,
                      int num_results);

void train_history_free(train_history *h);

#endif
