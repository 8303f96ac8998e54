/* test_model_import.c -- models of XGBoost and LightGBM read into GPUlayer:
 * each split's threshold mapped to a bin that sends exactly the values the
 * source library sends (at the threshold, a float either side, -0.0, the
 * infinities, NaN), categorical sets, the refusals with their reasons, and
 * the UBJSON decoder on damaged input. */
#include "test_util.h"

#include <cjson/cJSON.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binning.h"
#include "error.h"
#include "model.h"
#include "model_import.h"
#include "ubjson_read.h"

/* ------------------------------------------------------------ helpers */

/* Whether node n of the model sends value v left, by bins as prediction
 * does: bin 0 (NaN) by default_left, else bins 1..split_bin (numeric) or
 * the left set (categorical). */
static int goes_left(const gpl_model *m, const gpl_tree_node *n, float v)
{
    const uint32_t lo = m->cuts.cut_ptr[n->feature], hi = m->cuts.cut_ptr[n->feature + 1];
    const uint32_t bin = gpl_bin_of(m->cuts.values + lo, hi - lo, v);
    if (bin == 0) return n->default_left;
    if (n->categorical) return gpl_cat_set_has(n->left_set, bin);
    return bin <= (uint32_t)n->split_bin;
}

static char *xgb_doc(const char *trees, const char *tree_info, const char *objective,
                     const char *types)
{
    const char *fmt =
        "{\"learner\":{\"attributes\":{},\"feature_names\":[],\"feature_types\":%s,"
        "\"gradient_booster\":{\"model\":{\"gbtree_model_param\":{\"num_parallel_tree\":\"1\"},"
        "\"tree_info\":%s,\"trees\":[%s]},\"name\":\"gbtree\"},"
        "\"learner_model_param\":{\"base_score\":\"[5E-1]\",\"num_class\":\"0\","
        "\"num_feature\":\"2\",\"num_target\":\"1\"},"
        "\"objective\":{\"name\":\"%s\"}},\"version\":[3,2,0]}";
    size_t n = strlen(fmt) + strlen(trees) + strlen(tree_info) + strlen(objective) +
               strlen(types) + 1;
    char *s = malloc(n);
    snprintf(s, n, fmt, types, tree_info, trees, objective);
    return s;
}

/* One XGBoost tree of one split: feature f at cond, leaves -1 and 1. */
static void xgb_stump(char *buf, size_t size, int f, const char *cond, int default_left,
                      int split_type, const char *cats)
{
    snprintf(buf, size,
             "{\"base_weights\":[0.0,-1.0,1.0],\"categories\":[%s],"
             "\"categories_nodes\":[%s],\"categories_segments\":[%s],"
             "\"categories_sizes\":[%s],\"default_left\":[%d,0,0],\"id\":0,"
             "\"left_children\":[1,-1,-1],\"loss_changes\":[1.0,0.0,0.0],"
             "\"parents\":[2147483647,0,0],\"right_children\":[2,-1,-1],"
             "\"split_conditions\":[%s,-1.0,1.0],\"split_indices\":[%d,0,0],"
             "\"split_type\":[%d,0,0],\"sum_hessian\":[2.0,1.0,1.0],"
             "\"tree_param\":{\"num_deleted\":\"0\",\"num_feature\":\"2\","
             "\"num_nodes\":\"3\",\"size_leaf_vector\":\"1\"}}",
             cats, split_type ? "0" : "", split_type ? "0" : "",
             split_type ? (cats[0] ? "2" : "0") : "", default_left, cond, f, split_type);
}

static gpulayer_status load_text(const char *text, gpl_model **m)
{
    return gpl_model_load_buffer(text, strlen(text), "test-model", m);
}

/* ------------------------------------------------------- XGBoost numeric */

static void test_xgboost_thresholds_exact(void **state)
{
    (void)state;
    /* Conditions of several trees on feature 0 (one spelled -0.0, one the
     * largest float) and one on feature 1. */
    static const char *conds[] = {"0.5", "-0.0", "0.0", "1e-30", "-3.25", "3.4028235e38",
                                  "0.1"};
    const int count = (int)(sizeof conds / sizeof *conds);
    char trees[8192] = "", one[1024];
    for (int t = 0; t < count; t++) {
        xgb_stump(one, sizeof one, t == count - 1, conds[t], t % 2, 0, "");
        if (t) strcat(trees, ",");
        strcat(trees, one);
    }
    char *doc = xgb_doc(trees, "[0,0,0,0,0,0,0]", "reg:squarederror", "[]");
    gpl_model *m = NULL;
    assert_int_equal(load_text(doc, &m), GPULAYER_OK);
    free(doc);
    /* -0.0 and 0.0 are one cut. */
    assert_int_equal(m->cuts.cut_ptr[1], 5);
    assert_int_equal(m->cuts.cut_ptr[2] - m->cuts.cut_ptr[1], 1);
    for (int t = 0; t < count; t++) {
        const gpl_tree_node *n = &m->trees[t].nodes[0];
        const float c = strtof(conds[t], NULL);
        const float probes[] = {c, nextafterf(c, -INFINITY), nextafterf(c, INFINITY), -0.0f,
                                0.0f, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX, 1e-30f, 0.5f,
                                0.1f, NAN};
        for (size_t k = 0; k < sizeof probes / sizeof *probes; k++) {
            const float v = probes[k];
            const int want = isnan(v) ? t % 2 : v < c;
            if (goes_left(m, n, v) != want)
                fail_msg("tree %d (x < %s): value %.9g goes %s", t, conds[t], (double)v,
                         want ? "right, expected left" : "left, expected right");
        }
    }
    /* Leaves are the split_conditions of leaf nodes. */
    assert_true(m->trees[0].nodes[1].leaf_value == -1.0f);
    assert_true(m->base_margin == 0.5f);
    gpl_model_free(m);
}

static void test_xgboost_base_score_link(void **state)
{
    (void)state;
    char one[1024];
    xgb_stump(one, sizeof one, 0, "0.5", 0, 0, "");
    char *doc = xgb_doc(one, "[0]", "binary:logistic", "[]");
    gpl_model *m = NULL;
    assert_int_equal(load_text(doc, &m), GPULAYER_OK);
    free(doc);
    assert_true(m->base_margin == 0.0f); /* logit(0.5) */
    assert_int_equal(m->objective, GPL_OBJ_LOGISTIC);
    gpl_model_free(m);
}

/* More distinct thresholds than a byte's bins: the feature's bins take
 * 16-bit codes, and every split keeps its threshold. */
static void test_xgboost_many_thresholds(void **state)
{
    (void)state;
    const int count = 300;
    size_t size = (size_t)count * 1024;
    char *trees = malloc(size), *info = malloc((size_t)count * 3 + 2), one[1024];
    trees[0] = '\0';
    strcpy(info, "[");
    for (int t = 0; t < count; t++) {
        char cond[32];
        snprintf(cond, sizeof cond, "%d.5", t);
        xgb_stump(one, sizeof one, 1, cond, 0, 0, "");
        if (t) strcat(trees, ",");
        strcat(trees, one);
        strcat(info, t ? ",0" : "0");
    }
    strcat(info, "]");
    char *doc = xgb_doc(trees, info, "reg:squarederror", "[]");
    gpl_model *m = NULL;
    assert_int_equal(load_text(doc, &m), GPULAYER_OK);
    assert_int_equal(m->cuts.cut_ptr[2] - m->cuts.cut_ptr[1], count);
    assert_int_equal(gpl_bin_code_bytes(&m->cuts), 2);
    for (int t = 0; t < count; t++) {
        const gpl_tree_node *root = &m->trees[t].nodes[0];
        assert_int_equal(root->split_bin, t + 1);
        assert_true(gpl_split_threshold(&m->cuts, 1, root->split_bin) == (float)t + 0.5f);
    }
    gpl_model_free(m);
    free(doc);
    free(trees);
    free(info);
}

/* XGBoost lists the codes that go right; the others, and NaN by
 * default_left, go left. */
static void test_xgboost_categorical_right_set(void **state)
{
    (void)state;
    char one[1024];
    xgb_stump(one, sizeof one, 1, "0.0", 1, 1, "0,3");
    char *doc = xgb_doc(one, "[0]", "reg:squarederror", "[\"q\",\"c\"]");
    gpl_model *m = NULL;
    assert_int_equal(load_text(doc, &m), GPULAYER_OK);
    free(doc);
    const gpl_tree_node *n = &m->trees[0].nodes[0];
    assert_true(n->categorical);
    /* Codes 0..3 named "0".."3": here names sort as codes. */
    assert_int_equal(m->categories[1]->count, 4);
    const int want[] = {0, 1, 1, 0};
    for (int c = 0; c < 4; c++) assert_int_equal(goes_left(m, n, (float)c), want[c]);
    assert_int_equal(goes_left(m, n, NAN), 1);
    gpl_model_free(m);
}

static void expect_refusal(const char *doc, gpulayer_status status, const char *words)
{
    gpl_model *m = NULL;
    assert_int_equal(load_text(doc, &m), status);
    if (!strstr(gpl_error_message(), words))
        fail_msg("message '%s' lacks '%s'", gpl_error_message(), words);
    assert_non_null(strstr(gpl_error_message(), "test-model"));
    assert_null(m);
}

/* A split naming code 600: categories 0..600 derived, each its own bin,
 * the split's set wider than the inline words; and code 65,534 under a
 * 1 MiB memory limit, refused before its category tables are made. */
static void test_xgboost_many_categories(void **state)
{
    (void)state;
    char one[1024];
    xgb_stump(one, sizeof one, 1, "0.0", 0, 1, "2,600");
    char *doc = xgb_doc(one, "[0]", "reg:squarederror", "[\"q\",\"c\"]");
    gpl_model *m = NULL;
    assert_int_equal(load_text(doc, &m), GPULAYER_OK);
    free(doc);
    assert_int_equal(m->categories[1]->count, 601);
    const gpl_tree_node *n = &m->trees[0].nodes[0];
    assert_non_null(n->wide_set);
    /* XGBoost sends the listed codes right: every other category left. */
    int left = 0;
    for (int32_t c = 0; c < m->categories[1]->count; c++) {
        const int is_listed = !strcmp(m->categories[1]->names[c], "2") ||
                              !strcmp(m->categories[1]->names[c], "600");
        assert_int_equal(gpl_node_in_set(n, (uint32_t)c + 1), !is_listed);
        left += gpl_node_in_set(n, (uint32_t)c + 1);
    }
    assert_int_equal(left, 599);
    gpl_model_free(m);
    xgb_stump(one, sizeof one, 1, "0.0", 0, 1, "2,65534");
    doc = xgb_doc(one, "[0]", "reg:squarederror", "[\"q\",\"c\"]");
    setenv("GPULAYER_MEMORY_LIMIT", "1M", 1);
    expect_refusal(doc, GPULAYER_ERR_OUT_OF_MEMORY, "category tables");
    unsetenv("GPULAYER_MEMORY_LIMIT");
    free(doc);
}

static void test_xgboost_refusals(void **state)
{
    (void)state;
    char one[1024];
    xgb_stump(one, sizeof one, 0, "0.5", 0, 0, "");
    char *doc = xgb_doc(one, "[0]", "reg:squarederror", "[]");
    char *edit = malloc(strlen(doc) + 64);

    strcpy(edit, doc);
    memcpy(strstr(edit, "\"gbtree\"}"), "\"dart\"  ", 8);
    expect_refusal(edit, GPULAYER_ERR_UNSUPPORTED, "dart");

    const char *linear = "{\"learner\":{\"gradient_booster\":{\"name\":\"gblinear\"},"
                         "\"learner_model_param\":{\"base_score\":\"0.5\",\"num_feature\":\"2\"},"
                         "\"objective\":{\"name\":\"reg:squarederror\"}},\"version\":[3,2,0]}";
    expect_refusal(linear, GPULAYER_ERR_UNSUPPORTED, "gblinear");

    strcpy(edit, doc);
    char *leaf = strstr(edit, "\"size_leaf_vector\":\"1\"");
    leaf[strlen("\"size_leaf_vector\":\"")] = '3';
    expect_refusal(edit, GPULAYER_ERR_UNSUPPORTED, "multi-output tree");

    free(doc);
    doc = xgb_doc(one, "[0]", "survival:aft", "[]");
    expect_refusal(doc, GPULAYER_ERR_UNSUPPORTED, "survival:aft");
    free(doc);
    free(edit);
}

/* ------------------------------------------------------------- LightGBM */

static char *lgb_doc(const char *objective, const char *tree, const char *extra_header)
{
    const char *fmt = "tree\nversion=v4\nnum_class=1\nnum_tree_per_iteration=1\n"
                      "label_index=0\nmax_feature_idx=1\nobjective=%s\n%s"
                      "feature_names=a b\nfeature_infos=[-1:1] [-1:1]\ntree_sizes=1\n\n"
                      "%s\nend of trees\n\nparameters:\n[alpha: 0.9]\nend of parameters\n\n"
                      "pandas_categorical:null\n";
    size_t n = strlen(fmt) + strlen(objective) + strlen(tree) + strlen(extra_header) + 1;
    char *s = malloc(n);
    snprintf(s, n, fmt, objective, extra_header, tree);
    return s;
}

/* text with its first `from` replaced by `to`, written into buf. */
static const char *with_line(char *buf, size_t size, const char *text, const char *from,
                             const char *to)
{
    const char *at = strstr(text, from);
    snprintf(buf, size, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
    return buf;
}

static void lgb_stump(char *buf, size_t size, const char *thr, int decision)
{
    snprintf(buf, size,
             "Tree=0\nnum_leaves=2\nnum_cat=0\nsplit_feature=0\nsplit_gain=1\n"
             "threshold=%s\ndecision_type=%d\nleft_child=-1\nright_child=-2\n"
             "leaf_value=-1 1\nleaf_weight=1 1\nleaf_count=5 7\ninternal_value=0\n"
             "internal_weight=2\ninternal_count=12\nis_linear=0\nshrinkage=1\n\n",
             thr, decision);
}

/* x <= t (a double) for float x, with each missing type. */
static void test_lightgbm_thresholds_exact(void **state)
{
    (void)state;
    static const char *thresholds[] = {"0.10000000000000001", "0.5", "-0.0",
                                       "1.0000000000000001e-35", "-2.5e-36", "0"};
    /* decision_type: missing None (0), NaN with default left (2|8=10) and
     * right (8), Zero with default left (2|4=6). */
    static const int decisions[] = {0, 10, 8, 6};
    for (size_t i = 0; i < sizeof thresholds / sizeof *thresholds; i++)
        for (size_t d = 0; d < sizeof decisions / sizeof *decisions; d++) {
            char tree[1024];
            lgb_stump(tree, sizeof tree, thresholds[i], decisions[d]);
            char *doc = lgb_doc("regression", tree, "");
            gpl_model *m = NULL;
            gpulayer_status st = load_text(doc, &m);
            free(doc);
            const double t = strtod(thresholds[i], NULL);
            const int dec = decisions[d], missing = (dec >> 2) & 3, dl = (dec & 2) != 0;
            if (missing == 1) {
                /* Zero as missing: exact only where zeros go to the default
                 * side by the threshold as well. */
                const int ok = dl ? (double)1e-35f <= t : (double)-1e-35f > t;
                assert_int_equal(st, ok ? GPULAYER_OK : GPULAYER_ERR_UNSUPPORTED);
                if (!ok) {
                    assert_non_null(strstr(gpl_error_message(), "zero_as_missing"));
                    continue;
                }
            } else {
                assert_int_equal(st, GPULAYER_OK);
            }
            const gpl_tree_node *n = &m->trees[0].nodes[0];
            const float probes[] = {(float)t, nextafterf((float)t, -INFINITY),
                                    nextafterf((float)t, INFINITY), 0.0f, -0.0f, 1e-36f,
                                    -1e-36f, 0.1f, 0.5f, INFINITY, -INFINITY, NAN};
            for (size_t k = 0; k < sizeof probes / sizeof *probes; k++) {
                const float v = probes[k];
                /* LightGBM's NumericalDecision. */
                double x = v;
                if (isnan(x) && missing != 2) x = 0.0;
                int want;
                if ((missing == 1 && fabs(x) <= (double)1e-35f) || (missing == 2 && isnan(x)))
                    want = dl;
                else
                    want = x <= t;
                if (goes_left(m, n, v) != want)
                    fail_msg("x <= %s (decision %d): value %.9g goes %s", thresholds[i], dec,
                             (double)v, want ? "right, expected left" : "left, expected right");
            }
            assert_true(m->trees[0].nodes[1].leaf_value == -1.0f);
            assert_true(m->base_margin == 0.0f);
            gpl_model_free(m);
        }
}

static void test_lightgbm_refusals(void **state)
{
    (void)state;
    char tree[1024];
    lgb_stump(tree, sizeof tree, "0.5", 8);
    char *doc = lgb_doc("huber", tree, "");
    expect_refusal(doc, GPULAYER_ERR_UNSUPPORTED, "huber");
    free(doc);
    doc = lgb_doc("regression", tree, "average_output\n");
    expect_refusal(doc, GPULAYER_ERR_UNSUPPORTED, "random forest");
    free(doc);
    doc = lgb_doc("binary sigmoid:2", tree, "");
    expect_refusal(doc, GPULAYER_ERR_UNSUPPORTED, "sigmoid");
    free(doc);
    char linear[1200];
    snprintf(linear, sizeof linear, "%s", tree);
    memcpy(strstr(linear, "is_linear=0"), "is_linear=1", 11);
    doc = lgb_doc("regression", linear, "");
    expect_refusal(doc, GPULAYER_ERR_UNSUPPORTED, "linear_tree");
    free(doc);
    /* A damaged tree: a child that does not exist. */
    char bad[1200];
    snprintf(bad, sizeof bad, "%s", tree);
    memcpy(strstr(bad, "right_child=-2"), "right_child=-9", 14);
    doc = lgb_doc("regression", bad, "");
    expect_refusal(doc, GPULAYER_ERR_MODEL, "child");
    free(doc);
    /* A header count at the end of long's range overflowed when one was
     * added (fuzz_import, under UBSan). */
    doc = lgb_doc("regression", tree, "");
    char *huge = malloc(strlen(doc) + 32);
    expect_refusal(with_line(huge, strlen(doc) + 32, doc, "max_feature_idx=1",
                             "max_feature_idx=9223372036854775807"),
                   GPULAYER_ERR_MODEL, "max_feature_idx is missing or not a feature index");
    free(huge);
    free(doc);
    /* A child far outside int64's range was converted to int64
     * (fuzz_import, under UBSan). */
    char edited[1200];
    doc = lgb_doc("regression", with_line(edited, sizeof edited, tree, "right_child=-2",
                                          "right_child=-2e+44"), "");
    expect_refusal(doc, GPULAYER_ERR_MODEL, "child");
    free(doc);
    /* A decision type far outside int's range was converted to int
     * (fuzz_import, under UBSan). */
    doc = lgb_doc("regression", with_line(edited, sizeof edited, tree, "decision_type=8",
                                          "decision_type=6e104"), "");
    expect_refusal(doc, GPULAYER_ERR_MODEL, "Tree=0: decision_type 6e+104 is not a byte of flags");
    free(doc);
    /* A feature name that is not UTF-8 loaded, and then the model could
     * not be saved (found by fuzz_import). */
    doc = lgb_doc("regression", tree, "");
    memcpy(strstr(doc, "feature_names=a b") + 14, "\xff", 1);
    expect_refusal(doc, GPULAYER_ERR_MODEL, "LightGBM model: the name '\\xFF' of feature 0 is "
                                            "not valid UTF-8 (byte 1)");
    free(doc);
}

/* doc loaded and saved: the saved text (freed by the caller), which must
 * hold record. */
static char *saved_record(const char *doc, const char *record, size_t *len)
{
    gpl_model *m = NULL;
    assert_int_equal(load_text(doc, &m), GPULAYER_OK);
    char *json = NULL;
    assert_int_equal(gpl_model_to_json(m, &json, len), GPULAYER_OK);
    assert_non_null(strstr(json, record));
    gpl_model_free(m);
    return json;
}

/* The version line is quoted in the model's record: bytes there that are
 * not text made a model that saved but did not load back (fuzz_import). */
static void test_lightgbm_version_bytes(void **state)
{
    (void)state;
    char tree[1024];
    lgb_stump(tree, sizeof tree, "0.5", 8);
    char *doc = lgb_doc("regression", tree, "");
    char *v = strstr(doc, "version=v4");
    memcpy(v + 8, "\xfb\xff", 2);
    size_t len = 0;
    char *json = saved_record(doc, "\"imported_from\":\"LightGBM ??\"", &len);
    gpl_model *again = NULL;
    assert_int_equal(gpl_model_load_buffer(json, len, "saved", &again), GPULAYER_OK);
    gpl_model_free(again);
    free(json);
    free(doc);
}

/* A version part beyond int's range was converted to int (fuzz_import):
 * the record says the version is unknown. */
static void test_xgboost_version_out_of_range(void **state)
{
    (void)state;
    char tree[1024];
    xgb_stump(tree, sizeof tree, 0, "0.5", 0, 0, "");
    char *doc = xgb_doc(tree, "[0]", "reg:squarederror", "[]");
    char *v = strstr(doc, "\"version\":[3,2,0]");
    assert_non_null(v);
    memcpy(v + 10, "[3e9,0]", 7); /* 3e9 > INT_MAX */
    size_t len = 0;
    free(saved_record(doc, "\"imported_from\":\"XGBoost (unknown version)\"", &len));
    free(doc);
}

/* A categorical split's bitset lists the codes going left; NaN goes with
 * category 0 (missing type None) or right (NaN). */
static void test_lightgbm_categorical(void **state)
{
    (void)state;
    const char *tree =
        "Tree=0\nnum_leaves=2\nnum_cat=1\nsplit_feature=1\nsplit_gain=1\nthreshold=0\n"
        "decision_type=1\nleft_child=-1\nright_child=-2\nleaf_value=-1 1\n"
        "cat_boundaries=0 1\ncat_threshold=1029\nis_linear=0\nshrinkage=1\n\n";
    char *doc = lgb_doc("regression", tree, "");
    /* feature 1 categorical with codes 0, 2, 10, 11 (bitset 1029 = bits 0, 2, 10). */
    char *infos = strstr(doc, "[-1:1] [-1:1]");
    char *fixed = malloc(strlen(doc) + 32);
    snprintf(fixed, strlen(doc) + 32, "%.*s[-1:1] -1:0:2:10:11%s", (int)(infos - doc), doc,
             infos + strlen("[-1:1] [-1:1]"));
    gpl_model *m = NULL;
    assert_int_equal(load_text(fixed, &m), GPULAYER_OK);
    const gpl_category_dict *d = m->categories[1];
    assert_int_equal(d->count, 4);
    /* Names sort as text: "0" "10" "11" "2"; values are read by name
     * (predict.c), here by the model's codes. */
    const char *left[] = {"0", "10", "2"};
    const gpl_tree_node *n = &m->trees[0].nodes[0];
    for (int32_t c = 0; c < d->count; c++) {
        int want = 0;
        for (int k = 0; k < 3; k++) want |= !strcmp(d->names[c], left[k]);
        assert_int_equal(gpl_cat_set_has(n->left_set, (uint32_t)c + 1), want);
    }
    assert_int_equal(n->default_left, 1); /* NaN as category 0, which goes left */
    gpl_model_free(m);
    /* A category listed twice (its name would be too). */
    snprintf(fixed, strlen(doc) + 32, "%.*s[-1:1] -1:2:0:2:10%s", (int)(infos - doc), doc,
             infos + strlen("[-1:1] [-1:1]"));
    expect_refusal(fixed, GPULAYER_ERR_MODEL, "category code 2 twice");
    free(doc);
    free(fixed);
}

/* ------------------------------------------------------------- UBJSON */

static void test_ubjson_decodes(void **state)
{
    (void)state;
    /* {"a": [$d#2 1.5 -2], "b": [i -3, S "xy"], "c": T} */
    const uint8_t doc[] = {'{', 'i', 1, 'a', '[', '$', 'd', '#', 'i', 2, 0x3f, 0xc0, 0, 0,
                           0xc0, 0, 0, 0, 'i', 1, 'b', '[', 'i', 0xfd, 'S', 'U', 2, 'x', 'y',
                           ']', 'L', 0, 0, 0, 0, 0, 0, 0, 1, 'c', 'T', '}'};
    cJSON *v = NULL;
    assert_int_equal(gpl_ubjson_parse(doc, sizeof doc, "t", &v), GPULAYER_OK);
    const cJSON *a = cJSON_GetObjectItem(v, "a");
    assert_int_equal(cJSON_GetArraySize(a), 2);
    assert_true(cJSON_GetArrayItem(a, 0)->valuedouble == 1.5);
    assert_true(cJSON_GetArrayItem(a, 1)->valuedouble == -2.0);
    const cJSON *b = cJSON_GetObjectItem(v, "b");
    assert_true(cJSON_GetArrayItem(b, 0)->valuedouble == -3.0);
    assert_string_equal(cJSON_GetArrayItem(b, 1)->valuestring, "xy");
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(v, "c")));
    cJSON_Delete(v);
    /* Every truncation of it is refused, never read past. */
    for (size_t n = 0; n < sizeof doc; n++) {
        uint8_t *copy = malloc(n ? n : 1);
        memcpy(copy, doc, n);
        assert_int_equal(gpl_ubjson_parse(copy, n, "t", &v), GPULAYER_ERR_MODEL);
        assert_null(v);
        free(copy);
    }
}

static void test_ubjson_malformed(void **state)
{
    (void)state;
    cJSON *v = NULL;
    /* A typed array whose count runs past the end. */
    const uint8_t past[] = {'[', '$', 'd', '#', 'l', 0x7f, 0xff, 0xff, 0xff, 0, 0, 0, 0};
    assert_int_equal(gpl_ubjson_parse(past, sizeof past, "t", &v), GPULAYER_ERR_MODEL);
    assert_non_null(strstr(gpl_error_message(), "count past the end"));
    /* A string longer than the data. */
    const uint8_t str[] = {'S', 'L', 0, 0, 0, 0, 0x10, 0, 0, 0, 'a'};
    assert_int_equal(gpl_ubjson_parse(str, sizeof str, "t", &v), GPULAYER_ERR_MODEL);
    /* A negative count. */
    const uint8_t neg[] = {'[', '#', 'i', 0xff};
    assert_int_equal(gpl_ubjson_parse(neg, sizeof neg, "t", &v), GPULAYER_ERR_MODEL);
    /* An unknown marker, bytes after the value. */
    const uint8_t unknown[] = {'[', 'q', ']'};
    assert_int_equal(gpl_ubjson_parse(unknown, sizeof unknown, "t", &v), GPULAYER_ERR_MODEL);
    const uint8_t trailing[] = {'T', 'F'};
    assert_int_equal(gpl_ubjson_parse(trailing, sizeof trailing, "t", &v), GPULAYER_ERR_MODEL);
    /* Deep nesting: refused at the limit, not by the stack. */
    uint8_t deep[4096];
    for (size_t i = 0; i < 2048; i++) {
        deep[i] = '[';
        deep[4095 - i] = ']';
    }
    assert_int_equal(gpl_ubjson_parse(deep, sizeof deep, "t", &v), GPULAYER_ERR_MODEL);
    assert_non_null(strstr(gpl_error_message(), "nested too deep"));
    assert_null(v);
    /* A UBJSON model file is told apart from JSON and refused as damaged. */
    gpl_model *m = NULL;
    const char bad[] = {'{', 'L', 0, 0};
    assert_int_equal(gpl_model_load_buffer(bad, sizeof bad, "m.ubj", &m), GPULAYER_ERR_MODEL);
    assert_non_null(strstr(gpl_error_message(), "m.ubj"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xgboost_thresholds_exact),
        cmocka_unit_test(test_xgboost_base_score_link),
        cmocka_unit_test(test_xgboost_many_thresholds),
        cmocka_unit_test(test_xgboost_categorical_right_set),
        cmocka_unit_test(test_xgboost_many_categories),
        cmocka_unit_test(test_xgboost_refusals),
        cmocka_unit_test(test_lightgbm_thresholds_exact),
        cmocka_unit_test(test_lightgbm_refusals),
        cmocka_unit_test(test_lightgbm_version_bytes),
        cmocka_unit_test(test_xgboost_version_out_of_range),
        cmocka_unit_test(test_lightgbm_categorical),
        cmocka_unit_test(test_ubjson_decodes),
        cmocka_unit_test(test_ubjson_malformed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
