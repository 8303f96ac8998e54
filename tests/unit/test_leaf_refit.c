/* test_leaf_refit.c -- XGBoost's quantiles and the leaf refit of absolute
 * and quantile error. */
#include "test_util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "leaf_refit.h"
#include "objective_math.h"

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
    gpl_leaf_refit_job job = {bins, 1, 6, 1, label, NULL, 1, 0, 0, 1.0f, 0.5, &op,
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

/* A backend that does refit_sort and refit_values on the host, to check
 * the core's use of them against the host refit. */
typedef struct fake_refit {
    const gpl_leaf_refit_job *job;
    const float *margins;
    float *sorted; /* residuals by leaf, then value */
} fake_refit;

static fake_refit fake;

typedef struct keyed {
    int32_t leaf;
    float value;
} keyed;

static int compare_keyed(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->leaf != y->leaf) return x->leaf < y->leaf ? -1 : 1;
    return (x->value > y->value) - (x->value < y->value);
}

static gpulayer_status fake_sort(gpl_backend *be, const gpl_gradient_request *req,
                                 const gpl_infer_node *nodes, const uint32_t *cat_sets,
                                 int32_t num_nodes, int64_t *leaf_rows)
{
    (void)be;
    (void)cat_sets;
    const gpl_leaf_refit_job *job = fake.job;
    keyed *k = malloc(sizeof(keyed) * (size_t)job->num_rows);
    int64_t n = 0;
    memset(leaf_rows, 0, sizeof(int64_t) * (size_t)num_nodes);
    for (int64_t r = 0; r < job->num_rows; r++) {
        if (!gpl_row_sampled(req->seed, req->round, r, req->subsample)) continue;
        int32_t i = 0;
        while (nodes[i].child[0] != i) {
            const uint8_t b = job->bins[r * job->num_features + nodes[i].feature];
            int left = b == 0 ? nodes[i].default_left : b <= nodes[i].bin;
            i = nodes[i].child[left ? 0 : 1];
        }
        float res = job->label[r] - fake.margins[r * job->num_outputs + req->output];
        k[n++] = (keyed){i, res == 0.0f ? 0.0f : res};
        leaf_rows[i]++;
    }
    qsort(k, (size_t)n, sizeof(keyed), compare_keyed);
    fake.sorted = malloc(sizeof(float) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) fake.sorted[i] = k[i].value;
    free(k);
    return GPULAYER_OK;
}

static gpulayer_status fake_values(gpl_backend *be, const int64_t *positions, int32_t count,
                                   float *values)
{
    (void)be;
    for (int32_t i = 0; i < count; i++) values[i] = fake.sorted[positions[i]];
    free(fake.sorted);
    return GPULAYER_OK;
}

static void test_backend_refit_matches_the_host_refit(void **state)
{
    (void)state;
    enum { ROWS = 3001, FEATURES = 2 };
    static uint8_t bins[ROWS * FEATURES];
    static float label[ROWS], margins[ROWS * 2];
    srand(3);
    for (int r = 0; r < ROWS; r++) {
        bins[r * FEATURES] = (uint8_t)(rand() % 4);     /* 0 = missing */
        bins[r * FEATURES + 1] = (uint8_t)(1 + rand() % 3);
        label[r] = (float)(rand() % 50) - 20.0f;        /* ties, zeros */
        margins[r * 2] = (float)(rand() % 7) - 3.0f;
        margins[r * 2 + 1] = (float)(rand() % 100) / 8.0f;
    }
    /* Root on feature 0 (bins 1..2 left, missing right), its left child on
     * feature 1: leaves 2, 3, 4. */
    gpl_tree_node nodes[5];
    memset(nodes, 0, sizeof nodes);
    nodes[0] = (gpl_tree_node){.left = 1, .right = 2, .feature = 0, .split_bin = 2};
    nodes[1] = (gpl_tree_node){.left = 3, .right = 4, .feature = 1, .split_bin = 1,
                               .default_left = 1};
    for (int i = 2; i < 5; i++) nodes[i] = (gpl_tree_node){.left = -1, .right = -1, .feature = -1};
    gpl_objective_params op;
    gpl_objective_params_default(&op);
    op.num_quantiles = 2;
    op.quantile_alpha[0] = 0.13;
    op.quantile_alpha[1] = 0.999;
    static const struct gpl_backend_ops ops = {.capabilities = GPL_BACKEND_CAP_REFIT,
                                               .refit_sort = fake_sort,
                                               .refit_values = fake_values};
    gpl_backend be = {&ops, NULL, {0}};
    for (int trial = 0; trial < 4; trial++) {
        const float subsample = trial < 2 ? 1.0f : 0.6f;
        const int32_t output = trial % 2;
        gpl_leaf_refit_job job = {bins, 1, ROWS, FEATURES, label, NULL, 2, trial, 9, subsample,
                                  0.3, &op, trial == 3 ? GPL_OBJ_ABSOLUTE_ERROR : GPL_OBJ_QUANTILE,
                                  1, 0, NULL, NULL};
        fake = (fake_refit){&job, margins, NULL};
        assert_true(gpl_leaf_refit_on_backend(&job, &be));
        gpl_tree_node host_nodes[5], dev_nodes[5];
        float host_leaf[5] = {0}, dev_leaf[5] = {0};
        memcpy(host_nodes, nodes, sizeof nodes);
        memcpy(dev_nodes, nodes, sizeof nodes);
        assert_int_equal(gpl_leaf_refit(&job, margins, output, host_nodes, 5, host_leaf),
                         GPULAYER_OK);
        assert_int_equal(gpl_leaf_refit_backend(&job, &be, output, dev_nodes, 5, dev_leaf),
                         GPULAYER_OK);
        assert_memory_equal(host_leaf, dev_leaf, sizeof host_leaf);
        assert_memory_equal(host_nodes, dev_nodes, sizeof host_nodes);
        assert_true(host_leaf[2] != 0.0f || host_leaf[3] != 0.0f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unweighted_quantile_interpolates_as_xgboost),
        cmocka_unit_test(test_selection_matches_a_full_sort),
        cmocka_unit_test(test_weighted_quantile_takes_the_cumulative_weight),
        cmocka_unit_test(test_refit_sets_each_leaf_to_its_rows_quantile),
        cmocka_unit_test(test_backend_refit_matches_the_host_refit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
