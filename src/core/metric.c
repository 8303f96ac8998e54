/*
 * metric.c -- evaluation metrics, defined as XGBoost defines them.
 *
 * Sums are formed per block of BLOCK_ROWS rows (in parallel) and the block
 * sums added in block order, so a metric has the same value whatever the
 * number of threads: early stopping must not depend on the machine.
 *
 * Conventions where the value is undefined: no rows or a zero total weight
 * gives NaN; so does AUC when the data hold only one class (XGBoost also
 * reports nan there; scikit-learn raises an error), and mlogloss/merror
 * when a label is not a class index in [0, num_outputs). Single-output
 * metrics read the first output of each row.
 */
#include "metric.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

#define BLOCK_ROWS 16384
/* Rows below which threads cost more than they save. */
#define PARALLEL_ROWS 65536
/* Probabilities are clipped to [EPS, 1 - EPS] before taking logs, as
 * scikit-learn's log_loss did; it keeps a confident mistake finite. */
#define LOGLOSS_EPS 1e-15

static const struct {
    const char *name;
    gpl_metric_kind kind;
    int higher_is_better;
} metric_table[] = {
    {"rmse", GPL_METRIC_RMSE, 0},     {"mae", GPL_METRIC_MAE, 0},
    {"logloss", GPL_METRIC_LOGLOSS, 0}, {"error", GPL_METRIC_ERROR, 0},
    {"auc", GPL_METRIC_AUC, 1},       {"mlogloss", GPL_METRIC_MLOGLOSS, 0},
    {"merror", GPL_METRIC_MERROR, 0},
};
#define NUM_METRICS (sizeof metric_table / sizeof metric_table[0])

gpulayer_status gpl_metric_parse(const char *name, gpl_metric_kind *out)
{
    for (size_t i = 0; name && i < NUM_METRICS; i++)
        if (!strcmp(name, metric_table[i].name)) {
            *out = metric_table[i].kind;
            return GPULAYER_OK;
        }
    return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                     "unknown metric '%s' (allowed: rmse, mae, logloss, error, "
                     "auc, mlogloss, merror)", name ? name : "(null)");
}

const char *gpl_metric_name(gpl_metric_kind kind)
{
    for (size_t i = 0; i < NUM_METRICS; i++)
        if (metric_table[i].kind == kind) return metric_table[i].name;
    return "unknown";
}

int gpl_metric_higher_is_better(gpl_metric_kind kind)
{
    for (size_t i = 0; i < NUM_METRICS; i++)
        if (metric_table[i].kind == kind) return metric_table[i].higher_is_better;
    return 0;
}

/* --------------------------------------------------------- per-row losses */

typedef struct metric_input {
    gpl_metric_kind kind;
    const float *pred;
    const float *label;
    const float *weight;
    int32_t k; /* outputs per row */
} metric_input;

static double clip_prob(double p)
{
    if (p < LOGLOSS_EPS) return LOGLOSS_EPS;
    if (p > 1.0 - LOGLOSS_EPS) return 1.0 - LOGLOSS_EPS;
    return p;
}

/* The class of a label, or -1 when it is not an index in [0, k). */
static int32_t label_class(float y, int32_t k)
{
    if (!(y >= 0.0f) || y >= (float)k || y != floorf(y)) return -1;
    return (int32_t)y;
}

static int32_t row_argmax(const float *p, int32_t k)
{
    int32_t best = 0;
    for (int32_t c = 1; c < k; c++)
        if (p[c] > p[best]) best = c;
    return best;
}

/* The loss of one row (before weighting). NaN marks an invalid label. */
static double row_loss(const metric_input *in, int64_t r)
{
    const float *p = in->pred + r * in->k;
    const double y = in->label[r];
    switch (in->kind) {
    case GPL_METRIC_RMSE: return ((double)p[0] - y) * ((double)p[0] - y);
    case GPL_METRIC_MAE: return fabs((double)p[0] - y);
    case GPL_METRIC_LOGLOSS: {
        double q = clip_prob(p[0]);
        return -(y * log(q) + (1.0 - y) * log(1.0 - q));
    }
    case GPL_METRIC_ERROR: return p[0] > 0.5f ? 1.0 - y : y;
    case GPL_METRIC_MLOGLOSS: {
        int32_t c = label_class(in->label[r], in->k);
        return c < 0 ? NAN : -log(clip_prob(p[c]));
    }
    case GPL_METRIC_MERROR: {
        int32_t c = label_class(in->label[r], in->k);
        return c < 0 ? NAN : (double)(row_argmax(p, in->k) != c);
    }
    case GPL_METRIC_AUC: break;
    }
    return NAN;
}

/* Weighted sums of the loss and of the weights over rows [begin, end). */
static void block_sums(const metric_input *in, int64_t begin, int64_t end,
                       double *loss, double *weight)
{
    double l = 0.0, w = 0.0;
    for (int64_t r = begin; r < end; r++) {
        double wr = in->weight ? (double)in->weight[r] : 1.0;
        l += wr * row_loss(in, r);
        w += wr;
    }
    *loss = l;
    *weight = w;
}

static double mean_loss(const metric_input *in, int64_t n, int nthread)
{
    const int64_t blocks = (n + BLOCK_ROWS - 1) / BLOCK_ROWS;
    double *sums = malloc(sizeof(double) * 2 * (size_t)blocks);
    if (!sums) return NAN; /* gpl_metric_eval has no status to return */
    int threads = nthread > 0 ? nthread : omp_get_max_threads();
    if (n < PARALLEL_ROWS) threads = 1;
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int64_t b = 0; b < blocks; b++) {
        int64_t end = (b + 1) * BLOCK_ROWS < n ? (b + 1) * BLOCK_ROWS : n;
        block_sums(in, b * BLOCK_ROWS, end, &sums[2 * b], &sums[2 * b + 1]);
    }
    double loss = 0.0, weight = 0.0;
    for (int64_t b = 0; b < blocks; b++) {
        loss += sums[2 * b];
        weight += sums[2 * b + 1];
    }
    free(sums);
    if (!(weight > 0.0)) return NAN;
    double mean = loss / weight;
    return in->kind == GPL_METRIC_RMSE ? sqrt(mean) : mean;
}

/* -------------------------------------------------------------------- AUC */

/* Maps a float to an unsigned key with the same order (NaN aside); -0 and
 * +0 share a key so that they tie. */
static uint32_t order_key(float f)
{
    uint32_t u;
    if (f == 0.0f) f = 0.0f; /* turns -0 into +0 */
    memcpy(&u, &f, sizeof u);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

/* Sorts rows by key, ascending: LSD radix sort of (key, row) pairs in
 * three 11-bit passes, skipping a pass when every key has the same digit. */
typedef struct keyed_row {
    uint32_t key;
    uint32_t row;
} keyed_row;

static keyed_row *radix_sort(keyed_row *a, keyed_row *tmp, int64_t n)
{
    enum { BITS = 11, BUCKETS = 1 << BITS };
    size_t *count = malloc(sizeof(size_t) * BUCKETS);
    if (!count) return NULL;
    for (int shift = 0; shift < 32; shift += BITS) {
        memset(count, 0, sizeof(size_t) * BUCKETS);
        for (int64_t i = 0; i < n; i++) count[(a[i].key >> shift) & (BUCKETS - 1)]++;
        if (count[(a[0].key >> shift) & (BUCKETS - 1)] == (size_t)n) continue;
        size_t sum = 0;
        for (int b = 0; b < BUCKETS; b++) {
            size_t c = count[b];
            count[b] = sum;
            sum += c;
        }
        for (int64_t i = 0; i < n; i++) tmp[count[(a[i].key >> shift) & (BUCKETS - 1)]++] = a[i];
        keyed_row *swap = a;
        a = tmp;
        tmp = swap;
    }
    free(count);
    return a;
}

/* Area under the ROC curve from rows sorted by prediction: walking from
 * the highest prediction down, each group of tied predictions adds a
 * trapezoid (ties count half, as in XGBoost and scikit-learn). A label is
 * its weight of being positive, so fractional labels work as in XGBoost. */
static double auc_of_sorted(const keyed_row *s, int64_t n, const float *label,
                            const float *weight)
{
    double tp = 0.0, fp = 0.0, area = 0.0;
    for (int64_t hi = n; hi > 0;) {
        int64_t lo = hi - 1;
        while (lo > 0 && s[lo - 1].key == s[hi - 1].key) lo--;
        double dtp = 0.0, dfp = 0.0;
        for (int64_t i = lo; i < hi; i++) {
            double w = weight ? (double)weight[s[i].row] : 1.0;
            double y = label[s[i].row];
            dtp += w * y;
            dfp += w * (1.0 - y);
        }
        area += dfp * (tp + 0.5 * dtp);
        tp += dtp;
        fp += dfp;
        hi = lo;
    }
    if (!(tp > 0.0) || !(fp > 0.0)) return NAN; /* one class only */
    return area / (tp * fp);
}

static double auc(const float *pred, const float *label, const float *weight,
                  int64_t n, int32_t k)
{
    if (n <= 0 || n > (int64_t)UINT32_MAX) return NAN;
    keyed_row *a = malloc(sizeof *a * (size_t)n);
    keyed_row *tmp = malloc(sizeof *tmp * (size_t)n);
    double result = NAN;
    if (a && tmp) {
        for (int64_t i = 0; i < n; i++) {
            a[i].key = order_key(pred[i * k]);
            a[i].row = (uint32_t)i;
        }
        const keyed_row *sorted = radix_sort(a, tmp, n);
        if (sorted) result = auc_of_sorted(sorted, n, label, weight);
    }
    free(a);
    free(tmp);
    return result;
}

double gpl_metric_eval(gpl_metric_kind kind, const float *pred,
                       const float *label, const float *weight,
                       int64_t num_rows, int32_t num_outputs, int nthread)
{
    if (num_rows <= 0 || num_outputs <= 0 || !pred || !label) return NAN;
    if (kind == GPL_METRIC_AUC) return auc(pred, label, weight, num_rows, num_outputs);
    metric_input in = {kind, pred, label, weight, num_outputs};
    return mean_loss(&in, num_rows, nthread);
}
