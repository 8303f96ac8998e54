/*
 * model_io.c -- the gpulayer model file: versioned JSON with a checksum.
 *
 * Layout (version 1), members in this order:
 *   format "gpulayer-model", version 1, objective, num_class, num_outputs,
 *   num_features, base_score, base_margin, best_round,
 *   feature_names [string|null per feature],
 *   categories [null | [names...] per feature],
 *   class_names [names...] (only for a model trained on class names),
 *   cuts {cut_ptr, values}, trees [{left, right, feature, split_bin,
 *   default_left, threshold, leaf_value, gain, cover}], params {..},
 *   checksum "xxxxxxxx".
 *
 * Floating values are written as the shortest decimal that reads back to
 * the same bits; the non-finite ones, which JSON cannot spell, as the
 * strings "nan", "inf" and "-inf".
 *
 * The checksum is the CRC-32 (zlib) of the canonical text of the document
 * without its checksum member: compact (no whitespace), members in file
 * order, numbers as print_number writes them, strings escaped as
 * print_string does. The reader recomputes it from the parsed document, so
 * whitespace may change but any change of content is detected.
 */
#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "alloc.h"
#include "error.h"
#include "json_num.h"
#include "model.h"
#include "strbuf.h"
#include "utf8.h"

#define FORMAT_TAG "gpulayer-model"
#define FORMAT_VERSION 1

/* ------------------------------------------------------------ text buffer */

/* Text under construction. With hashing set, the CRC-32 of every token is
 * kept as it is written (layout whitespace excluded), so that a file is
 * checksummed while it is printed; with discard set only the CRC is kept. */
typedef struct sbuf {
    gpl_strbuf text;
    int hashing;
    int discard;
    uLong crc;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->hashing) b->crc = crc32(b->crc, (const Bytef *)s, (uInt)n);
    if (!b->discard) gpl_strbuf_append(&b->text, s, n);
}

static void sb_puts(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }
static void sb_putc(sbuf *b, char c) { sb_put(b, &c, 1); }

/* ------------------------------------------------------ canonical printer */

static void print_string(sbuf *b, const char *s)
{
    sb_putc(b, '"');
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        char esc[8];
        switch (*c) {
        case '"': sb_puts(b, "\\\""); break;
        case '\\': sb_puts(b, "\\\\"); break;
        case '\n': sb_puts(b, "\\n"); break;
        case '\t': sb_puts(b, "\\t"); break;
        case '\r': sb_puts(b, "\\r"); break;
        default:
            if (*c < 0x20) {
                snprintf(esc, sizeof esc, "\\u%04x", *c);
                sb_puts(b, esc);
            } else {
                sb_putc(b, (char)*c);
            }
        }
    }
    sb_putc(b, '"');
}

static void print_number(sbuf *b, double d)
{
    char text[GPL_NUM_TEXT_SIZE];
    if (!isfinite(d)) { /* cJSON never parses these; kept total anyway */
        sb_puts(b, "null");
        return;
    }
    sb_put(b, text, (size_t)gpl_format_double(d, text));
}

static int is_container(const cJSON *v)
{
    return cJSON_IsArray(v) || cJSON_IsObject(v);
}

/* Pretty output puts each top-level member on a line of its own, and each
 * element of a second-level container that holds containers (trees, cuts,
 * categories), so that a model file reads and diffs well line by line. */
static int breaks_lines(const cJSON *container, int depth, int pretty)
{
    if (!pretty || depth > 1) return 0;
    if (depth == 0) return 1;
    const cJSON *child;
    cJSON_ArrayForEach(child, container)
        if (is_container(child)) return 1;
    return 0;
}

/* Layout only: never part of the checksum. */
static void newline(sbuf *b, int depth)
{
    int hashing = b->hashing;
    b->hashing = 0;
    sb_putc(b, '\n');
    for (int i = 0; i < depth; i++) sb_puts(b, "  ");
    b->hashing = hashing;
}

static void print_value(sbuf *b, const cJSON *v, int depth, int pretty);

static void print_container(sbuf *b, const cJSON *v, int depth, int pretty)
{
    const int object = cJSON_IsObject(v);
    const int breaks = breaks_lines(v, depth, pretty);
    sb_putc(b, object ? '{' : '[');
    const cJSON *child;
    int first = 1;
    cJSON_ArrayForEach(child, v) {
        if (!first) sb_putc(b, ',');
        first = 0;
        if (breaks) newline(b, depth + 1);
        if (object) {
            print_string(b, child->string ? child->string : "");
            sb_putc(b, ':');
        }
        print_value(b, child, depth + 1, pretty);
    }
    if (breaks && !first) newline(b, depth);
    sb_putc(b, object ? '}' : ']');
}

static void print_value(sbuf *b, const cJSON *v, int depth, int pretty)
{
    if (cJSON_IsNumber(v)) print_number(b, v->valuedouble);
    else if (cJSON_IsString(v)) print_string(b, v->valuestring);
    else if (cJSON_IsTrue(v)) sb_puts(b, "true");
    else if (cJSON_IsFalse(v)) sb_puts(b, "false");
    else if (is_container(v)) print_container(b, v, depth, pretty);
    else sb_puts(b, "null");
}

/* CRC-32 of the canonical text of doc, which must not hold "checksum". */
static unsigned long canonical_crc(const cJSON *doc)
{
    sbuf b = {0};
    b.hashing = 1;
    b.discard = 1;
    b.crc = crc32(0L, Z_NULL, 0);
    print_value(&b, doc, 0, 0);
    return (unsigned long)b.crc;
}

/* -------------------------------------------------------- the node fields */

typedef enum field_type { FIELD_INT, FIELD_FLOAT, FIELD_DOUBLE } field_type;

typedef struct node_field {
    const char *name;
    size_t offset;
    field_type type;
} node_field;

static const node_field node_fields[] = {
    {"left", offsetof(gpl_tree_node, left), FIELD_INT},
    {"right", offsetof(gpl_tree_node, right), FIELD_INT},
    {"feature", offsetof(gpl_tree_node, feature), FIELD_INT},
    {"split_bin", offsetof(gpl_tree_node, split_bin), FIELD_INT},
    {"default_left", offsetof(gpl_tree_node, default_left), FIELD_INT},
    {"threshold", offsetof(gpl_tree_node, threshold), FIELD_FLOAT},
    {"leaf_value", offsetof(gpl_tree_node, leaf_value), FIELD_FLOAT},
    {"gain", offsetof(gpl_tree_node, gain), FIELD_DOUBLE},
    {"cover", offsetof(gpl_tree_node, cover), FIELD_DOUBLE},
};
#define NUM_NODE_FIELDS (sizeof node_fields / sizeof node_fields[0])

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
    for (uint32_t b = 1; a && b < 32 * GPL_CAT_WORDS; b++)
        if (gpl_cat_set_has(n->left_set, b) &&
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
    if (m->objective == GPL_OBJ_QUANTILE) {
        value = cJSON_CreateArray();
        for (int32_t i = 0; value && i < op->num_quantiles; i++)
            if (!attach(value, NULL, real_value(op->quantile_alpha[i], 0))) {
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

/* The file text of doc (which has no checksum yet): pretty-printed and
 * checksummed in one pass, the checksum then added as the last member. */
static gpulayer_status seal_and_print(const cJSON *doc, char **out, size_t *len)
{
    sbuf b = {0};
    b.hashing = 1;
    b.crc = crc32(0L, Z_NULL, 0);
    print_value(&b, doc, 0, 1);
    b.hashing = 0;
    /* Reopen the object: drop its closing "\n}" (or the "}" of "{}"). */
    int empty = b.text.len == 2;
    if (!b.text.failed) b.text.len -= empty ? 1 : 2;
    char tail[64];
    snprintf(tail, sizeof tail, "%s\n  \"checksum\":\"%08lx\"\n}\n", empty ? "" : ",",
             (unsigned long)b.crc);
    sb_puts(&b, tail);
    size_t text_len = b.text.len;
    char *text = gpl_strbuf_take(&b.text);
    if (!text)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory writing a model");
    *out = text;
    *len = text_len;
    return GPULAYER_OK;
}

/* JSON text is UTF-8: a name in another encoding would make a file that
 * JSON readers refuse. Names come from the C API unchecked. */
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
                     "cannot write the model: %s '%s' of feature %d%s%s%s is not valid "
                     "UTF-8 (byte %zu); give names and categories as UTF-8 text",
                     what, shown, (int)f, name ? " ('" : "", name ? name : "",
                     name ? "')" : "", bad + 1);
}

static gpulayer_status check_utf8_text(const gpl_model *m)
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
    GPL_CHECK(check_utf8_text(m));
    cJSON *doc = NULL;
    GPL_CHECK(build_document(m, &doc));
    gpulayer_status st = seal_and_print(doc, out, len);
    cJSON_Delete(doc);
    return st;
}

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
 * (below 255); whether the feature has that many categories is
 * gpl_model_validate's to check. */
static gpulayer_status read_left_codes(const cJSON *codes, const char *source,
                                       const char *path, gpl_tree_node *n)
{
    if (!cJSON_IsArray(codes)) return wrong_type(source, (where){path, -1}, codes, "an array");
    const cJSON *e;
    int64_t i = 0, last = -1;
    cJSON_ArrayForEach(e, codes) {
        int64_t c = 0;
        GPL_CHECK(read_int(e, source, (where){path, i}, 0, 32 * GPL_CAT_WORDS - 2, &c));
        if (c <= last)
            return gpl_model_error(source, "field \"%s[%lld]\" is %lld: category codes must "
                                   "be ascending and distinct", path, (long long)i, (long long)c);
        last = c;
        n->left_set[(c + 1) >> 5] |= 1u << ((c + 1) & 31);
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
    op->num_quantiles = (int32_t)n;
    const cJSON *e;
    int64_t i = 0;
    cJSON_ArrayForEach(e, v) {
        GPL_CHECK(read_objective_value(e, source, path, i, 0, 1, 1, 1, &op->quantile_alpha[i]));
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
        return gpl_model_error(source, "field \"objective\": %s", gpulayer_last_error());
    m->softmax_output_class = as_class;
    GPL_CHECK(read_objective_params(doc, source, m));
    GPL_CHECK(read_int_member(doc, "num_class", source, 0, &m->num_class));
    GPL_CHECK(read_int_member(doc, "num_outputs", source, 1, &m->num_outputs));
    GPL_CHECK(read_int_member(doc, "num_features", source, 0, &m->num_features));
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
    unsigned long crc = canonical_crc(doc);
    if (crc != stored)
        return gpl_model_error(source, "model file is damaged: checksum mismatch "
                           "(stored %08lx, content %08lx)", stored, crc);
    return GPULAYER_OK;
}

static gpulayer_status read_model(const cJSON *doc, const char *source,
                                  gpl_model *m)
{
    GPL_CHECK(read_scalars(doc, source, m));
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
    if (st == GPULAYER_OK) st = seal_and_print(doc, out, out_len);
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
