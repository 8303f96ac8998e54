/* test_memory_limits.c -- large host allocations are estimated first: a
 * job over GPULAYER_MEMORY_LIMIT is refused before it allocates, with the
 * estimate, what it was for and the limit in the message. */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "gpulayer.h"

enum { ROWS = 100000, COLS = 4 };

static gpulayer_dataset *make(void)
{
    float *x = malloc(sizeof(float) * ROWS * COLS), *y = malloc(sizeof(float) * ROWS);
    for (int i = 0; i < ROWS * COLS; i++) x[i] = (float)(i % 101);
    for (int r = 0; r < ROWS; r++) y[r] = (float)(r % 2);
    gpulayer_dataset *ds = NULL;
    assert_int_equal(gpulayer_dataset_from_dense(x, ROWS, COLS, GPULAYER_ROW_MAJOR, y, NULL, &ds),
                     GPULAYER_OK);
    free(x);
    free(y);
    return ds;
}

static void expect_refusal(gpulayer_status st, const char *what)
{
    assert_int_equal(st, GPULAYER_ERR_OUT_OF_MEMORY);
    const char *msg = gpulayer_last_error();
    print_message("refused: %s\n", msg);
    assert_non_null(strstr(msg, what));
    assert_non_null(strstr(msg, "GPULAYER_MEMORY_LIMIT"));
}

static gpulayer_status train(gpulayer_dataset *ds, gpulayer_dataset *eval)
{
    gpulayer_booster *b = NULL;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    gpulayer_booster_set_param(b, "num_round", "1");
    gpulayer_booster_set_param(b, "device", "cpu");
    const gpulayer_dataset *evals[1] = {eval};
    const char *names[1] = {"eval"};
    gpulayer_status st = gpulayer_booster_train(b, ds, evals, names, eval ? 1 : 0, NULL, NULL);
    gpulayer_booster_free(b);
    return st;
}

static void test_dataset_over_the_limit(void **state)
{
    (void)state;
    setenv("GPULAYER_MEMORY_LIMIT", "1M", 1);
    float x = 0;
    gpulayer_dataset *ds = NULL;
    /* The values are never read: the estimate refuses first. */
    expect_refusal(gpulayer_dataset_from_dense(&x, 1000000, 100, GPULAYER_ROW_MAJOR, NULL, NULL,
                                               &ds),
                   "a dataset of 1000000 rows x 100 columns");
    assert_null(ds);
    unsetenv("GPULAYER_MEMORY_LIMIT");
}

static void test_binned_matrix_over_the_limit(void **state)
{
    (void)state;
    gpulayer_dataset *ds = make();
    setenv("GPULAYER_MEMORY_LIMIT", "300K", 1); /* below 100000 x 4 bytes */
    expect_refusal(train(ds, NULL), "the binned matrix of 100000 rows x 4 features");
    unsetenv("GPULAYER_MEMORY_LIMIT");
    gpulayer_dataset_free(ds);
}

static void test_workspace_over_the_limit(void **state)
{
    (void)state;
    gpulayer_dataset *ds = make();
    setenv("GPULAYER_MEMORY_LIMIT", "1M", 1); /* the bins fit, the workspace not */
    expect_refusal(train(ds, NULL), "workspace for 100000 rows");
    unsetenv("GPULAYER_MEMORY_LIMIT");
    assert_int_equal(train(ds, NULL), GPULAYER_OK);
    gpulayer_dataset_free(ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dataset_over_the_limit),
        cmocka_unit_test(test_binned_matrix_over_the_limit),
        cmocka_unit_test(test_workspace_over_the_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
