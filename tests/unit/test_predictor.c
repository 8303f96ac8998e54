/* test_predictor.c -- gpulayer_predictor: the same bits as booster
 * prediction for every size (the calling thread's path and the threaded
 * one), both layouts, margins, fewer rounds, multiclass, categorical
 * features with grouped categories, missing values; it outlives its
 * booster; bad arguments get messages. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulayer.h"
#include "test_util.h"

enum { ROWS = 3000, COLS = 6, CATS = 300 };

/* Rows with a categorical column 0 (CATS codes), missing values
 * sprinkled over the numeric ones, and a label of `classes` classes (or
 * binary 0/1 when classes is 2). */
static void make_data(float *x, float *y, int classes, unsigned seed)
{
    srand(seed);
    for (int r = 0; r < ROWS; r++) {
        double z = 0;
        for (int c = 0; c < COLS; c++) {
            float v = c == 0 ? (float)(rand() % CATS) : (float)(rand() % 2000) / 100.0f - 10.0f;
            if (c > 0 && rand() % 13 == 0) v = NAN;
            x[r * COLS + c] = v;
            if (!isnan(v)) z += c == 0 ? ((int)v % 7) - 3 : v * (c % 2 ? 1 : -0.5);
        }
        y[r] = classes == 2 ? (float)(z + (rand() % 100) / 10.0 > 5.0)
                            : (float)(((int)fabs(z) + rand() % 2) % classes);
    }
}

static gpulayer_booster *train(const float *x, const float *y, const char *objective,
                               int classes)
{
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(x, ROWS, COLS, GPULAYER_ROW_MAJOR, y, NULL, &ds),
                     GPULAYER_OK);
    char **names = malloc(sizeof(char *) * CATS);
    for (int i = 0; i < CATS; i++) {
        names[i] = malloc(8);
        snprintf(names[i], 8, "c%03d", i);
    }
    assert_int_equal(gpulayer_dataset_set_categories(ds, 0, (const char *const *)names, CATS),
                     GPULAYER_OK);
    for (int i = 0; i < CATS; i++) free(names[i]);
    free(names);
    gpulayer_booster *b;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    char k[16];
    snprintf(k, sizeof k, "%d", classes);
    const char *params[][2] = {{"objective", objective}, {"num_round", "20"},
                               {"max_depth", "5"}, {"max_bin", "64"}, {"nthread", "2"},
                               {"num_class", k}};
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        if (classes == 2 && !strcmp(params[i][0], "num_class")) continue;
        assert_int_equal(gpulayer_booster_set_param(b, params[i][0], params[i][1]),
                         GPULAYER_OK);
    }
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    gpulayer_dataset_free(ds);
    return b;
}

/* The first n rows of x (row major) as columns. */
static float *columns(const float *x, int64_t n)
{
    float *c = malloc(sizeof(float) * (size_t)(n * COLS));
    for (int64_t r = 0; r < n; r++)
        for (int f = 0; f < COLS; f++) c[f * n + r] = x[r * COLS + f];
    return c;
}

static void check_model(const char *objective, int classes)
{
    float *x = malloc(sizeof(float) * ROWS * COLS), *y = malloc(sizeof(float) * ROWS);
    make_data(x, y, classes, 7);
    gpulayer_booster *b = train(x, y, objective, classes);
    const int64_t sizes[] = {1, 16, 512, 513, ROWS};
    for (int flags = 0; flags <= GPULAYER_PREDICT_MARGIN; flags++) {
        for (int32_t rounds = 0; rounds <= 7; rounds += 7) {
            const int32_t width = gpulayer_booster_prediction_width(b, flags);
            float *want = malloc(sizeof(float) * ROWS * (size_t)width);
            assert_int_equal(gpulayer_booster_predict_dense(b, x, ROWS, COLS, GPULAYER_ROW_MAJOR,
                                                            flags, rounds, want,
                                                            ROWS * width),
                             GPULAYER_OK);
            gpulayer_predictor *p;
            assert_int_equal(gpulayer_booster_predictor_create(b, flags, rounds, &p),
                             GPULAYER_OK);
            assert_int_equal(gpulayer_predictor_width(p), width);
            assert_int_equal(gpulayer_predictor_num_features(p), COLS);
            float *got = malloc(sizeof(float) * ROWS * (size_t)width);
            for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
                const int64_t n = sizes[s];
                float *cols = columns(x, n);
                for (int layout = 0; layout <= 1; layout++) {
                    memset(got, 0xff, sizeof(float) * ROWS * (size_t)width);
                    assert_int_equal(gpulayer_predictor_predict_dense(
                                         p, layout ? cols : x, n, COLS, (gpulayer_layout)layout,
                                         got, n * width),
                                     GPULAYER_OK);
                    if (memcmp(got, want, sizeof(float) * (size_t)(n * width)) != 0)
                        fail_msg("%s flags %d rounds %d rows %lld layout %d differ", objective,
                                 flags, rounds, (long long)n, layout);
                }
                free(cols);
            }
            gpulayer_predictor_free(p);
            free(got);
            free(want);
        }
    }
    gpulayer_booster_free(b);
    free(x);
    free(y);
}

static void test_same_bits_as_the_booster(void **state)
{
    (void)state;
    check_model("binary:logistic", 2);
    check_model("multi:softprob", 4);
    check_model("multi:softmax", 3);
}

static void test_outlives_its_booster(void **state)
{
    (void)state;
    float *x = malloc(sizeof(float) * ROWS * COLS), *y = malloc(sizeof(float) * ROWS);
    make_data(x, y, 2, 3);
    gpulayer_booster *b = train(x, y, "binary:logistic", 2);
    float want[16], got[16];
    assert_int_equal(gpulayer_booster_predict_dense(b, x, 16, COLS, GPULAYER_ROW_MAJOR, 0, 0,
                                                    want, 16),
                     GPULAYER_OK);
    gpulayer_predictor *p;
    assert_int_equal(gpulayer_booster_predictor_create(b, 0, 0, &p), GPULAYER_OK);
    gpulayer_booster_free(b);
    assert_int_equal(gpulayer_predictor_predict_dense(p, x, 16, COLS, GPULAYER_ROW_MAJOR, got, 16),
                     GPULAYER_OK);
    assert_memory_equal(got, want, sizeof want);
    gpulayer_predictor_free(p);
    free(x);
    free(y);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    gpulayer_booster *empty;
    gpulayer_predictor *p = NULL;
    assert_int_equal(gpulayer_booster_create(&empty), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_predictor_create(empty, 0, 0, &p),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "no model"));
    assert_null(p);
    gpulayer_booster_free(empty);

    float *x = malloc(sizeof(float) * ROWS * COLS), *y = malloc(sizeof(float) * ROWS);
    make_data(x, y, 2, 5);
    gpulayer_booster *b = train(x, y, "binary:logistic", 2);
    assert_int_equal(gpulayer_booster_predictor_create(b, 0, -1, &p),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "num_rounds"));
    assert_int_equal(gpulayer_booster_predictor_create(b, 0, 0, &p), GPULAYER_OK);
    float out[4];
    assert_int_equal(gpulayer_predictor_predict_dense(p, x, 4, COLS - 1, GPULAYER_ROW_MAJOR,
                                                      out, 4),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "5 columns but the model was trained on 6"));
    assert_int_equal(gpulayer_predictor_predict_dense(p, x, 4, COLS, GPULAYER_ROW_MAJOR, out, 3),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "holds 3 values, 4 needed"));
    assert_int_equal(gpulayer_predictor_predict_dense(p, x, 4, COLS, (gpulayer_layout)7, out, 4),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_int_equal(gpulayer_predictor_predict_dense(p, x, 0, COLS, GPULAYER_ROW_MAJOR, out, 0),
                     GPULAYER_OK);
    gpulayer_predictor_free(p);
    gpulayer_predictor_free(NULL);
    gpulayer_booster_free(b);
    free(x);
    free(y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_bits_as_the_booster),
        cmocka_unit_test(test_outlives_its_booster),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
