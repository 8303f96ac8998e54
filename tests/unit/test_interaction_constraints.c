/* test_interaction_constraints.c -- interaction_constraints: the allowed
 * features of a node from its path (XGBoost's rule), every root-to-leaf
 * path of trained models within one set (depthwise and lossguide, with
 * column sampling too), and the parameter's forms and errors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "booster.h"
#include "interaction.h"
#include "test_util.h"

enum { ROWS = 4000, COLS = 6 };

static void test_allowed_from_the_path(void **state)
{
    (void)state;
    gpl_interactions x;
    assert_int_equal(gpl_interactions_parse("[[0,1],[1,2],[3]]", COLS, &x), GPULAYER_OK);
    uint8_t used[COLS] = {0}, allowed[COLS];
    gpl_interactions_allowed(&x, used, allowed); /* the root: anything */
    for (int f = 0; f < COLS; f++) assert_int_equal(allowed[f], 1);
    used[1] = 1; /* in both sets that hold 1 */
    gpl_interactions_allowed(&x, used, allowed);
    const uint8_t after1[COLS] = {1, 1, 1, 0, 0, 0};
    assert_memory_equal(allowed, after1, COLS);
    used[0] = 1; /* {0,1}: only the first set holds both */
    gpl_interactions_allowed(&x, used, allowed);
    const uint8_t after01[COLS] = {1, 1, 0, 0, 0, 0};
    assert_memory_equal(allowed, after01, COLS);
    memset(used, 0, sizeof used);
    used[5] = 1; /* in no set: itself only */
    gpl_interactions_allowed(&x, used, allowed);
    const uint8_t after5[COLS] = {0, 0, 0, 0, 0, 1};
    assert_memory_equal(allowed, after5, COLS);
    gpl_interactions_free(&x);
}

static gpulayer_dataset *data(void)
{
    static float x[ROWS * COLS], y[ROWS];
    srand(11);
    for (int r = 0; r < ROWS; r++) {
        for (int c = 0; c < COLS; c++) x[r * COLS + c] = (float)(rand() % 1000) / 100.0f - 5.0f;
        const float *v = x + r * COLS;
        /* interactions across the sets, which unconstrained trees use */
        y[r] = v[0] * v[2] + v[1] * v[3] + (v[4] > 0) * v[5] + (float)(rand() % 100) / 100.0f;
    }
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(x, ROWS, COLS, GPULAYER_ROW_MAJOR, y, NULL, &ds),
                     GPULAYER_OK);
    return ds;
}

/* Whether every root-to-leaf path below node uses features (with those of
 * the path so far, bits of used) of one set of sets, or a single feature. */
static int paths_within(const gpl_tree *t, int32_t node, unsigned used, const unsigned *sets,
                        int num_sets)
{
    const gpl_tree_node *n = &t->nodes[node];
    if (n->left < 0) {
        if ((used & (used - 1)) == 0) return 1; /* none or one feature */
        for (int s = 0; s < num_sets; s++)
            if ((used & ~sets[s]) == 0) return 1;
        return 0;
    }
    used |= 1u << n->feature;
    return paths_within(t, n->left, used, sets, num_sets) &&
           paths_within(t, n->right, used, sets, num_sets);
}

static int all_paths_within(const gpulayer_booster *b, const unsigned *sets, int num_sets)
{
    for (int32_t t = 0; t < b->model->num_trees; t++)
        if (!paths_within(&b->model->trees[t], 0, 0, sets, num_sets)) return 0;
    return 1;
}

static gpulayer_booster *train(const gpulayer_dataset *ds, const char *constraints,
                               const char *policy, const char *bynode)
{
    gpulayer_booster *b;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    const char *kv[][2] = {{"objective", "reg:squarederror"}, {"num_round", "10"},
                           {"max_depth", "5"}, {"eta", "0.3"}, {"nthread", "2"},
                           {"grow_policy", policy}, {"max_leaves", "20"},
                           {"colsample_bynode", bynode}};
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        assert_int_equal(gpulayer_booster_set_param(b, kv[i][0], kv[i][1]), GPULAYER_OK);
    if (constraints)
        assert_int_equal(gpulayer_booster_set_param(b, "interaction_constraints", constraints),
                         GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    return b;
}

static void test_paths_stay_within_a_set(void **state)
{
    (void)state;
    gpulayer_dataset *ds = data();
    const unsigned sets[] = {0x3, 0xc, 0x30}; /* {0,1}, {2,3}, {4,5} */
    const char *policies[] = {"depthwise", "lossguide"};
    for (int p = 0; p < 2; p++)
        for (int sampled = 0; sampled < 2; sampled++) {
            const char *bynode = sampled ? "0.8" : "1";
            gpulayer_booster *free_trees = train(ds, NULL, policies[p], bynode);
            assert_false(all_paths_within(free_trees, sets, 3));
            gpulayer_booster *b = train(ds, "[[0, 1], [2, 3], [4, 5]]", policies[p], bynode);
            assert_true(all_paths_within(b, sets, 3));
            gpulayer_booster_free(free_trees);
            gpulayer_booster_free(b);
        }
    gpulayer_dataset_free(ds);
}

static void test_parameter_forms_and_errors(void **state)
{
    (void)state;
    gpulayer_booster *b;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    char buf[64];
    assert_int_equal(gpulayer_booster_set_param(b, "interaction_constraints", "[[0, 1], [2,3,4]]"),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_booster_get_param(b, "interaction_constraints", buf, sizeof buf),
                     GPULAYER_OK);
    assert_string_equal(buf, "[[0,1],[2,3,4]]");
    const char *bad[] = {"[[0,\"a\"]]", "[0,1]", "[[1.5]]", "[[-1]]", "nonsense", "[[0,1]"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(gpulayer_booster_set_param(b, "interaction_constraints", bad[i]),
                         GPULAYER_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(gpulayer_last_error(), "interaction_constraints"));
    }
    /* The whole text is the list: what follows it is named, not dropped;
     * a bad index is shown as given. */
    const char *rest[][2] = {{"[[0,1]],[[2,3]]", "',[[2,3]]' follows the list"},
                             {"[[0,1]] extra", "'extra' follows the list"},
                             {"[[0,-1]]", "set 0 holds -1, not a feature index"},
                             {"[[2.5]]", "set 0 holds 2.5, not a feature index"},
                             {"[[null]]", "set 0 holds a value that is no number"}};
    for (size_t i = 0; i < sizeof rest / sizeof rest[0]; i++) {
        assert_int_equal(gpulayer_booster_set_param(b, "interaction_constraints", rest[i][0]),
                         GPULAYER_ERR_INVALID_ARGUMENT);
        if (!strstr(gpulayer_last_error(), rest[i][1]))
            fail_msg("%s: %s", rest[i][0], gpulayer_last_error());
    }
    assert_int_equal(gpulayer_booster_set_param(b, "interaction_constraints", " [[0]] \n"),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "interaction_constraints", "[[0, 1], [2,3,4]]"),
                     GPULAYER_OK);
    /* A refused value leaves the previous one. */
    assert_int_equal(gpulayer_booster_get_param(b, "interaction_constraints", buf, sizeof buf),
                     GPULAYER_OK);
    assert_string_equal(buf, "[[0,1],[2,3,4]]");
    assert_int_equal(gpulayer_booster_set_param(b, "interaction_constraints", "[[0],[9,1]]"),
                     GPULAYER_OK);
    gpulayer_dataset *ds = data();
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(),
                           "set 1 names feature 9, but the data have 6 features"));
    assert_int_equal(gpulayer_booster_set_param(b, "interaction_constraints", ""), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    gpulayer_dataset_free(ds);
    gpulayer_booster_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_allowed_from_the_path),
        cmocka_unit_test(test_paths_stay_within_a_set),
        cmocka_unit_test(test_parameter_forms_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
