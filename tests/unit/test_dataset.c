/* test_dataset.c -- the dataset object built from memory: layouts, labels,
 * weights, names, categories and argument checks. */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "binning.h"
#include "dataset.h"

static void assert_contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle))
        fail_msg("message \"%s\" lacks \"%s\"", haystack, needle);
}

static void expect_invalid(gpulayer_status st, const char *needle)
{
    assert_int_equal(st, GPULAYER_ERR_INVALID_ARGUMENT);
    assert_contains(gpulayer_last_error(), needle);
}

/* 3 rows x 2 columns, one value missing. */
static const float row_major[6] = {1, 2, 3, NAN, 5, 6};
static const float col_major[6] = {1, 3, 5, 2, NAN, 6};
static const float labels[3] = {0, 1, 0};

static void assert_shape_and_values(const gpulayer_dataset *ds)
{
    assert_int_equal(gpulayer_dataset_num_rows(ds), 3);
    assert_int_equal(gpulayer_dataset_num_cols(ds), 2);
    assert_true(gpl_dataset_value(ds, 0, 0) == 1 && gpl_dataset_value(ds, 0, 1) == 2);
    assert_true(gpl_dataset_value(ds, 1, 0) == 3 && isnan(gpl_dataset_value(ds, 1, 1)));
    assert_true(gpl_dataset_value(ds, 2, 0) == 5 && gpl_dataset_value(ds, 2, 1) == 6);
    /* Stored column-major whatever the input layout. */
    for (int i = 0; i < 6; i++)
        if (isnan(col_major[i])) assert_true(isnan(ds->values[i]));
        else assert_true(ds->values[i] == col_major[i]);
}

static void test_from_dense_layouts(void **state)
{
    (void)state;
    gpulayer_dataset *ds = NULL;
    assert_int_equal(gpulayer_dataset_from_dense(row_major, 3, 2, GPULAYER_ROW_MAJOR,
                                                 labels, NULL, &ds),
                     GPULAYER_OK);
    assert_shape_and_values(ds);
    float got[3];
    assert_int_equal(gpulayer_dataset_get_label(ds, got, 3), GPULAYER_OK);
    assert_memory_equal(got, labels, sizeof labels);
    assert_null(ds->weight);
    assert_null(ds->feature_names);
    assert_null(gpulayer_dataset_feature_name(ds, 0));
    gpulayer_dataset_free(ds);

    const float w[3] = {1, 0.5f, 2};
    assert_int_equal(gpulayer_dataset_from_dense(col_major, 3, 2, GPULAYER_COL_MAJOR,
                                                 NULL, w, &ds),
                     GPULAYER_OK);
    assert_shape_and_values(ds);
    assert_null(ds->label);
    assert_memory_equal(ds->weight, w, sizeof w);
    gpulayer_dataset_free(ds);
}

/* Larger than one transpose block, with a ragged last block. */
static void test_from_dense_transpose_large(void **state)
{
    (void)state;
    const int64_t rows = 1000;
    const int32_t cols = 37;
    float *data = malloc((size_t)rows * cols * sizeof *data);
    assert_non_null(data);
    for (int64_t r = 0; r < rows; r++)
        for (int32_t c = 0; c < cols; c++) data[r * cols + c] = (float)(r * 100 + c);
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(data, rows, cols, GPULAYER_ROW_MAJOR,
                                                 NULL, NULL, &ds),
                     GPULAYER_OK);
    for (int64_t r = 0; r < rows; r++)
        for (int32_t c = 0; c < cols; c++)
            assert_true(gpl_dataset_value(ds, r, c) == (float)(r * 100 + c));
    gpulayer_dataset_free(ds);
    free(data);
}

static void test_from_dense_errors(void **state)
{
    (void)state;
    gpulayer_dataset *ds = (gpulayer_dataset *)1;
    expect_invalid(gpulayer_dataset_from_dense(NULL, 3, 2, GPULAYER_ROW_MAJOR, NULL,
                                               NULL, &ds), "data is NULL");
    assert_null(ds);
    expect_invalid(gpulayer_dataset_from_dense(row_major, 3, 2, GPULAYER_ROW_MAJOR,
                                               NULL, NULL, NULL), "out is NULL");
    expect_invalid(gpulayer_dataset_from_dense(row_major, -1, 2, GPULAYER_ROW_MAJOR,
                                               NULL, NULL, &ds), "-1 rows");
    expect_invalid(gpulayer_dataset_from_dense(row_major, 3, 0, GPULAYER_ROW_MAJOR,
                                               NULL, NULL, &ds), "0 columns");
    expect_invalid(gpulayer_dataset_from_dense(row_major, 3, -1, GPULAYER_ROW_MAJOR,
                                               NULL, NULL, &ds), "-1 columns");
    expect_invalid(gpulayer_dataset_from_dense(row_major, 3, 2, (gpulayer_layout)7,
                                               NULL, NULL, &ds), "layout");
    expect_invalid(gpulayer_dataset_from_dense(row_major, INT64_MAX / 2, 1 << 30,
                                               GPULAYER_ROW_MAJOR, NULL, NULL, &ds),
                   "too large");
    const float bad_label[3] = {0, NAN, 1};
    expect_invalid(gpulayer_dataset_from_dense(row_major, 3, 2, GPULAYER_ROW_MAJOR,
                                               bad_label, NULL, &ds), "label[1] is NaN");
    const float bad_weight[3] = {1, 1, -2};
    expect_invalid(gpulayer_dataset_from_dense(row_major, 3, 2, GPULAYER_ROW_MAJOR,
                                               NULL, bad_weight, &ds),
                   "weight[2] is negative");
    assert_null(ds);
}

static gpulayer_dataset *small(void)
{
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(row_major, 3, 2, GPULAYER_ROW_MAJOR,
                                                 NULL, NULL, &ds),
                     GPULAYER_OK);
    return ds;
}

/* Zero rows make a dataset (to predict nothing on), dense or sparse. */
static void test_zero_rows(void **state)
{
    (void)state;
    gpulayer_dataset *ds = NULL;
    assert_int_equal(gpulayer_dataset_from_dense(row_major, 0, 2, GPULAYER_ROW_MAJOR,
                                                 row_major, NULL, &ds), GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_num_rows(ds), 0);
    assert_int_equal(gpulayer_dataset_num_cols(ds), 2);
    gpulayer_dataset_free(ds);
    const int64_t indptr[1] = {0};
    const int32_t indices[1] = {0};
    const float data[1] = {0};
    assert_int_equal(gpulayer_dataset_from_csr(indptr, indices, data, 0, 3, NULL, NULL, &ds),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_num_rows(ds), 0);
    assert_int_equal(gpulayer_dataset_num_cols(ds), 3);
    gpulayer_dataset_free(ds);
}

static void test_label_and_weight(void **state)
{
    (void)state;
    gpulayer_dataset *ds = small();
    float got[4];
    expect_invalid(gpulayer_dataset_get_label(ds, got, 3), "no labels");
    expect_invalid(gpulayer_dataset_set_label(ds, labels, 2), "got 2 values");
    expect_invalid(gpulayer_dataset_set_label(ds, NULL, 3), "NULL");
    expect_invalid(gpulayer_dataset_set_label(NULL, labels, 3), "NULL");
    const float inf_label[3] = {0, INFINITY, 0};
    expect_invalid(gpulayer_dataset_set_label(ds, inf_label, 3), "infinite");
    assert_int_equal(gpulayer_dataset_set_label(ds, labels, 3), GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_set_label(ds, labels, 3), GPULAYER_OK); /* replace */
    expect_invalid(gpulayer_dataset_get_label(ds, got, 2), "out holds 2");
    assert_int_equal(gpulayer_dataset_get_label(ds, got, 4), GPULAYER_OK);
    assert_memory_equal(got, labels, sizeof labels);
    expect_invalid(gpulayer_dataset_get_label(ds, NULL, 3), "NULL");

    const float w[3] = {2, 2, 2};
    assert_int_equal(gpulayer_dataset_set_weight(ds, w, 3), GPULAYER_OK);
    assert_true(ds->weight[1] == 2);
    const float nan_w[3] = {1, NAN, 1};
    expect_invalid(gpulayer_dataset_set_weight(ds, nan_w, 3), "NaN");
    assert_true(ds->weight[1] == 2); /* unchanged after a refusal */
    assert_int_equal(gpulayer_dataset_set_weight(ds, NULL, 3), GPULAYER_OK);
    assert_null(ds->weight);
    gpulayer_dataset_free(ds);
}

static void test_feature_names(void **state)
{
    (void)state;
    gpulayer_dataset *ds = small();
    const char *names[2] = {"x", "y"};
    expect_invalid(gpulayer_dataset_set_feature_names(ds, names, 3), "got 3 names");
    assert_int_equal(gpulayer_dataset_set_feature_names(ds, names, 2), GPULAYER_OK);
    assert_string_equal(gpulayer_dataset_feature_name(ds, 0), "x");
    assert_string_equal(gpulayer_dataset_feature_name(ds, 1), "y");
    assert_null(gpulayer_dataset_feature_name(ds, 2));
    assert_null(gpulayer_dataset_feature_name(ds, -1));
    const char *dup[2] = {"x", "x"};
    expect_invalid(gpulayer_dataset_set_feature_names(ds, dup, 2), "'x' is given twice");
    assert_string_equal(gpulayer_dataset_feature_name(ds, 1), "y"); /* kept */
    /* The first column, in order, whose name came before: column 2's 'b'. */
    gpulayer_dataset *wide = NULL;
    const float four[4] = {1, 2, 3, 4};
    assert_int_equal(gpulayer_dataset_from_dense(four, 1, 4, GPULAYER_ROW_MAJOR, NULL, NULL, &wide), GPULAYER_OK);
    const char *repeats[4] = {"a", "b", "b", "a"};
    expect_invalid(gpulayer_dataset_set_feature_names(wide, repeats, 4),
                   "'b' is given twice (at 2)");
    const char *blanks[4] = {"", "c", "", NULL}; /* unnamed columns may repeat */
    assert_int_equal(gpulayer_dataset_set_feature_names(wide, blanks, 4), GPULAYER_OK);
    gpulayer_dataset_free(wide);
    const char *partial[2] = {NULL, "b"};
    assert_int_equal(gpulayer_dataset_set_feature_names(ds, partial, 2), GPULAYER_OK);
    assert_null(gpulayer_dataset_feature_name(ds, 0));
    assert_string_equal(gpulayer_dataset_feature_name(ds, 1), "b");
    assert_int_equal(gpulayer_dataset_set_feature_names(ds, NULL, 0), GPULAYER_OK);
    assert_null(gpulayer_dataset_feature_name(ds, 1));
    gpulayer_dataset_free(ds);
}

static void test_categories(void **state)
{
    (void)state;
    const float data[4] = {0, 2, NAN, 1}; /* one column of codes */
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(data, 4, 1, GPULAYER_COL_MAJOR, NULL,
                                                 NULL, &ds),
                     GPULAYER_OK);
    const char *names[3] = {"blue", "green", "red"};
    expect_invalid(gpulayer_dataset_set_categories(ds, 1, names, 3), "out of range");
    expect_invalid(gpulayer_dataset_set_categories(ds, 0, names, 2),
                   "row 1 holds 2, which is not a category code (0 to 1)");
    const char *unsorted[3] = {"red", "blue", "green"};
    expect_invalid(gpulayer_dataset_set_categories(ds, 0, unsorted, 3), "sorted");
    const char *dup[3] = {"a", "a", "b"};
    expect_invalid(gpulayer_dataset_set_categories(ds, 0, dup, 3), "distinct");
    const char *with_null[3] = {"a", NULL, "b"};
    expect_invalid(gpulayer_dataset_set_categories(ds, 0, with_null, 3), "NULL");
    expect_invalid(gpulayer_dataset_set_categories(ds, 0, NULL, 3), "NULL");
    assert_null(ds->categories);

    assert_int_equal(gpulayer_dataset_set_categories(ds, 0, names, 3), GPULAYER_OK);
    assert_non_null(ds->categories);
    assert_int_equal(ds->categories[0]->count, 3);
    assert_string_equal(ds->categories[0]->names[2], "red");
    const char *more[4] = {"a", "b", "c", "d"};
    assert_int_equal(gpulayer_dataset_set_categories(ds, 0, more, 4), GPULAYER_OK);
    assert_int_equal(ds->categories[0]->count, 4);
    gpulayer_dataset_free(ds);

    const float frac[2] = {0.5f, 1};
    assert_int_equal(gpulayer_dataset_from_dense(frac, 2, 1, GPULAYER_COL_MAJOR, NULL,
                                                 NULL, &ds),
                     GPULAYER_OK);
    expect_invalid(gpulayer_dataset_set_categories(ds, 0, names, 3), "holds 0.5");
    gpulayer_dataset_free(ds);
}

static void test_null_handles(void **state)
{
    (void)state;
    assert_int_equal(gpulayer_dataset_num_rows(NULL), 0);
    assert_int_equal(gpulayer_dataset_num_cols(NULL), 0);
    assert_null(gpulayer_dataset_feature_name(NULL, 0));
    gpulayer_dataset_free(NULL);
    gpl_category_dict_free(NULL);
    expect_invalid(gpulayer_dataset_set_feature_names(NULL, NULL, 0), "NULL");
    expect_invalid(gpulayer_dataset_set_categories(NULL, 0, NULL, 0), "NULL");
    expect_invalid(gpulayer_dataset_set_weight(NULL, NULL, 0), "NULL");
}

static void test_alloc(void **state)
{
    (void)state;
    gpulayer_dataset *ds;
    assert_int_equal(gpl_dataset_alloc(5, 3, &ds), GPULAYER_OK);
    assert_int_equal(ds->num_rows, 5);
    assert_int_equal(ds->num_cols, 3);
    assert_non_null(ds->values);
    assert_null(ds->label);
    assert_null(ds->categories);
    gpulayer_dataset_free(ds);
    assert_int_equal(gpl_dataset_alloc(-1, 3, &ds), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_null(ds);
}

/* Compressed rows: absent cells are missing; the binned matrix is the
 * dense one's byte for byte, without a dense copy. */
static void test_csr_bins_like_dense(void **state)
{
    (void)state;
    enum { R = 997, C = 13 };
    int64_t indptr[R + 1];
    int32_t *indices = malloc(sizeof(int32_t) * R * C);
    float *data = malloc(sizeof(float) * R * C), *dense = malloc(sizeof(float) * R * C);
    uint32_t s = 11;
    int64_t k = 0;
    indptr[0] = 0;
    for (int r = 0; r < R; r++) {
        for (int c = 0; c < C; c++) {
            s = s * 1664525u + 1013904223u;
            const int present = (s >> 28) < 5; /* about a third */
            const float v = (float)((s >> 8) % 1000) / 7.0f;
            dense[r * C + c] = present ? v : NAN;
            if (present) {
                indices[k] = c;
                data[k++] = v;
            }
        }
        indptr[r + 1] = k;
    }
    gpulayer_dataset *sp = NULL, *dn = NULL;
    assert_int_equal(gpulayer_dataset_from_csr(indptr, indices, data, R, C, NULL, NULL, &sp),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_from_dense(dense, R, C, GPULAYER_ROW_MAJOR, NULL, NULL,
                                                 &dn),
                     GPULAYER_OK);
    assert_null(sp->values);
    assert_int_equal(sp->sparse->col_start[C], k);
    for (int r = 0; r < R; r += 37)
        for (int c = 0; c < C; c++) {
            const float a = gpl_dataset_value(sp, r, c), b = gpl_dataset_value(dn, r, c);
            assert_true((isnan(a) && isnan(b)) || a == b);
        }
    gpl_bin_cuts cs, cd;
    assert_int_equal(gpl_bin_cuts_build(sp, 256, 2, &cs), GPULAYER_OK);
    assert_int_equal(gpl_bin_cuts_build(dn, 256, 2, &cd), GPULAYER_OK);
    assert_int_equal(cs.cut_ptr[C], cd.cut_ptr[C]);
    assert_memory_equal(cs.values, cd.values, sizeof(float) * cs.cut_ptr[C]);
    uint8_t *bs = NULL, *bd = NULL;
    assert_int_equal(gpl_bin_matrix(&cs, sp, 2, &bs), GPULAYER_OK);
    assert_int_equal(gpl_bin_matrix(&cd, dn, 2, &bd), GPULAYER_OK);
    assert_memory_equal(bs, bd, (size_t)R * C);
    free(bs);
    free(bd);
    gpl_bin_cuts_free(&cs);
    gpl_bin_cuts_free(&cd);
    gpulayer_dataset_free(sp);
    gpulayer_dataset_free(dn);
    free(indices);
    free(data);
    free(dense);
}

static void test_csr_refuses_bad_rows(void **state)
{
    (void)state;
    const int64_t indptr[3] = {0, 2, 4};
    const int32_t decreasing[4] = {0, 2, 3, 1}, outside[4] = {0, 2, 1, 9};
    const float data[4] = {1, 2, 3, 4};
    gpulayer_dataset *ds = NULL;
    assert_int_equal(gpulayer_dataset_from_csr(indptr, decreasing, data, 2, 4, NULL, NULL, &ds),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "row 1: column indexes must increase"));
    assert_int_equal(gpulayer_dataset_from_csr(indptr, outside, data, 2, 4, NULL, NULL, &ds),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "row 1 has column index 9, outside 0..3"));
    assert_null(ds);
}

/* Rows first..first+count of dense and sparse data, with their labels and
 * the column names; a range outside the data is refused. */
static void test_select_rows(void **state)
{
    (void)state;
    const float x[4 * 2] = {1, 2, 3, 4, 5, 6, 7, 8}; /* row major */
    const float y[4] = {0, 1, 2, 3};
    gpulayer_dataset *ds, *rows;
    assert_int_equal(gpulayer_dataset_from_dense(x, 4, 2, GPULAYER_ROW_MAJOR, y, NULL, &ds),
                     GPULAYER_OK);
    const char *names[2] = {"a", "b"};
    assert_int_equal(gpulayer_dataset_set_feature_names(ds, names, 2), GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_select_rows(ds, 1, 2, &rows), GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_num_rows(rows), 2);
    assert_string_equal(gpulayer_dataset_feature_name(rows, 1), "b");
    assert_true(rows->values[0] == 3 && rows->values[1] == 5 && rows->values[2] == 4 &&
                rows->values[3] == 6);
    assert_true(rows->label[0] == 1 && rows->label[1] == 2);
    gpulayer_dataset_free(rows);
    assert_int_equal(gpulayer_dataset_select_rows(ds, 3, 2, &rows),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "rows 3..5 are outside the data's 4 rows"));
    gpulayer_dataset_free(ds);
    const int64_t start[3] = {0, 1, 2};
    const int32_t index[2] = {1, 0};
    const float value[2] = {9, 7};
    assert_int_equal(gpulayer_dataset_from_csr(start, index, value, 2, 2, NULL, NULL, &ds),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_select_rows(ds, 1, 1, &rows), GPULAYER_OK);
    assert_true(rows->values[0] == 7 && isnan(rows->values[1]));
    gpulayer_dataset_free(rows);
    gpulayer_dataset_free(ds);
}

/* The counts the training report shows: categories and missing cells of
 * each column, dense and sparse; -1 for a column out of range. */
static void test_categories_and_missing_counts(void **state)
{
    (void)state;
    const float x[] = {0, 1.5f, NAN, 2, NAN, NAN, 1, 3, 7};
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(x, 3, 3, GPULAYER_ROW_MAJOR, NULL, NULL, &ds),
                     GPULAYER_OK);
    const char *names[] = {"a", "b", "c"};
    assert_int_equal(gpulayer_dataset_set_categories(ds, 0, names, 3), GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_num_categories(ds, 0), 3);
    assert_int_equal(gpulayer_dataset_num_categories(ds, 1), 0);
    assert_int_equal(gpulayer_dataset_num_categories(ds, 3), -1);
    assert_int_equal(gpulayer_dataset_num_missing(ds, 0), 0);
    assert_int_equal(gpulayer_dataset_num_missing(ds, 1), 1);
    assert_int_equal(gpulayer_dataset_num_missing(ds, 2), 2);
    assert_int_equal(gpulayer_dataset_num_missing(ds, -1), -1);
    gpulayer_dataset_free(ds);
    /* Sparse: absent cells and stored NaNs are both missing. */
    const int64_t indptr[] = {0, 2, 3, 3};
    const int32_t indices[] = {0, 2, 2};
    const float data[] = {1, NAN, 4};
    assert_int_equal(gpulayer_dataset_from_csr(indptr, indices, data, 3, 3, NULL, NULL, &ds),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_num_missing(ds, 0), 2);
    assert_int_equal(gpulayer_dataset_num_missing(ds, 1), 3);
    assert_int_equal(gpulayer_dataset_num_missing(ds, 2), 2);
    gpulayer_dataset_free(ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_from_dense_layouts),
        cmocka_unit_test(test_from_dense_transpose_large),
        cmocka_unit_test(test_from_dense_errors),
        cmocka_unit_test(test_zero_rows),
        cmocka_unit_test(test_label_and_weight),
        cmocka_unit_test(test_feature_names),
        cmocka_unit_test(test_categories),
        cmocka_unit_test(test_null_handles),
        cmocka_unit_test(test_alloc),
        cmocka_unit_test(test_csr_bins_like_dense),
        cmocka_unit_test(test_csr_refuses_bad_rows),
        cmocka_unit_test(test_select_rows),
        cmocka_unit_test(test_categories_and_missing_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
