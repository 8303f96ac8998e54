/* test_monotone_intermediate.c -- LightGBM's intermediate monotone method
 * on hand-made trees: the children's bounds, which leaves a new split
 * tightens and which it leaves alone (not next to the new leaves by value,
 * not open), and rows missing a feature counted on the side their splits
 * send them. */
#include "test_util.h"

#include <math.h>
#include <string.h>

#include "monotone_intermediate.h"

enum { NODES = 9 };

typedef struct tree {
    gpl_tree_node nodes[NODES];
    int32_t parent[NODES];
    uint8_t open[NODES];
    double bounds[2 * NODES];
    gpl_monotone_step path[NODES];
    int32_t moved[NODES];
} tree;

static const int8_t monotone[3] = {1, 0, 0};

static void split(tree *t, int32_t node, int32_t feature, int32_t bin, int default_left,
                  int32_t left, int32_t right)
{
    gpl_tree_node *n = &t->nodes[node];
    n->feature = feature;
    n->split_bin = bin;
    n->default_left = default_left;
    n->left = left;
    n->right = right;
    t->parent[left] = t->parent[right] = node;
    t->open[node] = 0;
}

/* Root 0: feature 0 (rising) at bin 5, children 1 and 2. Node 1: feature 1
 * at bin 2 into 3 and 4; node 3: feature 2 into the new leaves 7 and 8.
 * Node 2: feature 1 at bin 4 into leaves 5 and 6. */
static void make(tree *t, int node1_missing_left, int node2_missing_left)
{
    memset(t, 0, sizeof *t);
    for (int32_t i = 0; i < NODES; i++) {
        t->nodes[i].left = t->nodes[i].right = -1;
        t->open[i] = 1;
        t->bounds[2 * i] = -HUGE_VAL;
        t->bounds[2 * i + 1] = HUGE_VAL;
    }
    t->parent[0] = -1;
    split(t, 0, 0, 5, 1, 1, 2);
    split(t, 1, 1, 2, node1_missing_left, 3, 4);
    split(t, 2, 1, 4, node2_missing_left, 5, 6);
    split(t, 3, 2, 7, 1, 7, 8);
}

static int32_t update(tree *t, double wl, double wr)
{
    const gpl_monotone_tree view = {t->nodes, t->parent, monotone, t->open,
                                    t->bounds, t->path, NODES};
    return gpl_monotone_intermediate_update(&view, 3, wl, wr, t->moved);
}

static void test_children_bounds(void **state)
{
    (void)state;
    const double own[2] = {-1.0, 4.0};
    double left[2], right[2];
    gpl_monotone_intermediate_children(1, 0.5, 2.0, own, left, right);
    assert_true(left[0] == -1.0 && left[1] == 2.0 && right[0] == 0.5 && right[1] == 4.0);
    gpl_monotone_intermediate_children(-1, 3.0, 1.5, own, left, right);
    assert_true(left[0] == 1.5 && left[1] == 4.0 && right[0] == -1.0 && right[1] == 3.0);
    gpl_monotone_intermediate_children(0, 3.0, 1.5, own, left, right);
    assert_true(left[0] == -1.0 && left[1] == 4.0 && right[0] == -1.0 && right[1] == 4.0);
}

static void test_leaves_above_the_new_ones_get_their_weight_as_lower_bound(void **state)
{
    (void)state;
    tree t;
    make(&t, 1, 1);
    /* Leaf 5 (feature 1 at most bin 4) meets the new leaves (at most bin
     * 2) across the rising root split; leaf 6 (above bin 4) does not. */
    assert_int_equal(update(&t, 1.0, 2.0), 1);
    assert_int_equal(t.moved[0], 5);
    assert_true(t.bounds[2 * 5] == 2.0 && t.bounds[2 * 5 + 1] == HUGE_VAL);
    assert_true(t.bounds[2 * 6] == -HUGE_VAL);
    /* Nothing on their own side of the root is bound by them. */
    assert_true(t.bounds[2 * 4] == -HUGE_VAL && t.bounds[2 * 4 + 1] == HUGE_VAL);
    /* Bounds only tighten: a lower weight moves nothing. */
    assert_int_equal(update(&t, 0.5, 1.5), 0);
    assert_true(t.bounds[2 * 5] == 2.0);
}

static void test_closed_leaves_are_left_alone(void **state)
{
    (void)state;
    tree t;
    make(&t, 1, 1);
    t.open[5] = 0;
    assert_int_equal(update(&t, 1.0, 2.0), 0);
    assert_true(t.bounds[2 * 5] == -HUGE_VAL);
}

static void test_rows_missing_a_feature_make_leaves_neighbours(void **state)
{
    (void)state;
    tree t;
    /* Missing feature 1: left at node 1 (to the new leaves), right at node
     * 2 (to leaf 6), so leaf 6 touches them through such rows. */
    make(&t, 1, 0);
    assert_int_equal(update(&t, 1.0, 2.0), 2);
    assert_true(t.bounds[2 * 5] == 2.0 && t.bounds[2 * 6] == 2.0);
    /* Missing values sent away from the new leaves at node 1: by value only. */
    make(&t, 0, 0);
    assert_int_equal(update(&t, 1.0, 2.0), 1);
    assert_int_equal(t.moved[0], 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_children_bounds),
        cmocka_unit_test(test_leaves_above_the_new_ones_get_their_weight_as_lower_bound),
        cmocka_unit_test(test_closed_leaves_are_left_alone),
        cmocka_unit_test(test_rows_missing_a_feature_make_leaves_neighbours),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
