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

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "metric_rank.h"
#include "survival.h"
#include "threads.h"

#define BLOCK_ROWS 16384
/* Rows below which threads cost more than they save. */
#define PARALLEL_ROWS 65536
/* XGBoost's floors: logloss, mlogloss and poisson-nloglik take logs of at least
 * 1e-16, gamma-nloglik of at least 1e-6; gamma-deviance adds 1e-6 (its
 * kRtEps) to label and prediction. */
#define XGB_LOG_FLOOR 1e-16
#define XGB_GAMMA_FLOOR 1e-6
#define XGB_RT_EPS 1e-6
/* LightGBM's default alpha, where its huber metric turns linear. */
#define LIGHTGBM_HUBER_DELTA 0.9

/* param: none, optional after '@' (error), required (tweedie-nloglik), or
 * a ranking metric's "@k", "@k-", "@-" or trailing "-". */
enum { PARAM_NONE, PARAM_OPTIONAL, PARAM_REQUIRED, PARAM_RANK };

static const struct {
    const char *name;
    gpl_metric_kind kind;
    int higher_is_better;
    int param;
} metric_table[] = {
    {"rmse", GPL_METRIC_RMSE, 0, PARAM_NONE},
    {"mse", GPL_METRIC_MSE, 0, PARAM_NONE},
    {"rmsle", GPL_METRIC_RMSLE, 0, PARAM_NONE},
    {"mae", GPL_METRIC_MAE, 0, PARAM_NONE},
    {"mape", GPL_METRIC_MAPE, 0, PARAM_NONE},
    {"mphe", GPL_METRIC_MPHE, 0, PARAM_NONE},
    {"logloss", GPL_METRIC_LOGLOSS, 0, PARAM_NONE},
    {"error", GPL_METRIC_ERROR, 0, PARAM_OPTIONAL},
    {"auc", GPL_METRIC_AUC, 1, PARAM_NONE},
    {"aucpr", GPL_METRIC_AUCPR, 1, PARAM_NONE},
    {"mlogloss", GPL_METRIC_MLOGLOSS, 0, PARAM_NONE},
    {"merror", GPL_METRIC_MERROR, 0, PARAM_NONE},
    {"poisson-nloglik", GPL_METRIC_POISSON_NLOGLIK, 0, PARAM_NONE},
    {"gamma-nloglik", GPL_METRIC_GAMMA_NLOGLIK, 0, PARAM_NONE},
    {"gamma-deviance", GPL_METRIC_GAMMA_DEVIANCE, 0, PARAM_NONE},
    {"tweedie-nloglik", GPL_METRIC_TWEEDIE_NLOGLIK, 0, PARAM_REQUIRED},
    {"quantile", GPL_METRIC_QUANTILE, 0, PARAM_NONE},
    {"expectile", GPL_METRIC_EXPECTILE, 0, PARAM_NONE},
    {"cox-nloglik", GPL_METRIC_COX_NLOGLIK, 0, PARAM_NONE},
    {"ndcg", GPL_METRIC_NDCG, 1, PARAM_RANK},
    {"map", GPL_METRIC_MAP, 1, PARAM_RANK},
    {"pre", GPL_METRIC_PRE, 1, PARAM_RANK},
    {"huber", GPL_METRIC_HUBER, 0, PARAM_OPTIONAL},
    {"average_precision", GPL_METRIC_AP, 1, PARAM_NONE},
};
#define NUM_METRICS (sizeof metric_table / sizeof metric_table[0])

const char *gpl_metric_names(void)
{
    return "rmse, mse, rmsle, mae, mape, mphe, logloss, error, error@t, auc, aucpr, "
           "mlogloss, merror, poisson-nloglik, gamma-nloglik, gamma-deviance, "
           "tweedie-nloglik@rho, quantile, expectile, cox-nloglik, ndcg, ndcg@k, map, map@k, pre, pre@k "
           "(the ranking metrics also with a trailing '-'), and LightGBM's huber, "
           "huber@delta and average_precision";
}

static int is_ranking(gpl_metric_kind kind)
{
    return kind == GPL_METRIC_NDCG || kind == GPL_METRIC_MAP || kind == GPL_METRIC_PRE;
}

static const char *kind_name(gpl_metric_kind kind)
{
    for (size_t i = 0; i < NUM_METRICS; i++)
        if (metric_table[i].kind == kind) return metric_table[i].name;
    return "unknown";
}

gpl_metric gpl_metric_of_kind(gpl_metric_kind kind)
{
    gpl_metric m;
    memset(&m, 0, sizeof m);
    m.kind = kind;
    m.param = kind == GPL_METRIC_ERROR ? 0.5
              : kind == GPL_METRIC_MPHE ? 1.0
              : kind == GPL_METRIC_HUBER ? LIGHTGBM_HUBER_DELTA
                                         : 0.0;
    m.num_alphas = 1;
    m.alphas[0] = 0.5;
    m.ndcg_exp_gain = 1;
    if (is_ranking(kind)) m.rank_topk = GPL_METRIC_RANK_DEFAULT_K;
    snprintf(m.name, sizeof m.name, "%s", kind_name(kind));
    return m;
}

gpl_metric gpl_metric_rank(gpl_metric_kind kind, int32_t topk, int minus)
{
    gpl_metric m = gpl_metric_of_kind(kind);
    m.rank_topk = topk > 0 ? topk : GPL_METRIC_RANK_DEFAULT_K;
    m.rank_minus = minus != 0;
    char k[16] = "";
    if (topk > 0) snprintf(k, sizeof k, "@%d", (int)topk);
    snprintf(m.name, sizeof m.name, "%s%s%s", kind_name(kind), k, minus ? "-" : "");
    return m;
}

gpl_metric gpl_metric_rank_of_objective(gpl_metric_kind kind, const gpl_objective_params *p)
{
    const int32_t k = gpl_objective_rank_topk(p);
    gpl_metric m = gpl_metric_rank(kind, k, 0);
    if (k == 0 && kind == GPL_METRIC_NDCG) m.rank_topk = 0;
    return m;
}

/* A ranking metric's parameter after '@': "k", "k-" or "-" (XGBoost's
 * forms), k a whole number from 1. */
static gpulayer_status set_rank_param(gpl_metric *m, const char *text, const char *param)
{
    const size_t len = strlen(param);
    const int minus = len > 0 && param[len - 1] == '-';
    long long k = 0;
    if (len > (size_t)minus) {
        char *end;
        errno = 0;
        k = strtoll(param, &end, 10);
        if (!(param[0] >= '0' && param[0] <= '9') || end != param + len - (size_t)minus ||
            errno == ERANGE || k < 1 || k > INT32_MAX)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "metric '%s': k of %s@k is the number of top positions "
                             "scored, a whole number from 1 to %d (optionally followed "
                             "by '-')", text, kind_name(m->kind), (int)INT32_MAX);
    } else if (!minus) {
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "metric '%s': write %s@k with k a whole number from 1",
                         text, kind_name(m->kind));
    }
    *m = gpl_metric_rank(m->kind, (int32_t)k, minus);
    return GPULAYER_OK;
}

/* Parameters are printed as XGBoost prints its float parameters (six
 * significant digits), so that names match XGBoost's. */
gpl_metric gpl_metric_tweedie(double rho)
{
    gpl_metric m = gpl_metric_of_kind(GPL_METRIC_TWEEDIE_NLOGLIK);
    m.param = (double)(float)rho;
    snprintf(m.name, sizeof m.name, "tweedie-nloglik@%g", (double)(float)rho);
    return m;
}

gpl_metric gpl_metric_tweedie_of_objective(void)
{
    gpl_metric m = gpl_metric_of_kind(GPL_METRIC_TWEEDIE_NLOGLIK);
    m.param = NAN;
    snprintf(m.name, sizeof m.name, "tweedie");
    return m;
}

static gpulayer_status parse_number(const char *metric, const char *text, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "metric '%s': '%s' is not a number", metric, text);
    *out = v;
    return GPULAYER_OK;
}

/* Checks the parameter of error@t, tweedie-nloglik@rho and the ranking
 * metrics' @k, and names the metric as XGBoost does. */
static gpulayer_status set_param(gpl_metric *m, const char *text, const char *param)
{
    if (is_ranking(m->kind)) return set_rank_param(m, text, param);
    double v = 0.0;
    GPL_CHECK(parse_number(text, param, &v));
    if (m->kind == GPL_METRIC_ERROR) {
        if (!(v >= 0.0 && v <= 1.0))
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "metric '%s': the threshold t of error@t is a probability "
                             "and must be in [0, 1]", text);
        /* A float threshold, as XGBoost's: predictions are floats, so this
         * decides p > t the same way. */
        m->param = (double)(float)v;
        /* XGBoost writes error@0.5 as "error". */
        if ((float)v != 0.5f) snprintf(m->name, sizeof m->name, "error@%g", (double)(float)v);
        return GPULAYER_OK;
    }
    if (m->kind == GPL_METRIC_HUBER) {
        if (!(v > 0.0))
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "metric '%s': delta of huber@delta is where the loss turns "
                             "from quadratic to linear and must be > 0", text);
        m->param = v;
        if (v != LIGHTGBM_HUBER_DELTA) snprintf(m->name, sizeof m->name, "huber@%g", v);
        return GPULAYER_OK;
    }
    if (!(v >= 1.0 && v < 2.0))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "metric '%s': rho of tweedie-nloglik@rho is the Tweedie "
                         "variance power and must be in [1, 2)", text);
    *m = gpl_metric_tweedie(v);
    return GPULAYER_OK;
}

gpulayer_status gpl_metric_parse(const char *text, gpl_metric *out)
{
    if (!text) text = "(null)";
    const char *at = strchr(text, '@');
    const size_t len = at ? (size_t)(at - text) : strlen(text);
    for (size_t i = 0; i < NUM_METRICS; i++) {
        const size_t n = strlen(metric_table[i].name);
        /* "ndcg-": the '-' variant without k. */
        const int minus = !at && metric_table[i].param == PARAM_RANK && len == n + 1 &&
                          text[n] == '-';
        if ((n != len && !minus) || strncmp(text, metric_table[i].name, n)) continue;
        gpl_metric m = gpl_metric_of_kind(metric_table[i].kind);
        if (minus) m = gpl_metric_rank(m.kind, 0, 1);
        if (at && metric_table[i].param == PARAM_NONE)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "metric '%s': %s takes no '@' parameter", text,
                             metric_table[i].name);
        if (!at && metric_table[i].param == PARAM_REQUIRED)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "metric '%s' needs its variance power: write "
                             "tweedie-nloglik@rho with rho in [1, 2), as in XGBoost", text);
        if (at) GPL_CHECK(set_param(&m, text, at + 1));
        *out = m;
        return GPULAYER_OK;
    }
    return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "unknown metric '%s' (allowed: %s)",
                     text, gpl_metric_names());
}

int gpl_metric_higher_is_better(gpl_metric_kind kind)
{
    for (size_t i = 0; i < NUM_METRICS; i++)
        if (metric_table[i].kind == kind) return metric_table[i].higher_is_better;
    return 0;
}

int gpulayer_metric_maximize(const char *name)
{
    if (!name) return 0;
    /* The table's metrics, parameter or '-' variant aside ("ndcg@10-",
     * "error@0.7", "map-"), know their direction. */
    const size_t len = strcspn(name, "@");
    for (size_t i = 0; i < NUM_METRICS; i++) {
        const size_t n = strlen(metric_table[i].name);
        const int minus = metric_table[i].param == PARAM_RANK && len == n + 1 &&
                          name[n] == '-';
        if ((len == n || minus) && !strncmp(name, metric_table[i].name, n))
            return metric_table[i].higher_is_better;
    }
    /* A name of the caller's: XGBoost decides by its start ("auc_weighted",
     * "precision"), so that early stopping on it turns the same way. */
    static const char *const larger_better[] = {"auc", "map", "ndcg", "pre"};
    for (size_t i = 0; i < sizeof larger_better / sizeof larger_better[0]; i++)
        if (!strncmp(name, larger_better[i], strlen(larger_better[i]))) return 1;
    return 0;
}

/* --------------------------------------------------------- per-row losses */

typedef struct metric_input {
    const gpl_metric *m;
    const float *pred;
    const float *label;
    const float *weight;
    int32_t k; /* outputs per row */
} metric_input;

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

/* x * log(y) with XGBoost's floor on y, and 0 when x is 0 (so a label of
 * exactly 0 or 1 ignores the other term, even at a prediction of 0 or 1). */
static double xlogy(double x, double y)
{
    return x == 0.0 ? 0.0 : x * log(y > XGB_LOG_FLOOR ? y : XGB_LOG_FLOOR);
}

/* The pinball loss of y against the predictions p[0..n) at alphas a[]. */
static double pinball(const double *a, int32_t n, const float *p, double y)
{
    double sum = 0.0;
    for (int32_t j = 0; j < n; j++) {
        double d = y - (double)p[j];
        sum += d >= 0.0 ? a[j] * d : (a[j] - 1.0) * d;
    }
    return sum / n;
}

/* XGBoost's expectile loss of y against the predictions p[0..n) at
 * alphas a[] (no factor 1/2, as its metric). */
static double expectile_loss(const double *a, int32_t n, const float *p, double y)
{
    double sum = 0.0;
    for (int32_t j = 0; j < n; j++) {
        double d = (double)p[j] - y;
        sum += (d >= 0.0 ? 1.0 - a[j] : a[j]) * d * d;
    }
    return sum / n;
}

/* The loss of one row (before weighting). NaN marks an invalid label. */
static double row_loss(const metric_input *in, int64_t r)
{
    const float *p = in->pred + r * in->k + in->m->output;
    const double y = in->label[r];
    const double q = p[0];
    const double param = in->m->param;
    switch (in->m->kind) {
    case GPL_METRIC_RMSE:
    case GPL_METRIC_MSE: return (q - y) * (q - y);
    case GPL_METRIC_MAE: return fabs(q - y);
    case GPL_METRIC_LOGLOSS: return -xlogy(y, q) - xlogy(1.0 - y, 1.0 - q);
    case GPL_METRIC_ERROR: return q > param ? 1.0 - y : y;
    case GPL_METRIC_MLOGLOSS: {
        int32_t c = label_class(in->label[r], in->k);
        return c < 0 ? NAN : -log(p[c] > XGB_LOG_FLOOR ? (double)p[c] : XGB_LOG_FLOOR);
    }
    case GPL_METRIC_MERROR: {
        int32_t c = label_class(in->label[r], in->k);
        return c < 0 ? NAN : (double)(row_argmax(p, in->k) != c);
    }
    case GPL_METRIC_RMSLE: {
        double d = log1p(y) - log1p(q);
        return d * d;
    }
    case GPL_METRIC_MAPE: return fabs((y - q) / y);
    case GPL_METRIC_MPHE: {
        double a = (y - q) / param;
        return param * param * (sqrt(1.0 + a * a) - 1.0);
    }
    case GPL_METRIC_POISSON_NLOGLIK: {
        double mu = q > XGB_LOG_FLOOR ? q : XGB_LOG_FLOOR;
        return lgamma(y + 1.0) + mu - log(mu) * y;
    }
    case GPL_METRIC_GAMMA_NLOGLIK: {
        /* The gamma likelihood with dispersion 1, as XGBoost's. */
        double mu = q > XGB_GAMMA_FLOOR ? q : XGB_GAMMA_FLOOR;
        return y / mu + log(mu);
    }
    case GPL_METRIC_GAMMA_DEVIANCE: {
        double mu = q + XGB_RT_EPS, t = y + XGB_RT_EPS;
        return log(mu / t) + t / mu - 1.0;
    }
    case GPL_METRIC_TWEEDIE_NLOGLIK: {
        /* exp(c * log(p)) rather than pow, as XGBoost, for the same
         * infinities at p = 0 and rho = 1. */
        double a = y * exp((1.0 - param) * log(q)) / (1.0 - param);
        double b = exp((2.0 - param) * log(q)) / (2.0 - param);
        return b - a;
    }
    case GPL_METRIC_QUANTILE: return pinball(in->m->alphas, in->m->num_alphas, p, y);
    case GPL_METRIC_EXPECTILE: return expectile_loss(in->m->alphas, in->m->num_alphas, p, y);
    case GPL_METRIC_HUBER: { /* LightGBM's HuberLossMetric */
        const double d = fabs(q - y);
        return d <= param ? 0.5 * d * d : param * (d - 0.5 * param);
    }
    case GPL_METRIC_AUC:
    case GPL_METRIC_AP:
    case GPL_METRIC_AUCPR:
    case GPL_METRIC_NDCG:
    case GPL_METRIC_MAP:
    case GPL_METRIC_PRE:
    case GPL_METRIC_COX_NLOGLIK: break;
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
    double *sums = gpl_malloc(sizeof(double) * 2 * (size_t)blocks, "metric sums");
    if (!sums) return NAN; /* gpl_metric_eval has no status to return */
    int threads = gpl_threads(nthread);
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
    switch (in->m->kind) {
    case GPL_METRIC_RMSE:
    case GPL_METRIC_RMSLE: return sqrt(mean);
    case GPL_METRIC_GAMMA_DEVIANCE: return 2.0 * mean;
    default: return mean;
    }
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
    size_t *count = gpl_malloc(sizeof(size_t) * BUCKETS, "metric sort counts");
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

/* The area of one step of the ROC curve: from (fp0, tp0) to (fp, tp). Ties
 * count half, as in XGBoost and scikit-learn. */
static double roc_step(double fp0, double fp, double tp0, double tp, double total_pos)
{
    (void)total_pos;
    return (fp - fp0) * (tp0 + 0.5 * (tp - tp0));
}

/* The area of one step of the precision-recall curve, interpolated between
 * its ends as XGBoost's aucpr does (Davis and Goadrich; XGBoost's
 * CalcDeltaPRAUC), in recall units. */
static double pr_step(double fp0, double fp, double tp0, double tp, double total_pos)
{
    const double r0 = tp0 / total_pos, r = tp / total_pos;
    if (tp == tp0) return 0.0;
    const double h = (fp - fp0) / (tp - tp0);
    const double a = h + 1.0, b = (fp0 - h * tp0) / total_pos;
    if (b == 0.0) return (r - r0) / a;
    return (r - r0 - b / a * (log(a * r + b) - log(a * r0 + b))) / a;
}

/* Average precision (LightGBM's, scikit-learn's): each step's recall gain
 * times the precision at its end. */
static double ap_step(double fp, double tp0, double tp, double total_pos)
{
    return tp > tp0 ? (tp - tp0) / total_pos * (tp / (tp + fp)) : 0.0;
}

/* The area under a curve from rows sorted by prediction: walking from the
 * highest prediction down, each group of tied predictions adds one step.
 * A label is its weight of being positive, so fractional labels work as
 * in XGBoost. NaN when the data hold only one class. */
static double area_of_sorted(const keyed_row *s, int64_t n, const float *label,
                             const float *weight, gpl_metric_kind kind)
{
    double total_pos = 0.0, total_neg = 0.0;
    for (int64_t i = 0; i < n; i++) {
        double w = weight ? (double)weight[i] : 1.0;
        total_pos += w * label[i];
        total_neg += w * (1.0 - label[i]);
    }
    if (!(total_pos > 0.0) || !(total_neg > 0.0)) return NAN;
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
        area += kind == GPL_METRIC_AUCPR ? pr_step(fp, fp + dfp, tp, tp + dtp, total_pos)
                : kind == GPL_METRIC_AP  ? ap_step(fp + dfp, tp, tp + dtp, total_pos)
                                         : roc_step(fp, fp + dfp, tp, tp + dtp, total_pos);
        tp += dtp;
        fp += dfp;
        hi = lo;
    }
    if (kind == GPL_METRIC_AUCPR) return area < 1.0 ? area : 1.0;
    if (kind == GPL_METRIC_AP) return area;
    return area / (tp * fp);
}

static double auc(gpl_metric_kind kind, const float *pred, const float *label,
                  const float *weight, int64_t n, int32_t k)
{
    if (n <= 0 || n > (int64_t)UINT32_MAX) return NAN;
    keyed_row *a = gpl_malloc(sizeof *a * (size_t)n, "metric sort");
    keyed_row *tmp = gpl_malloc(sizeof *tmp * (size_t)n, "metric sort");
    double result = NAN;
    if (a && tmp) {
        for (int64_t i = 0; i < n; i++) {
            a[i].key = order_key(pred[i * k]);
            a[i].row = (uint32_t)i;
        }
        const keyed_row *sorted = radix_sort(a, tmp, n);
        if (sorted) result = area_of_sorted(sorted, n, label, weight, kind);
    }
    free(a);
    free(tmp);
    return result;
}

double gpl_metric_eval(const gpl_metric *m, const float *pred,
                       const float *label, const float *weight,
                       int64_t num_rows, int32_t num_outputs, int nthread)
{
    return gpl_metric_eval_groups(m, pred, label, weight, num_rows, num_outputs, NULL, 0,
                                  nthread);
}

double gpl_metric_eval_groups(const gpl_metric *m, const float *pred,
                              const float *label, const float *weight,
                              int64_t num_rows, int32_t num_outputs,
                              const int64_t *group_ptr, int64_t num_groups,
                              int nthread)
{
    if (!m || num_rows <= 0 || num_outputs <= 0 || !pred || !label) return NAN;
    if (m->output < 0 || m->output >= num_outputs) return NAN;
    if ((m->kind == GPL_METRIC_QUANTILE || m->kind == GPL_METRIC_EXPECTILE) &&
        (m->num_alphas < 1 || m->output + m->num_alphas > num_outputs))
        return NAN;
    if (m->kind == GPL_METRIC_COX_NLOGLIK)
        return num_outputs == 1 ? gpl_cox_nloglik(pred, label, num_rows) : NAN;
    if (m->kind == GPL_METRIC_AUC || m->kind == GPL_METRIC_AUCPR || m->kind == GPL_METRIC_AP)
        return auc(m->kind, pred, label, weight, num_rows, num_outputs);
    if (is_ranking(m->kind))
        return gpl_metric_rank_eval(m, pred, label, weight, num_rows, num_outputs, group_ptr,
                                    num_groups, nthread);
    metric_input in = {m, pred, label, weight, num_outputs};
    return mean_loss(&in, num_rows, nthread);
}
