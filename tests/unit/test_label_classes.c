/* test_label_classes.c -- class names as labels: the CSV reader's mapping
 * to sorted codes, its errors, training on them and the model file. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "error.h"
#include "gpulayer.h"
#include "label_classes.h"
#include "model.h"

static gpulayer_dataset *parse_ok(const char *name, const char *text,
                                  const gpulayer_read_options *o)
{
    gpulayer_dataset *ds = NULL;
    gpulayer_status st = gpulayer_dataset_read_file(gpl_test_write_file(name, text), o, &ds);
    if (st != GPULAYER_OK) fail_msg("unexpected error: %s", gpulayer_last_error());
    return ds;
}

static void expect_read_error(const char *name, const char *text,
                              const gpulayer_read_options *o, const char *a, const char *b)
{
    gpulayer_dataset *ds = NULL;
    gpulayer_status st = gpulayer_dataset_read_file(gpl_test_write_file(name, text), o, &ds);
    assert_int_equal(st, GPULAYER_ERR_PARSE);
    assert_null(ds);
    if (!strstr(gpulayer_last_error(), a) || (b && !strstr(gpulayer_last_error(), b)))
        fail_msg("message \"%s\" lacks \"%s\" or \"%s\"", gpulayer_last_error(), a,
                 b ? b : "");
}

/* Three classes, first seen out of order: codes follow the sorted names. */
static const char iris[] = "species,x\nversicolor,1\nsetosa,2\nvirginica,3\nsetosa,4\n"
                           "virginica,5\nversicolor,6\n";

static void test_names_become_sorted_codes(void **state)
{
    (void)state;
    gpulayer_read_options o = {.label = "species"};
    gpulayer_dataset *ds = parse_ok("iris.csv", iris, &o);
    assert_int_equal(gpulayer_dataset_num_label_classes(ds), 3);
    assert_string_equal(gpulayer_dataset_label_class(ds, 0), "setosa");
    assert_string_equal(gpulayer_dataset_label_class(ds, 1), "versicolor");
    assert_string_equal(gpulayer_dataset_label_class(ds, 2), "virginica");
    assert_null(gpulayer_dataset_label_class(ds, 3));
    const float want[] = {1, 0, 2, 0, 2, 1};
    for (int r = 0; r < 6; r++) assert_true(ds->label[r] == want[r]);
    /* Numbers given later replace the names. */
    const float y[6] = {0};
    assert_int_equal(gpulayer_dataset_set_label(ds, y, 6), GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_num_label_classes(ds), 0);
    gpulayer_dataset_free(ds);
}

static void test_numbers_stay_numbers(void **state)
{
    (void)state;
    gpulayer_dataset *ds = parse_ok("num.csv", "y,x\n2.5,1\n-1,2\n7,3\n", NULL);
    assert_null(ds->label_classes);
    assert_true(ds->label[0] == 2.5f && ds->label[1] == -1.0f && ds->label[2] == 7.0f);
    gpulayer_dataset_free(ds);
}

static void test_mixed_and_unseen_labels(void **state)
{
    (void)state;
    expect_read_error("mix1.csv", "y,x\n1,1\n0,2\ncat,3\n", NULL,
                      "mix1.csv: line 4, column 1 ('y'): label 'cat' is not a number",
                      "(line 2: '1')");
    expect_read_error("mix2.csv", "y,x\ncat,1\n3,2\n", NULL,
                      "mix2.csv: line 3, column 1 ('y'): label '3' is a number",
                      "all numbers or all class names");
    const char *const classes[] = {"setosa", "versicolor", "virginica", NULL};
    gpulayer_read_options o = {.label = "species", .label_classes = classes};
    expect_read_error("unseen.csv", "species,x\nsetosa,1\nrose,2\n", &o,
                      "unseen.csv: line 3, column 1 ('species'): label 'rose' is not a "
                      "class of the model", "'setosa', 'versicolor', 'virginica'");
    const char *const unsorted[] = {"b", "a", NULL};
    gpulayer_read_options bad = {.label = "species", .label_classes = unsorted};
    gpulayer_dataset *ds = NULL;
    assert_int_equal(gpulayer_dataset_read_file(gpl_test_write_file("u.csv", iris), &bad, &ds),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "sorted and unique"));
}

static void test_libsvm_names(void **state)
{
    (void)state;
    gpulayer_dataset *ds = parse_ok("names.svm", "dog 0:1\ncat 1:2\ndog 0:3\n", NULL);
    assert_int_equal(gpulayer_dataset_num_label_classes(ds), 2);
    assert_string_equal(gpulayer_dataset_label_class(ds, 0), "cat");
    assert_true(ds->label[0] == 1.0f && ds->label[1] == 0.0f && ds->label[2] == 1.0f);
    gpulayer_dataset_free(ds);
    gpulayer_read_options svm = {.format = GPULAYER_FORMAT_LIBSVM};
    expect_read_error("mixed.svm", "1 0:1\ncat 1:1\n", &svm,
                      "mixed.svm: line 2, column 1: label 'cat' is not a number", NULL);
    const char *const classes[] = {"cat", "dog", NULL};
    gpulayer_read_options fixed = {.format = GPULAYER_FORMAT_LIBSVM, .label_classes = classes};
    expect_read_error("unseen.svm", "cat 0:1\nrose 0:2\n", &fixed,
                      "unseen.svm: line 2, column 1: label 'rose' is not a class", NULL);
}

/* A file holding only some of the classes keeps the given codes. */
static void test_given_classes(void **state)
{
    (void)state;
    const char *const classes[] = {"setosa", "versicolor", "virginica", NULL};
    gpulayer_read_options o = {.label = "species", .label_classes = classes};
    gpulayer_dataset *ds = parse_ok("part.csv", "species,x\nvirginica,1\nvirginica,2\n", &o);
    assert_true(ds->label[0] == 2.0f && ds->label[1] == 2.0f);
    assert_int_equal(gpulayer_dataset_num_label_classes(ds), 3);
    gpulayer_dataset_free(ds);
}

static gpulayer_booster *train(const gpulayer_dataset *ds, const char *objective,
                               const char *num_class, gpulayer_status expect)
{
    gpulayer_booster *b = NULL;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "objective", objective), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "num_round", "3"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "device", "cpu"), GPULAYER_OK);
    if (num_class)
        assert_int_equal(gpulayer_booster_set_param(b, "num_class", num_class), GPULAYER_OK);
    gpulayer_status st = gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL);
    if (st != expect) fail_msg("status %d: %s", (int)st, gpulayer_last_error());
    if (st == GPULAYER_OK) return b;
    gpulayer_booster_free(b);
    return NULL;
}

static void test_training_takes_num_class_and_saves_names(void **state)
{
    (void)state;
    gpulayer_read_options o = {.label = "species"};
    gpulayer_dataset *ds = parse_ok("iris2.csv", iris, &o);
    gpulayer_booster *b = train(ds, "multi:softprob", NULL, GPULAYER_OK);
    assert_int_equal(gpulayer_booster_num_outputs(b), 3);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(gpulayer_booster_save_to_buffer(b, &text, &len), GPULAYER_OK);
    assert_non_null(strstr(text, "\"class_names\":[\"setosa\",\"versicolor\",\"virginica\"]"));
    gpulayer_booster *back = NULL;
    assert_int_equal(gpulayer_booster_load_from_buffer(text, len, &back), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_num_class_names(back), 3);
    assert_string_equal(gpulayer_booster_class_name(back, 2), "virginica");
    assert_null(gpulayer_booster_class_name(back, 3));
    gpulayer_free_buffer(text);
    gpulayer_booster_free(back);
    gpulayer_booster_free(b);

    b = train(ds, "multi:softmax", "3", GPULAYER_OK);
    assert_int_equal(gpulayer_booster_predicts_class(b, GPULAYER_PREDICT_DEFAULT), 1);
    assert_int_equal(gpulayer_booster_predicts_class(b, GPULAYER_PREDICT_MARGIN), 0);
    gpulayer_booster_free(b);
    train(ds, "multi:softprob", "4", GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "num_class=4 was given, but the labels "
                                                  "hold 3 class names"));
    train(ds, "binary:logistic", NULL, GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "needs 2 classes"));
    train(ds, "reg:squarederror", NULL, GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "needs numbers"));
    gpulayer_dataset_free(ds);
}

static void test_numeric_models_have_no_names(void **state)
{
    (void)state;
    gpulayer_dataset *ds = parse_ok("bin.csv", "y,x\n0,1\n1,2\n0,3\n1,4\n", NULL);
    gpulayer_booster *b = train(ds, "binary:logistic", NULL, GPULAYER_OK);
    assert_int_equal(gpulayer_booster_num_class_names(b), 0);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(gpulayer_booster_save_to_buffer(b, &text, &len), GPULAYER_OK);
    assert_null(strstr(text, "class_names"));
    gpulayer_free_buffer(text);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

static void test_names_set_through_the_api(void **state)
{
    (void)state;
    const float x[4] = {1, 2, 3, 4}, y[4] = {0, 1, 2, 1};
    gpulayer_dataset *ds = NULL;
    assert_int_equal(gpulayer_dataset_from_dense(x, 4, 1, GPULAYER_ROW_MAJOR, y, NULL, &ds),
                     GPULAYER_OK);
    const char *const names[] = {"a", "b", "c"};
    const char *const unsorted[] = {"b", "a", "c"};
    assert_int_equal(gpulayer_dataset_set_label_classes(ds, unsorted, 3),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "sorted and unique ('a' after 'b')"));
    assert_int_equal(gpulayer_dataset_set_label_classes(ds, names, 2),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "row 2 has label 2, not a class code 0..1"));
    assert_int_equal(gpulayer_dataset_set_label_classes(ds, names, 3), GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_num_label_classes(ds), 3);
    gpulayer_booster *b = train(ds, "multi:softprob", NULL, GPULAYER_OK);
    assert_string_equal(gpulayer_booster_class_name(b, 1), "b");
    gpulayer_booster_free(b);
    assert_int_equal(gpulayer_dataset_set_label_classes(ds, NULL, 0), GPULAYER_OK);
    assert_int_equal(gpulayer_dataset_num_label_classes(ds), 0);
    gpulayer_dataset_free(ds);
}

static void test_continued_training_keeps_the_classes(void **state)
{
    (void)state;
    gpulayer_read_options o = {.label = "species"};
    gpulayer_dataset *ds = parse_ok("iris3.csv", iris, &o);
    gpulayer_booster *first = train(ds, "multi:softprob", NULL, GPULAYER_OK);
    gpulayer_booster *b = NULL;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "objective", "multi:softprob"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "num_round", "2"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_init_model(b, first), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_num_class_names(b), 3);
    gpulayer_dataset *other = parse_ok("other.csv", "species,x\nA,1\nB,2\nC,3\n", &o);
    assert_int_equal(gpulayer_booster_set_init_model(b, first), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, other, NULL, NULL, 0, NULL, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "class names are not the initial model's "
                                                  "('setosa', ... 3 of them)"));
    gpulayer_dataset_free(other);
    gpulayer_booster_free(b);
    gpulayer_booster_free(first);
    gpulayer_dataset_free(ds);
}

/* A model file whose class names do not fit its classes is refused. */
static void test_damaged_names_are_refused(void **state)
{
    (void)state;
    gpulayer_dataset *ds = parse_ok("bin2.csv", "y,x\nno,1\nyes,2\nno,3\nyes,4\n", NULL);
    gpulayer_booster *b = train(ds, "binary:logistic", NULL, GPULAYER_OK);
    assert_int_equal(gpulayer_booster_num_class_names(b), 2);
    char *text = NULL, *sealed = NULL;
    size_t len = 0, sealed_len = 0;
    assert_int_equal(gpulayer_booster_save_to_buffer(b, &text, &len), GPULAYER_OK);
    char *at = strstr(text, "\"class_names\":[\"no\",\"yes\"]");
    assert_non_null(at);
    memcpy(at, "\"class_names\":[\"zz\",\"yes\"]", strlen("\"class_names\":[\"zz\",\"yes\"]"));
    assert_int_equal(gpl_model_json_reseal(text, len, &sealed, &sealed_len), GPULAYER_OK);
    gpulayer_booster *back = NULL;
    assert_int_equal(gpulayer_booster_load_from_buffer(sealed, sealed_len, &back),
                     GPULAYER_ERR_MODEL);
    assert_non_null(strstr(gpulayer_last_error(), "class_names is not sorted and unique"));
    free(sealed);
    gpulayer_free_buffer(text);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_become_sorted_codes),
        cmocka_unit_test(test_numbers_stay_numbers),
        cmocka_unit_test(test_mixed_and_unseen_labels),
        cmocka_unit_test(test_given_classes),
        cmocka_unit_test(test_libsvm_names),
        cmocka_unit_test(test_training_takes_num_class_and_saves_names),
        cmocka_unit_test(test_numeric_models_have_no_names),
        cmocka_unit_test(test_names_set_through_the_api),
        cmocka_unit_test(test_continued_training_keeps_the_classes),
        cmocka_unit_test(test_damaged_names_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
