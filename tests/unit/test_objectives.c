/* test_objectives.c -- XGBoost's objectives through training: label
 * rules, base scores, several quantiles, and the model's record of the
 * objective's parameter. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulayer.h"
#include "model.h"
#include "params.h"
#include "train_eval.h"
#include "train_setup.h"

enum { N = 2000, F = 3 };

static float X[N * F], Y[N], W[N];

/* y > 0, growing with feature 0, skewed; weights in [0.5, 2]. */
static gpulayer_dataset *make_data(int weighted)
{
    srand(5);
    for (int r = 0; r < N; r++) {
        for (int f = 0; f < F; f++) X[r * F + f] = (float)rand() / (float)RAND_MAX;
        double u = (double)rand() / RAND_MAX;
        Y[r] = (float)(1.0 + 10.0 * X[r * F] + 5.0 * u * u * u);
        W[r] = 0.5f + 1.5f * (float)rand() / (float)RAND_MAX;
    }
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(X, N, F, GPULAYER_ROW_MAJOR, Y,
                                                 weighted ? W : NULL, &ds),
                     GPULAYER_OK);
    return ds;
}

static gpulayer_booster *booster(const char *objective)
{
    gpulayer_booster *b;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "objective", objective), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "device", "cpu"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "num_round", "5"), GPULAYER_OK);
    return b;
}

static void expect_label_error(const char *objective, float bad, const char *rule)
{
    gpulayer_dataset *ds = make_data(0);
    gpulayer_dataset_free(ds);
    if (strstr(objective, "logi") || strstr(objective, "hinge"))
        for (int r = 0; r < N; r++) Y[r] = (float)(Y[r] > 6.0f);
    Y[41] = bad;
    assert_int_equal(gpulayer_dataset_from_dense(X, N, F, GPULAYER_ROW_MAJOR, Y, NULL, &ds),
                     GPULAYER_OK);
    gpulayer_booster *b = booster(objective);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    const char *msg = gpulayer_last_error();
    char row[32];
    snprintf(row, sizeof row, "row 42 has label %g", (double)bad);
    if (!strstr(msg, objective) || !strstr(msg, rule) || !strstr(msg, row))
        fail_msg("%s: unexpected message: %s", objective, msg);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

static void test_labels_are_checked_per_objective(void **state)
{
    (void)state;
    expect_label_error("count:poisson", -1.0f, "labels >= 0");
    expect_label_error("reg:tweedie", -0.5f, "labels >= 0");
    expect_label_error("reg:gamma", 0.0f, "labels > 0");
    expect_label_error("reg:squaredlogerror", -1.0f, "labels > -1");
    expect_label_error("binary:hinge", 0.5f, "labels 0 or 1");
    expect_label_error("reg:logistic", 2.0f, "labels in [0, 1]");
    expect_label_error("binary:logitraw", -1.0f, "labels in [0, 1]");
}

/* The model a training run starts from, with its base score. */
static gpl_model *initial_model(const char *objective, const char *alphas, int weighted)
{
    gpl_params p;
    gpl_params_default(&p);
    assert_int_equal(gpl_params_set(&p, "objective", objective), GPULAYER_OK);
    if (alphas) assert_int_equal(gpl_params_set(&p, "quantile_alpha", alphas), GPULAYER_OK);
    gpulayer_dataset *ds = make_data(weighted);
    gpl_model *m = NULL;
    assert_int_equal(gpl_train_model_init(&p, ds, NULL, NULL, 1, &m), GPULAYER_OK);
    gpulayer_dataset_free(ds);
    return m;
}

static void test_base_scores_follow_xgboost(void **state)
{
    (void)state;
    double sw = 0, swy = 0;
    gpulayer_dataset_free(make_data(1)); /* fills Y and W */
    for (int r = 0; r < N; r++) {
        sw += W[r];
        swy += (double)W[r] * Y[r];
    }
    const char *log_link[] = {"count:poisson", "reg:gamma", "reg:tweedie"};
    for (int i = 0; i < 3; i++) {
        gpl_model *m = initial_model(log_link[i], NULL, 1);
        assert_true(fabs(m->base_score - swy / sw) < 1e-4 * (swy / sw));
        assert_true(fabs(m->base_margin - log(swy / sw)) < 1e-6);
        gpl_model_free(m);
    }
    /* Absolute error: the median; XGBoost's interpolation for even n. */
    gpl_model *m = initial_model("reg:absoluteerror", NULL, 0);
    float sorted[N];
    memcpy(sorted, Y, sizeof sorted);
    for (int i = 1; i < N; i++)
        for (int j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
            float t = sorted[j];
            sorted[j] = sorted[j - 1];
            sorted[j - 1] = t;
        }
    assert_true(m->base_score == (float)(0.5 * ((double)sorted[N / 2 - 1] + sorted[N / 2])));
    assert_true(m->base_margin == m->base_score);
    gpl_model_free(m);
    /* Several quantiles: one intercept, the mean of theirs. */
    m = initial_model("reg:quantileerror", "[0.1, 0.9]", 0);
    assert_int_equal(m->num_outputs, 2);
    assert_true(m->base_score > sorted[N / 10 - 1] && m->base_score < sorted[N * 9 / 10]);
    gpl_model_free(m);
    /* binary:logitraw: the mean label is the margin itself (XGBoost 3.2). */
    for (int r = 0; r < N; r++) Y[r] = (float)(r % 4 == 0);
    gpl_params lp;
    gpl_params_default(&lp);
    assert_int_equal(gpl_params_set(&lp, "objective", "binary:logitraw"), GPULAYER_OK);
    gpulayer_dataset *bin;
    assert_int_equal(gpulayer_dataset_from_dense(X, N, F, GPULAYER_ROW_MAJOR, Y, NULL, &bin),
                     GPULAYER_OK);
    assert_int_equal(gpl_train_model_init(&lp, bin, NULL, NULL, 1, &m), GPULAYER_OK);
    assert_true(m->base_margin == 0.25f && m->base_score == 0.25f);
    gpl_model_free(m);
    gpulayer_dataset_free(bin);
    /* Hinge: the sign of one Newton step; labels all 1 here. */
    for (int r = 0; r < N; r++) Y[r] = 1.0f;
    gpl_params p;
    gpl_params_default(&p);
    assert_int_equal(gpl_params_set(&p, "objective", "binary:hinge"), GPULAYER_OK);
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(X, N, F, GPULAYER_ROW_MAJOR, Y, NULL, &ds),
                     GPULAYER_OK);
    assert_int_equal(gpl_train_model_init(&p, ds, NULL, NULL, 1, &m), GPULAYER_OK);
    assert_true(m->base_score == 1.0f && m->base_margin == 1.0f);
    gpl_model_free(m);
    gpulayer_dataset_free(ds);
}

/* A base_score that is not finite, or whose margin is beyond a float, is
 * refused before training on every link: the margins would be infinite and
 * every gradient NaN (softmax included, where the score is the margin). */
static void expect_base_score_error(const char *objective, const char *score, int num_class)
{
    for (int r = 0; r < N; r++) Y[r] = (float)(r % 2);
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(X, N, F, GPULAYER_ROW_MAJOR, Y, NULL, &ds),
                     GPULAYER_OK);
    gpulayer_booster *b = booster(objective);
    if (num_class) {
        char k[8];
        snprintf(k, sizeof k, "%d", num_class);
        assert_int_equal(gpulayer_booster_set_param(b, "num_class", k), GPULAYER_OK);
    }
    assert_int_equal(gpulayer_booster_set_param(b, "base_score", score), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    const char *msg = gpulayer_last_error();
    const char *named = num_class ? "multi:soft" : objective; /* one kind, two names */
    if (!strstr(msg, "base_score") || !strstr(msg, named))
        fail_msg("%s base_score=%s: unexpected message: %s", objective, score, msg);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

static void test_base_score_must_give_a_finite_margin(void **state)
{
    (void)state;
    expect_base_score_error("multi:softprob", "1e300", 2);
    expect_base_score_error("multi:softmax", "inf", 3);
    expect_base_score_error("reg:squarederror", "-1e39", 0);
    expect_base_score_error("reg:absoluteerror", "-inf", 0);
    expect_base_score_error("count:poisson", "1e300", 0);
    expect_base_score_error("binary:logistic", "inf", 0);
}

static void test_several_quantiles_train_one_output_each(void **state)
{
    (void)state;
    gpulayer_dataset *ds = make_data(1);
    gpulayer_booster *b = booster("reg:quantileerror");
    assert_int_equal(gpulayer_booster_set_param(b, "quantile_alpha", "[0.1,0.5,0.9]"),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "num_round", "30"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_prediction_width(b, 0), 3);
    float *p = malloc(sizeof(float) * N * 3);
    assert_int_equal(gpulayer_booster_predict(b, ds, 0, 0, p, N * 3), GPULAYER_OK);
    /* Each output covers about its share of the rows. */
    int below[3] = {0, 0, 0};
    for (int r = 0; r < N; r++)
        for (int k = 0; k < 3; k++) below[k] += Y[r] <= p[r * 3 + k];
    assert_true(below[0] < N * 0.2 && below[1] > N * 0.4 && below[1] < N * 0.6 &&
                below[2] > N * 0.8);
    /* The record keeps the quantiles; a damaged record is refused by name. */
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(gpulayer_booster_save_to_buffer(b, &text, &len), GPULAYER_OK);
    assert_non_null(strstr(text, "\"objective_params\""));
    assert_non_null(strstr(text, "\"quantile_alpha\":[0.1,0.5,0.9]"));
    gpulayer_booster *back = NULL;
    assert_int_equal(gpulayer_booster_load_from_buffer(text, len, &back), GPULAYER_OK);
    float *q = malloc(sizeof(float) * N * 3);
    assert_int_equal(gpulayer_booster_predict(back, ds, 0, 0, q, N * 3), GPULAYER_OK);
    assert_memory_equal(p, q, sizeof(float) * N * 3);
    char *bad = strstr(text, "[0.1,0.5,0.9]");
    bad[1] = '1'; /* the first alpha becomes 1.1, outside (0, 1) */
    char *sealed = NULL;
    size_t sealed_len = 0;
    assert_int_equal(gpl_model_json_reseal(text, len, &sealed, &sealed_len), GPULAYER_OK);
    gpulayer_booster *refused = NULL;
    assert_int_equal(gpulayer_booster_load_from_buffer(sealed, sealed_len, &refused),
                     GPULAYER_ERR_MODEL);
    assert_non_null(strstr(gpulayer_last_error(), "objective_params.quantile_alpha[0]"));
    free(sealed);
    free(p);
    free(q);
    gpulayer_free_buffer(text);
    gpulayer_booster_free(back);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

/* Every objective learns: its training loss falls below the base score's. */
static void test_every_objective_trains_and_round_trips(void **state)
{
    (void)state;
    const char *objectives[] = {"count:poisson", "reg:gamma", "reg:tweedie",
                                "reg:squaredlogerror", "reg:pseudohubererror",
                                "reg:absoluteerror", "reg:quantileerror"};
    gpulayer_dataset *ds = make_data(1);
    for (size_t i = 0; i < sizeof objectives / sizeof objectives[0]; i++) {
        gpulayer_booster *b = booster(objectives[i]);
        assert_int_equal(gpulayer_booster_set_param(b, "num_round", "40"), GPULAYER_OK);
        /* With slope 1 the first Newton step from 0 overshoots on labels
         * of 1..16 and training diverges, in XGBoost as here. */
        assert_int_equal(gpulayer_booster_set_param(b, "huber_slope", "5"), GPULAYER_OK);
        assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
        float *p = malloc(sizeof(float) * N);
        assert_int_equal(gpulayer_booster_predict(b, ds, 0, 0, p, N), GPULAYER_OK);
        double err = 0, err0 = 0, mean = 0;
        for (int r = 0; r < N; r++) mean += Y[r] / N;
        for (int r = 0; r < N; r++) {
            err += fabs(p[r] - Y[r]);
            err0 += fabs(mean - Y[r]);
        }
        if (!(err < 0.6 * err0)) fail_msg("%s: error %g vs %g", objectives[i], err, err0);
        char *text = NULL;
        size_t len = 0;
        gpulayer_booster *back = NULL;
        assert_int_equal(gpulayer_booster_save_to_buffer(b, &text, &len), GPULAYER_OK);
        assert_int_equal(gpulayer_booster_load_from_buffer(text, len, &back), GPULAYER_OK);
        float *q = malloc(sizeof(float) * N);
        assert_int_equal(gpulayer_booster_predict(back, ds, 0, 0, q, N), GPULAYER_OK);
        assert_memory_equal(p, q, sizeof(float) * N);
        free(p);
        free(q);
        gpulayer_free_buffer(text);
        gpulayer_booster_free(back);
        gpulayer_booster_free(b);
    }
    gpulayer_dataset_free(ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_labels_are_checked_per_objective),
        cmocka_unit_test(test_base_scores_follow_xgboost),
        cmocka_unit_test(test_base_score_must_give_a_finite_margin),
        cmocka_unit_test(test_several_quantiles_train_one_output_each),
        cmocka_unit_test(test_every_objective_trains_and_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
