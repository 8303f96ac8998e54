/* checks.c -- the checks the backends share (checks.h). */
#include "checks.h"

#include "error.h"

gpulayer_status gpl_check_node_id(const char *backend, const char *op, int32_t node,
                                  int32_t max_nodes)
{
    if (node >= 0 && node < max_nodes) return GPULAYER_OK;
    return gpl_error(GPULAYER_ERR_INTERNAL, "%s backend: %s%snode id %d outside 0..%d", backend,
                     op ? op : "", op ? ": " : "", node, max_nodes - 1);
}

gpulayer_status gpl_check_node_live(const char *backend, const char *op,
                                    const gpl_node_table *t, int32_t node)
{
    if (node >= 0 && node < t->max_nodes && t->state[node] == GPL_NODE_LIVE) return GPULAYER_OK;
    return gpl_error(GPULAYER_ERR_INTERNAL, "%s backend: %s: node %d holds no rows", backend, op,
                     node);
}

gpulayer_status gpl_check_split(const char *backend, const gpl_node_table *t,
                                int32_t num_features, const gpl_split_apply *s)
{
    const int32_t M = t->max_nodes;
    if (s->node < 0 || s->node >= M || t->state[s->node] != GPL_NODE_LIVE ||
        s->left_child < 0 || s->left_child >= M || s->right_child < 0 ||
        s->right_child >= M || s->feature < 0 || s->feature >= num_features ||
        (!s->categorical && (s->bin < 0 || s->bin > GPL_MAX_BIN_CODE)))
        return gpl_error(GPULAYER_ERR_INTERNAL, "%s backend: invalid split of node %d", backend,
                         s->node);
    return GPULAYER_OK;
}

gpulayer_status gpl_check_histogram(const char *backend, const char *op, gpulayer_status status,
                                    const gpl_hist_slots *slots, int32_t node)
{
    if (gpl_hist_slot(slots, node) >= 0) return GPULAYER_OK;
    return gpl_error(status, "%s backend: %s%snode %d has no histogram", backend, op ? op : "",
                     op ? ": " : "", node);
}

gpulayer_status gpl_check_subtract(const char *backend, const gpl_hist_slots *slots,
                                   const gpl_hist_subtract *s)
{
    GPL_CHECK(gpl_check_node_id(backend, "subtract_histograms", s->parent, slots->max_nodes));
    GPL_CHECK(gpl_check_node_id(backend, "subtract_histograms", s->built, slots->max_nodes));
    if (gpl_hist_slot(slots, s->parent) < 0 || gpl_hist_slot(slots, s->built) < 0)
        return gpl_error(GPULAYER_ERR_INTERNAL,
                         "%s backend: subtract needs the histograms of nodes %d and %d", backend,
                         s->parent, s->built);
    return GPULAYER_OK;
}

gpulayer_status gpl_check_row_limit(const char *backend, int64_t num_rows)
{
    if (num_rows < (int64_t)UINT32_MAX) return GPULAYER_OK;
    return gpl_error(GPULAYER_ERR_UNSUPPORTED, "%s backend: %lld rows exceed the limit of 2^32 - 1",
                     backend, (long long)num_rows);
}

gpulayer_status gpl_check_predict_job(const char *backend, const gpl_predict_job *job)
{
    if (job->num_rows <= 0 ||
        (job->num_outputs >= 1 && job->num_features >= 0 && job->base_margins))
        return GPULAYER_OK;
    return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s backend: predict: %d outputs, %d features%s",
                     backend, job->num_outputs, job->num_features,
                     job->base_margins ? "" : ", no base margins");
}
