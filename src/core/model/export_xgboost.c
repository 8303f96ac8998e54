/*
 * export_xgboost.c -- a model in XGBoost's JSON model format, the format of
 * xgboost.Booster.save_model("model.json") in XGBoost 2.x and 3.x.
 *
 * Both libraries send x < threshold to the left child and missing values
 * to the default child, and add leaf values to a base margin, so the trees
 * carry over as they are. What differs:
 *   - XGBoost finds a right child at left child + 1, so nodes are renumbered
 *     breadth first with each pair of children adjacent;
 *   - XGBoost's reader tells integers from floats by their spelling, so
 *     floating values always carry a '.' or an exponent;
 *   - XGBoost's base_score is in output space (a probability for the
 *     logistic objectives, exp(margin) for Poisson, gamma and Tweedie)
 *     and a margin for the others; a model of several quantiles has one
 *     output (XGBoost's target) per quantile, each with its base_score;
 *   - each objective's parameter is saved under XGBoost's name for its
 *     parameter object (poisson_regression_param, quantile_loss_param...);
 *   - a split by a set of categories is XGBoost's categorical split
 *     (split_type 1), whose set lists the codes that go right; the codes
 *     are those of the model's category lists, which are sorted as pandas
 *     sorts the categories of a column of text (a set of groups of rare
 *     categories lists each category of the groups). A split of a
 *     categorical feature as ordered codes (code < threshold goes left)
 *     becomes the categorical split that sends the codes at or above the
 *     threshold right: XGBoost's dumps refuse a numeric split of a feature
 *     typed "c";
 *   - feature_types gives every feature a type, "c" for a categorical one
 *     and "float" for the others, with or without names; feature_names
 *     are written when every feature has a name that XGBoost takes (not
 *     empty, without '[', ']' or '<', no two alike), and left out
 *     otherwise, as in a model XGBoost trains on unnamed data.
 */
#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "det_math.h"
#include "objective_math.h"
#include "error.h"
#include "json_num.h"
#include "model.h"
#include "model_import.h"

/* XGBoost's marker for "no parent" (the root). */
#define XGB_NO_PARENT 2147483647

/* A finite float spelt so that XGBoost reads it as a floating value. */
static cJSON *xgb_float(double v)
{
    char text[GPL_NUM_TEXT_SIZE + 2];
    int n = gpl_format_float((float)v, text);
    if (!strpbrk(text, ".eE")) memcpy(text + n, ".0", 3);
    return cJSON_CreateRaw(text);
}

static cJSON *xgb_string_int(long long v)
{
    char text[32];
    snprintf(text, sizeof text, "%lld", v);
    return cJSON_CreateString(text);
}

/* Adds item to an object (key != NULL) or array; frees it on failure. */
static int attach(cJSON *parent, const char *key, cJSON *item)
{
    if (!item) return 0;
    cJSON_bool ok = key ? cJSON_AddItemToObject(parent, key, item)
                        : cJSON_AddItemToArray(parent, item);
    if (!ok) cJSON_Delete(item);
    return ok != 0;
}

static cJSON *int_array(const int32_t *v, int32_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (int32_t i = 0; a && i < n; i++)
        if (!attach(a, NULL, cJSON_CreateNumber(v[i]))) {
            cJSON_Delete(a);
            return NULL;
        }
    return a;
}

static cJSON *float_array(const double *v, int32_t n)
{
    cJSON *a = cJSON_CreateArray();
    for (int32_t i = 0; a && i < n; i++)
        if (!attach(a, NULL, xgb_float(v[i]))) {
            cJSON_Delete(a);
            return NULL;
        }
    return a;
}

static gpulayer_status out_of_memory(void)
{
    return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory exporting a model");
}

/* One tree as XGBoost's parallel arrays, in XGBoost's node order. */
typedef struct xgb_tree {
    int32_t n;
    int32_t *ints;   /* NUM_I arrays of n (left, right, parent, feature,
                        default_left, split_type), then the scratch
                        arrays order and new_id */
    double *floats;  /* 4 arrays of n: base_weight, split_condition,
                        loss_change, sum_hessian */
} xgb_tree;

enum { I_LEFT, I_RIGHT, I_PARENT, I_FEATURE, I_DEFAULT_LEFT, I_SPLIT_TYPE, NUM_I };
enum { F_WEIGHT, F_CONDITION, F_LOSS, F_HESSIAN, NUM_F };

static int32_t *xi(xgb_tree *x, int k) { return x->ints + (size_t)k * (size_t)x->n; }
static double *xf(xgb_tree *x, int k) { return x->floats + (size_t)k * (size_t)x->n; }

/* Breadth-first order with the children of a node given consecutive ids:
 * order[new] = old. The model has been validated as a tree. */
static void breadth_first(const gpl_tree *t, int32_t *order, int32_t *new_id)
{
    int32_t next = 1;
    order[0] = 0;
    new_id[0] = 0;
    for (int32_t k = 0; k < next; k++) {
        const gpl_tree_node *nd = &t->nodes[order[k]];
        if (nd->left < 0) continue;
        new_id[nd->left] = next;
        order[next++] = nd->left;
        new_id[nd->right] = next;
        order[next++] = nd->right;
    }
}

/* Whether feature f is categorical: typed "c" in the export, and each of
 * its splits a categorical split. */
static int categorical_feature(const gpl_model *m, int32_t f)
{
    return m->categories && f >= 0 && f < m->num_features && m->categories[f];
}

/* Whether a node is exported as XGBoost's categorical split. */
static int categorical_split(const gpl_model *m, const gpl_tree_node *nd)
{
    return nd->left >= 0 && (nd->categorical || categorical_feature(m, nd->feature));
}

static void fill_node(const gpl_model *m, xgb_tree *x, const gpl_tree_node *nd, int32_t k,
                      const int32_t *new_id)
{
    const int leaf = nd->left < 0;
    const int cat = categorical_split(m, nd);
    xi(x, I_LEFT)[k] = leaf ? -1 : new_id[nd->left];
    xi(x, I_RIGHT)[k] = leaf ? -1 : new_id[nd->right];
    xi(x, I_FEATURE)[k] = leaf ? 0 : nd->feature;
    xi(x, I_DEFAULT_LEFT)[k] = leaf ? 0 : nd->default_left;
    xi(x, I_SPLIT_TYPE)[k] = cat;
    if (k == 0) xi(x, I_PARENT)[0] = XGB_NO_PARENT;
    if (!leaf) {
        xi(x, I_PARENT)[new_id[nd->left]] = k;
        xi(x, I_PARENT)[new_id[nd->right]] = k;
    }
    xf(x, F_WEIGHT)[k] = nd->leaf_value;
    xf(x, F_CONDITION)[k] = leaf ? nd->leaf_value : cat ? 0.0 : nd->threshold;
    xf(x, F_LOSS)[k] = leaf ? 0.0 : nd->gain;
    xf(x, F_HESSIAN)[k] = nd->cover;
}

/* XGBoost stores every value as a float. Thresholds and leaf values are
 * floats already; gain and cover, statistics that do not change
 * predictions, saturate at the float range. Non-finite values have no
 * spelling in XGBoost's JSON. */
static gpulayer_status fit_floats(xgb_tree *x, int32_t t)
{
    static const char *what[NUM_F] = {"weight", "threshold or leaf value",
                                      "gain", "cover"};
    for (int k = 0; k < NUM_F; k++)
        for (int32_t i = 0; i < x->n; i++) {
            double *v = &x->floats[(size_t)k * (size_t)x->n + (size_t)i];
            if (!isfinite(*v))
                return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                                 "cannot export to XGBoost: tree %d has a %s of "
                                 "%g, which XGBoost's format cannot hold", t,
                                 what[k], *v);
            if (fabs(*v) > FLT_MAX) *v = *v > 0 ? FLT_MAX : -FLT_MAX;
        }
    return GPULAYER_OK;
}

static gpulayer_status convert_tree(const gpl_model *m, const gpl_tree *t, int32_t index,
                                    xgb_tree *x)
{
    const int32_t n = t->num_nodes;
    x->n = n;
    x->ints = gpl_malloc(sizeof(int32_t) * (size_t)n * (NUM_I + 2), "an exported tree");
    x->floats = gpl_malloc(sizeof(double) * (size_t)n * NUM_F, "an exported tree");
    if (!x->ints || !x->floats) return GPULAYER_ERR_OUT_OF_MEMORY;
    int32_t *order = x->ints + (size_t)NUM_I * (size_t)n;
    int32_t *new_id = order + n;
    breadth_first(t, order, new_id);
    for (int32_t k = 0; k < n; k++) fill_node(m, x, &t->nodes[order[k]], k, new_id);
    return fit_floats(x, index);
}

static cJSON *tree_param(const gpl_model *m, int32_t n)
{
    cJSON *p = cJSON_CreateObject();
    int ok = p != NULL;
    ok = ok && attach(p, "num_deleted", cJSON_CreateString("0"));
    ok = ok && attach(p, "num_feature", xgb_string_int(m->num_features));
    ok = ok && attach(p, "num_nodes", xgb_string_int(n));
    ok = ok && attach(p, "size_leaf_vector", cJSON_CreateString("1"));
    if (!ok) cJSON_Delete(p);
    return ok ? p : NULL;
}

/* Whether the category of code c goes right at a categorical split: it
 * is not in our left set, or, for a split as ordered codes, c is not
 * below the threshold. */
static int goes_right(const gpl_tree_node *nd, const int32_t *group, int32_t c)
{
    if (!nd->categorical) return !((float)c < nd->threshold);
    return !gpl_node_in_set(nd, (uint32_t)(group ? group[c] : c) + 1);
}

/* XGBoost's four arrays of categorical splits, in its node order: the
 * nodes, where each one's codes start in "categories" and how many there
 * are, and the codes that go right. */
static int attach_categories(cJSON *o, const gpl_model *m, const gpl_tree *t, xgb_tree *x)
{
    cJSON *codes = cJSON_CreateArray(), *nodes = cJSON_CreateArray();
    cJSON *segments = cJSON_CreateArray(), *sizes = cJSON_CreateArray();
    int ok = attach(o, "categories", codes);
    ok = attach(o, "categories_nodes", nodes) && ok;
    ok = attach(o, "categories_segments", segments) && ok;
    ok = attach(o, "categories_sizes", sizes) && ok;
    const int32_t *order = x->ints + (size_t)NUM_I * (size_t)x->n;
    int64_t at = 0;
    for (int32_t k = 0; ok && k < x->n; k++) {
        const gpl_tree_node *nd = &t->nodes[order[k]];
        if (!categorical_split(m, nd)) continue;
        const int32_t count = m->categories[nd->feature]->count;
        const int32_t *group = m->cat_groups ? m->cat_groups[nd->feature] : NULL;
        int64_t size = 0;
        for (int32_t c = 0; ok && c < count; c++)
            if (goes_right(nd, group, c)) {
                ok = attach(codes, NULL, cJSON_CreateNumber(c));
                size++;
            }
        ok = ok && attach(nodes, NULL, cJSON_CreateNumber(k)) &&
             attach(segments, NULL, cJSON_CreateNumber((double)at)) &&
             attach(sizes, NULL, cJSON_CreateNumber((double)size));
        at += size;
    }
    return ok;
}

static cJSON *tree_json(const gpl_model *m, const gpl_tree *t, xgb_tree *x, int32_t id)
{
    const int32_t n = x->n;
    cJSON *o = cJSON_CreateObject();
    int ok = o != NULL;
    ok = ok && attach(o, "base_weights", float_array(xf(x, F_WEIGHT), n));
    ok = ok && attach_categories(o, m, t, x);
    ok = ok && attach(o, "default_left", int_array(xi(x, I_DEFAULT_LEFT), n));
    ok = ok && attach(o, "id", cJSON_CreateNumber(id));
    ok = ok && attach(o, "left_children", int_array(xi(x, I_LEFT), n));
    ok = ok && attach(o, "loss_changes", float_array(xf(x, F_LOSS), n));
    ok = ok && attach(o, "parents", int_array(xi(x, I_PARENT), n));
    ok = ok && attach(o, "right_children", int_array(xi(x, I_RIGHT), n));
    ok = ok && attach(o, "split_conditions", float_array(xf(x, F_CONDITION), n));
    ok = ok && attach(o, "split_indices", int_array(xi(x, I_FEATURE), n));
    ok = ok && attach(o, "split_type", int_array(xi(x, I_SPLIT_TYPE), n));
    ok = ok && attach(o, "sum_hessian", float_array(xf(x, F_HESSIAN), n));
    ok = ok && attach(o, "tree_param", tree_param(m, n));
    if (!ok) cJSON_Delete(o);
    return ok ? o : NULL;
}

static gpulayer_status add_trees(const gpl_model *m, cJSON *trees)
{
    gpulayer_status st = GPULAYER_OK;
    for (int32_t t = 0; st == GPULAYER_OK && t < m->num_trees; t++) {
        xgb_tree x = {0};
        st = convert_tree(m, &m->trees[t], t, &x);
        if (st == GPULAYER_OK && !attach(trees, NULL, tree_json(m, &m->trees[t], &x, t)))
            st = out_of_memory();
        free(x.ints);
        free(x.floats);
    }
    return st;
}

/* tree_info (the class of each tree) and iteration_indptr (where each
 * round's trees start). */
static cJSON *tree_info(const gpl_model *m)
{
    cJSON *a = cJSON_CreateArray();
    for (int32_t t = 0; a && t < m->num_trees; t++)
        if (!attach(a, NULL, cJSON_CreateNumber(t % m->num_outputs))) {
            cJSON_Delete(a);
            return NULL;
        }
    return a;
}

static cJSON *iteration_indptr(const gpl_model *m)
{
    cJSON *a = cJSON_CreateArray();
    for (int32_t r = 0; a && r <= gpl_model_num_rounds(m); r++)
        if (!attach(a, NULL, cJSON_CreateNumber((double)r * gpl_model_trees_per_round(m)))) {
            cJSON_Delete(a);
            return NULL;
        }
    return a;
}

/* Containers are attached to their parent as soon as they exist, so that
 * deleting the outermost one releases everything on any failure. */
static gpulayer_status gbtree_model(const gpl_model *m, cJSON *model)
{
    cJSON *param = cJSON_CreateObject();
    int ok = attach(model, "gbtree_model_param", param);
    ok = ok && attach(param, "num_parallel_tree", xgb_string_int(m->num_parallel_tree));
    ok = ok && attach(param, "num_trees", xgb_string_int(m->num_trees));
    ok = ok && attach(model, "iteration_indptr", iteration_indptr(m));
    ok = ok && attach(model, "tree_info", tree_info(m));
    cJSON *trees = ok ? cJSON_CreateArray() : NULL;
    ok = ok && attach(model, "trees", trees);
    if (!ok) return out_of_memory();
    return add_trees(m, trees);
}

/* A parameter as XGBoost writes its float parameters: nine significant
 * digits of the float ("0.699999988" for max_delta_step 0.7). */
static cJSON *xgb_param(double v)
{
    char text[32];
    snprintf(text, sizeof text, "%.9g", (double)(float)v);
    return cJSON_CreateString(text);
}

/* A float as XGBoost writes the members of a vector parameter: the
 * shortest digits that read back as f, in scientific notation with an
 * unsigned, unpadded exponent ("3E-1", "1.3030161E0"). */
static void xgb_vector_float(float f, char *text, size_t size)
{
    char digits[32];
    for (int precision = 0; precision < 9; precision++) {
        snprintf(digits, sizeof digits, "%.*E", precision, (double)f);
        if (strtof(digits, NULL) == f) break;
    }
    char *e = strchr(digits, 'E');
    long exponent = strtol(e + 1, NULL, 10);
    *e = '\0';
    snprintf(text, size, "%sE%ld", digits, exponent);
}

/* "[a,b,...]": XGBoost's spelling of a vector of floats. */
static cJSON *xgb_vector(const double *v, int32_t n)
{
    const size_t size = (size_t)n * 24 + 3;
    char *text = malloc(size);
    if (!text) return NULL;
    size_t len = 1;
    text[0] = '[';
    for (int32_t i = 0; i < n; i++) {
        if (i) text[len++] = ',';
        xgb_vector_float((float)v[i], text + len, size - len - 2);
        len += strlen(text + len);
    }
    memcpy(text + len, "]", 2);
    cJSON *out = cJSON_CreateString(text);
    free(text);
    return out;
}

/* lambdarank_param as XGBoost 3.2 saves it (the number of pairs unset,
 * 2^32 - 1, when the method's default applies). */
static int attach_rank_params(cJSON *p, const gpl_objective_params *op)
{
    char pairs[16];
    snprintf(pairs, sizeof pairs, "%u",
             op->rank_num_pair > 0 ? (unsigned)op->rank_num_pair : 4294967295u);
    return attach(p, "lambdarank_bias_norm", xgb_param(op->rank_bias_norm)) &&
           attach(p, "lambdarank_normalization", xgb_string_int(op->rank_normalization)) &&
           attach(p, "lambdarank_num_pair_per_sample", cJSON_CreateString(pairs)) &&
           attach(p, "lambdarank_pair_method",
                  cJSON_CreateString(op->rank_pair_method == GPL_RANK_MEAN ? "mean" : "topk")) &&
           attach(p, "lambdarank_score_normalization",
                  xgb_string_int(op->rank_score_normalization)) &&
           attach(p, "lambdarank_unbiased", xgb_string_int(op->rank_unbiased)) &&
           attach(p, "ndcg_exp_gain", xgb_string_int(op->ndcg_exp_gain));
}

/* The objective's parameter object as XGBoost 3.2 saves it, by name; NULL
 * name for objectives that save none. */
static cJSON *objective_param(const gpl_model *m, const char **name)
{
    const gpl_objective_params *op = &m->obj_params;
    cJSON *p = cJSON_CreateObject();
    int ok = p != NULL;
    switch (m->objective) {
    case GPL_OBJ_SOFTMAX:
        *name = "softmax_multiclass_param";
        ok = ok && attach(p, "num_class", xgb_string_int(m->num_class));
        break;
    case GPL_OBJ_POISSON:
        *name = "poisson_regression_param";
        ok = ok && attach(p, "max_delta_step", xgb_param(op->max_delta_step));
        break;
    case GPL_OBJ_TWEEDIE:
        *name = "tweedie_regression_param";
        ok = ok && attach(p, "tweedie_variance_power", xgb_param(op->tweedie_variance_power));
        break;
    case GPL_OBJ_PSEUDO_HUBER:
        *name = "pseudo_huber_param";
        ok = ok && attach(p, "huber_slope", xgb_param(op->huber_slope));
        break;
    case GPL_OBJ_QUANTILE:
        *name = "quantile_loss_param";
        ok = ok && attach(p, "quantile_alpha",
                          xgb_vector(op->quantile_alpha, op->num_quantiles));
        break;
    case GPL_OBJ_EXPECTILE:
        *name = "expectile_loss_param";
        ok = ok && attach(p, "expectile_alpha",
                          xgb_vector(op->expectile_alpha, op->num_expectiles));
        break;
    case GPL_OBJ_RANK_NDCG:
    case GPL_OBJ_RANK_PAIRWISE:
    case GPL_OBJ_RANK_MAP:
        *name = "lambdarank_param";
        ok = ok && attach_rank_params(p, op);
        break;
    case GPL_OBJ_ABSOLUTE_ERROR:
    case GPL_OBJ_SQUARED_LOG_ERROR:
    case GPL_OBJ_HINGE:
    case GPL_OBJ_COX:
        *name = NULL;
        break;
    default: { /* squared error, gamma and the logistic objectives */
        char text[64];
        gpl_model_record_param(m, "scale_pos_weight", text, sizeof text);
        *name = "reg_loss_param";
        ok = ok && attach(p, "scale_pos_weight", xgb_param(text[0] ? atof(text) : 1.0));
        break;
    }
    }
    if (!ok) cJSON_Delete(p);
    return ok ? p : NULL;
}

static cJSON *objective_json(const gpl_model *m)
{
    cJSON *o = cJSON_CreateObject();
    int ok = o && attach(o, "name", cJSON_CreateString(gpl_objective_name(m)));
    const char *name = NULL;
    cJSON *p = ok ? objective_param(m, &name) : NULL;
    ok = ok && p;
    if (ok && name) ok = attach(o, name, p);
    else cJSON_Delete(p);
    if (!ok) cJSON_Delete(o);
    return ok ? o : NULL;
}

/* The margin XGBoost 3.2 derives from a base_score as it loads a model,
 * in float arithmetic as it does it: the inverse of the objective's link
 * (logit for the logistic objectives, log for the exp-link ones; the
 * margin itself for the others, binary:logitraw and binary:hinge
 * included). */
float gpl_xgboost_margin_of(gpl_objective_kind kind, float score)
{
    if (kind == GPL_OBJ_LOGISTIC || kind == GPL_OBJ_REG_LOGISTIC)
        return -logf(1.0f / score - 1.0f);
    if (gpl_objective_is_log_link(kind)) return logf(score);
    return score;
}

/* base_score as XGBoost reads it: the output-space value of our base
 * margin for the logistic and exp-link objectives, the margin itself
 * otherwise. Of the floats next to the transformed margin, the one XGBoost
 * turns back into exactly our margin, where there is one. */
static gpulayer_status base_score_value(const gpl_model *m, float margin, float *out)
{
    const gpl_objective_kind kind = m->objective;
    const int logit = kind == GPL_OBJ_LOGISTIC || kind == GPL_OBJ_REG_LOGISTIC;
    const int log_link = gpl_objective_is_log_link(kind);
    double score = margin;
    if (logit) score = gpl_det_sigmoid(margin);
    if (log_link) score = exp((double)margin);
    const int in_range = isfinite(score) && fabs(score) <= FLT_MAX &&
                         (!logit || ((float)score > 0.0f && (float)score < 1.0f)) &&
                         (!log_link || (float)score > 0.0f);
    if (!in_range)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "cannot export to XGBoost: base margin %g has no XGBoost "
                         "base_score for %s", (double)margin, gpl_objective_name(m));
    *out = (float)score;
    if (!logit && !log_link) return GPULAYER_OK;
    float down = *out, up = *out;
    for (int step = 0; step < 8; step++) {
        if (gpl_xgboost_margin_of(kind, up) == margin) {
            *out = up;
            break;
        }
        if (gpl_xgboost_margin_of(kind, down) == margin) {
            *out = down;
            break;
        }
        up = nextafterf(up, FLT_MAX);
        down = nextafterf(down, 0.0f);
    }
    return GPULAYER_OK;
}

/* One base_score for the model; a vector of one per output for several
 * quantiles or expectiles, as XGBoost saves a model of several targets,
 * and for the class intercepts of a softmax model. Expectiles' are the
 * predictions of the chained outputs (XGBoost takes the chain's margins
 * back through the inverse of softplus, in float: within an ulp or so). */
static gpulayer_status base_score_json(const gpl_model *m, cJSON **out)
{
    float score = 0.0f;
    const int chained = m->objective == GPL_OBJ_EXPECTILE && m->num_outputs > 1;
    if (m->base_margins || chained ||
        (m->objective == GPL_OBJ_QUANTILE && m->num_outputs > 1)) {
        double *scores = malloc(sizeof(double) * (size_t)m->num_outputs);
        if (!scores) return out_of_memory();
        gpulayer_status st = GPULAYER_OK;
        for (int32_t k = 0; k < m->num_outputs && st == GPULAYER_OK; k++) {
            st = base_score_value(m, gpl_model_base_margin(m, k), &score);
            scores[k] = score;
            if (chained && k > 0)
                scores[k] = (float)gpl_expectile_next(scores[k - 1], gpl_model_base_margin(m, k));
        }
        *out = st == GPULAYER_OK ? xgb_vector(scores, m->num_outputs) : NULL;
        free(scores);
        GPL_CHECK(st);
    } else {
        GPL_CHECK(base_score_value(m, m->base_margin, &score));
        char text[GPL_NUM_TEXT_SIZE];
        gpl_format_float(score, text);
        *out = cJSON_CreateString(text);
    }
    return *out ? GPULAYER_OK : out_of_memory();
}

static cJSON *model_param(const gpl_model *m, cJSON *base_score)
{
    cJSON *p = cJSON_CreateObject();
    int multi = m->objective == GPL_OBJ_SOFTMAX;
    int32_t targets =
        m->objective == GPL_OBJ_QUANTILE || m->objective == GPL_OBJ_EXPECTILE ? m->num_outputs : 1;
    int ok = p != NULL;
    ok = ok && attach(p, "base_score", base_score);
    if (!p) cJSON_Delete(base_score);
    ok = ok && attach(p, "boost_from_average", cJSON_CreateString("1"));
    ok = ok && attach(p, "num_class", xgb_string_int(multi ? m->num_class : 0));
    ok = ok && attach(p, "num_feature", xgb_string_int(m->num_features));
    ok = ok && attach(p, "num_target", xgb_string_int(targets));
    if (!ok) cJSON_Delete(p);
    return ok ? p : NULL;
}

/* The training's monotone_constraints ("(1,-1,0)"), or NULL: XGBoost's
 * model file has no place for training parameters, so the export keeps
 * them as an attribute (Booster.attr("monotone_constraints")). */
static cJSON *monotone_attribute(const gpl_model *m)
{
    char text[1024];
    gpl_model_record_param(m, "monotone_constraints", text, sizeof text);
    return text[0] ? cJSON_CreateString(text) : NULL;
}

/* XGBoost keeps the early-stopping result as string attributes. */
static cJSON *attributes(const gpl_model *m)
{
    cJSON *a = cJSON_CreateObject();
    if (a && m->best_round >= 0 &&
        !attach(a, "best_iteration", xgb_string_int(m->best_round))) {
        cJSON_Delete(a);
        return NULL;
    }
    cJSON *monotone = a ? monotone_attribute(m) : NULL;
    if (monotone && !attach(a, "monotone_constraints", monotone)) {
        cJSON_Delete(a);
        return NULL;
    }
    return a;
}

/* Whether every feature has a name XGBoost takes: not empty, without
 * '[', ']' or '<' (which its Python package refuses, and which its
 * trees_to_dataframe cannot parse), and no two alike. */
static int names_fit_xgboost(const gpl_model *m)
{
    if (!m->feature_names) return 0;
    for (int32_t f = 0; f < m->num_features; f++) {
        const char *name = m->feature_names[f];
        if (!name || !name[0] || strpbrk(name, "[]<")) return 0;
        for (int32_t g = 0; g < f; g++)
            if (!strcmp(name, m->feature_names[g])) return 0;
    }
    return 1;
}

/* feature_names (empty unless names_fit_xgboost) and feature_types. */
static int attach_features(cJSON *l, const gpl_model *m)
{
    cJSON *names = cJSON_CreateArray(), *types = cJSON_CreateArray();
    int ok = attach(l, "feature_names", names);
    ok = attach(l, "feature_types", types) && ok;
    const int named = names_fit_xgboost(m);
    for (int32_t f = 0; ok && f < m->num_features; f++) {
        if (named) ok = attach(names, NULL, cJSON_CreateString(m->feature_names[f]));
        ok = ok && attach(types, NULL,
                          cJSON_CreateString(categorical_feature(m, f) ? "c" : "float"));
    }
    return ok;
}

static gpulayer_status fill_learner(const gpl_model *m, cJSON *l)
{
    cJSON *base_score = NULL;
    GPL_CHECK(base_score_json(m, &base_score));
    int ok = attach(l, "attributes", attributes(m));
    ok = ok && attach_features(l, m);
    cJSON *booster = ok ? cJSON_CreateObject() : NULL;
    ok = ok && attach(l, "gradient_booster", booster);
    cJSON *model = ok ? cJSON_CreateObject() : NULL;
    ok = ok && attach(booster, "model", model);
    ok = ok && attach(booster, "name", cJSON_CreateString("gbtree"));
    if (ok) ok = attach(l, "learner_model_param", model_param(m, base_score));
    else cJSON_Delete(base_score);
    ok = ok && attach(l, "objective", objective_json(m));
    if (!ok) return out_of_memory();
    return gbtree_model(m, model);
}

gpulayer_status gpl_model_export_xgboost(const gpl_model *m, char **out,
                                         size_t *len)
{
    *out = NULL;
    *len = 0;
    gpulayer_status st = gpl_model_validate(m, NULL);
    if (st != GPULAYER_OK) return gpl_error_prefix(st, "cannot export the model");
    static const int version[3] = {2, 1, 0};
    cJSON *doc = cJSON_CreateObject();
    cJSON *learner = doc ? cJSON_CreateObject() : NULL;
    int ok = doc && attach(doc, "learner", learner);
    st = ok ? fill_learner(m, learner) : out_of_memory();
    if (st == GPULAYER_OK && !attach(doc, "version", cJSON_CreateIntArray(version, 3)))
        st = out_of_memory();
    char *text = st == GPULAYER_OK ? cJSON_PrintUnformatted(doc) : NULL;
    cJSON_Delete(doc);
    if (st != GPULAYER_OK) return st;
    if (!text) return out_of_memory();
    *out = text;
    *len = strlen(text);
    return GPULAYER_OK;
}
