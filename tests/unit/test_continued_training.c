/* test_continued_training.c -- gpulayer_booster_set_init_model: N rounds
 * and then M more give the bits of N + M in one go (sampling included,
 * binary and multiclass, with an evaluation set), the rounds number on,
 * the initial model is used up, and mismatched data, names or objectives
 * are refused with both sides named. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulayer.h"
#include "test_util.h"

enum { ROWS = 3000, COLS = 5 };

static gpulayer_dataset *data(int classes, unsigned seed, int named)
{
    float *x = malloc(sizeof(float) * ROWS * COLS), *y = malloc(sizeof(float) * ROWS);
    srand(seed);
    for (int r = 0; r < ROWS; r++) {
        double z = 0;
        for (int c = 0; c < COLS; c++) {
            x[r * COLS + c] = rand() % 17 == 0 ? NAN : (float)(rand() % 1000) / 100.0f;
            if (!isnan(x[r * COLS + c])) z += (c % 2 ? 1 : -1) * x[r * COLS + c];
        }
        y[r] = classes > 2 ? (float)(((int)fabs(z) + rand() % 2) % classes)
                           : (float)(z + (rand() % 100) / 20.0 > 0);
    }
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(x, ROWS, COLS, GPULAYER_ROW_MAJOR, y, NULL, &ds),
                     GPULAYER_OK);
    if (named) {
        const char *names[COLS] = {"a", "b", "c", "d", named == 2 ? "z" : "e"};
        assert_int_equal(gpulayer_dataset_set_feature_names(ds, names, COLS), GPULAYER_OK);
    }
    free(x);
    free(y);
    return ds;
}

static void set(gpulayer_booster *b, const char *const *kv)
{
    for (int i = 0; kv[i]; i += 2)
        assert_int_equal(gpulayer_booster_set_param(b, kv[i], kv[i + 1]), GPULAYER_OK);
}

static int rounds_seen;

static int count_rounds(void *user, int32_t round, const gpulayer_eval_result *r, int n)
{
    (void)user;
    (void)r;
    (void)n;
    rounds_seen = round + 1;
    return 0;
}

static char *saved(const gpulayer_booster *b, size_t *len)
{
    char *text;
    assert_int_equal(gpulayer_booster_save_to_buffer(b, &text, len), GPULAYER_OK);
    return text;
}

static void check_split_run(const char *const *kv, int classes)
{
    gpulayer_dataset *train = data(classes, 1, 1), *valid = data(classes, 2, 1);
    const gpulayer_dataset *evals[1] = {valid};
    const char *names[1] = {"valid"};
    gpulayer_booster *whole, *parts;
    assert_int_equal(gpulayer_booster_create(&whole), GPULAYER_OK);
    set(whole, kv);
    assert_int_equal(gpulayer_booster_set_param(whole, "num_round", "10"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(whole, train, evals, names, 1, NULL, NULL),
                     GPULAYER_OK);

    assert_int_equal(gpulayer_booster_create(&parts), GPULAYER_OK);
    set(parts, kv);
    assert_int_equal(gpulayer_booster_set_param(parts, "num_round", "4"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(parts, train, evals, names, 1, NULL, NULL),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_init_model(parts, parts), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(parts, "num_round", "6"), GPULAYER_OK);
    rounds_seen = 0;
    assert_int_equal(gpulayer_booster_train(parts, train, evals, names, 1, count_rounds, NULL),
                     GPULAYER_OK);
    assert_int_equal(rounds_seen, 10); /* rounds 5..10 */
    assert_int_equal(gpulayer_booster_num_rounds(parts), 10);

    size_t lw, lp;
    char *w = saved(whole, &lw), *p = saved(parts, &lp);
    if (lw != lp || memcmp(w, p, lw) != 0) fail_msg("%s: 4 + 6 rounds differ from 10", kv[1]);
    gpulayer_free_buffer(w);
    gpulayer_free_buffer(p);

    /* The initial model was used up: the next training starts afresh. */
    assert_int_equal(gpulayer_booster_train(parts, train, NULL, NULL, 0, NULL, NULL),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_booster_num_rounds(parts), 6);
    gpulayer_booster_free(whole);
    gpulayer_booster_free(parts);
    gpulayer_dataset_free(train);
    gpulayer_dataset_free(valid);
}

static void test_parts_give_the_whole(void **state)
{
    (void)state;
    const char *binary[] = {"objective", "binary:logistic", "max_depth", "4", "eta", "0.3",
                            "subsample", "0.8", "colsample_bytree", "0.8",
                            "colsample_bynode", "0.7", "seed", "5", "nthread", "2", NULL};
    check_split_run(binary, 2);
    const char *multi[] = {"objective", "multi:softprob", "num_class", "3", "max_depth", "3",
                           "eta", "0.3", "nthread", "2", NULL};
    check_split_run(multi, 3);
}

static void test_mismatches_are_refused(void **state)
{
    (void)state;
    gpulayer_dataset *train = data(2, 1, 1);
    gpulayer_booster *b;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    const char *kv[] = {"objective", "binary:logistic", "num_round", "2", "nthread", "2", NULL};
    set(b, kv);
    assert_int_equal(gpulayer_booster_train(b, train, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);

    gpulayer_dataset *renamed = data(2, 1, 2);
    assert_int_equal(gpulayer_booster_set_init_model(b, b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, renamed, NULL, NULL, 0, NULL, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "feature 4 is 'e' in the initial model but "
                                                  "'z' in the training data"));
    assert_int_equal(gpulayer_booster_num_rounds(b), 2); /* the model is kept */

    float x[2 * (COLS + 1)] = {0}, y[2] = {0, 1};
    gpulayer_dataset *wide;
    assert_int_equal(gpulayer_dataset_from_dense(x, 2, COLS + 1, GPULAYER_ROW_MAJOR, y, NULL,
                                                 &wide),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_init_model(b, b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, wide, NULL, NULL, 0, NULL, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "5 features, the training data 6 columns"));

    assert_int_equal(gpulayer_booster_set_init_model(b, b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "objective", "reg:squarederror"),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, train, NULL, NULL, 0, NULL, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "binary:logistic"));
    assert_non_null(strstr(gpulayer_last_error(), "reg:squarederror"));

    gpulayer_booster *empty;
    assert_int_equal(gpulayer_booster_create(&empty), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_init_model(b, empty), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "no model"));
    assert_int_equal(gpulayer_booster_set_init_model(b, NULL), GPULAYER_OK);
    gpulayer_booster_free(empty);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(train);
    gpulayer_dataset_free(renamed);
    gpulayer_dataset_free(wide);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parts_give_the_whole),
        cmocka_unit_test(test_mismatches_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
