/*
 * objective_math.h -- per-row gradient and hessian of each objective, in
 * double, shared by every backend (one thread a row on a GPU).
 */
#ifndef GPL_OBJECTIVE_MATH_H
#define GPL_OBJECTIVE_MATH_H

#include <stdint.h>

#include "backend.h"
#include "det_math.h"
#include "kernel_common.h"

/* The floor XGBoost also uses, so that a saturated row keeps a hessian. */
#define GPL_MIN_HESS 1e-16

/* Gradient pair of one row for a single-output objective, XGBoost's
 * formulas in double; param is the request's (backend.h). */
GPL_HD void gpl_objective_single(gpl_objective_kind objective, float margin, float label,
                                 float weight, double param, double *grad, double *hess)
{
    const double p = (double)margin, y = (double)label;
    double g, h;
    switch (objective) {
    case GPL_OBJ_LOGISTIC: {
        double s = gpl_det_sigmoid(p);
        g = s - y;
        h = s * (1.0 - s);
        if (h < GPL_MIN_HESS) h = GPL_MIN_HESS;
        break;
    }
    case GPL_OBJ_ABSOLUTE_ERROR: /* the sign of the residual */
        g = p > y ? 1.0 : (p < y ? -1.0 : 0.0);
        h = 1.0;
        break;
    case GPL_OBJ_POISSON: /* param: max_delta_step, which damps the steps */
        g = gpl_det_exp(p) - y;
        h = gpl_det_exp(p + param);
        break;
    case GPL_OBJ_GAMMA: {
        double r = y * gpl_det_exp(-p);
        g = 1.0 - r;
        h = r < GPL_MIN_HESS ? GPL_MIN_HESS : r;
        break;
    }
    case GPL_OBJ_TWEEDIE: { /* param: the variance power rho in [1, 2) */
        double a = gpl_det_exp((1.0 - param) * p), b = gpl_det_exp((2.0 - param) * p);
        g = b - y * a;
        h = (2.0 - param) * b - y * (1.0 - param) * a;
        if (h < GPL_MIN_HESS) h = GPL_MIN_HESS;
        break;
    }
    case GPL_OBJ_SQUARED_LOG_ERROR: { /* the margin is the prediction, > -1 */
        double q = p < -1.0 + 1e-6 ? -1.0 + 1e-6 : p;
        double d = gpl_det_log1p(q) - gpl_det_log1p(y);
        g = d / (q + 1.0);
        h = (1.0 - d) / ((q + 1.0) * (q + 1.0));
        if (h < 1e-6) h = 1e-6;
        break;
    }
    case GPL_OBJ_PSEUDO_HUBER: { /* param: huber_slope */
        double z = p - y, t = z / param;
        double scale = 1.0 + t * t, root = gpl_det_sqrt(scale);
        g = z / root;
        h = 1.0 / (scale * root);
        break;
    }
    case GPL_OBJ_QUANTILE: /* param: alpha; leaves are refit afterwards */
        g = p >= y ? 1.0 - param : -param;
        h = 1.0;
        break;
    case GPL_OBJ_HINGE: { /* labels 0/1 as -1/+1 */
        double s = 2.0 * y - 1.0;
        if (p * s < 1.0) {
            g = -s;
            h = 1.0;
        } else {
            g = 0.0;
            h = GPL_MIN_HESS;
        }
        break;
    }
    default: /* squared error (softmax has its own function) */
        g = p - y;
        h = 1.0;
        break;
    }
    *grad = g * (double)weight;
    *hess = h * (double)weight;
}

/* The softmax normaliser of a row with margins m[0..K-1]: the largest
 * margin and the sum of exp(m[c] - top). Every class's gradient of a round
 * uses the normaliser of the margins at the start of the round, as
 * XGBoost's gradients all come from the round's starting predictions; so it
 * is computed once a row and round, and the cost of a round is linear in
 * the number of classes. */
GPL_HD void gpl_softmax_normalizer(const float *m, int32_t num_class, double *top_out,
                                   double *sum_out)
{
    double top = (double)m[0];
    for (int32_t c = 1; c < num_class; c++)
        if ((double)m[c] > top) top = (double)m[c];
    double sum = 0.0;
    for (int32_t c = 0; c < num_class; c++)
        sum += gpl_det_exp((double)m[c] - top);
    *top_out = top;
    *sum_out = sum;
}

/* Whether this request computes the softmax normalisers (backend.h): a
 * round's first tree, or the first request since the margins were set
 * (*ready is 0 then). Marks them computed. Host code of every backend. */
static inline int gpl_softmax_norm_due(const gpl_gradient_request *req, int *ready)
{
    if (req->objective != GPL_OBJ_SOFTMAX) return 0;
    const int due = req->output == 0 || !*ready;
    *ready = 1;
    return due;
}

/* Softmax gradient of output k of a row, from its margin of class k and
 * the row's normaliser (gpl_softmax_normalizer). */
GPL_HD void gpl_objective_softmax(float margin_k, double top, double sum, int32_t k,
                                  float label, float weight, double *grad, double *hess)
{
    double p = gpl_det_exp((double)margin_k - top) / sum;
    double y = ((int32_t)label == k) ? 1.0 : 0.0;
    double h = 2.0 * p * (1.0 - p);
    if (h < GPL_MIN_HESS) h = GPL_MIN_HESS;
    *grad = (p - y) * (double)weight;
    *hess = h * (double)weight;
}

/* reg:expectileerror. XGBoost's outputs cannot cross: output 0's
 * prediction is its margin, output k's is output k-1's plus
 * GPL_EXPECTILE_GAP + softplus(margin k). The loss of output k is
 * w * |alpha_k - [y > pred_k]| * (pred_k - y)^2 / 2; the margin of output j
 * moves the predictions of outputs j..K-1, so its gradient sums their
 * residuals (times sigmoid(margin j), the slope of the softplus, for j > 0)
 * and its hessian is the Gauss-Newton one, as XGBoost's. */
#define GPL_EXPECTILE_GAP ((double)1e-6f) /* XGBoost's kRtEps, a float */

GPL_HD double gpl_det_softplus(double x)
{
    return x > 0.0 ? x + gpl_det_log1p(gpl_det_exp(-x)) : gpl_det_log1p(gpl_det_exp(x));
}

/* The prediction of an output from the one before it and its margin. */
GPL_HD double gpl_expectile_next(double before, float margin)
{
    return before + GPL_EXPECTILE_GAP + gpl_det_softplus((double)margin);
}

/* Every output's gradient of a round comes from the margins at the round's
 * start, but output j's tree starts after the trees of outputs 0..j-1 have
 * moved their margins. So each row keeps two doubles (the slot where
 * softmax keeps its normaliser): [0] the round-start prediction of output
 * j-1 and [1] that of output j, which the request for output j writes.
 * shift: the first request for output j > 0 of the round (its first
 * parallel tree), which moves [1] to [0] first; write: this pass writes
 * [1] (a backend that computes a row's gradient in several passes writes
 * in the first). slot is NULL for a single output. Returns the round-start
 * prediction of output j. */
GPL_HD double gpl_expectile_chain(const float *m, int32_t j, double *slot, int shift,
                                  int write)
{
    double pred = (double)m[0];
    if (j > 0) {
        if (shift) slot[0] = slot[1];
        pred = gpl_expectile_next(slot[0], m[j]);
    }
    if (write && slot) slot[1] = pred;
    return pred;
}

/* The gradient pair of output j of a row with margins m[0..K-1] (output
 * j's round-start prediction pred_j from gpl_expectile_chain; the margins
 * of outputs after j are still the round's start). */
GPL_HD void gpl_objective_expectile(const float *m, int32_t K, int32_t j, const float *alphas,
                                    double pred_j, float label, float weight, double *grad,
                                    double *hess)
{
    const double y = (double)label;
    double pred = pred_j, g = 0.0, h = 0.0;
    for (int32_t k = j; k < K; k++) {
        if (k > j) pred = gpl_expectile_next(pred, m[k]);
        const double diff = pred - y, alpha = (double)alphas[k];
        const double scale = diff >= 0.0 ? 1.0 - alpha : alpha;
        g = g + scale * diff;
        h = h + scale;
    }
    const double s = j == 0 ? 1.0 : gpl_det_sigmoid((double)m[j]);
    *grad = s * g * (double)weight;
    *hess = s * s * h * (double)weight;
}

/* Whether the request for output j moves the expectile chain on
 * (gpl_expectile_chain's shift). */
static inline int gpl_expectile_shift_due(const gpl_gradient_request *req)
{
    return req->objective == GPL_OBJ_EXPECTILE && req->output > 0 && req->parallel_tree == 0;
}

/* Whether row is in the sample of round (splitmix64 of seed, round, row):
 * the same answer on every backend, whatever the thread layout. */
GPL_HD int gpl_row_sampled(uint64_t seed, int32_t round, int64_t row,
                           float rate)
{
    if (rate >= 1.0f) return 1;
    uint64_t z = seed ^ ((uint64_t)(uint32_t)round << 40) ^ (uint64_t)row;
    z += 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    double u = (double)(z >> 11) * (1.0 / 9007199254740992.0);
    return u < (double)rate;
}

#endif
