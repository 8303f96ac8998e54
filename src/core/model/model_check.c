/* model_check.c -- consistency checks of a model, run on every model that
 * is loaded (after the JSON has been decoded) and on every model before it
 * is written, so that a file this library writes can always be read back.
 * Messages are those of GPULAYER_ERR_MODEL and name the file (source). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "model.h"

gpulayer_status gpl_model_verror(gpulayer_status status, const char *source, const char *fmt,
                                 va_list ap)
{
    char msg[768];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (!source) return gpl_error(status, "%s", msg);
    return gpl_error(status, "%s: %s", source, msg);
}

gpulayer_status gpl_model_error(const char *source, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const gpulayer_status st = gpl_model_verror(GPULAYER_ERR_MODEL, source, fmt, ap);
    va_end(ap);
    return st;
}

static gpulayer_status check_header(const gpl_model *m, const char *source)
{
    if (m->objective == GPL_OBJ_SOFTMAX) {
        if (m->num_class < 2)
            return gpl_model_error(source, "%s needs num_class >= 2, found %d",
                               gpl_objective_name(m), m->num_class);
        if (m->num_outputs != m->num_class)
            return gpl_model_error(source, "num_outputs is %d but num_class is %d",
                               m->num_outputs, m->num_class);
    } else {
        if (m->num_class > 1)
            return gpl_model_error(source, "num_class is %d but %s has one output",
                               m->num_class, gpl_objective_name(m));
        int32_t n;
        if (gpl_objective_alphas(m->objective, &m->obj_params, &n)) {
            if (m->num_outputs != n)
                return gpl_model_error(source, "num_outputs is %d but %s has %d values",
                                       m->num_outputs, gpl_objective_param_name(m->objective),
                                       n);
        } else if (m->num_outputs != 1)
            return gpl_model_error(source, "num_outputs is %d but %s has one output",
                               m->num_outputs, gpl_objective_name(m));
    }
    if (m->softmax_output_class && m->objective != GPL_OBJ_SOFTMAX)
        return gpl_model_error(source, "class output set for a non-softmax objective");
    if (m->num_parallel_tree < 1)
        return gpl_model_error(source, "num_parallel_tree is %d; it must be at least 1",
                               m->num_parallel_tree);
    if (m->num_trees % gpl_model_trees_per_round(m) != 0)
        return gpl_model_error(source, "%d trees is not a whole number of rounds of "
                           "%d trees", m->num_trees, gpl_model_trees_per_round(m));
    if (m->best_round < -1 || m->best_round >= gpl_model_num_rounds(m))
        return gpl_model_error(source, "best_round %d is outside the %d rounds "
                               "of the model", m->best_round, gpl_model_num_rounds(m));
    return GPULAYER_OK;
}

static gpulayer_status check_cuts(const gpl_model *m, const char *source)
{
    const gpl_bin_cuts *c = &m->cuts;
    if (!c->cut_ptr || c->num_features != m->num_features)
        return gpl_model_error(source, "the bin cuts are missing or cover %d "
                           "features instead of %d", c->cut_ptr ? c->num_features : 0,
                           m->num_features);
    if (c->cut_ptr[0] != 0)
        return gpl_model_error(source, "cuts.cut_ptr[0] is %u, expected 0", c->cut_ptr[0]);
    for (int32_t f = 0; f < m->num_features; f++)
        if (c->cut_ptr[f + 1] < c->cut_ptr[f])
            return gpl_model_error(source, "cuts.cut_ptr is not monotone at index %d "
                               "(%u after %u)", f + 1, c->cut_ptr[f + 1], c->cut_ptr[f]);
    for (int32_t f = 0; f < m->num_features; f++) {
        uint32_t lo = c->cut_ptr[f], hi = c->cut_ptr[f + 1];
        /* Bin codes are 16 bits: the missing bin and hi - lo + 1 value
         * bins. */
        if (hi - lo > GPL_MAX_CUTS)
            return gpl_model_error(source, "feature %d has %u thresholds; at most %d "
                               "fit the 65,536 bins of a feature", f, hi - lo, GPL_MAX_CUTS);
        for (uint32_t i = lo; i < hi; i++) {
            if (isnan(c->values[i]))
                return gpl_model_error(source, "cuts.values[%u] (feature %d) is NaN", i, f);
            if (i > lo && !(c->values[i] > c->values[i - 1]))
                return gpl_model_error(source, "the thresholds of feature %d are not "
                                   "ascending at cuts.values[%u] (%.9g after %.9g)",
                                   f, i, (double)c->values[i], (double)c->values[i - 1]);
        }
    }
    return GPULAYER_OK;
}

static gpulayer_status check_categories(const gpl_model *m, const char *source)
{
    for (int32_t f = 0; m->categories && f < m->num_features; f++) {
        const gpl_category_dict *d = m->categories[f];
        /* Prediction finds names by binary search, so the order matters. */
        for (int32_t i = 1; d && i < d->count; i++)
            if (strcmp(d->names[i - 1], d->names[i]) >= 0)
                return gpl_model_error(source, "categories[%d] is not sorted and unique "
                                   "at index %d (\"%s\" after \"%s\")", f, i,
                                   d->names[i], d->names[i - 1]);
    }
    return GPULAYER_OK;
}

/* Class names name the classes of a classifier: num_class of them, or 2
 * for a binary objective, sorted as the predictions' class codes are. */
static gpulayer_status check_class_names(const gpl_model *m, const char *source)
{
    const gpl_category_dict *d = m->class_names;
    if (!d) return GPULAYER_OK;
    const char *objective = gpl_objective_name(m);
    int32_t want = m->objective == GPL_OBJ_SOFTMAX ? m->num_class
                   : !strncmp(objective, "binary:", 7) ? 2 : 0;
    if (want == 0)
        return gpl_model_error(source, "class_names given for %s, which is not a "
                               "classification objective", objective);
    if (d->count != want)
        return gpl_model_error(source, "class_names has %d names, but %s with num_class=%d "
                               "has %d classes", d->count, objective, m->num_class, want);
    for (int32_t i = 1; i < d->count; i++)
        if (strcmp(d->names[i - 1], d->names[i]) >= 0)
            return gpl_model_error(source, "class_names is not sorted and unique at index "
                                   "%d (\"%s\" after \"%s\")", i, d->names[i],
                                   d->names[i - 1]);
    return GPULAYER_OK;
}

static gpulayer_status check_leaf(const gpl_tree_node *n, int32_t t, int32_t i,
                                  const char *source)
{
    if (n->right != -1)
        return gpl_model_error(source, "trees[%d] node %d has a right child (%d) but "
                           "no left child", t, i, n->right);
    if (n->feature != -1)
        return gpl_model_error(source, "trees[%d] node %d is a leaf but has feature %d",
                           t, i, n->feature);
    if (!isfinite(n->leaf_value))
        return gpl_model_error(source, "trees[%d] node %d has leaf value %g", t, i,
                           (double)n->leaf_value);
    return GPULAYER_OK;
}

/* What a split by a set of categories of feature f may name, once a
 * feature: its groups of categories (its categories unless grouped) when
 * the feature is categorical with one value bin a group (group g in bin
 * g + 1, as prediction bins it); SET_NOT_CATEGORICAL or SET_BAD_CUTS
 * otherwise. */
#define SET_NOT_CATEGORICAL (-1)
#define SET_BAD_CUTS 0

static int32_t set_limit(const gpl_model *m, int32_t f)
{
    if (!m->categories || !m->categories[f]) return SET_NOT_CATEGORICAL;
    const int32_t groups = gpl_model_category_groups(m, f);
    const uint32_t lo = m->cuts.cut_ptr[f], hi = m->cuts.cut_ptr[f + 1];
    if (groups < 1 || hi - lo != (uint32_t)groups - 1) return SET_BAD_CUTS;
    for (uint32_t k = lo; k < hi; k++)
        if (m->cuts.values[k] != (float)(k - lo) + 0.5f) return SET_BAD_CUTS;
    return groups;
}

/* A split by a set of categories: of a feature that may be split so, and
 * naming existing categories (or groups) only. */
static gpulayer_status check_category_split(const int32_t *limits, const gpl_tree_node *n,
                                            int32_t t, int32_t i, const char *source)
{
    const int32_t f = n->feature, groups = limits[f];
    if (groups == SET_NOT_CATEGORICAL)
        return gpl_model_error(source, "trees[%d] node %d splits feature %d by categories, "
                               "but the feature is not categorical", t, i, f);
    if (groups == SET_BAD_CUTS)
        return gpl_model_error(source, "trees[%d] node %d splits feature %d by categories, "
                               "but the feature's cuts are not one bin a category", t, i, f);
    if (n->split_bin != 0 || n->threshold != 0.0f)
        return gpl_model_error(source, "trees[%d] node %d splits by categories but has "
                               "split_bin %d and threshold %.9g (expected 0 and 0)", t, i,
                               n->split_bin, (double)n->threshold);
    const uint32_t bins = 32 * (uint32_t)gpl_node_set_words(n);
    for (uint32_t b = 1; b < bins; b++)
        if (gpl_cat_set_has(gpl_node_set(n), b) && b > (uint32_t)groups)
            return gpl_model_error(source, "trees[%d] node %d sends category code %u left, "
                                   "but feature %d has %d categories (codes 0..%d)", t, i,
                                   b - 1, f, groups, groups - 1);
    return GPULAYER_OK;
}

static gpulayer_status check_split(const gpl_model *m, const int32_t *limits,
                                   const gpl_tree *tree, int32_t t, int32_t i,
                                   const char *source)
{
    const gpl_tree_node *n = &tree->nodes[i];
    const int32_t count = tree->num_nodes;
    if (n->left < 1 || n->left >= count || n->right < 1 || n->right >= count ||
        n->left == n->right)
        return gpl_model_error(source, "trees[%d] node %d has children %d and %d, "
                           "outside 1..%d or equal", t, i, n->left, n->right, count - 1);
    if (n->feature < 0 || n->feature >= m->num_features)
        return gpl_model_error(source, "trees[%d] node %d splits on feature %d but the "
                           "model has %d features", t, i, n->feature, m->num_features);
    if (n->default_left != 0 && n->default_left != 1)
        return gpl_model_error(source, "trees[%d] node %d has default_left %d, expected 0 or 1",
                           t, i, n->default_left);
    if (n->categorical) return check_category_split(limits, n, t, i, source);
    uint32_t lo = m->cuts.cut_ptr[n->feature], hi = m->cuts.cut_ptr[n->feature + 1];
    /* split_bin hi - lo + 1 is the last value bin: values left, missing right. */
    if (n->split_bin < 1 || (uint32_t)n->split_bin > hi - lo + 1)
        return gpl_model_error(source, "trees[%d] node %d has split_bin %d but feature %d "
                           "has %u thresholds", t, i, n->split_bin, n->feature, hi - lo);
    /* Prediction bins rows with the cuts while the XGBoost export uses the
     * threshold: the two must agree. */
    float cut = gpl_split_threshold(&m->cuts, n->feature, n->split_bin);
    if (!(n->threshold == cut))
        return gpl_model_error(source, "trees[%d] node %d has threshold %.9g but its "
                           "split_bin %d stands for %.9g", t, i, (double)n->threshold,
                           n->split_bin, (double)cut);
    return GPULAYER_OK;
}

/* Every node but the root has exactly one parent and is reachable from the
 * root: together that rules out cycles, shared subtrees and stray nodes. */
static gpulayer_status check_shape(const gpl_tree *tree, int32_t t,
                                   const char *source)
{
    const int32_t n = tree->num_nodes;
    int32_t *seen = gpl_calloc((size_t)n, sizeof *seen, "tree validation");
    int32_t *stack = gpl_malloc(sizeof *stack * (size_t)n, "tree validation");
    gpulayer_status st = (seen && stack) ? GPULAYER_OK : GPULAYER_ERR_OUT_OF_MEMORY;
    for (int32_t i = 0; st == GPULAYER_OK && i < n; i++) {
        const gpl_tree_node *nd = &tree->nodes[i];
        if (nd->left < 0) continue;
        if (++seen[nd->left] > 1 || ++seen[nd->right] > 1)
            st = gpl_model_error(source, "trees[%d]: node %d has more than one parent "
                             "(the nodes do not form a tree)", t,
                             seen[nd->left] > 1 ? nd->left : nd->right);
    }
    int32_t top = 0, visited = 0;
    if (st == GPULAYER_OK) stack[top++] = 0;
    while (top > 0) {
        int32_t id = stack[--top];
        const gpl_tree_node *nd = &tree->nodes[id];
        seen[id] = -1;
        visited++;
        if (nd->left >= 0) {
            stack[top++] = nd->left;
            stack[top++] = nd->right;
        }
    }
    for (int32_t i = 0; st == GPULAYER_OK && visited < n && i < n; i++)
        if (seen[i] != -1)
            st = gpl_model_error(source, "trees[%d]: node %d cannot be reached from the "
                             "root (a cycle or a detached node)", t, i);
    free(seen);
    free(stack);
    return st;
}

static gpulayer_status check_tree(const gpl_model *m, const int32_t *limits, int32_t t,
                                  const char *source)
{
    const gpl_tree *tree = &m->trees[t];
    if (tree->num_nodes < 1 || !tree->nodes)
        return gpl_model_error(source, "trees[%d] has no nodes", t);
    for (int32_t i = 0; i < tree->num_nodes; i++) {
        const gpl_tree_node *n = &tree->nodes[i];
        if (n->left == -1) GPL_CHECK(check_leaf(n, t, i, source));
        else GPL_CHECK(check_split(m, limits, tree, t, i, source));
    }
    return check_shape(tree, t, source);
}

/* Category groups: one a category, groups 0..G all used, G below 255 (a
 * byte's value bins), on categorical features only. */
static gpulayer_status check_category_groups(const gpl_model *m, const char *source)
{
    for (int32_t f = 0; m->cat_groups && f < m->num_features; f++) {
        const int32_t *g = m->cat_groups[f];
        if (!g) continue;
        const gpl_category_dict *d = m->categories ? m->categories[f] : NULL;
        if (!d)
            return gpl_model_error(source, "category_groups[%d] groups a feature that is not "
                                   "categorical", f);
        uint8_t used[255] = {0};
        int32_t top = -1;
        for (int32_t i = 0; i < d->count; i++) {
            if (g[i] < 0 || g[i] >= 255)
                return gpl_model_error(source, "category_groups[%d][%d] is %d, expected "
                                       "0..254", f, i, g[i]);
            used[g[i]] = 1;
            if (g[i] > top) top = g[i];
        }
        for (int32_t k = 0; k <= top; k++)
            if (!used[k])
                return gpl_model_error(source, "category_groups[%d] has no category in "
                                       "group %d (of 0..%d)", f, k, top);
    }
    return GPULAYER_OK;
}

gpulayer_status gpl_model_validate(const gpl_model *m, const char *source)
{
    GPL_CHECK(check_header(m, source));
    GPL_CHECK(check_cuts(m, source));
    GPL_CHECK(check_categories(m, source));
    GPL_CHECK(check_class_names(m, source));
    GPL_CHECK(check_category_groups(m, source));
    int32_t *limits = gpl_malloc(sizeof(int32_t) * (size_t)(m->num_features ? m->num_features : 1),
                                 "model validation");
    if (!limits) return GPULAYER_ERR_OUT_OF_MEMORY;
    for (int32_t f = 0; f < m->num_features; f++) limits[f] = set_limit(m, f);
    gpulayer_status st = GPULAYER_OK;
    for (int32_t t = 0; st == GPULAYER_OK && t < m->num_trees; t++)
        st = check_tree(m, limits, t, source);
    free(limits);
    return st;
}
