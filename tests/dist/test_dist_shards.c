/* test_dist_shards.c -- the single-process pieces of data-parallel
 * training: shards that sample for the bin cuts what one process samples,
 * row slices, per-rank file names, and the inactive collectives layer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "binning.h"
#include "dataset.h"
#include "distributed/dist.h"
#include "distributed/dist_shard.h"
#include "error.h"

/* The sample of rows [first, first + count) in global row numbers. */
static int64_t sample(int64_t first, int64_t count, int64_t global, int64_t *out)
{
    int64_t *rows = NULL;
    int64_t n = gpl_bin_sample_rows(first, count, global, &rows);
    assert_true(n >= 0);
    for (int64_t i = 0; i < n; i++) out[i] = first + (rows ? rows[i] : i);
    free(rows);
    return n;
}

/* Shards in rank order, each sampling its own rows by global index, give
 * the rows one process samples, in the same order, for 1..5 shards; also
 * when every row is taken (small data). */
static void test_shards_sample_what_one_process_samples(void **state)
{
    (void)state;
    const int64_t sizes[] = {1000, 650001};
    for (size_t k = 0; k < 2; k++) {
        const int64_t n = sizes[k];
        int64_t *whole = malloc(sizeof(int64_t) * (size_t)n);
        int64_t *joined = malloc(sizeof(int64_t) * (size_t)n);
        assert_non_null(whole);
        assert_non_null(joined);
        int64_t expect = sample(0, n, n, whole);
        if (n > GPL_BIN_SAMPLE_ROWS) assert_true(expect < n);
        for (int parts = 1; parts <= 5; parts++) {
            int64_t got = 0;
            for (int r = 0; r < parts; r++) {
                int64_t first, count;
                gpl_dist_slice(n, r, parts, &first, &count);
                got += sample(first, count, n, joined + got);
            }
            if (got > GPL_BIN_SAMPLE_CAP) got = GPL_BIN_SAMPLE_CAP;
            assert_int_equal(got, expect);
            assert_memory_equal(joined, whole, sizeof(int64_t) * (size_t)expect);
        }
        free(whole);
        free(joined);
    }
}

static void test_slices_cover_every_row_once(void **state)
{
    (void)state;
    for (int64_t n = 0; n < 40; n++)
        for (int parts = 1; parts <= 7; parts++) {
            int64_t next = 0;
            for (int r = 0; r < parts; r++) {
                int64_t first, count;
                gpl_dist_slice(n, r, parts, &first, &count);
                assert_int_equal(first, next);
                assert_true(count >= n / parts && count <= n / parts + 1);
                next = first + count;
            }
            assert_int_equal(next, n);
        }
}

static void test_keep_rows_in_place(void **state)
{
    (void)state;
    /* 3 columns x 5 rows, column-major, with labels and weights. */
    float values[15], label[5], weight[5];
    for (int i = 0; i < 15; i++) values[i] = (float)i;
    for (int i = 0; i < 5; i++) {
        label[i] = (float)(100 + i);
        weight[i] = (float)(200 + i);
    }
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(values, 5, 3, GPULAYER_COL_MAJOR, label,
                                                 weight, &ds),
                     GPULAYER_OK);
    gpl_dist_keep_rows(ds, 1, 3);
    assert_int_equal(gpulayer_dataset_num_rows(ds), 3);
    const float expect[9] = {1, 2, 3, 6, 7, 8, 11, 12, 13};
    assert_memory_equal(ds->values, expect, sizeof expect);
    assert_true(ds->label[0] == 101 && ds->label[2] == 103);
    assert_true(ds->weight[0] == 201 && ds->weight[2] == 203);
    gpulayer_dataset_free(ds);
}

static void test_shard_path(void **state)
{
    (void)state;
    char *p = gpl_dist_shard_path("data/part_%d.csv", 12);
    assert_string_equal(p, "data/part_12.csv");
    free(p);
    /* Only the first %d is the rank; other % signs are left alone. */
    p = gpl_dist_shard_path("100%/x_%d_%s.csv", 0);
    assert_string_equal(p, "100%/x_0_%s.csv");
    free(p);
    assert_true(gpl_dist_is_pattern("a_%d.csv"));
    assert_false(gpl_dist_is_pattern("a.csv"));
}

/* Before gpl_dist_init (and always without MPI) the layer is one rank:
 * collectives leave data alone and agreement returns the local status. */
static void test_inactive_layer_is_one_rank(void **state)
{
    (void)state;
    assert_false(gpl_dist_active());
    assert_int_equal(gpl_dist_size(), 1);
    assert_int_equal(gpl_dist_rank(), 0);
    int64_t v[2] = {5, -3};
    gpl_dist_allreduce_i64(v, 2, GPL_DIST_SUM);
    assert_true(v[0] == 5 && v[1] == -3);
    float send[3] = {1, 2, 3};
    int64_t total = 0;
    float *all = gpl_dist_allgather_f32(send, 3, &total);
    assert_non_null(all);
    assert_int_equal(total, 3);
    assert_memory_equal(all, send, sizeof send);
    free(all);
    assert_int_equal(gpl_dist_agree(GPULAYER_OK), GPULAYER_OK);
    gpl_error(GPULAYER_ERR_IO, "local failure");
    assert_int_equal(gpl_dist_agree(GPULAYER_ERR_IO), GPULAYER_ERR_IO);
    assert_string_equal(gpulayer_last_error(), "local failure");
}

/* The public functions before gpulayer_dist_init: one rank that keeps
 * every row, and distributed training refused until the job is joined. */
static void test_public_api_before_joining(void **state)
{
    (void)state;
    assert_int_equal(gpulayer_dist_size(), 1);
    assert_int_equal(gpulayer_dist_rank(), 0);
    char *p = NULL;
    assert_int_equal(gpulayer_dist_shard_path("part_%d.csv", 3, &p), GPULAYER_OK);
    assert_string_equal(p, "part_3.csv");
    gpulayer_free_buffer(p);
    assert_true(gpulayer_dist_is_shard_pattern("part_%d.csv"));
    float values[4] = {1, 2, 3, 4}, label[4] = {0, 1, 0, 1};
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(values, 4, 1, GPULAYER_COL_MAJOR, label,
                                                 NULL, &ds),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_dist_keep_slice(ds), GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_num_rows(ds), 4);
    int64_t first = -1, total = -1;
    assert_int_equal(gpulayer_dist_row_place(4, &first, &total), GPULAYER_OK);
    assert_true(first == 0 && total == 4);
    gpulayer_booster *b;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train_distributed(b, ds, NULL, NULL, 0, NULL, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "gpulayer_dist_init"));
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shards_sample_what_one_process_samples),
        cmocka_unit_test(test_slices_cover_every_row_once),
        cmocka_unit_test(test_keep_rows_in_place),
        cmocka_unit_test(test_shard_path),
        cmocka_unit_test(test_inactive_layer_is_one_rank),
        cmocka_unit_test(test_public_api_before_joining),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
