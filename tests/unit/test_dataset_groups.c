/* test_dataset_groups.c -- query groups on datasets: the C API (sizes,
 * query ids), the readers (CSV/TSV qid column, LibSVM qid:N tokens, group
 * files), and datasets made from others. */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"

static void assert_contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle))
        fail_msg("message \"%s\" lacks \"%s\"", haystack, needle);
}

static void expect_error(gpulayer_status st, gpulayer_status want, const char *needle)
{
    assert_int_equal(st, want);
    assert_contains(gpulayer_last_error(), needle);
}

static void assert_groups(const gpulayer_dataset *ds, const int64_t *want, int64_t n)
{
    assert_int_equal(gpulayer_dataset_num_groups(ds), n);
    int64_t got[16];
    assert_int_equal(gpulayer_dataset_get_group(ds, got, 16), GPULAYER_OK);
    for (int64_t q = 0; q < n; q++) assert_int_equal(got[q], want[q]);
}

/* 6 rows x 2 columns. */
static gpulayer_dataset *six_rows(void)
{
    static const float x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    gpulayer_dataset *ds = NULL;
    assert_int_equal(gpulayer_dataset_from_dense(x, 6, 2, GPULAYER_ROW_MAJOR, NULL, NULL, &ds),
                     GPULAYER_OK);
    return ds;
}

/* ------------------------------------------------------------------ API */

static void test_set_group(void **state)
{
    (void)state;
    gpulayer_dataset *ds = six_rows();
    assert_int_equal(gpulayer_dataset_num_groups(ds), 0);
    int64_t out[4];
    expect_error(gpulayer_dataset_get_group(ds, out, 4), GPULAYER_ERR_INVALID_ARGUMENT,
                 "has no query groups");
    const int64_t sizes[3] = {2, 3, 1};
    assert_int_equal(gpulayer_dataset_set_group(ds, sizes, 3), GPULAYER_OK);
    assert_groups(ds, sizes, 3);
    assert_true(ds->group_ptr[0] == 0 && ds->group_ptr[3] == 6);
    expect_error(gpulayer_dataset_get_group(ds, out, 2), GPULAYER_ERR_INVALID_ARGUMENT,
                 "sizes holds 2 values, but the dataset has 3 groups");

    const int64_t short_sizes[2] = {2, 3};
    expect_error(gpulayer_dataset_set_group(ds, short_sizes, 2),
                 GPULAYER_ERR_INVALID_ARGUMENT, "add up to 5 rows, but the data have 6 rows");
    const int64_t zero[3] = {3, 0, 3};
    expect_error(gpulayer_dataset_set_group(ds, zero, 3), GPULAYER_ERR_INVALID_ARGUMENT,
                 "group 2 has size 0");
    expect_error(gpulayer_dataset_set_group(ds, sizes, 0), GPULAYER_ERR_INVALID_ARGUMENT,
                 "0 groups given");
    assert_groups(ds, sizes, 3); /* a refusal leaves the groups alone */

    assert_int_equal(gpulayer_dataset_set_group(ds, NULL, 0), GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_num_groups(ds), 0);
    assert_null(ds->group_ptr);
    gpulayer_dataset_free(ds);
}

static void test_set_qid(void **state)
{
    (void)state;
    gpulayer_dataset *ds = six_rows();
    const int64_t qid[6] = {7, 7, 9, 9, 9, 30};
    assert_int_equal(gpulayer_dataset_set_qid(ds, qid, 6), GPULAYER_OK);
    const int64_t want[3] = {2, 3, 1};
    assert_groups(ds, want, 3);

    const int64_t unsorted[6] = {7, 7, 9, 8, 8, 30};
    expect_error(gpulayer_dataset_set_qid(ds, unsorted, 6), GPULAYER_ERR_INVALID_ARGUMENT,
                 "gpulayer_dataset_set_qid: row 4 (counted from 1): qid 8 follows qid 9: qids must be "
                 "non-decreasing");
    const int64_t split[6] = {7, 7, 9, 7, 9, 30};
    expect_error(gpulayer_dataset_set_qid(ds, split, 6), GPULAYER_ERR_INVALID_ARGUMENT,
                 "row 4 (counted from 1): qid 7 follows qid 9, but query 7 had rows before");
    expect_error(gpulayer_dataset_set_qid(ds, qid, 5), GPULAYER_ERR_INVALID_ARGUMENT,
                 "got 5 query ids, but the dataset has 6 rows");
    assert_groups(ds, want, 3);

    const int64_t one[6] = {-4, -4, -4, -4, -4, -4};
    assert_int_equal(gpulayer_dataset_set_qid(ds, one, 6), GPULAYER_OK);
    const int64_t all[1] = {6};
    assert_groups(ds, all, 1);
    assert_int_equal(gpulayer_dataset_set_qid(ds, NULL, 0), GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_num_groups(ds), 0);
    gpulayer_dataset_free(ds);
}

static void test_derived_datasets_keep_groups(void **state)
{
    (void)state;
    gpulayer_dataset *ds = six_rows();
    const int64_t sizes[2] = {4, 2};
    assert_int_equal(gpulayer_dataset_set_group(ds, sizes, 2), GPULAYER_OK);
    const int32_t cols[1] = {1};
    gpulayer_dataset *sel = NULL;
    assert_int_equal(gpulayer_dataset_select_columns(ds, cols, 1, &sel), GPULAYER_OK);
    assert_groups(sel, sizes, 2);
    gpulayer_dataset_free(sel);
    gpulayer_dataset_free(ds);

    /* Sparse data: a dense copy keeps them, turning dense in place too. */
    const int64_t indptr[5] = {0, 1, 2, 2, 3};
    const int32_t indices[3] = {0, 1, 0};
    const float data[3] = {1, 2, 3};
    gpulayer_dataset *sp = NULL;
    assert_int_equal(gpulayer_dataset_from_csr(indptr, indices, data, 4, 2, NULL, NULL, &sp),
                     GPULAYER_OK);
    const int64_t q[4] = {1, 2, 2, 3};
    assert_int_equal(gpulayer_dataset_set_qid(sp, q, 4), GPULAYER_OK);
    gpulayer_dataset *dense = NULL;
    assert_int_equal(gpl_dataset_dense_copy(sp, &dense), GPULAYER_OK);
    assert_non_null(dense);
    const int64_t want[3] = {1, 2, 1};
    assert_groups(dense, want, 3);
    gpulayer_dataset_free(dense);
    assert_int_equal(gpl_dataset_make_dense(sp), GPULAYER_OK);
    assert_groups(sp, want, 3);
    gpulayer_dataset_free(sp);
}

static void test_keep_groups_of_a_slice(void **state)
{
    (void)state;
    gpulayer_dataset *ds = six_rows();
    const int64_t sizes[3] = {2, 3, 1};
    assert_int_equal(gpulayer_dataset_set_group(ds, sizes, 3), GPULAYER_OK);
    expect_error(gpl_dataset_keep_groups(ds, 0, 3), GPULAYER_ERR_INVALID_ARGUMENT,
                 "rows 1 to 3 cut query group 2 (rows 3 to 5) in two");
    expect_error(gpl_dataset_keep_groups(ds, 3, 3), GPULAYER_ERR_INVALID_ARGUMENT,
                 "rows 4 to 6 cut query group 2 (rows 3 to 5) in two");
    assert_groups(ds, sizes, 3); /* refused before anything changed */
    assert_int_equal(gpl_dataset_keep_groups(ds, 2, 4), GPULAYER_OK);
    const int64_t rest[2] = {3, 1};
    assert_groups(ds, rest, 2);
    assert_true(ds->group_ptr[0] == 0 && ds->group_ptr[2] == 4);
    assert_int_equal(gpl_dataset_keep_groups(ds, 0, 0), GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_num_groups(ds), 0);
    gpulayer_dataset_free(ds);
}

/* -------------------------------------------------------------- readers */

static gpulayer_status read_csv(const char *text, const char *qid, const char *group_file,
                                gpulayer_dataset **out)
{
    gpulayer_read_options o;
    memset(&o, 0, sizeof o);
    o.label = "y";
    o.qid_column = qid;
    o.group_file = group_file;
    return gpulayer_dataset_read_file(gpl_test_write_file("groups.csv", text), &o, out);
}

static void test_csv_qid_column(void **state)
{
    (void)state;
    gpulayer_dataset *ds = NULL;
    assert_int_equal(read_csv("y,q,a\n1,10,0.5\n0,10,1\n2,11,3\n0,12,4\n", "q", NULL, &ds),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_num_cols(ds), 1); /* not a feature */
    assert_string_equal(gpulayer_dataset_feature_name(ds, 0), "a");
    const int64_t want[3] = {2, 1, 1};
    assert_groups(ds, want, 3);
    gpulayer_dataset_free(ds);

    /* By 0-based index, in a file without a header. */
    gpulayer_read_options o;
    memset(&o, 0, sizeof o);
    o.no_header = 1;
    o.qid_column = "1";
    assert_int_equal(gpulayer_dataset_read_file(gpl_test_write_file("nohdr.tsv",
                                                    "1\t5\t0.5\n0\t6\t1\n0\t6\t2\n"), &o, &ds),
                     GPULAYER_OK);
    const int64_t want2[2] = {1, 2};
    assert_groups(ds, want2, 2);
    assert_int_equal(gpulayer_dataset_num_cols(ds), 1);
    gpulayer_dataset_free(ds);
}

static void test_csv_qid_refusals(void **state)
{
    (void)state;
    gpulayer_dataset *ds = NULL;
    expect_error(read_csv("y,q,a\n1,10,0.5\n0,x1,1\n", "q", NULL, &ds), GPULAYER_ERR_PARSE,
                 "line 3, column 2 ('q'): qid 'x1' is not a number");
    assert_null(ds);
    expect_error(read_csv("y,q,a\n1,10,0.5\n0,NaN,1\n", "q", NULL, &ds), GPULAYER_ERR_PARSE,
                 "line 3, column 2 ('q'): the qid is missing");
    expect_error(read_csv("y,q,a\n1,1.5,0.5\n", "q", NULL, &ds), GPULAYER_ERR_PARSE,
                 "line 2, column 2 ('q'): qid '1.5' is not a whole number");
    expect_error(read_csv("y,q,a\n1,3,0.5\n0,3,1\n0,2,1\n", "q", NULL, &ds),
                 GPULAYER_ERR_PARSE,
                 "line 4, column 2 ('q'): qid 2 follows qid 3: qids must be non-decreasing");
    expect_error(read_csv("y,q,a\n1,2,0.5\n0,3,1\n0,2,1\n", "q", NULL, &ds),
                 GPULAYER_ERR_PARSE,
                 "line 4, column 2 ('q'): qid 2 follows qid 3, but query 2 had rows before");
    expect_error(read_csv("y,q,a\n1,2,0.5\n", "query", NULL, &ds),
                 GPULAYER_ERR_INVALID_ARGUMENT, "qid column 'query' not found");
    expect_error(read_csv("y,q,a\n1,2,0.5\n", "y", NULL, &ds), GPULAYER_ERR_INVALID_ARGUMENT,
                 "column 'y' cannot be the qid column: it is already the label column");
    assert_null(ds);
}

static void test_group_file(void **state)
{
    (void)state;
    const char *csv = "y,a\n1,1\n0,2\n2,3\n0,4\n1,5\n";
    gpulayer_dataset *ds = NULL;
    assert_int_equal(read_csv(csv, NULL, gpl_test_write_file("g.query", "2\n\n3\n"), &ds),
                     GPULAYER_OK);
    const int64_t want[2] = {2, 3};
    assert_groups(ds, want, 2);
    gpulayer_dataset_free(ds);

    expect_error(read_csv(csv, NULL, gpl_test_write_file("g.query", "2\n2\n"), &ds),
                 GPULAYER_ERR_INVALID_ARGUMENT,
                 "the group sizes add up to 4 rows, but the data have 5 rows");
    assert_null(ds);
    expect_error(read_csv(csv, NULL, gpl_test_write_file("g.query", "2\n3\n1\n"), &ds),
                 GPULAYER_ERR_INVALID_ARGUMENT,
                 "the group sizes add up to 6 rows, but the data have 5 rows");
    expect_error(read_csv(csv, NULL, gpl_test_write_file("g.query", "2\nthree\n"), &ds),
                 GPULAYER_ERR_PARSE, "g.query: line 2: 'three' is not a group size");
    expect_error(read_csv(csv, NULL, gpl_test_write_file("g.query", "5\n0\n"), &ds),
                 GPULAYER_ERR_PARSE, "line 2: '0' is not a group size");
    expect_error(read_csv(csv, NULL, gpl_test_write_file("g.query", "\n \n"), &ds),
                 GPULAYER_ERR_PARSE, "holds no group sizes");
    expect_error(read_csv(csv, NULL, "/nonexistent/g.query", &ds), GPULAYER_ERR_IO,
                 "/nonexistent/g.query");
    expect_error(read_csv("y,q,a\n1,1,1\n0,2,2\n", "q",
                          gpl_test_write_file("g.query", "2\n"), &ds),
                 GPULAYER_ERR_INVALID_ARGUMENT, "the query groups are given twice");
    assert_null(ds);

    /* Any format: LibSVM too. */
    gpulayer_read_options o;
    memset(&o, 0, sizeof o);
    o.group_file = gpl_test_write_file("s.query", "1\n2\n");
    assert_int_equal(gpulayer_dataset_read_file(gpl_test_write_file("s.svm",
                                                    "1 0:1\n0 1:2\n1 0:3\n"), &o, &ds),
                     GPULAYER_OK);
    const int64_t want2[2] = {1, 2};
    assert_groups(ds, want2, 2);
    gpulayer_dataset_free(ds);
}

static gpulayer_status read_svm(const char *text, gpulayer_dataset **out)
{
    return gpulayer_dataset_read_file(gpl_test_write_file("qid.svm", text), NULL, out);
}

static void test_libsvm_qid(void **state)
{
    (void)state;
    gpulayer_dataset *ds = NULL;
    assert_int_equal(read_svm("2 qid:1 0:1 1:2\n0 qid:1 1:3\n# comment\n1 qid:4 0:5\n", &ds),
                     GPULAYER_OK);
    const int64_t want[2] = {2, 1};
    assert_groups(ds, want, 2);
    assert_int_equal(gpulayer_dataset_num_cols(ds), 2);
    gpulayer_dataset_free(ds);

    assert_int_equal(read_svm("1 0:1\n0 1:3\n", &ds), GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_num_groups(ds), 0);
    gpulayer_dataset_free(ds);

    expect_error(read_svm("1 qid:1 0:1\n0 1:3\n", &ds), GPULAYER_ERR_PARSE,
                 "line 2: this row has no qid:N token, but line 1 has one");
    expect_error(read_svm("1 0:1\n0 qid:2 1:3\n", &ds), GPULAYER_ERR_PARSE,
                 "line 2, column 3: this row has a query id, but line 1 has none");
    expect_error(read_svm("1 qid:3 0:1\n0 qid:2 1:3\n", &ds), GPULAYER_ERR_PARSE,
                 "line 2, column 3: qid 2 follows qid 3: qids must be non-decreasing");
    expect_error(read_svm("1 qid:2 0:1\n0 qid:3 1:3\n1 qid:2 0:1\n", &ds), GPULAYER_ERR_PARSE,
                 "line 3, column 3: qid 2 follows qid 3, but query 2 had rows before");
    expect_error(read_svm("1 qid:x 0:1\n", &ds), GPULAYER_ERR_PARSE,
                 "line 1, column 3: malformed query id 'qid:x'");
    expect_error(read_svm("1 qid:1 qid:1 0:1\n", &ds), GPULAYER_ERR_PARSE,
                 "line 1, column 9: a second qid token (the first: column 3)");
    assert_null(ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_group),
        cmocka_unit_test(test_set_qid),
        cmocka_unit_test(test_derived_datasets_keep_groups),
        cmocka_unit_test(test_keep_groups_of_a_slice),
        cmocka_unit_test(test_csv_qid_column),
        cmocka_unit_test(test_csv_qid_refusals),
        cmocka_unit_test(test_group_file),
        cmocka_unit_test(test_libsvm_qid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
