/*
 * import_lightgbm.c -- LightGBM's text model (Booster.save_model) read
 * into a gpl_model.
 *
 * LightGBM sends x <= threshold left, the threshold a double; GPUlayer
 * sends x < cut left on float data. For a float x, x <= t holds exactly
 * when x < the smallest float above t, so that float is the cut. Missing
 * values: a split of missing type NaN sends NaN to its default side, as
 * GPUlayer does; of type None, LightGBM reads NaN as 0, so NaN goes where
 * 0 goes; of type Zero (zero_as_missing), 0 and NaN go to the default
 * side, which one split by bins can do only when that is also where the
 * threshold sends 0 (otherwise the model is refused). A categorical split
 * lists the categories that go left in a bitset; NaN goes right (missing
 * type NaN) or with category 0. The margin is the sum of the leaves: the
 * average LightGBM boosts from is folded into the first tree.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "model_import.h"

/* LightGBM's decision_type bits and missing types. */
#define LGB_CATEGORICAL 1
#define LGB_DEFAULT_LEFT 2
#define LGB_MISSING(d) (((d) >> 2) & 3)
enum { LGB_MISSING_NONE = 0, LGB_MISSING_ZERO = 1, LGB_MISSING_NAN = 2 };
/* LightGBM's kZeroThreshold: |x| <= this is zero for missing type Zero. */
#define LGB_ZERO 1e-35f

typedef struct lgb_read {
    const char *source;
    gpl_model *m;
    gpl_import imp;
    char **lines;
    int64_t num_lines, at;
} lgb_read;

static gpulayer_status malformed(const char *source, const char *what)
{
    return gpl_model_error(source, "not a readable LightGBM model: %s", what);
}

static gpulayer_status oom(void)
{
    return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory importing a model");
}

/* The value of "key=value" when line has that key, else NULL. */
static const char *value_of(const char *line, const char *key)
{
    size_t n = strlen(key);
    return strncmp(line, key, n) == 0 && line[n] == '=' ? line + n + 1 : NULL;
}

/* Splits the text into NUL-terminated lines (in place; \r\n taken). */
static gpulayer_status split_lines(lgb_read *r, char *text, size_t len)
{
    int64_t cap = 1024;
    r->lines = malloc(sizeof(char *) * (size_t)cap);
    if (!r->lines) return oom();
    char *p = text, *end = text + len;
    while (p < end) {
        char *nl = memchr(p, '\n', (size_t)(end - p));
        char *stop = nl ? nl : end;
        *stop = '\0';
        if (stop > p && stop[-1] == '\r') stop[-1] = '\0';
        if (r->num_lines == cap) {
            cap *= 2;
            char **grown = realloc(r->lines, sizeof(char *) * (size_t)cap);
            if (!grown) return oom();
            r->lines = grown;
        }
        r->lines[r->num_lines++] = p;
        p = stop + 1;
    }
    return GPULAYER_OK;
}

/* The first line from `from` with key (before the next "Tree=" or the end
 * of the block), or NULL. */
static const char *find_key(const lgb_read *r, int64_t from, int64_t to, const char *key)
{
    for (int64_t i = from; i < to; i++) {
        const char *v = value_of(r->lines[i], key);
        if (v) return v;
    }
    return NULL;
}

/* n numbers of a space-separated list (exactly n). */
static gpulayer_status numbers(const lgb_read *r, const char *text, const char *key, int32_t t,
                               int64_t n, double *out)
{
    char what[128];
    if (!text) {
        snprintf(what, sizeof what, "Tree=%d has no %s", (int)t, key);
        return malformed(r->source, what);
    }
    const char *s = text;
    for (int64_t i = 0; i < n; i++) {
        char *end = NULL;
        out[i] = strtod(s, &end);
        if (end == s) {
            snprintf(what, sizeof what, "Tree=%d: %s has %lld values, expected %lld", (int)t,
                     key, (long long)i, (long long)n);
            return malformed(r->source, what);
        }
        s = end;
    }
    while (*s == ' ') s++;
    if (*s) {
        snprintf(what, sizeof what, "Tree=%d: %s has more than %lld values", (int)t, key,
                 (long long)n);
        return malformed(r->source, what);
    }
    return GPULAYER_OK;
}

/* The number of space-separated values of a line. */
static int64_t count_values(const char *s)
{
    int64_t n = 0;
    while (*s) {
        while (*s == ' ') s++;
        if (!*s) break;
        n++;
        while (*s && *s != ' ') s++;
    }
    return n;
}

/* The smallest float above t: for a float x, x <= t exactly when x < it. */
static float cut_above(double t)
{
    float f = (float)t;
    if ((double)f > t) f = nextafterf(f, -INFINITY);
    return nextafterf(f, INFINITY);
}

typedef struct lgb_tree {
    int32_t leaves;
    double *feature, *threshold, *decision, *left, *right, *leaf, *gain, *leaf_count,
        *internal_count, *cat_bounds, *cat_words;
    int64_t num_bounds, num_words;
} lgb_tree;

static void lgb_tree_free(lgb_tree *x)
{
    free(x->feature);
    free(x->cat_bounds);
    free(x->cat_words);
}

/* A node's child: internal node c, or leaf ~c after the L - 1 internal
 * nodes. */
static int32_t child_id(double c, int32_t leaves, int *ok)
{
    /* Checked before the conversion: a value past int64's range (or NaN)
     * has no int64 to convert to. */
    if (!(c == floor(c) && fabs(c) <= (double)leaves)) {
        *ok = 0;
        return 0;
    }
    int64_t v = (int64_t)c;
    if (v >= 0 && v < leaves - 1) return (int32_t)v;
    if (v < 0 && ~v < leaves) return (int32_t)(leaves - 1 + ~v);
    *ok = 0;
    return 0;
}

static gpulayer_status numeric_split(lgb_read *r, const lgb_tree *x, int32_t t, int32_t i,
                                     gpl_tree_node *nd)
{
    const int d = (int)x->decision[i];
    const double thr = x->threshold[i];
    const float cut = cut_above(thr);
    if (!isfinite(cut)) {
        char feature[96];
        gpl_import_feature_text(r->m, nd->feature, feature, sizeof feature);
        return gpl_import_refuse(r->source, "Tree=%d node %d splits %s at %g, beyond the "
                                 "float range of GPUlayer's cuts", (int)t, (int)i, feature,
                                 thr);
    }
    nd->threshold = cut;
    const int zero_left = 0.0 <= thr;
    switch (LGB_MISSING(d)) {
    case LGB_MISSING_NAN:
        nd->default_left = (d & LGB_DEFAULT_LEFT) != 0;
        break;
    case LGB_MISSING_ZERO: {
        const int side = (d & LGB_DEFAULT_LEFT) != 0;
        /* Every value LightGBM calls zero must go to the default side by
         * the threshold too. */
        const int band_left = (double)LGB_ZERO <= thr;
        const int band_right = (double)-LGB_ZERO > thr;
        if (!(band_left && side) && !(band_right && !side)) {
            char feature[96];
            gpl_import_feature_text(r->m, nd->feature, feature, sizeof feature);
            return gpl_import_refuse(r->source, "Tree=%d node %d treats 0 as missing on %s "
                                     "(zero_as_missing) and sends it %s, while its threshold "
                                     "%g sends 0 %s; GPUlayer sends 0 by the threshold",
                                     (int)t, (int)i, feature, side ? "left" : "right", thr,
                                     zero_left ? "left" : "right");
        }
        nd->default_left = side;
        break;
    }
    default: /* None: NaN is read as 0 */
        nd->default_left = zero_left;
    }
    return GPULAYER_OK;
}

/* The categories a categorical split's bitset lists (they go left). */
static gpulayer_status categorical_split(lgb_read *r, const lgb_tree *x, int32_t i,
                                         int32_t node, gpl_tree_node *nd)
{
    const double idx = x->threshold[i];
    if (idx != floor(idx) || idx < 0 || idx + 1 >= (double)x->num_bounds)
        return malformed(r->source, "a categorical split names no cat_boundaries entry");
    const double lo = x->cat_bounds[(int64_t)idx], hi = x->cat_bounds[(int64_t)idx + 1];
    if (!(lo >= 0 && hi >= lo && hi <= (double)x->num_words))
        return malformed(r->source, "a categorical split's bitset lies outside cat_threshold");
    int64_t *codes = malloc(sizeof(int64_t) * ((size_t)(hi - lo) * 32 + 1));
    if (!codes) return oom();
    int32_t n = 0;
    for (int64_t w = (int64_t)lo; w < (int64_t)hi; w++) {
        uint32_t word = (uint32_t)x->cat_words[w];
        for (int b = 0; b < 32; b++)
            if (word >> b & 1u) codes[n++] = (w - (int64_t)lo) * 32 + b;
    }
    const int d = (int)x->decision[i];
    /* NaN: right for missing type NaN, else read as category 0. */
    nd->default_left = LGB_MISSING(d) != LGB_MISSING_NAN && n > 0 && codes[0] == 0;
    gpulayer_status st = gpl_import_cat_split_add(&r->imp, r->m->num_trees, node, codes, n, 1);
    free(codes);
    return st;
}

static gpulayer_status read_tree_arrays(lgb_read *r, int64_t from, int64_t to, int32_t t,
                                        lgb_tree *x)
{
    const char *v = find_key(r, from, to, "num_leaves");
    char *end = NULL;
    long leaves = v ? strtol(v, &end, 10) : 0;
    if (!v || *end || leaves < 1 || leaves > 1 << 24)
        return malformed(r->source, "a tree has no valid num_leaves");
    x->leaves = (int32_t)leaves;
    const int64_t L = leaves, I = leaves - 1;
    /* One block: 8 arrays of I, 2 of L. */
    x->feature = malloc(sizeof(double) * (size_t)(8 * I + 2 * L + 1));
    if (!x->feature) return oom();
    double *p = x->feature;
    double **internal[] = {&x->feature, &x->threshold, &x->decision, &x->left, &x->right,
                           &x->gain, &x->internal_count};
    for (size_t k = 0; k < sizeof internal / sizeof *internal; k++, p += I) *internal[k] = p;
    x->leaf = p;
    x->leaf_count = p + L;
    static const char *ikeys[] = {"split_feature", "threshold", "decision_type",
                                  "left_child", "right_child"};
    for (size_t k = 0; I > 0 && k < 5; k++)
        GPL_CHECK(numbers(r, find_key(r, from, to, ikeys[k]), ikeys[k], t, I, *internal[k]));
    GPL_CHECK(numbers(r, find_key(r, from, to, "leaf_value"), "leaf_value", t, L, x->leaf));
    /* Statistics SHAP uses (LightGBM's TreeSHAP weighs by row counts):
     * zero where absent. */
    const char *gain = find_key(r, from, to, "split_gain");
    const char *ic = find_key(r, from, to, "internal_count");
    const char *lc = find_key(r, from, to, "leaf_count");
    memset(x->gain, 0, sizeof(double) * (size_t)I);
    memset(x->internal_count, 0, sizeof(double) * (size_t)I);
    memset(x->leaf_count, 0, sizeof(double) * (size_t)L);
    if (I > 0 && gain) GPL_CHECK(numbers(r, gain, "split_gain", t, I, x->gain));
    if (I > 0 && ic) GPL_CHECK(numbers(r, ic, "internal_count", t, I, x->internal_count));
    if (lc) GPL_CHECK(numbers(r, lc, "leaf_count", t, L, x->leaf_count));
    const char *bounds = find_key(r, from, to, "cat_boundaries");
    const char *words = find_key(r, from, to, "cat_threshold");
    if (bounds && words) {
        x->num_bounds = count_values(bounds);
        x->num_words = count_values(words);
        x->cat_bounds = malloc(sizeof(double) * (size_t)(x->num_bounds + 1));
        x->cat_words = malloc(sizeof(double) * (size_t)(x->num_words + 1));
        if (!x->cat_bounds || !x->cat_words) return oom();
        GPL_CHECK(numbers(r, bounds, "cat_boundaries", t, x->num_bounds, x->cat_bounds));
        GPL_CHECK(numbers(r, words, "cat_threshold", t, x->num_words, x->cat_words));
    }
    return GPULAYER_OK;
}

/* The values the reader turns into integers: the decision types (a byte
 * of flags) and the words of the categorical bitsets (32 bits each). */
static gpulayer_status check_integer_values(const lgb_read *r, const lgb_tree *x, int32_t t)
{
    char what[128];
    for (int32_t i = 0; i < x->leaves - 1; i++) {
        const double d = x->decision[i];
        if (d >= 0 && d <= 255 && d == floor(d)) continue;
        snprintf(what, sizeof what, "Tree=%d: decision_type %g is not a byte of flags", (int)t,
                 d);
        return malformed(r->source, what);
    }
    for (int64_t w = 0; w < x->num_words; w++) {
        const double v = x->cat_words[w];
        if (v >= 0 && v <= 4294967295.0 && v == floor(v)) continue;
        snprintf(what, sizeof what, "Tree=%d: cat_threshold %g is not a 32-bit word", (int)t, v);
        return malformed(r->source, what);
    }
    return GPULAYER_OK;
}

/* One "Tree=" block, lines [from, to). Internal node i is node i, leaf j
 * node L - 1 + j (a tree of one leaf is that leaf). */
static gpulayer_status read_tree(lgb_read *r, int64_t from, int64_t to, int32_t t)
{
    const char *linear = find_key(r, from, to, "is_linear");
    if (linear && strcmp(linear, "0") != 0)
        return gpl_import_refuse(r->source, "Tree=%d is a linear tree (linear_tree): its "
                                 "leaves fit linear models, GPUlayer's leaves hold a value",
                                 (int)t);
    lgb_tree x = {0};
    gpulayer_status st = read_tree_arrays(r, from, to, t, &x);
    if (st == GPULAYER_OK) st = check_integer_values(r, &x, t);
    const int32_t L = x.leaves, I = L - 1;
    gpl_tree out = {0};
    if (st == GPULAYER_OK) {
        out.num_nodes = 2 * L - 1;
        out.nodes = gpl_calloc((size_t)out.num_nodes, sizeof *out.nodes, "an imported tree");
        if (!out.nodes) st = oom();
    }
    for (int32_t j = 0; st == GPULAYER_OK && j < L; j++) {
        gpl_tree_node *nd = &out.nodes[I + j];
        nd->left = nd->right = nd->feature = -1;
        nd->leaf_value = (float)x.leaf[j];
        nd->cover = x.leaf_count[j];
        if (!isfinite(nd->leaf_value))
            st = malformed(r->source, "a leaf value is not a finite float");
    }
    for (int32_t i = 0; st == GPULAYER_OK && i < I; i++) {
        gpl_tree_node *nd = &out.nodes[i];
        int ok = 1;
        nd->left = child_id(x.left[i], L, &ok);
        nd->right = child_id(x.right[i], L, &ok);
        const double f = x.feature[i];
        if (!ok || f != floor(f) || f < 0 || f >= r->m->num_features) {
            st = malformed(r->source, "a split names a child or feature that does not exist");
            break;
        }
        nd->feature = (int32_t)f;
        nd->gain = x.gain[i];
        nd->cover = x.internal_count[i];
        if ((int)x.decision[i] & LGB_CATEGORICAL)
            st = categorical_split(r, &x, i, i, nd);
        else
            st = numeric_split(r, &x, t, i, nd);
    }
    lgb_tree_free(&x);
    if (st != GPULAYER_OK) {
        free(out.nodes);
        return st;
    }
    return gpl_model_add_tree(r->m, &out);
}

/* "[key: value]" of the parameters section, or NULL. */
static const char *parameter(const lgb_read *r, const char *key, char *buf, size_t size)
{
    const size_t n = strlen(key);
    for (int64_t i = 0; i < r->num_lines; i++) {
        const char *l = r->lines[i];
        if (l[0] == '[' && strncmp(l + 1, key, n) == 0 && l[n + 1] == ':') {
            snprintf(buf, size, "%s", l + n + 2 + (l[n + 2] == ' '));
            char *close = strrchr(buf, ']');
            if (close) *close = '\0';
            return buf;
        }
    }
    return NULL;
}

/* "key:value" among the objective line's words, or NULL. */
static const char *objective_word(const char *line, const char *key)
{
    const size_t n = strlen(key);
    for (const char *s = line; s && *s; s = strchr(s, ' ')) {
        while (*s == ' ') s++;
        if (strncmp(s, key, n) == 0 && s[n] == ':') return s + n + 1;
    }
    return NULL;
}

static gpulayer_status read_objective(lgb_read *r, const char *line)
{
    gpl_model *m = r->m;
    char name[64], buf[128];
    size_t n = strcspn(line, " ");
    snprintf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), line);
    const char *xgb = NULL;
    if (!strcmp(name, "regression") || !strcmp(name, "regression_l2")) {
        if (strstr(line, " sqrt"))
            return gpl_import_refuse(r->source, "the LightGBM model's regression has "
                                     "reg_sqrt: its outputs are squared margins, which no "
                                     "GPUlayer objective gives");
        xgb = "reg:squarederror";
    } else if (!strcmp(name, "regression_l1")) xgb = "reg:absoluteerror";
    else if (!strcmp(name, "quantile")) xgb = "reg:quantileerror";
    else if (!strcmp(name, "poisson")) xgb = "count:poisson";
    else if (!strcmp(name, "gamma")) xgb = "reg:gamma";
    else if (!strcmp(name, "tweedie")) xgb = "reg:tweedie";
    else if (!strcmp(name, "cross_entropy")) xgb = "reg:logistic";
    else if (!strcmp(name, "lambdarank")) xgb = "rank:ndcg";
    else if (!strcmp(name, "binary")) {
        const char *sigmoid = objective_word(line, "sigmoid");
        if (sigmoid && strtod(sigmoid, NULL) != 1.0)
            return gpl_import_refuse(r->source, "the LightGBM model's binary objective has "
                                     "sigmoid:%g; GPUlayer's logistic link is sigmoid 1",
                                     strtod(sigmoid, NULL));
        xgb = "binary:logistic";
    } else if (!strcmp(name, "multiclass")) xgb = "multi:softprob";
    if (!xgb)
        return gpl_import_refuse(r->source, "LightGBM's objective '%s' has no GPUlayer "
                                 "equivalent (LightGBM objectives read: regression, "
                                 "regression_l1, quantile, poisson, gamma, tweedie, binary, "
                                 "cross_entropy, multiclass, lambdarank)", name);
    int as_class = 0;
    GPL_CHECK(gpl_objective_parse(xgb, &m->objective, &as_class));
    if (m->objective == GPL_OBJ_QUANTILE && parameter(r, "alpha", buf, sizeof buf))
        GPL_CHECK(gpl_objective_parse_alphas("alpha", buf, m->obj_params.quantile_alpha,
                                             &m->obj_params.num_quantiles));
    if (m->objective == GPL_OBJ_TWEEDIE && parameter(r, "tweedie_variance_power", buf, sizeof buf))
        m->obj_params.tweedie_variance_power = strtod(buf, NULL);
    return GPULAYER_OK;
}

/* Feature names: "feature_names=a b c" (LightGBM replaces spaces). */
static gpulayer_status read_feature_names(lgb_read *r, const char *line)
{
    gpl_model *m = r->m;
    if (!line || count_values(line) != m->num_features) return GPULAYER_OK;
    m->feature_names = calloc((size_t)m->num_features, sizeof(char *));
    if (!m->feature_names) return oom();
    const char *s = line;
    for (int32_t f = 0; f < m->num_features; f++) {
        while (*s == ' ') s++;
        size_t n = strcspn(s, " ");
        m->feature_names[f] = malloc(n + 1);
        if (!m->feature_names[f]) return oom();
        memcpy(m->feature_names[f], s, n);
        m->feature_names[f][n] = '\0';
        s += n;
    }
    return GPULAYER_OK;
}

/* A category's name from pandas_categorical (a string, or a number). */
static char *json_name(const cJSON *v)
{
    char text[40];
    if (cJSON_IsString(v)) return gpl_strdup(v->valuestring);
    if (!cJSON_IsNumber(v)) return NULL;
    double d = v->valuedouble;
    if (d == floor(d) && fabs(d) < 9e15) snprintf(text, sizeof text, "%lld", (long long)d);
    else snprintf(text, sizeof text, "%.17g", d);
    return gpl_strdup(text);
}

/* Categorical features from feature_infos ("0:1:2" lists a categorical
 * feature's categories; "[lo:hi]" and "none" are numeric). Names are the
 * pandas categories (pandas_categorical, one list a categorical column)
 * when the model has them for every categorical feature, else the codes. */
static gpulayer_status read_categories(lgb_read *r, const char *infos, const char *pandas)
{
    gpl_model *m = r->m;
    if (!infos) return GPULAYER_OK;
    cJSON *lists = pandas ? cJSON_Parse(pandas) : NULL;
    int32_t categorical = 0;
    const char *s = infos;
    for (int32_t f = 0; f < m->num_features && *s; f++) {
        while (*s == ' ') s++;
        size_t n = strcspn(s, " ");
        categorical += s[0] != '[' && strncmp(s, "none", 4) != 0 && n > 0;
        s += n;
    }
    const int named = cJSON_IsArray(lists) && cJSON_GetArraySize(lists) == categorical;
    gpulayer_status st = GPULAYER_OK;
    int32_t k = 0;
    s = infos;
    for (int32_t f = 0; st == GPULAYER_OK && f < m->num_features && *s; f++) {
        while (*s == ' ') s++;
        size_t n = strcspn(s, " ");
        const char *item = s;
        s += n;
        if (item[0] == '[' || strncmp(item, "none", 4) == 0 || n == 0) continue;
        const cJSON *list = named ? cJSON_GetArrayItem(lists, k) : NULL;
        k++;
        /* At most one category a character pair ("0:1:2"). */
        const size_t most = n / 2 + 1;
        int64_t *codes = malloc(sizeof *codes * most);
        char **names = calloc(most, sizeof *names);
        if (!codes || !names) st = gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                                             "out of host memory reading LightGBM categories");
        int32_t count = 0;
        for (const char *c = item; c < item + n && st == GPULAYER_OK;) {
            char *end = NULL;
            long long v = strtoll(c, &end, 10);
            if (end == c) {
                st = malformed(r->source, "feature_infos lists a category that is not an "
                                          "integer");
                break;
            }
            c = end + (*end == ':');
            if (v < 0) continue; /* LightGBM lists -1 for missing values */
            if (count == GPL_MAX_BIN_CODE) {
                char feature[96];
                gpl_import_feature_text(m, f, feature, sizeof feature);
                st = gpl_import_refuse(r->source, "LightGBM %s has more than %d categories; "
                                       "GPUlayer holds at most %d a feature", feature,
                                       GPL_MAX_BIN_CODE, GPL_MAX_BIN_CODE);
                break;
            }
            const cJSON *e = list && v < cJSON_GetArraySize(list) ? cJSON_GetArrayItem(list, (int)v)
                                                                   : NULL;
            codes[count] = v;
            names[count] = e ? json_name(e) : NULL;
            if (list && !names[count]) {
                /* A code without a pandas name: name every code by itself. */
                list = NULL;
            }
            count++;
        }
        if (st == GPULAYER_OK) {
            int all = list != NULL;
            for (int32_t i = 0; i < count; i++) all &= names[i] != NULL;
            st = gpl_import_declare_categories(&r->imp, f, codes,
                                               all ? (const char *const *)names : NULL, count);
        }
        for (int32_t i = 0; names && i < count; i++) free(names[i]);
        free(names);
        free(codes);
    }
    cJSON_Delete(lists);
    return st;
}

/* The integer of header line `key`, the whole text and within [lo, hi];
 * dflt where the line is absent, -1 where it holds anything else. */
static long header_int(const lgb_read *r, int64_t first_tree, const char *key, long dflt,
                       long lo, long hi)
{
    const char *v = find_key(r, 0, first_tree, key);
    if (!v) return dflt;
    char *end = NULL;
    errno = 0;
    const long x = strtol(v, &end, 10);
    return end != v && !*end && errno == 0 && x >= lo && x <= hi ? x : -1;
}

static gpulayer_status read_header(lgb_read *r, int64_t first_tree)
{
    gpl_model *m = r->m;
    const long last_feature = header_int(r, first_tree, "max_feature_idx", -1, 0, 99999999);
    if (last_feature < 0)
        return malformed(r->source, "max_feature_idx is missing or not a feature index");
    m->num_features = (int32_t)(last_feature + 1);
    for (int64_t i = 0; i < first_tree; i++)
        if (!strcmp(r->lines[i], "average_output"))
            return gpl_import_refuse(r->source, "the LightGBM model is a random forest "
                                     "(boosting=rf, average_output): it averages its trees, "
                                     "GPUlayer adds them");
    const char *objective = find_key(r, 0, first_tree, "objective");
    if (!objective) return malformed(r->source, "the objective line is missing");
    GPL_CHECK(read_objective(r, objective));
    const long per = header_int(r, first_tree, "num_tree_per_iteration", 1, 1, 1000000);
    const long classes = header_int(r, first_tree, "num_class", 1, 1, 1000000);
    if (per < 0 || classes < 0)
        return malformed(r->source, "num_class or num_tree_per_iteration is not a count");
    if (m->objective == GPL_OBJ_SOFTMAX) {
        if (classes < 2 || per != classes)
            return malformed(r->source, "a multiclass model needs num_class >= 2 trees a round");
        m->num_class = m->num_outputs = (int32_t)classes;
    } else if (per != 1 || classes != 1) {
        return malformed(r->source, "a single-output objective with several trees a round");
    }
    if (m->objective == GPL_OBJ_QUANTILE) m->num_outputs = m->obj_params.num_quantiles;
    m->base_margin = 0.0f; /* folded into the first tree */
    m->base_score = gpl_objective_transform_one(m->objective, 0.0f);
    return read_feature_names(r, find_key(r, 0, first_tree, "feature_names"));
}

static gpulayer_status read_model(lgb_read *r)
{
    int64_t first = 0;
    while (first < r->num_lines && !value_of(r->lines[first], "Tree")) first++;
    GPL_CHECK(read_header(r, first));
    GPL_CHECK(gpl_import_init(&r->imp, r->m, r->source, "LightGBM"));
    const char *pandas = NULL;
    for (int64_t i = 0; i < r->num_lines; i++)
        if (!strncmp(r->lines[i], "pandas_categorical:", 19)) pandas = r->lines[i] + 19;
    GPL_CHECK(read_categories(r, find_key(r, 0, first, "feature_infos"), pandas));
    int32_t t = 0;
    for (int64_t i = first; i < r->num_lines;) {
        if (!strcmp(r->lines[i], "end of trees")) break;
        if (!value_of(r->lines[i], "Tree")) {
            i++;
            continue;
        }
        int64_t to = i + 1;
        while (to < r->num_lines && !value_of(r->lines[to], "Tree") &&
               strcmp(r->lines[to], "end of trees") != 0)
            to++;
        GPL_CHECK(read_tree(r, i + 1, to, t++));
        i = to;
    }
    if (r->m->num_trees % r->m->num_outputs != 0)
        return malformed(r->source, "the trees are not a whole number of rounds");
    const char *version = find_key(r, 0, first, "version");
    char what[64];
    snprintf(what, sizeof what, "LightGBM %.32s", version ? version : "");
    return gpl_import_set_record(r->m, what);
}

gpulayer_status gpl_model_import_lightgbm(const char *text, size_t len, const char *source,
                                          gpl_model **out)
{
    *out = NULL;
    char *copy = malloc(len + 1);
    lgb_read r = {source, gpl_model_new(), {0}, NULL, 0, 0};
    gpulayer_status st = copy && r.m ? GPULAYER_OK : oom();
    if (st == GPULAYER_OK) {
        memcpy(copy, text, len);
        copy[len] = '\0';
        if (strlen(copy) != len) st = malformed(source, "the text holds a NUL byte");
    }
    if (st == GPULAYER_OK) st = split_lines(&r, copy, len);
    if (st == GPULAYER_OK) st = read_model(&r);
    if (st == GPULAYER_OK) st = gpl_import_finish(&r.imp);
    gpl_import_free(&r.imp);
    free(r.lines);
    free(copy);
    if (st != GPULAYER_OK) {
        gpl_model_free(r.m);
        return st;
    }
    *out = r.m;
    return GPULAYER_OK;
}
