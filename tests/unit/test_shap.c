/* test_shap.c -- SHAP values through the C API: for every row, the
 * contributions and bias of each output add up to the margin (exact and
 * approximate, binary and multiclass, a categorical feature and missing
 * values); interaction rows sum to the contributions; bad arguments get
 * messages. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulayer.h"
#include "test_util.h"

enum { ROWS = 400, COLS = 5, CATS = 12, C = COLS + 1 };

static void make_data(float *x, float *y, int classes)
{
    srand(11);
    for (int r = 0; r < ROWS; r++) {
        double z = 0;
        for (int c = 0; c < COLS; c++) {
            float v = c == 0 ? (float)(rand() % CATS) : (float)(rand() % 2000) / 100.0f - 10.0f;
            if (c > 0 && rand() % 9 == 0) v = NAN;
            x[r * COLS + c] = v;
            if (!isnan(v)) z += c == 0 ? ((int)v % 5) - 2 : v * (c % 2 ? 1 : -0.5);
        }
        y[r] = classes == 2 ? (float)(z > 0) : (float)((int)fabs(z) % classes);
    }
}

static gpulayer_dataset *dataset(const float *x, const float *y)
{
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(x, ROWS, COLS, GPULAYER_ROW_MAJOR, y, NULL, &ds),
                     GPULAYER_OK);
    const char *names[CATS] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"};
    assert_int_equal(gpulayer_dataset_set_categories(ds, 0, names, CATS), GPULAYER_OK);
    return ds;
}

static gpulayer_booster *train(gpulayer_dataset *ds, const char *objective, int classes)
{
    gpulayer_booster *b;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    char k[16];
    snprintf(k, sizeof k, "%d", classes);
    const char *params[][2] = {{"objective", objective}, {"num_round", "6"},
                               {"max_depth", "4"}, {"nthread", "2"}, {"num_class", k}};
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        if (classes == 2 && !strcmp(params[i][0], "num_class")) continue;
        assert_int_equal(gpulayer_booster_set_param(b, params[i][0], params[i][1]),
                         GPULAYER_OK);
    }
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    return b;
}

static void assert_close(double a, double b, double scale)
{
    if (fabs(a - b) > 1e-5 * (scale > 1 ? scale : 1)) fail_msg("%.9g != %.9g", a, b);
}

static void check_additive(const char *objective, int classes)
{
    float *x = malloc(sizeof(float) * ROWS * COLS), *y = malloc(sizeof(float) * ROWS);
    make_data(x, y, classes);
    gpulayer_dataset *ds = dataset(x, y);
    gpulayer_booster *b = train(ds, objective, classes);
    const int K = gpulayer_booster_num_outputs(b);
    float *margin = malloc(sizeof(float) * ROWS * K);
    float *phi = malloc(sizeof(float) * ROWS * K * C);
    float *inter = malloc(sizeof(float) * ROWS * K * C * C);
    assert_int_equal(gpulayer_booster_predict(b, ds, GPULAYER_PREDICT_MARGIN, 0, margin,
                                              ROWS * K),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_booster_predict_interactions(b, ds, 0, 0, inter,
                                                           (int64_t)ROWS * K * C * C),
                     GPULAYER_OK);
    for (int approx = 1; approx >= 0; approx--) {
        assert_int_equal(gpulayer_booster_predict_contribs(
                             b, ds, approx ? GPULAYER_CONTRIBS_APPROX : 0, 0, phi,
                             (int64_t)ROWS * K * C),
                         GPULAYER_OK);
        for (int r = 0; r < ROWS * K; r++) {
            double sum = 0;
            for (int j = 0; j < C; j++) sum += phi[r * C + j];
            assert_close(sum, margin[r], fabs(margin[r]));
        }
    }
    /* phi now holds the exact values: each interaction row sums to one. */
    for (int r = 0; r < ROWS * K; r++)
        for (int i = 0; i < C; i++) {
            double sum = 0;
            for (int j = 0; j < C; j++) sum += inter[((int64_t)r * C + i) * C + j];
            assert_close(sum, phi[r * C + i], fabs(phi[r * C + i]));
        }
    free(margin);
    free(phi);
    free(inter);
    gpulayer_dataset_free(ds);
    gpulayer_booster_free(b);
    free(x);
    free(y);
}

static void test_binary_adds_up(void **state)
{
    (void)state;
    check_additive("binary:logistic", 2);
}

static void test_multiclass_adds_up(void **state)
{
    (void)state;
    check_additive("multi:softprob", 3);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    float *x = malloc(sizeof(float) * ROWS * COLS), *y = malloc(sizeof(float) * ROWS);
    make_data(x, y, 2);
    gpulayer_dataset *ds = dataset(x, y);
    float out[C * C];
    gpulayer_booster *b;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_predict_contribs(b, ds, 0, 0, out, C),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "has no model"));
    gpulayer_booster_free(b);
    b = train(ds, "binary:logistic", 2);
    assert_int_equal(gpulayer_booster_predict_contribs(b, ds, 0, 0, out, C),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "holds 6 values, 2400 needed"));
    assert_int_equal(gpulayer_booster_predict_interactions(b, ds, 0, 0, out, C * C),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "holds 36 values, 14400 needed"));
    assert_int_equal(gpulayer_booster_predict_contribs(b, ds, 4, 0, out, C),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "unknown flags 4"));
    assert_int_equal(gpulayer_booster_predict_contribs(NULL, ds, 0, 0, out, C),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "NULL argument"));
    gpulayer_dataset *narrow;
    assert_int_equal(gpulayer_dataset_from_dense(x, 1, COLS - 1, GPULAYER_ROW_MAJOR, NULL, NULL,
                                                 &narrow),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_booster_predict_contribs(b, narrow, 0, 0, out, C),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "4 columns but the model was trained on 5"));
    gpulayer_dataset_free(narrow);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
    free(x);
    free(y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binary_adds_up),
        cmocka_unit_test(test_multiclass_adds_up),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
