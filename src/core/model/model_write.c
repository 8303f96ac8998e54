/* model_write.c -- a model as the text of its file (model_json.h). */
#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "json_num.h"
#include "model.h"
#include "model_json.h"
#include "utf8.h"

/* ---------------------------------------------------------------- writing */

static cJSON *real_value(double d, int is_float)
{
    if (isnan(d)) return cJSON_CreateString("nan");
    if (isinf(d)) return cJSON_CreateString(d > 0 ? "inf" : "-inf");
    return cJSON_CreateNumber(is_float ? gpl_float_as_decimal((float)d) : d);
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

static cJSON *node_field_array(const gpl_tree *t, const node_field *f)
{
    cJSON *a = cJSON_CreateArray();
    for (int32_t i = 0; a && i < t->num_nodes; i++) {
        const char *base = (const char *)&t->nodes[i] + f->offset;
        int32_t iv;
        float fv;
        double dv;
        cJSON *v;
        if (f->type == FIELD_INT) {
            memcpy(&iv, base, sizeof iv);
            v = cJSON_CreateNumber(iv);
        } else if (f->type == FIELD_FLOAT) {
            memcpy(&fv, base, sizeof fv);
            v = real_value(fv, 1);
        } else {
            memcpy(&dv, base, sizeof dv);
            v = real_value(dv, 0);
        }
        if (!attach(a, NULL, v)) {
            cJSON_Delete(a);
            return NULL;
        }
    }
    return a;
}

/* The codes of the categories a categorical node sends left, ascending
 * (value bin b is code b - 1). */
static cJSON *left_codes_array(const gpl_tree_node *n)
{
    cJSON *a = cJSON_CreateArray();
    const uint32_t bins = 32 * (uint32_t)gpl_node_set_words(n);
    for (uint32_t b = 1; a && b < bins; b++)
        if (gpl_cat_set_has(gpl_node_set(n), b) &&
            !attach(a, NULL, cJSON_CreateNumber((double)b - 1))) {
            cJSON_Delete(a);
            return NULL;
        }
    return a;
}

/* Categorical splits: "categories_nodes" lists the nodes, "categories"
 * each one's left codes. Trees without them have neither field. */
static int attach_category_sets(cJSON *o, const gpl_tree *t)
{
    int32_t count = 0;
    for (int32_t i = 0; i < t->num_nodes; i++) count += t->nodes[i].categorical != 0;
    if (count == 0) return 1;
    cJSON *nodes = cJSON_CreateArray(), *sets = cJSON_CreateArray();
    int ok = attach(o, "categories_nodes", nodes);
    ok = attach(o, "categories", sets) && ok;
    for (int32_t i = 0; ok && i < t->num_nodes; i++)
        if (t->nodes[i].categorical)
            ok = attach(nodes, NULL, cJSON_CreateNumber(i)) &&
                 attach(sets, NULL, left_codes_array(&t->nodes[i]));
    return ok;
}

static cJSON *tree_object(const gpl_tree *t)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t k = 0; o && k < NUM_NODE_FIELDS; k++)
        if (!attach(o, node_fields[k].name, node_field_array(t, &node_fields[k]))) {
            cJSON_Delete(o);
            return NULL;
        }
    if (o && !attach_category_sets(o, t)) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *cuts_object(const gpl_bin_cuts *c)
{
    cJSON *o = cJSON_CreateObject();
    if (!o) return NULL;
    cJSON *ptr = cJSON_CreateArray();
    int ok = attach(o, "cut_ptr", ptr);
    cJSON *values = ok ? cJSON_CreateArray() : NULL;
    ok = ok && attach(o, "values", values);
    for (int32_t f = 0; ok && f <= c->num_features; f++)
        ok = attach(ptr, NULL, cJSON_CreateNumber(c->cut_ptr[f]));
    uint32_t nv = c->cut_ptr[c->num_features];
    for (uint32_t i = 0; ok && i < nv; i++)
        ok = attach(values, NULL, real_value(c->values[i], 1));
    if (!ok) {
        cJSON_Delete(o);
        return NULL;
    }
    return o;
}

static cJSON *string_or_null(const char *s)
{
    return s ? cJSON_CreateString(s) : cJSON_CreateNull();
}

static cJSON *feature_names_array(const gpl_model *m)
{
    cJSON *a = cJSON_CreateArray();
    for (int32_t f = 0; a && f < m->num_features; f++)
        if (!attach(a, NULL, string_or_null(m->feature_names ? m->feature_names[f] : NULL))) {
            cJSON_Delete(a);
            return NULL;
        }
    return a;
}

static cJSON *dict_array(const gpl_category_dict *d)
{
    if (!d) return cJSON_CreateNull();
    cJSON *a = cJSON_CreateArray();
    for (int32_t i = 0; a && i < d->count; i++)
        if (!attach(a, NULL, cJSON_CreateString(d->names[i]))) {
            cJSON_Delete(a);
            return NULL;
        }
    return a;
}

static cJSON *categories_array(const gpl_model *m)
{
    cJSON *a = cJSON_CreateArray();
    for (int32_t f = 0; a && f < m->num_features; f++)
        if (!attach(a, NULL, dict_array(m->categories ? m->categories[f] : NULL))) {
            cJSON_Delete(a);
            return NULL;
        }
    return a;
}

/* "objective_params": the objective's own parameter, only for objectives
 * that have one (other models' documents stay as they were). */
static int attach_objective_params(cJSON *d, const gpl_model *m)
{
    const char *key = gpl_objective_param_name(m->objective);
    if (!key) return 1;
    const gpl_objective_params *op = &m->obj_params;
    cJSON *value;
    int32_t n;
    const double *alphas = gpl_objective_alphas(m->objective, op, &n);
    if (alphas) {
        value = cJSON_CreateArray();
        for (int32_t i = 0; value && i < n; i++)
            if (!attach(value, NULL, real_value(alphas[i], 0))) {
                cJSON_Delete(value);
                value = NULL;
            }
    } else {
        value = real_value(gpl_objective_param(m->objective, op, 0), 0);
    }
    cJSON *o = value ? cJSON_CreateObject() : NULL;
    if (!o) {
        cJSON_Delete(value);
        return 0;
    }
    if (!attach(o, key, value)) {
        cJSON_Delete(o);
        return 0;
    }
    return attach(d, "objective_params", o);
}

/* "category_groups": per feature null or each category's group; only in
 * models that group categories. */
static int attach_category_groups(cJSON *d, const gpl_model *m)
{
    if (!m->cat_groups) return 1;
    cJSON *a = cJSON_CreateArray();
    int ok = attach(d, "category_groups", a);
    for (int32_t f = 0; ok && f < m->num_features; f++) {
        const int32_t *g = m->cat_groups[f];
        if (!g) {
            ok = attach(a, NULL, cJSON_CreateNull());
            continue;
        }
        cJSON *row = cJSON_CreateArray();
        ok = attach(a, NULL, row);
        for (int32_t i = 0; ok && i < m->categories[f]->count; i++)
            ok = attach(row, NULL, cJSON_CreateNumber(g[i]));
    }
    return ok;
}

/* "base_margins", only where the outputs start apart: other models keep
 * their bytes. */
static int attach_base_margins(cJSON *d, const gpl_model *m)
{
    if (!m->base_margins) return 1;
    cJSON *a = cJSON_CreateArray();
    int ok = attach(d, "base_margins", a);
    for (int32_t k = 0; ok && k < m->num_outputs; k++)
        ok = attach(a, NULL, real_value(m->base_margins[k], 1));
    return ok;
}

static cJSON *trees_array(const gpl_model *m)
{
    cJSON *a = cJSON_CreateArray();
    for (int32_t t = 0; a && t < m->num_trees; t++)
        if (!attach(a, NULL, tree_object(&m->trees[t]))) {
            cJSON_Delete(a);
            return NULL;
        }
    return a;
}

/* The training parameters recorded with the model, re-parsed so that they
 * are stored as a JSON object rather than as a string. */
static gpulayer_status params_value(const gpl_model *m, cJSON **out)
{
    if (!m->params_json) {
        *out = cJSON_CreateNull();
        return GPULAYER_OK;
    }
    *out = cJSON_Parse(m->params_json);
    if (!cJSON_IsObject(*out)) {
        cJSON_Delete(*out);
        *out = NULL;
        return gpl_error(GPULAYER_ERR_INTERNAL,
                         "the model's parameter record is not a JSON object");
    }
    return GPULAYER_OK;
}

static gpulayer_status build_document(const gpl_model *m, cJSON **out)
{
    cJSON *params = NULL;
    GPL_CHECK(params_value(m, &params));
    cJSON *d = cJSON_CreateObject();
    int ok = d != NULL;
    ok = ok && attach(d, "format", cJSON_CreateString(FORMAT_TAG));
    ok = ok && attach(d, "version", cJSON_CreateNumber(FORMAT_VERSION));
    ok = ok && attach(d, "objective", cJSON_CreateString(gpl_objective_name(m)));
    ok = ok && attach_objective_params(d, m);
    ok = ok && attach(d, "num_class", cJSON_CreateNumber(m->num_class));
    ok = ok && attach(d, "num_outputs", cJSON_CreateNumber(m->num_outputs));
    ok = ok && attach(d, "num_features", cJSON_CreateNumber(m->num_features));
    ok = ok && attach(d, "base_score", real_value(m->base_score, 1));
    ok = ok && attach(d, "base_margin", real_value(m->base_margin, 1));
    ok = ok && attach_base_margins(d, m);
    if (m->num_parallel_tree > 1) /* other models keep their bytes */
        ok = ok && attach(d, "num_parallel_tree", cJSON_CreateNumber(m->num_parallel_tree));
    ok = ok && attach(d, "best_round", cJSON_CreateNumber(m->best_round));
    ok = ok && attach(d, "feature_names", feature_names_array(m));
    ok = ok && attach(d, "categories", categories_array(m));
    ok = ok && attach_category_groups(d, m);
    if (m->class_names) ok = ok && attach(d, "class_names", dict_array(m->class_names));
    ok = ok && attach(d, "cuts", cuts_object(&m->cuts));
    ok = ok && attach(d, "trees", trees_array(m));
    if (ok) ok = attach(d, "params", params); /* frees params on failure */
    else cJSON_Delete(params);
    if (!ok) {
        cJSON_Delete(d);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "out of host memory writing a model");
    }
    *out = d;
    return GPULAYER_OK;
}

/* JSON text is UTF-8: a name in another encoding would make a file that
 * JSON readers refuse. Names come from the C API and from other
 * libraries' models unchecked. */
static gpulayer_status check_text(const gpl_model *m, int32_t f, const char *what,
                                  const char *s)
{
    size_t len = strlen(s), bad = gpl_utf8_check(s, len);
    if (bad == len) return GPULAYER_OK;
    char shown[200];
    size_t k = 0;
    for (size_t i = 0; i < len && k + 5 < sizeof shown; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7F) shown[k++] = (char)c;
        else k += (size_t)snprintf(shown + k, sizeof shown - k, "\\x%02X", c);
    }
    shown[k] = '\0';
    const char *name = m->feature_names && m->feature_names[f] &&
                       gpl_utf8_check(m->feature_names[f], strlen(m->feature_names[f])) ==
                           strlen(m->feature_names[f]) ? m->feature_names[f] : NULL;
    return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                     "%s '%s' of feature %d%s%s%s is not valid UTF-8 (byte %zu); names "
                     "and categories must be UTF-8 text",
                     what, shown, (int)f, name ? " ('" : "", name ? name : "",
                     name ? "')" : "", bad + 1);
}

gpulayer_status gpl_model_check_utf8(const gpl_model *m)
{
    for (int32_t f = 0; f < m->num_features; f++) {
        if (m->feature_names && m->feature_names[f])
            GPL_CHECK(check_text(m, f, "the name", m->feature_names[f]));
        const gpl_category_dict *d = m->categories ? m->categories[f] : NULL;
        for (int32_t i = 0; d && i < d->count; i++)
            GPL_CHECK(check_text(m, f, "the category", d->names[i]));
    }
    return GPULAYER_OK;
}

gpulayer_status gpl_model_to_json(const gpl_model *m, char **out, size_t *len)
{
    *out = NULL;
    *len = 0;
    gpulayer_status invalid = gpl_model_validate(m, NULL);
    if (invalid != GPULAYER_OK)
        return gpl_error_prefix(invalid, "refusing to write an inconsistent model");
    gpulayer_status text = gpl_model_check_utf8(m);
    if (text != GPULAYER_OK) return gpl_error_prefix(text, "cannot write the model");
    cJSON *doc = NULL;
    GPL_CHECK(build_document(m, &doc));
    gpulayer_status st = gpl_model_json_seal(doc, out, len);
    cJSON_Delete(doc);
    return st;
}
