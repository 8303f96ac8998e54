/*
 * import_xgboost.c -- XGBoost's model document (save_model's JSON, or its
 * UBJSON decoded to the same tree) read into a gpl_model: the reverse of
 * export_xgboost.c.
 *
 * XGBoost sends x < split_condition left and missing values to the
 * default child, as GPUlayer does, so a numeric split becomes the bin of
 * its threshold among the feature's cuts (import_build.c). A leaf's value
 * is its split_condition: base_weights holds the weight before leaf
 * refits (reg:absoluteerror, quantiles), which prediction does not use.
 * A categorical split (split_type 1) lists the codes that go right; codes
 * it does not list, and codes past the end of its set, go left. The
 * base_score is in output space for the logistic and exp-link objectives
 * and turned into a margin as XGBoost does when it loads a model.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "model_import.h"
#include "objective_math.h"

typedef struct xgb_read {
    const char *source;
    gpl_model *m;
    gpl_import imp;
} xgb_read;

static gpulayer_status malformed(const char *source, const char *what)
{
    return gpl_model_error(source, "not a readable XGBoost model: %s", what);
}

static const cJSON *member(const cJSON *o, const char *key)
{
    return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

/* XGBoost writes its parameters as strings ("3", "5E-1"); numbers are
 * taken too. */
static int param_number(const cJSON *o, const char *key, double *out)
{
    const cJSON *v = member(o, key);
    if (cJSON_IsNumber(v)) {
        *out = v->valuedouble;
        return 1;
    }
    if (!cJSON_IsString(v)) return 0;
    char *end = NULL;
    *out = strtod(v->valuestring, &end);
    return end != v->valuestring && *end == '\0';
}

/* A numeric array of exactly n entries (n < 0: any length, set). */
static gpulayer_status num_array(const xgb_read *r, const cJSON *tree, const char *key,
                                 int32_t t, int64_t *n, const cJSON **out)
{
    const cJSON *a = member(tree, key);
    char what[128];
    if (!cJSON_IsArray(a)) {
        snprintf(what, sizeof what, "trees[%d] has no array \"%s\"", (int)t, key);
        return malformed(r->source, what);
    }
    int64_t size = cJSON_GetArraySize(a);
    if (*n >= 0 && size != *n) {
        snprintf(what, sizeof what, "trees[%d].%s has %lld entries, expected %lld", (int)t,
                 key, (long long)size, (long long)*n);
        return malformed(r->source, what);
    }
    for (const cJSON *e = a->child; e; e = e->next)
        if (!cJSON_IsNumber(e)) {
            snprintf(what, sizeof what, "trees[%d].%s holds a value that is not a number",
                     (int)t, key);
            return malformed(r->source, what);
        }
    *n = size;
    *out = a;
    return GPULAYER_OK;
}

/* The array's values as doubles (n of them). */
static double *values_of(const cJSON *a, int64_t n)
{
    double *v = malloc(sizeof(double) * (size_t)(n > 0 ? n : 1));
    int64_t i = 0;
    for (const cJSON *e = a ? a->child : NULL; v && e && i < n; e = e->next) v[i++] = e->valuedouble;
    return v;
}

enum { A_LEFT, A_RIGHT, A_FEATURE, A_CONDITION, A_DEFAULT, A_LOSS, A_HESSIAN, A_TYPE, NUM_A };

typedef struct xgb_tree {
    int64_t n;
    double *a[NUM_A];
} xgb_tree;

static void tree_free(xgb_tree *x)
{
    for (int k = 0; k < NUM_A; k++) free(x->a[k]);
}

static gpulayer_status read_arrays(const xgb_read *r, const cJSON *tree, int32_t t, xgb_tree *x)
{
    static const char *keys[NUM_A] = {"left_children", "right_children", "split_indices",
                                      "split_conditions", "default_left", "loss_changes",
                                      "sum_hessian", "split_type"};
    x->n = -1;
    for (int k = 0; k < NUM_A; k++) {
        const cJSON *a = NULL;
        /* split_type is absent in models older than categorical support. */
        if (k == A_TYPE && !member(tree, keys[k])) {
            x->a[k] = calloc((size_t)(x->n > 0 ? x->n : 1), sizeof(double));
            if (!x->a[k]) return GPULAYER_ERR_OUT_OF_MEMORY;
            continue;
        }
        GPL_CHECK(num_array(r, tree, keys[k], t, &x->n, &a));
        if (!(x->a[k] = values_of(a, x->n)))
            return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory importing a model");
    }
    if (x->n < 1) return malformed(r->source, "a tree has no nodes");
    return GPULAYER_OK;
}

/* Multi-output trees hold a vector a leaf: GPUlayer's leaves hold one. */
static gpulayer_status check_tree_param(const xgb_read *r, const cJSON *tree, int32_t t)
{
    double size = 1;
    if (param_number(member(tree, "tree_param"), "size_leaf_vector", &size) && size > 1)
        return gpl_import_refuse(r->source, "trees[%d] is a multi-output tree "
                                 "(size_leaf_vector=%g, XGBoost's "
                                 "multi_strategy=multi_output_tree); GPUlayer's trees hold "
                                 "one value a leaf", (int)t, size);
    return GPULAYER_OK;
}

/* The codes node `old` lists (its set of codes that go right). */
static gpulayer_status categorical_split(xgb_read *r, const cJSON *tree, int32_t t,
                                         int64_t old, int32_t node)
{
    int64_t n_nodes = -1, n_seg = -1, n_size = -1, n_codes = -1;
    const cJSON *nodes, *segs, *sizes, *codes;
    GPL_CHECK(num_array(r, tree, "categories_nodes", t, &n_nodes, &nodes));
    GPL_CHECK(num_array(r, tree, "categories_segments", t, &n_seg, &segs));
    GPL_CHECK(num_array(r, tree, "categories_sizes", t, &n_size, &sizes));
    GPL_CHECK(num_array(r, tree, "categories", t, &n_codes, &codes));
    if (n_seg != n_nodes || n_size != n_nodes)
        return malformed(r->source, "a tree's categories_nodes, categories_segments and "
                                    "categories_sizes differ in length");
    int64_t k = 0;
    const cJSON *e = nodes->child;
    for (; e && e->valuedouble != (double)old; e = e->next) k++;
    if (!e) return malformed(r->source, "a categorical split is missing from categories_nodes");
    double seg = cJSON_GetArrayItem(segs, (int)k)->valuedouble;
    double size = cJSON_GetArrayItem(sizes, (int)k)->valuedouble;
    if (!(seg >= 0 && size >= 0 && seg + size <= (double)n_codes) || seg != floor(seg) ||
        size != floor(size))
        return malformed(r->source, "a categorical split's segment lies outside "
                                    "\"categories\"");
    int64_t *list = malloc(sizeof(int64_t) * (size_t)(size > 0 ? size : 1));
    if (!list) return GPULAYER_ERR_OUT_OF_MEMORY;
    const cJSON *c = cJSON_GetArrayItem(codes, (int)seg);
    for (int64_t i = 0; i < (int64_t)size; i++, c = c->next) {
        double v = c->valuedouble;
        if (v != floor(v) || v < 0 || v > 2147483647.0) {
            free(list);
            return malformed(r->source, "a categorical split lists a category code that is "
                                        "not a non-negative integer");
        }
        list[i] = (int64_t)v;
    }
    gpulayer_status st = gpl_import_cat_split_add(&r->imp, r->m->num_trees, node, list,
                                                  (int32_t)size, 0);
    free(list);
    return st;
}

/* Nodes renumbered depth first from the root, so that nodes XGBoost
 * deleted (pruned, num_deleted) are left out. */
static gpulayer_status convert_tree(xgb_read *r, const cJSON *tree, int32_t t)
{
    xgb_tree x = {0};
    gpulayer_status st = check_tree_param(r, tree, t);
    if (st == GPULAYER_OK) st = read_arrays(r, tree, t, &x);
    const int64_t n = x.n;
    int64_t *new_id = NULL, *stack = NULL;
    gpl_tree out = {0};
    if (st == GPULAYER_OK) {
        new_id = malloc(sizeof(int64_t) * (size_t)n);
        stack = malloc(sizeof(int64_t) * (size_t)n);
        out.nodes = gpl_calloc((size_t)n, sizeof *out.nodes, "an imported tree");
        if (!new_id || !stack || !out.nodes) st = GPULAYER_ERR_OUT_OF_MEMORY;
    }
    for (int64_t i = 0; st == GPULAYER_OK && i < n; i++) new_id[i] = -1;
    int64_t top = 0;
    int32_t next = 0;
    if (st == GPULAYER_OK) {
        stack[top++] = 0;
        new_id[0] = next++;
    }
    /* First pass: ids in visiting order; every child is visited once. */
    while (st == GPULAYER_OK && top > 0) {
        int64_t i = stack[--top];
        double l = x.a[A_LEFT][i], rr = x.a[A_RIGHT][i];
        if (l == -1) continue;
        if (!(l >= 1 && l < n && rr >= 1 && rr < n) || l != floor(l) || rr != floor(rr) ||
            new_id[(int64_t)l] >= 0 || new_id[(int64_t)rr] >= 0 || l == rr) {
            st = malformed(r->source, "a tree's children do not form a tree");
            break;
        }
        new_id[(int64_t)l] = next++;
        new_id[(int64_t)rr] = next++;
        stack[top++] = (int64_t)rr;
        stack[top++] = (int64_t)l;
    }
    for (int64_t i = 0; st == GPULAYER_OK && i < n; i++) {
        if (new_id[i] < 0) continue;
        gpl_tree_node *nd = &out.nodes[new_id[i]];
        nd->cover = x.a[A_HESSIAN][i];
        if (x.a[A_LEFT][i] == -1) {
            nd->left = nd->right = nd->feature = -1;
            nd->leaf_value = (float)x.a[A_CONDITION][i];
            continue;
        }
        nd->left = (int32_t)new_id[(int64_t)x.a[A_LEFT][i]];
        nd->right = (int32_t)new_id[(int64_t)x.a[A_RIGHT][i]];
        double f = x.a[A_FEATURE][i];
        nd->feature = f == floor(f) && f >= 0 && f < r->m->num_features ? (int32_t)f : -2;
        nd->default_left = x.a[A_DEFAULT][i] != 0;
        nd->gain = x.a[A_LOSS][i];
        if (x.a[A_TYPE][i] == 1)
            st = categorical_split(r, tree, t, i, (int32_t)new_id[i]);
        else
            nd->threshold = (float)x.a[A_CONDITION][i];
    }
    out.num_nodes = next;
    free(new_id);
    free(stack);
    tree_free(&x);
    if (st != GPULAYER_OK) {
        free(out.nodes);
        return st;
    }
    return gpl_model_add_tree(r->m, &out);
}

/* The objective by name, with the parameters that say its outputs. */
static gpulayer_status read_objective(xgb_read *r, const cJSON *learner)
{
    gpl_model *m = r->m;
    const cJSON *obj = member(learner, "objective");
    const cJSON *name = member(obj, "name");
    if (!cJSON_IsString(name)) return malformed(r->source, "learner.objective.name is missing");
    int as_class = 0;
    if (gpl_objective_parse(name->valuestring, &m->objective, &as_class) != GPULAYER_OK)
        return gpl_import_refuse(r->source, "XGBoost's objective '%.64s' has no GPUlayer "
                                 "equivalent (GPUlayer has %s)", name->valuestring,
                                 gpl_objective_names());
    m->softmax_output_class = as_class;
    double v;
    gpl_objective_params *p = &m->obj_params;
    if (param_number(member(obj, "poisson_regression_param"), "max_delta_step", &v))
        p->max_delta_step = v;
    if (param_number(member(obj, "tweedie_regression_param"), "tweedie_variance_power", &v))
        p->tweedie_variance_power = v;
    if (param_number(member(obj, "pseudo_huber_param"), "huber_slope", &v)) p->huber_slope = v;
    const cJSON *alpha = member(member(obj, "quantile_loss_param"), "quantile_alpha");
    if (m->objective == GPL_OBJ_QUANTILE && cJSON_IsString(alpha) &&
        gpl_objective_parse_alphas("quantile_alpha", alpha->valuestring, p->quantile_alpha,
                                   &p->num_quantiles) != GPULAYER_OK)
        return malformed(r->source, "quantile_alpha cannot be read");
    alpha = member(member(obj, "expectile_loss_param"), "expectile_alpha");
    if (m->objective == GPL_OBJ_EXPECTILE &&
        (!cJSON_IsString(alpha) ||
         gpl_objective_parse_alphas("expectile_alpha", alpha->valuestring, p->expectile_alpha,
                                    &p->num_expectiles) != GPULAYER_OK))
        return malformed(r->source, "expectile_alpha cannot be read");
    return GPULAYER_OK;
}

/* Outputs a row: classes for softmax, quantiles, else one; XGBoost's
 * models of several targets of other objectives are refused. */
static gpulayer_status read_outputs(xgb_read *r, const cJSON *param)
{
    gpl_model *m = r->m;
    double classes = 0, targets = 1, features = 0;
    int32_t alphas;
    param_number(param, "num_class", &classes);
    param_number(param, "num_target", &targets);
    if (!param_number(param, "num_feature", &features) || features < 0 ||
        features > 1e8 || features != floor(features))
        return malformed(r->source, "learner_model_param.num_feature is missing");
    m->num_features = (int32_t)features;
    if (m->objective == GPL_OBJ_SOFTMAX) {
        if (classes < 2 || classes > 1e6)
            return malformed(r->source, "a softmax model needs num_class >= 2");
        m->num_class = m->num_outputs = (int32_t)classes;
    } else if (gpl_objective_alphas(m->objective, &m->obj_params, &alphas)) {
        if (alphas < 1) return malformed(r->source, "the objective gives no alphas");
        m->num_outputs = alphas;
    } else if (targets > 1) {
        return gpl_import_refuse(r->source, "the XGBoost model has %g targets of %s; "
                                 "GPUlayer fits several outputs only for multi:softprob, "
                                 "reg:quantileerror and reg:expectileerror", targets,
                                 gpl_objective_name(m));
    }
    return GPULAYER_OK;
}

/* base_score: "0.5", or in XGBoost 3.x a vector "[5E-1]" (one an output). */
static gpulayer_status read_base_score(xgb_read *r, const cJSON *param)
{
    gpl_model *m = r->m;
    const cJSON *v = member(param, "base_score");
    float scores[4096] = {0};
    int32_t n = 0;
    if (cJSON_IsNumber(v)) scores[n++] = (float)v->valuedouble;
    else if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        if (*s == '[') s++;
        while (*s && *s != ']' && n < 4096) {
            char *end = NULL;
            double d = strtod(s, &end);
            if (end == s) return malformed(r->source, "base_score cannot be read");
            scores[n++] = (float)d;
            s = end;
            while (*s == ',' || *s == ' ') s++;
        }
    }
    if (n != 1 && n != m->num_outputs)
        return malformed(r->source, "base_score has neither one value nor one an output");
    const int chained = m->objective == GPL_OBJ_EXPECTILE && m->num_outputs > 1;
    for (; chained && n < m->num_outputs; n++) scores[n] = scores[0];
    for (int32_t k = 0; k < n; k++) {
        float margin = gpl_xgboost_margin_of(m->objective, scores[k]);
        if (!isfinite(margin))
            return gpl_model_error(r->source, "base_score %g gives no finite margin for %s",
                                   (double)scores[k], gpl_objective_name(m));
    }
    m->base_score = scores[0];
    m->base_margin = gpl_xgboost_margin_of(m->objective, scores[0]);
    int same = 1;
    for (int32_t k = 1; k < n; k++) same &= scores[k] == scores[0];
    if (same && !chained) return GPULAYER_OK;
    m->base_margins = malloc(sizeof(float) * (size_t)n);
    if (!m->base_margins) return GPULAYER_ERR_OUT_OF_MEMORY;
    for (int32_t k = 0; k < n; k++)
        m->base_margins[k] = gpl_xgboost_margin_of(m->objective, scores[k]);
    if (chained) /* the chain's margins, as XGBoost's SoftPlusInv */
        for (int32_t k = n - 1; k > 0; k--) {
            float gap = scores[k] - scores[k - 1] - (float)GPL_EXPECTILE_GAP;
            if (gap < (float)GPL_EXPECTILE_GAP) gap = (float)GPL_EXPECTILE_GAP;
            m->base_margins[k] = gap + logf(-expm1f(-gap));
        }
    return GPULAYER_OK;
}

static gpulayer_status read_feature_names(xgb_read *r, const cJSON *learner)
{
    gpl_model *m = r->m;
    const cJSON *names = member(learner, "feature_names");
    if (!cJSON_IsArray(names) || cJSON_GetArraySize(names) == 0) return GPULAYER_OK;
    if (cJSON_GetArraySize(names) != m->num_features)
        return malformed(r->source, "feature_names does not name every feature");
    m->feature_names = calloc((size_t)m->num_features, sizeof(char *));
    if (!m->feature_names) return GPULAYER_ERR_OUT_OF_MEMORY;
    int32_t f = 0;
    for (const cJSON *e = names->child; e; e = e->next, f++) {
        if (!cJSON_IsString(e)) return malformed(r->source, "a feature name is not a string");
        if (!(m->feature_names[f] = gpl_strdup(e->valuestring)))
            return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    return GPULAYER_OK;
}

/* A category value of XGBoost's "cats" record as a name. */
static void number_name(double v, char *buf, size_t size)
{
    if (v == floor(v) && fabs(v) < 9e15) snprintf(buf, size, "%lld", (long long)v);
    else snprintf(buf, size, "%.17g", v);
}

/* Feature f's categories from XGBoost 3.1+'s "cats" record (the training
 * DataFrame's categories, code c named by values[c]); n = 0 when the
 * record has none for it. Strings are "offsets" into bytes "values". */
static gpulayer_status declare_from_cats(xgb_read *r, const cJSON *enc, int32_t f)
{
    const cJSON *values = member(enc, "values"), *offsets = member(enc, "offsets");
    if (!cJSON_IsArray(values)) return GPULAYER_OK;
    const int32_t n_off = cJSON_IsArray(offsets) ? cJSON_GetArraySize(offsets) : 0;
    const int32_t n_val = cJSON_GetArraySize(values);
    const int strings = n_off > 0;
    const int32_t n = strings ? n_off - 1 : n_val;
    if (n <= 0) return GPULAYER_OK;
    if (n > 100000) return gpl_import_refuse(r->source, "feature %d has %d categories", (int)f, (int)n);
    double *off = strings ? values_of(offsets, n_off) : NULL;
    double *val = values_of(values, n_val);
    int64_t *codes = malloc(sizeof(int64_t) * (size_t)n);
    char **names = calloc((size_t)n, sizeof(char *));
    gpulayer_status st = val && codes && names && (!strings || off) ? GPULAYER_OK
                                                                     : GPULAYER_ERR_OUT_OF_MEMORY;
    for (int32_t c = 0; st == GPULAYER_OK && c < n; c++) {
        codes[c] = c;
        if (!strings) {
            char text[40];
            number_name(val[c], text, sizeof text);
            names[c] = gpl_strdup(text);
        } else {
            double a = off[c], b = off[c + 1];
            if (!(a >= 0 && b >= a && b <= n_val)) {
                st = malformed(r->source, "a category name lies outside \"cats\"");
                break;
            }
            names[c] = malloc((size_t)(b - a) + 1);
            for (int64_t i = (int64_t)a; names[c] && i < (int64_t)b; i++) {
                if (!(val[i] >= 0 && val[i] <= 255 && val[i] == floor(val[i]))) {
                    st = malformed(r->source, "a category name in \"cats\" holds a value "
                                              "that is not a byte");
                    break;
                }
                names[c][i - (int64_t)a] = (char)(int)val[i];
            }
            if (st != GPULAYER_OK) break;
            if (names[c]) names[c][(int64_t)(b - a)] = '\0';
        }
        if (st == GPULAYER_OK && !names[c]) st = GPULAYER_ERR_OUT_OF_MEMORY;
    }
    if (st == GPULAYER_OK)
        st = gpl_import_declare_categories(&r->imp, f, codes, (const char *const *)names, n);
    for (int32_t c = 0; names && c < n; c++) free(names[c]);
    free(names);
    free(codes);
    free(val);
    free(off);
    return st;
}

static gpulayer_status read_feature_types(xgb_read *r, const cJSON *learner, const cJSON *model)
{
    const cJSON *types = member(learner, "feature_types");
    const cJSON *enc = member(member(model, "cats"), "enc");
    int32_t f = 0;
    for (const cJSON *e = cJSON_IsArray(types) ? types->child : NULL;
         e && f < r->m->num_features; e = e->next, f++) {
        if (!cJSON_IsString(e) || strcmp(e->valuestring, "c") != 0) continue;
        GPL_CHECK(gpl_import_declare_categories(&r->imp, f, NULL, NULL, 0));
        if (cJSON_IsArray(enc) && cJSON_GetArraySize(enc) == r->m->num_features)
            GPL_CHECK(declare_from_cats(r, cJSON_GetArrayItem(enc, f), f));
    }
    return GPULAYER_OK;
}

/* XGBoost's rounds hold, output by output, num_parallel_tree trees each
 * (tree_info: 0 0 1 1 2 2 for three outputs and two trees); GPUlayer's
 * hold num_parallel_tree groups of one tree an output (0 1 2 0 1 2), so
 * that tree t fits output t % num_outputs. Where XGBoost's tree of
 * GPUlayer's position p is. */
static int32_t xgboost_position(int32_t p, int32_t K, int32_t P)
{
    const int32_t per_round = K * P, in_round = p % per_round;
    return p - in_round + (in_round % K) * P + in_round / K;
}

static gpulayer_status read_trees(xgb_read *r, const cJSON *model)
{
    const cJSON *trees = member(model, "trees"), *info = member(model, "tree_info");
    if (!cJSON_IsArray(trees)) return malformed(r->source, "gradient_booster.model.trees is missing");
    const int32_t n = cJSON_GetArraySize(trees);
    if (!cJSON_IsArray(info) || cJSON_GetArraySize(info) != n)
        return malformed(r->source, "tree_info does not give every tree's output");
    double parallel = 1;
    if (param_number(member(model, "gbtree_model_param"), "num_parallel_tree", &parallel) &&
        !(parallel >= 1 && parallel <= 1e6 && parallel == floor(parallel)))
        return malformed(r->source, "num_parallel_tree is not a whole number >= 1");
    const int32_t K = r->m->num_outputs, P = (int32_t)parallel;
    const int64_t per_round = (int64_t)K * P; /* both may be near a million */
    if (per_round < 1 || per_round > INT32_MAX || n % per_round != 0)
        return malformed(r->source, "the trees are not a whole number of rounds");
    r->m->num_parallel_tree = P;
    const cJSON **by_index = gpl_malloc(sizeof *by_index * (size_t)(n ? n : 1), "tree list");
    if (!by_index) return GPULAYER_ERR_OUT_OF_MEMORY;
    gpulayer_status st = GPULAYER_OK;
    int32_t t = 0;
    for (const cJSON *e = info->child; e && st == GPULAYER_OK; e = e->next, t++) {
        const int32_t want = (t % (K * P)) / P;
        if (!cJSON_IsNumber(e) || e->valuedouble != (double)want)
            st = gpl_import_refuse(r->source, "tree %d fits output %g, but a round of %d "
                                   "outputs and num_parallel_tree %d puts output %d there",
                                   (int)t, cJSON_IsNumber(e) ? e->valuedouble : -1.0, (int)K,
                                   (int)P, (int)want);
    }
    t = 0;
    for (const cJSON *tree = trees->child; tree; tree = tree->next) by_index[t++] = tree;
    for (int32_t p = 0; st == GPULAYER_OK && p < n; p++)
        st = convert_tree(r, by_index[xgboost_position(p, K, P)], p);
    free(by_index);
    return st;
}

static gpulayer_status read_booster(xgb_read *r, const cJSON *learner)
{
    const cJSON *gb = member(learner, "gradient_booster");
    const cJSON *name = member(gb, "name");
    if (!cJSON_IsString(name)) return malformed(r->source, "gradient_booster.name is missing");
    if (!strcmp(name->valuestring, "gblinear"))
        return gpl_import_refuse(r->source, "the XGBoost model is linear (booster=gblinear); "
                                 "GPUlayer reads tree models (gbtree)");
    if (!strcmp(name->valuestring, "dart"))
        return gpl_import_refuse(r->source, "the XGBoost model is a dart model, whose trees "
                                 "are weighted (weight_drop); GPUlayer reads gbtree models");
    if (strcmp(name->valuestring, "gbtree") != 0)
        return gpl_import_refuse(r->source, "XGBoost booster '%.64s' is not supported; "
                                 "GPUlayer reads gbtree models", name->valuestring);
    const cJSON *model = member(gb, "model");
    GPL_CHECK(read_feature_names(r, learner));
    GPL_CHECK(gpl_import_init(&r->imp, r->m, r->source, "XGBoost"));
    GPL_CHECK(read_feature_types(r, learner, model));
    return read_trees(r, model);
}

static void read_best_iteration(gpl_model *m, const cJSON *learner)
{
    double best;
    if (param_number(member(learner, "attributes"), "best_iteration", &best) && best >= 0 &&
        best == floor(best) && best < gpl_model_num_rounds(m))
        m->best_round = (int32_t)best;
}

/* "XGBoost a.b.c" for the model's record; a part that is not a whole
 * number from 0 to a million makes the version unknown. */
static void version_text(const cJSON *doc, char *buf, size_t size)
{
    const cJSON *v = member(doc, "version");
    int a[3] = {0, 0, 0};
    for (int i = 0; i < 3 && cJSON_IsArray(v); i++) {
        const cJSON *e = cJSON_GetArrayItem(v, i);
        if (!cJSON_IsNumber(e)) continue;
        const double d = e->valuedouble;
        if (!(d >= 0.0 && d <= 1e6 && d == floor(d))) {
            snprintf(buf, size, "XGBoost (unknown version)");
            return;
        }
        a[i] = (int)d;
    }
    snprintf(buf, size, "XGBoost %d.%d.%d", a[0], a[1], a[2]);
}

gpulayer_status gpl_model_import_xgboost(const cJSON *doc, const char *source, gpl_model **out)
{
    *out = NULL;
    const cJSON *learner = member(doc, "learner");
    if (!cJSON_IsObject(learner)) return malformed(source, "no \"learner\" object");
    gpl_error_clear(); /* an out-of-memory failure below may set no message */
    xgb_read r = {source, gpl_model_new(), {0}};
    if (!r.m) return GPULAYER_ERR_OUT_OF_MEMORY;
    /* Multi-output trees first: such a model also has several targets,
     * and the trees are the reason it cannot load. */
    const cJSON *trees = member(member(member(learner, "gradient_booster"), "model"), "trees");
    gpulayer_status st = GPULAYER_OK;
    int32_t t = 0;
    for (const cJSON *e = cJSON_IsArray(trees) ? trees->child : NULL; e && st == GPULAYER_OK;
         e = e->next, t++)
        st = check_tree_param(&r, e, t);
    if (st == GPULAYER_OK) st = read_objective(&r, learner);
    const cJSON *param = member(learner, "learner_model_param");
    if (st == GPULAYER_OK) st = read_outputs(&r, param);
    if (st == GPULAYER_OK) st = read_base_score(&r, param);
    if (st == GPULAYER_OK) st = read_booster(&r, learner);
    if (st == GPULAYER_OK) {
        char what[64];
        version_text(doc, what, sizeof what);
        read_best_iteration(r.m, learner);
        st = gpl_import_set_record(r.m, what);
    }
    if (st == GPULAYER_OK) st = gpl_import_finish(&r.imp);
    gpl_import_free(&r.imp);
    /* Keep what a refusal by the memory limit says (what, how much). */
    if (st == GPULAYER_ERR_OUT_OF_MEMORY)
        st = gpl_error_message()[0] ? gpl_error_prefix(st, "%s", source)
                                    : gpl_error(st, "%s: out of host memory importing a model",
                                                source);
    if (st != GPULAYER_OK) {
        gpl_model_free(r.m);
        return st;
    }
    *out = r.m;
    return GPULAYER_OK;
}
