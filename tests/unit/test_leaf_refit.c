/* test_leaf_refit.c -- XGBoost's quantiles and the leaf refit of absolute
 * and quantile error. */
#include "test_util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "leaf_refit.h"

static int compare_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* XGBoost's common::Quantile over a sorted copy: the reference. */
static double sorted_quantile(const float *v, int64_t n, double alpha)
{
    float *s = malloc(sizeof(float) * (size_t)n);
    assert_non_null(s);
    memcpy(s, v, sizeof(float) * (size_t)n);
    qsort(s, (size_t)n, sizeof(float), compare_float);
    double q;
    if (alpha <= 1.0 / (n + 1.0)) q = s[0];
    else if (alpha >= n / (n + 1.0)) q = s[n - 1];
    else {
        double x = alpha * (n + 1.0);
        int64_t k = (int64_t)floor(x) - 1;
        double d = (x - 1.0) - (double)k;
        q = (double)s[k] + d * ((double)s[k + 1] - (double)s[k]);
    }
    free(s);
    return q;
}

static void test_unweighted_quantile_interpolates_as_xgboost(void **state)
{
    (void)state;
    const float data[8] = {3, 1, 4, 1, 5, 9, 2, 6};
    const double alpha[5] = {0.5, 0.1, 0.9, 0.3, 0.05};
    const double want[5] = {3.5, 1.0, 9.0, 1.7, 1.0};
    for (int i = 0; i < 5; i++) {
        float v[8];
        memcpy(v, data, sizeof v);
        assert_true(fabs(gpl_weighted_quantile(v, NULL, 8, alpha[i]) - want[i]) < 1e-6);
    }
    float one = 7.0f;
    assert_true(gpl_weighted_quantile(&one, NULL, 1, 0.3) == 7.0);
}

static void test_selection_matches_a_full_sort(void **state)
{
    (void)state;
    srand(11);
    for (int trial = 0; trial < 300; trial++) {
        const int64_t n = 1 + rand() % 200;
        float v[200], copy[200];
        for (int64_t i = 0; i < n; i++)
            v[i] = (float)(rand() % (trial % 3 == 0 ? 5 : 1000)) - 300.0f; /* ties */
        const double alpha = (rand() % 999 + 1) / 1000.0;
        memcpy(copy, v, sizeof(float) * (size_t)n);
        assert_true(gpl_weighted_quantile(copy, NULL, n, alpha) == sorted_quantile(v, n, alpha));
    }
}

static void test_weighted_quantile_takes_the_cumulative_weight(void **state)
{
    (void)state;
    /* Sorted: 1 (w 1), 2 (w 1), 3 (w 6), 10 (w 2); total 10. */
    float v[4] = {10, 3, 1, 2}, w[4] = {2, 6, 1, 1};
    assert_true(gpl_weighted_quantile(v, w, 4, 0.5) == 3.0); /* cdf 8 >= 5 */
    float v2[4] = {10, 3, 1, 2}, w2[4] = {2, 6, 1, 1};
    assert_true(gpl_weighted_quantile(v2, w2, 4, 0.15) == 2.0); /* cdf 2 >= 1.5 */
}

/* A stump on feature 0: bin 1 left, bin 2 right. */
static void test_refit_sets_each_leaf_to_its_rows_quantile(void **state)
{
    (void)state;
    gpl_tree_node nodes[3];
    memset(nodes, 0, sizeof nodes);
    nodes[0] = (gpl_tree_node){.left = 1, .right = 2, .feature = 0, .split_bin = 1};
    nodes[1] = (gpl_tree_node){.left = -1, .right = -1, .feature = -1, .leaf_value = 9};
    nodes[2] = (gpl_tree_node){.left = -1, .right = -1, .feature = -1, .leaf_value = 9};
    const uint8_t bins[6] = {1, 1, 1, 2, 2, 2};
    const float label[6] = {1, 5, 3, 10, 20, 40};
    const float margins[6] = {0, 1, 0, 10, 10, 10};
    gpl_objective_params op;
    gpl_objective_params_default(&op);
    gpl_leaf_refit_job job = {bins, 6, 1, label, NULL, 1, 0, 0, 1.0f, 0.5, &op,
                              GPL_OBJ_ABSOLUTE_ERROR, 1, 0, NULL, NULL};
    float leaf_value[3] = {0, 9, 9};
    assert_int_equal(gpl_leaf_refit(&job, margins, 0, nodes, 3, leaf_value), GPULAYER_OK);
    /* Residuals left {1, 4, 3}: median 3; right {0, 10, 30}: median 10. */
    assert_true(nodes[1].leaf_value == 1.5f && leaf_value[1] == 1.5f);
    assert_true(nodes[2].leaf_value == 5.0f && leaf_value[2] == 5.0f);
    assert_true(leaf_value[0] == 0.0f);
    /* The 0.9 quantile of the right leaf: alpha >= n / (n + 1), the largest. */
    op.num_quantiles = 1;
    op.quantile_alpha[0] = 0.9;
    job.objective = GPL_OBJ_QUANTILE;
    assert_int_equal(gpl_leaf_refit(&job, margins, 0, nodes, 3, leaf_value), GPULAYER_OK);
    assert_true(nodes[2].leaf_value == 15.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unweighted_quantile_interpolates_as_xgboost),
        cmocka_unit_test(test_selection_matches_a_full_sort),
        cmocka_unit_test(test_weighted_quantile_takes_the_cumulative_weight),
        cmocka_unit_test(test_refit_sets_each_leaf_to_its_rows_quantile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
