/* model_read.c -- a model from the text of its file, checked member by
 * member against the layout of model_json.c, and its checksum verified. */
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

/* ---------------------------------------------------------------- reading */

static const char *type_name(const cJSON *v)
{
    if (!v) return "nothing";
    if (cJSON_IsNull(v)) return "null";
    if (cJSON_IsBool(v)) return "a boolean";
    if (cJSON_IsNumber(v)) return "a number";
    if (cJSON_IsString(v)) return "a string";
    if (cJSON_IsArray(v)) return "an array";
    if (cJSON_IsObject(v)) return "an object";
    return "an unknown value";
}

/* Where a value sits, for messages: "trees[3].left" plus an element index
 * (or -1 for none). Formatted only when an error is reported. */
typedef struct where {
    const char *path;
    int64_t index;
} where;

static const char *where_text(where w, char *buf, size_t size)
{
    if (w.index < 0) snprintf(buf, size, "\"%s\"", w.path);
    else snprintf(buf, size, "\"%s[%lld]\"", w.path, (long long)w.index);
    return buf;
}

static gpulayer_status wrong_type(const char *source, where w, const cJSON *v,
                                  const char *expected)
{
    char at[160];
    return gpl_model_error(source, "field %s must be %s, not %s",
                       where_text(w, at, sizeof at), expected, type_name(v));
}

static gpulayer_status get_member(const cJSON *obj, const char *key,
                                  const char *source, const char *path,
                                  const cJSON **out)
{
    *out = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (*out) return GPULAYER_OK;
    return gpl_model_error(source, "missing field \"%s\"", path);
}

static gpulayer_status read_int(const cJSON *v, const char *source, where w,
                                int64_t min, int64_t max, int64_t *out)
{
    if (!cJSON_IsNumber(v)) return wrong_type(source, w, v, "an integer");
    double d = v->valuedouble;
    if (d != floor(d) || d < (double)min || d > (double)max) {
        char at[160];
        return gpl_model_error(source, "field %s is %.17g, expected an integer in "
                           "[%lld, %lld]", where_text(w, at, sizeof at), d,
                           (long long)min, (long long)max);
    }
    *out = (int64_t)d;
    return GPULAYER_OK;
}

static gpulayer_status read_int32(const cJSON *v, const char *source, where w,
                                  int64_t min, int64_t max, int32_t *out)
{
    int64_t x = 0;
    GPL_CHECK(read_int(v, source, w, min, max, &x));
    *out = (int32_t)x;
    return GPULAYER_OK;
}

/* A number, or one of the strings "nan", "inf", "-inf". */
static gpulayer_status read_real(const cJSON *v, const char *source, where w,
                                 int is_float, double *out)
{
    if (cJSON_IsNumber(v)) {
        *out = v->valuedouble;
        /* Shortest float text may parse a hair above FLT_MAX as a double. */
        if (is_float && isinf((float)*out)) {
            char at[160];
            return gpl_model_error(source, "field %s is %.17g, outside the range "
                               "of a float", where_text(w, at, sizeof at), *out);
        }
        return GPULAYER_OK;
    }
    if (cJSON_IsString(v)) {
        if (!strcmp(v->valuestring, "nan")) *out = NAN;
        else if (!strcmp(v->valuestring, "inf")) *out = INFINITY;
        else if (!strcmp(v->valuestring, "-inf")) *out = -INFINITY;
        else return wrong_type(source, w, v, "a number (or \"nan\", \"inf\", \"-inf\")");
        return GPULAYER_OK;
    }
    return wrong_type(source, w, v, "a number");
}

static gpulayer_status read_float(const cJSON *v, const char *source, where w,
                                  float *out)
{
    double d = 0.0;
    GPL_CHECK(read_real(v, source, w, 1, &d));
    *out = (float)d;
    return GPULAYER_OK;
}

/* An array member and its length. */
static gpulayer_status get_array(const cJSON *obj, const char *key,
                                 const char *source, const char *path,
                                 const cJSON **out, int64_t *count)
{
    GPL_CHECK(get_member(obj, key, source, path, out));
    if (!cJSON_IsArray(*out))
        return wrong_type(source, (where){path, -1}, *out, "an array");
    int64_t n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, *out) n++;
    *count = n;
    return GPULAYER_OK;
}

static gpulayer_status expect_length(const char *source, const char *path,
                                     int64_t found, int64_t expected,
                                     const char *why)
{
    if (found == expected) return GPULAYER_OK;
    return gpl_model_error(source, "field \"%s\" has %lld entries, expected %lld (%s)",
                       path, (long long)found, (long long)expected, why);
}

static gpulayer_status read_node_field(const cJSON *array, const node_field *f,
                                       const char *source, const char *path,
                                       gpl_tree *t)
{
    const cJSON *e;
    int64_t i = 0;
    cJSON_ArrayForEach(e, array) {
        char *base = (char *)&t->nodes[i] + f->offset;
        where w = {path, i++};
        int32_t iv;
        float fv;
        double dv;
        if (f->type == FIELD_INT) {
            GPL_CHECK(read_int32(e, source, w, INT32_MIN, INT32_MAX, &iv));
            memcpy(base, &iv, sizeof iv);
        } else if (f->type == FIELD_FLOAT) {
            GPL_CHECK(read_float(e, source, w, &fv));
            memcpy(base, &fv, sizeof fv);
        } else {
            GPL_CHECK(read_real(e, source, w, 0, &dv));
            memcpy(base, &dv, sizeof dv);
        }
    }
    return GPULAYER_OK;
}

/* One node's left codes: distinct, ascending, each a value bin of a set
 * (below GPL_MAX_BIN_CODE); codes past the inline set go to a wide set of
 * the words the last one needs. Whether the feature has that many
 * categories is gpl_model_validate's to check. */
static gpulayer_status read_left_codes(const cJSON *codes, const char *source,
                                       const char *path, gpl_tree_node *n)
{
    if (!cJSON_IsArray(codes)) return wrong_type(source, (where){path, -1}, codes, "an array");
    const cJSON *last_code = codes->child;
    while (last_code && last_code->next) last_code = last_code->next;
    const double top = last_code && cJSON_IsNumber(last_code) ? last_code->valuedouble : 0;
    if (top >= 32 * GPL_CAT_WORDS - 1 && top <= GPL_MAX_BIN_CODE - 1) {
        n->wide_words = gpl_cat_set_words((int32_t)top + 1);
        n->wide_set = gpl_calloc((size_t)n->wide_words, sizeof(uint32_t), "a category set");
        if (!n->wide_set) {
            n->wide_words = 0;
            return GPULAYER_ERR_OUT_OF_MEMORY;
        }
    }
    uint32_t *set = n->wide_set ? n->wide_set : n->left_set;
    const int64_t most = 32 * (int64_t)gpl_node_set_words(n) - 2;
    const cJSON *e;
    int64_t i = 0, last = -1;
    cJSON_ArrayForEach(e, codes) {
        int64_t c = 0;
        GPL_CHECK(read_int(e, source, (where){path, i}, 0, most, &c));
        if (c <= last)
            return gpl_model_error(source, "field \"%s[%lld]\" is %lld: category codes must "
                                   "be ascending and distinct", path, (long long)i, (long long)c);
        last = c;
        set[(c + 1) >> 5] |= 1u << ((c + 1) & 31);
        i++;
    }
    return GPULAYER_OK;
}

static gpulayer_status read_category_sets(const cJSON *obj, int32_t index, const char *source,
                                          gpl_tree *t)
{
    if (!cJSON_GetObjectItemCaseSensitive(obj, "categories_nodes")) return GPULAYER_OK;
    char path[96], set_path[96];
    const cJSON *nodes, *sets;
    int64_t n = 0, ns = 0;
    snprintf(path, sizeof path, "trees[%d].categories_nodes", index);
    snprintf(set_path, sizeof set_path, "trees[%d].categories", index);
    GPL_CHECK(get_array(obj, "categories_nodes", source, path, &nodes, &n));
    GPL_CHECK(get_array(obj, "categories", source, set_path, &sets, &ns));
    GPL_CHECK(expect_length(source, set_path, ns, n, "one set a node of categories_nodes"));
    const cJSON *e, *set = sets->child;
    int64_t i = 0;
    cJSON_ArrayForEach(e, nodes) {
        int32_t id = 0;
        GPL_CHECK(read_int32(e, source, (where){path, i}, 0, t->num_nodes - 1, &id));
        gpl_tree_node *nd = &t->nodes[id];
        if (nd->categorical)
            return gpl_model_error(source, "field \"%s\" names node %d twice", path, id);
        nd->categorical = 1;
        char at[128];
        snprintf(at, sizeof at, "%s[%lld]", set_path, (long long)i);
        GPL_CHECK(read_left_codes(set, source, at, nd));
        set = set->next;
        i++;
    }
    return GPULAYER_OK;
}

static gpulayer_status read_tree(const cJSON *obj, int32_t index,
                                 const char *source, gpl_tree *t)
{
    char path[96];
    snprintf(path, sizeof path, "trees[%d]", index);
    if (!cJSON_IsObject(obj)) return wrong_type(source, (where){path, -1}, obj, "an object");
    const cJSON *arrays[NUM_NODE_FIELDS];
    int64_t n = 0;
    for (size_t k = 0; k < NUM_NODE_FIELDS; k++) {
        int64_t count = 0;
        snprintf(path, sizeof path, "trees[%d].%s", index, node_fields[k].name);
        GPL_CHECK(get_array(obj, node_fields[k].name, source, path, &arrays[k], &count));
        if (k == 0) n = count;
        GPL_CHECK(expect_length(source, path, count, n, "as many as \"left\""));
    }
    if (n < 1 || n > INT32_MAX)
        return gpl_model_error(source, "tree %d has %lld nodes", index, (long long)n);
    t->nodes = gpl_calloc((size_t)n, sizeof *t->nodes, "tree nodes");
    if (!t->nodes) return GPULAYER_ERR_OUT_OF_MEMORY;
    t->num_nodes = (int32_t)n;
    for (size_t k = 0; k < NUM_NODE_FIELDS; k++) {
        snprintf(path, sizeof path, "trees[%d].%s", index, node_fields[k].name);
        GPL_CHECK(read_node_field(arrays[k], &node_fields[k], source, path, t));
    }
    return read_category_sets(obj, index, source, t);
}

static gpulayer_status read_trees(const cJSON *doc, const char *source,
                                  gpl_model *m)
{
    const cJSON *trees;
    int64_t n = 0;
    GPL_CHECK(get_array(doc, "trees", source, "trees", &trees, &n));
    if (n > INT32_MAX) return gpl_model_error(source, "too many trees (%lld)", (long long)n);
    m->trees = gpl_calloc((size_t)n, sizeof *m->trees, "the trees of a model");
    if (!m->trees) return GPULAYER_ERR_OUT_OF_MEMORY;
    m->tree_capacity = (int32_t)n;
    const cJSON *e;
    cJSON_ArrayForEach(e, trees) {
        /* Counted before reading so that gpl_model_free releases a tree
         * whose reading failed half way. */
        gpl_tree *t = &m->trees[m->num_trees++];
        GPL_CHECK(read_tree(e, m->num_trees - 1, source, t));
    }
    return GPULAYER_OK;
}

static gpulayer_status read_cuts(const cJSON *doc, const char *source,
                                 gpl_model *m)
{
    const cJSON *cuts, *ptr, *values, *e;
    int64_t nptr = 0, nvalues = 0, i = 0;
    GPL_CHECK(get_member(doc, "cuts", source, "cuts", &cuts));
    if (!cJSON_IsObject(cuts)) return wrong_type(source, (where){"cuts", -1}, cuts, "an object");
    GPL_CHECK(get_array(cuts, "cut_ptr", source, "cuts.cut_ptr", &ptr, &nptr));
    GPL_CHECK(expect_length(source, "cuts.cut_ptr", nptr, (int64_t)m->num_features + 1,
                            "num_features + 1"));
    GPL_CHECK(get_array(cuts, "values", source, "cuts.values", &values, &nvalues));
    if (nvalues > (int64_t)UINT32_MAX)
        return gpl_model_error(source, "field \"cuts.values\" has too many entries");
    gpl_bin_cuts *c = &m->cuts;
    c->cut_ptr = gpl_calloc((size_t)nptr, sizeof *c->cut_ptr, "bin cuts");
    c->values = gpl_calloc((size_t)nvalues, sizeof *c->values, "bin cuts");
    if (!c->cut_ptr || !c->values) return GPULAYER_ERR_OUT_OF_MEMORY;
    c->num_features = m->num_features;
    cJSON_ArrayForEach(e, ptr) {
        int64_t x = 0;
        GPL_CHECK(read_int(e, source, (where){"cuts.cut_ptr", i}, 0, nvalues, &x));
        c->cut_ptr[i++] = (uint32_t)x;
    }
    if (c->cut_ptr[m->num_features] != (uint32_t)nvalues)
        return gpl_model_error(source, "field \"cuts.cut_ptr\" ends at %u but "
                           "\"cuts.values\" has %lld entries",
                           c->cut_ptr[m->num_features], (long long)nvalues);
    i = 0;
    cJSON_ArrayForEach(e, values) {
        GPL_CHECK(read_float(e, source, (where){"cuts.values", i}, &c->values[i]));
        i++;
    }
    return GPULAYER_OK;
}

/* Optional "base_margins": one finite margin an output. */
static gpulayer_status read_base_margins(const cJSON *doc, const char *source, gpl_model *m)
{
    if (!cJSON_GetObjectItemCaseSensitive(doc, "base_margins")) return GPULAYER_OK;
    const cJSON *a, *e;
    int64_t n = 0, i = 0;
    GPL_CHECK(get_array(doc, "base_margins", source, "base_margins", &a, &n));
    GPL_CHECK(expect_length(source, "base_margins", n, m->num_outputs, "num_outputs"));
    m->base_margins = gpl_calloc((size_t)(n ? n : 1), sizeof(float), "base margins");
    if (!m->base_margins) return GPULAYER_ERR_OUT_OF_MEMORY;
    cJSON_ArrayForEach(e, a) {
        GPL_CHECK(read_float(e, source, (where){"base_margins", i}, &m->base_margins[i]));
        if (!isfinite(m->base_margins[i]))
            return gpl_model_error(source, "field \"base_margins[%lld]\": must be a finite "
                                   "number, got %g", (long long)i, (double)m->base_margins[i]);
        i++;
    }
    return GPULAYER_OK;
}

static gpulayer_status read_feature_names(const cJSON *doc, const char *source,
                                          gpl_model *m)
{
    const cJSON *names, *e;
    int64_t n = 0, i = 0;
    GPL_CHECK(get_array(doc, "feature_names", source, "feature_names", &names, &n));
    GPL_CHECK(expect_length(source, "feature_names", n, m->num_features, "num_features"));
    int any = 0;
    cJSON_ArrayForEach(e, names) {
        if (!cJSON_IsNull(e) && !cJSON_IsString(e))
            return wrong_type(source, (where){"feature_names", i}, e, "a string or null");
        any |= cJSON_IsString(e);
        i++;
    }
    if (!any) return GPULAYER_OK; /* no names at all: left NULL */
    m->feature_names = gpl_calloc((size_t)n, sizeof(char *), "feature names");
    if (!m->feature_names) return GPULAYER_ERR_OUT_OF_MEMORY;
    i = 0;
    cJSON_ArrayForEach(e, names) {
        if (cJSON_IsString(e) && !(m->feature_names[i] = gpl_strdup(e->valuestring)))
            return GPULAYER_ERR_OUT_OF_MEMORY;
        i++;
    }
    return GPULAYER_OK;
}

static gpulayer_status read_dict(const cJSON *a, const char *source, const char *path,
                                 gpl_category_dict **out)
{
    int64_t n = 0, i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, a) n++;
    if (n > INT32_MAX) return gpl_model_error(source, "field \"%s\" is too long", path);
    gpl_category_dict *d = gpl_calloc(1, sizeof *d, "a category dictionary");
    if (!d) return GPULAYER_ERR_OUT_OF_MEMORY;
    *out = d;
    d->names = gpl_calloc((size_t)n, sizeof(char *), "category names");
    if (!d->names) return GPULAYER_ERR_OUT_OF_MEMORY;
    cJSON_ArrayForEach(e, a) {
        if (!cJSON_IsString(e)) return wrong_type(source, (where){path, i}, e, "a string");
        if (!(d->names[i] = gpl_strdup(e->valuestring))) return GPULAYER_ERR_OUT_OF_MEMORY;
        d->count = (int32_t)++i;
    }
    return GPULAYER_OK;
}

/* "category_groups", when present: one group a category of each grouped
 * feature (checked further by gpl_model_validate). */
static gpulayer_status read_category_groups(const cJSON *doc, const char *source,
                                            gpl_model *m)
{
    if (!cJSON_GetObjectItemCaseSensitive(doc, "category_groups")) return GPULAYER_OK;
    const cJSON *groups, *e;
    int64_t n = 0, f = 0;
    GPL_CHECK(get_array(doc, "category_groups", source, "category_groups", &groups, &n));
    GPL_CHECK(expect_length(source, "category_groups", n, m->num_features, "num_features"));
    m->cat_groups = gpl_calloc((size_t)n, sizeof *m->cat_groups, "category groups");
    if (!m->cat_groups) return GPULAYER_ERR_OUT_OF_MEMORY;
    cJSON_ArrayForEach(e, groups) {
        char path[64];
        snprintf(path, sizeof path, "category_groups[%lld]", (long long)f);
        if (cJSON_IsNull(e)) {
            f++;
            continue;
        }
        const gpl_category_dict *d = m->categories ? m->categories[f] : NULL;
        if (!cJSON_IsArray(e)) return wrong_type(source, (where){path, -1}, e, "an array or null");
        int64_t len = 0;
        const cJSON *x;
        cJSON_ArrayForEach(x, e) len++;
        GPL_CHECK(expect_length(source, path, len, d ? d->count : 0,
                                "one group a category of the feature"));
        if (!(m->cat_groups[f] = gpl_malloc(sizeof(int32_t) * (size_t)(len ? len : 1),
                                            "category groups")))
            return GPULAYER_ERR_OUT_OF_MEMORY;
        int64_t i = 0;
        cJSON_ArrayForEach(x, e) {
            GPL_CHECK(read_int32(x, source, (where){path, i}, 0, 254, &m->cat_groups[f][i]));
            i++;
        }
        f++;
    }
    return GPULAYER_OK;
}

static gpulayer_status read_categories(const cJSON *doc, const char *source,
                                       gpl_model *m)
{
    const cJSON *cats, *e;
    int64_t n = 0, f = 0;
    GPL_CHECK(get_array(doc, "categories", source, "categories", &cats, &n));
    GPL_CHECK(expect_length(source, "categories", n, m->num_features, "num_features"));
    int any = 0;
    cJSON_ArrayForEach(e, cats) {
        if (!cJSON_IsNull(e) && !cJSON_IsArray(e))
            return wrong_type(source, (where){"categories", f}, e, "an array or null");
        any |= cJSON_IsArray(e);
        f++;
    }
    if (!any) return GPULAYER_OK;
    m->categories = gpl_calloc((size_t)n, sizeof *m->categories, "category dictionaries");
    if (!m->categories) return GPULAYER_ERR_OUT_OF_MEMORY;
    f = 0;
    cJSON_ArrayForEach(e, cats) {
        char path[64];
        snprintf(path, sizeof path, "categories[%lld]", (long long)f);
        if (cJSON_IsArray(e)) GPL_CHECK(read_dict(e, source, path, &m->categories[f]));
        f++;
    }
    return GPULAYER_OK;
}

/* "class_names", when present (models before it have none). */
static gpulayer_status read_class_names(const cJSON *doc, const char *source, gpl_model *m)
{
    const cJSON *a;
    int64_t n = 0;
    if (!cJSON_GetObjectItemCaseSensitive(doc, "class_names")) return GPULAYER_OK;
    GPL_CHECK(get_array(doc, "class_names", source, "class_names", &a, &n));
    return read_dict(a, source, "class_names", &m->class_names);
}

static gpulayer_status read_params(const cJSON *doc, const char *source,
                                   gpl_model *m)
{
    const cJSON *params;
    GPL_CHECK(get_member(doc, "params", source, "params", &params));
    if (cJSON_IsNull(params)) return GPULAYER_OK;
    if (!cJSON_IsObject(params))
        return wrong_type(source, (where){"params", -1}, params, "an object or null");
    char *text = cJSON_PrintUnformatted(params);
    if (!text) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory reading a model");
    m->params_json = gpl_strdup(text);
    cJSON_free(text);
    return m->params_json ? GPULAYER_OK : GPULAYER_ERR_OUT_OF_MEMORY;
}

/* A top-level integer member; at most INT32_MAX - 1 so that counts plus
 * one (cut_ptr) still fit. */
static gpulayer_status read_int_member(const cJSON *doc, const char *key,
                                       const char *source, int64_t min,
                                       int32_t *out)
{
    const cJSON *v;
    GPL_CHECK(get_member(doc, key, source, key, &v));
    return read_int32(v, source, (where){key, -1}, min, INT32_MAX - 1, out);
}

static gpulayer_status read_float_member(const cJSON *doc, const char *key,
                                         const char *source, float *out)
{
    const cJSON *v;
    GPL_CHECK(get_member(doc, key, source, key, &v));
    return read_float(v, source, (where){key, -1}, out);
}

/* One parameter of "objective_params", checked against its range. */
static gpulayer_status read_objective_value(const cJSON *v, const char *source,
                                            const char *path, int64_t index, double lo,
                                            double hi, int lo_open, int hi_open, double *out)
{
    GPL_CHECK(read_real(v, source, (where){path, index}, 0, out));
    if (!(*out >= lo && *out <= hi) || (lo_open && *out == lo) || (hi_open && *out == hi)) {
        char at[160];
        return gpl_model_error(source, "field %s is %.17g, outside %s%g, %g%s",
                               where_text((where){path, index}, at, sizeof at), *out,
                               lo_open ? "(" : "[", lo, hi, hi_open ? ")" : "]");
    }
    return GPULAYER_OK;
}

/* "objective_params", required for the objectives that write it. */
static gpulayer_status read_objective_params(const cJSON *doc, const char *source,
                                             gpl_model *m)
{
    gpl_objective_params *op = &m->obj_params;
    const char *key = gpl_objective_param_name(m->objective);
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, "objective_params");
    if (!key) {
        if (o) return gpl_model_error(source, "field \"objective_params\": %s has no "
                                      "parameters", gpl_objective_name(m));
        return GPULAYER_OK;
    }
    GPL_CHECK(get_member(doc, "objective_params", source, "objective_params", &o));
    if (!cJSON_IsObject(o))
        return wrong_type(source, (where){"objective_params", -1}, o, "an object");
    char path[64];
    snprintf(path, sizeof path, "objective_params.%s", key);
    const cJSON *v;
    GPL_CHECK(get_member(o, key, source, path, &v));
    if (m->objective == GPL_OBJ_POISSON)
        return read_objective_value(v, source, path, -1, 0, HUGE_VAL, 0, 1,
                                    &op->max_delta_step);
    if (m->objective == GPL_OBJ_TWEEDIE)
        return read_objective_value(v, source, path, -1, 1, 2, 0, 1,
                                    &op->tweedie_variance_power);
    if (m->objective == GPL_OBJ_PSEUDO_HUBER)
        return read_objective_value(v, source, path, -1, 0, HUGE_VAL, 1, 1, &op->huber_slope);
    int64_t n = 0;
    GPL_CHECK(get_array(o, key, source, path, &v, &n));
    if (n < 1 || n > GPL_MAX_QUANTILES)
        return gpl_model_error(source, "field \"%s\" has %lld entries, expected 1..%d", path,
                               (long long)n, GPL_MAX_QUANTILES);
    const int expectile = m->objective == GPL_OBJ_EXPECTILE;
    double *alphas = expectile ? op->expectile_alpha : op->quantile_alpha;
    *(expectile ? &op->num_expectiles : &op->num_quantiles) = (int32_t)n;
    const cJSON *e;
    int64_t i = 0;
    cJSON_ArrayForEach(e, v) {
        GPL_CHECK(read_objective_value(e, source, path, i, 0, 1, 1, 1, &alphas[i]));
        i++;
    }
    return GPULAYER_OK;
}

static gpulayer_status read_scalars(const cJSON *doc, const char *source,
                                    gpl_model *m)
{
    const cJSON *v;
    GPL_CHECK(get_member(doc, "objective", source, "objective", &v));
    if (!cJSON_IsString(v)) return wrong_type(source, (where){"objective", -1}, v, "a string");
    int as_class = 0;
    if (gpl_objective_parse(v->valuestring, &m->objective, &as_class) != GPULAYER_OK)
        return gpl_model_error(source, "field \"objective\": %s", gpl_error_message());
    m->softmax_output_class = as_class;
    GPL_CHECK(read_objective_params(doc, source, m));
    GPL_CHECK(read_int_member(doc, "num_class", source, 0, &m->num_class));
    GPL_CHECK(read_int_member(doc, "num_outputs", source, 1, &m->num_outputs));
    GPL_CHECK(read_int_member(doc, "num_features", source, 0, &m->num_features));
    if (cJSON_GetObjectItemCaseSensitive(doc, "num_parallel_tree"))
        GPL_CHECK(read_int_member(doc, "num_parallel_tree", source, 1, &m->num_parallel_tree));
    GPL_CHECK(read_int_member(doc, "best_round", source, -1, &m->best_round));
    GPL_CHECK(read_float_member(doc, "base_score", source, &m->base_score));
    GPL_CHECK(read_float_member(doc, "base_margin", source, &m->base_margin));
    /* Training never makes them infinite or NaN; such a model would
     * predict inf or NaN for every row. */
    if (!isfinite(m->base_score) || !isfinite(m->base_margin))
        return gpl_model_error(source, "field \"%s\": must be a finite number, got %g",
                               isfinite(m->base_score) ? "base_margin" : "base_score",
                               (double)(isfinite(m->base_score) ? m->base_margin
                                                                : m->base_score));
    return GPULAYER_OK;
}

/* ------------------------------------------------------ document framing */

/* The byte where arrays and objects first nest deeper than cJSON's limit,
 * looking no further than byte stop; len when they do not. cJSON reports
 * only a failure at the point where it stopped. */
static size_t nesting_past_limit(const char *text, size_t len, size_t stop)
{
    int depth = 0, in_string = 0;
    for (size_t i = 0; i < len && i <= stop; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\') i++;
            else if (c == '"') in_string = 0;
        } else if (c == '"') {
            in_string = 1;
        } else if (c == '[' || c == '{') {
            if (++depth > CJSON_NESTING_LIMIT) return i;
        } else if (c == ']' || c == '}') {
            depth--;
        }
    }
    return len;
}

static gpulayer_status parse_document(const char *text, size_t len,
                                      const char *source, cJSON **out)
{
    if (len == 0) return gpl_model_error(source, "not a gpulayer model: the file is empty");
    const char *end = NULL;
    cJSON *doc = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!doc) {
        size_t at = end && end >= text ? (size_t)(end - text) : 0;
        size_t deep = nesting_past_limit(text, len, at);
        if (deep < len)
            return gpl_model_error(source, "arrays and objects are nested more than %d "
                                   "deep at byte %zu, past the nesting depth limit of "
                                   "the JSON reader",
                                   CJSON_NESTING_LIMIT, deep);
        return gpl_model_error(source, "truncated or malformed JSON at byte %zu%s", at,
                           at >= len ? " (the end of the file)" : "");
    }
    size_t at = (size_t)(end - text);
    while (at < len && (text[at] == '\0' || strchr(" \t\r\n", text[at]))) at++;
    if (at < len) {
        cJSON_Delete(doc);
        return gpl_model_error(source, "unexpected data after the JSON document at "
                           "byte %zu", at);
    }
    *out = doc;
    return GPULAYER_OK;
}

/* JSON is UTF-8; cJSON passes other bytes through into names and
 * categories, which would load but never save again. */
static gpulayer_status check_utf8_document(const char *text, size_t len,
                                           const char *source)
{
    size_t bad = gpl_utf8_check(text, len);
    if (bad == len) return GPULAYER_OK;
    size_t line = 1, col = 1;
    for (size_t i = 0; i < bad; i++) {
        if (text[i] == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    return gpl_model_error(source, "not valid UTF-8 text at line %zu, column %zu "
                           "(byte %zu)", line, col, bad);
}

static gpulayer_status check_format(const cJSON *doc, const char *source)
{
    if (!cJSON_IsObject(doc))
        return gpl_model_error(source, "not a gpulayer model: the document is %s, "
                           "not an object", type_name(doc));
    const cJSON *tag = cJSON_GetObjectItemCaseSensitive(doc, "format");
    if (!tag && cJSON_GetObjectItemCaseSensitive(doc, "learner"))
        return gpl_model_error(source, "not a gpulayer model: this looks like an "
                           "XGBoost model (it has a \"learner\" object)");
    if (!tag) return gpl_model_error(source, "not a gpulayer model: no \"format\" field");
    if (!cJSON_IsString(tag) || strcmp(tag->valuestring, FORMAT_TAG))
        return gpl_model_error(source, "not a gpulayer model: \"format\" is not \""
                           FORMAT_TAG "\"");
    const cJSON *version = cJSON_GetObjectItemCaseSensitive(doc, "version");
    if (!version) return gpl_model_error(source, "missing field \"version\"");
    if (!cJSON_IsNumber(version))
        return wrong_type(source, (where){"version", -1}, version, "an integer");
    if (version->valuedouble != FORMAT_VERSION)
        return gpl_model_error(source, "unsupported model version %.17g (this "
                           "gpulayer reads version %d%s)", version->valuedouble,
                           FORMAT_VERSION, version->valuedouble > FORMAT_VERSION
                           ? "; the file was written by a newer release" : "");
    return GPULAYER_OK;
}

/* Removes the checksum member from doc and compares it with the CRC of
 * what remains. */
static gpulayer_status verify_checksum(cJSON *doc, const char *source)
{
    cJSON *sum = cJSON_DetachItemFromObjectCaseSensitive(doc, "checksum");
    if (!sum) return gpl_model_error(source, "missing field \"checksum\"");
    char *end = NULL;
    unsigned long stored = 0;
    int ok = cJSON_IsString(sum) && strlen(sum->valuestring) == 8 &&
             strspn(sum->valuestring, "0123456789abcdefABCDEF") == 8;
    if (ok) stored = strtoul(sum->valuestring, &end, 16);
    cJSON_Delete(sum);
    if (!ok) return gpl_model_error(source, "field \"checksum\" must be 8 hex digits");
    unsigned long crc = gpl_model_json_crc(doc);
    if (crc != stored)
        return gpl_model_error(source, "model file is damaged: checksum mismatch "
                           "(stored %08lx, content %08lx)", stored, crc);
    return GPULAYER_OK;
}

static gpulayer_status read_model(const cJSON *doc, const char *source,
                                  gpl_model *m)
{
    GPL_CHECK(read_scalars(doc, source, m));
    GPL_CHECK(read_base_margins(doc, source, m));
    GPL_CHECK(read_feature_names(doc, source, m));
    GPL_CHECK(read_categories(doc, source, m));
    GPL_CHECK(read_category_groups(doc, source, m));
    GPL_CHECK(read_class_names(doc, source, m));
    GPL_CHECK(read_cuts(doc, source, m));
    GPL_CHECK(read_trees(doc, source, m));
    GPL_CHECK(read_params(doc, source, m));
    return gpl_model_validate(m, source);
}

gpulayer_status gpl_model_from_json(const char *text, size_t len,
                                    const char *source, gpl_model **out)
{
    *out = NULL;
    if (!source) source = "model";
    if (!text) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: no model text", source);
    cJSON *doc = NULL;
    GPL_CHECK(parse_document(text, len, source, &doc));
    gpulayer_status st = check_format(doc, source);
    if (st == GPULAYER_OK) st = check_utf8_document(text, len, source);
    if (st == GPULAYER_OK) st = verify_checksum(doc, source);
    gpl_model *m = NULL;
    if (st == GPULAYER_OK && !(m = gpl_model_new()))
        st = gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory reading a model");
    if (st == GPULAYER_OK) st = read_model(doc, source, m);
    cJSON_Delete(doc);
    if (st != GPULAYER_OK) {
        gpl_model_free(m);
        return st;
    }
    *out = m;
    return GPULAYER_OK;
}

gpulayer_status gpl_model_json_reseal(const char *text, size_t len,
                                      char **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    cJSON *doc = NULL;
    GPL_CHECK(parse_document(text, len, "model text", &doc));
    gpulayer_status st = cJSON_IsObject(doc) ? GPULAYER_OK
        : gpl_error(GPULAYER_ERR_MODEL, "model text: not a JSON object");
    cJSON_Delete(cJSON_DetachItemFromObjectCaseSensitive(doc, "checksum"));
    if (st == GPULAYER_OK) st = gpl_model_json_seal(doc, out, out_len);
    cJSON_Delete(doc);
    return st;
}

gpulayer_status gpl_model_copy(const gpl_model *m, gpl_model **out)
{
    char *text = NULL;
    size_t len = 0;
    GPL_CHECK(gpl_model_to_json(m, &text, &len));
    gpulayer_status st = gpl_model_from_json(text, len, NULL, out);
    free(text);
    return st;
}
