/*
 * test_cuda_model.c -- whole models from the CUDA backend against the CPU
 * backend: the same data and parameters must give the same trees.
 *
 * Two routes: the tree driver (src/core/grow.c) over each backend created
 * directly, comparing every tree node and the final margins; and the public
 * API with device=cuda / device=cpu, comparing the saved model text (with
 * the device parameter itself blanked). Skips, with the reason, where no
 * CUDA device is usable.
 */
#include "backend_guard.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "binning.h"
#include "gpulayer.h"
#include "grow.h"
#include "params.h"

typedef struct table {
    int64_t rows;
    int32_t cols;
    float *x;
    float *y;
} table;

static uint64_t rng_state;

static double uniform(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static double normal(void)
{
    double u = uniform() + 1e-12, v = uniform();
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* The benchmark's recipe in small: a smooth signal plus interactions,
 * with 3% of values missing. Labels: binary, real or class (k classes). */
static table make_table(int64_t rows, int32_t cols, int classes, int real)
{
    table t = {rows, cols, malloc(sizeof(float) * (size_t)(rows * cols)),
               malloc(sizeof(float) * (size_t)rows)};
    rng_state = 12345;
    for (int64_t r = 0; r < rows; r++) {
        float *x = t.x + r * cols;
        for (int32_t c = 0; c < cols; c++) x[c] = (float)normal();
        double z = sin(2.0 * x[0]) + x[1] * x[2] + 0.5 * fabs(x[3 % cols]) +
                   0.3 * x[4 % cols] + 0.5 * (uniform() - 0.5);
        for (int32_t c = 0; c < cols; c++)
            if (uniform() < 0.03) x[c] = NAN;
        if (classes > 1) {
            int c = (int)floor((z + 2.0) * classes / 4.0);
            t.y[r] = (float)(c < 0 ? 0 : c >= classes ? classes - 1 : c);
        } else if (real) {
            t.y[r] = (float)(3.0 * z + 10.0);
        } else {
            t.y[r] = z > 0.2 ? 1.0f : 0.0f;
        }
    }
    return t;
}

static void free_table(table *t)
{
    free(t->x);
    free(t->y);
}

#define OK(expr)                                                                   \
    do {                                                                           \
        gpulayer_status ok_status_ = (expr);                                       \
        if (ok_status_ != GPULAYER_OK) fail_msg("%s: %s", #expr, gpulayer_last_error()); \
    } while (0)

static gpl_backend *create_or_skip(const char *name, const gpl_backend_config *cfg)
{
    gpl_backend *be = NULL;
    if (gpl_backend_create(name, cfg, &be) != GPULAYER_OK) {
        print_message("skipping: the %s backend is not usable here: %s\n", name,
                      gpulayer_last_error());
        skip();
    }
    return be;
}

/* ------------------------------------------------ through the tree driver */

static void compare_trees(const gpl_tree *a, const gpl_tree *b, int round)
{
    if (a->num_nodes != b->num_nodes)
        fail_msg("round %d: cpu tree has %d nodes, cuda tree %d", round, a->num_nodes,
                 b->num_nodes);
    for (int32_t i = 0; i < a->num_nodes; i++) {
        const gpl_tree_node *x = &a->nodes[i], *y = &b->nodes[i];
        if (x->left != y->left || x->right != y->right || x->feature != y->feature ||
            x->split_bin != y->split_bin || x->default_left != y->default_left ||
            memcmp(&x->threshold, &y->threshold, sizeof x->threshold) ||
            memcmp(&x->leaf_value, &y->leaf_value, sizeof x->leaf_value) ||
            memcmp(&x->gain, &y->gain, sizeof x->gain) ||
            memcmp(&x->cover, &y->cover, sizeof x->cover))
            fail_msg("round %d node %d: cpu (f%d b%d dl%d leaf %.9g gain %.17g) vs cuda "
                     "(f%d b%d dl%d leaf %.9g gain %.17g)", round, i, x->feature,
                     x->split_bin, x->default_left, x->leaf_value, x->gain, y->feature,
                     y->split_bin, y->default_left, y->leaf_value, y->gain);
    }
}

static void driver_case(const char *name, gpl_objective_kind kind, int classes,
                        gpl_grow_policy policy, int32_t max_depth, int32_t max_leaves,
                        double subsample)
{
    const int64_t N = 60000;
    const int32_t F = 12;
    table t = make_table(N, F, classes, kind == GPL_OBJ_SQUARED_ERROR);
    gpulayer_dataset *ds;
    OK(gpulayer_dataset_from_dense(t.x, N, F, GPULAYER_ROW_MAJOR, t.y, NULL, &ds));
    gpl_bin_cuts cuts;
    uint8_t *bins;
    uint32_t *offset;
    OK(gpl_bin_cuts_build(ds, 256, 2, &cuts));
    OK(gpl_bin_matrix(&cuts, ds, 2, &bins));
    OK(gpl_feature_offsets(&cuts, &offset));
    gpl_params p;
    memset(&p, 0, sizeof p);
    p.eta = 0.3;
    p.max_depth = max_depth;
    p.max_leaves = max_leaves;
    p.grow_policy = policy;
    p.min_child_weight = 1.0;
    p.lambda = 1.0;
    const int32_t K = classes > 1 ? classes : 1;
    const int32_t M = gpl_grow_max_nodes(&p, N);
    gpl_backend_config cfg = {2, 0, M, K, 0};
    gpl_backend *gpu = create_or_skip("cuda", &cfg), *cpu = create_or_skip("cpu", &cfg);
    gpl_binned_matrix m = {N, F, bins, offset};
    OK(cpu->ops->upload(cpu, &m, t.y, NULL));
    OK(gpu->ops->upload(gpu, &m, t.y, NULL));
    float *margins = calloc((size_t)(N * K), sizeof(float)), *m2 = malloc(sizeof(float) * (size_t)(N * K));
    OK(cpu->ops->set_margins(cpu, margins));
    OK(gpu->ops->set_margins(gpu, margins));
    int trees = 0;
    for (int round = 0; round < 8; round++)
        for (int32_t k = 0; k < K; k++) {
            gpl_gradient_request req = {kind, K, k, round, 7, (float)subsample};
            gpl_grow_config gc = {&p, &cuts, M, NULL, {1, 1}, NULL};
            gpl_quant_scale s2;
            OK(cpu->ops->compute_gradients(cpu, &req, &gc.scale));
            OK(gpu->ops->compute_gradients(gpu, &req, &s2));
            assert_memory_equal(&gc.scale, &s2, sizeof s2);
            gpl_tree a = {0, NULL}, b = {0, NULL};
            OK(gpl_grow_tree(cpu, &gc, k, &a));
            OK(gpl_grow_tree(gpu, &gc, k, &b));
            compare_trees(&a, &b, round);
            trees += a.num_nodes > 1;
            free(a.nodes);
            free(b.nodes);
        }
    OK(cpu->ops->get_margins(cpu, margins));
    OK(gpu->ops->get_margins(gpu, m2));
    assert_memory_equal(margins, m2, sizeof(float) * (size_t)(N * K));
    assert_true(trees > 0);
    print_message("%s: %d trees identical, margins identical\n", name, 8 * K);
    gpl_backend_destroy(cpu);
    gpl_backend_destroy(gpu);
    free(margins);
    free(m2);
    free(bins);
    free(offset);
    gpl_bin_cuts_free(&cuts);
    gpulayer_dataset_free(ds);
    free_table(&t);
}

static void test_driver_logistic(void **state)
{
    (void)state;
    driver_case("logistic, depthwise", GPL_OBJ_LOGISTIC, 1, GPL_GROW_DEPTHWISE, 6, 0, 1.0);
}

static void test_driver_squared_lossguide(void **state)
{
    (void)state;
    driver_case("squared error, lossguide", GPL_OBJ_SQUARED_ERROR, 1, GPL_GROW_LOSSGUIDE, 0,
                24, 0.8);
}

static void test_driver_softmax(void **state)
{
    (void)state;
    driver_case("softmax, depthwise", GPL_OBJ_SOFTMAX, 3, GPL_GROW_DEPTHWISE, 5, 0, 1.0);
}

/* ------------------------------------------------ through the public API */

/* Removes the string value of every "key": in text (in place). */
static void blank_value(char *text, const char *key)
{
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\"", key);
    for (char *p = strstr(text, pattern); p; p = strstr(p + 1, pattern)) {
        char *q = strchr(p + strlen(pattern), '"');
        char *e = q ? strchr(q + 1, '"') : NULL;
        if (q && e) memmove(q + 1, e, strlen(e) + 1);
    }
}

/* The saved model without the device parameter's value and the checksum
 * (which covers that value). */
static char *train_and_save(const table *t, const char *const *kv, const char *device)
{
    gpulayer_dataset *ds;
    OK(gpulayer_dataset_from_dense(t->x, t->rows, t->cols, GPULAYER_ROW_MAJOR, t->y, NULL,
                                   &ds));
    gpulayer_booster *b;
    OK(gpulayer_booster_create(&b));
    for (int i = 0; kv[i]; i += 2) OK(gpulayer_booster_set_param(b, kv[i], kv[i + 1]));
    OK(gpulayer_booster_set_param(b, "device", device));
    if (gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL) != GPULAYER_OK) {
        char reason[1024];
        snprintf(reason, sizeof reason, "%s", gpulayer_last_error());
        gpulayer_booster_free(b);
        gpulayer_dataset_free(ds);
        if (strcmp(device, "cpu") != 0) {
            print_message("skipping: training with device=%s failed: %s\n", device, reason);
            skip();
        }
        fail_msg("training with device=cpu failed: %s", reason);
    }
    char *buf = NULL;
    size_t len = 0;
    OK(gpulayer_booster_save_to_buffer(b, &buf, &len));
    char *text = malloc(len + 1);
    memcpy(text, buf, len);
    text[len] = '\0';
    gpulayer_free_buffer(buf);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
    blank_value(text, "device");
    blank_value(text, "checksum");
    return text;
}

static void api_case(const char *name, const char *const *kv, int classes, int real)
{
    table t = make_table(50000, 10, classes, real);
    char *gpu = train_and_save(&t, kv, "cuda");
    char *cpu = train_and_save(&t, kv, "cpu");
    if (strcmp(cpu, gpu) != 0) {
        size_t i = 0;
        while (cpu[i] && cpu[i] == gpu[i]) i++;
        size_t from = i > 80 ? i - 80 : 0;
        fail_msg("%s: saved models differ at byte %zu:\ncpu:  %.160s\ncuda: %.160s", name, i,
                 cpu + from, gpu + from);
    }
    print_message("%s: saved models identical (%zu bytes)\n", name, strlen(cpu));
    free(cpu);
    free(gpu);
    free_table(&t);
}

static void test_api_binary(void **state)
{
    (void)state;
    const char *kv[] = {"objective", "binary:logistic", "num_round", "30", "max_depth", "6",
                        "eta", "0.2", "nthread", "2", NULL};
    api_case("binary:logistic", kv, 1, 0);
}

static void test_api_sampled_regression(void **state)
{
    (void)state;
    const char *kv[] = {"objective", "reg:squarederror", "num_round", "20", "max_depth", "5",
                        "subsample", "0.7", "colsample_bytree", "0.6", "alpha", "0.5",
                        "nthread", "2", NULL};
    api_case("reg:squarederror with sampling", kv, 1, 1);
}

static void test_api_multiclass_lossguide(void **state)
{
    (void)state;
    const char *kv[] = {"objective", "multi:softprob", "num_class", "3", "num_round", "10",
                        "grow_policy", "lossguide", "max_leaves", "20", "max_depth", "0",
                        "nthread", "2", NULL};
    api_case("multi:softprob, lossguide", kv, 3, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_driver_logistic),
        cmocka_unit_test(test_driver_squared_lossguide),
        cmocka_unit_test(test_driver_softmax),
        cmocka_unit_test(test_api_binary),
        cmocka_unit_test(test_api_sampled_regression),
        cmocka_unit_test(test_api_multiclass_lossguide),
    };
    GPL_RUN_IF_BACKEND("cuda", tests);
}
