/* test_model_io.c -- model files: exact round trips, strict validation,
 * atomic writes, booster save/load, the XGBoost export, feature importance
 * and the objective transforms. */
#include "file_atomic.h"
#include "test_util.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "booster.h"
#include "json_num.h"
#include "model.h"

/* ------------------------------------------------------- hand-built models */

static const float cut_values[] = {
    -3.4e38f, 0.1f, 0.5f, 2.0f,            /* feature 0 */
    1e-45f, 1e-40f, 1.17549435e-38f,       /* feature 1: denormals */
    1.0f, 2.0f,                            /* feature 2: category codes */
};
static const uint32_t cut_ptr[] = {0, 4, 7, 9};

static gpl_tree_node leaf(float value, double cover)
{
    gpl_tree_node n = {-1, -1, -1, 0, 0, 0.0f, value, 0.0, cover, 0, {0}, NULL, 0};
    return n;
}

static gpl_tree_node split(int32_t left, int32_t right, int32_t feature,
                           int32_t bin, int32_t default_left, double gain,
                           double cover)
{
    gpl_tree_node n = {left, right, feature, bin, default_left,
                       cut_values[cut_ptr[feature] + (uint32_t)bin - 1], 0.0f,
                       gain, cover, 0, {0}, NULL, 0};
    return n;
}

static void add_tree(gpl_model *m, const gpl_tree_node *nodes, int32_t n)
{
    gpl_tree t = {n, malloc(sizeof(gpl_tree_node) * (size_t)n)};
    assert_non_null(t.nodes);
    memcpy(t.nodes, nodes, sizeof(gpl_tree_node) * (size_t)n);
    assert_int_equal(gpl_model_add_tree(m, &t), GPULAYER_OK);
    assert_null(t.nodes);
}

static void set_cuts(gpl_model *m)
{
    m->cuts.num_features = 3;
    m->cuts.cut_ptr = malloc(sizeof cut_ptr);
    m->cuts.values = malloc(sizeof cut_values);
    assert_non_null(m->cuts.cut_ptr);
    assert_non_null(m->cuts.values);
    memcpy(m->cuts.cut_ptr, cut_ptr, sizeof cut_ptr);
    memcpy(m->cuts.values, cut_values, sizeof cut_values);
}

static void set_names(gpl_model *m)
{
    m->feature_names = calloc(3, sizeof(char *));
    m->feature_names[0] = strdup("alpha");
    m->feature_names[2] = strdup("col \"quoted\"\n\ttab \xc3\xa9 \x01");
    m->categories = calloc(3, sizeof(gpl_category_dict *));
    gpl_category_dict *d = calloc(1, sizeof *d);
    d->count = 3;
    d->names = calloc(3, sizeof(char *));
    d->names[0] = strdup("blue");
    d->names[1] = strdup("green");
    d->names[2] = strdup("red");
    m->categories[2] = d;
}

/* Binary logistic, 3 features, 4 trees whose node numbering is not
 * breadth first, with denormal, signed-zero and extreme values. */
static gpl_model *logistic_model(void)
{
    gpl_model *m = gpl_model_new();
    assert_non_null(m);
    m->objective = GPL_OBJ_LOGISTIC;
    m->num_features = 3;
    m->base_score = 0.3f;
    m->base_margin = (float)log(0.3 / 0.7);
    m->best_round = 2;
    m->params_json = strdup("{\"eta\":0.3,\"max_depth\":6,\"eval_metric\":[\"auc\",\"logloss\"]}");
    set_cuts(m);
    set_names(m);
    const gpl_tree_node t0[] = {
        split(2, 1, 0, 2, 0, 0.1, 100.0), leaf(0.1f, 40.0),
        split(3, 4, 1, 1, 1, 1.0 / 3.0, 60.0), leaf(-0.0f, 1e-300), leaf(1e-40f, 59.5)};
    const gpl_tree_node t1[] = {leaf(0.25f, 100.0)};
    const gpl_tree_node t2[] = {
        split(1, 2, 2, 1, 1, 12345.678, 1e300), leaf(3.0e38f, 1.0), leaf(-1.5f, 2.0)};
    const gpl_tree_node t3[] = {
        split(4, 1, 0, 4, 0, 1e-300, 7.0), leaf(-0.3f, 3.0), leaf(7.0f, 1.0),
        leaf(1.0f / 3.0f, 2.0), split(2, 3, 0, 1, 1, 2.5, 4.0)};
    add_tree(m, t0, 5);
    add_tree(m, t1, 1);
    add_tree(m, t2, 3);
    add_tree(m, t3, 5);
    return m;
}

/* multi:softmax with 3 classes, 2 rounds; a +inf last cut and a -inf base
 * margin exercise the non-finite spellings. */
static gpl_model *softmax_model(void)
{
    gpl_model *m = gpl_model_new();
    m->objective = GPL_OBJ_SOFTMAX;
    m->softmax_output_class = 1;
    m->num_class = m->num_outputs = 3;
    m->num_features = 3;
    m->base_score = 0.5f;
    m->base_margin = 0.0f;
    m->base_margins = calloc(3, sizeof(float));
    assert_non_null(m->base_margins);
    m->base_margins[0] = 0.4f;
    m->base_margins[1] = -0.1f;
    m->base_margins[2] = -0.3f;
    set_cuts(m);
    m->cuts.values[8] = INFINITY;
    for (int t = 0; t < 6; t++) {
        const gpl_tree_node nodes[] = {split(1, 2, t % 3, 1, t & 1, t, 10.0),
                                       leaf(0.1f * (float)t, 4.0), leaf(-0.2f * (float)t, 6.0)};
        add_tree(m, nodes, 3);
    }
    return m;
}

/* ------------------------------------------------------------- comparison */

static int same_float(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }
static int same_double(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

static int same_string(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static int same_json(const char *a, const char *b)
{
    if (!a || !b) return !a && !b;
    cJSON *x = cJSON_Parse(a), *y = cJSON_Parse(b);
    int same = cJSON_Compare(x, y, 1);
    cJSON_Delete(x);
    cJSON_Delete(y);
    return same;
}

static void assert_same_node(const gpl_tree_node *a, const gpl_tree_node *b)
{
    assert_int_equal(a->left, b->left);
    assert_int_equal(a->right, b->right);
    assert_int_equal(a->feature, b->feature);
    assert_int_equal(a->split_bin, b->split_bin);
    assert_int_equal(a->default_left, b->default_left);
    assert_true(same_float(a->threshold, b->threshold));
    assert_true(same_float(a->leaf_value, b->leaf_value));
    assert_true(same_double(a->gain, b->gain));
    assert_true(same_double(a->cover, b->cover));
}

static void assert_same_names(const gpl_model *a, const gpl_model *b)
{
    for (int32_t f = 0; f < a->num_features; f++) {
        assert_true(same_string(a->feature_names ? a->feature_names[f] : NULL,
                                b->feature_names ? b->feature_names[f] : NULL));
        const gpl_category_dict *x = a->categories ? a->categories[f] : NULL;
        const gpl_category_dict *y = b->categories ? b->categories[f] : NULL;
        assert_int_equal(x != NULL, y != NULL);
        if (!x) continue;
        assert_int_equal(x->count, y->count);
        for (int32_t i = 0; i < x->count; i++) assert_string_equal(x->names[i], y->names[i]);
    }
}

static void assert_same_model(const gpl_model *a, const gpl_model *b)
{
    assert_int_equal(a->objective, b->objective);
    assert_int_equal(a->softmax_output_class, b->softmax_output_class);
    assert_int_equal(a->num_class, b->num_class);
    assert_int_equal(a->num_outputs, b->num_outputs);
    assert_int_equal(a->num_features, b->num_features);
    assert_int_equal(a->best_round, b->best_round);
    assert_true(same_float(a->base_score, b->base_score));
    assert_true(same_float(a->base_margin, b->base_margin));
    assert_int_equal(a->base_margins != NULL, b->base_margins != NULL);
    for (int32_t k = 0; a->base_margins && k < a->num_outputs; k++)
        assert_true(same_float(a->base_margins[k], b->base_margins[k]));
    assert_int_equal(a->cuts.num_features, b->cuts.num_features);
    for (int32_t f = 0; f <= a->num_features; f++)
        assert_int_equal(a->cuts.cut_ptr[f], b->cuts.cut_ptr[f]);
    for (uint32_t i = 0; i < a->cuts.cut_ptr[a->num_features]; i++)
        assert_true(same_float(a->cuts.values[i], b->cuts.values[i]));
    assert_same_names(a, b);
    assert_int_equal(a->num_trees, b->num_trees);
    for (int32_t t = 0; t < a->num_trees; t++) {
        assert_int_equal(a->trees[t].num_nodes, b->trees[t].num_nodes);
        for (int32_t i = 0; i < a->trees[t].num_nodes; i++)
            assert_same_node(&a->trees[t].nodes[i], &b->trees[t].nodes[i]);
    }
    assert_true(same_json(a->params_json, b->params_json));
}

static char *model_text(const gpl_model *m, size_t *len)
{
    char *text = NULL;
    assert_int_equal(gpl_model_to_json(m, &text, len), GPULAYER_OK);
    assert_non_null(text);
    assert_int_equal(strlen(text), *len);
    return text;
}

/* Loads text; on failure checks that the error is a model error naming the
 * source and returns the status. */
static gpulayer_status load(const char *text, size_t len, gpl_model **out)
{
    *out = NULL;
    gpulayer_status st = gpl_model_from_json(text, len, "probe.json", out);
    if (st != GPULAYER_OK) {
        assert_int_equal(st, GPULAYER_ERR_MODEL);
        assert_null(*out);
        assert_non_null(strstr(gpulayer_last_error(), "probe.json"));
    }
    return st;
}

static void expect_error(const char *text, size_t len, const char *message)
{
    gpl_model *m = NULL;
    gpulayer_status st = load(text, len, &m);
    if (st == GPULAYER_OK) gpl_model_free(m);
    assert_int_equal(st, GPULAYER_ERR_MODEL);
    if (!strstr(gpulayer_last_error(), message))
        fail_msg("error '%s' does not contain '%s'", gpulayer_last_error(), message);
}

/* ------------------------------------------------------------ round trips */

static void test_round_trip_is_exact(void **state)
{
    (void)state;
    gpl_model *models[2] = {logistic_model(), softmax_model()};
    for (int k = 0; k < 2; k++) {
        size_t len = 0, len2 = 0;
        char *text = model_text(models[k], &len);
        gpl_model *back = NULL;
        assert_int_equal(load(text, len, &back), GPULAYER_OK);
        assert_same_model(models[k], back);
        /* Writing what was read gives the same bytes. */
        char *again = model_text(back, &len2);
        assert_int_equal(len, len2);
        assert_memory_equal(text, again, len);
        free(again);
        free(text);
        gpl_model_free(back);
        gpl_model_free(models[k]);
    }
}

static void test_float_text_reads_back_exactly(void **state)
{
    (void)state;
    uint64_t x = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint32_t bits = (uint32_t)x;
        float f;
        memcpy(&f, &bits, sizeof f);
        if (!isfinite(f)) continue;
        char text[GPL_NUM_TEXT_SIZE];
        gpl_format_float(f, text);
        assert_true(same_float(strtof(text, NULL), f));
        assert_true(same_float((float)gpl_float_as_decimal(f), f));
        double d;
        memcpy(&d, &x, sizeof d);
        if (!isfinite(d)) continue;
        gpl_format_double(d, text);
        assert_true(same_double(strtod(text, NULL), d));
    }
    char text[GPL_NUM_TEXT_SIZE];
    gpl_format_float(0.1f, text);
    assert_string_equal(text, "0.1");
    gpl_format_float(-0.0f, text);
    assert_string_equal(text, "-0");
    gpl_format_double(1e15, text);
    assert_true(strtod(text, NULL) == 1e15);
    gpl_format_double(123456.0, text);
    assert_string_equal(text, "123456");
}

/* cJSON, which reads the files, must give back the very doubles written. */
static void test_cjson_reads_written_numbers_exactly(void **state)
{
    (void)state;
    const float floats[] = {0.1f, -3.4e38f, 3.4028235e38f, 1e-45f, 1e-40f,
                            1.17549435e-38f, 1.0f / 3.0f, -0.0f, 16777217.0f};
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++) {
        char text[GPL_NUM_TEXT_SIZE];
        gpl_format_float(floats[i], text);
        cJSON *v = cJSON_Parse(text);
        assert_non_null(v);
        assert_true(same_float((float)v->valuedouble, floats[i]));
        cJSON_Delete(v);
    }
}

static void test_whitespace_changes_are_harmless(void **state)
{
    (void)state;
    gpl_model *m = logistic_model();
    size_t len = 0;
    char *text = model_text(m, &len);
    /* Indent every line further: whitespace between tokens only, since
     * strings hold their newlines escaped. */
    char *wide = malloc(len * 4 + 1);
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        wide[n++] = text[i];
        if (text[i] == '\n') n += (size_t)sprintf(wide + n, " \t ");
    }
    gpl_model *back = NULL;
    assert_int_equal(load(wide, n, &back), GPULAYER_OK);
    assert_same_model(m, back);
    gpl_model_free(back);
    /* A NUL counted in the length (a C string with its terminator) too. */
    assert_int_equal(load(text, len + 1, &back), GPULAYER_OK);
    gpl_model_free(back);
    free(wide);
    free(text);
    gpl_model_free(m);
}

/* ------------------------------------------------------ damaged documents */

static void test_truncated_files_are_refused(void **state)
{
    (void)state;
    gpl_model *m = logistic_model();
    size_t len = 0;
    char *text = model_text(m, &len);
    const size_t cuts[] = {1, 2, 10, 100, len / 3, len / 2, len - 40, len - 2};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++)
        expect_error(text, cuts[i], "truncated or malformed JSON at byte");
    expect_error(text, 0, "empty");
    free(text);
    gpl_model_free(m);
}

/* Nesting past cJSON's limit was reported as truncated or malformed. */
static void test_deep_nesting_is_named(void **state)
{
    (void)state;
    size_t n = 1200, len = 0;
    char *text = malloc(2 * n + 16);
    assert_non_null(text);
    len += (size_t)sprintf(text, "{\"a\":\"[{\",\"b\":");
    memset(text + len, '[', n);
    memset(text + len + n, ']', n);
    len += 2 * n;
    text[len++] = '}';
    expect_error(text, len, "nested more than 1000 deep at byte 1013, past the nesting "
                            "depth limit");
    free(text);
}

static void test_flipped_bytes_are_detected(void **state)
{
    (void)state;
    gpl_model *m = logistic_model();
    size_t len = 0;
    char *text = model_text(m, &len);
    char *copy = malloc(len);
    int refused = 0, harmless = 0;
    for (size_t i = 0; i < len; i++) {
        memcpy(copy, text, len);
        copy[i] ^= (char)(1u << (i % 7));
        gpl_model *back = NULL;
        if (load(copy, len, &back) == GPULAYER_OK) {
            /* Only changes without meaning may pass (whitespace into other
             * whitespace, 'e' into 'E'). */
            assert_same_model(m, back);
            gpl_model_free(back);
            harmless++;
        } else {
            refused++;
        }
    }
    assert_true(refused > (int)len * 9 / 10);
    assert_true(harmless >= 1);
    free(copy);
    free(text);
    gpl_model_free(m);
}

static void test_checksum(void **state)
{
    (void)state;
    gpl_model *m = logistic_model();
    size_t len = 0;
    char *text = model_text(m, &len);
    char *edit = strdup(text);
    char *at = strstr(edit, "\"best_round\":2");
    assert_non_null(at);
    at[strlen("\"best_round\":")] = '1';
    expect_error(edit, len, "model file is damaged: checksum mismatch");

    strcpy(edit, text);
    at = strstr(edit, "\"checksum\":\"") + strlen("\"checksum\":\"");
    at[0] = at[0] == '0' ? '1' : '0';
    expect_error(edit, len, "checksum mismatch");
    memcpy(at, "xyz\"     ", 9);
    expect_error(edit, len, "\"checksum\" must be 8 hex digits");

    strcpy(edit, text);
    at = strstr(edit, ",\n  \"checksum\"");
    assert_non_null(at);
    strcpy(at, "\n}\n");
    expect_error(edit, strlen(edit), "missing field \"checksum\"");
    free(edit);
    free(text);
    gpl_model_free(m);
}

static void test_foreign_documents_are_refused(void **state)
{
    (void)state;
    const char *xgb = "{\"learner\":{\"attributes\":{}},\"version\":[2,1,0]}";
    expect_error(xgb, strlen(xgb), "not a gpulayer model");
    expect_error(xgb, strlen(xgb), "XGBoost");
    expect_error("{}", 2, "not a gpulayer model: no \"format\" field");
    expect_error("[1,2]", 5, "not a gpulayer model");
    const char *lgbm = "{\"format\":\"lightgbm\"}";
    expect_error(lgbm, strlen(lgbm), "not a gpulayer model");
    const char *v2 = "{\"format\":\"gpulayer-model\",\"version\":2}";
    expect_error(v2, strlen(v2), "unsupported model version 2");
    const char *nov = "{\"format\":\"gpulayer-model\"}";
    expect_error(nov, strlen(nov), "missing field \"version\"");
    const char *junk = "{\"format\":\"gpulayer-model\",\"version\":1} trailing";
    expect_error(junk, strlen(junk), "unexpected data after the JSON document");
    expect_error("{\"format\":", 10, "truncated or malformed JSON at byte");
}

/* ------------------------------------------- field errors (re-checksummed) */

typedef void (*mutation)(cJSON *doc);

static cJSON *tree_array(cJSON *doc, int t, const char *field)
{
    cJSON *tree = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "trees"), t);
    return cJSON_GetObjectItem(tree, field);
}

static void set_node(cJSON *doc, int t, const char *field, int i, cJSON *v)
{
    assert_true(cJSON_ReplaceItemInArray(tree_array(doc, t, field), i, v));
}

static void set_member(cJSON *doc, const char *key, cJSON *v)
{
    assert_true(cJSON_ReplaceItemInObject(doc, key, v));
}

static void drop_num_features(cJSON *d) { cJSON_DeleteItemFromObject(d, "num_features"); }
static void drop_cuts(cJSON *d) { cJSON_DeleteItemFromObject(d, "cuts"); }
static void string_num_class(cJSON *d) { set_member(d, "num_class", cJSON_CreateString("1")); }
static void bad_objective(cJSON *d) { set_member(d, "objective", cJSON_CreateString("survival:aft")); }
static void two_outputs(cJSON *d) { set_member(d, "num_outputs", cJSON_CreateNumber(2)); }
static void late_best_round(cJSON *d) { set_member(d, "best_round", cJSON_CreateNumber(10)); }
static void short_right(cJSON *d) { cJSON_DeleteItemFromArray(tree_array(d, 0, "right"), 4); }
static void child_out_of_range(cJSON *d) { set_node(d, 0, "left", 0, cJSON_CreateNumber(99)); }
static void bad_feature(cJSON *d) { set_node(d, 0, "feature", 0, cJSON_CreateNumber(7)); }
static void bad_split_bin(cJSON *d) { set_node(d, 0, "split_bin", 0, cJSON_CreateNumber(9)); }
static void bad_threshold(cJSON *d) { set_node(d, 0, "threshold", 0, cJSON_CreateNumber(0.2)); }
static void bad_default(cJSON *d) { set_node(d, 0, "default_left", 0, cJSON_CreateNumber(2)); }
static void fractional_child(cJSON *d) { set_node(d, 0, "left", 2, cJSON_CreateNumber(2.5)); }
static void huge_threshold(cJSON *d) { set_node(d, 0, "threshold", 0, cJSON_CreateNumber(1e39)); }
static void text_gain(cJSON *d) { set_node(d, 0, "gain", 0, cJSON_CreateString("big")); }
static void nan_leaf(cJSON *d) { set_node(d, 1, "leaf_value", 0, cJSON_CreateString("nan")); }
static void tree_not_object(cJSON *d)
{
    assert_true(cJSON_ReplaceItemInArray(cJSON_GetObjectItem(d, "trees"), 1,
                                         cJSON_CreateString("x")));
}
static void short_names(cJSON *d)
{
    cJSON_DeleteItemFromArray(cJSON_GetObjectItem(d, "feature_names"), 0);
}
static void unsorted_categories(cJSON *d)
{
    const char *names[] = {"red", "blue"};
    assert_true(cJSON_ReplaceItemInArray(cJSON_GetObjectItem(d, "categories"), 2,
                                         cJSON_CreateStringArray(names, 2)));
}
static void cut_ptr_not_monotone(cJSON *d)
{
    cJSON *ptr = cJSON_GetObjectItem(cJSON_GetObjectItem(d, "cuts"), "cut_ptr");
    assert_true(cJSON_ReplaceItemInArray(ptr, 1, cJSON_CreateNumber(8)));
}
static void cuts_not_ascending(cJSON *d)
{
    cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(d, "cuts"), "values");
    assert_true(cJSON_ReplaceItemInArray(v, 2, cJSON_CreateNumber(0.05)));
}
/* The last feature gets GPL_MAX_CUTS + 1 thresholds: one more than 16-bit
 * bin codes have room for. */
static void too_many_cuts(cJSON *d)
{
    cJSON *cuts = cJSON_GetObjectItem(d, "cuts");
    cJSON *ptr = cJSON_GetObjectItem(cuts, "cut_ptr"), *v = cJSON_GetObjectItem(cuts, "values");
    int last = cJSON_GetArraySize(ptr) - 1;
    int first = (int)cJSON_GetArrayItem(ptr, last - 1)->valuedouble;
    int have = (int)cJSON_GetArrayItem(ptr, last)->valuedouble - first;
    double top = have ? cJSON_GetArrayItem(v, first + have - 1)->valuedouble : 0.0;
    for (int i = have; i < GPL_MAX_CUTS + 1; i++)
        cJSON_AddItemToArray(v, cJSON_CreateNumber(top + i + 1));
    assert_true(cJSON_ReplaceItemInArray(ptr, last, cJSON_CreateNumber(first + GPL_MAX_CUTS + 1)));
}
/* Node 1 (a leaf) becomes a split onto node 2's children. */
static void shared_children(cJSON *d)
{
    set_node(d, 0, "left", 1, cJSON_CreateNumber(3));
    set_node(d, 0, "right", 1, cJSON_CreateNumber(4));
    set_node(d, 0, "feature", 1, cJSON_CreateNumber(0));
    set_node(d, 0, "split_bin", 1, cJSON_CreateNumber(1));
    set_node(d, 0, "threshold", 1, cJSON_CreateNumber(-3.4e38f));
}
static void drop_last_tree(cJSON *d) { cJSON_DeleteItemFromArray(cJSON_GetObjectItem(d, "trees"), 5); }
/* Loaded before, and then every prediction was inf. */
static void infinite_margin(cJSON *d) { set_member(d, "base_margin", cJSON_CreateString("inf")); }
static void short_base_margins(cJSON *d)
{
    cJSON_DeleteItemFromArray(cJSON_GetObjectItem(d, "base_margins"), 2);
}
static void nan_base_margin(cJSON *d)
{
    cJSON_ReplaceItemInArray(cJSON_GetObjectItem(d, "base_margins"), 1, cJSON_CreateString("nan"));
}

typedef struct field_case {
    mutation mutate;
    int softmax; /* mutate the softmax model instead */
    const char *message;
} field_case;

static const field_case field_cases[] = {
    {drop_num_features, 0, "missing field \"num_features\""},
    {drop_cuts, 0, "missing field \"cuts\""},
    {string_num_class, 0, "field \"num_class\" must be an integer, not a string"},
    {bad_objective, 0, "field \"objective\": unknown objective 'survival:aft'"},
    {two_outputs, 0, "num_outputs is 2"},
    {late_best_round, 0, "best_round 10 is outside the 4 rounds"},
    {short_right, 0, "field \"trees[0].right\" has 4 entries, expected 5"},
    {child_out_of_range, 0, "trees[0] node 0 has children 99 and 1"},
    {bad_feature, 0, "trees[0] node 0 splits on feature 7"},
    {bad_split_bin, 0, "trees[0] node 0 has split_bin 9 but feature 0 has 4 thresholds"},
    {bad_threshold, 0, "trees[0] node 0 has threshold 0.200000003"},
    {bad_default, 0, "default_left 2"},
    {fractional_child, 0, "field \"trees[0].left[2]\" is 2.5, expected an integer"},
    {huge_threshold, 0, "outside the range of a float"},
    {text_gain, 0, "field \"trees[0].gain[0]\" must be a number"},
    {nan_leaf, 0, "trees[1] node 0 has leaf value nan"},
    {tree_not_object, 0, "field \"trees[1]\" must be an object, not a string"},
    {short_names, 0, "field \"feature_names\" has 2 entries, expected 3"},
    {unsorted_categories, 0, "categories[2] is not sorted"},
    {cut_ptr_not_monotone, 0, "cuts.cut_ptr is not monotone"},
    {cuts_not_ascending, 0, "thresholds of feature 0 are not ascending"},
    {too_many_cuts, 0, "has 65535 thresholds; at most 65534"},
    {shared_children, 0, "has more than one parent"},
    {drop_last_tree, 1, "5 trees is not a whole number of rounds of 3 trees"},
    {infinite_margin, 0, "field \"base_margin\": must be a finite number, got inf"},
    {short_base_margins, 1, "field \"base_margins\" has 2 entries, expected 3 (num_outputs)"},
    {nan_base_margin, 1, "field \"base_margins[1]\": must be a finite number, got nan"},
};

static void test_field_errors_name_the_field(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof field_cases / sizeof field_cases[0]; k++) {
        gpl_model *m = field_cases[k].softmax ? softmax_model() : logistic_model();
        size_t len = 0, sealed_len = 0;
        char *text = model_text(m, &len);
        cJSON *doc = cJSON_Parse(text);
        field_cases[k].mutate(doc);
        char *edited = cJSON_PrintUnformatted(doc);
        char *sealed = NULL;
        assert_int_equal(gpl_model_json_reseal(edited, strlen(edited), &sealed, &sealed_len),
                         GPULAYER_OK);
        expect_error(sealed, sealed_len, field_cases[k].message);
        free(sealed);
        cJSON_free(edited);
        cJSON_Delete(doc);
        free(text);
        gpl_model_free(m);
    }
}

/* ------------------------------------------- structure errors (in memory) */

static void expect_invalid(gpl_model *m, const char *message)
{
    assert_int_equal(gpl_model_validate(m, "mem"), GPULAYER_ERR_MODEL);
    if (!strstr(gpulayer_last_error(), message))
        fail_msg("error '%s' does not contain '%s'", gpulayer_last_error(), message);
    /* Saving refuses it too, rather than writing an unreadable file. */
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(gpl_model_to_json(m, &text, &len), GPULAYER_ERR_MODEL);
    assert_non_null(strstr(gpulayer_last_error(), "refusing to write"));
    assert_null(text);
    gpl_model_free(m);
}

static void test_structure_errors(void **state)
{
    (void)state;
    /* 0 -> (1, 2); 3 <-> 4 form a cycle of their own. */
    gpl_model *m = logistic_model();
    const gpl_tree_node cycle[] = {split(1, 2, 0, 1, 0, 1, 1), leaf(1, 1), leaf(2, 1),
                                   split(4, 5, 0, 1, 0, 1, 1), split(3, 6, 0, 1, 0, 1, 1),
                                   leaf(3, 1), leaf(4, 1)};
    add_tree(m, cycle, 7);
    expect_invalid(m, "trees[4]: node 3 cannot be reached from the root");

    m = logistic_model();
    m->trees[0].nodes[1].right = 3;
    expect_invalid(m, "trees[0] node 1 has a right child (3) but no left child");

    m = logistic_model();
    m->trees[0].nodes[1].feature = 1;
    expect_invalid(m, "trees[0] node 1 is a leaf but has feature 1");

    m = logistic_model();
    m->trees[0].nodes[0].right = m->trees[0].nodes[0].left;
    expect_invalid(m, "or equal");

    m = logistic_model();
    gpl_bin_cuts_free(&m->cuts);
    expect_invalid(m, "bin cuts are missing");

    m = logistic_model();
    m->num_class = 3;
    expect_invalid(m, "num_class is 3 but binary:logistic has one output");

    m = softmax_model();
    m->num_class = 1;
    expect_invalid(m, "needs num_class >= 2");
}

/* ----------------------------------------------------------- atomic write */

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    if (d) closedir(d);
    return n;
}

static const char *fresh_dir(const char *name)
{
    static char path[16][512];
    static int slot;
    char *p = path[slot++ % 16];
    snprintf(p, 512, "%s/%s", gpl_test_tmpdir(), name);
    assert_int_equal(mkdir(p, 0700), 0);
    return p;
}

static void test_atomic_write_replaces_and_keeps_mode(void **state)
{
    (void)state;
    const char *dir = fresh_dir("atomic-ok");
    char path[600];
    snprintf(path, sizeof path, "%s/model.json", dir);
    mode_t old_mask = umask(022);
    assert_int_equal(gpl_write_file_atomic(path, "first", 5), GPULAYER_OK);
    umask(old_mask);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0644);
    assert_string_equal(read_text(path), "first");
    assert_int_equal(chmod(path, 0600), 0);
    assert_int_equal(gpl_write_file_atomic(path, "second", 6), GPULAYER_OK);
    assert_string_equal(read_text(path), "second");
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(count_entries(dir), 1);
}

static void test_atomic_write_failures_keep_old_file(void **state)
{
    (void)state;
    const char *dir = fresh_dir("atomic-fail");
    char path[600], missing[600];
    snprintf(path, sizeof path, "%s/model.json", dir);
    snprintf(missing, sizeof missing, "%s/no/such/dir/model.json", dir);
    assert_int_equal(gpl_write_file_atomic(path, "old", 3), GPULAYER_OK);

    assert_int_equal(gpl_write_file_atomic(missing, "x", 1), GPULAYER_ERR_IO);
    assert_non_null(strstr(gpulayer_last_error(), missing));
    assert_non_null(strstr(gpulayer_last_error(), strerror(ENOENT)));

    /* Writing fails part way: the file size limit (which binds root too). */
    static char big[1 << 15];
    memset(big, 'x', sizeof big);
    struct rlimit saved, small;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
    small = saved;
    small.rlim_cur = 1024;
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
    gpulayer_status st = gpl_write_file_atomic(path, big, sizeof big);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
    signal(SIGXFSZ, old_handler);
    assert_int_equal(st, GPULAYER_ERR_IO);
    assert_non_null(strstr(gpulayer_last_error(), path));
    assert_non_null(strstr(gpulayer_last_error(), strerror(EFBIG)));
    assert_string_equal(read_text(path), "old");
    assert_int_equal(count_entries(dir), 1);

    /* The target is a directory: the rename fails. */
    char sub[640];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    assert_int_equal(gpl_write_file_atomic(sub, "x", 1), GPULAYER_ERR_IO);
    assert_non_null(strstr(gpulayer_last_error(), sub));
    struct stat sb;
    assert_int_equal(stat(sub, &sb), 0);
    assert_true(S_ISDIR(sb.st_mode));
    assert_int_equal(count_entries(dir), 2);

    /* A directory without write permission (root ignores permissions). */
    if (geteuid() != 0) {
        assert_int_equal(chmod(dir, 0500), 0);
        assert_int_equal(gpl_write_file_atomic(path, "new", 3), GPULAYER_ERR_IO);
        assert_non_null(strstr(gpulayer_last_error(), strerror(EACCES)));
        assert_int_equal(chmod(dir, 0700), 0);
        assert_string_equal(read_text(path), "old");
        assert_int_equal(count_entries(dir), 2);
    }
}

static int kill_when_written(const char *stage)
{
    if (!strcmp(stage, "written")) raise(SIGKILL);
    return 0;
}

static int named_route(const char *stage) { return !strcmp(stage, "tmpfile"); }

/* A save killed part way left a hidden temp file next to the target. */
static void test_atomic_write_killed_leaves_nothing(void **state)
{
    (void)state;
    const char *dir = fresh_dir("atomic-kill");
    char path[600];
    snprintf(path, sizeof path, "%s/model.json", dir);
    assert_int_equal(gpl_write_file_atomic(path, "old", 3), GPULAYER_OK);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        gpl_file_atomic_set_test_hook(kill_when_written);
        gpl_write_file_atomic(path, "new", 3);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    assert_string_equal(read_text(path), "old");
    assert_int_equal(count_entries(dir), 1);
    /* Where O_TMPFILE is missing, the named temp file still works. */
    gpl_file_atomic_set_test_hook(named_route);
    assert_int_equal(gpl_write_file_atomic(path, "named", 5), GPULAYER_OK);
    gpl_file_atomic_set_test_hook(NULL);
    assert_string_equal(read_text(path), "named");
    assert_int_equal(count_entries(dir), 1);
}

/* ------------------------------------------------------------- boosters */

static gpulayer_booster *booster_with(gpl_model *m)
{
    gpulayer_booster *b = NULL;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    b->model = m;
    return b;
}

static void test_booster_save_and_load(void **state)
{
    (void)state;
    gpl_model *m = logistic_model();
    gpulayer_booster *b = booster_with(m);
    char path[600];
    snprintf(path, sizeof path, "%s/booster.json", gpl_test_tmpdir());
    assert_int_equal(gpulayer_booster_save(b, path), GPULAYER_OK);
    gpulayer_booster *loaded = NULL;
    assert_int_equal(gpulayer_booster_load(path, &loaded), GPULAYER_OK);
    assert_same_model(m, loaded->model);
    assert_int_equal(gpulayer_booster_num_features(loaded), 3);
    assert_string_equal(gpulayer_booster_feature_name(loaded, 0), "alpha");
    assert_null(gpulayer_booster_feature_name(loaded, 1));
    assert_null(gpulayer_booster_feature_name(loaded, 3));
    gpulayer_booster_free(loaded);

    char *buf = NULL;
    size_t len = 0;
    assert_int_equal(gpulayer_booster_save_to_buffer(b, &buf, &len), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_load_from_buffer(buf, len, &loaded), GPULAYER_OK);
    assert_same_model(m, loaded->model);
    gpulayer_booster_free(loaded);
    assert_int_equal(gpulayer_booster_load_from_buffer(buf, len / 2, &loaded),
                     GPULAYER_ERR_MODEL);
    assert_null(loaded);
    gpulayer_free_buffer(buf);
    gpulayer_booster_free(b);
}

/* Names and categories in another encoding than UTF-8 made a model file
 * that JSON readers refuse; the writer names the feature instead. */
static void test_non_utf8_text_is_refused(void **state)
{
    (void)state;
    gpl_model *m = logistic_model();
    free(m->feature_names[0]);
    m->feature_names[0] = strdup("caf\xe9");
    gpulayer_booster *b = booster_with(m);
    char path[600];
    snprintf(path, sizeof path, "%s/latin1.json", gpl_test_tmpdir());
    assert_int_equal(gpulayer_booster_save(b, path), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "the name 'caf\\xE9' of feature 0"));
    assert_non_null(strstr(gpulayer_last_error(), "not valid UTF-8"));
    assert_int_equal(access(path, F_OK), -1);
    free(m->feature_names[0]);
    m->feature_names[0] = strdup("alpha");
    char *bad = m->categories[2]->names[2];
    m->categories[2]->names[2] = strdup("\xed\xa0\x80"); /* a surrogate */
    assert_int_equal(gpulayer_booster_save(b, path), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "the category '\\xED\\xA0\\x80' of "
                                                  "feature 2"));
    free(m->categories[2]->names[2]);
    m->categories[2]->names[2] = bad;
    assert_int_equal(gpulayer_booster_save(b, path), GPULAYER_OK);
    gpulayer_booster_free(b);
}

/* The loader took bytes that are not UTF-8 into names and categories (the
 * checksum matched), and such a model then refused to be saved. */
static void test_non_utf8_model_text_is_refused(void **state)
{
    (void)state;
    gpl_model *m = logistic_model();
    size_t len = 0, sealed_len = 0;
    char *text = NULL; /* not model_text(): gcc 12 then warns of a dangling pointer */
    assert_int_equal(gpl_model_to_json(m, &text, &len), GPULAYER_OK);
    const char *green = strstr(text, "\"green\"");
    assert_non_null(green);
    size_t at = (size_t)(green - text) + 3;
    text[at] = (char)0xff;
    char *sealed = NULL;
    assert_int_equal(gpl_model_json_reseal(text, len, &sealed, &sealed_len), GPULAYER_OK);
    gpulayer_booster *b = NULL;
    assert_int_equal(gpulayer_booster_load_from_buffer(sealed, sealed_len, &b),
                     GPULAYER_ERR_MODEL);
    assert_null(b);
    assert_non_null(strstr(gpulayer_last_error(), "not valid UTF-8 text at line"));
    free(sealed);
    free(text);
    gpl_model_free(m);
}

static void test_booster_errors(void **state)
{
    (void)state;
    gpulayer_booster *b = NULL;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    char path[600];
    snprintf(path, sizeof path, "%s/never.json", gpl_test_tmpdir());
    assert_int_equal(gpulayer_booster_save(b, path), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "no model"));
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(gpulayer_booster_export_xgboost(b, path), GPULAYER_ERR_INVALID_ARGUMENT);
    double imp[3];
    assert_int_equal(gpulayer_booster_feature_importance(b, GPULAYER_IMPORTANCE_GAIN, imp, 3),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    gpulayer_booster_free(b);

    gpulayer_booster *loaded = NULL;
    assert_int_equal(gpulayer_booster_load(path, &loaded), GPULAYER_ERR_IO);
    assert_non_null(strstr(gpulayer_last_error(), path));
    assert_non_null(strstr(gpulayer_last_error(), strerror(ENOENT)));
    assert_null(loaded);

    const char *damaged = gpl_test_write_file("damaged.json", "{\"format\":\"gpulayer-model\"");
    assert_int_equal(gpulayer_booster_load(damaged, &loaded), GPULAYER_ERR_MODEL);
    assert_non_null(strstr(gpulayer_last_error(), damaged));
    assert_non_null(strstr(gpulayer_last_error(), "truncated or malformed JSON at byte"));
}

/* ---------------------------------------------------------------- export */

/* Our tree's leaf for x, following thresholds. */
static float our_leaf(const gpl_tree *t, const float *x)
{
    int32_t i = 0;
    while (t->nodes[i].left >= 0) {
        const gpl_tree_node *n = &t->nodes[i];
        float v = x[n->feature];
        int left = isnan(v) ? n->default_left : v < n->threshold;
        i = left ? n->left : n->right;
    }
    return t->nodes[i].leaf_value;
}

static int json_int(const cJSON *array, int i)
{
    return (int)cJSON_GetArrayItem(array, i)->valuedouble;
}

/* Whether XGBoost's categorical split at node sends code v right: the
 * node's codes in "categories" list those that go right. */
static int xgb_code_goes_right(const cJSON *tree, int node, float v)
{
    const cJSON *nodes = cJSON_GetObjectItem(tree, "categories_nodes");
    for (int j = 0; j < cJSON_GetArraySize(nodes); j++) {
        if (json_int(nodes, j) != node) continue;
        const int at = json_int(cJSON_GetObjectItem(tree, "categories_segments"), j);
        const int size = json_int(cJSON_GetObjectItem(tree, "categories_sizes"), j);
        for (int k = at; k < at + size; k++)
            if (json_int(cJSON_GetObjectItem(tree, "categories"), k) == (int)v) return 1;
        return 0;
    }
    fail_msg("node %d has split_type 1 but no categories", node);
    return 0;
}

/* XGBoost's walk: the right child is the left child + 1; a categorical
 * split (split_type 1) sends the codes it lists right. */
static float xgb_leaf(const cJSON *tree, const float *x)
{
    const cJSON *left = cJSON_GetObjectItem(tree, "left_children");
    const cJSON *right = cJSON_GetObjectItem(tree, "right_children");
    const cJSON *feature = cJSON_GetObjectItem(tree, "split_indices");
    const cJSON *cond = cJSON_GetObjectItem(tree, "split_conditions");
    const cJSON *dleft = cJSON_GetObjectItem(tree, "default_left");
    const cJSON *type = cJSON_GetObjectItem(tree, "split_type");
    int i = 0;
    while (json_int(left, i) != -1) {
        assert_int_equal(json_int(right, i), json_int(left, i) + 1);
        float v = x[json_int(feature, i)];
        float c = (float)cJSON_GetArrayItem(cond, i)->valuedouble;
        int go_left = isnan(v)               ? json_int(dleft, i)
                      : json_int(type, i) == 1 ? !xgb_code_goes_right(tree, i, v)
                                               : v < c;
        i = json_int(left, i) + !go_left;
    }
    return (float)cJSON_GetArrayItem(cond, i)->valuedouble;
}

/* XGBoost refuses an integer where it expects a float ("Invalid cast, from
 * Integer to Number"): every element of the float arrays needs a '.' or an
 * exponent. */
static void assert_floats_spelt_as_floats(const char *text)
{
    const char *keys[] = {"\"base_weights\":[", "\"split_conditions\":[",
                          "\"loss_changes\":[", "\"sum_hessian\":["};
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
        for (const char *at = strstr(text, keys[k]); at; at = strstr(at, keys[k])) {
            at += strlen(keys[k]);
            while (*at != ']') {
                size_t n = strcspn(at, ",]");
                int dotted = 0;
                for (size_t i = 0; i < n; i++) dotted |= at[i] == '.' || at[i] == 'e';
                if (!dotted) fail_msg("%s holds '%.*s'", keys[k], (int)n, at);
                at += n;
                if (*at == ',') at++;
            }
        }
}

static void test_export_matches_trees(void **state)
{
    (void)state;
    gpl_model *m = logistic_model();
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(gpl_model_export_xgboost(m, &text, &len), GPULAYER_OK);
    assert_non_null(strstr(text, "\"loss_changes\":[0.1,"));
    assert_floats_spelt_as_floats(text);
    cJSON *doc = cJSON_Parse(text);
    assert_non_null(doc);
    const cJSON *learner = cJSON_GetObjectItem(doc, "learner");
    const cJSON *param = cJSON_GetObjectItem(learner, "learner_model_param");
    assert_string_equal(cJSON_GetObjectItem(param, "num_class")->valuestring, "0");
    assert_string_equal(cJSON_GetObjectItem(param, "num_feature")->valuestring, "3");
    float base = strtof(cJSON_GetObjectItem(param, "base_score")->valuestring, NULL);
    assert_true(fabsf(base - 0.3f) < 1e-7f);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(learner, "attributes"),
                                            "best_iteration")->valuestring, "2");
    const cJSON *trees = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(learner, "gradient_booster"), "model"), "trees");
    assert_int_equal(cJSON_GetArraySize(trees), m->num_trees);
    /* Feature 2 is categorical: typed "c", its split on ordered codes a
     * categorical split. Feature 1 has no name, so none is written. */
    const cJSON *types = cJSON_GetObjectItem(learner, "feature_types");
    assert_int_equal(cJSON_GetArraySize(types), 3);
    assert_string_equal(cJSON_GetArrayItem(types, 0)->valuestring, "float");
    assert_string_equal(cJSON_GetArrayItem(types, 1)->valuestring, "float");
    assert_string_equal(cJSON_GetArrayItem(types, 2)->valuestring, "c");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(learner, "feature_names")), 0);
    /* Every cut, its neighbours and missing values, in every numeric
     * feature; missing values and each code of the categorical one. */
    const float probes[] = {NAN, -INFINITY, -3.4e38f, -3.39e38f, 0.0f, 1e-45f, 0.1f,
                            0.10000001f, 0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 1e-40f};
    const float codes[] = {NAN, 0.0f, 1.0f, 2.0f};
    const size_t np = sizeof probes / sizeof probes[0], nc = sizeof codes / sizeof codes[0];
    for (size_t a = 0; a < np; a++)
        for (size_t b = 0; b < np; b++)
            for (size_t c = 0; c < nc; c++) {
                const float x[3] = {probes[a], probes[b], codes[c]};
                for (int t = 0; t < m->num_trees; t++)
                    assert_true(same_float(our_leaf(&m->trees[t], x),
                                           xgb_leaf(cJSON_GetArrayItem(trees, t), x)));
            }
    cJSON_Delete(doc);
    free(text);
    gpl_model_free(m);
}

static void test_export_softmax(void **state)
{
    (void)state;
    gpl_model *m = softmax_model();
    char *text = NULL;
    size_t len = 0;
    /* The +inf cut is not used by any split, so the export succeeds. */
    assert_int_equal(gpl_model_export_xgboost(m, &text, &len), GPULAYER_OK);
    cJSON *doc = cJSON_Parse(text);
    const cJSON *learner = cJSON_GetObjectItem(doc, "learner");
    const cJSON *obj = cJSON_GetObjectItem(learner, "objective");
    assert_string_equal(cJSON_GetObjectItem(obj, "name")->valuestring, "multi:softmax");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(obj, "softmax_multiclass_param"),
                                            "num_class")->valuestring, "3");
    const cJSON *model = cJSON_GetObjectItem(cJSON_GetObjectItem(learner, "gradient_booster"),
                                             "model");
    const cJSON *info = cJSON_GetObjectItem(model, "tree_info");
    for (int t = 0; t < 6; t++) assert_int_equal(json_int(info, t), t % 3);
    const cJSON *indptr = cJSON_GetObjectItem(model, "iteration_indptr");
    assert_int_equal(cJSON_GetArraySize(indptr), 3);
    assert_int_equal(json_int(indptr, 2), 6);
    const cJSON *version = cJSON_GetObjectItem(doc, "version");
    assert_int_equal(json_int(version, 0), 2);
    cJSON_Delete(doc);
    free(text);
    gpl_model_free(m);
}

/* base_score of an exp-link export: the float XGBoost turns back into our
 * very margin with its logf where there is one (for |margin| >= 1 the
 * floats around exp(margin) are closer than those around the margin), and
 * the nearest otherwise; a margin whose exp a float cannot hold is refused
 * with the margin and the objective named. */
static void test_export_log_link_base_score(void **state)
{
    (void)state;
    const float margins[] = {5.3f, -3.7f, 0.1f, 9.21034f, -20.5f};
    for (size_t i = 0; i < sizeof margins / sizeof margins[0]; i++) {
        gpl_model *m = logistic_model();
        m->objective = GPL_OBJ_POISSON;
        m->base_margin = margins[i];
        char *text = NULL;
        size_t len = 0;
        assert_int_equal(gpl_model_export_xgboost(m, &text, &len), GPULAYER_OK);
        cJSON *doc = cJSON_Parse(text);
        const cJSON *learner = cJSON_GetObjectItem(doc, "learner");
        const cJSON *param = cJSON_GetObjectItem(learner, "learner_model_param");
        float score = strtof(cJSON_GetObjectItem(param, "base_score")->valuestring, NULL);
        if (fabsf(margins[i]) >= 1.0f) assert_true(logf(score) == margins[i]);
        else assert_true(fabsf(logf(score) - margins[i]) <= 1.2e-7f);
        const cJSON *obj = cJSON_GetObjectItem(learner, "objective");
        assert_string_equal(cJSON_GetObjectItem(obj, "name")->valuestring, "count:poisson");
        assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(obj, "poisson_regression_param"),
                                                "max_delta_step")->valuestring, "0.699999988");
        cJSON_Delete(doc);
        free(text);
        gpl_model_free(m);
    }
    gpl_model *m = logistic_model();
    m->objective = GPL_OBJ_GAMMA;
    m->base_margin = -120.0f;
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(gpl_model_export_xgboost(m, &text, &len), GPULAYER_ERR_UNSUPPORTED);
    assert_null(text);
    assert_non_null(strstr(gpulayer_last_error(), "base margin -120"));
    assert_non_null(strstr(gpulayer_last_error(), "reg:gamma"));
    gpl_model_free(m);
}

/* ------------------------------------------------------------ importance */

static void test_feature_importance(void **state)
{
    (void)state;
    gpulayer_booster *b = booster_with(logistic_model());
    /* Splits: f0 in t0 (gain 0.1, cover 100), t3 (1e-300, 7) and t3 (2.5, 4);
     * f1 in t0 (1/3, 60); f2 in t2 (12345.678, 1e300). */
    double out[3];
    assert_int_equal(gpulayer_booster_feature_importance(b, GPULAYER_IMPORTANCE_WEIGHT, out, 3),
                     GPULAYER_OK);
    assert_true(out[0] == 3.0 && out[1] == 1.0 && out[2] == 1.0);
    assert_int_equal(gpulayer_booster_feature_importance(b, GPULAYER_IMPORTANCE_TOTAL_GAIN, out, 3),
                     GPULAYER_OK);
    assert_true(fabs(out[0] - (0.1 + 1e-300 + 2.5)) < 1e-12);
    assert_true(fabs(out[1] - 1.0 / 3.0) < 1e-15);
    assert_int_equal(gpulayer_booster_feature_importance(b, GPULAYER_IMPORTANCE_GAIN, out, 3),
                     GPULAYER_OK);
    assert_true(fabs(out[0] - (0.1 + 2.5) / 3.0) < 1e-12);
    assert_true(out[2] == 12345.678);
    assert_int_equal(gpulayer_booster_feature_importance(b, GPULAYER_IMPORTANCE_COVER, out, 3),
                     GPULAYER_OK);
    assert_true(fabs(out[0] - 111.0 / 3.0) < 1e-12);
    assert_int_equal(gpulayer_booster_feature_importance(b, GPULAYER_IMPORTANCE_TOTAL_COVER, out, 3),
                     GPULAYER_OK);
    assert_true(out[0] == 111.0 && out[1] == 60.0 && out[2] == 1e300);
    assert_int_equal(gpulayer_booster_feature_importance(b, GPULAYER_IMPORTANCE_GAIN, out, 2),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "3 features"));
    gpulayer_booster_free(b);
}

/* ------------------------------------------------------------ objectives */

static void test_objective_names(void **state)
{
    (void)state;
    const char *names[] = {"reg:squarederror", "binary:logistic", "multi:softprob",
                           "multi:softmax", "reg:absoluteerror", "count:poisson",
                           "reg:gamma", "reg:tweedie", "reg:squaredlogerror",
                           "reg:pseudohubererror", "reg:quantileerror", "reg:logistic",
                           "binary:logitraw", "binary:hinge"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        gpl_model m = {0};
        int as_class = -1;
        assert_int_equal(gpl_objective_parse(names[i], &m.objective, &as_class), GPULAYER_OK);
        assert_int_equal(as_class, i == 3);
        m.softmax_output_class = as_class;
        assert_string_equal(gpl_objective_name(&m), names[i]);
    }
    gpl_objective_kind kind;
    assert_int_equal(gpl_objective_parse("binary:hinged", &kind, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "binary:hinged"));
    assert_non_null(strstr(gpulayer_last_error(), "count:poisson"));
}

static void test_objective_transform(void **state)
{
    (void)state;
    gpl_model m = {0};
    m.objective = GPL_OBJ_LOGISTIC;
    m.num_outputs = 1;
    float v[4] = {0.0f};
    gpl_objective_transform(&m, v);
    assert_true(v[0] == 0.5f);
    v[0] = 2.0f;
    gpl_objective_transform(&m, v);
    assert_true(fabs(v[0] - 1.0 / (1.0 + exp(-2.0))) < 1e-7);
    assert_int_equal(gpl_model_prediction_width(&m, 0), 1);

    m.objective = GPL_OBJ_SOFTMAX;
    m.num_outputs = m.num_class = 3;
    float big[3] = {1000.0f, 0.0f, -1000.0f};
    gpl_objective_transform(&m, big);
    assert_true(big[0] == 1.0f && big[1] == 0.0f && big[2] == 0.0f);
    float row[3] = {1.0f, 2.0f, 3.0f};
    gpl_objective_transform(&m, row);
    double sum = (double)row[0] + row[1] + row[2];
    assert_true(fabs(sum - 1.0) < 1e-6);
    assert_true(fabs(row[2] - exp(3.0) / (exp(1.0) + exp(2.0) + exp(3.0))) < 1e-7);
    assert_int_equal(gpl_model_prediction_width(&m, 0), 3);

    m.softmax_output_class = 1;
    float tie[3] = {0.5f, 2.0f, 2.0f};
    gpl_objective_transform(&m, tie);
    assert_true(tie[0] == 1.0f); /* the first of equal margins */
    assert_int_equal(gpl_model_prediction_width(&m, 0), 1);
    assert_int_equal(gpl_model_prediction_width(&m, 1), 3);

    m.objective = GPL_OBJ_SQUARED_ERROR;
    m.softmax_output_class = 0;
    m.num_outputs = 1;
    float same[1] = {-7.25f};
    gpl_objective_transform(&m, same);
    assert_true(same[0] == -7.25f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_is_exact),
        cmocka_unit_test(test_float_text_reads_back_exactly),
        cmocka_unit_test(test_cjson_reads_written_numbers_exactly),
        cmocka_unit_test(test_whitespace_changes_are_harmless),
        cmocka_unit_test(test_truncated_files_are_refused),
        cmocka_unit_test(test_flipped_bytes_are_detected),
        cmocka_unit_test(test_checksum),
        cmocka_unit_test(test_foreign_documents_are_refused),
        cmocka_unit_test(test_field_errors_name_the_field),
        cmocka_unit_test(test_structure_errors),
        cmocka_unit_test(test_atomic_write_replaces_and_keeps_mode),
        cmocka_unit_test(test_atomic_write_failures_keep_old_file),
        cmocka_unit_test(test_booster_save_and_load),
        cmocka_unit_test(test_non_utf8_text_is_refused),
        cmocka_unit_test(test_non_utf8_model_text_is_refused),
        cmocka_unit_test(test_deep_nesting_is_named),
        cmocka_unit_test(test_atomic_write_killed_leaves_nothing),
        cmocka_unit_test(test_booster_errors),
        cmocka_unit_test(test_export_matches_trees),
        cmocka_unit_test(test_export_softmax),
        cmocka_unit_test(test_export_log_link_base_score),
        cmocka_unit_test(test_feature_importance),
        cmocka_unit_test(test_objective_names),
        cmocka_unit_test(test_objective_transform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
