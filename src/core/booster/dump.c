/* dump.c -- trees as text (XGBoost's get_dump layout), with feature and
 * category names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "booster.h"
#include "error.h"
#include "gpulayer.h"
#include "strbuf.h"

static void feature_text(gpl_strbuf *sb, const gpl_model *m, int32_t f)
{
    if (m->feature_names && m->feature_names[f] && m->feature_names[f][0])
        gpl_strbuf_printf(sb, "%s", m->feature_names[f]);
    else
        gpl_strbuf_printf(sb, "f%d", (int)f);
}

/* Whether category code goes left at n: its group (the code itself when
 * the feature's categories are not grouped) in the set, or for a split of
 * the codes as ordered numbers (categorical=ordered), below the threshold. */
static int goes_left(const gpl_model *m, const gpl_tree_node *n, int32_t code)
{
    if (n->categorical) {
        const int32_t *group = m->cat_groups ? m->cat_groups[n->feature] : NULL;
        const int32_t g = group ? group[code] : code;
        return gpl_node_in_set(n, (uint32_t)g + 1);
    }
    return (float)code < n->threshold;
}

/* "name in {a, b}": the categories that go left. */
static void category_set_text(gpl_strbuf *sb, const gpl_model *m, const gpl_tree_node *n)
{
    const gpl_category_dict *d = m->categories ? m->categories[n->feature] : NULL;
    feature_text(sb, m, n->feature);
    gpl_strbuf_printf(sb, " in {");
    int first = 1;
    const int32_t codes = d ? d->count : 32 * gpl_node_set_words(n) - 1;
    for (int32_t code = 0; code < codes; code++) {
        if (!goes_left(m, n, code)) continue;
        gpl_strbuf_printf(sb, "%s", first ? "" : ", ");
        if (d && code < d->count) gpl_strbuf_printf(sb, "%s", d->names[code]);
        else gpl_strbuf_printf(sb, "%d", (int)code);
        first = 0;
    }
    gpl_strbuf_printf(sb, "}");
}

/* Node i and its subtree at the given depth; an internal node at
 * max_depth (> 0) reads "i:...". */
static void dump_node(gpl_strbuf *sb, const gpl_model *m, const gpl_tree *t, int32_t i,
                      int depth, int with_stats, int max_depth)
{
    const gpl_tree_node *n = &t->nodes[i];
    for (int d = 0; d < depth; d++) gpl_strbuf_append(sb, "\t", 1);
    if (n->left < 0) {
        gpl_strbuf_printf(sb, "%d:leaf=%.9g", (int)i, (double)n->leaf_value);
        if (with_stats) gpl_strbuf_printf(sb, ",cover=%.9g", n->cover);
        gpl_strbuf_append(sb, "\n", 1);
        return;
    }
    if (max_depth > 0 && depth >= max_depth) {
        gpl_strbuf_printf(sb, "%d:...\n", (int)i);
        return;
    }
    gpl_strbuf_printf(sb, "%d:[", (int)i);
    if (n->categorical || (m->categories && m->categories[n->feature])) {
        category_set_text(sb, m, n);
    } else {
        feature_text(sb, m, n->feature);
        gpl_strbuf_printf(sb, "<%.9g", (double)n->threshold);
    }
    gpl_strbuf_printf(sb, "] yes=%d,no=%d,missing=%d", (int)n->left, (int)n->right,
                      (int)(n->default_left ? n->left : n->right));
    if (with_stats) gpl_strbuf_printf(sb, ",gain=%.9g,cover=%.9g", n->gain, n->cover);
    gpl_strbuf_append(sb, "\n", 1);
    dump_node(sb, m, t, n->left, depth + 1, with_stats, max_depth);
    dump_node(sb, m, t, n->right, depth + 1, with_stats, max_depth);
}

static gpulayer_status take(gpl_strbuf *sb, char **out, size_t *out_len)
{
    size_t len = sb->len;
    char *text = gpl_strbuf_take(sb);
    if (!text) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory dumping the model");
    *out = text;
    if (out_len) *out_len = len;
    return GPULAYER_OK;
}

static gpulayer_status check_model(const gpulayer_booster *b, char **out)
{
    if (!out) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "dump: out is NULL");
    *out = NULL;
    if (!b || !b->model)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "dump: the booster has no model: train or load one first");
    return GPULAYER_OK;
}

gpulayer_status gpulayer_booster_dump_tree(const gpulayer_booster *b, int32_t tree,
                                           int with_stats, int32_t max_depth,
                                           char **out, size_t *out_len)
{
    GPL_CHECK(check_model(b, out));
    if (tree < 0 || tree >= b->model->num_trees)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "dump: tree %d does not exist; the model has %d trees (0..%d)",
                         (int)tree, (int)b->model->num_trees, (int)b->model->num_trees - 1);
    if (max_depth < 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "dump: max_depth must be >= 0 (0 = the whole tree), got %d",
                         (int)max_depth);
    gpl_strbuf sb;
    gpl_strbuf_init(&sb);
    const gpl_tree *t = &b->model->trees[tree];
    if (t->num_nodes > 0) dump_node(&sb, b->model, t, 0, 0, with_stats != 0, max_depth);
    return take(&sb, out, out_len);
}

gpulayer_status gpulayer_booster_dump_model(const gpulayer_booster *b, int with_stats,
                                            char **out, size_t *out_len)
{
    GPL_CHECK(check_model(b, out));
    gpl_strbuf sb;
    gpl_strbuf_init(&sb);
    for (int32_t t = 0; t < b->model->num_trees; t++) {
        gpl_strbuf_printf(&sb, "booster[%d]:\n", (int)t);
        const gpl_tree *tree = &b->model->trees[t];
        if (tree->num_nodes > 0) dump_node(&sb, b->model, tree, 0, 0, with_stats != 0, 0);
    }
    return take(&sb, out, out_len);
}

gpulayer_status gpulayer_booster_feature_label(const gpulayer_booster *b, int32_t col,
                                               char **out, size_t *out_len)
{
    GPL_CHECK(check_model(b, out));
    if (col < 0 || col >= b->model->num_features)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "feature_label: feature %d does not exist; the model has %d features",
                         (int)col, (int)b->model->num_features);
    gpl_strbuf sb;
    gpl_strbuf_init(&sb);
    feature_text(&sb, b->model, col);
    return take(&sb, out, out_len);
}
