/*
 * test_cuda_ops.c -- every operation of the CUDA backend against the CPU
 * backend on the same inputs: scales, histograms (bit for bit), split
 * records, child row counts and margins, level by level, on random and
 * adversarial data; the ranking objectives' pairs on adversarial queries.
 * Skips, with the reason, where no CUDA device is usable.
 */
#include "backend_guard.h"
#include "ops_compare.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cat_set.h"
#include "gpulayer.h"

/* ------------------------------------------------------------ cases */

/* Fields: name, rows, features, bins, bin pattern, labels, objective,
 * outputs, weighted, subsample, depth, min_child_weight, alpha, masked. */
CASE(test_one_row,          "one row",       1, 4, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 3, 0.0, 0.0, 0)
CASE(test_seven_rows,       "seven rows",    7, 5, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 3, 0.0, 0.0, 0)
CASE(test_100003_rows,      "100003 rows", 100003, 28, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 6, 1.0, 0.0, 0)
CASE(test_skewed_bins,      "skewed bins", 50000, 6, 256, BINS_SKEWED, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 4, 0.0, 0.0, 0)
CASE(test_256_bins,         "256 bins",    60000, 3, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_SQUARED_ERROR, 1, 1, 1.0f, 5, 1.0, 0.5, 0)
CASE(test_huge_labels,      "huge labels", 30011, 9, 64, BINS_RANDOM, LABELS_HUGE, GPL_OBJ_SQUARED_ERROR, 1, 0, 1.0f, 5, 0.0, 0.0, 0)
CASE(test_missing_values,   "NaN features", 40009, 12, 200, BINS_MISSING, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 1, 0.8f, 5, 1.0, 0.0, 1)
CASE(test_one_feature,      "one feature", 70001, 1, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_ABSOLUTE_ERROR, 1, 0, 1.0f, 6, 0.0, 0.0, 0)
CASE(test_2000_features,    "2000 features", 3001, 2000, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 4, 1.0, 0.0, 1)
CASE(test_softmax,          "softmax",     20011, 7, 128, BINS_RANDOM, LABELS_CLASS, GPL_OBJ_SOFTMAX, 3, 1, 0.7f, 4, 1.0, 0.0, 0)

/* The global-atomics reference kernel and the other accumulation variants
 * give the same histograms as the CPU. */
/* Splits by sets of categories: 2 to 255 categories, skewed, missing
 * values, categories absent from a node (ops_compare.c). */
static void test_categorical(void **state)
{
    (void)state;
    for (int i = 0; i < num_categorical_problems; i++)
        run_categorical_problem(&categorical_problems[i]);
}

static void test_monotone(void **state)
{
    (void)state;
    for (int i = 0; i < num_monotone_problems; i++) run_monotone_problem(&monotone_problems[i]);
}

static void test_global_atomics_reference(void **state)
{
    (void)state;
    static const char *const kernels[][2] = {
        {"global", "global-atomics kernel"},
        {"direct", "unstaged 32-bit atomics"},
        {"staged", "staged rows, two feature chunks"},
    };
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
        setenv("GPULAYER_CUDA_HIST", kernels[k][0], 1);
        const problem p = {kernels[k][1], 20011, 33, 256, BINS_RANDOM, LABELS_BINARY,
                           GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 4, 1.0, 0.0, 0};
        run_problem(&p);
        /* Sums at the quantization's bound, and skewed bins. */
        const problem q = {kernels[k][1], 30011, 9, 64, BINS_SKEWED, LABELS_HUGE,
                           GPL_OBJ_SQUARED_ERROR, 1, 0, 1.0f, 4, 0.0, 0.0, 0};
        run_problem(&q);
    }
    unsetenv("GPULAYER_CUDA_HIST");
}

static void test_wide_bins(void **state)
{
    (void)state;
    for (int i = 0; i < num_wide_problems; i++) run_wide_problem(i);
}

/* The global-atomics reference kernel on 16-bit codes. */
static void test_wide_bins_global_atomics(void **state)
{
    (void)state;
    setenv("GPULAYER_CUDA_HIST", "global", 1);
    run_wide_problem(1);
    run_wide_problem(4);
    unsetenv("GPULAYER_CUDA_HIST");
}

/* A failed operation names the backend and leaves the process usable. */
static void test_errors_are_reported(void **state)
{
    (void)state;
    gpl_backend_config cfg = {1, 0, 7, 1, 0};
    gpl_backend *be = create_or_skip("cuda", &cfg);
    const problem p = {"errors", 100, 3, 16, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC,
                       1, 0, 1.0f, 2, 0.0, 0.0, 0};
    data d;
    make_data(&p, &d);
    OK(be->ops->upload(be, &d.m, d.label, NULL));
    OK(be->ops->begin_tree(be));
    gpl_grad_pair h[64];
    assert_int_not_equal(be->ops->read_histogram(be, 5, h), GPULAYER_OK);
    assert_non_null(strstr(gpulayer_last_error(), "cuda backend"));
    int32_t node = 3; /* holds no rows */
    assert_int_not_equal(be->ops->build_histograms(be, &node, 1), GPULAYER_OK);
    assert_non_null(strstr(gpulayer_last_error(), "cuda backend"));
    node = 0;
    OK(be->ops->build_histograms(be, &node, 1));
    gpl_backend_destroy(be);
    free_data(&d);
    /* A device index that does not exist is refused at creation. */
    cfg.device = 999;
    assert_int_equal(gpl_backend_create("cuda", &cfg, &be), GPULAYER_ERR_DEVICE);
    assert_non_null(strstr(gpulayer_last_error(), "device 999"));
}

/* The ranking objectives' pairs and the trees grown on them, bit for bit
 * with the CPU over adversarial query layouts (rank_compare.c). */
static void test_ranking(void **state)
{
    (void)state;
    run_rank_cases();
}

/* A ranking objective before set_groups, and groups that miss rows, are
 * refused with the backend's name; good groups replace refused ones. */
static void test_ranking_refusals(void **state)
{
    (void)state;
    gpl_backend_config cfg = {1, 0, 7, 1, 0};
    gpl_backend *be = create_or_skip("cuda", &cfg);
    const problem p = {"groups", 100, 3, 16, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC,
                       1, 0, 1.0f, 2, 0.0, 0.0, 0};
    data d;
    make_data(&p, &d);
    OK(be->ops->upload(be, &d.m, d.label, NULL));
    OK(be->ops->set_margins(be, d.margins));
    const gpl_gradient_request req = {GPL_OBJ_RANK_NDCG, 1, 0, 0, 42, 1.0f, 0.0,
                                      {GPL_RANK_TOPK, 32, 1, 1, 1, 0}, 0, 0, 0, {0}};
    gpl_quant_scale sc;
    assert_int_not_equal(be->ops->compute_gradients(be, &req, &sc), GPULAYER_OK);
    assert_non_null(strstr(gpulayer_last_error(), "cuda backend: a ranking objective without"));
    int64_t ptr[3] = {0, 40, 90};
    double discount[60], inv_idcg[2] = {0.5, 0.25}, weight[2] = {1.0, 1.0};
    for (int i = 0; i < 60; i++) discount[i] = 1.0 / (i + 2.0);
    const gpl_rank_groups g = {2, ptr, 60, discount, inv_idcg, weight};
    assert_int_equal(be->ops->set_groups(be, &g), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "rows 0 to 90, not 0 to 100"));
    ptr[2] = 100;
    OK(be->ops->set_groups(be, &g));
    OK(be->ops->compute_gradients(be, &req, &sc));
    assert_true(sc.grad > 0.0 && sc.hess > 0.0);
    gpl_backend_destroy(be);
    free_data(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_row),
        cmocka_unit_test(test_seven_rows),
        cmocka_unit_test(test_100003_rows),
        cmocka_unit_test(test_skewed_bins),
        cmocka_unit_test(test_256_bins),
        cmocka_unit_test(test_huge_labels),
        cmocka_unit_test(test_missing_values),
        cmocka_unit_test(test_one_feature),
        cmocka_unit_test(test_2000_features),
        cmocka_unit_test(test_softmax),
        cmocka_unit_test(test_categorical),
        cmocka_unit_test(test_monotone),
        cmocka_unit_test(test_global_atomics_reference),
        cmocka_unit_test(test_wide_bins),
        cmocka_unit_test(test_wide_bins_global_atomics),
        cmocka_unit_test(test_gradient_kinds),
        cmocka_unit_test(test_write_pairs),
        cmocka_unit_test(test_errors_are_reported),
        cmocka_unit_test(test_ranking),
        cmocka_unit_test(test_ranking_refusals),
    };
    compare_accelerator = "cuda";
    GPL_RUN_IF_BACKEND("cuda", tests);
}
