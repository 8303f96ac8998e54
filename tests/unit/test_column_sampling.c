/* test_column_sampling.c -- colsample_bylevel and colsample_bynode: the
 * sampling helper's counts and streams, weighted draws (feature_weights), trees that split each depth level
 * on its sample alone, nodes that draw their own, the same model at any
 * thread count, colsample_bytree's models unchanged by the helper, and
 * the parameters' errors and records. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "booster.h"
#include "feature_sample.h"
#include "gpulayer.h"
#include "test_util.h"

enum { ROWS = 4000, COLS = 6 };

static void test_sample_counts_and_streams(void **state)
{
    (void)state;
    uint8_t from[10] = {1, 0, 1, 1, 0, 1, 1, 1, 0, 1}, a[10], b[10];
    for (uint64_t stream = 1; stream < 200; stream++) {
        gpl_sample_features(from, 10, 0.5, NULL, stream, a); /* floor(0.5 * 7) = 3 */
        int n = 0;
        for (int f = 0; f < 10; f++) {
            n += a[f];
            assert_true(!a[f] || from[f]);
        }
        assert_int_equal(n, 3);
        gpl_sample_features(from, 10, 0.5, NULL, stream, b);
        assert_memory_equal(a, b, sizeof a);
        gpl_sample_features(from, 10, 0.01, NULL, stream, a); /* at least one */
        n = 0;
        for (int f = 0; f < 10; f++) n += a[f];
        assert_int_equal(n, 1);
    }
    gpl_sample_features(from, 10, 1.0, NULL, 5, a);
    assert_memory_equal(a, from, sizeof a);
    gpl_sample_features(NULL, 10, 1.0, NULL, 5, a);
    for (int f = 0; f < 10; f++) assert_int_equal(a[f], 1);
    /* Neighbouring depths and nodes draw different samples. */
    int differ = 0;
    for (int32_t d = 0; d < 8; d++) {
        gpl_sample_features(NULL, 10, 0.3, NULL, gpl_sample_stream_level(99, d), a);
        gpl_sample_features(NULL, 10, 0.3, NULL, gpl_sample_stream_level(99, d + 1), b);
        differ += memcmp(a, b, sizeof a) != 0;
        gpl_sample_features(NULL, 10, 0.3, NULL, gpl_sample_stream_node(99, d), a);
        gpl_sample_features(NULL, 10, 0.3, NULL, gpl_sample_stream_node(99, d + 1), b);
        differ += memcmp(a, b, sizeof a) != 0;
    }
    assert_true(differ >= 12);
}

static void test_weighted_draws(void **state)
{
    (void)state;
    const float only_last[10] = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
    uint8_t out[10];
    for (uint64_t stream = 1; stream < 100; stream++) {
        gpl_sample_features(NULL, 10, 0.3, only_last, stream, out); /* 3 of the 5 weighted */
        int n = 0;
        for (int f = 0; f < 10; f++) {
            n += out[f];
            if (f < 5) assert_int_equal(out[f], 0);
        }
        assert_int_equal(n, 3);
        gpl_sample_features(NULL, 10, 0.7, only_last, stream, out); /* 7: zeros fill up */
        n = 0;
        for (int f = 0; f < 10; f++) n += out[f];
        assert_int_equal(n, 7);
        for (int f = 5; f < 10; f++) assert_int_equal(out[f], 1);
    }
    /* One of five, the last weighing as much as eight others: chosen about
     * two times in three. */
    const float heavy[5] = {1, 1, 1, 1, 8};
    int last = 0;
    for (uint64_t stream = 1; stream <= 3000; stream++) {
        gpl_sample_features(NULL, 5, 0.2, heavy, gpl_sample_stream_node(stream, 0), out);
        last += out[4];
    }
    assert_true(last > 1700 && last < 2300);
}

/* A label that needs every feature. */
static gpulayer_dataset *data(void)
{
    static float x[ROWS * COLS], y[ROWS];
    srand(3);
    for (int r = 0; r < ROWS; r++) {
        double z = 0;
        for (int c = 0; c < COLS; c++) {
            x[r * COLS + c] = (float)(rand() % 1000) / 100.0f;
            z += (c + 1) * (x[r * COLS + c] > 5.0f);
        }
        y[r] = (float)(z + (rand() % 100) / 50.0);
    }
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(x, ROWS, COLS, GPULAYER_ROW_MAJOR, y, NULL, &ds),
                     GPULAYER_OK);
    return ds;
}

static gpulayer_booster *train(const gpulayer_dataset *ds, const char *level, const char *node,
                               const char *policy, const char *nthread)
{
    gpulayer_booster *b;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    const char *kv[][2] = {{"objective", "reg:squarederror"}, {"num_round", "8"},
                           {"max_depth", "4"}, {"eta", "0.3"}, {"nthread", nthread},
                           {"grow_policy", policy}, {"max_leaves", "12"},
                           {"colsample_bylevel", level}, {"colsample_bynode", node}};
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        assert_int_equal(gpulayer_booster_set_param(b, kv[i][0], kv[i][1]), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    return b;
}

static void depths(const gpl_tree *t, int32_t node, int32_t depth, int32_t *out)
{
    out[node] = depth;
    if (t->nodes[node].left < 0) return;
    depths(t, t->nodes[node].left, depth + 1, out);
    depths(t, t->nodes[node].right, depth + 1, out);
}

/* Per tree and depth: how many distinct features the splits use, at most
 * (over every tree and depth), and whether some depth used several. */
static int32_t most_features_a_level(const gpulayer_booster *b)
{
    int32_t most = 0;
    for (int32_t t = 0; t < b->model->num_trees; t++) {
        const gpl_tree *tree = &b->model->trees[t];
        int32_t *depth = malloc(sizeof(int32_t) * (size_t)tree->num_nodes);
        depths(tree, 0, 0, depth);
        for (int32_t d = 0; d < 8; d++) {
            uint8_t used[COLS] = {0};
            int32_t n = 0;
            for (int32_t i = 0; i < tree->num_nodes; i++)
                if (depth[i] == d && tree->nodes[i].left >= 0 && !used[tree->nodes[i].feature]) {
                    used[tree->nodes[i].feature] = 1;
                    n++;
                }
            if (n > most) most = n;
        }
        free(depth);
    }
    return most;
}

static void test_levels_and_nodes_draw_their_features(void **state)
{
    (void)state;
    gpulayer_dataset *ds = data();
    const char *policies[] = {"depthwise", "lossguide"};
    for (int p = 0; p < 2; p++) {
        /* One feature a level: every split of a depth on the same one. */
        gpulayer_booster *level = train(ds, "0.2", "1", policies[p], "2");
        assert_int_equal(most_features_a_level(level), 1);
        /* One feature a node, drawn node by node: a level uses several. */
        gpulayer_booster *node = train(ds, "1", "0.2", policies[p], "2");
        assert_true(most_features_a_level(node) > 1);
        /* Unsampled, the levels use several features too, and the models
         * differ from the sampled ones. */
        gpulayer_booster *all = train(ds, "1", "1", policies[p], "2");
        assert_true(most_features_a_level(all) > 1);
        char *a, *n;
        size_t la, ln;
        assert_int_equal(gpulayer_booster_save_to_buffer(all, &a, &la), GPULAYER_OK);
        assert_int_equal(gpulayer_booster_save_to_buffer(node, &n, &ln), GPULAYER_OK);
        assert_false(la == ln && memcmp(a, n, la) == 0);
        /* The sampling rates are recorded only where they are below 1. */
        assert_null(strstr(a, "colsample_bylevel"));
        assert_non_null(strstr(n, "\"colsample_bynode\":\"0.20000000000000001\""));
        gpulayer_free_buffer(a);
        gpulayer_free_buffer(n);
        gpulayer_booster_free(level);
        gpulayer_booster_free(node);
        gpulayer_booster_free(all);
    }
    gpulayer_dataset_free(ds);
}

static void test_same_model_at_any_thread_count(void **state)
{
    (void)state;
    gpulayer_dataset *ds = data();
    gpulayer_booster *one = train(ds, "0.7", "0.6", "depthwise", "1");
    gpulayer_booster *two = train(ds, "0.7", "0.6", "depthwise", "2");
    char *a, *b;
    size_t la, lb;
    assert_int_equal(gpulayer_booster_save_to_buffer(one, &a, &la), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_save_to_buffer(two, &b, &lb), GPULAYER_OK);
    /* The records differ in nthread only where it is recorded; the trees
     * must not. */
    assert_int_equal(one->model->num_trees, two->model->num_trees);
    for (int32_t t = 0; t < one->model->num_trees; t++) {
        assert_int_equal(one->model->trees[t].num_nodes, two->model->trees[t].num_nodes);
        assert_memory_equal(one->model->trees[t].nodes, two->model->trees[t].nodes,
                            sizeof(gpl_tree_node) * (size_t)one->model->trees[t].num_nodes);
    }
    gpulayer_free_buffer(a);
    gpulayer_free_buffer(b);
    gpulayer_booster_free(one);
    gpulayer_booster_free(two);
    gpulayer_dataset_free(ds);
}

static void test_feature_weights_steer_training(void **state)
{
    (void)state;
    gpulayer_dataset *ds = data();
    const float weights[COLS] = {0, 0, 3, 0, 0, 0};
    assert_int_equal(gpulayer_dataset_set_feature_weights(ds, weights, COLS), GPULAYER_OK);
    gpulayer_booster *b;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    const char *kv[][2] = {{"objective", "reg:squarederror"}, {"num_round", "5"},
                           {"max_depth", "3"}, {"colsample_bytree", "0.2"}, {"nthread", "2"}};
    for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
        assert_int_equal(gpulayer_booster_set_param(b, kv[i][0], kv[i][1]), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    for (int32_t t = 0; t < b->model->num_trees; t++)
        for (int32_t i = 0; i < b->model->trees[t].num_nodes; i++)
            if (b->model->trees[t].nodes[i].left >= 0)
                assert_int_equal(b->model->trees[t].nodes[i].feature, 2);
    const float negative[COLS] = {1, -1, 1, 1, 1, 1}, zero[COLS] = {0};
    assert_int_equal(gpulayer_dataset_set_feature_weights(ds, weights, COLS - 1),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "5 weights, but the dataset has 6 columns"));
    assert_int_equal(gpulayer_dataset_set_feature_weights(ds, negative, COLS),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_int_equal(gpulayer_dataset_set_feature_weights(ds, zero, COLS),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "every weight is 0"));
    assert_int_equal(gpulayer_dataset_set_feature_weights(ds, NULL, 0), GPULAYER_OK);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

static void test_bad_rates(void **state)
{
    (void)state;
    gpulayer_booster *b;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    const char *keys[] = {"colsample_bylevel", "colsample_bynode"};
    const char *bad[] = {"0", "1.5", "-0.1", "x"};
    for (int k = 0; k < 2; k++)
        for (int v = 0; v < 4; v++) {
            assert_int_equal(gpulayer_booster_set_param(b, keys[k], bad[v]),
                             GPULAYER_ERR_INVALID_ARGUMENT);
            assert_non_null(strstr(gpulayer_last_error(), keys[k]));
        }
    char buf[32];
    assert_int_equal(gpulayer_booster_set_param(b, "colsample_bynode", "0.5"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_get_param(b, "colsample_bynode", buf, sizeof buf),
                     GPULAYER_OK);
    assert_string_equal(buf, "0.5");
    gpulayer_booster_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sample_counts_and_streams),
        cmocka_unit_test(test_levels_and_nodes_draw_their_features),
        cmocka_unit_test(test_same_model_at_any_thread_count),
        cmocka_unit_test(test_weighted_draws),
        cmocka_unit_test(test_feature_weights_steer_training),
        cmocka_unit_test(test_bad_rates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
