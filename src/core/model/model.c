/* model.c -- the model object, objective names and the margin -> output
 * transform. */
#include "model.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "det_math.h"
#include "objective_math.h"
#include "error.h"

gpl_model *gpl_model_new(void)
{
    gpl_model *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->objective = GPL_OBJ_SQUARED_ERROR;
    m->num_class = 1;
    m->num_outputs = 1;
    m->num_parallel_tree = 1;
    m->best_round = -1;
    gpl_objective_params_default(&m->obj_params);
    return m;
}

void gpl_bin_cuts_free(gpl_bin_cuts *c)
{
    if (!c) return;
    free(c->cut_ptr);
    free(c->values);
    c->cut_ptr = NULL;
    c->values = NULL;
    c->num_features = 0;
}

/* The model owns deep copies of the dictionaries (every string and array
 * malloc'd), so they are released here rather than through the dataset
 * code. */
static void free_categories(gpl_category_dict **cats, int32_t count)
{
    if (!cats) return;
    for (int32_t f = 0; f < count; f++) {
        gpl_category_dict *d = cats[f];
        if (!d) continue;
        for (int32_t i = 0; i < d->count; i++) free(d->names[i]);
        free(d->names);
        free(d);
    }
    free(cats);
}

void gpl_tree_nodes_free(gpl_tree_node *nodes, int32_t num_nodes)
{
    if (!nodes) return;
    for (int32_t i = 0; i < num_nodes; i++) free(nodes[i].wide_set);
    free(nodes);
}

void gpl_model_free(gpl_model *m)
{
    if (!m) return;
    gpl_bin_cuts_free(&m->cuts);
    if (m->feature_names)
        for (int32_t f = 0; f < m->num_features; f++) free(m->feature_names[f]);
    free(m->feature_names);
    free_categories(m->categories, m->num_features);
    free(m->cat_split);
    if (m->cat_groups)
        for (int32_t f = 0; f < m->num_features; f++) free(m->cat_groups[f]);
    free(m->cat_groups);
    gpl_category_dict_free(m->class_names);
    for (int32_t t = 0; t < m->num_trees; t++)
        gpl_tree_nodes_free(m->trees[t].nodes, m->trees[t].num_nodes);
    free(m->trees);
    free(m->params_json);
    free(m->base_margins);
    free(m);
}

/* Takes ownership of tree->nodes in every case: on success they belong to
 * the model, on failure they are freed. tree is left empty either way, so
 * the caller never frees the nodes itself. */
gpulayer_status gpl_model_add_tree(gpl_model *m, gpl_tree *tree)
{
    if (m->num_trees == m->tree_capacity) {
        int32_t cap = m->tree_capacity ? m->tree_capacity * 2 : 16;
        gpl_tree *grown = realloc(m->trees, sizeof *grown * (size_t)cap);
        if (!grown) {
            gpl_tree_nodes_free(tree->nodes, tree->num_nodes);
            tree->nodes = NULL;
            tree->num_nodes = 0;
            return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                             "out of host memory adding tree %d to the model",
                             m->num_trees);
        }
        m->trees = grown;
        m->tree_capacity = cap;
    }
    m->trees[m->num_trees++] = *tree;
    tree->nodes = NULL;
    tree->num_nodes = 0;
    return GPULAYER_OK;
}

int32_t gpl_model_prediction_width(const gpl_model *m, int margin)
{
    if (!margin && m->softmax_output_class) return 1;
    return m->num_outputs;
}

/* ------------------------------------------------------------ objectives */

const char *gpl_objective_name(const gpl_model *m)
{
    return gpl_objective_kind_name(m->objective, m->softmax_output_class);
}

/* Probabilities of a row of margins. The largest margin is subtracted
 * first so that exp never overflows; exp is the deterministic one so that
 * every backend's evaluation sees the same probabilities. Rows of up to
 * SOFTMAX_STACK classes keep their exponentials on the stack; wider rows
 * compute them twice rather than allocate per row. */
#define SOFTMAX_STACK 256
static void softmax_in_place(float *v, int32_t k)
{
    double top = v[0];
    for (int32_t c = 1; c < k; c++)
        if (v[c] > top) top = v[c];
    double e[SOFTMAX_STACK];
    double sum = 0.0;
    for (int32_t c = 0; c < k; c++) {
        double x = gpl_det_exp((double)v[c] - top);
        if (c < SOFTMAX_STACK) e[c] = x;
        sum += x;
    }
    for (int32_t c = 0; c < k; c++) {
        double x = c < SOFTMAX_STACK ? e[c] : gpl_det_exp((double)v[c] - top);
        v[c] = (float)(x / sum);
    }
}

/* Index of the largest margin; the first one wins a tie, as in XGBoost. */
static int32_t argmax(const float *v, int32_t k)
{
    int32_t best = 0;
    for (int32_t c = 1; c < k; c++)
        if (v[c] > v[best]) best = c;
    return best;
}

/* For multi:softmax (softmax_output_class set) the prediction of a row is a
 * single value, the class index, written to row_values[0]; the other
 * entries are left as they were. Callers size and copy outputs with
 * gpl_model_prediction_width. */
void gpl_objective_transform(const gpl_model *m, float *row_values)
{
    const int32_t k = m->num_outputs;
    if (k <= 0) return;
    if (m->objective == GPL_OBJ_SOFTMAX) {
        if (m->softmax_output_class)
            row_values[0] = (float)argmax(row_values, k);
        else
            softmax_in_place(row_values, k);
        return;
    }
    if (m->objective == GPL_OBJ_EXPECTILE) { /* objective_math.h's chain */
        double pred = row_values[0];
        for (int32_t c = 1; c < k; c++) {
            pred = gpl_expectile_next(pred, row_values[c]);
            row_values[c] = (float)pred;
        }
        return;
    }
    for (int32_t c = 0; c < k; c++)
        row_values[c] = gpl_objective_transform_one(m->objective, row_values[c]);
}

int32_t gpl_model_category_groups(const gpl_model *m, int32_t f)
{
    const gpl_category_dict *d = m->categories ? m->categories[f] : NULL;
    if (!d) return 0;
    const int32_t *g = m->cat_groups ? m->cat_groups[f] : NULL;
    if (!g) return d->count;
    int32_t top = -1;
    for (int32_t i = 0; i < d->count; i++)
        if (g[i] > top) top = g[i];
    return top + 1;
}

void gpl_model_record_param(const gpl_model *m, const char *key, char *buf, size_t size)
{
    cJSON *record = m->params_json ? cJSON_Parse(m->params_json) : NULL;
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(record, key);
    snprintf(buf, size, "%s", cJSON_IsString(v) ? v->valuestring : "");
    cJSON_Delete(record);
}
