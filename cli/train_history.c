/* train_history.c -- evaluation results kept round by round. */
#include "train_history.h"

#include <stdlib.h>
#include <string.h>

static int same_series(const train_history *h, const gpulayer_eval_result *r, int n)
{
    if (n != h->num_series) return 0;
    for (int i = 0; i < n; i++)
        if (strcmp(r[i].data_name, h->data_names[i]) ||
            strcmp(r[i].metric_name, h->metric_names[i]))
            return 0;
    return 1;
}

static int name_series(train_history *h, const gpulayer_eval_result *r, int n)
{
    h->data_names = calloc((size_t)(n ? n : 1), sizeof *h->data_names);
    h->metric_names = calloc((size_t)(n ? n : 1), sizeof *h->metric_names);
    if (!h->data_names || !h->metric_names) return 1;
    h->num_series = n;
    for (int i = 0; i < n; i++)
        if (!(h->data_names[i] = strdup(r[i].data_name)) ||
            !(h->metric_names[i] = strdup(r[i].metric_name)))
            return 1;
    return 0;
}

int train_history_add(train_history *h, int round, const gpulayer_eval_result *results,
                      int num_results)
{
    if (h->num_rounds == 0 && !h->data_names) {
        h->first_round = round;
        if (name_series(h, results, num_results)) {
            train_history_free(h);
            return 1;
        }
    }
    if (!same_series(h, results, num_results)) return 1;
    if (h->num_rounds == h->capacity) {
        int capacity = h->capacity ? 2 * h->capacity : 64;
        size_t row = (size_t)(h->num_series ? h->num_series : 1);
        double *values = realloc(h->values, (size_t)capacity * row * sizeof *values);
        if (!values) return 1;
        h->values = values;
        h->capacity = capacity;
    }
    for (int i = 0; i < num_results; i++)
        h->values[(size_t)h->num_rounds * (size_t)h->num_series + (size_t)i] = results[i].value;
    h->num_rounds++;
    return 0;
}

void train_history_free(train_history *h)
{
    for (int i = 0; i < h->num_series; i++) {
        if (h->data_names) free(h->data_names[i]);
        if (h->metric_names) free(h->metric_names[i]);
    }
    free(h->data_names);
    free(h->metric_names);
    free(h->values);
    memset(h, 0, sizeof *h);
}
