/* test_train.c -- training through the public API: learning, determinism
 * across thread counts, early stopping, callbacks and bad input. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulayer.h"

enum { N = 3000, F = 6 };

/* y depends on two features; feature 5 has missing values. */
static gpulayer_dataset *make_data(unsigned seed, int classes)
{
    static float x[N * F], y[N];
    srand(seed);
    for (int r = 0; r < N; r++) {
        for (int f = 0; f < F; f++) x[r * F + f] = (float)rand() / (float)RAND_MAX;
        if (r % 7 == 0) x[r * F + 5] = NAN;
        double z = 3 * x[r * F] - 2 * x[r * F + 1] + ((float)rand() / (float)RAND_MAX - 0.5);
        y[r] = classes > 1 ? (float)((int)(x[r * F] * classes) % classes) : (float)(z > 0.5);
    }
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(x, N, F, GPULAYER_ROW_MAJOR, y, NULL, &ds),
                     GPULAYER_OK);
    return ds;
}

static gpulayer_booster *booster(const char *objective, int nthread)
{
    gpulayer_booster *b;
    char buf[16];
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "objective", objective), GPULAYER_OK);
    snprintf(buf, sizeof buf, "%d", nthread);
    assert_int_equal(gpulayer_booster_set_param(b, "nthread", buf), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "device", "cpu"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "num_round", "20"), GPULAYER_OK);
    return b;
}

static double accuracy(gpulayer_booster *b, gpulayer_dataset *ds)
{
    float *p = malloc(sizeof(float) * N), y[N];
    assert_int_equal(gpulayer_booster_predict(b, ds, 0, 0, p, N), GPULAYER_OK);
    gpulayer_dataset_get_label(ds, y, N);
    int right = 0;
    for (int r = 0; r < N; r++) right += (p[r] > 0.5f) == (y[r] > 0.5f);
    free(p);
    return (double)right / N;
}

static void test_learns_binary(void **state)
{
    (void)state;
    gpulayer_dataset *train = make_data(1, 1), *test = make_data(2, 1);
    gpulayer_booster *b = booster("binary:logistic", 2);
    assert_int_equal(gpulayer_booster_train(b, train, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_num_rounds(b), 20);
    assert_true(accuracy(b, test) > 0.8);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(train);
    gpulayer_dataset_free(test);
}

/* Exact integer histograms: the same predictions, bit for bit, with one
 * thread or two, for every growth policy and with sampling. */
static void test_same_model_across_thread_counts(void **state)
{
    (void)state;
    const char *extra[][2] = {{"grow_policy", "depthwise"}, {"grow_policy", "lossguide"},
                              {"subsample", "0.7"}, {"colsample_bytree", "0.5"}};
    gpulayer_dataset *train = make_data(3, 1);
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        float *p[2];
        for (int t = 0; t < 2; t++) {
            gpulayer_booster *b = booster("binary:logistic", t + 1);
            assert_int_equal(gpulayer_booster_set_param(b, extra[i][0], extra[i][1]), GPULAYER_OK);
            assert_int_equal(gpulayer_booster_set_param(b, "max_leaves", "12"), GPULAYER_OK);
            assert_int_equal(gpulayer_booster_train(b, train, NULL, NULL, 0, NULL, NULL),
                             GPULAYER_OK);
            p[t] = malloc(sizeof(float) * N);
            assert_int_equal(gpulayer_booster_predict(b, train, GPULAYER_PREDICT_MARGIN, 0, p[t], N),
                             GPULAYER_OK);
            gpulayer_booster_free(b);
        }
        assert_memory_equal(p[0], p[1], sizeof(float) * N);
        free(p[0]);
        free(p[1]);
    }
    gpulayer_dataset_free(train);
}

static void test_multiclass_and_softmax_width(void **state)
{
    (void)state;
    gpulayer_dataset *train = make_data(4, 3);
    gpulayer_booster *b = booster("multi:softprob", 2);
    assert_int_equal(gpulayer_booster_set_param(b, "num_class", "3"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, train, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_num_outputs(b), 3);
    float *p = malloc(sizeof(float) * N * 3);
    assert_int_equal(gpulayer_booster_predict(b, train, 0, 0, p, N * 3), GPULAYER_OK);
    for (int r = 0; r < N; r++) assert_true(fabsf(p[3 * r] + p[3 * r + 1] + p[3 * r + 2] - 1) < 1e-5f);
    assert_int_equal(gpulayer_booster_set_param(b, "objective", "multi:softmax"), GPULAYER_OK);
    /* a buffer too small is refused */
    assert_int_equal(gpulayer_booster_predict(b, train, 0, 0, p, N), GPULAYER_ERR_INVALID_ARGUMENT);
    free(p);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(train);
}

static void test_early_stopping(void **state)
{
    (void)state;
    gpulayer_dataset *train = make_data(5, 1), *valid = make_data(6, 1);
    gpulayer_booster *b = booster("binary:logistic", 2);
    gpulayer_booster_set_param(b, "num_round", "500");
    gpulayer_booster_set_param(b, "eta", "0.8");
    gpulayer_booster_set_param(b, "early_stopping_rounds", "5");
    gpulayer_booster_set_param(b, "eval_metric", "logloss");
    const gpulayer_dataset *evals[] = {valid};
    const char *names[] = {"valid"};
    assert_int_equal(gpulayer_booster_train(b, train, evals, names, 1, NULL, NULL), GPULAYER_OK);
    int best = gpulayer_booster_best_round(b);
    assert_true(best >= 0);
    assert_true(gpulayer_booster_num_rounds(b) == best + 6);
    assert_true(gpulayer_booster_num_rounds(b) < 500);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(train);
    gpulayer_dataset_free(valid);
}

static int stop_at_three(void *user, int round, const gpulayer_eval_result *r, int n)
{
    (void)r;
    (void)n;
    *(int *)user = round;
    return round == 2 ? 2 : 0;
}

static void test_callback_interrupts(void **state)
{
    (void)state;
    gpulayer_dataset *train = make_data(7, 1);
    gpulayer_booster *b = booster("binary:logistic", 1);
    int last = -1;
    assert_int_equal(gpulayer_booster_train(b, train, NULL, NULL, 0, stop_at_three, &last),
                     GPULAYER_ERR_INTERRUPTED);
    assert_int_equal(last, 2);
    assert_int_equal(gpulayer_booster_num_rounds(b), 3);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(train);
}

static void expect_train_error(gpulayer_booster *b, gpulayer_dataset *ds, const char *needle)
{
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    if (!strstr(gpulayer_last_error(), needle)) fail_msg("message '%s' lacks '%s'", gpulayer_last_error(), needle);
}

static void test_bad_labels_and_params(void **state)
{
    (void)state;
    float x[4] = {1, 2, 3, 4}, y[4] = {0, 1, NAN, 1};
    gpulayer_dataset *ds;
    /* NaN and infinite labels are refused when they enter a dataset. */
    assert_int_equal(gpulayer_dataset_from_dense(x, 4, 1, GPULAYER_ROW_MAJOR, y, NULL, &ds),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "label"));
    y[2] = 2;
    assert_int_equal(gpulayer_dataset_from_dense(x, 4, 1, GPULAYER_ROW_MAJOR, y, NULL, &ds), GPULAYER_OK);
    gpulayer_booster *b = booster("binary:logistic", 1);
    expect_train_error(b, ds, "needs labels in [0, 1]");
    gpulayer_booster_set_param(b, "objective", "multi:softprob");
    gpulayer_booster_set_param(b, "num_class", "2");
    expect_train_error(b, ds, "num_class=2");
    gpulayer_booster_set_param(b, "objective", "reg:squarederror");
    expect_train_error(b, ds, "not a multi-class objective");
    y[2] = INFINITY;
    assert_int_equal(gpulayer_dataset_set_label(ds, y, 4), GPULAYER_ERR_INVALID_ARGUMENT);
    gpulayer_booster_set_param(b, "num_class", "0");
    assert_int_equal(gpulayer_booster_set_param(b, "max_dept", "3"), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "unknown parameter 'max_dept'"));
    assert_int_equal(gpulayer_booster_set_param(b, "eta", "fast"), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_int_equal(gpulayer_booster_set_param(b, "subsample", "1.5"), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "out of range"));
    float *none = NULL;
    assert_int_equal(gpulayer_booster_predict(b, ds, 0, 0, none, 0), GPULAYER_ERR_INVALID_ARGUMENT);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

/* All-zero weights used to train a model of nothing without a word. */
static void test_all_zero_weights_are_refused(void **state)
{
    (void)state;
    float x[4] = {1, 2, 3, 4}, y[4] = {0, 1, 0, 1}, w[4] = {0, 0, 0, 0};
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(x, 4, 1, GPULAYER_ROW_MAJOR, y, w, &ds),
                     GPULAYER_OK);
    gpulayer_booster *b = booster("binary:logistic", 1);
    expect_train_error(b, ds, "every row has weight 0");
    w[2] = 0.5f;
    gpulayer_dataset_free(ds);
    assert_int_equal(gpulayer_dataset_from_dense(x, 4, 1, GPULAYER_ROW_MAJOR, y, w, &ds),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

/* A value that does not fit the caller's buffer used to be cut and OK
 * returned: "0.125" read back as "0.1". */
static void test_get_param_never_cuts(void **state)
{
    (void)state;
    gpulayer_booster *b;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "eta", "0.125"), GPULAYER_OK);
    char small[4] = "xyz", fits[6];
    assert_int_equal(gpulayer_booster_get_param(b, "eta", small, sizeof small),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_string_equal(small, "");
    assert_non_null(strstr(gpulayer_last_error(), "needs a buffer of 6 bytes, got 4"));
    assert_int_equal(gpulayer_booster_get_param(b, "eta", fits, sizeof fits), GPULAYER_OK);
    assert_string_equal(fits, "0.125");
    gpulayer_booster_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_learns_binary),
        cmocka_unit_test(test_same_model_across_thread_counts),
        cmocka_unit_test(test_multiclass_and_softmax_width),
        cmocka_unit_test(test_early_stopping),
        cmocka_unit_test(test_callback_interrupts),
        cmocka_unit_test(test_bad_labels_and_params),
        cmocka_unit_test(test_get_param_never_cuts),
        cmocka_unit_test(test_all_zero_weights_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
