/* test_categorical_model.c -- models with splits by sets of categories
 * through the public API: saved and read back unchanged, damaged sets and
 * groups refused, every one of many categories kept (or the rarest
 * grouped, with max_categories),
 * categorical=ordered keeping splits on codes, and sets beside a numeric
 * feature of 16-bit bin codes. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "booster.h"
#include "categorical.h"
#include "gpulayer.h"
#include "model.h"
#include "predict.h"

enum { ROWS = 3000 };

/* Column 0: `cats` categories (skewed, some missing), column 1: a number;
 * the label depends on the category, not on its code's order. */
static float y[ROWS]; /* make_data's labels */

static gpulayer_dataset *make_data(int32_t cats)
{
    static float x[ROWS * 2];
    unsigned s = 12345;
    for (int r = 0; r < ROWS; r++) {
        s = s * 1103515245u + 12345u;
        int c = (int)((s >> 8) % (unsigned)cats);
        if (c > 3 && (s >> 20) % 3) c = (int)((s >> 4) % 4); /* skew to 0..3 */
        x[2 * r] = (s >> 16) % 17 == 0 ? NAN : (float)c;
        x[2 * r + 1] = (float)((s >> 12) % 1000) / 1000.0f;
        y[r] = (float)((c * 7919) % 5) + x[2 * r + 1];
    }
    gpulayer_dataset *ds = NULL;
    assert_int_equal(gpulayer_dataset_from_dense(x, ROWS, 2, GPULAYER_ROW_MAJOR, y, NULL, &ds),
                     GPULAYER_OK);
    char **names = malloc(sizeof(char *) * (size_t)cats);
    for (int c = 0; c < cats; c++) {
        names[c] = malloc(16);
        snprintf(names[c], 16, "k%05d", c); /* sorted as codes */
    }
    assert_int_equal(gpulayer_dataset_set_categories(ds, 0, (const char *const *)names, cats),
                     GPULAYER_OK);
    for (int c = 0; c < cats; c++) free(names[c]);
    free(names);
    const char *fnames[] = {"kind", "x"};
    assert_int_equal(gpulayer_dataset_set_feature_names(ds, fnames, 2), GPULAYER_OK);
    return ds;
}

static gpulayer_booster *train_with(gpulayer_dataset *ds, const char *categorical,
                                    const char *max_bin, const char *max_categories)
{
    gpulayer_booster *b = NULL;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "max_bin", max_bin), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "max_categories", max_categories),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "num_round", "8"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "nthread", "1"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "verbosity", "0"), GPULAYER_OK);
    if (categorical)
        assert_int_equal(gpulayer_booster_set_param(b, "categorical", categorical), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    return b;
}

static gpulayer_booster *train(gpulayer_dataset *ds, const char *categorical)
{
    return train_with(ds, categorical, "256", "65535");
}

/* With the rarest of more than 255 categories grouped. */
static gpulayer_booster *train_grouped(gpulayer_dataset *ds)
{
    return train_with(ds, NULL, "256", "255");
}

static char *model_text(const gpulayer_booster *b, size_t *len)
{
    char *text = NULL;
    assert_int_equal(gpulayer_booster_save_to_buffer(b, &text, len), GPULAYER_OK);
    return text;
}

/* The text with what follows `anchor` up to the first of the characters
 * `stop` replaced by `to`. */
static char *edited(const char *text, const char *anchor, const char *stop, const char *to)
{
    const char *a = strstr(text, anchor);
    assert_non_null(a);
    const char *at = a + strlen(anchor);
    const size_t old = strcspn(at, stop);
    size_t n = strlen(text), k = (size_t)(at - text);
    char *out = malloc(n + strlen(to) + 1);
    memcpy(out, text, k);
    strcpy(out + k, to);
    strcat(out, at + old);
    return out;
}

/* b saved and read back: the same text again; returns the copy, and b's
 * text in text. */
static gpulayer_booster *round_trip(const gpulayer_booster *b, char **text, size_t *len)
{
    size_t len2 = 0;
    *text = model_text(b, len);
    gpulayer_booster *back = NULL;
    assert_int_equal(gpulayer_booster_load_from_buffer(*text, *len, &back), GPULAYER_OK);
    char *again = model_text(back, &len2);
    assert_int_equal(*len, len2);
    assert_memory_equal(*text, again, *len);
    gpulayer_free_buffer(again);
    return back;
}

static void test_sets_survive_save_and_load(void **state)
{
    (void)state;
    gpulayer_dataset *ds = make_data(40);
    gpulayer_booster *b = train(ds, NULL);
    size_t len = 0;
    char *text = NULL;
    gpulayer_booster *back = round_trip(b, &text, &len);
    assert_non_null(strstr(text, "\"categories_nodes\""));
    float p1[ROWS], p2[ROWS];
    assert_int_equal(gpulayer_booster_predict(b, ds, 0, 0, p1, ROWS), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_predict(back, ds, 0, 0, p2, ROWS), GPULAYER_OK);
    assert_memory_equal(p1, p2, sizeof p1);
    gpulayer_free_buffer(text);
    gpulayer_booster_free(back);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

/* Margins walked node by node on the training matrix equal the
 * prediction's (codes of w bytes). */
static void assert_walk_equals_predict(const gpulayer_booster *b, gpulayer_dataset *ds, int w)
{
    const gpl_model *m = b->model;
    static float margins[ROWS];
    assert_int_equal(gpulayer_booster_predict(b, ds, GPULAYER_PREDICT_MARGIN, 0, margins, ROWS),
                     GPULAYER_OK);
    uint8_t *bins = NULL;
    assert_int_equal(gpl_categorical_bin_matrix(m, ds, 1, &bins), GPULAYER_OK);
    for (int r = 0; r < ROWS; r++) {
        float want = gpl_model_base_margin(m, 0);
        for (int32_t t = 0; t < m->num_trees; t++)
            want += m->trees[t].nodes[gpl_tree_leaf_index(&m->trees[t], bins + 2 * w * r, w)]
                        .leaf_value;
        assert_true(margins[r] == want);
    }
    free(bins);
}

/* Column 1's 1,000 values take 16-bit codes with max_bin 1024; the
 * prediction's branch-free walk reads every node's set word, and a
 * numeric node's wide bin must not index past it. Margins as the trees
 * give them, walked node by node on the training matrix. */
static void test_sets_beside_wide_codes(void **state)
{
    (void)state;
    gpulayer_dataset *ds = make_data(40);
    gpulayer_booster *b = train_with(ds, NULL, "1024", "65535");
    const gpl_model *m = b->model;
    assert_int_equal(gpl_bin_code_bytes(&m->cuts), 2);
    int sets = 0, high = 0;
    for (int32_t t = 0; t < m->num_trees; t++)
        for (int32_t i = 0; i < m->trees[t].num_nodes; i++) {
            sets += m->trees[t].nodes[i].categorical != 0;
            high += m->trees[t].nodes[i].split_bin > 255;
        }
    assert_true(sets > 0 && high > 0);
    assert_walk_equals_predict(b, ds, 2);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

/* Edits that keep the JSON valid and the checksum right (resealed), so
 * that only the model check stands between them and a wrong prediction. */
static void assert_edit_refused(const char *text, const char *anchor, const char *stop,
                                const char *to, const char *message)
{
    char *e = edited(text, anchor, stop, to);
    char *sealed = NULL;
    size_t sealed_len = 0;
    assert_int_equal(gpl_model_json_reseal(e, strlen(e), &sealed, &sealed_len), GPULAYER_OK);
    gpulayer_booster *bad = NULL;
    assert_int_equal(gpulayer_booster_load_from_buffer(sealed, sealed_len, &bad),
                     GPULAYER_ERR_MODEL);
    if (!strstr(gpulayer_last_error(), message))
        fail_msg("expected '%s' in: %s", message, gpulayer_last_error());
    free(sealed);
    free(e);
}

static void test_damaged_sets_are_refused(void **state)
{
    (void)state;
    gpulayer_dataset *ds = make_data(40);
    gpulayer_booster *b = train(ds, NULL);
    size_t len = 0;
    char *text = model_text(b, &len);
    assert_edit_refused(text, "\"categories\":[[", "]", "45", "but feature 0 has 40 categories");
    assert_edit_refused(text, "\"categories\":[[", "]", "39,0", "ascending and distinct");
    assert_edit_refused(text, "\"categories_nodes\":[", ",]", "999", "categories_nodes");
    gpulayer_free_buffer(text);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);

    ds = make_data(600);
    b = train_grouped(ds);
    text = model_text(b, &len);
    assert_edit_refused(text, "\"category_groups\":[\n    [", ",]", "300", "category_groups[0]");
    gpulayer_free_buffer(text);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

static void test_many_categories_are_grouped(void **state)
{
    (void)state;
    gpulayer_dataset *ds = make_data(600);
    gpulayer_booster *b = train_grouped(ds);
    size_t len = 0;
    char *text = model_text(b, &len);
    assert_non_null(strstr(text, "\"category_groups\""));
    assert_non_null(strstr(text, "\"categories_nodes\""));
    /* One bin a group: 254 frequent categories and one shared group. */
    gpulayer_booster *back = NULL;
    assert_int_equal(gpulayer_booster_load_from_buffer(text, len, &back), GPULAYER_OK);
    float p1[ROWS], p2[ROWS];
    assert_int_equal(gpulayer_booster_predict(b, ds, 0, 0, p1, ROWS), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_predict(back, ds, 0, 0, p2, ROWS), GPULAYER_OK);
    assert_memory_equal(p1, p2, sizeof p1);
    for (int r = 0; r < ROWS; r++) assert_true(isfinite(p1[r]));
    gpulayer_free_buffer(text);
    gpulayer_booster_free(back);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

/* 600 categories, each its own bin (16-bit codes): no groups, sets past
 * the inline words, the same model after saving and loading, predictions
 * as the trees give them, a better fit of the training rows than with
 * the rarest grouped, and a code past the categories refused. */
static void test_every_category_kept(void **state)
{
    (void)state;
    gpulayer_dataset *ds = make_data(600);
    gpulayer_booster *b = train(ds, NULL);
    const gpl_model *m = b->model;
    assert_null(m->cat_groups);
    assert_int_equal(gpl_bin_code_bytes(&m->cuts), 2);
    int wide = 0;
    for (int32_t t = 0; t < m->num_trees; t++)
        for (int32_t i = 0; i < m->trees[t].num_nodes; i++) {
            const gpl_tree_node *n = &m->trees[t].nodes[i];
            if (!n->wide_set) continue;
            assert_int_equal(n->wide_words, gpl_cat_set_words(600));
            for (uint32_t bin = 256; bin < 32u * (uint32_t)n->wide_words; bin++)
                wide += gpl_node_in_set(n, bin);
        }
    assert_true(wide > 0);
    size_t len = 0;
    char *text = NULL;
    gpulayer_booster *back = round_trip(b, &text, &len);
    assert_null(strstr(text, "\"category_groups\""));
    static float p1[ROWS], p2[ROWS], grouped[ROWS];
    assert_int_equal(gpulayer_booster_predict(b, ds, 0, 0, p1, ROWS), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_predict(back, ds, 0, 0, p2, ROWS), GPULAYER_OK);
    assert_memory_equal(p1, p2, sizeof p1);
    assert_walk_equals_predict(b, ds, 2);
    gpulayer_booster *g = train_grouped(ds);
    assert_int_equal(gpulayer_booster_predict(g, ds, 0, 0, grouped, ROWS), GPULAYER_OK);
    double kept = 0, pooled = 0;
    for (int r = 0; r < ROWS; r++) {
        kept += (p1[r] - y[r]) * (p1[r] - y[r]);
        pooled += (grouped[r] - y[r]) * (grouped[r] - y[r]);
    }
    assert_true(kept < pooled);
    assert_edit_refused(text, "\"categories\":[[", "]", "0,700", "sends category code 700");
    gpulayer_booster_free(g);
    gpulayer_free_buffer(text);
    gpulayer_booster_free(back);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

static void test_ordered_keeps_splits_on_codes(void **state)
{
    (void)state;
    gpulayer_dataset *ds = make_data(40);
    const char *choices[] = {"ordered", "ordered:kind", "ordered:0"};
    for (int i = 0; i < 3; i++) {
        gpulayer_booster *b = train(ds, choices[i]);
        size_t len = 0;
        char *text = model_text(b, &len);
        assert_null(strstr(text, "\"categories_nodes\""));
        gpulayer_free_buffer(text);
        gpulayer_booster_free(b);
    }
    gpulayer_booster *b = NULL;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "categorical", "ordered:x"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "'x' is not a categorical column"));
    assert_int_equal(gpulayer_booster_set_param(b, "categorical", "sorted"),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sets_survive_save_and_load),
        cmocka_unit_test(test_sets_beside_wide_codes),
        cmocka_unit_test(test_damaged_sets_are_refused),
        cmocka_unit_test(test_many_categories_are_grouped),
        cmocka_unit_test(test_every_category_kept),
        cmocka_unit_test(test_ordered_keeps_splits_on_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
