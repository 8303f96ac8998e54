/* test_metric.c -- the evaluation metrics against values from scikit-learn
 * (sklearn.metrics, float64, on the same float32 inputs) or worked by hand,
 * and AUC against an independent pairwise reference. */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metric.h"

#define EXACT 1e-12

static double eval(gpl_metric_kind kind, const float *p, const float *y,
                   const float *w, int64_t n, int32_t k)
{
    gpl_metric m = gpl_metric_of_kind(kind);
    return gpl_metric_eval(&m, p, y, w, n, k, 0);
}

/* A metric by its name, which must parse. */
static double eval_named(const char *name, const float *p, const float *y,
                         const float *w, int64_t n, int32_t k)
{
    gpl_metric m;
    assert_int_equal(gpl_metric_parse(name, &m), GPULAYER_OK);
    return gpl_metric_eval(&m, p, y, w, n, k, 0);
}

static void assert_close(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.17g, expected %.17g (tolerance %g)", got, want, tol);
}

/* A small binary problem with ties at 0.5 (one per class) and weights. */
static const float bin_y[] = {0, 1, 1, 0, 1, 0, 1, 1};
static const float bin_p[] = {0.1f, 0.4f, 0.35f, 0.8f, 0.9f, 0.5f, 0.5f, 0.2f};
static const float bin_w[] = {1, 2, 0.5f, 1, 3, 1, 1, 0.25f};

static void test_names(void **state)
{
    (void)state;
    const char *names[] = {"rmse", "mae", "logloss", "error", "auc", "mlogloss", "merror",
                           "rmsle", "mape", "mphe", "poisson-nloglik", "gamma-nloglik",
                           "gamma-deviance", "quantile", "aucpr", "error@0.7",
                           "tweedie-nloglik@1.5", "tweedie-nloglik@1", "expectile",
                           "cox-nloglik"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        gpl_metric m;
        assert_int_equal(gpl_metric_parse(names[i], &m), GPULAYER_OK);
        assert_string_equal(m.name, names[i]);
        assert_int_equal(gpl_metric_higher_is_better(m.kind),
                         m.kind == GPL_METRIC_AUC || m.kind == GPL_METRIC_AUCPR);
        /* The exported rule by name agrees with the table. */
        assert_int_equal(gpulayer_metric_maximize(names[i]),
                         gpl_metric_higher_is_better(m.kind));
    }
    gpl_metric m;
    assert_int_equal(gpl_metric_parse("aft-nloglik", &m), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "aft-nloglik"));
}

/* Early stopping's direction by name: the table for the library's metrics
 * (ranking ones with @k and '-'), XGBoost's rule by prefix for others. */
static void test_maximize_by_name(void **state)
{
    (void)state;
    const char *larger[] = {"auc", "aucpr", "ndcg", "ndcg@10", "ndcg@3-", "ndcg-", "map",
                            "map@5-", "map-", "pre", "pre@2", "auc_mine", "precision",
                            "mapk"};
    const char *smaller[] = {"rmse", "mape", "mape@2", "error@0.7", "quantile@0.9",
                             "tweedie-nloglik@1.5", "my_auc", "AUC", "", "f1"};
    for (size_t i = 0; i < sizeof larger / sizeof larger[0]; i++)
        assert_int_equal(gpulayer_metric_maximize(larger[i]), 1);
    for (size_t i = 0; i < sizeof smaller / sizeof smaller[0]; i++)
        assert_int_equal(gpulayer_metric_maximize(smaller[i]), 0);
    assert_int_equal(gpulayer_metric_maximize(NULL), 0);
}

static void test_regression(void **state)
{
    (void)state;
    const float y[] = {2.5f, 0.0f, 2.0f, 8.0f};
    const float p[] = {3.0f, -0.5f, 2.0f, 7.0f};
    const float w[] = {1, 2, 3, 4};
    /* sklearn: sqrt(mean_squared_error), mean_absolute_error (its weighted
     * RMSE on float32 input is computed in float32, so that one is worked
     * by hand) */
    assert_close(eval(GPL_METRIC_RMSE, p, y, NULL, 4, 1), 0.6123724356957945, EXACT);
    /* weighted by hand: (1 * 0.25 + 2 * 0.25 + 3 * 0 + 4 * 1) / 10 */
    assert_close(eval(GPL_METRIC_RMSE, p, y, w, 4, 1), sqrt(0.475), EXACT);
    assert_close(eval(GPL_METRIC_MAE, p, y, NULL, 4, 1), 0.5, EXACT);
    assert_close(eval(GPL_METRIC_MAE, p, y, w, 4, 1), 0.55, EXACT);
}

static void test_binary(void **state)
{
    (void)state;
    /* sklearn log_loss */
    assert_close(eval(GPL_METRIC_LOGLOSS, bin_p, bin_y, NULL, 8, 1), 0.8477505185819298, EXACT);
    assert_close(eval(GPL_METRIC_LOGLOSS, bin_p, bin_y, bin_w, 8, 1), 0.6335411749755897, EXACT);
    /* p > 0.5 predicts 1, so 0.5 counts as 0: rows 1, 2, 3, 6, 7 wrong. */
    assert_close(eval(GPL_METRIC_ERROR, bin_p, bin_y, NULL, 8, 1), 5.0 / 8.0, EXACT);
    assert_close(eval(GPL_METRIC_ERROR, bin_p, bin_y, bin_w, 8, 1), 4.75 / 9.75, EXACT);
    /* As XGBoost: a log is taken of at least 1e-16, which keeps a certain
     * mistake finite, and a label of exactly 0 or 1 drops the other term. */
    const float y1[] = {1, 0}, p0[] = {0.0f, 1.0f};
    double want = -log(1e-16);
    assert_close(eval(GPL_METRIC_LOGLOSS, p0, y1, NULL, 2, 1), want, EXACT);
    assert_true(want > 36.8 && want < 36.9);
    const float right[] = {1.0f, 0.0f};
    assert_close(eval(GPL_METRIC_LOGLOSS, right, y1, NULL, 2, 1), 0.0, EXACT);
    /* A fractional label weighs both terms: 0.25 of log 0.5 and 0.75 of
     * log 0.5. */
    const float quarter[] = {0.25f}, half[] = {0.5f};
    assert_close(eval(GPL_METRIC_LOGLOSS, half, quarter, NULL, 1, 1), log(2.0), EXACT);
    /* Weighted as XGBoost: sum of w * loss over the sum of w. */
    const float w[] = {3, 1};
    assert_close(eval(GPL_METRIC_LOGLOSS, p0, y1, w, 2, 1), want, EXACT);
    const float pw[] = {0.5f, 0.25f};
    assert_close(eval(GPL_METRIC_LOGLOSS, pw, y1, w, 2, 1),
                 (3.0 * log(2.0) - log(0.75)) / 4.0, EXACT);
}

/* Four rows for the regression metrics of XGBoost, worked row by row. */
static const float reg_y[] = {1.0f, 2.0f, 0.0f, 4.0f};
static const float reg_p[] = {1.5f, 2.0f, 0.5f, 3.0f};
static const float reg_w[] = {1.0f, 2.0f, 3.0f, 4.0f};

static double weighted_mean(const double *loss, const float *w, int n)
{
    double sum = 0.0, wsum = 0.0;
    for (int i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0;
        sum += wi * loss[i];
        wsum += wi;
    }
    return sum / wsum;
}

static void test_rmsle_and_mape(void **state)
{
    (void)state;
    double d[4];
    for (int i = 0; i < 4; i++) {
        double e = log(1.0 + reg_y[i]) - log(1.0 + reg_p[i]);
        d[i] = e * e;
    }
    assert_close(eval(GPL_METRIC_RMSLE, reg_p, reg_y, NULL, 4, 1), sqrt(weighted_mean(d, NULL, 4)),
                 1e-15);
    assert_close(eval(GPL_METRIC_RMSLE, reg_p, reg_y, reg_w, 4, 1),
                 sqrt(weighted_mean(d, reg_w, 4)), 1e-15);
    /* |y - p| / |y|: 0.5, 0, 0.25 without the zero label */
    const float y[] = {1, 2, 4}, p[] = {1.5f, 2, 3}, w[] = {1, 2, 4};
    assert_close(eval(GPL_METRIC_MAPE, p, y, NULL, 3, 1), 0.25, EXACT);
    assert_close(eval(GPL_METRIC_MAPE, p, y, w, 3, 1), 1.5 / 7.0, EXACT);
    /* A label of 0 gives an infinite percentage, as in XGBoost. */
    assert_true(isinf(eval(GPL_METRIC_MAPE, reg_p, reg_y, NULL, 4, 1)));
    /* A prediction at or below -1 has no log1p. */
    const float below[] = {-1.5f};
    assert_true(isnan(eval(GPL_METRIC_RMSLE, below, y, NULL, 1, 1)));
}

static void test_mphe(void **state)
{
    (void)state;
    /* y - p = -0.5, 0, -0.5, 1; slope^2 (sqrt(1 + (a / slope)^2) - 1) */
    const double r = sqrt(1.25) - 1.0, one = sqrt(2.0) - 1.0;
    const double loss1[] = {r, 0.0, r, one};
    assert_close(eval(GPL_METRIC_MPHE, reg_p, reg_y, NULL, 4, 1), weighted_mean(loss1, NULL, 4),
                 EXACT);
    assert_close(eval(GPL_METRIC_MPHE, reg_p, reg_y, reg_w, 4, 1),
                 weighted_mean(loss1, reg_w, 4), EXACT);
    gpl_metric m = gpl_metric_of_kind(GPL_METRIC_MPHE);
    m.param = 2.0;
    const double r2 = 4.0 * (sqrt(1.0 + 0.0625) - 1.0), one2 = 4.0 * (sqrt(1.25) - 1.0);
    const double loss2[] = {r2, 0.0, r2, one2};
    assert_close(gpl_metric_eval(&m, reg_p, reg_y, reg_w, 4, 1, 0),
                 weighted_mean(loss2, reg_w, 4), EXACT);
}

static void test_poisson_and_gamma(void **state)
{
    (void)state;
    /* lgamma(y + 1) + p - y log p; lgamma(2) = lgamma(1) = 0, lgamma(3) =
     * log 2, lgamma(5) = log 24 */
    const double pois[] = {1.5 - log(1.5), log(2.0) + 2.0 - 2.0 * log(2.0), 0.5,
                           log(24.0) + 3.0 - 4.0 * log(3.0)};
    assert_close(eval(GPL_METRIC_POISSON_NLOGLIK, reg_p, reg_y, NULL, 4, 1),
                 weighted_mean(pois, NULL, 4), 1e-15);
    assert_close(eval(GPL_METRIC_POISSON_NLOGLIK, reg_p, reg_y, reg_w, 4, 1),
                 weighted_mean(pois, reg_w, 4), 1e-15);
    /* A prediction of 0 is floored at 1e-16: a label of 0 costs 1e-16, a
     * label of 1 costs 1e-16 - log(1e-16). */
    const float zero[] = {0.0f}, y0[] = {0.0f}, y1[] = {1.0f};
    assert_close(eval(GPL_METRIC_POISSON_NLOGLIK, zero, y0, NULL, 1, 1), 1e-16, 1e-30);
    assert_close(eval(GPL_METRIC_POISSON_NLOGLIK, zero, y1, NULL, 1, 1), 1e-16 - log(1e-16),
                 1e-13);

    /* gamma-nloglik: y / p + log p (dispersion 1) */
    const double gnll[] = {1.0 / 1.5 + log(1.5), 1.0 + log(2.0), 0.0 + log(0.5),
                           4.0 / 3.0 + log(3.0)};
    assert_close(eval(GPL_METRIC_GAMMA_NLOGLIK, reg_p, reg_y, reg_w, 4, 1),
                 weighted_mean(gnll, reg_w, 4), 1e-15);
    /* p is floored at 1e-6 */
    assert_close(eval(GPL_METRIC_GAMMA_NLOGLIK, zero, y1, NULL, 1, 1), 1e6 + log(1e-6), 1e-9);

    /* gamma-deviance: 2 mean(log(p / y) + y / p - 1), 1e-6 added to both */
    const double e = 1e-6;
    double dev[4];
    for (int i = 0; i < 4; i++) {
        double p = reg_p[i] + e, y = reg_y[i] + e;
        dev[i] = log(p / y) + y / p - 1.0;
    }
    assert_close(eval(GPL_METRIC_GAMMA_DEVIANCE, reg_p, reg_y, NULL, 4, 1),
                 2.0 * weighted_mean(dev, NULL, 4), 1e-12);
    assert_close(eval(GPL_METRIC_GAMMA_DEVIANCE, reg_p, reg_y, reg_w, 4, 1),
                 2.0 * weighted_mean(dev, reg_w, 4), 1e-12);
    /* A perfect prediction has no deviance. */
    assert_close(eval(GPL_METRIC_GAMMA_DEVIANCE, reg_y, reg_y, reg_w, 4, 1), 0.0, EXACT);
}

static void test_tweedie(void **state)
{
    (void)state;
    /* rho 1.5: -y p^-0.5 / -0.5 + p^0.5 / 0.5 = 2 y / sqrt(p) + 2 sqrt(p) */
    double t15[4];
    for (int i = 0; i < 4; i++)
        t15[i] = 2.0 * reg_y[i] / sqrt(reg_p[i]) + 2.0 * sqrt(reg_p[i]);
    assert_close(eval_named("tweedie-nloglik@1.5", reg_p, reg_y, reg_w, 4, 1),
                 weighted_mean(t15, reg_w, 4), 1e-14);
    /* rho 1.25 (exact in float): y p^-0.25 / 0.25 + p^0.75 / 0.75 */
    double t125[4];
    for (int i = 0; i < 4; i++)
        t125[i] = 4.0 * reg_y[i] * pow(reg_p[i], -0.25) + pow(reg_p[i], 0.75) / 0.75;
    assert_close(eval_named("tweedie-nloglik@1.25", reg_p, reg_y, NULL, 4, 1),
                 weighted_mean(t125, NULL, 4), 1e-14);
    gpl_metric m = gpl_metric_tweedie(1.3);
    assert_string_equal(m.name, "tweedie-nloglik@1.3");
}

static void test_error_threshold(void **state)
{
    (void)state;
    /* p > 0.7 predicts 1 in rows 3 and 4 only: wrong are rows 1, 2, 6, 7
     * (labelled 1) and 3 (labelled 0). */
    assert_close(eval_named("error@0.7", bin_p, bin_y, NULL, 8, 1), 5.0 / 8.0, EXACT);
    assert_close(eval_named("error@0.7", bin_p, bin_y, bin_w, 8, 1), 4.75 / 9.75, EXACT);
    /* p > 0.3 predicts 1 in rows 1 to 6: wrong are rows 3 and 5 (labelled
     * 0) and 7 (labelled 1, p 0.2): weights 1 + 1 + 0.25. */
    assert_close(eval_named("error@0.3", bin_p, bin_y, NULL, 8, 1), 3.0 / 8.0, EXACT);
    assert_close(eval_named("error@0.3", bin_p, bin_y, bin_w, 8, 1), 2.25 / 9.75, EXACT);
    /* The threshold is a float, as XGBoost's: 0.3f > 0.3, so a prediction
     * of 0.3f is not above it. */
    const float p[] = {0.3f}, y[] = {1.0f};
    assert_close(eval_named("error@0.3", p, y, NULL, 1, 1), 1.0, EXACT);
    /* error@0.5 is error, by value and by name */
    gpl_metric m;
    assert_int_equal(gpl_metric_parse("error@0.5", &m), GPULAYER_OK);
    assert_string_equal(m.name, "error");
    assert_close(eval_named("error@0", bin_p, bin_y, NULL, 8, 1), 3.0 / 8.0, EXACT);
    assert_close(eval_named("error@1", bin_p, bin_y, NULL, 8, 1), 5.0 / 8.0, EXACT);
}

static void test_bad_parameters(void **state)
{
    (void)state;
    static const struct {
        const char *name, *says;
    } bad[] = {
        {"error@2", "[0, 1]"},
        {"error@-0.1", "[0, 1]"},
        {"error@abc", "not a number"},
        {"error@", "not a number"},
        {"error@nan", "not a number"},
        {"tweedie-nloglik@3", "[1, 2)"},
        {"tweedie-nloglik@2", "[1, 2)"},
        {"tweedie-nloglik@0.5", "[1, 2)"},
        {"tweedie-nloglik", "tweedie-nloglik@rho"},
        {"rmse@1", "takes no '@' parameter"},
        {"quantile@0.5", "takes no '@' parameter"},
        {"poisson", "allowed:"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gpl_metric m;
        assert_int_equal(gpl_metric_parse(bad[i].name, &m), GPULAYER_ERR_INVALID_ARGUMENT);
        const char *msg = gpulayer_last_error();
        if (!strstr(msg, bad[i].name) || !strstr(msg, bad[i].says))
            fail_msg("'%s' gave: %s", bad[i].name, msg);
    }
}

static void test_quantile(void **state)
{
    (void)state;
    /* alpha 0.5: half the absolute error */
    assert_close(eval(GPL_METRIC_QUANTILE, reg_p, reg_y, reg_w, 4, 1),
                 0.5 * eval(GPL_METRIC_MAE, reg_p, reg_y, reg_w, 4, 1), EXACT);
    /* Three outputs at alphas 0.1, 0.5, 0.9 for labels 1 and 4:
     * row 0 predicts 0, 1, 2 -> d = 1, 0, -1 -> 0.1, 0, 0.1;
     * row 1 predicts 5, 3, 4 -> d = -1, 1, 0 -> 0.9, 0.5, 0. */
    const float p[] = {0, 1, 2, 5, 3, 4};
    const float y[] = {1, 4}, w[] = {1, 3};
    gpl_metric m = gpl_metric_of_kind(GPL_METRIC_QUANTILE);
    m.num_alphas = 3;
    m.alphas[0] = 0.1;
    m.alphas[1] = 0.5;
    m.alphas[2] = 0.9;
    /* the mean over alphas: ((0.2) / 3 * 1 + (1.4) / 3 * 3) / 4 */
    assert_close(gpl_metric_eval(&m, p, y, w, 2, 3, 0), (0.2 / 3.0 + 1.4) / 4.0, 1e-15);
    gpl_metric one = gpl_metric_of_kind(GPL_METRIC_QUANTILE);
    one.output = 1;
    /* the output at alpha 0.5: 0 and 0.5 */
    assert_close(gpl_metric_eval(&one, p, y, w, 2, 3, 0), 1.5 / 4.0, EXACT);
    one.output = 0;
    one.alphas[0] = 0.1;
    assert_close(gpl_metric_eval(&one, p, y, w, 2, 3, 0), (0.1 + 2.7) / 4.0, 1e-15);
    /* More alphas than outputs is undefined. */
    assert_true(isnan(gpl_metric_eval(&m, p, y, w, 3, 2, 0)));
}

/* XGBoost's aucpr: the precision-recall curve interpolated between the
 * ends of each group of tied predictions (its CalcDeltaPRAUC). */
static void test_aucpr(void **state)
{
    (void)state;
    /* 0.9 (+), 0.8 (-), 0.7 (+), 0.6 (-): steps (fp, tp) (0,0)->(0,1) adds
     * recall 0.5 at precision 1; (0,1)->(1,1) adds nothing; (1,1)->(1,2):
     * h = 0, a = 1, b = 1 / 2: 0.5 - 0.5 (log 1.5 - log 1). */
    const float p[] = {0.9f, 0.8f, 0.7f, 0.6f}, y[] = {1, 0, 1, 0};
    const double want = 0.5 + 0.5 - 0.5 * log(1.5);
    assert_close(eval(GPL_METRIC_AUCPR, p, y, NULL, 4, 1), want, 1e-15);
    /* Weight 2 on the first positive: total 3; the first step reaches
     * recall 2/3; the last: b = 1/3, a = 1, from 2/3 to 1. */
    const float w[] = {2, 1, 1, 1};
    const double want_w =
        2.0 / 3.0 + (1.0 / 3.0 - 1.0 / 3.0 * (log(1.0 + 1.0 / 3.0) - log(2.0 / 3.0 + 1.0 / 3.0)));
    assert_close(eval(GPL_METRIC_AUCPR, p, y, w, 4, 1), want_w, 1e-15);
    /* A perfect ranking has area 1; all tied: one step from (0,0) to
     * (2,2), h = 1, a = 2, b = 0: recall 1 / 2. */
    const float ranked[] = {0.9f, 0.7f, 0.8f, 0.6f};
    assert_close(eval(GPL_METRIC_AUCPR, ranked, y, NULL, 4, 1), 1.0, EXACT);
    const float flat[] = {0.5f, 0.5f, 0.5f, 0.5f};
    assert_close(eval(GPL_METRIC_AUCPR, flat, y, NULL, 4, 1), 0.5, EXACT);
    /* One class: NaN, as XGBoost. */
    const float ones[] = {1, 1, 1, 1};
    assert_true(isnan(eval(GPL_METRIC_AUCPR, p, ones, NULL, 4, 1)));
}

static void test_auc_ties_and_weights(void **state)
{
    (void)state;
    /* sklearn roc_auc_score, with and without sample_weight */
    assert_close(eval(GPL_METRIC_AUC, bin_p, bin_y, NULL, 8, 1), 0.5, EXACT);
    assert_close(eval(GPL_METRIC_AUC, bin_p, bin_y, bin_w, 8, 1), 0.654320987654321, EXACT);
    /* Every prediction tied: one trapezoid, 0.5. */
    const float flat[] = {0.3f, 0.3f, 0.3f, 0.3f};
    const float y[] = {0, 1, 0, 1};
    assert_close(eval(GPL_METRIC_AUC, flat, y, NULL, 4, 1), 0.5, EXACT);
    /* -0 and +0 are the same prediction. */
    const float zeros[] = {-0.0f, 0.0f, 1.0f, -1.0f};
    const float yz[] = {1, 0, 1, 0};
    assert_close(eval(GPL_METRIC_AUC, zeros, yz, NULL, 4, 1), 0.875, EXACT);
    /* Perfect and reversed rankings, negative scores included. */
    const float ranked[] = {-5.0f, -1.0f, 2.0f, 3.0f};
    const float yr[] = {0, 0, 1, 1}, yrev[] = {1, 1, 0, 0};
    assert_close(eval(GPL_METRIC_AUC, ranked, yr, NULL, 4, 1), 1.0, EXACT);
    assert_close(eval(GPL_METRIC_AUC, ranked, yrev, NULL, 4, 1), 0.0, EXACT);
}

/* With one class only AUC is undefined: NaN, as XGBoost reports it. */
static void test_auc_one_class_is_nan(void **state)
{
    (void)state;
    const float p[] = {0.1f, 0.7f, 0.4f};
    const float ones[] = {1, 1, 1}, zeros[] = {0, 0, 0};
    assert_true(isnan(eval(GPL_METRIC_AUC, p, ones, NULL, 3, 1)));
    assert_true(isnan(eval(GPL_METRIC_AUC, p, zeros, NULL, 3, 1)));
    const float w[] = {0, 1, 1}, mixed[] = {1, 0, 0};
    assert_true(isnan(eval(GPL_METRIC_AUC, p, mixed, w, 3, 1)));
}

/* AUC as the probability that a positive outranks a negative, ties half,
 * summed over all pairs. */
static double pairwise_auc(const float *p, const float *y, const float *w, int64_t n)
{
    double num = 0.0, pos = 0.0, neg = 0.0;
    for (int64_t i = 0; i < n; i++) {
        double wi = w ? w[i] : 1.0;
        if (y[i] > 0.5f) pos += wi;
        else neg += wi;
    }
    for (int64_t i = 0; i < n; i++) {
        if (!(y[i] > 0.5f)) continue;
        for (int64_t j = 0; j < n; j++) {
            if (y[j] > 0.5f) continue;
            double ww = (w ? w[i] * (double)w[j] : 1.0);
            if (p[i] > p[j]) num += ww;
            else if (p[i] == p[j]) num += 0.5 * ww;
        }
    }
    return num / (pos * neg);
}

static uint64_t next_random(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static void test_auc_matches_pairwise_reference(void **state)
{
    (void)state;
    enum { N = 3000 };
    float *p = malloc(sizeof(float) * N), *y = malloc(sizeof(float) * N);
    float *w = malloc(sizeof(float) * N);
    uint64_t s = 12345;
    for (int i = 0; i < N; i++) {
        y[i] = (float)(next_random(&s) % 3 == 0);
        /* Coarse scores give many ties; the sign and scale vary. */
        p[i] = (float)((int)(next_random(&s) % 41) - 20) * 0.37f + y[i] * 1.5f;
        if (i % 5 == 0) p[i] *= 1e20f;
        w[i] = (float)(next_random(&s) % 100) / 10.0f;
    }
    assert_close(eval(GPL_METRIC_AUC, p, y, NULL, N, 1), pairwise_auc(p, y, NULL, N), 1e-12);
    assert_close(eval(GPL_METRIC_AUC, p, y, w, N, 1), pairwise_auc(p, y, w, N), 1e-12);
    free(p);
    free(y);
    free(w);
}

/* A million distinct scores take every radix pass; counting positives
 * above each negative with a sorted copy gives the exact answer. */
static int compare_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static void test_auc_large(void **state)
{
    (void)state;
    enum { N = 1000000 };
    float *p = malloc(sizeof(float) * N), *y = malloc(sizeof(float) * N);
    float *pos = malloc(sizeof(float) * N);
    uint64_t s = 777;
    int64_t npos = 0;
    for (int i = 0; i < N; i++) {
        y[i] = (float)(next_random(&s) % 4 == 0);
        uint32_t bits = (uint32_t)(next_random(&s) >> 41) | 0x3f800000u; /* [1, 2) */
        memcpy(&p[i], &bits, sizeof bits);
        p[i] = (p[i] - 1.5f) + (y[i] > 0 ? 0.3f : 0.0f);
        if (y[i] > 0) pos[npos++] = p[i];
    }
    qsort(pos, (size_t)npos, sizeof(float), compare_float);
    double num = 0.0;
    for (int i = 0; i < N; i++) {
        if (y[i] > 0) continue;
        /* positives above p[i], plus half of those equal */
        int64_t lo = 0, hi = npos;
        while (lo < hi) {
            int64_t mid = (lo + hi) / 2;
            if (pos[mid] <= p[i]) lo = mid + 1;
            else hi = mid;
        }
        int64_t eq = lo;
        while (eq > 0 && pos[eq - 1] == p[i]) eq--;
        num += (double)(npos - lo) + 0.5 * (double)(lo - eq);
    }
    double want = num / ((double)npos * (double)(N - npos));
    assert_close(eval(GPL_METRIC_AUC, p, y, NULL, N, 1), want, 1e-9);
    free(p);
    free(y);
    free(pos);
}

static void test_multiclass(void **state)
{
    (void)state;
    const float p[] = {0.7f, 0.2f, 0.1f, 0.1f, 0.3f, 0.6f, 0.3f, 0.3f, 0.4f,
                       0.25f, 0.5f, 0.25f};
    const float y[] = {0, 2, 1, 1};
    const float w[] = {1, 2, 3, 4};
    /* sklearn log_loss(labels=[0, 1, 2]) */
    assert_close(eval(GPL_METRIC_MLOGLOSS, p, y, NULL, 4, 3), 0.6911551225369112, EXACT);
    assert_close(eval(GPL_METRIC_MLOGLOSS, p, y, w, 4, 3), 0.7762833145036057, EXACT);
    /* As XGBoost: the log of at least 1e-16, so a certain mistake costs
     * -log(1e-16). */
    const float certain[] = {0.0f, 1.0f, 0.0f}, first[] = {0};
    assert_close(eval(GPL_METRIC_MLOGLOSS, certain, first, NULL, 1, 3), -log(1e-16), EXACT);
    /* Row 2 predicts class 2 but is class 1. */
    assert_close(eval(GPL_METRIC_MERROR, p, y, NULL, 4, 3), 0.25, EXACT);
    assert_close(eval(GPL_METRIC_MERROR, p, y, w, 4, 3), 0.3, EXACT);
    /* A tie goes to the first class, as in XGBoost. */
    const float tie[] = {0.4f, 0.4f, 0.2f};
    const float one[] = {1}, zero[] = {0};
    assert_close(eval(GPL_METRIC_MERROR, tie, one, NULL, 1, 3), 1.0, EXACT);
    assert_close(eval(GPL_METRIC_MERROR, tie, zero, NULL, 1, 3), 0.0, EXACT);
}

static void test_undefined_cases_are_nan(void **state)
{
    (void)state;
    const float p[] = {0.2f, 0.3f, 0.5f};
    const float bad[] = {3}, half[] = {0.5f};
    assert_true(isnan(eval(GPL_METRIC_MLOGLOSS, p, bad, NULL, 1, 3)));
    assert_true(isnan(eval(GPL_METRIC_MERROR, p, half, NULL, 1, 3)));
    const float y[] = {1, 0, 1}, w0[] = {0, 0, 0};
    assert_true(isnan(eval(GPL_METRIC_RMSE, p, y, w0, 3, 1)));
    assert_true(isnan(eval(GPL_METRIC_RMSE, p, y, NULL, 0, 1)));
    assert_true(isnan(eval(GPL_METRIC_AUC, p, y, NULL, 0, 1)));
}

/* Block sums make the value independent of the thread count. */
static void test_same_value_for_any_thread_count(void **state)
{
    (void)state;
    enum { N = 300001 };
    float *p = malloc(sizeof(float) * N), *y = malloc(sizeof(float) * N);
    uint64_t s = 99;
    for (int i = 0; i < N; i++) {
        p[i] = (float)(next_random(&s) % 100000) / 100001.0f;
        y[i] = (float)(next_random(&s) % 2);
    }
    const gpl_metric_kind kinds[] = {GPL_METRIC_RMSE, GPL_METRIC_LOGLOSS, GPL_METRIC_MAE,
                                     GPL_METRIC_POISSON_NLOGLIK, GPL_METRIC_QUANTILE};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        gpl_metric m = gpl_metric_of_kind(kinds[k]);
        double one = gpl_metric_eval(&m, p, y, NULL, N, 1, 1);
        double many = gpl_metric_eval(&m, p, y, NULL, N, 1, 7);
        assert_memory_equal(&one, &many, sizeof one);
    }
    free(p);
    free(y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_maximize_by_name),
        cmocka_unit_test(test_regression),
        cmocka_unit_test(test_binary),
        cmocka_unit_test(test_rmsle_and_mape),
        cmocka_unit_test(test_mphe),
        cmocka_unit_test(test_poisson_and_gamma),
        cmocka_unit_test(test_tweedie),
        cmocka_unit_test(test_error_threshold),
        cmocka_unit_test(test_bad_parameters),
        cmocka_unit_test(test_quantile),
        cmocka_unit_test(test_aucpr),
        cmocka_unit_test(test_auc_ties_and_weights),
        cmocka_unit_test(test_auc_one_class_is_nan),
        cmocka_unit_test(test_auc_matches_pairwise_reference),
        cmocka_unit_test(test_auc_large),
        cmocka_unit_test(test_multiclass),
        cmocka_unit_test(test_undefined_cases_are_nan),
        cmocka_unit_test(test_same_value_for_any_thread_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
