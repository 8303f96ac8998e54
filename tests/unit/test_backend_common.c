/* The host layer every backend shares (src/backend/common): the order in
 * which the histogram slot pool hands out slots, the node table after a
 * partition, and the wording of the shared checks. */
#include "test_util.h"

#include <stdint.h>
#include <string.h>

#include "common/checks.h"
#include "common/hist_slots.h"
#include "common/node_table.h"
#include "error.h"

typedef struct grow_log {
    int calls;
    int32_t step; /* slots made a call */
} grow_log;

static gpulayer_status grow(void *user, int32_t node, int32_t first, int32_t room,
                            int32_t *made)
{
    grow_log *g = user;
    (void)node;
    (void)first;
    g->calls++;
    *made = g->step < room ? g->step : room;
    return GPULAYER_OK;
}

static int32_t take(gpl_hist_slots *p, int32_t node)
{
    int32_t s = -1;
    assert_int_equal(gpl_hist_slots_acquire(p, NULL, node, &s), GPULAYER_OK);
    return s;
}

/* One slot a call (CPU, Vulkan, Metal): new slots in order, released ones
 * last in first out, a tree's end releases in node order. */
static void test_slots_one_at_a_time(void **state)
{
    (void)state;
    grow_log g = {0, 1};
    gpl_hist_slots p;
    assert_int_equal(gpl_hist_slots_init(&p, "test", 8, grow, &g), 0);
    assert_int_equal(take(&p, 3), 0);
    assert_int_equal(take(&p, 3), 0); /* its own again */
    assert_int_equal(take(&p, 5), 1);
    assert_int_equal(take(&p, 1), 2);
    assert_int_equal(g.calls, 3);
    gpl_hist_slots_release(&p, 3);
    gpl_hist_slots_release(&p, 1);
    gpl_hist_slots_release(&p, 7); /* no slot: ignored */
    assert_int_equal(gpl_hist_slot(&p, 3), -1);
    assert_int_equal(take(&p, 6), 2);
    assert_int_equal(take(&p, 0), 0);
    assert_int_equal(take(&p, 2), 3);
    assert_int_equal(g.calls, 4);
    gpl_hist_slots_release_all(&p); /* nodes 0, 2, 5, 6: slots 0, 3, 1, 2 */
    assert_int_equal(take(&p, 4), 2);
    assert_int_equal(take(&p, 4), 2);
    assert_int_equal(take(&p, 1), 1);
    assert_int_equal(take(&p, 0), 3);
    assert_int_equal(take(&p, 7), 0);
    assert_int_equal(gpl_hist_slot(&p, -1), -1);
    assert_int_equal(gpl_hist_slot(&p, 8), -1);
    gpl_hist_slots_free(&p);
}

/* Planned slots handed out lowest first; a growth of several (CUDA) hands
 * out its highest first; never more than max_nodes slots. */
static void test_slots_planned_and_grown(void **state)
{
    (void)state;
    grow_log g = {0, 3};
    gpl_hist_slots p;
    assert_int_equal(gpl_hist_slots_init(&p, "test", 6, grow, &g), 0);
    gpl_hist_slots_add(&p, 2);
    assert_int_equal(take(&p, 0), 0);
    assert_int_equal(take(&p, 1), 1);
    assert_int_equal(g.calls, 0);
    assert_int_equal(take(&p, 2), 4);
    assert_int_equal(take(&p, 3), 3);
    assert_int_equal(take(&p, 4), 2);
    assert_int_equal(take(&p, 5), 5); /* room for one more only */
    assert_int_equal(g.calls, 2);
    assert_int_equal(p.num_slots, 6);
    gpl_hist_slots_free(&p);
}

static void test_node_table(void **state)
{
    (void)state;
    gpl_node_table t;
    assert_int_equal(gpl_node_table_init(&t, 7), 0);
    gpl_node_table_reset(&t, 100);
    assert_int_equal(t.state[0], GPL_NODE_LIVE);
    assert_int_equal(gpl_node_live_rows(&t, 0), 100);
    assert_int_equal(gpl_node_live_rows(&t, 1), 0);
    const gpl_split_apply s = {0, 2, 10, 1, 1, 2, 0, {0}, NULL};
    int64_t rows[2];
    gpl_node_table_apply_children(&t, &s, 30, 1, rows);
    assert_int_equal(rows[0], 30);
    assert_int_equal(rows[1], 70);
    assert_int_equal(t.state[0], GPL_NODE_SPLIT);
    assert_int_equal(t.begin[2], 30);
    assert_int_equal(t.count[2], 70);
    assert_int_equal(t.depth[1], 1);
    assert_int_equal(t.buf[2], 1);
    assert_int_equal(gpl_node_live_rows(&t, 0), 0);
    gpl_node_table_reset(&t, 50);
    assert_int_equal(t.state[1], GPL_NODE_UNUSED);
    assert_int_equal(t.count[0], 50);
    gpl_node_table_free(&t);
}

static void test_check_messages(void **state)
{
    (void)state;
    gpl_node_table t;
    gpl_hist_slots p;
    grow_log g = {0, 1};
    assert_int_equal(gpl_node_table_init(&t, 3), 0);
    assert_int_equal(gpl_hist_slots_init(&p, "vulkan", 3, grow, &g), 0);
    gpl_node_table_reset(&t, 10);
    assert_int_equal(gpl_check_node_id("vulkan", "histogram", 3, 3), GPULAYER_ERR_INTERNAL);
    assert_string_equal(gpl_error_message(), "vulkan backend: histogram: node id 3 outside 0..2");
    gpl_check_node_id("cpu", NULL, -1, 3);
    assert_string_equal(gpl_error_message(), "cpu backend: node id -1 outside 0..2");
    assert_int_equal(gpl_check_node_live("cuda", "partition_rows", &t, 1), GPULAYER_ERR_INTERNAL);
    assert_string_equal(gpl_error_message(), "cuda backend: partition_rows: node 1 holds no rows");
    gpl_split_apply s = {0, 4, 3, 0, 1, 2, 0, {0}, NULL};
    assert_int_equal(gpl_check_split("metal", &t, 5, &s), GPULAYER_OK);
    s.bin = 65535;
    assert_int_equal(gpl_check_split("metal", &t, 5, &s), GPULAYER_OK);
    s.bin = 65536;
    assert_int_equal(gpl_check_split("metal", &t, 5, &s), GPULAYER_ERR_INTERNAL);
    assert_string_equal(gpl_error_message(), "metal backend: invalid split of node 0");
    assert_int_equal(gpl_check_histogram("cpu", NULL, GPULAYER_ERR_INVALID_ARGUMENT, &p, 2),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_string_equal(gpl_error_message(), "cpu backend: node 2 has no histogram");
    gpl_check_histogram("cpu", "evaluate_splits", GPULAYER_ERR_INTERNAL, &p, 2);
    assert_string_equal(gpl_error_message(), "cpu backend: evaluate_splits: node 2 has no histogram");
    take(&p, 0);
    const gpl_hist_subtract sub = {0, 1, 2};
    assert_int_equal(gpl_check_subtract("cuda", &p, &sub), GPULAYER_ERR_INTERNAL);
    assert_string_equal(gpl_error_message(),
                        "cuda backend: subtract needs the histograms of nodes 0 and 1");
    const gpl_predict_job none = {NULL, 0, NULL, 1, NULL, NULL, 0, NULL};
    assert_int_equal(gpl_check_predict_job("vulkan", &none), GPULAYER_OK);
    const float base = 0.0f;
    const gpl_predict_job bad = {NULL, 0, &base, 1, NULL, NULL, 5, NULL};
    assert_int_equal(gpl_check_predict_job("vulkan", &bad), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_string_equal(gpl_error_message(), "vulkan backend: predict: 0 outputs, 1 features");
    const gpl_predict_job no_base = {NULL, 1, NULL, 1, NULL, NULL, 5, NULL};
    assert_int_equal(gpl_check_predict_job("vulkan", &no_base), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_string_equal(gpl_error_message(),
                        "vulkan backend: predict: 1 outputs, 1 features, no base margins");
    assert_int_equal(gpl_check_row_limit("cpu", 4294967294LL), GPULAYER_OK);
    assert_int_equal(gpl_check_row_limit("cpu", 4294967295LL), GPULAYER_ERR_UNSUPPORTED);
    assert_string_equal(gpl_error_message(),
                        "cpu backend: 4294967295 rows exceed the limit of 2^32 - 1");
    const int32_t nodes[2] = {0, 2};
    gpl_hist_slots_release_nodes(&p, nodes, 2);
    assert_int_equal(gpl_hist_slot(&p, 0), -1);
    gpl_hist_slots_free(&p);
    gpl_node_table_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slots_one_at_a_time),
        cmocka_unit_test(test_slots_planned_and_grown),
        cmocka_unit_test(test_node_table),
        cmocka_unit_test(test_check_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
