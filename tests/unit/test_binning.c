/* test_binning.c -- quantile cuts and binning. */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "binning.h"
#include "gpulayer.h"

static gpulayer_dataset *column(const float *v, int64_t n, const float *w)
{
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(v, n, 1, GPULAYER_COL_MAJOR, NULL, w, &ds),
                     GPULAYER_OK);
    return ds;
}

/* Few distinct values: one bin each, thresholds between neighbours. */
static void test_distinct_values_get_own_bins(void **state)
{
    (void)state;
    float v[] = {3, 1, 2, 2, NAN, 1, 3, 3};
    gpulayer_dataset *ds = column(v, 8, NULL);
    gpl_bin_cuts cuts;
    assert_int_equal(gpl_bin_cuts_build(ds, 256, 1, &cuts), GPULAYER_OK);
    assert_int_equal(cuts.cut_ptr[1], 2);
    assert_true(cuts.values[0] > 1 && cuts.values[0] <= 2);
    assert_true(cuts.values[1] > 2 && cuts.values[1] <= 3);
    uint8_t *bins;
    assert_int_equal(gpl_bin_matrix(&cuts, ds, 1, &bins), GPULAYER_OK);
    uint8_t expect[] = {3, 1, 2, 2, 0, 1, 3, 3};
    assert_memory_equal(bins, expect, 8);
    free(bins);
    gpl_bin_cuts_free(&cuts);
    gpulayer_dataset_free(ds);
}

/* Many distinct values: at most max_bin - 1 value bins, roughly equal
 * counts, and every bin index inside the histogram. */
static void test_quantiles_are_balanced(void **state)
{
    (void)state;
    const int64_t n = 100000;
    float *v = malloc(sizeof(float) * n);
    for (int64_t i = 0; i < n; i++) v[i] = (float)((i * 7919) % n);
    gpulayer_dataset *ds = column(v, n, NULL);
    gpl_bin_cuts cuts;
    assert_int_equal(gpl_bin_cuts_build(ds, 16, 2, &cuts), GPULAYER_OK);
    uint32_t nc = cuts.cut_ptr[1];
    assert_true(nc <= 14 && nc >= 10);
    for (uint32_t i = 1; i < nc; i++) assert_true(cuts.values[i] > cuts.values[i - 1]);
    uint8_t *bins;
    assert_int_equal(gpl_bin_matrix(&cuts, ds, 2, &bins), GPULAYER_OK);
    int64_t count[256] = {0};
    for (int64_t i = 0; i < n; i++) count[bins[i]]++;
    assert_int_equal(count[0], 0);
    for (uint32_t b = 1; b <= nc + 1; b++) {
        assert_true(count[b] > n / 30);
        assert_true(count[b] < n / 8);
    }
    free(bins);
    free(v);
    gpl_bin_cuts_free(&cuts);
    gpulayer_dataset_free(ds);
}

/* Weights move the quantiles: heavy rows get finer bins. */
static void test_weighted_quantiles(void **state)
{
    (void)state;
    const int64_t n = 1000;
    float *v = malloc(sizeof(float) * n), *w = malloc(sizeof(float) * n);
    for (int64_t i = 0; i < n; i++) {
        v[i] = (float)i;
        w[i] = i < 100 ? 100.0f : 1.0f; /* the first 10% hold ~92% of weight */
    }
    gpulayer_dataset *ds = column(v, n, w);
    gpl_bin_cuts cuts;
    assert_int_equal(gpl_bin_cuts_build(ds, 11, 1, &cuts), GPULAYER_OK);
    int below = 0;
    for (uint32_t i = 0; i < cuts.cut_ptr[1]; i++) below += cuts.values[i] < 100.0f;
    assert_true(below >= 7);
    free(v);
    free(w);
    gpl_bin_cuts_free(&cuts);
    gpulayer_dataset_free(ds);
}

/* The bin holding value x holds no value above x, and below x values of
 * a total weight under limit. */
static void assert_heavy_bin(const float *v, const float *w, int64_t n, float x, double limit,
                             const uint8_t *bins)
{
    int x_bin = -1;
    for (int64_t i = 0; i < n; i++)
        if (v[i] == x) x_bin = bins[i];
    assert_true(x_bin > 0);
    double below = 0.0;
    for (int64_t i = 0; i < n; i++) {
        if (v[i] == x || bins[i] != x_bin) continue;
        if (v[i] > x) fail_msg("%g shares the bin of the heavy value %g", (double)v[i], (double)x);
        below += w ? w[i] : 1.0;
    }
    if (below >= limit)
        fail_msg("values of weight %g below %g share its bin (limit %g)", below, (double)x, limit);
}

/* A value carrying more than a bin's share of the rows (a round price, a
 * whole carat) ends its bin, with at most half a bin of values below it
 * there; by weight as well as by count. */
static void test_heavy_values_get_own_bins(void **state)
{
    (void)state;
    const int64_t n = 12000;
    const int max_bin = 16; /* 15 value bins */
    float *v = malloc(sizeof(float) * n), *w = malloc(sizeof(float) * n);
    for (int64_t i = 0; i < n; i++) {
        v[i] = i < 2000 ? 0.5f : (float)((i * 7919) % 10000) / 10000.0f + 0.00005f;
        w[i] = 1.0f;
    }
    gpulayer_dataset *ds = column(v, n, NULL);
    gpl_bin_cuts cuts;
    uint8_t *bins;
    assert_int_equal(gpl_bin_cuts_build(ds, max_bin, 1, &cuts), GPULAYER_OK);
    assert_true(cuts.cut_ptr[1] <= 14);
    assert_int_equal(gpl_bin_matrix(&cuts, ds, 1, &bins), GPULAYER_OK);
    /* Half of the mean bin of the other 10,000 rows over 14 bins. */
    assert_heavy_bin(v, NULL, n, 0.5f, 0.5 * 10000.0 / 14.0, bins);
    free(bins);
    gpl_bin_cuts_free(&cuts);
    gpulayer_dataset_free(ds);

    /* One row of weight 3,000 among 10,000 rows of weight 1. */
    for (int64_t i = 0; i < 2000; i++) v[i] = NAN;
    v[0] = 0.25f;
    w[0] = 3000.0f;
    ds = column(v, n, w);
    assert_int_equal(gpl_bin_cuts_build(ds, max_bin, 1, &cuts), GPULAYER_OK);
    assert_int_equal(gpl_bin_matrix(&cuts, ds, 1, &bins), GPULAYER_OK);
    assert_heavy_bin(v, w, n, 0.25f, 0.5 * 10000.0 / 14.0, bins);
    free(bins);
    gpl_bin_cuts_free(&cuts);
    gpulayer_dataset_free(ds);
    free(v);
    free(w);
}

static void test_all_missing_and_bad_max_bin(void **state)
{
    (void)state;
    float v[] = {NAN, NAN, NAN};
    gpulayer_dataset *ds = column(v, 3, NULL);
    gpl_bin_cuts cuts;
    assert_int_equal(gpl_bin_cuts_build(ds, 256, 1, &cuts), GPULAYER_OK);
    assert_int_equal(cuts.cut_ptr[1], 0);
    uint32_t *off;
    assert_int_equal(gpl_feature_offsets(&cuts, &off), GPULAYER_OK);
    assert_int_equal(off[1], 2);
    free(off);
    gpl_bin_cuts_free(&cuts);
    assert_int_equal(gpl_bin_cuts_build(ds, 65537, 1, &cuts), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "max_bin"));
    gpulayer_dataset_free(ds);
}

/* 256 value slots: 255 value bins + the missing bin fit a uint8. */
static void test_max_bin_256_fits_uint8(void **state)
{
    (void)state;
    const int64_t n = 5000;
    float *v = malloc(sizeof(float) * n);
    for (int64_t i = 0; i < n; i++) v[i] = (float)i * 0.5f;
    gpulayer_dataset *ds = column(v, n, NULL);
    gpl_bin_cuts cuts;
    assert_int_equal(gpl_bin_cuts_build(ds, 256, 1, &cuts), GPULAYER_OK);
    assert_true(cuts.cut_ptr[1] <= 254);
    assert_true(cuts.cut_ptr[1] >= 250);
    assert_int_equal(gpl_bin_of(cuts.values, cuts.cut_ptr[1], 1e30f), cuts.cut_ptr[1] + 1);
    assert_int_equal(gpl_bin_of(cuts.values, cuts.cut_ptr[1], -1e30f), 1);
    free(v);
    gpl_bin_cuts_free(&cuts);
    gpulayer_dataset_free(ds);
}

/* The eight-lane search gives gpl_bin_of's bin for every threshold count
 * (0, powers of two and their neighbours, 254 for byte codes, 255 up to
 * GPL_MAX_CUTS for 16-bit ones), for values on, just beside and between
 * thresholds, infinities, -0, NaN, and counts not a multiple of eight. */
static void test_bin_values_match_search(void **state)
{
    (void)state;
    const uint32_t counts[] = {0,   1,   2,   3,    7,    8,    15,   16,          17,
                               100, 127, 128, 254,  255,  256,  1000, GPL_MAX_CUTS};
    enum { N = 1003, STRIDE = 3 };
    float *values = malloc(sizeof(float) * N);
    uint8_t *out = malloc((size_t)N * STRIDE * 2);
    float *cut_values = malloc(sizeof(float) * GPL_MAX_CUTS);
    uint32_t cut_ptr[2] = {0, 0};
    gpl_bin_cuts cuts = {1, cut_ptr, cut_values};
    srand(7);
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        uint32_t n = counts[c];
        cut_ptr[1] = n;
        for (uint32_t i = 0; i < n; i++) cut_values[i] = (float)i * 0.25f - 10.0f;
        for (int i = 0; i < N; i++) {
            float t = n ? cut_values[rand() % n] : 0.0f;
            switch (i % 8) {
            case 0: values[i] = t; break;
            case 1: values[i] = nextafterf(t, -INFINITY); break;
            case 2: values[i] = nextafterf(t, INFINITY); break;
            case 3: values[i] = (float)(rand() % 10000) * 0.01f - 50.0f; break;
            case 4: values[i] = NAN; break;
            case 5: values[i] = i % 16 < 8 ? INFINITY : -INFINITY; break;
            case 6: values[i] = -0.0f; break;
            default: values[i] = t + 0.125f;
            }
        }
        gpl_padded_cuts *padded = gpl_padded_cuts_all(&cuts);
        assert_non_null(padded);
        const int w = gpl_bin_code_bytes(&cuts);
        assert_int_equal(w, n > GPL_BYTE_CUTS ? 2 : 1);
        for (int64_t len = N; len >= N - 9; len -= 3) {
            memset(out, 0xAB, (size_t)N * STRIDE * 2);
            gpl_bin_values(padded, values, len, out, STRIDE, w);
            for (int64_t i = 0; i < len; i++)
                assert_int_equal(gpl_bin_code(out, w, i * STRIDE),
                                 gpl_bin_of(cut_values, n, values[i]));
            assert_int_equal(out[w], 0xAB); /* only the strided codes written */
        }
        free(padded);
    }
    free(values);
    free(cut_values);
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distinct_values_get_own_bins),
        cmocka_unit_test(test_quantiles_are_balanced),
        cmocka_unit_test(test_weighted_quantiles),
        cmocka_unit_test(test_heavy_values_get_own_bins),
        cmocka_unit_test(test_all_missing_and_bad_max_bin),
        cmocka_unit_test(test_max_bin_256_fits_uint8),
        cmocka_unit_test(test_bin_values_match_search),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
