/* test_custom_objective.c -- training on the caller's gradients: the same
 * model bits as the built-in objective with its formula (row sampling,
 * weights, several outputs), the checks of the caller's values, the base
 * score, the evaluation callback and the refusals. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "custom_objective.h"
#include "gpulayer.h"
#include "objective_math.h"

enum { N = 2000, F = 5, CLASSES = 3 };

static float X[N * F], Y[N], W[N];

static gpulayer_dataset *make_data(int classes, int weighted)
{
    srand(7);
    for (int r = 0; r < N; r++) {
        for (int f = 0; f < F; f++) X[r * F + f] = (float)rand() / (float)RAND_MAX;
        if (r % 9 == 0) X[r * F + 3] = NAN;
        double z = 3 * X[r * F] - 2 * X[r * F + 1] + ((float)rand() / (float)RAND_MAX - 0.5);
        Y[r] = classes > 1 ? (float)((int)(X[r * F] * classes) % classes) : (float)(10 * z);
        W[r] = 0.25f + (float)(r % 5);
    }
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(X, N, F, GPULAYER_ROW_MAJOR, Y,
                                                 weighted ? W : NULL, &ds),
                     GPULAYER_OK);
    return ds;
}

static gpulayer_booster *booster(const char *const *params)
{
    gpulayer_booster *b;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "nthread", "2"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "num_round", "6"), GPULAYER_OK);
    for (int i = 0; params && params[i]; i += 2)
        assert_int_equal(gpulayer_booster_set_param(b, params[i], params[i + 1]), GPULAYER_OK);
    return b;
}

static char *model_text(const gpulayer_booster *b)
{
    char *text;
    size_t len;
    assert_int_equal(gpulayer_booster_save_to_buffer(b, &text, &len), GPULAYER_OK);
    return text;
}

/* The built-in formulas, weights applied, as a caller would write them. */
static int squared_error(void *user, int round, const float *margins, int64_t num_rows,
                         int32_t num_outputs, double *grad, double *hess)
{
    (void)user;
    (void)round;
    assert_int_equal(num_outputs, 1);
    for (int64_t r = 0; r < num_rows; r++) {
        grad[r] = ((double)margins[r] - (double)Y[r]) * W[r];
        hess[r] = W[r];
    }
    return 0;
}

static int softmax(void *user, int round, const float *margins, int64_t num_rows,
                   int32_t num_outputs, double *grad, double *hess)
{
    (void)user;
    (void)round;
    assert_int_equal(num_outputs, CLASSES);
    for (int64_t r = 0; r < num_rows; r++) {
        const float *m = margins + r * num_outputs;
        double top, sum;
        gpl_softmax_normalizer(m, num_outputs, &top, &sum);
        for (int32_t k = 0; k < num_outputs; k++)
            gpl_objective_softmax(m[k], top, sum, k, Y[r], 1.0f, &grad[r * num_outputs + k],
                                  &hess[r * num_outputs + k]);
    }
    return 0;
}

/* The same model bits as the built-in objective, with rows sampled. */
static void test_same_model_as_builtin(void **state)
{
    (void)state;
    struct {
        const char *params[12];
        int classes;
        gpulayer_objective_callback fn;
    } cases[] = {
        {{"objective", "reg:squarederror", "base_score", "0.5", "subsample", "0.6", NULL}, 1,
         squared_error},
        {{"objective", "multi:softprob", "num_class", "3", "base_score", "0.5", "subsample",
          "0.8", "max_depth", "4", NULL},
         CLASSES, softmax},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gpulayer_dataset *ds = make_data(cases[i].classes, cases[i].classes == 1);
        gpulayer_booster *builtin = booster(cases[i].params), *custom = booster(cases[i].params);
        assert_int_equal(gpulayer_booster_train(builtin, ds, NULL, NULL, 0, NULL, NULL),
                         GPULAYER_OK);
        assert_int_equal(gpulayer_booster_set_objective_callback(custom, cases[i].fn, NULL),
                         GPULAYER_OK);
        assert_int_equal(gpulayer_booster_train(custom, ds, NULL, NULL, 0, NULL, NULL),
                         GPULAYER_OK);
        char *a = model_text(builtin), *b = model_text(custom);
        assert_string_equal(a, b);
        gpulayer_free_buffer(a);
        gpulayer_free_buffer(b);
        gpulayer_booster_free(builtin);
        gpulayer_booster_free(custom);
        gpulayer_dataset_free(ds);
    }
}

/* Sampling decides the model: the same callback without subsample differs
 * (the test above would pass if the sample were ignored on both sides). */
static void test_sample_changes_model(void **state)
{
    (void)state;
    gpulayer_dataset *ds = make_data(1, 1);
    const char *sampled[] = {"subsample", "0.6", NULL}, *all[] = {NULL};
    gpulayer_booster *a = booster(sampled), *b = booster(all);
    gpulayer_booster_set_objective_callback(a, squared_error, NULL);
    gpulayer_booster_set_objective_callback(b, squared_error, NULL);
    assert_int_equal(gpulayer_booster_train(a, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    char *ta = model_text(a), *tb = model_text(b);
    assert_true(strcmp(ta, tb) != 0);
    gpulayer_free_buffer(ta);
    gpulayer_free_buffer(tb);
    gpulayer_booster_free(a);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

/* XGBoost's base score of custom objectives is 0.5 in output space. */
static void test_base_score(void **state)
{
    (void)state;
    gpulayer_dataset *ds = make_data(1, 0);
    for (int r = 0; r < N; r++) Y[r] = Y[r] > 0; /* binary:logistic's labels */
    assert_int_equal(gpulayer_dataset_set_label(ds, Y, N), GPULAYER_OK);
    const char *logistic[] = {"objective", "binary:logistic", "num_round", "1", NULL};
    const char *given[] = {"base_score", "2.5", "num_round", "1", NULL};
    const char *plain[] = {"num_round", "1", NULL};
    struct {
        const char *const *params;
        float margin;
    } cases[] = {{plain, 0.5f}, {logistic, 0.0f}, {given, 2.5f}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gpulayer_booster *b = booster(cases[i].params);
        gpulayer_booster_set_objective_callback(b, squared_error, NULL);
        assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
        char *text = model_text(b);
        char want[64];
        snprintf(want, sizeof want, "\"base_margin\":%g", (double)cases[i].margin);
        if (!strstr(text, want)) fail_msg("case %zu: no %s in the model", i, want);
        gpulayer_free_buffer(text);
        gpulayer_booster_free(b);
    }
    gpulayer_dataset_free(ds);
}

/* What the bad callback writes: a NaN, an infinity or a negative hessian
 * at a row of a round. */
typedef struct bad_value {
    int round;
    int64_t row;
    int hessian;
    double value;
    int refuse; /* non-zero: the callback returns this */
} bad_value;

static int bad_callback(void *user, int round, const float *margins, int64_t num_rows,
                        int32_t num_outputs, double *grad, double *hess)
{
    const bad_value *bad = user;
    squared_error(NULL, round, margins, num_rows, num_outputs, grad, hess);
    if (round != bad->round) return 0;
    if (bad->refuse) return bad->refuse;
    (bad->hessian ? hess : grad)[bad->row] = bad->value;
    return 0;
}

static void test_bad_values_are_refused(void **state)
{
    (void)state;
    gpulayer_dataset *ds = make_data(1, 0);
    struct {
        bad_value bad;
        gpulayer_status status;
        const char *message;
    } cases[] = {
        {{0, 17, 0, NAN, 0}, GPULAYER_ERR_INVALID_ARGUMENT,
         "custom objective, round 1: the gradient of row 17 is nan; values must be finite"},
        {{2, 5, 1, -1.0, 0}, GPULAYER_ERR_INVALID_ARGUMENT,
         "custom objective, round 3: the hessian of row 5 is -1; hessians must be >= 0"},
        {{1, 1999, 1, INFINITY, 0}, GPULAYER_ERR_INVALID_ARGUMENT,
         "round 2: the hessian of row 1999 is inf"},
        {{3, 0, 0, 0.0, 7}, GPULAYER_ERR_INTERRUPTED,
         "the custom objective stopped training in round 4"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gpulayer_booster *b = booster(NULL);
        gpulayer_booster_set_objective_callback(b, bad_callback, &cases[i].bad);
        assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL),
                         cases[i].status);
        if (!strstr(gpulayer_last_error(), cases[i].message))
            fail_msg("case %zu: '%s' lacks '%s'", i, gpulayer_last_error(), cases[i].message);
        gpulayer_booster_free(b);
    }
    gpulayer_dataset_free(ds);
}

/* A backend that cannot take pairs from the host is refused by name. */
static void test_backend_without_write_pairs(void **state)
{
    (void)state;
    static const struct gpl_backend_ops ops = {.name = "vulkan"};
    gpl_backend be = {&ops, NULL, {0, 0, 0, 1, 0}};
    gpulayer_booster *b = booster(NULL);
    gpl_custom_objective c;
    /* Without a callback nothing is asked of the backend. */
    assert_int_equal(gpl_custom_objective_start(&c, b, &be, N, 1), GPULAYER_OK);
    assert_null(c.fn);
    gpulayer_booster_set_objective_callback(b, squared_error, NULL);
    assert_int_equal(gpl_custom_objective_start(&c, b, &be, N, 1), GPULAYER_ERR_UNSUPPORTED);
    assert_non_null(strstr(gpulayer_last_error(),
                           "the vulkan backend cannot take gradients from the host"));
    gpl_params p;
    assert_int_equal(gpl_custom_objective_params(b, 1, &p), GPULAYER_ERR_UNSUPPORTED);
    assert_non_null(strstr(gpulayer_last_error(), "data-parallel"));
    assert_int_equal(gpl_custom_objective_params(b, 0, &p), GPULAYER_OK);
    gpulayer_booster_free(b);
}

typedef struct seen {
    int calls;
    int last_round;
    float margins[N], predictions[N];
} seen;

static int on_eval(void *user, int round, int eval_index, const float *margins,
                   const float *predictions, int64_t num_rows, int32_t num_outputs)
{
    seen *s = user;
    assert_int_equal(eval_index, 0);
    assert_int_equal(num_rows, N);
    assert_int_equal(num_outputs, 1);
    memcpy(s->margins, margins, sizeof s->margins);
    memcpy(s->predictions, predictions, sizeof s->predictions);
    s->calls++;
    s->last_round = round;
    return round == 3 ? 5 : 0;
}

/* The evaluation callback sees the margins and predictions predict gives
 * after that round; a non-zero return stops training. */
static void test_eval_callback(void **state)
{
    (void)state;
    gpulayer_dataset *ds = make_data(1, 0);
    for (int r = 0; r < N; r++) Y[r] = Y[r] > 0;
    assert_int_equal(gpulayer_dataset_set_label(ds, Y, N), GPULAYER_OK);
    const char *params[] = {"objective", "binary:logistic", NULL};
    gpulayer_booster *b = booster(params);
    seen *s = calloc(1, sizeof *s);
    const gpulayer_dataset *evals[] = {ds};
    const char *names[] = {"train"};
    assert_int_equal(gpulayer_booster_set_eval_callback(b, on_eval, s), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, ds, evals, names, 1, NULL, NULL),
                     GPULAYER_ERR_INTERRUPTED);
    assert_non_null(strstr(gpulayer_last_error(), "evaluation callback stopped training in round 4"));
    assert_int_equal(s->calls, 4);
    assert_int_equal(gpulayer_booster_num_rounds(b), 4);
    float m[N], p[N];
    assert_int_equal(gpulayer_booster_predict(b, ds, GPULAYER_PREDICT_MARGIN, 0, m, N), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_predict(b, ds, 0, 0, p, N), GPULAYER_OK);
    assert_memory_equal(m, s->margins, sizeof m);
    assert_memory_equal(p, s->predictions, sizeof p);
    /* The caller's early stop: predictions stop at the best round. */
    float m2[N];
    assert_int_equal(gpulayer_booster_set_best_round(b, 4), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "round 4 is outside the model's rounds 0..3"));
    assert_int_equal(gpulayer_booster_set_best_round(b, 1), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_best_round(b), 1);
    assert_int_equal(gpulayer_booster_predict(b, ds, GPULAYER_PREDICT_MARGIN, 0, m2, N), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_predict(b, ds, GPULAYER_PREDICT_MARGIN, 2, m, N), GPULAYER_OK);
    assert_memory_equal(m, m2, sizeof m);
    assert_int_equal(gpulayer_booster_set_best_round(b, -1), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_best_round(b), -1);
    free(s);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

static void test_dataset_weight(void **state)
{
    (void)state;
    gpulayer_dataset *plain = make_data(1, 0), *weighted = make_data(1, 1);
    int has = -1;
    float w[N];
    assert_int_equal(gpulayer_dataset_get_weight(plain, w, N, &has), GPULAYER_OK);
    assert_int_equal(has, 0);
    assert_int_equal(gpulayer_dataset_get_weight(weighted, NULL, 0, &has), GPULAYER_OK);
    assert_int_equal(has, 1);
    assert_int_equal(gpulayer_dataset_get_weight(weighted, w, N - 1, &has),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_int_equal(gpulayer_dataset_get_weight(weighted, w, N, &has), GPULAYER_OK);
    assert_memory_equal(w, W, sizeof w);
    gpulayer_dataset_free(plain);
    gpulayer_dataset_free(weighted);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_model_as_builtin),
        cmocka_unit_test(test_sample_changes_model),
        cmocka_unit_test(test_base_score),
        cmocka_unit_test(test_bad_values_are_refused),
        cmocka_unit_test(test_backend_without_write_pairs),
        cmocka_unit_test(test_eval_callback),
        cmocka_unit_test(test_dataset_weight),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
