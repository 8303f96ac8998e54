/*
 * grow.c -- the tree driver. One loop for both growth policies, over a
 * queue of evaluated nodes that can split: each step takes a batch out of
 * the queue, applies its splits, partitions the rows in one call, builds
 * the children's histograms (the smaller child of each split, its sibling
 * by subtraction) and evaluates the children together; those that can
 * split join the queue. Depthwise, a batch is a whole level; lossguide, it
 * is the best candidate alone (largest gain, then smallest node id).
 */
#include "grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cat_set.h"
#include "error.h"
#include "feature_sample.h"
#include "interaction.h"
#include "monotone_intermediate.h"
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
    int32_t *parent; /* -1 for the root */
    /* Bounds on each node's weight (lower, upper), which monotone splits
     * narrow for their children; and those of the nodes being evaluated,
     * in their order (NULL without monotone constraints). */
    double *bounds;
    double *batch_bounds;
    /* The intermediate method (NULL with the basic one): the bounds each
     * node's own weight keeps to (its parent's when it was made: later
     * tightening binds its children only), which leaves may still split,
     * and the update's scratch. */
    double *weight_bounds;
    uint8_t *open;
    /* Searched nodes whose bounds moved since: searched again before a
     * split is applied or chosen from them. */
    uint8_t *stale;
    int32_t *moved;
    gpl_monotone_step *path;
    /* Rows of each node (gpl_split_params.node_rows), and those of the
     * nodes being evaluated, in their order. */
    uint32_t *rows;
    uint32_t *batch_rows;
    int32_t num_nodes;
    int32_t num_leaves;
} grow_state;

static gpl_split_params split_params(const gpl_grow_config *cfg)
{
    const gpl_params *p = cfg->params;
    gpl_split_params sp = {.lambda = p->lambda,
                           .alpha = p->alpha,
                           .min_child_weight = p->min_child_weight,
                           .scale = cfg->scale,
                           .max_cat_to_onehot = p->max_cat_to_onehot,
                           .max_cat_threshold = p->max_cat_threshold,
                           .cat_smooth = p->cat_smooth,
                           .cat_l2 = p->cat_l2,
                           .min_data_per_group = p->min_data_per_group,
                           .min_data_in_leaf = p->min_data_in_leaf,
                           .max_delta_step = p->max_delta_step,
                           .monotone = cfg->monotone,
                           .monotone_gain_factor = 1.0};
    return sp;
}

static uint32_t saturated_rows(int64_t rows)
{
    if (rows < 0) return 0;
    return rows > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)rows;
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
    s->bounds[2 * id] = -HUGE_VAL;
    s->bounds[2 * id + 1] = HUGE_VAL;
    if (s->weight_bounds) {
        const int32_t max_depth = s->cfg->params->max_depth;
        s->weight_bounds[2 * id] = -HUGE_VAL;
        s->weight_bounds[2 * id + 1] = HUGE_VAL;
        s->open[id] = !(max_depth > 0 && depth >= max_depth);
        s->stale[id] = 0;
    }
    s->rows[id] = 0;
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
    if (gpl_backend_has(s->be, GPL_BACKEND_CAP_SPLIT_INTO_LEAVES))
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

/* The weight of a node with sums sum within bounds (lower, upper). */
static double bounded_weight(const grow_state *s, gpl_grad_pair sum, const double *bounds)
{
    const gpl_params *p = s->cfg->params;
    return gpl_bounded_leaf_weight((double)sum.grad / s->cfg->scale.grad,
                                   (double)sum.hess / s->cfg->scale.hess, p->lambda, p->alpha,
                                   p->min_child_weight, p->max_delta_step, bounds[0],
                                   bounds[1]);
}

/* The children's bounds (gpl_monotone_child_bounds, or the intermediate
 * method's); their weights in *wl, *wr. */
static void child_bounds(grow_state *s, const gpl_split_record *r, int32_t left,
                         int32_t right, double *wl, double *wr)
{
    const double *own = &s->bounds[2 * r->node];
    const int c = s->cfg->monotone && !r->categorical ? s->cfg->monotone[r->feature] : 0;
    const int intermediate = s->weight_bounds != NULL;
    *wl = c || intermediate ? bounded_weight(s, r->left, own) : 0.0;
    *wr = c || intermediate ? bounded_weight(s, r->right, own) : 0.0;
    if (!intermediate) {
        gpl_monotone_child_bounds(c, *wl, *wr, own, &s->bounds[2 * left], &s->bounds[2 * right]);
        return;
    }
    gpl_monotone_intermediate_children(c, *wl, *wr, own, &s->bounds[2 * left],
                                       &s->bounds[2 * right]);
    for (int i = 0; i < 2; i++)
        s->weight_bounds[2 * left + i] = s->weight_bounds[2 * right + i] = own[i];
}

/* The set of a categorical split on a feature of more than 255 value bins,
 * which its record has no room for: rebuilt from the node's histogram as
 * the search chose it (cat_set.h), into n's wide set. */
static gpulayer_status rebuild_wide_set(grow_state *s, const gpl_split_record *r,
                                        gpl_tree_node *n)
{
    const gpl_bin_cuts *cuts = s->cfg->cuts;
    const int32_t last_bin =
        (int32_t)(cuts->cut_ptr[r->feature + 1] - cuts->cut_ptr[r->feature]) + 1;
    const int32_t words = gpl_cat_set_words(last_bin);
    if (!r->categorical || words <= GPL_CAT_WORDS) return GPULAYER_OK;
    size_t total = 0, at = 0; /* the histogram's layout: gpl_feature_offsets */
    for (int32_t f = 0; f < cuts->num_features; f++) {
        if (f == r->feature) at = total;
        total += cuts->cut_ptr[f + 1] - cuts->cut_ptr[f] + 2;
    }
    gpl_grad_pair *h = gpl_malloc(sizeof *h * total, "a node's histogram");
    uint32_t *set = gpl_malloc(sizeof *set * (size_t)words, "a category set");
    gpulayer_status st = h && set ? GPULAYER_OK : GPULAYER_ERR_OUT_OF_MEMORY;
    if (st == GPULAYER_OK) st = s->be->ops->read_histogram(s->be, r->node, h);
    const gpl_split_params sp = split_params(s->cfg);
    if (st == GPULAYER_OK) st = gpl_cat_left_set(&sp, h + at, last_bin, r->bin, set);
    free(h);
    if (st != GPULAYER_OK) {
        free(set);
        return st;
    }
    n->wide_set = set;
    n->wide_words = words;
    return GPULAYER_OK;
}

/* Records the split in the tree, creates both children and fills the
 * split to apply; with the intermediate method, the leaves whose bounds
 * the children tightened become stale. */
static gpulayer_status apply_split(grow_state *s, const gpl_split_record *r, gpl_split_apply *a)
{
    const gpl_bin_cuts *cuts = s->cfg->cuts;
    gpl_tree_node *n = &s->nodes[r->node];
    GPL_CHECK(rebuild_wide_set(s, r, n));
    n->feature = r->feature;
    n->split_bin = r->categorical ? 0 : r->bin;
    n->default_left = r->default_left;
    n->categorical = r->categorical;
    n->threshold = r->categorical ? 0.0f : gpl_split_threshold(cuts, r->feature, r->bin);
    if (r->categorical) memcpy(n->left_set, r->left_set, sizeof n->left_set);
    n->gain = r->gain;
    int32_t depth = s->depth[r->node] + 1;
    /* Row counts are filled in after the partition. */
    n->left = new_node(s, r->left, depth);
    n->right = new_node(s, r->right, depth);
    s->parent[n->left] = s->parent[n->right] = r->node;
    double wl, wr;
    child_bounds(s, r, n->left, n->right, &wl, &wr);
    if (s->weight_bounds) {
        const gpl_monotone_tree t = {s->nodes, s->parent, s->cfg->monotone, s->open,
                                     s->bounds, s->path, s->num_nodes};
        const int32_t moved = gpl_monotone_intermediate_update(&t, r->node, wl, wr, s->moved);
        for (int32_t i = 0; i < moved; i++) s->stale[s->moved[i]] = 1;
    }
    s->num_leaves++;
    *a = (gpl_split_apply){r->node, r->feature, r->bin, r->default_left,
                           n->left, n->right, r->categorical, {0}, n->wide_set};
    if (r->categorical) memcpy(a->left_set, r->left_set, sizeof a->left_set);
    return GPULAYER_OK;
}

/* Releases the histograms of the split nodes, in one call (ids in scratch). */
static gpulayer_status release_parents(grow_state *s, const gpl_split_apply *applied,
                                       int32_t count, int32_t *scratch)
{
    for (int32_t i = 0; i < count; i++) scratch[i] = applied[i].node;
    return s->be->ops->release_histograms(s->be, scratch, count);
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
    return release_parents(s, applied, count, build);
}

/* Working arrays of a batch: node ids, records, splits, counts. */
typedef struct batch_buffers {
    int32_t *nodes;
    int32_t *scratch;
    gpl_split_record *records;
    gpl_split_record *stale;   /* the stale candidates' new records */
    gpl_split_apply *applied;
    gpl_hist_subtract *subs;
    int64_t *child_rows;
} batch_buffers;

/* Whether nodes at this depth can only get leaf children. */
static int32_t children_are_leaves(const grow_state *s, int32_t depth)
{
    const int32_t max_depth = s->cfg->params->max_depth;
    return max_depth > 0 && depth + 1 >= max_depth;
}

/* The evaluated nodes that can split, in the order they were evaluated.
 * A batch taken out is left just past the end (rec[count..count + n)): it
 * stays valid until the next evaluation appends there, which is after the
 * batch has been applied. */
typedef struct split_queue {
    gpl_split_record *rec; /* max_nodes + 2 entries */
    int32_t count;
} split_queue;

/* All that differs between the growth policies. The loop (grow) is the
 * same; the backends see a different sequence of operations, which GPU
 * backends and data-parallel ranks rely on, so these keep it as it is. */
typedef struct grow_policy {
    /* Takes the next batch out of the queue and returns its size. */
    int32_t (*take_batch)(split_queue *q);
    /* Non-zero: once max_leaves is reached, the batch's children are
     * split as leaves without being evaluated. Zero: they are evaluated
     * (and then turned down by can_split). */
    int leaf_children_when_full;
    /* Non-zero: a node's histogram is released as soon as the node is
     * done, because the histograms of the queued candidates stay alive
     * from one step to the next. */
    int release_done;
} grow_policy;

/* Depthwise: the whole queue, which is one level. */
static int32_t take_level(split_queue *q)
{
    int32_t n = q->count;
    q->count = 0;
    return n;
}

/* Lossguide: the best candidate (largest gain, then smallest node id),
 * moved to the end so that the others keep their places. */
static int32_t take_best(split_queue *q)
{
    gpl_split_record *c = q->rec;
    int32_t best = 0;
    for (int32_t i = 1; i < q->count; i++)
        if (c[i].gain > c[best].gain ||
            (c[i].gain == c[best].gain && c[i].node < c[best].node))
            best = i;
    gpl_split_record r = c[best];
    c[best] = c[--q->count];
    c[q->count] = r;
    return 1;
}

static const grow_policy depthwise_policy = {take_level, 1, 0};
static const grow_policy lossguide_policy = {take_best, 0, 1};

/* Whether a sampling rate draws: below 1, and above 0 (a zeroed
 * gpl_params, as internal callers make, means no sampling). */
static int draws(double rate) { return rate > 0.0 && rate < 1.0; }

/* The backend's split search, over the tree's features, or with
 * colsample_bylevel over its depth level's sample of them and with
 * colsample_bynode over each node's own sample of those; with
 * interaction_constraints, each node's features are further those its
 * path allows. Per-node features mean one call a node. The samples come
 * from the tree's stream, the depth and the node id, so every backend and
 * rank draws the same. */
static gpulayer_status evaluate_splits(grow_state *s, const int32_t *nodes, int32_t count,
                                       const gpl_split_params *sp, gpl_split_record *rec)
{
    const gpl_params *p = s->cfg->params;
    const uint8_t *tree = s->cfg->feature_mask;
    const gpl_interactions *ix = s->cfg->interactions;
    const int by_level = draws(p->colsample_bylevel), by_node = draws(p->colsample_bynode);
    const int by_path = ix && ix->num_sets > 0;
    if (!by_level && !by_node && !by_path)
        return s->be->ops->evaluate_splits(s->be, nodes, count, sp, tree, rec);
    gpl_split_params one = *sp; /* a node's own bounds, for one call a node */
    const int32_t F = s->cfg->cuts->num_features;
    uint8_t *level = malloc(4 * (size_t)(F ? F : 1));
    if (!level)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory for column sampling");
    uint8_t *node = level + F, *used = node + F, *allowed = used + F;
    const uint64_t stream = s->cfg->sample_stream;
    const float *weights = s->cfg->feature_weights;
    gpl_sample_features(tree, F, by_level ? p->colsample_bylevel : 1.0, weights,
                        gpl_sample_stream_level(stream, s->depth[nodes[0]]), level);
    gpulayer_status st = GPULAYER_OK;
    if (!by_node && !by_path) st = s->be->ops->evaluate_splits(s->be, nodes, count, sp, level, rec);
    for (int32_t i = 0; i < count && (by_node || by_path) && st == GPULAYER_OK; i++) {
        gpl_sample_features(level, F, by_node ? p->colsample_bynode : 1.0, weights,
                            gpl_sample_stream_node(stream, nodes[i]), node);
        if (by_path) {
            memset(used, 0, (size_t)F);
            for (int32_t a = s->parent[nodes[i]]; a >= 0; a = s->parent[a])
                used[s->nodes[a].feature] = 1;
            gpl_interactions_allowed(ix, used, allowed);
            for (int32_t f = 0; f < F; f++) node[f] &= allowed[f];
        }
        if (sp->bounds) one.bounds = sp->bounds + 2 * i;
        one.node_rows = sp->node_rows + i;
        st = s->be->ops->evaluate_splits(s->be, &nodes[i], 1, &one, node, &rec[i]);
    }
    free(level);
    return st;
}

/* The split search's parameters for nodes (all of one depth): their
 * bounds and rows gathered in the batch arrays. */
static gpl_split_params batch_params(grow_state *s, const int32_t *nodes, int32_t count)
{
    gpl_split_params sp = split_params(s->cfg);
    sp.leaf_children = children_are_leaves(s, s->depth[nodes[0]]);
    const double penalty = s->cfg->params->monotone_penalty;
    if (s->cfg->monotone && penalty > 0.0)
        sp.monotone_gain_factor = gpl_monotone_penalty_factor(s->depth[nodes[0]], penalty);
    if (s->batch_bounds) {
        for (int32_t i = 0; i < count; i++) {
            s->batch_bounds[2 * i] = s->bounds[2 * nodes[i]];
            s->batch_bounds[2 * i + 1] = s->bounds[2 * nodes[i] + 1];
        }
        sp.bounds = s->batch_bounds;
    }
    for (int32_t i = 0; i < count; i++) s->batch_rows[i] = s->rows[nodes[i]];
    sp.node_rows = s->batch_rows;
    return sp;
}

/* Takes a node's sums from its record; returns whether it can split. */
static int take_record(grow_state *s, const gpl_split_record *r)
{
    s->sums[r->node] = r->total;
    s->nodes[r->node].cover = (double)r->total.hess / s->cfg->scale.hess;
    const int ok = can_split(s, r, r->node);
    if (s->open) {
        s->open[r->node] = (uint8_t)ok;
        s->stale[r->node] = 0;
    }
    return ok;
}

/* Evaluates the best splits of nodes (all of one depth), takes each node's
 * sums from its record, and queues the nodes that can split. The others
 * are leaves; with release, their histograms go, one call per node. */
static gpulayer_status evaluate(grow_state *s, split_queue *q, const int32_t *nodes,
                                int32_t count, int release)
{
    gpl_split_params sp = batch_params(s, nodes, count);
    gpl_split_record *rec = &q->rec[q->count];
    GPL_CHECK(evaluate_splits(s, nodes, count, &sp, rec));
    for (int32_t i = 0; i < count; i++) {
        const gpl_split_record r = rec[i]; /* the queue may overwrite rec[i] */
        if (take_record(s, &r))
            q->rec[q->count++] = r;
        else if (release)
            GPL_CHECK(s->be->ops->release_histograms(s->be, &r.node, 1));
    }
    return GPULAYER_OK;
}

/* The intermediate method: the stale records among rest (nodes of one
 * depth) searched again with their nodes' bounds as they are now, in one
 * call (nodes, fresh: scratch of count entries); feature -1 for a node
 * that can no longer split. */
static gpulayer_status search_again(grow_state *s, gpl_split_record *rest, int32_t count,
                                    int32_t *nodes, gpl_split_record *fresh)
{
    int32_t n = 0;
    for (int32_t i = 0; i < count; i++)
        if (s->stale[rest[i].node]) nodes[n++] = rest[i].node;
    gpl_split_params sp = batch_params(s, nodes, n);
    GPL_CHECK(evaluate_splits(s, nodes, n, &sp, fresh));
    for (int32_t i = 0, k = 0; i < count && k < n; i++) {
        if (rest[i].node != fresh[k].node) continue;
        if (take_record(s, &fresh[k])) rest[i] = fresh[k];
        else rest[i].feature = -1;
        k++;
    }
    return GPULAYER_OK;
}

/* The intermediate method, lossguide: the stale candidates of the queue
 * searched again before the best is chosen, those of one depth in one
 * call (nodes, rec: scratch of the queue's size); a candidate that can no
 * longer split leaves the queue, its histogram released with release. */
static gpulayer_status search_stale_queue(grow_state *s, split_queue *q, int32_t *nodes,
                                          gpl_split_record *rec, int release)
{
    for (;;) {
        int32_t depth = -1, n = 0;
        for (int32_t i = 0; i < q->count; i++) {
            const int32_t node = q->rec[i].node;
            if (s->stale[node] && (depth < 0 || s->depth[node] < depth)) depth = s->depth[node];
        }
        if (depth < 0) return GPULAYER_OK;
        for (int32_t i = 0; i < q->count; i++)
            if (s->stale[q->rec[i].node] && s->depth[q->rec[i].node] == depth)
                nodes[n++] = q->rec[i].node;
        gpl_split_params sp = batch_params(s, nodes, n);
        GPL_CHECK(evaluate_splits(s, nodes, n, &sp, rec));
        for (int32_t k = 0; k < n; k++) {
            int32_t at = 0;
            while (q->rec[at].node != rec[k].node) at++;
            if (take_record(s, &rec[k])) {
                q->rec[at] = rec[k];
                continue;
            }
            q->rec[at] = q->rec[--q->count];
            if (release) GPL_CHECK(s->be->ops->release_histograms(s->be, &rec[k].node, 1));
        }
    }
}

/* Applies the batch's splits, in order, that can still be made: max_leaves
 * or max_nodes may have been reached since they were queued, and with the
 * intermediate method a node's bounds may have moved since (then it and
 * the other stale ones after it are searched again first; fresh: scratch
 * of n records). */
static gpulayer_status apply_batch(grow_state *s, gpl_split_record *batch, int32_t n,
                                   gpl_split_record *fresh, gpl_split_apply *applied,
                                   int32_t *count)
{
    *count = 0;
    for (int32_t i = 0; i < n; i++) {
        if (s->stale && s->stale[batch[i].node])
            GPL_CHECK(search_again(s, batch + i, n - i, s->moved, fresh));
        if (can_split(s, &batch[i], batch[i].node))
            GPL_CHECK(apply_split(s, &batch[i], &applied[(*count)++]));
    }
    return GPULAYER_OK;
}

/* Whether the children of the splits just applied (at this depth) are
 * leaves: they then need neither histograms nor an evaluation. */
static int batch_children_are_leaves(const grow_state *s, const grow_policy *policy,
                                     int32_t depth)
{
    const int32_t max_leaves = s->cfg->params->max_leaves;
    if (children_are_leaves(s, depth)) return 1;
    return policy->leaf_children_when_full && max_leaves > 0 && s->num_leaves >= max_leaves;
}

/* The growth loop of both policies: take a batch, split it, and queue the
 * children that can split in turn. */
static gpulayer_status grow(grow_state *s, const grow_policy *policy, batch_buffers *bb)
{
    split_queue q = {bb->records, 0};
    bb->nodes[0] = 0;
    GPL_CHECK(build_histograms(s, bb->nodes, 1));
    /* A root that cannot split ends the tree: its histogram is left to
     * the next begin_tree. */
    GPL_CHECK(evaluate(s, &q, bb->nodes, 1, 0));
    while (q.count > 0) {
        if (s->stale)
            GPL_CHECK(search_stale_queue(s, &q, bb->scratch, bb->stale, policy->release_done));
        if (q.count == 0) break;
        int32_t n = policy->take_batch(&q);
        gpl_split_record *batch = &q.rec[q.count];
        int32_t count = 0;
        GPL_CHECK(apply_batch(s, batch, n, bb->stale, bb->applied, &count));
        if (count == 0) continue;
        if (batch_children_are_leaves(s, policy, s->depth[bb->applied[0].node])) {
            /* Their sums come from the split records. */
            GPL_CHECK(split_into_leaves(s, bb->applied, count, bb->child_rows));
            if (policy->release_done)
                GPL_CHECK(release_parents(s, bb->applied, count, bb->scratch));
            continue;
        }
        GPL_CHECK(partition_rows(s, bb->applied, count, bb->child_rows));
        for (int32_t i = 0; i < count; i++) {
            s->rows[bb->applied[i].left_child] = saturated_rows(bb->child_rows[2 * i]);
            s->rows[bb->applied[i].right_child] = saturated_rows(bb->child_rows[2 * i + 1]);
        }
        GPL_CHECK(child_histograms(s, bb->applied, count, bb->child_rows,
                                   bb->scratch, bb->subs));
        for (int32_t i = 0; i < count; i++) {
            bb->nodes[2 * i] = bb->applied[i].left_child;
            bb->nodes[2 * i + 1] = bb->applied[i].right_child;
        }
        GPL_CHECK(evaluate(s, &q, bb->nodes, 2 * count, policy->release_done));
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
        const double *bounds = s->weight_bounds ? s->weight_bounds : s->bounds;
        n->leaf_value = (float)(p->eta * bounded_weight(s, s->sums[i], &bounds[2 * i]));
    }
    for (int32_t i = 0; i < s->cfg->max_nodes; i++)
        leaf_value[i] = i < s->num_nodes ? s->nodes[i].leaf_value : 0.0f;
}

/* Refit leaf values (leaf_refit.h) kept within their nodes' bounds, as
 * the learning rate scales them. */
static void clamp_refit_leaves(grow_state *s, float *leaf_value)
{
    const double eta = s->cfg->params->eta;
    for (int32_t i = 0; i < s->num_nodes; i++) {
        if (s->nodes[i].left >= 0) continue;
        const float lo = (float)(eta * s->bounds[2 * i]), hi = (float)(eta * s->bounds[2 * i + 1]);
        float v = s->nodes[i].leaf_value;
        if (v < lo) v = lo;
        if (v > hi) v = hi;
        s->nodes[i].leaf_value = leaf_value[i] = v;
    }
}

static void free_batch_buffers(batch_buffers *bb)
{
    free(bb->nodes);
    free(bb->scratch);
    free(bb->records);
    free(bb->stale);
    free(bb->applied);
    free(bb->subs);
    free(bb->child_rows);
}

gpulayer_status gpl_grow_tree(gpl_backend *be, const gpl_grow_config *cfg,
                              int32_t output, gpl_tree *out)
{
    const size_t M = (size_t)cfg->max_nodes;
    grow_state s = {cfg, be, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                    NULL, NULL, NULL, NULL, NULL, 0, 1};
    batch_buffers bb;
    s.nodes = malloc(sizeof(gpl_tree_node) * M);
    s.sums = malloc(sizeof(gpl_grad_pair) * M);
    s.depth = malloc(sizeof(int32_t) * M);
    s.parent = malloc(sizeof(int32_t) * M);
    s.bounds = malloc(sizeof(double) * 2 * M);
    s.batch_bounds = cfg->monotone ? malloc(sizeof(double) * 2 * M) : NULL;
    const int intermediate =
        cfg->monotone && cfg->params->monotone_method == GPL_MONOTONE_INTERMEDIATE;
    if (intermediate) {
        s.weight_bounds = malloc(sizeof(double) * 2 * M);
        s.open = malloc(M);
        s.stale = malloc(M);
        s.moved = malloc(sizeof(int32_t) * M);
        s.path = malloc(sizeof(gpl_monotone_step) * M);
    }
    s.rows = malloc(sizeof(uint32_t) * 2 * M);
    s.batch_rows = s.rows ? s.rows + M : NULL;
    bb.nodes = malloc(sizeof(int32_t) * M);
    bb.scratch = malloc(sizeof(int32_t) * M);
    bb.records = malloc(sizeof(gpl_split_record) * (M + 2));
    bb.stale = cfg->monotone ? malloc(sizeof(gpl_split_record) * (M + 2)) : NULL;
    bb.applied = malloc(sizeof(gpl_split_apply) * M);
    bb.subs = malloc(sizeof(gpl_hist_subtract) * M);
    bb.child_rows = malloc(sizeof(int64_t) * 2 * M);
    float *leaf_value = malloc(sizeof(float) * M);
    gpulayer_status st = GPULAYER_OK;
    if (!s.nodes || !s.sums || !s.depth || !s.parent || !s.bounds || !s.rows ||
        (cfg->monotone && !s.batch_bounds) ||
        (intermediate && (!s.weight_bounds || !s.open || !s.stale || !s.moved || !s.path)) ||
        !bb.nodes ||
        !bb.scratch || !bb.records || (cfg->monotone && !bb.stale) || !bb.applied || !bb.subs || !bb.child_rows ||
        !leaf_value) {
        st = gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                       "out of host memory for a tree of %zu nodes", M);
        goto done;
    }
    new_node(&s, (gpl_grad_pair){0, 0}, 0);
    s.parent[0] = -1;
    int64_t root_rows = cfg->num_rows;
    if (cfg->reduce) cfg->reduce->counts(cfg->reduce->user, &root_rows, 1);
    s.rows[0] = saturated_rows(root_rows);
    st = be->ops->begin_tree(be);
    if (st == GPULAYER_OK)
        st = grow(&s, cfg->params->grow_policy == GPL_GROW_LOSSGUIDE ? &lossguide_policy
                                                                     : &depthwise_policy,
                  &bb);
    if (st != GPULAYER_OK) goto done;
    set_leaf_values(&s, leaf_value);
    if (cfg->refit_leaves) {
        st = cfg->refit_leaves(cfg->refit_user, output, s.nodes, s.num_nodes, leaf_value);
        if (cfg->monotone) clamp_refit_leaves(&s, leaf_value);
    }
    if (st == GPULAYER_OK) st = be->ops->update_margins(be, output, leaf_value);
    if (st != GPULAYER_OK) goto done;
    out->num_nodes = s.num_nodes;
    out->nodes = realloc(s.nodes, sizeof(gpl_tree_node) * (size_t)s.num_nodes);
    if (!out->nodes) out->nodes = s.nodes;
    s.nodes = NULL;
done:
    gpl_tree_nodes_free(s.nodes, s.num_nodes);
    free(s.sums);
    free(s.depth);
    free(s.parent);
    free(s.bounds);
    free(s.batch_bounds);
    free(s.weight_bounds);
    free(s.open);
    free(s.stale);
    free(s.moved);
    free(s.path);
    free(s.rows);
    free(leaf_value);
    free_batch_buffers(&bb);
    return st;
}
