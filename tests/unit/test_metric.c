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
    return gpl_metric_eval(kind, p, y, w, n, k, 0);
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
    const char *names[] = {"rmse", "mae", "logloss", "error", "auc", "mlogloss", "merror"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        gpl_metric_kind kind;
        assert_int_equal(gpl_metric_parse(names[i], &kind), GPULAYER_OK);
        assert_string_equal(gpl_metric_name(kind), names[i]);
        assert_int_equal(gpl_metric_higher_is_better(kind), kind == GPL_METRIC_AUC);
    }
    gpl_metric_kind kind;
    assert_int_equal(gpl_metric_parse("ndcg", &kind), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "ndcg"));
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
    /* Clipping to [1e-15, 1 - 1e-15] keeps a certain mistake finite. */
    const float y1[] = {1, 0}, p0[] = {0.0f, 1.0f};
    double want = (-log(1e-15) - log(1.0 - (1.0 - 1e-15))) / 2.0;
    assert_close(eval(GPL_METRIC_LOGLOSS, p0, y1, NULL, 2, 1), want, EXACT);
    assert_true(want > 34.5 && want < 34.6);
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
    const gpl_metric_kind kinds[] = {GPL_METRIC_RMSE, GPL_METRIC_LOGLOSS, GPL_METRIC_MAE};
    for (size_t k = 0; k < 3; k++) {
        double one = gpl_metric_eval(kinds[k], p, y, NULL, N, 1, 1);
        double many = gpl_metric_eval(kinds[k], p, y, NULL, N, 1, 7);
        assert_memory_equal(&one, &many, sizeof one);
    }
    free(p);
    free(y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_regression),
        cmocka_unit_test(test_binary),
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
