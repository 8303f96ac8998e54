/* test_metric_tracker.c -- the figures training reports: default metric
 * per objective, parameters taken from the objective's (huber_slope,
 * quantile_alpha), one quantile figure per alpha before their mean, and
 * early stopping's direction. */
#include "test_util.h"

#include <math.h>
#include <string.h>

#include "model.h"
#include "params.h"
#include "train_eval.h"
#include "train_setup.h"

static void set(gpl_params *p, const char *key, const char *value)
{
    if (gpl_params_set(p, key, value) != GPULAYER_OK)
        fail_msg("%s=%s: %s", key, value, gpulayer_last_error());
}

/* A model shaped as training makes it for p's objective. */
static gpl_model *model_for(const gpl_params *p)
{
    gpl_model *m = gpl_model_new();
    assert_non_null(m);
    int as_class;
    assert_int_equal(gpl_objective_parse(p->objective, &m->objective, &as_class), GPULAYER_OK);
    m->obj_params = p->obj_params;
    m->num_outputs = gpl_train_num_outputs(p);
    return m;
}

static void test_default_metric_names(void **state)
{
    (void)state;
    static const struct {
        const char *objective, *param, *value, *metric;
    } cases[] = {
        {"reg:squarederror", NULL, NULL, "rmse"},
        {"reg:squaredlogerror", NULL, NULL, "rmsle"},
        {"reg:pseudohubererror", NULL, NULL, "mphe"},
        {"reg:absoluteerror", NULL, NULL, "mae"},
        {"reg:quantileerror", NULL, NULL, "quantile"},
        {"reg:gamma", NULL, NULL, "gamma-deviance"},
        {"reg:tweedie", NULL, NULL, "tweedie-nloglik@1.5"},
        {"reg:tweedie", "tweedie_variance_power", "1.3", "tweedie-nloglik@1.3"},
        {"count:poisson", NULL, NULL, "poisson-nloglik"},
        {"reg:logistic", NULL, NULL, "rmse"},
        {"binary:logistic", NULL, NULL, "logloss"},
        {"binary:logitraw", NULL, NULL, "logloss"},
        {"binary:hinge", NULL, NULL, "error"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gpl_params p;
        gpl_params_default(&p);
        set(&p, "objective", cases[i].objective);
        if (cases[i].param) set(&p, cases[i].param, cases[i].value);
        gpl_model *m = model_for(&p);
        gpl_eval_tracker t;
        assert_int_equal(gpl_eval_tracker_init(&t, &p, m, 1), GPULAYER_OK);
        assert_int_equal(t.num_metrics, 1);
        if (strcmp(t.metrics[0].name, cases[i].metric))
            fail_msg("%s: %s, expected %s", cases[i].objective, t.metrics[0].name,
                     cases[i].metric);
        gpl_eval_tracker_free(&t);
        gpl_model_free(m);
    }
}

static void test_mphe_takes_huber_slope(void **state)
{
    (void)state;
    gpl_params p;
    gpl_params_default(&p);
    /* The order of the parameters does not matter. */
    set(&p, "eval_metric", "mphe");
    set(&p, "huber_slope", "2.5");
    gpl_model *m = model_for(&p);
    gpl_eval_tracker t;
    assert_int_equal(gpl_eval_tracker_init(&t, &p, m, 1), GPULAYER_OK);
    assert_true(t.metrics[0].param == 2.5);
    gpl_eval_tracker_free(&t);
    gpl_model_free(m);
}

/* Labels 1 and 4; outputs at alphas 0.1, 0.5, 0.9 (test_metric.c works
 * the losses: 0.1, 0, 0.1 and 0.9, 0.5, 0). */
static void test_quantile_figures_and_early_stopping(void **state)
{
    (void)state;
    gpl_params p;
    gpl_params_default(&p);
    set(&p, "objective", "reg:quantileerror");
    set(&p, "quantile_alpha", "[0.1,0.5,0.9]");
    set(&p, "eval_metric", "mae");
    set(&p, "eval_metric", "quantile");
    set(&p, "early_stopping_rounds", "1");
    gpl_model *m = model_for(&p);
    assert_int_equal(m->num_outputs, 3);
    gpl_eval_tracker t;
    assert_int_equal(gpl_eval_tracker_init(&t, &p, m, 1), GPULAYER_OK);
    const char *names[] = {"mae", "quantile@0.1", "quantile@0.5", "quantile@0.9", "quantile"};
    assert_int_equal(t.num_metrics, 5);
    for (int k = 0; k < 5; k++) assert_string_equal(t.metrics[k].name, names[k]);

    static float x[2] = {0, 1}, y[2] = {1, 4};
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(x, 2, 1, GPULAYER_ROW_MAJOR, y, NULL, &ds),
                     GPULAYER_OK);
    const float good[6] = {0, 1, 2, 5, 3, 4};
    float out[6];
    gpl_eval_tracker_add(&t, m, 0, "valid", ds, good, out, 1);
    const gpulayer_eval_result *res;
    int n;
    assert_int_equal(gpl_eval_tracker_end_round(&t, 0, &res, &n), 0);
    assert_int_equal(n, 5);
    const double want[] = {2.0 / 2.0, 1.0 / 2.0, 0.5 / 2.0, 0.1 / 2.0, 1.6 / 3.0 / 2.0};
    for (int k = 0; k < 5; k++) {
        assert_string_equal(res[k].metric_name, names[k]);
        assert_string_equal(res[k].data_name, "valid");
        if (!(fabs(res[k].value - want[k]) < 1e-15))
            fail_msg("%s: %.17g, expected %.17g", names[k], res[k].value, want[k]);
    }
    /* mae improves to 0 but the quantile mean, the last figure, gets
     * worse (1.2 / 3 a row): early stopping with patience 1 stops. */
    const float worse[6] = {1, 3, 3, 4, 6, 6};
    gpl_eval_tracker_add(&t, m, 0, "valid", ds, worse, out, 1);
    assert_int_equal(gpl_eval_tracker_end_round(&t, 1, &res, &n), 1);
    assert_true(res[0].value == 0.0);
    assert_true(fabs(res[4].value - 0.4) < 1e-15);
    assert_int_equal(t.best_round, 0);
    gpl_eval_tracker_free(&t);
    gpulayer_dataset_free(ds);
    gpl_model_free(m);
}

static void test_quantile_needs_an_alpha_per_output(void **state)
{
    (void)state;
    gpl_params p;
    gpl_params_default(&p);
    set(&p, "quantile_alpha", "[0.1,0.9]");
    set(&p, "eval_metric", "quantile");
    gpl_model *m = model_for(&p);
    gpl_eval_tracker t;
    assert_int_equal(gpl_eval_tracker_init(&t, &p, m, 1), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "one quantile_alpha value per output"));
    gpl_eval_tracker_free(&t);
    gpl_model_free(m);
}

/* aucpr: higher is better, so a lower second round does not improve. */
static void test_aucpr_higher_is_better(void **state)
{
    (void)state;
    gpl_params p;
    gpl_params_default(&p);
    set(&p, "objective", "binary:logitraw");
    set(&p, "eval_metric", "aucpr");
    set(&p, "early_stopping_rounds", "1");
    gpl_model *m = model_for(&p);
    gpl_eval_tracker t;
    assert_int_equal(gpl_eval_tracker_init(&t, &p, m, 1), GPULAYER_OK);
    static float x[4] = {0, 1, 2, 3}, y[4] = {1, 0, 1, 0};
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(x, 4, 1, GPULAYER_ROW_MAJOR, y, NULL, &ds),
                     GPULAYER_OK);
    const float perfect[4] = {4, 1, 3, 2}, mixed[4] = {4, 3, 2, 1};
    float out[4];
    const gpulayer_eval_result *res;
    int n;
    gpl_eval_tracker_add(&t, m, 0, "valid", ds, mixed, out, 1);
    assert_int_equal(gpl_eval_tracker_end_round(&t, 0, &res, &n), 0);
    gpl_eval_tracker_add(&t, m, 0, "valid", ds, perfect, out, 1);
    assert_int_equal(gpl_eval_tracker_end_round(&t, 1, &res, &n), 0);
    assert_true(res[0].value == 1.0);
    gpl_eval_tracker_add(&t, m, 0, "valid", ds, mixed, out, 1);
    assert_int_equal(gpl_eval_tracker_end_round(&t, 2, &res, &n), 1);
    assert_int_equal(t.best_round, 1);
    gpl_eval_tracker_free(&t);
    gpulayer_dataset_free(ds);
    gpl_model_free(m);
}

/* The decision callers with their own metric share: the first round is
 * the best, a tie keeps the earlier round, NaN never improves, and the stop
 * comes `rounds` rounds after the best. */
static void test_early_stopping_update(void **state)
{
    (void)state;
    static const double down[] = {0.5, 0.4, 0.4, NAN, 0.45, 0.3};
    int32_t best = -1;
    double score = 0.0;
    int stops[6];
    for (int32_t r = 0; r < 6; r++)
        stops[r] = gpulayer_early_stopping_update(3, 0, r, down[r], &best, &score);
    /* Best 0.4 at round 1 (round 2 ties); round 4 is 3 past it. */
    assert_int_equal(stops[3], 0);
    assert_int_equal(stops[4], 1);
    assert_int_equal(best, 5);
    assert_true(score == 0.3);

    best = -1;
    const double up[] = {NAN, 0.7, 0.7};
    for (int32_t r = 0; r < 3; r++)
        assert_int_equal(gpulayer_early_stopping_update(2, 1, r, up[r], &best, &score), r == 2);
    /* A NaN first round is the best: nothing compares better than it. */
    assert_int_equal(best, 0);

    best = -1;
    for (int32_t r = 0; r < 50; r++)
        assert_int_equal(gpulayer_early_stopping_update(0, 1, r, -r, &best, &score), 0);
    assert_int_equal(best, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_metric_names),
        cmocka_unit_test(test_mphe_takes_huber_slope),
        cmocka_unit_test(test_quantile_figures_and_early_stopping),
        cmocka_unit_test(test_quantile_needs_an_alpha_per_output),
        cmocka_unit_test(test_aucpr_higher_is_better),
        cmocka_unit_test(test_early_stopping_update),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
