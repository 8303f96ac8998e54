/* test_grow.c -- the tree driver (src/core/train/grow.c) over the CPU backend,
 * watched through a wrapper of its operations: the limits of each growth
 * policy, the batches each one hands to the backend, and the lifetime of
 * the histograms (nothing used after its release, nothing released twice). */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "binning.h"
#include "gpulayer.h"
#include "grow.h"
#include "params.h"

enum { N = 3000, F = 6, MAX_CALLS = 4096 };

#define OK(expr)                                                                   \
    do {                                                                           \
        gpulayer_status ok_status_ = (expr);                                       \
        if (ok_status_ != GPULAYER_OK) fail_msg("%s: %s", #expr, gpulayer_last_error()); \
    } while (0)

/* ------------------------------------------------ the watching backend */

typedef enum op_kind { OP_EVALUATE, OP_PARTITION, OP_LEAVES } op_kind;

/* One batch the driver handed over: its kind and node ids (for a split,
 * the parents). */
typedef struct op_call {
    op_kind kind;
    int32_t count;
    int32_t first_node;
} op_call;

static struct {
    const struct gpl_backend_ops *real;
    struct gpl_backend_ops ops;
    op_call calls[MAX_CALLS];
    int num_calls;
    uint8_t *alive; /* max_nodes: the node has a histogram */
    int32_t max_nodes;
} watch;

static void record(op_kind kind, int32_t count, int32_t first_node)
{
    assert_true(watch.num_calls < MAX_CALLS);
    watch.calls[watch.num_calls++] = (op_call){kind, count, first_node};
}

static void expect_alive(int32_t node)
{
    assert_true(node >= 0 && node < watch.max_nodes);
    if (!watch.alive[node]) fail_msg("node %d's histogram used while it has none", node);
}

static gpulayer_status w_begin_tree(gpl_backend *be)
{
    memset(watch.alive, 0, (size_t)watch.max_nodes);
    return watch.real->begin_tree(be);
}

static gpulayer_status w_build(gpl_backend *be, const int32_t *nodes, int32_t count)
{
    for (int32_t i = 0; i < count; i++) watch.alive[nodes[i]] = 1;
    return watch.real->build_histograms(be, nodes, count);
}

static gpulayer_status w_subtract(gpl_backend *be, const gpl_hist_subtract *subs,
                                  int32_t count)
{
    for (int32_t i = 0; i < count; i++) {
        expect_alive(subs[i].parent);
        expect_alive(subs[i].built);
        watch.alive[subs[i].target] = 1;
    }
    return watch.real->subtract_histograms(be, subs, count);
}

static gpulayer_status w_evaluate(gpl_backend *be, const int32_t *nodes, int32_t count,
                                  const gpl_split_params *p, const uint8_t *mask,
                                  gpl_split_record *out)
{
    for (int32_t i = 0; i < count; i++) expect_alive(nodes[i]);
    record(OP_EVALUATE, count, nodes[0]);
    return watch.real->evaluate_splits(be, nodes, count, p, mask, out);
}

static gpulayer_status w_partition(gpl_backend *be, const gpl_split_apply *splits,
                                   int32_t count, int64_t *child_rows)
{
    record(OP_PARTITION, count, splits[0].node);
    return watch.real->partition_rows(be, splits, count, child_rows);
}

/* The CPU backend has no split_into_leaves: a stand-in that partitions,
 * so that the driver's leaf path is watched too. */
static gpulayer_status w_leaves(gpl_backend *be, const gpl_split_apply *splits,
                                int32_t count)
{
    record(OP_LEAVES, count, splits[0].node);
    int64_t *rows = malloc(sizeof(int64_t) * 2 * (size_t)count);
    assert_non_null(rows);
    gpulayer_status st = watch.real->partition_rows(be, splits, count, rows);
    free(rows);
    return st;
}

static gpulayer_status w_release(gpl_backend *be, const int32_t *nodes, int32_t count)
{
    for (int32_t i = 0; i < count; i++) {
        expect_alive(nodes[i]);
        watch.alive[nodes[i]] = 0;
    }
    return watch.real->release_histograms(be, nodes, count);
}

/* ------------------------------------------------ data and trees */

typedef struct fixture {
    gpulayer_dataset *ds;
    float *y;
    gpl_bin_cuts cuts;
    uint8_t *bins;
    uint32_t *offset;
} fixture;

/* A target with several interacting features, so that trees grow wide and
 * deep; feature 5 has missing values. */
static fixture make_fixture(void)
{
    fixture fx;
    float *x = malloc(sizeof(float) * N * F);
    fx.y = malloc(sizeof(float) * N);
    assert_non_null(x);
    assert_non_null(fx.y);
    srand(11);
    for (int r = 0; r < N; r++) {
        for (int f = 0; f < F; f++) x[r * F + f] = (float)rand() / (float)RAND_MAX;
        if (r % 9 == 0) x[r * F + 5] = NAN;
        fx.y[r] = (float)(sin(6 * x[r * F]) + x[r * F + 1] * x[r * F + 2] +
                          (x[r * F + 3] > 0.5f) + 0.2 * rand() / RAND_MAX);
    }
    OK(gpulayer_dataset_from_dense(x, N, F, GPULAYER_ROW_MAJOR, fx.y, NULL, &fx.ds));
    free(x);
    OK(gpl_bin_cuts_build(fx.ds, 64, 1, &fx.cuts));
    OK(gpl_bin_matrix(&fx.cuts, fx.ds, 1, &fx.bins));
    OK(gpl_feature_offsets(&fx.cuts, &fx.offset));
    return fx;
}

static void free_fixture(fixture *fx)
{
    free(fx->bins);
    free(fx->offset);
    gpl_bin_cuts_free(&fx->cuts);
    gpulayer_dataset_free(fx->ds);
    free(fx->y);
}

/* Grows one squared-error tree from zero margins with these limits,
 * recording the batches in watch. */
static gpl_tree grow_one(fixture *fx, gpl_grow_policy policy, int32_t max_depth,
                         int32_t max_leaves)
{
    gpl_params p;
    memset(&p, 0, sizeof p);
    p.eta = 0.3;
    p.lambda = 1.0;
    p.min_child_weight = 1.0;
    p.max_depth = max_depth;
    p.max_leaves = max_leaves;
    p.grow_policy = policy;
    const int32_t M = gpl_grow_max_nodes(&p, N);
    gpl_backend_config bc = {1, 0, M, 1, 0};
    gpl_backend *be;
    OK(gpl_backend_create("cpu", &bc, &be));
    watch.real = be->ops;
    watch.ops = *be->ops;
    watch.ops.begin_tree = w_begin_tree;
    watch.ops.build_histograms = w_build;
    watch.ops.subtract_histograms = w_subtract;
    watch.ops.evaluate_splits = w_evaluate;
    watch.ops.partition_rows = w_partition;
    watch.ops.split_into_leaves = w_leaves;
    watch.ops.capabilities |= GPL_BACKEND_CAP_SPLIT_INTO_LEAVES;
    watch.ops.release_histograms = w_release;
    watch.num_calls = 0;
    watch.max_nodes = M;
    watch.alive = calloc((size_t)M, 1);
    assert_non_null(watch.alive);
    be->ops = &watch.ops;

    gpl_binned_matrix m = {N, F, fx->bins, fx->offset, NULL, 1};
    OK(be->ops->upload(be, &m, fx->y, NULL));
    float *margins = calloc(N, sizeof(float));
    assert_non_null(margins);
    OK(be->ops->set_margins(be, margins));
    gpl_gradient_request req = {GPL_OBJ_SQUARED_ERROR, 1, 0, 0, 7, 1.0f, 0.0, {0}, 0, 0, 0, {0}};
    gpl_grow_config gc = {.params = &p, .cuts = &fx->cuts, .max_nodes = M, .scale = {1, 1}};
    OK(be->ops->compute_gradients(be, &req, &gc.scale));
    gpl_tree t = {0, NULL};
    OK(gpl_grow_tree(be, &gc, 0, &t));

    be->ops = watch.real;
    gpl_backend_destroy(be);
    free(watch.alive);
    watch.alive = NULL;
    free(margins);
    return t;
}

static int32_t count_leaves(const gpl_tree *t)
{
    int32_t leaves = 0;
    for (int32_t i = 0; i < t->num_nodes; i++) leaves += t->nodes[i].left < 0;
    return leaves;
}

static int32_t tree_depth(const gpl_tree *t, int32_t node)
{
    const gpl_tree_node *n = &t->nodes[node];
    if (n->left < 0) return 0;
    int32_t l = tree_depth(t, n->left), r = tree_depth(t, n->right);
    return 1 + (l > r ? l : r);
}

/* ------------------------------------------------ tests */

/* Lossguide stops at exactly max_leaves when the data have more to give,
 * and the depth limit still holds beside it. */
static void test_lossguide_honours_max_leaves(void **state)
{
    (void)state;
    fixture fx = make_fixture();
    const int32_t limits[] = {2, 3, 7, 16, 31};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        gpl_tree t = grow_one(&fx, GPL_GROW_LOSSGUIDE, 0, limits[i]);
        assert_int_equal(count_leaves(&t), limits[i]);
        assert_int_equal(t.num_nodes, 2 * limits[i] - 1);
        free(t.nodes);
    }
    gpl_tree t = grow_one(&fx, GPL_GROW_LOSSGUIDE, 3, 31);
    assert_true(tree_depth(&t, 0) <= 3);
    assert_true(count_leaves(&t) <= 8);
    free(t.nodes);
    free_fixture(&fx);
}

/* Lossguide splits one leaf at a time and evaluates its two children
 * together. */
static void test_lossguide_batches_of_one(void **state)
{
    (void)state;
    fixture fx = make_fixture();
    gpl_tree t = grow_one(&fx, GPL_GROW_LOSSGUIDE, 4, 12);
    assert_true(watch.num_calls > 2);
    assert_int_equal(watch.calls[0].kind, OP_EVALUATE);
    assert_int_equal(watch.calls[0].count, 1);
    for (int i = 1; i < watch.num_calls; i++) {
        const op_call *c = &watch.calls[i];
        if (c->kind == OP_EVALUATE) {
            assert_int_equal(c->count, 2);
            assert_int_equal(watch.calls[i - 1].kind, OP_PARTITION);
            assert_int_equal(t.nodes[watch.calls[i - 1].first_node].left, c->first_node);
        } else {
            assert_int_equal(c->count, 1);
        }
    }
    assert_int_equal(count_leaves(&t), 12);
    free(t.nodes);
    free_fixture(&fx);
}

/* Depthwise hands over whole levels: each evaluation is the children of
 * the level just partitioned, and the last level splits into leaves. */
static void test_depthwise_batches_are_levels(void **state)
{
    (void)state;
    fixture fx = make_fixture();
    gpl_tree t = grow_one(&fx, GPL_GROW_DEPTHWISE, 4, 0);
    assert_int_equal(tree_depth(&t, 0), 4);
    int32_t split = 0; /* splits applied before the current level */
    for (int i = 0; i < watch.num_calls; i++) {
        const op_call *c = &watch.calls[i];
        if (c->kind == OP_EVALUATE && i > 0) {
            assert_int_equal(watch.calls[i - 1].kind, OP_PARTITION);
            assert_int_equal(c->count, 2 * watch.calls[i - 1].count);
        }
        if (c->kind != OP_EVALUATE) split += c->count;
        if (c->kind == OP_LEAVES) assert_int_equal(i, watch.num_calls - 1);
    }
    assert_int_equal(watch.calls[watch.num_calls - 1].kind, OP_LEAVES);
    assert_int_equal(split, count_leaves(&t) - 1);
    free(t.nodes);
    free_fixture(&fx);
}

/* Depthwise with max_leaves: the level that reaches it splits straight
 * into leaves, and the limit holds. */
static void test_depthwise_honours_max_leaves(void **state)
{
    (void)state;
    fixture fx = make_fixture();
    const int32_t limits[] = {2, 5, 9};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        gpl_tree t = grow_one(&fx, GPL_GROW_DEPTHWISE, 6, limits[i]);
        assert_int_equal(count_leaves(&t), limits[i]);
        assert_int_equal(watch.calls[watch.num_calls - 1].kind, OP_LEAVES);
        free(t.nodes);
    }
    free_fixture(&fx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lossguide_honours_max_leaves),
        cmocka_unit_test(test_lossguide_batches_of_one),
        cmocka_unit_test(test_depthwise_batches_are_levels),
        cmocka_unit_test(test_depthwise_honours_max_leaves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
