/*
 * grow.c -- the tree driver. Depthwise: one batch of backend operations per
 * level (histograms of the smaller children, siblings by subtraction, all
 * splits of the level evaluated together, rows partitioned). Lossguide: the
 * same operations, one best leaf at a time.
 */
#include "grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "split_math.h"

/* XGBoost's kRtEps: a split must reduce the loss by more than this. */
#define GPL_MIN_SPLIT_GAIN 1e-6

int32_t gpl_grow_max_nodes(const gpl_params *p, int64_t num_rows)
{
    int64_t limit = 2 * (num_rows > 0 ? num_rows : 1) - 1;
    if (p->max_leaves > 0 && 2 * (int64_t)p->max_leaves - 1 < limit)
        limit = 2 * (int64_t)p->max_leaves - 1;
    if (p->max_depth > 0 && p->max_depth < 31) {
        int64_t full = ((int64_t)1 << (p->max_depth + 1)) - 1;
        if (full < limit) limit = full;
    }
    if (limit > (1 << 30)) limit = 1 << 30;
    return (int32_t)limit;
}

/* Per-tree bookkeeping of the driver, indexed by node id. */
typedef struct grow_state {
    const gpl_grow_config *cfg;
    gpl_backend *be;
    gpl_tree_node *nodes;
    gpl_grad_pair *sums;
    int32_t *depth;
    int32_t num_nodes;
    int32_t num_leaves;
} grow_state;

static gpl_split_params split_params(const gpl_grow_config *cfg)
{
    gpl_split_params sp = {cfg->params->lambda, cfg->params->alpha,
                           cfg->params->min_child_weight, cfg->scale, 0};
    return sp;
}

static int32_t new_node(grow_state *s, gpl_grad_pair sum, int32_t depth)
{
    int32_t id = s->num_nodes++;
    gpl_tree_node *n = &s->nodes[id];
    memset(n, 0, sizeof *n);
    n->left = n->right = n->feature = -1;
    n->cover = (double)sum.hess / s->cfg->scale.hess;
    s->sums[id] = sum;
    s->depth[id] = depth;
    return id;
}

/* The backend operations whose results must be global when the rows are
 * spread over ranks: histograms, and the child row counts that choose the
 * smaller child (every rank must build the same one). */
static gpulayer_status build_histograms(grow_state *s, const int32_t *nodes,
                                        int32_t count)
{
    GPL_CHECK(s->be->ops->build_histograms(s->be, nodes, count));
    const gpl_grow_reduce *red = s->cfg->reduce;
    return red ? red->histograms(red->user, s->be, nodes, count) : GPULAYER_OK;
}

static gpulayer_status partition_rows(grow_state *s, const gpl_split_apply *splits,
                                      int32_t count, int64_t *child_rows)
{
    GPL_CHECK(s->be->ops->partition_rows(s->be, splits, count, child_rows));
    const gpl_grow_reduce *red = s->cfg->reduce;
    if (red) red->counts(red->user, child_rows, 2 * count);
    return GPULAYER_OK;
}

/* Splits whose children are leaves: the backend may skip moving the rows
 * (their counts are then unknown, and nothing reads them). */
static gpulayer_status split_into_leaves(grow_state *s, const gpl_split_apply *splits,
                                         int32_t count, int64_t *child_rows)
{
    if (s->be->ops->split_into_leaves)
        return s->be->ops->split_into_leaves(s->be, splits, count);
    return partition_rows(s, splits, count, child_rows);
}

static int can_split(const grow_state *s, const gpl_split_record *r,
                     int32_t node)
{
    const gpl_params *p = s->cfg->params;
    if (r->feature < 0) return 0;
    if (!(r->gain > GPL_MIN_SPLIT_GAIN) || r->gain < p->gamma) return 0;
    if (p->max_depth > 0 && s->depth[node] >= p->max_depth) return 0;
    if (p->max_leaves > 0 && s->num_leaves >= p->max_leaves) return 0;
    return s->num_nodes + 2 <= s->cfg->max_nodes;
}

/* Records the split in the tree, creates both children and returns the
 * split to apply. */
static gpl_split_apply apply_split(grow_state *s, const gpl_split_record *r)
{
    const gpl_bin_cuts *cuts = s->cfg->cuts;
    gpl_tree_node *n = &s->nodes[r->node];
    n->feature = r->feature;
    n->split_bin = r->bin;
    n->default_left = r->default_left;
    n->threshold = gpl_split_threshold(cuts, r->feature, r->bin);
    n->gain = r->gain;
    int32_t depth = s->depth[r->node] + 1;
    /* Row counts are filled in after the partition. */
    n->left = new_node(s, r->left, depth);
    n->right = new_node(s, r->right, depth);
    s->num_leaves++;
    gpl_split_apply a = {r->node, r->feature, r->bin, r->default_left,
                         n->left, n->right};
    return a;
}

/* After partitioning: histograms for the smaller child of each split, the
 * larger by subtraction from the parent. */
static gpulayer_status child_histograms(grow_state *s,
                                        const gpl_split_apply *applied,
                                        int32_t count, const int64_t *child_rows,
                                        int32_t *build, gpl_hist_subtract *subs)
{
    for (int32_t i = 0; i < count; i++) {
        int left_smaller = child_rows[2 * i] <= child_rows[2 * i + 1];
        build[i] = left_smaller ? applied[i].left_child : applied[i].right_child;
        subs[i].parent = applied[i].node;
        subs[i].built = build[i];
        subs[i].target = left_smaller ? applied[i].right_child : applied[i].left_child;
    }
    GPL_CHECK(build_histograms(s, build, count));
    GPL_CHECK(s->be->ops->subtract_histograms(s->be, subs, count));
    for (int32_t i = 0; i < count; i++) build[i] = applied[i].node;
    return s->be->ops->release_histograms(s->be, build, count);
}

/* Working arrays of a level: node ids, records, splits, counts. */
typedef struct level_buffers {
    int32_t *nodes;
    int32_t *scratch;
    gpl_split_record *records;
    gpl_split_apply *applied;
    gpl_hist_subtract *subs;
    int64_t *child_rows;
} level_buffers;

/* Whether nodes at this depth can only get leaf children. */
static int32_t children_are_leaves(const grow_state *s, int32_t depth)
{
    const int32_t max_depth = s->cfg->params->max_depth;
    return max_depth > 0 && depth + 1 >= max_depth;
}

static gpulayer_status grow_depthwise(grow_state *s, level_buffers *lb)
{
    gpl_backend *be = s->be;
    gpl_split_params sp = split_params(s->cfg);
    int32_t level_size = 1;
    lb->nodes[0] = 0;
    GPL_CHECK(build_histograms(s, lb->nodes, 1));
    for (;;) {
        sp.leaf_children = children_are_leaves(s, s->depth[lb->nodes[0]]);
        GPL_CHECK(be->ops->evaluate_splits(be, lb->nodes, level_size, &sp,
                                           s->cfg->feature_mask, lb->records));
        int32_t count = 0;
        for (int32_t i = 0; i < level_size; i++) {
            const gpl_split_record *r = &lb->records[i];
            s->sums[r->node] = r->total;
            s->nodes[r->node].cover = (double)r->total.hess / sp.scale.hess;
            if (can_split(s, r, r->node)) lb->applied[count++] = apply_split(s, r);
        }
        if (count == 0) break;
        const int last_level = sp.leaf_children;
        int leaves_full = s->cfg->params->max_leaves > 0 &&
                          s->num_leaves >= s->cfg->params->max_leaves;
        if (last_level || leaves_full) {
            /* Children are leaves: their sums come from the split records,
             * no histograms needed. */
            GPL_CHECK(split_into_leaves(s, lb->applied, count, lb->child_rows));
            break;
        }
        GPL_CHECK(partition_rows(s, lb->applied, count, lb->child_rows));
        GPL_CHECK(child_histograms(s, lb->applied, count, lb->child_rows,
                                   lb->scratch, lb->subs));
        level_size = 0;
        for (int32_t i = 0; i < count; i++) {
            lb->nodes[level_size++] = lb->applied[i].left_child;
            lb->nodes[level_size++] = lb->applied[i].right_child;
        }
    }
    return GPULAYER_OK;
}

/* Lossguide: a candidate list of evaluated leaves; the best one (largest
 * gain, then smallest id) splits next. */
static int32_t best_candidate(const gpl_split_record *cand, int32_t count)
{
    int32_t best = -1;
    for (int32_t i = 0; i < count; i++)
        if (best < 0 || cand[i].gain > cand[best].gain ||
            (cand[i].gain == cand[best].gain && cand[i].node < cand[best].node))
            best = i;
    return best;
}

static gpulayer_status grow_lossguide(grow_state *s, level_buffers *lb)
{
    gpl_backend *be = s->be;
    gpl_split_params sp = split_params(s->cfg);
    gpl_split_record *cand = lb->records; /* max_nodes entries */
    int32_t num_cand = 0;
    lb->nodes[0] = 0;
    GPL_CHECK(build_histograms(s, lb->nodes, 1));
    sp.leaf_children = children_are_leaves(s, 0);
    GPL_CHECK(be->ops->evaluate_splits(be, lb->nodes, 1, &sp,
                                       s->cfg->feature_mask, &cand[0]));
    s->sums[0] = cand[0].total;
    s->nodes[0].cover = (double)cand[0].total.hess / sp.scale.hess;
    if (can_split(s, &cand[0], 0)) num_cand = 1;
    while (num_cand > 0) {
        int32_t b = best_candidate(cand, num_cand);
        gpl_split_record r = cand[b];
        cand[b] = cand[--num_cand];
        if (!can_split(s, &r, r.node)) continue;
        lb->applied[0] = apply_split(s, &r);
        int32_t kids[2] = {lb->applied[0].left_child, lb->applied[0].right_child};
        int32_t d = s->depth[kids[0]];
        if (children_are_leaves(s, s->depth[r.node])) {
            GPL_CHECK(split_into_leaves(s, lb->applied, 1, lb->child_rows));
            GPL_CHECK(be->ops->release_histograms(be, &r.node, 1));
            continue;
        }
        GPL_CHECK(partition_rows(s, lb->applied, 1, lb->child_rows));
        GPL_CHECK(child_histograms(s, lb->applied, 1, lb->child_rows,
                                   lb->scratch, lb->subs));
        sp.leaf_children = children_are_leaves(s, d);
        GPL_CHECK(be->ops->evaluate_splits(be, kids, 2, &sp,
                                           s->cfg->feature_mask, &cand[num_cand]));
        for (int k = 0; k < 2; k++) {
            gpl_split_record *c = &cand[num_cand];
            if (can_split(s, c, c->node)) num_cand++;
            else {
                if (k == 0) cand[num_cand] = cand[num_cand + 1];
                GPL_CHECK(be->ops->release_histograms(be, &kids[k], 1));
            }
        }
    }
    return GPULAYER_OK;
}

/* Leaf weights (scaled by eta) for every leaf; internal nodes get 0. */
static void set_leaf_values(grow_state *s, float *leaf_value)
{
    const gpl_params *p = s->cfg->params;
    for (int32_t i = 0; i < s->num_nodes; i++) {
        gpl_tree_node *n = &s->nodes[i];
        if (n->left >= 0) {
            n->leaf_value = 0.0f;
            continue;
        }
        double w = gpl_leaf_weight((double)s->sums[i].grad / s->cfg->scale.grad,
                                   (double)s->sums[i].hess / s->cfg->scale.hess,
                                   p->lambda, p->alpha, p->min_child_weight);
        n->leaf_value = (float)(p->eta * w);
    }
    for (int32_t i = 0; i < s->cfg->max_nodes; i++)
        leaf_value[i] = i < s->num_nodes ? s->nodes[i].leaf_value : 0.0f;
}

static void free_level_buffers(level_buffers *lb)
{
    free(lb->nodes);
    free(lb->scratch);
    free(lb->records);
    free(lb->applied);
    free(lb->subs);
    free(lb->child_rows);
}

gpulayer_status gpl_grow_tree(gpl_backend *be, const gpl_grow_config *cfg,
                              int32_t output, gpl_tree *out)
{
    const size_t M = (size_t)cfg->max_nodes;
    grow_state s = {cfg, be, NULL, NULL, NULL, 0, 1};
    level_buffers lb;
    s.nodes = malloc(sizeof(gpl_tree_node) * M);
    s.sums = malloc(sizeof(gpl_grad_pair) * M);
    s.depth = malloc(sizeof(int32_t) * M);
    lb.nodes = malloc(sizeof(int32_t) * M);
    lb.scratch = malloc(sizeof(int32_t) * M);
    lb.records = malloc(sizeof(gpl_split_record) * (M + 2));
    lb.applied = malloc(sizeof(gpl_split_apply) * M);
    lb.subs = malloc(sizeof(gpl_hist_subtract) * M);
    lb.child_rows = malloc(sizeof(int64_t) * 2 * M);
    float *leaf_value = malloc(sizeof(float) * M);
    gpulayer_status st = GPULAYER_OK;
    if (!s.nodes || !s.sums || !s.depth || !lb.nodes || !lb.scratch ||
        !lb.records || !lb.applied || !lb.subs || !lb.child_rows || !leaf_value) {
        st = gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                       "out of host memory for a tree of %zu nodes", M);
        goto done;
    }
    new_node(&s, (gpl_grad_pair){0, 0}, 0);
    st = be->ops->begin_tree(be);
    if (st == GPULAYER_OK)
        st = cfg->params->grow_policy == GPL_GROW_LOSSGUIDE ? grow_lossguide(&s, &lb)
                                                            : grow_depthwise(&s, &lb);
    if (st != GPULAYER_OK) goto done;
    set_leaf_values(&s, leaf_value);
    st = be->ops->update_margins(be, output, leaf_value);
    if (st != GPULAYER_OK) goto done;
    out->num_nodes = s.num_nodes;
    out->nodes = realloc(s.nodes, sizeof(gpl_tree_node) * (size_t)s.num_nodes);
    if (!out->nodes) out->nodes = s.nodes;
    s.nodes = NULL;
done:
    free(s.nodes);
    free(s.sums);
    free(s.depth);
    free(leaf_value);
    free_level_buffers(&lb);
    return st;
}
