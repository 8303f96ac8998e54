/*
 * test_metal_ops.c -- the Mac acceptance suite of the Metal backend (mps):
 * every operation against the CPU backend on the shared conformance cases
 * (tests/conformance/ops_compare.c: sizes that are not a multiple of the
 * threadgroup, skewed bins, 256 bins, large gradients, categorical
 * features), repeated training
 * with the BufferPool's counters back to their resting values, and a
 * command-buffer failure reproduced and survived. Where the build has no
 * Metal backend or the machine no Metal device it is one skip naming why.
 */
#include "backend_guard.h"
#include "ops_compare.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "gpulayer.h"
#ifdef GPL_HAVE_METAL
#include "metal/metal_context.h"
#endif

/* Fields: name, rows, features, bins, bin pattern, labels, objective,
 * outputs, weighted, subsample, depth, min_child_weight, alpha, masked. */
CASE(test_one_row,        "one row",       1, 4, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 3, 0.0, 0.0, 0)
CASE(test_seven_rows,     "seven rows",    7, 5, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 3, 0.0, 0.0, 0)
CASE(test_100003_rows,    "100003 rows", 100003, 8, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 5, 1.0, 0.0, 0)
CASE(test_skewed_bins,    "skewed bins", 20011, 6, 256, BINS_SKEWED, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 4, 0.0, 0.0, 0)
CASE(test_256_bins,       "256 bins",    30011, 3, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_SQUARED_ERROR, 1, 1, 1.0f, 5, 1.0, 0.5, 0)
CASE(test_huge_labels,    "large gradients", 20011, 9, 64, BINS_RANDOM, LABELS_HUGE, GPL_OBJ_SQUARED_ERROR, 1, 0, 1.0f, 5, 0.0, 0.0, 0)
CASE(test_missing_values, "NaN features", 20011, 12, 200, BINS_MISSING, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 1, 0.8f, 5, 1.0, 0.0, 1)
CASE(test_300_features,   "300 features", 2003, 300, 256, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 4, 1.0, 0.0, 1)
CASE(test_softmax,        "softmax",     10007, 7, 128, BINS_RANDOM, LABELS_CLASS, GPL_OBJ_SOFTMAX, 3, 1, 0.7f, 4, 1.0, 0.0, 0)

static void test_categorical(void **state)
{
    (void)state;
    for (int i = 0; i < num_categorical_problems; i++)
        run_categorical_problem(&categorical_problems[i]);
}

#ifdef GPL_HAVE_METAL
/* One tree of depth 3 on the backend: every operation, every level. */
static void grow_one_tree(gpl_backend *be, const data *d, int round)
{
    gpl_gradient_request req = {GPL_OBJ_LOGISTIC, 1, 0, round, 7, 1.0f, 0.0, {0}};
    gpl_quant_scale scale;
    OK(be->ops->compute_gradients(be, &req, &scale));
    OK(be->ops->begin_tree(be));
    int32_t node = 0;
    OK(be->ops->build_histograms(be, &node, 1));
    gpl_split_params sp = {1.0, 0.0, 0.0, scale, 0, 4, 64, 10.0, 10.0, 1.0, 0.0, NULL, NULL, 1.0, NULL};
    gpl_split_record rec;
    OK(be->ops->evaluate_splits(be, &node, 1, &sp, NULL, &rec));
    if (rec.feature >= 0) {
        gpl_split_apply a = {0, rec.feature, rec.bin, rec.default_left, 1, 2, 0, {0}, NULL};
        int64_t kids[2];
        OK(be->ops->partition_rows(be, &a, 1, kids));
        int32_t built = kids[0] <= kids[1] ? 1 : 2;
        gpl_hist_subtract s = {0, built, 3 - built};
        OK(be->ops->build_histograms(be, &built, 1));
        OK(be->ops->subtract_histograms(be, &s, 1));
    }
    float leaf[7] = {0.1f, -0.2f, 0.3f, 0, 0, 0, 0};
    OK(be->ops->update_margins(be, 0, leaf));
    int32_t all[3] = {0, 1, 2};
    OK(be->ops->release_histograms(be, all, 3));
    float *m = malloc(sizeof(float) * (size_t)d->m.num_rows);
    OK(be->ops->get_margins(be, m)); /* waits for every batch */
    free(m);
}

/* Repeated training: buffers come back. After each tree (and after each
 * whole training) nothing is pending and the live buffers are those of
 * the training data; the pool's cache is what gets reused. */
static void test_no_buffer_leak(void **state)
{
    (void)state;
    const problem p = {"leak", 5003, 6, 64, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC,
                       1, 0, 1.0f, 3, 0.0, 0.0, 0};
    data d;
    make_data(&p, &d);
    for (int run = 0; run < 3; run++) {
        gpl_backend_config cfg = {1, 0, 7, 1, 0};
        gpl_backend *be = create_or_skip("mps", &cfg);
        OK(be->ops->upload(be, &d.m, d.label, NULL));
        OK(be->ops->set_margins(be, d.margins));
        gpl_mtl_pool_stats first = {0};
        for (int tree = 0; tree < 4; tree++) {
            grow_one_tree(be, &d, tree);
            gpl_mtl_pool_stats s;
            gpl_metal_pool_stats(be, &s);
            assert_int_equal(s.pending, 0);
            if (tree == 0) first = s;
            assert_int_equal(s.live, first.live);
            assert_int_equal(s.live_bytes, first.live_bytes);
            /* After the first tree, histograms come from the cache. */
            if (tree > 0) assert_int_equal(s.made, first.made);
        }
        gpl_backend_destroy(be);
    }
    free_data(&d);
}

/* A command buffer made to fail (GPULAYER_METAL_TEST_FAULT): the error
 * names the operation, level and kernel; every later call is refused with
 * the same error; a new backend works. */
static void test_command_buffer_failure(void **state)
{
    (void)state;
    const problem p = {"fault", 3001, 4, 32, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC,
                       1, 0, 1.0f, 2, 0.0, 0.0, 0};
    data d;
    make_data(&p, &d);
    gpl_backend_config cfg = {1, 0, 7, 1, 0};
    setenv("GPULAYER_METAL_TEST_FAULT", "build_histograms", 1);
    gpl_backend *be = create_or_skip("mps", &cfg);
    OK(be->ops->upload(be, &d.m, d.label, NULL));
    OK(be->ops->set_margins(be, d.margins));
    gpl_gradient_request req = {GPL_OBJ_LOGISTIC, 1, 0, 0, 7, 1.0f, 0.0, {0}};
    gpl_quant_scale scale;
    OK(be->ops->compute_gradients(be, &req, &scale));
    OK(be->ops->begin_tree(be));
    int32_t node = 0;
    gpulayer_status st = be->ops->build_histograms(be, &node, 1);
    if (st == GPULAYER_OK) { /* the failure shows when the host waits */
        gpl_split_params sp = {1.0, 0.0, 0.0, scale, 0, 4, 64, 10.0, 10.0, 1.0, 0.0, NULL, NULL, 1.0, NULL};
        gpl_split_record rec;
        st = be->ops->evaluate_splits(be, &node, 1, &sp, NULL, &rec);
    }
    assert_int_not_equal(st, GPULAYER_OK);
    char first[1024];
    snprintf(first, sizeof first, "%s", gpulayer_last_error());
    print_message("failure reported: %s\n", first);
    assert_non_null(strstr(first, "build_histograms at level 0"));
    assert_non_null(strstr(first, "histogram"));
    float *m = malloc(sizeof(float) * (size_t)d.m.num_rows);
    assert_int_not_equal(be->ops->get_margins(be, m), GPULAYER_OK);
    assert_string_equal(gpulayer_last_error(), first);
    gpl_backend_destroy(be);
    unsetenv("GPULAYER_METAL_TEST_FAULT");
    /* Survived: a fresh backend in the same process trains. */
    be = create_or_skip("mps", &cfg);
    OK(be->ops->upload(be, &d.m, d.label, NULL));
    OK(be->ops->set_margins(be, d.margins));
    grow_one_tree(be, &d, 0);
    gpl_backend_destroy(be);
    free(m);
    free_data(&d);
}
#endif

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
        cmocka_unit_test(test_300_features),
        cmocka_unit_test(test_softmax),
        cmocka_unit_test(test_categorical),
#ifdef GPL_HAVE_METAL
        cmocka_unit_test(test_no_buffer_leak),
        cmocka_unit_test(test_command_buffer_failure),
#endif
    };
    compare_accelerator = "mps";
    GPL_RUN_IF_BACKEND("mps", tests);
}
