/*
 * test_vulkan_ops.c -- every operation of the Vulkan backend against the
 * CPU backend on the same inputs: scales, histograms (bit for bit), split
 * records, child row counts and margins, level by level, on random and
 * adversarial data. Runs in CI on lavapipe (Mesa's CPU Vulkan driver), so
 * the sizes stay small; skips, with the reason, where no Vulkan device is
 * usable.
 */
#include "backend_guard.h"
#include "ops_compare.h"
#include "test_util.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "gpulayer.h"
#include "vulkan/vk_tuning.h"

/* ------------------------------------------------------------ cases */

/* Fields: name, rows, features, bins, bin pattern, labels, objective,
 * outputs, weighted, subsample, depth, min_child_weight, alpha, masked. */
CASE(test_one_row,          "one row",       1, 4, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 3, 0.0, 0.0, 0)
CASE(test_seven_rows,       "seven rows",    7, 5, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 3, 0.0, 0.0, 0)
CASE(test_100003_rows,      "100003 rows", 100003, 8, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 5, 1.0, 0.0, 0)
CASE(test_skewed_bins,      "skewed bins", 20011, 6, 256, BINS_SKEWED, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 4, 0.0, 0.0, 0)
CASE(test_256_bins,         "256 bins",    30011, 3, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_SQUARED_ERROR, 1, 1, 1.0f, 5, 1.0, 0.5, 0)
CASE(test_huge_labels,      "large gradients", 20011, 9, 64, BINS_RANDOM, LABELS_HUGE, GPL_OBJ_SQUARED_ERROR, 1, 0, 1.0f, 5, 0.0, 0.0, 0)
CASE(test_missing_values,   "NaN features", 20011, 12, 200, BINS_MISSING, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 1, 0.8f, 5, 1.0, 0.0, 1)
CASE(test_one_feature,      "one feature", 30011, 1, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_ABSOLUTE_ERROR, 1, 0, 1.0f, 6, 0.0, 0.0, 0)
CASE(test_300_features,     "300 features", 2003, 300, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 4, 1.0, 0.0, 1)
/* 150 bins a feature: chunks of 27 features, so the second starts at the
 * last byte of a word of a row (histogram_rows.comp's lead). */
CASE(test_chunk_offsets,    "chunk offsets", 5003, 30, 150, BINS_MISSING, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 4, 0.0, 0.0, 0)
/* 4000 features: about 250 shared-memory chunks a node, so the batch of a
 * level of 8 nodes needs more descriptor sets than one pool holds
 * (vk_record.c submits what it has and goes on). */
CASE(test_4000_features,    "4000 features", 501, 4000, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 5, 0.0, 0.0, 0)
/* The arithmetic at its edges (also run with the float64-free kernels):
 * quantization exactly half-way between integers, and saturated sigmoids
 * whose hessians reach the 1e-16 floor (weighted, so hess * weight too). */
CASE(test_rounding_ties,    "rounding ties", 3001, 5, 64, BINS_RANDOM, LABELS_TIES, GPL_OBJ_SQUARED_ERROR, 1, 0, 1.0f, 4, 0.0, 0.0, 0)
CASE(test_tiny_hessians,    "tiny hessians", 3001, 5, 64, BINS_RANDOM, LABELS_SATURATED, GPL_OBJ_LOGISTIC, 1, 1, 1.0f, 4, 0.0, 0.0, 0)
CASE(test_softmax,          "softmax",     10007, 7, 128, BINS_RANDOM, LABELS_CLASS, GPL_OBJ_SOFTMAX, 3, 1, 0.7f, 4, 1.0, 0.0, 0)

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

/* 16-bit codes (wide_compare.c): features of more bins than a
 * workgroup's shared histogram (runs of bins), sets of more than 255
 * categories. */
static void test_wide_bins(void **state)
{
    (void)state;
    for (int i = 0; i < num_wide_problems; i++) run_wide_problem(i);
}

/* A device made to look small: 64 KiB storage bindings (feature chunks
 * split by binding size, partial histograms limited), 3 workgroups a
 * dispatch (every kernel's grid-stride loop) and staged transfers (the
 * discrete-GPU path). Then a job too large for such a device (gradient
 * pairs in more than 8 windows of 64 KiB) is refused. */
static void test_small_device_limits(void **state)
{
    (void)state;
    setenv("GPULAYER_VULKAN_TEST_LIMITS", "65536,3,1", 1);
    const problem p = {"small device", 4001, 40, 16, BINS_RANDOM, LABELS_BINARY,
                       GPL_OBJ_LOGISTIC, 1, 1, 0.9f, 5, 1.0, 0.0, 0};
    run_problem(&p);
    const problem q = {"small device, 256 bins", 3001, 7, 256, BINS_MISSING, LABELS_BINARY,
                       GPL_OBJ_SQUARED_ERROR, 1, 0, 1.0f, 4, 0.0, 0.0, 0};
    run_problem(&q);
    gpl_backend_config cfg = {1, 0, 7, 1, 0};
    gpl_backend *be = create_or_skip("vulkan", &cfg);
    const problem big = {"too big", 40000, 2, 8, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC,
                         1, 0, 1.0f, 2, 0.0, 0.0, 0};
    data d;
    make_data(&big, &d);
    assert_int_equal(be->ops->upload(be, &d.m, d.label, NULL), GPULAYER_ERR_UNSUPPORTED);
    assert_non_null(strstr(gpulayer_last_error(), "maxStorageBufferRange"));
    assert_non_null(strstr(gpulayer_last_error(), "gradient pairs"));
    print_message("refused as expected: %s\n", gpulayer_last_error());
    gpl_backend_destroy(be);
    free_data(&d);
    unsetenv("GPULAYER_VULKAN_TEST_LIMITS");
}

/* Per-row buffers larger than one storage binding (window.glsl): with
 * 16 KiB bindings, 6007 rows put the gradient pairs (16 bytes a row) in 6
 * windows, the row lists, labels, weights and margins (4 bytes a row) in
 * 2, so the histogram, partition and margin kernels pick a window per row
 * and the gradient, quantization and row-list kernels run once a window.
 * Softmax (3 outputs, 12 bytes a row: margin windows of 1024 rows, 5 of
 * them) with 3 workgroups a dispatch and staged transfers. Then jobs that
 * need more than 8 windows are refused with the buffer named: gradient
 * pairs (9000 rows), margins (16 outputs: 256 rows a window). */
static void test_windowed_buffers(void **state)
{
    (void)state;
    setenv("GPULAYER_VULKAN_TEST_LIMITS", "16384,0,0", 1);
    const problem p = {"windowed buffers", 6007, 10, 64, BINS_RANDOM, LABELS_BINARY,
                       GPL_OBJ_LOGISTIC, 1, 1, 0.9f, 4, 1.0, 0.0, 0};
    run_problem(&p);
    setenv("GPULAYER_VULKAN_TEST_LIMITS", "16384,3,1", 1);
    const problem q = {"windowed softmax", 5003, 6, 32, BINS_MISSING, LABELS_CLASS,
                       GPL_OBJ_SOFTMAX, 3, 0, 1.0f, 3, 0.0, 0.0, 0};
    run_problem(&q);
    const struct {
        int64_t rows;
        int32_t features, outputs;
        const char *buffer;
    } refused[3] = {{9000, 2, 1, "gradient pairs"},
                    {3000, 2, 16, "margins"},
                    {3000, 50, 1, "bin columns"}};
    for (int i = 0; i < 3; i++) {
        gpl_backend_config cfg = {1, 0, 7, refused[i].outputs, 0};
        gpl_backend *be = create_or_skip("vulkan", &cfg);
        const problem big = {"too many windows", refused[i].rows, refused[i].features, 8,
                             BINS_RANDOM,
                             LABELS_BINARY, GPL_OBJ_LOGISTIC, refused[i].outputs, 0, 1.0f, 2,
                             0.0, 0.0, 0};
        data d;
        make_data(&big, &d);
        assert_int_equal(be->ops->upload(be, &d.m, d.label, NULL), GPULAYER_ERR_UNSUPPORTED);
        const char *msg = gpulayer_last_error();
        assert_non_null(strstr(msg, refused[i].buffer));
        assert_non_null(strstr(msg, "maxStorageBufferRange 16384"));
        assert_non_null(strstr(msg, "at most 8 windows"));
        print_message("refused as expected: %s\n", msg);
        gpl_backend_destroy(be);
        free_data(&d);
    }
    unsetenv("GPULAYER_VULKAN_TEST_LIMITS");
}

/* The dispatches of the Metal host (GPULAYER_VULKAN_KERNELS=metal): the
 * partition in partition_rows where the Vulkan host queues it behind the
 * search, with the level plan's partials, reductions, subtractions,
 * searches and partition_place. The same comparisons with the CPU
 * backend, on skewed and missing bins, and once with 64 KiB bindings
 * (histogram pages of a few slots) and 3 workgroups a dispatch. */
static void test_metal_host_kernels(void **state)
{
    (void)state;
    setenv("GPULAYER_VULKAN_KERNELS", "metal", 1);
    const problem p = {"metal host", 20011, 9, 256, BINS_SKEWED, LABELS_BINARY,
                       GPL_OBJ_LOGISTIC, 1, 1, 0.9f, 5, 1.0, 0.0, 0};
    run_problem(&p);
    setenv("GPULAYER_VULKAN_TEST_LIMITS", "65536,3,1", 1);
    const problem q = {"metal host, small device", 4001, 40, 16, BINS_MISSING, LABELS_BINARY,
                       GPL_OBJ_SQUARED_ERROR, 1, 0, 1.0f, 4, 0.0, 0.0, 1};
    run_problem(&q);
    unsetenv("GPULAYER_VULKAN_TEST_LIMITS");
    run_categorical_problem(&categorical_problems[1]);
    unsetenv("GPULAYER_VULKAN_KERNELS");
}

/* The tuning is read from the environment once and its key names every
 * member in a fixed order. */
static void test_tuning_key(void **state)
{
    (void)state;
    vk_tuning t;
    char key[512];
    /* The suite's variant (GPULAYER_VULKAN_SOFT_F64 under ctest's
     * *_soft_f64) is put back for the tests after this one. */
    const char *soft = getenv("GPULAYER_VULKAN_SOFT_F64");
    char soft_value[16] = "";
    if (soft) snprintf(soft_value, sizeof soft_value, "%s", soft);
    unsetenv("GPULAYER_VULKAN_KERNELS");
    unsetenv("GPULAYER_VULKAN_SOFT_F64");
    unsetenv("GPULAYER_VULKAN_PROFILE");
    unsetenv("GPULAYER_VULKAN_TEST_LIMITS");
    vk_tuning_read(&t);
    vk_tuning_key(&t, key, sizeof key);
    assert_string_equal(key, "wg=256;hist_wg=1024;split_wg=512;part_wg=256;"
                             "rows_per_partial=4096;node_partials=2048;partial_budget=67108864;"
                             "kernels=vulkan;soft_f64=0;profile=0;test_limits=0,0,0");
    setenv("GPULAYER_VULKAN_KERNELS", "metal", 1);
    setenv("GPULAYER_VULKAN_TEST_LIMITS", "65536,3,1", 1);
    vk_tuning_read(&t);
    unsetenv("GPULAYER_VULKAN_KERNELS");
    unsetenv("GPULAYER_VULKAN_TEST_LIMITS");
    vk_tuning_key(&t, key, sizeof key);
    assert_non_null(strstr(key, ";kernels=metal;"));
    /* The Metal host's numbers, which its plan is made with. */
    assert_non_null(strstr(key, "wg=256;hist_wg=256;split_wg=256;part_wg=256;"
                                "rows_per_partial=256;node_partials=64;"));
    assert_non_null(strstr(key, ";test_limits=65536,3,1"));
    if (soft) setenv("GPULAYER_VULKAN_SOFT_F64", soft_value, 1);
}

/* The ranking objectives' gradients and trees on them, bit for bit with
 * the CPU's (rank_compare.c; under *_soft_f64 with the float64-free
 * kernels). */
static void test_ranking(void **state)
{
    (void)state;
    run_rank_cases();
}

/* Ranking binds its per-row buffers whole: where the gradient pairs do not
 * fit one binding, set_groups refuses with the limit; so it does for a
 * query beyond the counting rank's size, and ranking gradients before
 * set_groups are refused too. */
static void test_ranking_limits(void **state)
{
    (void)state;
    const problem p = {"ranking limits", 5000, 3, 16, BINS_RANDOM, LABELS_BINARY,
                       GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 2, 0.0, 0.0, 0};
    data d;
    make_data(&p, &d);
    int64_t ptr[3] = {0, 2500, 5000};
    double discount[2500], ones[2] = {1.0, 1.0};
    for (int i = 0; i < 2500; i++) discount[i] = 1.0 / log2(i + 2.0);
    const gpl_rank_groups g = {2, ptr, 2500, discount, ones, ones};
    gpl_backend_config cfg = {1, 0, 7, 1, 0};
    gpl_gradient_request req = {GPL_OBJ_RANK_NDCG, 1, 0, 0, 42, 1.0f, 0.0,
                                {GPL_RANK_TOPK, 8, 1, 1, 1, 0}, 0, 0, 0, {0}};
    gpl_quant_scale sc;
    setenv("GPULAYER_VULKAN_TEST_LIMITS", "65536,0,0", 1);
    gpl_backend *be = create_or_skip("vulkan", &cfg);
    unsetenv("GPULAYER_VULKAN_TEST_LIMITS");
    OK(be->ops->upload(be, &d.m, d.label, NULL));
    assert_int_equal(be->ops->compute_gradients(be, &req, &sc), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "set_groups"));
    assert_int_equal(be->ops->set_groups(be, &g), GPULAYER_ERR_UNSUPPORTED);
    assert_non_null(strstr(gpulayer_last_error(), "gradient pairs (80000 bytes)"));
    assert_non_null(strstr(gpulayer_last_error(), "maxStorageBufferRange"));
    gpl_backend_destroy(be);
    /* Groups that do not cover the rows are refused, naming both. */
    be = create_or_skip("vulkan", &cfg);
    OK(be->ops->upload(be, &d.m, d.label, NULL));
    ptr[2] = 4999;
    assert_int_equal(be->ops->set_groups(be, &g), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "rows 0 .. 4999"));
    assert_non_null(strstr(gpulayer_last_error(), "5000 rows"));
    gpl_backend_destroy(be);
    free_data(&d);
    /* A query beyond the counting rank's limit is refused, named. */
    const problem big = {"ranking limits", 70000, 3, 16, BINS_RANDOM, LABELS_BINARY,
                         GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 2, 0.0, 0.0, 0};
    make_data(&big, &d);
    int64_t big_ptr[3] = {0, 1, 70000};
    const gpl_rank_groups gb = {2, big_ptr, 2500, discount, ones, ones};
    be = create_or_skip("vulkan", &cfg);
    OK(be->ops->upload(be, &d.m, d.label, NULL));
    assert_int_equal(be->ops->set_groups(be, &gb), GPULAYER_ERR_UNSUPPORTED);
    assert_non_null(strstr(gpulayer_last_error(), "query 1 has 69999 rows"));
    gpl_backend_destroy(be);
    free_data(&d);
}

/* A failed operation names the backend and leaves the process usable. */
static void test_errors_are_reported(void **state)
{
    (void)state;
    gpl_backend_config cfg = {1, 0, 7, 1, 0};
    gpl_backend *be = create_or_skip("vulkan", &cfg);
    const problem p = {"errors", 100, 3, 16, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC,
                       1, 0, 1.0f, 2, 0.0, 0.0, 0};
    data d;
    make_data(&p, &d);
    OK(be->ops->upload(be, &d.m, d.label, NULL));
    OK(be->ops->begin_tree(be));
    gpl_grad_pair h[64];
    assert_int_not_equal(be->ops->read_histogram(be, 5, h), GPULAYER_OK);
    assert_non_null(strstr(gpulayer_last_error(), "vulkan backend"));
    int32_t node = 9; /* outside the tree */
    assert_int_not_equal(be->ops->build_histograms(be, &node, 1), GPULAYER_OK);
    assert_non_null(strstr(gpulayer_last_error(), "vulkan backend"));
    gpl_split_apply bad = {0, 7, 1, 0, 1, 2, 0, {0}, NULL}; /* feature 7 of 3 */
    int64_t kids[2];
    assert_int_not_equal(be->ops->partition_rows(be, &bad, 1, kids), GPULAYER_OK);
    node = 0;
    OK(be->ops->build_histograms(be, &node, 1));
    gpl_backend_destroy(be);
    free_data(&d);
    /* A device index that does not exist is refused at creation. */
    cfg.device = 999;
    assert_int_equal(gpl_backend_create("vulkan", &cfg, &be), GPULAYER_ERR_DEVICE);
    assert_non_null(strstr(gpulayer_last_error(), "device 999"));
}

int main(void)
{
    /* With the float64-free kernels (ctest's *_soft_f64) the cases that
     * test arithmetic: the others (feature windows and chunks, device
     * limits, the Metal host's plan, the tuning key, errors) run the same
     * host code as the plain suite. */
    const struct CMUnitTest soft_tests[] = {
        cmocka_unit_test(test_one_row),
        cmocka_unit_test(test_seven_rows),
        cmocka_unit_test(test_100003_rows),
        cmocka_unit_test(test_skewed_bins),
        cmocka_unit_test(test_256_bins),
        cmocka_unit_test(test_huge_labels),
        cmocka_unit_test(test_missing_values),
        cmocka_unit_test(test_one_feature),
        cmocka_unit_test(test_rounding_ties),
        cmocka_unit_test(test_tiny_hessians),
        cmocka_unit_test(test_softmax),
        cmocka_unit_test(test_categorical),
        cmocka_unit_test(test_monotone),
        cmocka_unit_test(test_gradient_kinds),
        cmocka_unit_test(test_write_pairs),
        cmocka_unit_test(test_ranking),
    };
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_row),
        cmocka_unit_test(test_seven_rows),
        cmocka_unit_test(test_100003_rows),
        cmocka_unit_test(test_skewed_bins),
        cmocka_unit_test(test_256_bins),
        cmocka_unit_test(test_huge_labels),
        cmocka_unit_test(test_missing_values),
        cmocka_unit_test(test_one_feature),
        cmocka_unit_test(test_300_features),
        cmocka_unit_test(test_chunk_offsets),
        cmocka_unit_test(test_4000_features),
        cmocka_unit_test(test_rounding_ties),
        cmocka_unit_test(test_tiny_hessians),
        cmocka_unit_test(test_softmax),
        cmocka_unit_test(test_categorical),
        cmocka_unit_test(test_monotone),
        cmocka_unit_test(test_wide_bins),
        cmocka_unit_test(test_small_device_limits),
        cmocka_unit_test(test_windowed_buffers),
        cmocka_unit_test(test_metal_host_kernels),
        cmocka_unit_test(test_tuning_key),
        cmocka_unit_test(test_gradient_kinds),
        cmocka_unit_test(test_write_pairs),
        cmocka_unit_test(test_ranking),
        cmocka_unit_test(test_ranking_limits),
        cmocka_unit_test(test_errors_are_reported),
    };
    compare_accelerator = "vulkan";
    const char *soft = getenv("GPULAYER_VULKAN_SOFT_F64");
    if (soft && !strcmp(soft, "1")) GPL_RUN_IF_BACKEND("vulkan", soft_tests);
    GPL_RUN_IF_BACKEND("vulkan", tests);
}
