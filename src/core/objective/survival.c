/* survival.c -- survival:cox's row order by time and its metric. */
#include "survival.h"

#include <math.h>
#include <stdlib.h>

#include "alloc.h"

typedef struct keyed_row {
    float time;
    uint32_t row;
} keyed_row;

static int by_time_then_row(const void *a, const void *b)
{
    const keyed_row *x = a, *y = b;
    if (x->time != y->time) return x->time < y->time ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

gpulayer_status gpl_survival_order_build(const float *label, int64_t n, uint32_t **order,
                                         uint32_t **tie_start)
{
    *order = NULL;
    if (tie_start) *tie_start = NULL;
    if (n > (int64_t)UINT32_MAX)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "survival:cox: %lld rows; the order by time holds at most %u",
                         (long long)n, UINT32_MAX);
    const size_t count = (size_t)(n > 0 ? n : 1);
    keyed_row *keys = gpl_malloc_large(sizeof(keyed_row) * count, "survival order");
    uint32_t *o = gpl_malloc_large(sizeof(uint32_t) * count, "survival order");
    uint32_t *t = tie_start ? gpl_malloc_large(sizeof(uint32_t) * count, "survival order")
                            : NULL;
    if (!keys || !o || (tie_start && !t)) {
        free(keys);
        free(o);
        free(t);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    for (int64_t r = 0; r < n; r++) keys[r] = (keyed_row){fabsf(label[r]), (uint32_t)r};
    qsort(keys, (size_t)n, sizeof *keys, by_time_then_row);
    for (int64_t p = 0; p < n; p++) {
        o[p] = keys[p].row;
        if (t) t[p] = p > 0 && keys[p].time == keys[p - 1].time ? t[p - 1] : (uint32_t)p;
    }
    free(keys);
    *order = o;
    if (tie_start) *tie_start = t;
    return GPULAYER_OK;
}

double gpl_cox_nloglik(const float *pred, const float *label, int64_t n)
{
    uint32_t *order;
    if (gpl_survival_order_build(label, n, &order, NULL) != GPULAYER_OK) return NAN;
    const double out = gpl_cox_nloglik_ordered(pred, label, n, order);
    free(order);
    return out;
}

double gpl_cox_nloglik_ordered(const float *pred, const float *label, int64_t n,
                               const uint32_t *order)
{
    /* XGBoost's walk: the risk sum drops a time's predictions once the
     * walk has passed that time. */
    double risk = 0.0, passed = 0.0, out = 0.0;
    int64_t events = 0;
    for (int64_t i = 0; i < n; i++) risk += pred[i];
    for (int64_t i = 0; i < n; i++) {
        const uint32_t r = order[i];
        if (label[r] > 0.0f) {
            out -= log(pred[r]) - log(risk);
            events++;
        }
        passed += pred[r];
        if (i == n - 1 || fabsf(label[r]) < fabsf(label[order[i + 1]])) {
            risk -= passed;
            passed = 0.0;
        }
    }
    return events > 0 ? out / (double)events : NAN;
}
