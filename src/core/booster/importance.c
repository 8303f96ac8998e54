/* importance.c -- feature importance over the splits of a booster's trees,
 * with XGBoost's five kinds (get_score's importance_type), and feature
 * names. */
#include <stdlib.h>

#include "alloc.h"
#include "booster.h"
#include "error.h"

/* Number of splits, total gain and total cover of every feature. */
static gpulayer_status split_totals(const gpl_model *m, double *count,
                                    double *gain, double *cover)
{
    for (int32_t t = 0; t < m->num_trees; t++) {
        const gpl_tree *tree = &m->trees[t];
        for (int32_t i = 0; i < tree->num_nodes; i++) {
            const gpl_tree_node *n = &tree->nodes[i];
            if (n->left < 0) continue;
            if (n->feature < 0 || n->feature >= m->num_features)
                return gpl_error(GPULAYER_ERR_INTERNAL,
                                 "tree %d node %d splits on feature %d of %d", t,
                                 i, n->feature, m->num_features);
            count[n->feature] += 1.0;
            gain[n->feature] += n->gain;
            cover[n->feature] += n->cover;
        }
    }
    return GPULAYER_OK;
}

static double importance_of(gpulayer_importance_type type, double count,
                            double gain, double cover)
{
    switch (type) {
    case GPULAYER_IMPORTANCE_WEIGHT: return count;
    case GPULAYER_IMPORTANCE_GAIN: return count > 0.0 ? gain / count : 0.0;
    case GPULAYER_IMPORTANCE_COVER: return count > 0.0 ? cover / count : 0.0;
    case GPULAYER_IMPORTANCE_TOTAL_GAIN: return gain;
    case GPULAYER_IMPORTANCE_TOTAL_COVER: return cover;
    }
    return 0.0;
}

/* Features never split on get 0 (XGBoost's get_score leaves them out). */
gpulayer_status gpulayer_booster_feature_importance(const gpulayer_booster *b,
                                                    gpulayer_importance_type type,
                                                    double *out,
                                                    int32_t num_features)
{
    if (!b || !out)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "booster or output is NULL");
    if (!b->model)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "the booster has no model: train or load one first");
    if ((unsigned)type > GPULAYER_IMPORTANCE_TOTAL_COVER)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "unknown importance type %d", (int)type);
    const gpl_model *m = b->model;
    if (num_features != m->num_features)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "room for %d importances given, but the model has %d "
                         "features", num_features, m->num_features);
    double *sums = gpl_calloc(3 * (size_t)(num_features ? num_features : 1),
                              sizeof(double), "feature importance");
    if (!sums) return GPULAYER_ERR_OUT_OF_MEMORY;
    double *count = sums, *gain = sums + num_features, *cover = gain + num_features;
    gpulayer_status st = split_totals(m, count, gain, cover);
    for (int32_t f = 0; st == GPULAYER_OK && f < num_features; f++)
        out[f] = importance_of(type, count[f], gain[f], cover[f]);
    free(sums);
    return st;
}

int32_t gpulayer_booster_num_class_names(const gpulayer_booster *b)
{
    return b && b->model && b->model->class_names ? b->model->class_names->count : 0;
}

const char *gpulayer_booster_class_name(const gpulayer_booster *b, int32_t k)
{
    if (!b || !b->model || !b->model->class_names) return NULL;
    if (k < 0 || k >= b->model->class_names->count) return NULL;
    return b->model->class_names->names[k];
}

const char *gpulayer_booster_feature_name(const gpulayer_booster *b, int32_t col)
{
    if (!b || !b->model || !b->model->feature_names) return NULL;
    if (col < 0 || col >= b->model->num_features) return NULL;
    return b->model->feature_names[col];
}

int gpulayer_booster_feature_is_categorical(const gpulayer_booster *b, int32_t col)
{
    if (!b || !b->model || !b->model->categories) return 0;
    if (col < 0 || col >= b->model->num_features) return 0;
    return b->model->categories[col] != NULL;
}
