/* test_dump.c -- the text dump of trees: splits by sets and by ordered
 * codes read as category names, numeric splits, depth cuts, errors. */
#include <stdlib.h>
#include <string.h>

#include "booster.h"
#include "gpulayer.h"
#include "test_util.h"

static gpl_tree_node leaf(float value, double cover)
{
    gpl_tree_node n = {.left = -1, .right = -1, .feature = -1};
    n.leaf_value = value;
    n.cover = cover;
    return n;
}

/* A booster holding one tree over feature 0 "colour" (blue, green, red)
 * and an unnamed numeric feature 1; node 0 splits colour by the set
 * {blue, red}, or with ordered set, at the code threshold 1.5. */
static gpulayer_booster *one_tree(int ordered)
{
    gpulayer_booster *b = NULL;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    gpl_model *m = gpl_model_new();
    assert_non_null(m);
    m->num_features = 2;
    m->num_outputs = 1;
    m->feature_names = calloc(2, sizeof *m->feature_names);
    m->feature_names[0] = strdup("colour");
    m->categories = calloc(2, sizeof *m->categories);
    const char *names[] = {"blue", "green", "red"};
    m->categories[0] = gpl_category_dict_new(names, 3);
    gpl_tree t = {5, calloc(5, sizeof(gpl_tree_node))};
    gpl_tree_node *n = t.nodes;
    n[0] = (gpl_tree_node){.left = 1, .right = 2, .feature = 0, .gain = 5, .cover = 10};
    if (ordered) {
        n[0].threshold = 1.5f;
    } else {
        n[0].categorical = 1;
        n[0].left_set[0] = (1u << 1) | (1u << 3); /* codes 0 and 2 */
    }
    n[1] = (gpl_tree_node){.left = 3, .right = 4, .feature = 1, .default_left = 1,
                           .threshold = 2.5f, .gain = 1.25, .cover = 6};
    n[2] = leaf(0.5f, 4);
    n[3] = leaf(-1.0f, 2);
    n[4] = leaf(0.25f, 4);
    assert_int_equal(gpl_model_add_tree(m, &t), GPULAYER_OK);
    b->model = m;
    return b;
}

static void expect_tree(const gpulayer_booster *b, int with_stats, int32_t depth,
                        const char *expected)
{
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(gpulayer_booster_dump_tree(b, 0, with_stats, depth, &text, &len),
                     GPULAYER_OK);
    assert_string_equal(text, expected);
    assert_int_equal(len, strlen(expected));
    gpulayer_free_buffer(text);
}

static void test_split_by_a_set_reads_as_names(void **state)
{
    (void)state;
    gpulayer_booster *b = one_tree(0);
    expect_tree(b, 0, 0,
                "0:[colour in {blue, red}] yes=1,no=2,missing=2\n"
                "\t1:[f1<2.5] yes=3,no=4,missing=3\n"
                "\t\t3:leaf=-1\n"
                "\t\t4:leaf=0.25\n"
                "\t2:leaf=0.5\n");
    expect_tree(b, 1, 1,
                "0:[colour in {blue, red}] yes=1,no=2,missing=2,gain=5,cover=10\n"
                "\t1:...\n"
                "\t2:leaf=0.5,cover=4\n");
    char *text = NULL;
    assert_int_equal(gpulayer_booster_dump_model(b, 0, &text, NULL), GPULAYER_OK);
    assert_non_null(strstr(text, "booster[0]:\n0:[colour in {blue, red}]"));
    gpulayer_free_buffer(text);
    gpulayer_booster_free(b);
}

static void test_ordered_codes_read_as_names(void **state)
{
    (void)state;
    gpulayer_booster *b = one_tree(1);
    expect_tree(b, 0, 1, "0:[colour in {blue, green}] yes=1,no=2,missing=2\n"
                         "\t1:...\n"
                         "\t2:leaf=0.5\n");
    gpulayer_booster_free(b);
}

static void test_errors_name_the_problem(void **state)
{
    (void)state;
    gpulayer_booster *b = one_tree(0);
    char *text = NULL;
    assert_int_equal(gpulayer_booster_dump_tree(b, 1, 0, 0, &text, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "tree 1 does not exist; the model has 1"));
    assert_null(text);
    assert_int_equal(gpulayer_booster_dump_tree(b, 0, 0, -1, &text, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "max_depth must be >= 0"));
    gpulayer_booster_free(b);
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_dump_model(b, 0, &text, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "has no model"));
    assert_int_equal(gpulayer_booster_num_trees(b), 0);
    gpulayer_booster_free(b);
}

static void test_category_names_of_the_model(void **state)
{
    (void)state;
    gpulayer_booster *b = one_tree(0);
    assert_int_equal(gpulayer_booster_num_trees(b), 1);
    assert_int_equal(gpulayer_booster_num_categories(b, 0), 3);
    assert_string_equal(gpulayer_booster_category_name(b, 0, 2), "red");
    assert_null(gpulayer_booster_category_name(b, 0, 3));
    assert_null(gpulayer_booster_category_name(b, 0, -1));
    assert_int_equal(gpulayer_booster_num_categories(b, 1), 0);
    assert_int_equal(gpulayer_booster_num_categories(b, 2), 0);
    assert_null(gpulayer_booster_category_name(b, 1, 0));
    gpulayer_booster_free(b);
}

/* Features as the dump names them: the name, or f<index> without one. */
static void test_feature_labels(void **state)
{
    (void)state;
    gpulayer_booster *b = one_tree(0);
    const char *expect[] = {"colour", "f1"};
    for (int32_t f = 0; f < 2; f++) {
        char *text = NULL;
        size_t len = 0;
        assert_int_equal(gpulayer_booster_feature_label(b, f, &text, &len), GPULAYER_OK);
        assert_string_equal(text, expect[f]);
        assert_int_equal(len, strlen(expect[f]));
        gpulayer_free_buffer(text);
    }
    char *text = NULL;
    assert_int_equal(gpulayer_booster_feature_label(b, 2, &text, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "feature 2 does not exist"));
    assert_null(text);
    gpulayer_booster_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_by_a_set_reads_as_names),
        cmocka_unit_test(test_ordered_codes_read_as_names),
        cmocka_unit_test(test_errors_name_the_problem),
        cmocka_unit_test(test_category_names_of_the_model),
        cmocka_unit_test(test_feature_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
