/* test_shap_math.c -- the devices' SHAP arithmetic (shap_math.h), run on
 * the host the way the kernels drive it, against the CPU's values
 * (shap.c) bit for bit: contributions (exact and Saabas) and
 * interactions (by quadrature, and by Algorithm 2 for deeper trees, the
 * two compared in doubles too), for binary and multiclass models, categorical splits,
 * missing values, per-row base margins, and trees deeper than the linear
 * walk takes. A failure here is a difference of arithmetic, before any
 * GPU. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binning.h"
#include "booster.h"
#include "gpulayer.h"
#include "predict.h"
#include "shap.h"
#include "shap_math.h"
#include "test_util.h"

#define OK(expr)                                                                         \
    do {                                                                                 \
        gpulayer_status ok_status_ = (expr);                                             \
        if (ok_status_ != GPULAYER_OK) fail_msg("%s: %s", #expr, gpulayer_last_error()); \
    } while (0)

enum { COLS = 7, CATS = 12 };

/* Rows with a categorical first column, 8% missing values and a label of
 * `classes` classes (2: binary, 1: real; 0: noise, which trees without
 * regularisation chase deep). */
static gpulayer_dataset *make_data(int64_t rows, int classes, unsigned seed, int with_base,
                                   int outputs)
{
    float *x = malloc(sizeof(float) * (size_t)(rows * COLS));
    float *y = malloc(sizeof(float) * (size_t)rows);
    assert_non_null(x);
    assert_non_null(y);
    srand(seed);
    for (int64_t r = 0; r < rows; r++) {
        double z = 0;
        for (int c = 0; c < COLS; c++) {
            float v = c == 0 ? (float)(rand() % CATS) : (float)(rand() % 2000) / 100.0f - 10.0f;
            if (rand() % 12 == 0) v = NAN;
            x[r * COLS + c] = v;
            if (!isnan(v)) z += c == 0 ? ((int)v % 5) - 2 : v * (c % 2 ? 1 : -0.5) / c;
        }
        y[r] = classes == 0 ? (float)(rand() % 1000) / 100.0f
               : classes == 1 ? (float)z : classes == 2 ? (float)(z > 0) : (float)((int)fabs(z) % classes);
    }
    gpulayer_dataset *ds;
    OK(gpulayer_dataset_from_dense(x, rows, COLS, GPULAYER_ROW_MAJOR, y, NULL, &ds));
    const char *names[CATS] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"};
    OK(gpulayer_dataset_set_categories(ds, 0, names, CATS));
    if (with_base) {
        float *base = malloc(sizeof(float) * (size_t)(rows * outputs));
        for (int64_t i = 0; i < rows * outputs; i++) base[i] = (float)(i % 7) * 0.25f - 0.5f;
        OK(gpulayer_dataset_set_base_margin(ds, base, rows * outputs));
        free(base);
    }
    free(x);
    free(y);
    return ds;
}

static gpulayer_booster *train(gpulayer_dataset *ds, const char *const *kv)
{
    gpulayer_booster *b;
    OK(gpulayer_booster_create(&b));
    for (int i = 0; kv[i]; i += 2) OK(gpulayer_booster_set_param(b, kv[i], kv[i + 1]));
    OK(gpulayer_booster_set_param(b, "nthread", "2"));
    OK(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL));
    return b;
}

/* One thread's workspace for the walks of trees up to max_depth deep. */
static gpl_shap_work work_new(int32_t max_depth)
{
    const int64_t slots = gpl_shap_path_slots(max_depth);
    gpl_shap_work w = {malloc(sizeof(gpl_shap_lin_level) * (GPL_SHAP_LINEAR_DEPTH + 1)),
                       {malloc(sizeof(int32_t) * (size_t)slots),
                        malloc(sizeof(double) * (size_t)slots),
                        malloc(sizeof(double) * (size_t)slots),
                        malloc(sizeof(double) * (size_t)slots), 1},
                       malloc(sizeof(gpl_shap_visit) * (size_t)(max_depth + 2))};
    return w;
}

static void work_free(gpl_shap_work *w)
{
    free(w->levels);
    free(w->path.feature);
    free(w->path.zero);
    free(w->path.one);
    free(w->path.weight);
    free(w->stack);
}

/* Interactions of a row by Algorithm 2 with each feature present and
 * absent, into acc (K (F + 1)^2, the diagonal's entries left alone) and
 * diag (K (F + 1), without the base margin), as the devices walk deeper
 * trees. */
static void alg2_interactions(const gpl_shap_view *v, const uint16_t *row,
                              const gpl_shap_work *w, double *on, double *off, double *acc,
                              double *diag)
{
    const int32_t F = v->num_features, K = v->num_outputs, C = F + 1;
    memset(acc, 0, sizeof(double) * (size_t)(K * C * C));
    memset(diag, 0, sizeof(double) * (size_t)(K * C));
    gpl_shap_interaction_diag(v, row, w, diag, 1);
    /* Output k's matrix row i: F + 1 values at acc + (k C + i) C. */
    for (int32_t i = 0; i < F; i++)
        gpl_shap_interaction_row(v, row, i, w, on, off, 1, acc + (int64_t)i * C, (int64_t)C * C,
                                 1);
}

/* The values of every row, computed with shap_math.h as a device does:
 * one workspace a thread (here one), contributions a row, interactions
 * by quadrature a row, or (deeper trees) a (row, feature) and then the
 * diagonal. */
static float *emulate(const gpl_model *m, const gpulayer_dataset *ds, gpl_shap_kind kind)
{
    const int32_t F = m->num_features, K = m->num_outputs, C = F + 1;
    const int64_t N = gpulayer_dataset_num_rows(ds), width = gpl_shap_row_width(m, kind);
    const int32_t T = gpl_predict_num_trees(m, 0);
    gpl_infer_forest infer;
    gpl_shap_forest sf;
    OK(gpl_infer_forest_build(m, T, &infer));
    OK(gpl_shap_forest_build(m, T, &sf));
    const gpl_shap_view v = {infer.nodes,  infer.leaf,    infer.cat_sets, infer.cat_words,
                             infer.first,  sf.frac,       sf.mean,        sf.linear,
                             sf.feat_first, sf.features,  T,              K,
                             F};
    const float **columns;
    float **owned;
    OK(gpl_predict_columns(m, ds, &columns, &owned));
    gpl_padded_cuts *padded = gpl_padded_cuts_all(&m->cuts);
    uint16_t *row = malloc(sizeof(uint16_t) * (size_t)F);
    gpl_shap_work w = work_new(sf.max_depth);
    double *acc = malloc(sizeof(double) * (size_t)width);
    double *diag = malloc(sizeof(double) * (size_t)(K * C));
    double *on = calloc((size_t)C, sizeof(double)), *off = calloc((size_t)C, sizeof(double));
    float *out = malloc(sizeof(float) * (size_t)(N * width));
    const float *base_margin = ds->base_margin;
    for (int64_t r = 0; r < N; r++) {
        for (int32_t f = 0; f < F; f++) gpl_bin_values(&padded[f], columns[f] + r, 1, (uint8_t *)(row + f), 1, 2);
        memset(acc, 0, sizeof(double) * (size_t)width);
        if (kind == GPL_SHAP_INTERACTIONS && gpl_shap_pairs_by_quadrature(sf.linear, T)) {
            memset(diag, 0, sizeof(double) * (size_t)(K * C));
            gpl_shap_pairs_row(&v, row, &w, diag, acc, 1);
            for (int32_t k = 0; k < K; k++) {
                diag[k * C + F] +=
                    base_margin ? base_margin[r * K + k] : gpl_model_base_margin(m, k);
                const double *mat = acc + (int64_t)k * C * C;
                float *o = out + r * width + (int64_t)k * C * C;
                for (int32_t i = 0; i < C; i++)
                    for (int32_t j = 0; j < C; j++)
                        o[i * C + j] = (float)(i == j ? gpl_shap_pair_self(diag[k * C + i], mat,
                                                                           i, C, 1)
                                                      : gpl_shap_pair_value(mat, i, j, C, 1));
            }
            continue;
        } else if (kind == GPL_SHAP_INTERACTIONS) {
            alg2_interactions(&v, row, &w, on, off, acc, diag);
            for (int32_t k = 0; k < K; k++) {
                diag[k * C + F] += base_margin ? base_margin[r * K + k] : gpl_model_base_margin(m, k);
                double *mat = acc + (int64_t)k * C * C;
                for (int32_t i = 0; i < C; i++)
                    mat[(int64_t)i * C + i] = gpl_shap_interaction_self(
                        diag[k * C + i], mat + (int64_t)i * C, i, C, 1);
            }
        } else {
            gpl_shap_contrib_row(&v, kind == GPL_SHAP_APPROX, row, &w, acc, 1);
            for (int32_t k = 0; k < K; k++)
                acc[k * C + F] += base_margin ? base_margin[r * K + k] : gpl_model_base_margin(m, k);
        }
        for (int64_t j = 0; j < width; j++) out[r * width + j] = (float)acc[j];
    }
    free(acc);
    free(diag);
    free(on);
    free(off);
    work_free(&w);
    free(row);
    free(padded);
    gpl_predict_columns_free(m, columns, owned);
    gpl_shap_forest_free(&sf);
    gpl_infer_forest_free(&infer);
    return out;
}

static void compare(const gpulayer_booster *b, const gpulayer_dataset *ds, const char *what)
{
    const gpl_model *m = b->model;
    const int64_t N = gpulayer_dataset_num_rows(ds);
    for (int kind = GPL_SHAP_EXACT; kind <= GPL_SHAP_INTERACTIONS; kind++) {
        const int64_t width = gpl_shap_row_width(m, (gpl_shap_kind)kind);
        float *cpu = malloc(sizeof(float) * (size_t)(N * width));
        OK(gpl_shap_dataset(m, ds, (gpl_shap_kind)kind, 0, 2, "cpu", cpu));
        float *dev = emulate(m, ds, (gpl_shap_kind)kind);
        for (int64_t i = 0; i < N * width; i++)
            if (memcmp(&cpu[i], &dev[i], sizeof(float)) != 0)
                fail_msg("%s, kind %d: row %lld value %lld: cpu %a, shap_math %a", what, kind,
                         (long long)(i / width), (long long)(i % width), (double)cpu[i],
                         (double)dev[i]);
        free(cpu);
        free(dev);
    }
    print_message("%s: %lld rows, every value identical\n", what, (long long)N);
}

static void check(const char *const *kv, int classes, int with_base, const char *what)
{
    gpulayer_dataset *ds = make_data(600, classes, 5, 0, 1);
    gpulayer_booster *b = train(ds, kv);
    gpulayer_dataset *test = make_data(300, classes, 9, with_base, b->model->num_outputs);
    compare(b, test, what);
    gpulayer_dataset_free(test);
    gpulayer_dataset_free(ds);
    gpulayer_booster_free(b);
}

static void test_binary(void **state)
{
    (void)state;
    const char *kv[] = {"objective", "binary:logistic", "num_round", "8", "max_depth", "6", NULL};
    check(kv, 2, 0, "binary, depth 6, categorical and missing");
}

static void test_multiclass_base_margins(void **state)
{
    (void)state;
    const char *kv[] = {"objective", "multi:softprob", "num_class", "3", "num_round", "5",
                        "max_depth", "4", NULL};
    check(kv, 3, 1, "multi:softprob with row base margins");
}

/* Lossguide trees deeper than GPL_SHAP_LINEAR_DEPTH take Algorithm 2 for
 * the contributions too. */
static void test_deep_trees(void **state)
{
    (void)state;
    const char *kv[] = {"objective", "reg:squarederror", "num_round", "2", "grow_policy",
                        "lossguide", "max_leaves", "200", "max_depth", "0", "min_child_weight",
                        "0", "lambda", "0", NULL};
    gpulayer_dataset *ds = make_data(600, 0, 5, 0, 1);
    gpulayer_booster *b = train(ds, kv);
    gpl_shap_forest sf;
    OK(gpl_shap_forest_build(b->model, 2, &sf));
    const int32_t sf_depth = sf.max_depth;
    const int deep = sf_depth > GPL_SHAP_LINEAR_DEPTH;
    gpl_shap_forest_free(&sf);
    gpulayer_dataset_free(ds);
    gpulayer_booster_free(b);
    if (!deep) fail_msg("the lossguide model is %d deep, not deeper than the linear walk takes", sf_depth);
    print_message("lossguide trees of depth up to %d\n", sf_depth);
    check(kv, 0, 0, "regression, lossguide trees deeper than the linear walk");
}

/* Interactions by quadrature against Algorithm 2 with each feature
 * present and absent, in doubles, on trees of depth 12 over 7 features
 * (so paths split on a feature several times) and the deepest the linear
 * walk takes: the same values but for rounding. */
static void test_quadrature_equals_algorithm2(void **state)
{
    (void)state;
    for (int depth = 12; depth <= GPL_SHAP_LINEAR_DEPTH; depth += GPL_SHAP_LINEAR_DEPTH - 12) {
        char depth_text[8];
        snprintf(depth_text, sizeof depth_text, "%d", depth);
        const char *kv[] = {"objective", "reg:squarederror", "num_round", "3", "max_depth",
                            depth_text, "min_child_weight", "0", "lambda", "0", NULL};
        gpulayer_dataset *ds = make_data(3000, 0, 5, 0, 1);
        gpulayer_booster *b = train(ds, kv);
        const gpl_model *m = b->model;
        const int32_t F = m->num_features, C = F + 1, T = gpl_predict_num_trees(m, 0);
        gpl_infer_forest infer;
        gpl_shap_forest sf;
        OK(gpl_infer_forest_build(m, T, &infer));
        OK(gpl_shap_forest_build(m, T, &sf));
        assert_true(gpl_shap_pairs_by_quadrature(sf.linear, T));
        assert_true(sf.max_depth > 10);
        const gpl_shap_view v = {infer.nodes, infer.leaf, infer.cat_sets, infer.cat_words, infer.first, sf.frac,
                                 sf.mean, sf.linear, sf.feat_first, sf.features, T, 1, F};
        gpl_shap_work w = work_new(sf.max_depth);
        double *pairs = malloc(sizeof(double) * (size_t)(C * C));
        double *acc = malloc(sizeof(double) * (size_t)(C * C));
        double *diag = malloc(sizeof(double) * (size_t)C);
        double *diag2 = malloc(sizeof(double) * (size_t)C);
        double *on = calloc((size_t)C, sizeof(double)), *off = calloc((size_t)C, sizeof(double));
        uint16_t row[COLS];
        double largest = 0, worst = 0;
        srand(11);
        for (int r = 0; r < 200; r++) {
            /* Rows of random bins, missing ones included. */
            for (int32_t f = 0; f < F; f++) {
                const int bins = (int)(m->cuts.cut_ptr[f + 1] - m->cuts.cut_ptr[f]) + 2;
                row[f] = (uint16_t)(rand() % bins);
            }
            memset(pairs, 0, sizeof(double) * (size_t)(C * C));
            memset(diag, 0, sizeof(double) * (size_t)C);
            gpl_shap_pairs_row(&v, row, &w, diag, pairs, 1);
            alg2_interactions(&v, row, &w, on, off, acc, diag2);
            for (int32_t i = 0; i < C; i++) {
                for (int32_t j = 0; j < C; j++) {
                    if (i == j) continue;
                    const double q = gpl_shap_pair_value(pairs, i, j, C, 1);
                    const double a = acc[i * C + j];
                    if (fabs(a) > largest) largest = fabs(a);
                    if (fabs(q - a) > worst) worst = fabs(q - a);
                }
                if (fabs(diag[i] - diag2[i]) > worst) worst = fabs(diag[i] - diag2[i]);
            }
        }
        print_message("depth %d (trees %d deep): largest pair value %.3g, largest difference "
                      "%.3g\n", depth, sf.max_depth, largest, worst);
        assert_true(largest > 1e-3);
        assert_true(worst <= 1e-10 * largest);
        free(pairs);
        free(acc);
        free(diag);
        free(diag2);
        free(on);
        free(off);
        work_free(&w);
        gpl_shap_forest_free(&sf);
        gpl_infer_forest_free(&infer);
        gpulayer_dataset_free(ds);
        gpulayer_booster_free(b);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binary),
        cmocka_unit_test(test_multiclass_base_margins),
        cmocka_unit_test(test_deep_trees),
        cmocka_unit_test(test_quadrature_equals_algorithm2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
