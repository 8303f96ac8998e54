/* test_alloc_failures.c -- a failed host allocation anywhere along binning,
 * training, prediction, saving and loading is an out-of-memory error with a
 * message: no crash, no leak (the sanitizer build checks), no model file
 * left behind. Failures are injected through the allocation helpers
 * (gpl_alloc_fail_after), the Nth allocation for every N. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "binning.h"
#include "gpulayer.h"

enum { ROWS = 300, COLS = 4 };

static float x[ROWS * COLS], y[ROWS];

static gpulayer_dataset *small_data(void)
{
    for (int r = 0; r < ROWS; r++) {
        for (int f = 0; f < COLS; f++) x[r * COLS + f] = (float)((r * 7 + f * 13) % 29);
        if (r % 11 == 0) x[r * COLS + 3] = NAN;
        y[r] = (float)(x[r * COLS] + x[r * COLS + 1] > 28);
    }
    gpulayer_dataset *ds = NULL;
    assert_int_equal(gpulayer_dataset_from_dense(x, ROWS, COLS, GPULAYER_ROW_MAJOR, y, NULL,
                                                 &ds),
                     GPULAYER_OK);
    return ds;
}

/* The failure reached here, not a later one: an error, and one that says so. */
static void assert_out_of_memory(gpulayer_status st)
{
    assert_int_equal(st, GPULAYER_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(gpulayer_last_error(), "out of host memory"));
}

/* Used to write through NULL when the cuts could not be allocated (the
 * OpenMP region ran on one thread with its if-clause false). */
static void test_bin_cuts_allocation_failure(void **state)
{
    (void)state;
    static float values[3 * 50];
    for (int i = 0; i < 3 * 50; i++) values[i] = (float)(i % 17);
    const gpl_bin_sample sample = {3, 50, values, 50, NULL, NULL, NULL, NULL};
    for (long n = 1; n <= 2; n++) {
        gpl_bin_cuts cuts;
        gpl_alloc_fail_after(n);
        assert_out_of_memory(gpl_bin_cuts_from_sample(&sample, 256, 2, &cuts));
    }
    gpl_alloc_fail_after(0);
}

/* Runs train, predict, save and load with the nth allocation failing; returns
 * whether the failure happened (0: every step ran, n was past the last). */
static int run_with_failure(long n, const char *path)
{
    gpulayer_dataset *ds = small_data();
    gpulayer_booster *b = NULL, *loaded = NULL;
    float pred[ROWS];
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "objective", "binary:logistic"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "num_round", "3"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "nthread", "2"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "device", "cpu"), GPULAYER_OK);
    unlink(path);
    gpl_alloc_fail_after(n);
    gpulayer_status st = gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL);
    if (st == GPULAYER_OK) st = gpulayer_booster_predict(b, ds, 0, 0, pred, ROWS);
    if (st == GPULAYER_OK) st = gpulayer_booster_save(b, path);
    if (st == GPULAYER_OK) st = gpulayer_booster_load(path, &loaded);
    const int failed = gpl_alloc_fail_pending() == 0;
    gpl_alloc_fail_after(0);
    if (failed) {
        assert_out_of_memory(st);
        /* A failed save leaves no file; a failed load leaves the saved one. */
        if (access(path, F_OK) == 0) assert_null(loaded);
    } else {
        assert_int_equal(st, GPULAYER_OK);
    }
    gpulayer_booster_free(loaded);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
    return failed;
}

static void test_every_allocation_along_train_predict_save_load(void **state)
{
    (void)state;
    char path[] = "/tmp/gpulayer-alloc-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    long n = 1;
    while (run_with_failure(n, path)) n++;
    /* Some allocations went through the helpers, each failed once. */
    assert_true(n > 10);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bin_cuts_allocation_failure),
        cmocka_unit_test(test_every_allocation_along_train_predict_save_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
