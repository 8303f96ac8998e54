/* test_base_margin.c -- per-row base margins (gpulayer_dataset_set_base_margin):
 * training starts from them in place of the base score, evaluation sets
 * and prediction add the trees to them, one a row or one a row and output,
 * and wrong widths or values are refused. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "booster.h"
#include "gpulayer.h"
#include "test_util.h"

enum { ROWS = 2000, COLS = 4 };

static float x[ROWS * COLS], y[ROWS];

static gpulayer_dataset *data(int classes)
{
    srand(21);
    for (int r = 0; r < ROWS; r++) {
        double z = 0;
        for (int c = 0; c < COLS; c++) {
            x[r * COLS + c] = (float)(rand() % 1000) / 100.0f - 5.0f;
            z += (c % 2 ? 1.0 : -0.5) * x[r * COLS + c];
        }
        y[r] = classes ? (float)(((int)fabs(z)) % classes) : (float)z;
    }
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(x, ROWS, COLS, GPULAYER_ROW_MAJOR, y, NULL, &ds),
                     GPULAYER_OK);
    return ds;
}

static gpulayer_booster *booster(const char *objective, const char *base_score, int classes)
{
    gpulayer_booster *b;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "objective", objective), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "num_round", "5"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "nthread", "2"), GPULAYER_OK);
    if (base_score) assert_int_equal(gpulayer_booster_set_param(b, "base_score", base_score),
                                     GPULAYER_OK);
    if (classes) {
        char k[8];
        snprintf(k, sizeof k, "%d", classes);
        assert_int_equal(gpulayer_booster_set_param(b, "num_class", k), GPULAYER_OK);
    }
    return b;
}

static void same_trees(const gpulayer_booster *a, const gpulayer_booster *b)
{
    assert_int_equal(a->model->num_trees, b->model->num_trees);
    for (int32_t t = 0; t < a->model->num_trees; t++) {
        assert_int_equal(a->model->trees[t].num_nodes, b->model->trees[t].num_nodes);
        assert_memory_equal(a->model->trees[t].nodes, b->model->trees[t].nodes,
                            sizeof(gpl_tree_node) * (size_t)a->model->trees[t].num_nodes);
    }
}

/* Base margins equal to the base score everywhere are the base score. */
static void test_constant_margins_are_the_base_score(void **state)
{
    (void)state;
    gpulayer_dataset *plain = data(0), *with = data(0);
    float *bm = malloc(sizeof(float) * ROWS);
    for (int r = 0; r < ROWS; r++) bm[r] = 1.5f;
    assert_int_equal(gpulayer_dataset_set_base_margin(with, bm, ROWS), GPULAYER_OK);
    gpulayer_booster *a = booster("reg:squarederror", "1.5", 0);
    gpulayer_booster *b = booster("reg:squarederror", NULL, 0);
    assert_int_equal(gpulayer_booster_train(a, plain, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, with, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    same_trees(a, b);
    float pa[ROWS], pb[ROWS];
    assert_int_equal(gpulayer_booster_predict(a, plain, 0, 0, pa, ROWS), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_predict(b, with, 0, 0, pb, ROWS), GPULAYER_OK);
    assert_memory_equal(pa, pb, sizeof pa);
    free(bm);
    gpulayer_booster_free(a);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(plain);
    gpulayer_dataset_free(with);
}

/* Row-varying margins: training differs, prediction starts from them, an
 * evaluation set's metric reads them. */
static double last_value;
static int record(void *user, int32_t round, const gpulayer_eval_result *r, int n)
{
    (void)user;
    (void)round;
    if (n > 0) last_value = r[n - 1].value;
    return 0;
}

static void test_rows_start_from_their_margins(void **state)
{
    (void)state;
    gpulayer_dataset *plain = data(0), *with = data(0);
    float *bm = malloc(sizeof(float) * ROWS);
    for (int r = 0; r < ROWS; r++) bm[r] = y[r] * 0.5f;
    assert_int_equal(gpulayer_dataset_set_base_margin(with, bm, ROWS), GPULAYER_OK);
    gpulayer_booster *b = booster("reg:squarederror", NULL, 0);
    const gpulayer_dataset *evals[1] = {with};
    const char *names[1] = {"with"};
    assert_int_equal(gpulayer_booster_train(b, with, evals, names, 1, record, NULL),
                     GPULAYER_OK);
    float plain_margin[ROWS], with_margin[ROWS];
    assert_int_equal(gpulayer_booster_predict(b, plain, GPULAYER_PREDICT_MARGIN, 0, plain_margin,
                                              ROWS),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_booster_predict(b, with, GPULAYER_PREDICT_MARGIN, 0, with_margin,
                                              ROWS),
                     GPULAYER_OK);
    const float base = b->model->base_margin;
    for (int r = 0; r < ROWS; r++)
        assert_true(fabs((with_margin[r] - bm[r]) - (plain_margin[r] - base)) < 1e-4);
    /* The evaluation set's last rmse is that of the predictions with the
     * margins. */
    double rmse = 0;
    assert_int_equal(gpulayer_evaluate(with, "rmse", with_margin, ROWS, 1, &rmse), GPULAYER_OK);
    assert_true(last_value == rmse);
    free(bm);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(plain);
    gpulayer_dataset_free(with);
}

static void test_widths_and_values(void **state)
{
    (void)state;
    gpulayer_dataset *ds = data(3);
    float *bm = calloc(ROWS * 3, sizeof(float));
    /* One a row for a 3-class model: refused at training, naming both. */
    assert_int_equal(gpulayer_dataset_set_base_margin(ds, bm, ROWS), GPULAYER_OK);
    gpulayer_booster *b = booster("multi:softprob", NULL, 3);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "1 value(s) a row, but the model has 3"));
    /* rows x classes: trains and predicts */
    assert_int_equal(gpulayer_dataset_set_base_margin(ds, bm, ROWS * 3), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    float *p = malloc(sizeof(float) * ROWS * 3);
    assert_int_equal(gpulayer_booster_predict(b, ds, 0, 0, p, ROWS * 3), GPULAYER_OK);
    free(p);
    /* Counts that are not a multiple of the rows, and non-finite values. */
    assert_int_equal(gpulayer_dataset_set_base_margin(ds, bm, ROWS + 1),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "2001 values for 2000 rows"));
    bm[7] = NAN;
    assert_int_equal(gpulayer_dataset_set_base_margin(ds, bm, ROWS), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "base_margin"));
    assert_int_equal(gpulayer_dataset_set_base_margin(ds, NULL, 0), GPULAYER_OK);
    free(bm);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_constant_margins_are_the_base_score),
        cmocka_unit_test(test_rows_start_from_their_margins),
        cmocka_unit_test(test_widths_and_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
