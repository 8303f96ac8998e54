/* The operation table's version and capability word (src/backend/backend.h):
 * gpl_backend_new refuses a table of another version, one without a
 * required operation, or one whose capabilities misstate its optional
 * operations; gpl_backend_has reads the word. The tables here are fakes
 * whose operations are never called. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "error.h"

static void fake_destroy(gpl_backend *be)
{
    free(be->ctx);
    free(be);
}

static gpulayer_status fake_upload(gpl_backend *be, const gpl_binned_matrix *m,
                                   const float *label, const float *weight)
{
    (void)be, (void)m, (void)label, (void)weight;
    return GPULAYER_OK;
}

static gpulayer_status fake_margins(gpl_backend *be, const float *margins)
{
    (void)be, (void)margins;
    return GPULAYER_OK;
}

static gpulayer_status fake_get_margins(gpl_backend *be, float *margins)
{
    (void)be, (void)margins;
    return GPULAYER_OK;
}

static gpulayer_status fake_gradients(gpl_backend *be, const gpl_gradient_request *req,
                                      gpl_quant_scale *scale)
{
    (void)be, (void)req, (void)scale;
    return GPULAYER_OK;
}

static gpulayer_status fake_begin_tree(gpl_backend *be)
{
    (void)be;
    return GPULAYER_OK;
}

static gpulayer_status fake_nodes(gpl_backend *be, const int32_t *nodes, int32_t count)
{
    (void)be, (void)nodes, (void)count;
    return GPULAYER_OK;
}

static gpulayer_status fake_subtract(gpl_backend *be, const gpl_hist_subtract *subs,
                                     int32_t count)
{
    (void)be, (void)subs, (void)count;
    return GPULAYER_OK;
}

static gpulayer_status fake_evaluate(gpl_backend *be, const int32_t *nodes, int32_t count,
                                     const gpl_split_params *params, const uint8_t *mask,
                                     gpl_split_record *out)
{
    (void)be, (void)nodes, (void)count, (void)params, (void)mask, (void)out;
    return GPULAYER_OK;
}

static gpulayer_status fake_partition(gpl_backend *be, const gpl_split_apply *splits,
                                      int32_t count, int64_t *child_rows)
{
    (void)be, (void)splits, (void)count, (void)child_rows;
    return GPULAYER_OK;
}

static gpulayer_status fake_update(gpl_backend *be, int32_t output, const float *leaf)
{
    (void)be, (void)output, (void)leaf;
    return GPULAYER_OK;
}

static gpulayer_status fake_read(gpl_backend *be, int32_t node, gpl_grad_pair *out)
{
    (void)be, (void)node, (void)out;
    return GPULAYER_OK;
}

static void fake_memory(gpl_backend *be, gpl_memory_report *out)
{
    (void)be;
    memset(out, 0, sizeof *out);
}

static gpulayer_status fake_leaves(gpl_backend *be, const gpl_split_apply *splits,
                                   int32_t count)
{
    (void)be, (void)splits, (void)count;
    return GPULAYER_OK;
}

static gpulayer_status fake_write(gpl_backend *be, int32_t node, const gpl_grad_pair *in)
{
    (void)be, (void)node, (void)in;
    return GPULAYER_OK;
}

static gpulayer_status fake_predict(gpl_backend *be, const gpl_predict_job *job,
                                    float *margins)
{
    (void)be, (void)job, (void)margins;
    return GPULAYER_OK;
}

static gpulayer_status fake_refit_sort(gpl_backend *be, const gpl_gradient_request *req,
                                       const gpl_infer_node *nodes, const uint32_t *sets,
                                       int32_t num_nodes, int64_t *leaf_rows)
{
    (void)be, (void)req, (void)nodes, (void)sets, (void)num_nodes, (void)leaf_rows;
    return GPULAYER_OK;
}

static gpulayer_status fake_refit_values(gpl_backend *be, const int64_t *positions,
                                         int32_t count, float *values)
{
    (void)be, (void)positions, (void)count, (void)values;
    return GPULAYER_OK;
}

static gpulayer_status fake_groups(gpl_backend *be, const gpl_rank_groups *groups)
{
    (void)be, (void)groups;
    return GPULAYER_OK;
}

static gpulayer_status fake_shap(gpl_backend *be, const gpl_shap_job *job, float *out)
{
    (void)be, (void)job, (void)out;
    return GPULAYER_OK;
}

static gpulayer_status fake_order(gpl_backend *be, const gpl_survival_order *order)
{
    (void)be, (void)order;
    return GPULAYER_OK;
}

/* A table with every required operation and no optional one. */
static struct gpl_backend_ops required_only(void)
{
    return (struct gpl_backend_ops){
        .version = GPL_BACKEND_OPS_VERSION,
        .name = "fake",
        .destroy = fake_destroy,
        .upload = fake_upload,
        .set_margins = fake_margins,
        .get_margins = fake_get_margins,
        .compute_gradients = fake_gradients,
        .begin_tree = fake_begin_tree,
        .build_histograms = fake_nodes,
        .subtract_histograms = fake_subtract,
        .evaluate_splits = fake_evaluate,
        .partition_rows = fake_partition,
        .update_margins = fake_update,
        .release_histograms = fake_nodes,
        .read_histogram = fake_read,
        .memory = fake_memory,
    };
}

/* The same with every optional operation, as its capabilities say. */
static struct gpl_backend_ops every_operation(void)
{
    struct gpl_backend_ops ops = required_only();
    ops.capabilities = GPL_BACKEND_CAP_ALL;
    ops.split_into_leaves = fake_leaves;
    ops.write_pairs = fake_write;
    ops.predict = fake_predict;
    ops.refit_sort = fake_refit_sort;
    ops.refit_values = fake_refit_values;
    ops.set_groups = fake_groups;
    ops.shap = fake_shap;
    ops.set_survival_order = fake_order;
    return ops;
}

static const gpl_backend_config config = {1, 0, 7, 1, 0};

/* Creates a backend over ops, which must be accepted. */
static gpl_backend *accepted(const struct gpl_backend_ops *ops)
{
    gpl_backend *be = NULL;
    gpulayer_status st = gpl_backend_new("fake", ops, &config, 16, &be);
    if (st != GPULAYER_OK) fail_msg("refused: %s", gpl_error_message());
    assert_non_null(be);
    assert_ptr_equal(be->ops, ops);
    return be;
}

/* ops must be refused with a message that names the backend and has what. */
static void refused(const struct gpl_backend_ops *ops, const char *what)
{
    static gpl_backend stale;
    gpl_backend *be = &stale; /* the refusal must clear it */
    assert_int_equal(gpl_backend_new("fake", ops, &config, 16, &be), GPULAYER_ERR_INTERNAL);
    assert_null(be);
    const char *message = gpl_error_message();
    if (strncmp(message, "fake backend: ", 14) != 0 || !strstr(message, what))
        fail_msg("message '%s' lacks 'fake backend: ' or '%s'", message, what);
}

static const unsigned every_cap[] = {
    GPL_BACKEND_CAP_SPLIT_INTO_LEAVES, GPL_BACKEND_CAP_WRITE_PAIRS, GPL_BACKEND_CAP_PREDICT,
    GPL_BACKEND_CAP_REFIT, GPL_BACKEND_CAP_RANK_GROUPS, GPL_BACKEND_CAP_SHAP,
    GPL_BACKEND_CAP_WIDE_BINS, GPL_BACKEND_CAP_WIDE_PREDICT, GPL_BACKEND_CAP_SURVIVAL_ORDER,
    GPL_BACKEND_CAP_WIDE_SETS, GPL_BACKEND_CAP_WIDE_CATEGORIES,
};
enum { NUM_CAPS = sizeof every_cap / sizeof every_cap[0] };

/* The bits are distinct and GPL_BACKEND_CAP_ALL is all of them. */
static void test_capability_bits(void **state)
{
    (void)state;
    unsigned all = 0;
    for (int i = 0; i < NUM_CAPS; i++) {
        assert_int_equal(all & every_cap[i], 0);
        all |= every_cap[i];
    }
    assert_int_equal(all, GPL_BACKEND_CAP_ALL);
}

static void test_tables_that_tell_the_truth(void **state)
{
    (void)state;
    struct gpl_backend_ops none = required_only();
    gpl_backend *be = accepted(&none);
    for (int i = 0; i < NUM_CAPS; i++) assert_false(gpl_backend_has(be, every_cap[i]));
    gpl_backend_destroy(be);

    struct gpl_backend_ops all = every_operation();
    be = accepted(&all);
    for (int i = 0; i < NUM_CAPS; i++) assert_true(gpl_backend_has(be, every_cap[i]));
    assert_true(gpl_backend_has(be, GPL_BACKEND_CAP_ALL));
    gpl_backend_destroy(be);

    /* One optional operation: has it, and a question naming it with
     * another is answered no. */
    struct gpl_backend_ops some = required_only();
    some.capabilities = GPL_BACKEND_CAP_PREDICT;
    some.predict = fake_predict;
    be = accepted(&some);
    assert_true(gpl_backend_has(be, GPL_BACKEND_CAP_PREDICT));
    assert_false(gpl_backend_has(be, GPL_BACKEND_CAP_WRITE_PAIRS));
    assert_false(gpl_backend_has(be, GPL_BACKEND_CAP_PREDICT | GPL_BACKEND_CAP_REFIT));
    gpl_backend_destroy(be);
}

static void test_another_version_is_refused(void **state)
{
    (void)state;
    struct gpl_backend_ops ops = every_operation();
    ops.version = 0; /* a table that never set its version */
    refused(&ops, "operation table version 0");
    ops.version = GPL_BACKEND_OPS_VERSION + 1;
    refused(&ops, "this library reads version 2");
}

/* A table claims what it lacks, or sets what it does not claim. */
static void test_capabilities_must_match_the_members(void **state)
{
    (void)state;
    static const struct {
        unsigned cap;
        const char *member;
    } cases[] = {
        {GPL_BACKEND_CAP_SPLIT_INTO_LEAVES, "split_into_leaves"},
        {GPL_BACKEND_CAP_WRITE_PAIRS, "write_pairs"},
        {GPL_BACKEND_CAP_PREDICT, "predict"},
        {GPL_BACKEND_CAP_REFIT, "refit_sort"},
        {GPL_BACKEND_CAP_RANK_GROUPS, "set_groups"},
        {GPL_BACKEND_CAP_SHAP, "shap"},
        {GPL_BACKEND_CAP_SURVIVAL_ORDER, "set_survival_order"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char claim[96], unclaimed[96];
        snprintf(claim, sizeof claim, "capabilities claim %s,", cases[i].member);
        snprintf(unclaimed, sizeof unclaimed, "sets %s without", cases[i].member);
        struct gpl_backend_ops ops = required_only();
        ops.capabilities = cases[i].cap;
        refused(&ops, claim);
        ops = every_operation();
        ops.capabilities &= ~cases[i].cap;
        refused(&ops, unclaimed);
    }
    /* The refit needs both of its members. */
    struct gpl_backend_ops ops = every_operation();
    ops.refit_values = NULL;
    refused(&ops, "capabilities claim refit_values,");
    ops = required_only();
    ops.refit_values = fake_refit_values;
    refused(&ops, "sets refit_values without");
    /* A bit that names nothing. */
    ops = every_operation();
    ops.capabilities |= 1u << 31;
    refused(&ops, "capabilities 0x80000000 name bits");
}

static void test_a_required_operation_is_refused_missing(void **state)
{
    (void)state;
    struct gpl_backend_ops ops = required_only();
    ops.read_histogram = NULL;
    refused(&ops, "lacks read_histogram");
    ops = every_operation();
    ops.update_margins = NULL;
    refused(&ops, "lacks update_margins");
}

/* The CPU backend's table passes the same checks and says what it has. */
static void test_cpu_backend_capabilities(void **state)
{
    (void)state;
    gpl_backend *be = NULL;
    assert_int_equal(gpl_backend_create("cpu", &config, &be), GPULAYER_OK);
    assert_int_equal(be->ops->version, GPL_BACKEND_OPS_VERSION);
    assert_true(gpl_backend_has(be, GPL_BACKEND_CAP_WRITE_PAIRS | GPL_BACKEND_CAP_RANK_GROUPS));
    assert_false(gpl_backend_has(be, GPL_BACKEND_CAP_SPLIT_INTO_LEAVES));
    assert_false(gpl_backend_has(be, GPL_BACKEND_CAP_PREDICT));
    assert_false(gpl_backend_has(be, GPL_BACKEND_CAP_REFIT));
    gpl_backend_destroy(be);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_capability_bits),
        cmocka_unit_test(test_tables_that_tell_the_truth),
        cmocka_unit_test(test_another_version_is_refused),
        cmocka_unit_test(test_capabilities_must_match_the_members),
        cmocka_unit_test(test_a_required_operation_is_refused_missing),
        cmocka_unit_test(test_cpu_backend_capabilities),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
