/* import_build.c -- the part of a model import the formats share: cuts made
 * of the trees' thresholds, each numeric split's bin among them, and the
 * category dictionaries and sets of categorical splits (model_import.h). */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "memory_limit.h"
#include "model_import.h"

/* A feature's categories are its value bins 1..n: at most a 16-bit code's. */
#define MAX_CATEGORIES GPL_MAX_BIN_CODE

gpulayer_status gpl_import_refuse(const char *source, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    const gpulayer_status st = gpl_model_verror(GPULAYER_ERR_UNSUPPORTED, source, fmt, ap);
    va_end(ap);
    return st;
}

void gpl_import_feature_text(const gpl_model *m, int32_t f, char *buf, size_t size)
{
    if (m->feature_names && m->feature_names[f])
        snprintf(buf, size, "feature %d ('%.64s')", (int)f, m->feature_names[f]);
    else
        snprintf(buf, size, "feature %d", (int)f);
}

gpulayer_status gpl_import_set_record(gpl_model *m, const char *what)
{
    /* The record quotes the file (its version line): a byte that is not
     * printable ASCII becomes '?', so that the model's JSON stays UTF-8. */
    char clean[160];
    size_t k = 0;
    for (const char *p = what; *p && k + 1 < sizeof clean; p++)
        clean[k++] = *p >= 0x20 && *p < 0x7F ? *p : '?';
    clean[k] = '\0';
    cJSON *o = cJSON_CreateObject();
    char *text = NULL;
    if (o && cJSON_AddStringToObject(o, "imported_from", clean))
        text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    free(m->params_json);
    m->params_json = text ? gpl_strdup(text) : NULL;
    cJSON_free(text);
    return m->params_json ? GPULAYER_OK
                          : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory "
                                                                  "importing a model");
}

static gpulayer_status oom(void)
{
    return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory importing a model");
}

gpulayer_status gpl_import_init(gpl_import *imp, gpl_model *m, const char *source,
                                const char *library)
{
    memset(imp, 0, sizeof *imp);
    imp->m = m;
    imp->source = source;
    imp->library = library;
    size_t n = (size_t)(m->num_features > 0 ? m->num_features : 1);
    /* A header may declare millions of features: what every feature takes
     * here and in gpl_import_finish (its flag, its positions' pointer and
     * largest code) is checked against the memory limit before any of it
     * is asked for or walked. */
    const uint64_t per_feature = sizeof *imp->cat_codes + sizeof *imp->cat_names +
                                 sizeof *imp->cat_count + 2 + sizeof(int32_t *) +
                                 sizeof(int64_t);
    GPL_CHECK(gpl_check_host_memory(per_feature * n, "the imported model's feature tables"));
    imp->cat_codes = calloc(n, sizeof *imp->cat_codes);
    imp->cat_names = calloc(n, sizeof *imp->cat_names);
    imp->cat_count = calloc(n, sizeof *imp->cat_count);
    imp->declared_categorical = calloc(n, 1);
    if (!imp->cat_codes || !imp->cat_names || !imp->cat_count || !imp->declared_categorical)
        return oom();
    return GPULAYER_OK;
}

static void free_names(char **names, int32_t n)
{
    for (int32_t i = 0; names && i < n; i++) free(names[i]);
    free(names);
}

void gpl_import_free(gpl_import *imp)
{
    for (int32_t f = 0; imp->m && f < imp->m->num_features; f++) {
        if (imp->cat_codes) free(imp->cat_codes[f]);
        if (imp->cat_names) free_names(imp->cat_names[f], imp->cat_count[f]);
    }
    free(imp->cat_codes);
    free(imp->cat_names);
    free(imp->cat_count);
    free(imp->declared_categorical);
    free(imp->splits);
    free(imp->codes);
    memset(imp, 0, sizeof *imp);
}

gpulayer_status gpl_import_declare_categories(gpl_import *imp, int32_t f,
                                              const int64_t *codes,
                                              const char *const *names, int32_t n)
{
    if (f < 0 || f >= imp->m->num_features)
        return gpl_model_error(imp->source, "categories declared for feature %d, but the "
                               "model has %d features", (int)f, (int)imp->m->num_features);
    free(imp->cat_codes[f]);
    free_names(imp->cat_names[f], imp->cat_count[f]);
    imp->cat_codes[f] = NULL;
    imp->cat_names[f] = NULL;
    imp->cat_count[f] = 0;
    imp->declared_categorical[f] = 1;
    if (n == 0) return GPULAYER_OK;
    imp->cat_codes[f] = malloc(sizeof(int64_t) * (size_t)n);
    imp->cat_names[f] = calloc((size_t)n, sizeof(char *));
    if (!imp->cat_codes[f] || !imp->cat_names[f]) return oom();
    imp->cat_count[f] = n;
    for (int32_t i = 0; i < n; i++) {
        char text[32];
        imp->cat_codes[f][i] = codes[i];
        if (!names) snprintf(text, sizeof text, "%lld", (long long)codes[i]);
        imp->cat_names[f][i] = gpl_strdup(names ? names[i] : text);
        if (!imp->cat_names[f][i]) return oom();
    }
    return GPULAYER_OK;
}

gpulayer_status gpl_import_cat_split_add(gpl_import *imp, int32_t tree, int32_t node,
                                         const int64_t *codes, int32_t n, int listed_left)
{
    if (imp->num_splits == imp->split_cap) {
        int32_t cap = imp->split_cap ? imp->split_cap * 2 : 64;
        void *p = realloc(imp->splits, sizeof *imp->splits * (size_t)cap);
        if (!p) return oom();
        imp->splits = p;
        imp->split_cap = cap;
    }
    while (imp->num_codes + n > imp->code_cap) {
        int64_t cap = imp->code_cap ? imp->code_cap * 2 : 256;
        void *p = realloc(imp->codes, sizeof *imp->codes * (size_t)cap);
        if (!p) return oom();
        imp->codes = p;
        imp->code_cap = cap;
    }
    /* A split may list no codes, and the list may not exist yet. */
    if (n > 0) memcpy(imp->codes + imp->num_codes, codes, sizeof *codes * (size_t)n);
    imp->splits[imp->num_splits++] = (gpl_import_cat_split){
        tree, node, imp->num_codes, n, listed_left != 0};
    imp->num_codes += n;
    return GPULAYER_OK;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static gpl_tree_node *split_node(const gpl_import *imp, const gpl_import_cat_split *s)
{
    return &imp->m->trees[s->tree].nodes[s->node];
}

/* A categorical feature's codes where no list was declared: XGBoost's
 * codes are positions 0..K-1 in the training categories, so every code up
 * to the largest one a split names is a category (at least code 0). */
static gpulayer_status derive_categories(gpl_import *imp, int32_t f)
{
    int64_t top = 0;
    char feature[96];
    for (int32_t i = 0; i < imp->num_splits; i++) {
        const gpl_import_cat_split *s = &imp->splits[i];
        if (split_node(imp, s)->feature != f) continue;
        for (int32_t k = 0; k < s->count; k++) {
            int64_t c = imp->codes[s->first + k];
            if (c < 0) {
                gpl_import_feature_text(imp->m, f, feature, sizeof feature);
                return gpl_model_error(imp->source, "trees[%d] node %d splits %s by the "
                                       "negative category code %lld", (int)s->tree,
                                       (int)s->node, feature, (long long)c);
            }
            if (c > top) top = c;
        }
    }
    if (top >= MAX_CATEGORIES) {
        gpl_import_feature_text(imp->m, f, feature, sizeof feature);
        return gpl_import_refuse(imp->source, "%s %s has category codes up to %lld: %lld "
                                 "categories, but GPUlayer holds at most %d a feature "
                                 "(a 16-bit code's value bins)", imp->library, feature,
                                 (long long)top, (long long)top + 1, MAX_CATEGORIES);
    }
    int64_t *codes = malloc(sizeof(int64_t) * (size_t)(top + 1));
    if (!codes) return oom();
    for (int64_t c = 0; c <= top; c++) codes[c] = c;
    const gpulayer_status st = gpl_import_declare_categories(imp, f, codes, NULL,
                                                             (int32_t)top + 1);
    free(codes);
    return st;
}

/* Feature f's categories being sorted: by code, then by name. */
typedef struct category_ref {
    int64_t code;
    char *name;
    int32_t index; /* in code order, once sorted by code */
} category_ref;

static int by_code(const void *a, const void *b)
{
    const category_ref *x = a, *y = b;
    return (x->code > y->code) - (x->code < y->code);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const category_ref *)a)->name, ((const category_ref *)b)->name);
}

/* Sorts feature f's declared codes (names along), checks them and makes
 * the model's dictionary: the names sorted, as GPUlayer keeps them.
 * position receives, for each code (in ascending code order), its
 * position in the dictionary: GPUlayer's code of that category. */
static gpulayer_status make_dictionary(gpl_import *imp, int32_t f, int32_t *position)
{
    const int32_t n = imp->cat_count[f];
    char feature[96];
    gpl_import_feature_text(imp->m, f, feature, sizeof feature);
    if (n > MAX_CATEGORIES)
        return gpl_import_refuse(imp->source, "%s %s has %d categories, but GPUlayer "
                                 "holds at most %d a feature (a 16-bit code's value bins)",
                                 imp->library, feature, (int)n, MAX_CATEGORIES);
    int64_t *codes = imp->cat_codes[f];
    char **names = imp->cat_names[f];
    category_ref *ref = malloc(sizeof *ref * (size_t)(n > 0 ? n : 1));
    const char **sorted = malloc(sizeof *sorted * (size_t)(n > 0 ? n : 1));
    gpulayer_status st = ref && sorted ? GPULAYER_OK : oom();
    for (int32_t i = 0; st == GPULAYER_OK && i < n; i++)
        ref[i] = (category_ref){codes[i], names[i], 0};
    if (st == GPULAYER_OK) qsort(ref, (size_t)n, sizeof *ref, by_code);
    /* The import's lists in code order, which code_index searches: the
     * whole permutation, so that the names are each held once. */
    for (int32_t i = 0; st == GPULAYER_OK && i < n; i++) {
        codes[i] = ref[i].code;
        names[i] = ref[i].name;
        ref[i].index = i;
    }
    for (int32_t i = 1; st == GPULAYER_OK && i < n; i++)
        if (ref[i].code == ref[i - 1].code)
            st = gpl_model_error(imp->source, "%s lists category code %lld twice", feature,
                                 (long long)ref[i].code);
    if (st == GPULAYER_OK) qsort(ref, (size_t)n, sizeof *ref, by_name);
    for (int32_t i = 0; st == GPULAYER_OK && i < n; i++) {
        sorted[i] = ref[i].name;
        position[ref[i].index] = i;
        if (i > 0 && strcmp(sorted[i - 1], sorted[i]) == 0)
            st = gpl_model_error(imp->source, "%s has two categories named '%.64s'", feature,
                                 sorted[i]);
    }
    if (st == GPULAYER_OK && !imp->m->categories &&
        !(imp->m->categories = calloc((size_t)imp->m->num_features,
                                      sizeof(gpl_category_dict *))))
        st = oom();
    if (st == GPULAYER_OK && !(imp->m->categories[f] = gpl_category_dict_new(sorted, n)))
        st = oom();
    free(ref);
    free(sorted);
    return st;
}

/* The position of code c among the feature's ascending codes, or -1. */
static int32_t code_index(const gpl_import *imp, int32_t f, int64_t c)
{
    const int64_t *codes = imp->cat_codes[f];
    int32_t lo = 0, hi = imp->cat_count[f] - 1;
    while (lo <= hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (codes[mid] == c) return mid;
        if (codes[mid] < c) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

/* Every category of the feature goes left or right: the listed ones one
 * way, the others (unlisted but known) the other way. */
static gpulayer_status fill_cat_split(gpl_import *imp, const gpl_import_cat_split *s,
                                      const int32_t *position)
{
    gpl_tree_node *nd = split_node(imp, s);
    const int32_t f = nd->feature, n = imp->cat_count[f];
    uint8_t *listed = calloc((size_t)(n > 0 ? n : 1), 1);
    if (!listed) return oom();
    for (int32_t k = 0; k < s->count; k++) {
        int64_t c = imp->codes[s->first + k];
        int32_t i = code_index(imp, f, c);
        if (i < 0) {
            char feature[96];
            gpl_import_feature_text(imp->m, f, feature, sizeof feature);
            free(listed);
            return gpl_model_error(imp->source, "trees[%d] node %d splits %s by category "
                                   "code %lld, which is not one of its %d categories",
                                   (int)s->tree, (int)s->node, feature, (long long)c, (int)n);
        }
        listed[i] = 1;
    }
    nd->categorical = 1;
    nd->split_bin = 0;
    nd->threshold = 0.0f;
    memset(nd->left_set, 0, sizeof nd->left_set);
    /* Value bins 1..n: past the inline words, a set of its own. */
    if (gpl_cat_set_words(n) > GPL_CAT_WORDS) {
        nd->wide_words = gpl_cat_set_words(n);
        nd->wide_set = calloc((size_t)nd->wide_words, sizeof(uint32_t));
        if (!nd->wide_set) {
            nd->wide_words = 0;
            free(listed);
            return oom();
        }
    }
    uint32_t *set = nd->wide_set ? nd->wide_set : nd->left_set;
    for (int32_t i = 0; i < n; i++)
        if (listed[i] == (uint8_t)s->listed_left) {
            uint32_t bin = (uint32_t)position[i] + 1;
            set[bin >> 5] |= 1u << (bin & 31);
        }
    free(listed);
    return GPULAYER_OK;
}

/* Marks every feature a categorical split uses; a numeric split on a
 * categorical feature cannot be binned by categories. */
static gpulayer_status categorical_features(gpl_import *imp, uint8_t *is_cat)
{
    gpl_model *m = imp->m;
    for (int32_t f = 0; f < m->num_features; f++) is_cat[f] = imp->declared_categorical[f];
    for (int32_t i = 0; i < imp->num_splits; i++) {
        const gpl_import_cat_split *s = &imp->splits[i];
        if (s->tree < 0 || s->tree >= m->num_trees || s->node < 0 ||
            s->node >= m->trees[s->tree].num_nodes)
            return gpl_error(GPULAYER_ERR_INTERNAL, "a categorical split at tree %d node %d "
                             "outside the model", (int)s->tree, (int)s->node);
        int32_t f = split_node(imp, s)->feature;
        if (f < 0 || f >= m->num_features)
            return gpl_model_error(imp->source, "trees[%d] node %d splits on feature %d but "
                                   "the model has %d features", (int)s->tree, (int)s->node,
                                   (int)f, (int)m->num_features);
        is_cat[f] = 1;
        split_node(imp, s)->categorical = 1;
    }
    for (int32_t t = 0; t < m->num_trees; t++)
        for (int32_t i = 0; i < m->trees[t].num_nodes; i++) {
            const gpl_tree_node *nd = &m->trees[t].nodes[i];
            if (nd->left < 0 || nd->categorical) continue;
            if (nd->feature < 0 || nd->feature >= m->num_features)
                return gpl_model_error(imp->source, "trees[%d] node %d splits on feature %d "
                                       "but the model has %d features", (int)t, (int)i,
                                       (int)nd->feature, (int)m->num_features);
            if (is_cat[nd->feature]) {
                char feature[96];
                gpl_import_feature_text(m, nd->feature, feature, sizeof feature);
                return gpl_import_refuse(imp->source, "trees[%d] node %d splits the "
                                         "categorical %s by a threshold; GPUlayer splits a "
                                         "categorical feature by sets of categories only",
                                         (int)t, (int)i, feature);
            }
            if (!isfinite(nd->threshold)) {
                char feature[96];
                gpl_import_feature_text(m, nd->feature, feature, sizeof feature);
                return gpl_import_refuse(imp->source, "trees[%d] node %d splits %s at %g; "
                                         "GPUlayer's cuts are finite", (int)t, (int)i,
                                         feature, (double)nd->threshold);
            }
        }
    return GPULAYER_OK;
}

/* Feature f's numeric thresholds, sorted and distinct, into out (count). */
static int32_t collect_thresholds(const gpl_model *m, int32_t f, float *out, int32_t cap,
                                  int32_t *total)
{
    int32_t n = 0;
    *total = 0;
    for (int32_t t = 0; t < m->num_trees; t++)
        for (int32_t i = 0; i < m->trees[t].num_nodes; i++) {
            const gpl_tree_node *nd = &m->trees[t].nodes[i];
            if (nd->left < 0 || nd->categorical || nd->feature != f) continue;
            /* -0.0 and 0.0 compare equal, and so do they as cuts. */
            float v = nd->threshold == 0.0f ? 0.0f : nd->threshold;
            if (n < cap) out[n++] = v;
            (*total)++;
        }
    return n;
}

static int32_t sort_unique(float *v, int32_t n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_float);
    int32_t k = 0;
    for (int32_t i = 0; i < n; i++)
        if (k == 0 || v[i] != v[k - 1]) v[k++] = v[i];
    return k;
}

/* Feature f's cuts: its distinct numeric thresholds, or one cut between
 * each pair of consecutive categories (k + 0.5) for a categorical one. */
static gpulayer_status feature_cuts(gpl_import *imp, int32_t f, int is_cat, float **buf,
                                    int32_t *cap, int32_t *count)
{
    const gpl_model *m = imp->m;
    if (is_cat) {
        *count = imp->cat_count[f] - 1;
        for (int32_t k = 0; k < *count; k++) (*buf)[k] = (float)k + 0.5f;
        return GPULAYER_OK;
    }
    int32_t total = 0;
    int32_t n = collect_thresholds(m, f, *buf, *cap, &total);
    if (total > *cap) {
        float *grown = realloc(*buf, sizeof(float) * (size_t)total);
        if (!grown) return oom();
        *buf = grown;
        *cap = total;
        n = collect_thresholds(m, f, *buf, *cap, &total);
    }
    *count = sort_unique(*buf, n);
    if (*count > GPL_MAX_CUTS) {
        char feature[96];
        gpl_import_feature_text(m, f, feature, sizeof feature);
        return gpl_import_refuse(imp->source, "the %s model splits %s at %d distinct "
                                 "thresholds, but GPUlayer holds at most %d a feature "
                                 "(%d value bins)", imp->library, feature,
                                 (int)*count, GPL_MAX_CUTS, GPL_MAX_CUTS + 1);
    }
    return GPULAYER_OK;
}

static gpulayer_status build_cuts(gpl_import *imp, const uint8_t *is_cat)
{
    gpl_model *m = imp->m;
    const int32_t F = m->num_features;
    gpl_bin_cuts *c = &m->cuts;
    c->num_features = F;
    c->cut_ptr = calloc((size_t)F + 1, sizeof *c->cut_ptr);
    size_t room = 1024;
    c->values = malloc(sizeof(float) * room);
    int32_t cap = 1024;
    float *buf = malloc(sizeof(float) * (size_t)cap);
    gpulayer_status st = c->cut_ptr && c->values && buf ? GPULAYER_OK : oom();
    for (int32_t f = 0; st == GPULAYER_OK && f < F; f++) {
        int32_t count = 0;
        st = feature_cuts(imp, f, is_cat[f], &buf, &cap, &count);
        if (st != GPULAYER_OK) break;
        if (c->cut_ptr[f] + (size_t)count > room) {
            room = 2 * (c->cut_ptr[f] + (size_t)count);
            float *grown = realloc(c->values, sizeof(float) * room);
            if (!grown) {
                st = oom();
                break;
            }
            c->values = grown;
        }
        memcpy(c->values + c->cut_ptr[f], buf, sizeof(float) * (size_t)count);
        c->cut_ptr[f + 1] = c->cut_ptr[f] + (uint32_t)count;
    }
    free(buf);
    return st;
}

/* split_bin of a numeric split: with cuts c_0 < ... < c_{n-1}, a value v
 * has bin 1 + #{j : c_j <= v}, so v < c_j exactly when that count is at
 * most j, that is when bin <= j + 1. The split at threshold c_j is
 * therefore split_bin j + 1, and gpl_split_threshold gives c_j back. */
static void bin_numeric_splits(gpl_model *m)
{
    for (int32_t t = 0; t < m->num_trees; t++)
        for (int32_t i = 0; i < m->trees[t].num_nodes; i++) {
            gpl_tree_node *nd = &m->trees[t].nodes[i];
            if (nd->left < 0 || nd->categorical) continue;
            const float *cuts = m->cuts.values + m->cuts.cut_ptr[nd->feature];
            const int32_t n = (int32_t)(m->cuts.cut_ptr[nd->feature + 1] -
                                        m->cuts.cut_ptr[nd->feature]);
            float v = nd->threshold;
            const float *at = bsearch(&v, cuts, (size_t)n, sizeof *cuts, cmp_float);
            /* Every threshold is among its feature's cuts (build_cuts). */
            nd->split_bin = at ? (int32_t)(at - cuts) + 1 : 0;
            nd->threshold = at ? *at : nd->threshold;
        }
}

/* Bytes a category takes while the import builds the dictionaries: its
 * code, its name and their pointers, its position, the dictionary's copy. */
#define CATEGORY_BYTES 64

/* The categories every categorical feature will hold (those declared, or
 * codes 0 .. the largest a split names), checked against the memory limit
 * before any is made: a small file may name code 65,534 for each of many
 * features. */
static gpulayer_status check_category_memory(const gpl_import *imp, const uint8_t *is_cat)
{
    const int32_t F = imp->m->num_features;
    int64_t *top = malloc(sizeof *top * (size_t)(F > 0 ? F : 1));
    if (!top) return oom();
    for (int32_t f = 0; f < F; f++) top[f] = 0;
    for (int32_t i = 0; i < imp->num_splits; i++) {
        const gpl_import_cat_split *s = &imp->splits[i];
        const int32_t f = split_node(imp, s)->feature;
        for (int32_t k = 0; k < s->count; k++)
            if (imp->codes[s->first + k] > top[f]) top[f] = imp->codes[s->first + k];
    }
    uint64_t total = 0;
    for (int32_t f = 0; f < F; f++)
        if (is_cat[f])
            total += imp->cat_count[f] ? (uint64_t)imp->cat_count[f]
                                       : (uint64_t)(top[f] < MAX_CATEGORIES ? top[f] + 1
                                                                            : MAX_CATEGORIES);
    free(top);
    return gpl_check_host_memory(total * CATEGORY_BYTES, "the imported model's category tables");
}

gpulayer_status gpl_import_finish(gpl_import *imp)
{
    gpl_model *m = imp->m;
    const int32_t F = m->num_features;
    uint8_t *is_cat = calloc((size_t)(F > 0 ? F : 1), 1);
    /* Each categorical feature's positions of its codes (NULL for the
     * others: a wide model may have millions of numeric features). */
    int32_t **position = calloc((size_t)(F > 0 ? F : 1), sizeof *position);
    gpulayer_status st = is_cat && position ? GPULAYER_OK : oom();
    if (st == GPULAYER_OK) st = categorical_features(imp, is_cat);
    if (st == GPULAYER_OK) st = check_category_memory(imp, is_cat);
    for (int32_t f = 0; st == GPULAYER_OK && f < F; f++) {
        if (!is_cat[f]) continue;
        if (imp->cat_count[f] == 0) st = derive_categories(imp, f);
        if (st == GPULAYER_OK &&
            !(position[f] = malloc(sizeof(int32_t) * (size_t)(imp->cat_count[f] + 1))))
            st = oom();
        if (st == GPULAYER_OK) st = make_dictionary(imp, f, position[f]);
    }
    if (st == GPULAYER_OK) st = build_cuts(imp, is_cat);
    for (int32_t i = 0; st == GPULAYER_OK && i < imp->num_splits; i++) {
        const gpl_import_cat_split *s = &imp->splits[i];
        qsort(imp->codes + s->first, (size_t)s->count, sizeof(int64_t), cmp_i64);
        st = fill_cat_split(imp, s, position[split_node(imp, s)->feature]);
    }
    if (st == GPULAYER_OK) bin_numeric_splits(m);
    for (int32_t f = 0; position && f < F; f++) free(position[f]);
    free(is_cat);
    free(position);
    if (st == GPULAYER_OK) st = gpl_model_validate(m, imp->source);
    /* A model loaded must save: its names become GPUlayer's JSON text. */
    if (st == GPULAYER_OK && gpl_model_check_utf8(m) != GPULAYER_OK) {
        char why[GPL_ERROR_CAPACITY];
        snprintf(why, sizeof why, "%s", gpl_error_message());
        st = gpl_model_error(imp->source, "%s model: %s", imp->library, why);
    }
    return st;
}
