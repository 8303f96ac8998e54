/* predict.c -- batch prediction on the CPU: rows are binned with the
 * model's cuts a block at a time, then every tree walks the block while it
 * is in cache. With a device, the same flattened forest goes to a backend
 * whose predict operation bins and walks on the device (backend.h). */
#include "predict.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "binning.h"
#include "booster.h"
#include "categorical.h"
#include "memory_limit.h"
#include "placement.h"
#include "reader_text.h"
#include "error.h"
#include "threads.h"

#define PREDICT_BLOCK_ROWS 256
/* Rows walked through a tree together, so that their dependent loads
 * overlap instead of waiting on each other. */
#define PREDICT_LANES 8

/* The forest packed for inference (gpl_infer_node of backend.h): 16 bytes
 * a node instead of the model's 48, so a depth-8 tree fits the L1 cache.
 * The device predictors take the same arrays. */
void gpl_infer_forest_free(gpl_infer_forest *f)
{
    free(f->nodes);
    free(f->leaf);
    free(f->first);
    free(f->depth);
    free(f->cat_sets);
    memset(f, 0, sizeof *f);
}

static int32_t tree_depth(const gpl_tree *t, int32_t node)
{
    if (t->nodes[node].left < 0) return 0;
    int32_t l = tree_depth(t, t->nodes[node].left), r = tree_depth(t, t->nodes[node].right);
    return 1 + (l > r ? l : r);
}

gpulayer_status gpl_infer_forest_build(const gpl_model *m, int32_t num_trees,
                                       gpl_infer_forest *f)
{
    return gpl_infer_forest_build_range(m, 0, num_trees, f);
}

gpulayer_status gpl_infer_forest_build_range(const gpl_model *m, int32_t first_tree,
                                             int32_t num_trees, gpl_infer_forest *f)
{
    memset(f, 0, sizeof *f);
    /* A model may have no trees at all (m->trees NULL). */
    const gpl_tree *trees = num_trees > 0 ? m->trees + first_tree : NULL;
    int64_t total = 0;
    for (int32_t t = 0; t < num_trees; t++) total += trees[t].num_nodes;
    f->nodes = malloc(sizeof(gpl_infer_node) * (size_t)(total ? total : 1));
    f->leaf = malloc(sizeof(float) * (size_t)(total ? total : 1));
    f->first = malloc(sizeof(int64_t) * (size_t)(num_trees + 1));
    f->depth = malloc(sizeof(int32_t) * (size_t)(num_trees + 1));
    if (!f->nodes || !f->leaf || !f->first || !f->depth) {
        gpl_infer_forest_free(f);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory for prediction");
    }
    /* Every node gets the widest set's words. */
    int any_categorical = 0;
    f->cat_words = GPL_CAT_WORDS;
    for (int32_t t = 0; t < num_trees; t++)
        for (int32_t i = 0; i < trees[t].num_nodes; i++) {
            const gpl_tree_node *n = &trees[t].nodes[i];
            if (n->left < 0 || !n->categorical) continue;
            any_categorical = 1;
            /* Room for every bin of the feature, whatever the set holds. */
            const uint32_t cuts = m->cuts.cut_ptr[n->feature + 1] - m->cuts.cut_ptr[n->feature];
            const int32_t words = gpl_cat_set_words((int32_t)cuts + 1);
            if (f->cat_words < words) f->cat_words = words;
            if (f->cat_words < gpl_node_set_words(n)) f->cat_words = gpl_node_set_words(n);
        }
    /* Sets of many categories take their words at every node. */
    const uint64_t set_bytes = (uint64_t)(total ? total : 1) * (uint64_t)f->cat_words * 4;
    gpulayer_status st = any_categorical
        ? gpl_check_host_memory(set_bytes, "the trees' category sets for prediction")
        : GPULAYER_OK;
    if (st != GPULAYER_OK) {
        gpl_infer_forest_free(f);
        return st;
    }
    if (any_categorical &&
        !(f->cat_sets = calloc((size_t)(total ? total : 1) * (size_t)f->cat_words,
                               sizeof(uint32_t)))) {
        gpl_infer_forest_free(f);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory for prediction");
    }
    int64_t at = 0;
    for (int32_t t = 0; t < num_trees; t++) {
        const gpl_tree *tree = &trees[t];
        f->first[t] = at;
        f->depth[t] = tree_depth(tree, 0);
        for (int32_t i = 0; i < tree->num_nodes; i++) {
            const gpl_tree_node *n = &tree->nodes[i];
            /* A leaf points to itself (any bin goes "left" to it), so a
             * walk of the tree's full depth needs no test for leaves. */
            f->nodes[at + i] = n->left < 0
                ? (gpl_infer_node){{i, i}, 0, GPL_INFER_LEAF_BIN, 1, 0}
                : (gpl_infer_node){{n->left, n->right}, n->feature, (uint16_t)n->split_bin,
                                   (uint8_t)n->default_left, (uint8_t)(n->categorical != 0)};
            if (n->left >= 0 && n->categorical)
                memcpy(f->cat_sets + (at + i) * f->cat_words, gpl_node_set(n),
                       sizeof(uint32_t) * (size_t)gpl_node_set_words(n));
            f->leaf[at + i] = n->leaf_value;
        }
        at += tree->num_nodes;
    }
    f->first[num_trees] = at;
    f->code_bytes = gpl_bin_code_bytes(&m->cuts);
    f->num_trees = num_trees;
    f->num_nodes = at;
    return GPULAYER_OK;
}

/* Which child a row goes to, without branches (the direction is data
 * dependent, so branches would mispredict): value bins 1..bin go left (b - 1
 * wraps around for the missing bin 0), missing values where they learned. */
static inline __attribute__((always_inline)) int32_t
infer_step(const gpl_infer_node *nodes, int32_t k, const uint8_t *row, const int w)
{
    const gpl_infer_node *nd = &nodes[k];
    unsigned b = gpl_bin_code(row, w, nd->feature);
    unsigned left = ((b - 1u) < nd->bin) | ((b == 0u) & nd->default_left);
    return nd->child[left ^ 1u];
}

/* The same for a forest with categorical nodes (sets: the tree's). */
static inline __attribute__((always_inline)) int32_t
infer_step_cat(const gpl_infer_node *nodes, const uint32_t *sets, int32_t words, int32_t k,
               const uint8_t *row, const int w)
{
    const gpl_infer_node *nd = &nodes[k];
    unsigned b = gpl_bin_code(row, w, nd->feature);
    /* Both tests, then a select: which one applies varies from node to
     * node along a path, so a branch on the node's kind would mispredict.
     * Every node has a set (numeric ones a zero one). A categorical bin is
     * within its set; a numeric node's 16-bit bin may not be, and the word
     * index is kept within the node's set (the set's answer is not used). */
    const unsigned word = (b >> 5) < (unsigned)words ? b >> 5 : 0u;
    const unsigned in_set = (sets[(int64_t)k * words + word] >> (b & 31)) & 1u;
    const unsigned below = (b - 1u) < nd->bin;
    const unsigned cat = nd->categorical;
    unsigned left = (in_set & cat) | (below & (cat ^ 1u));
    left |= (b == 0u) & nd->default_left;
    return nd->child[left ^ 1u];
}

#define STEP(k, row) \
    (sets ? infer_step_cat(nodes, sets, f->cat_words, (k), (row), w) \
          : infer_step(nodes, (k), (row), w))

/* Adds one tree's leaf values for n rows of bins (row stride F codes of w
 * bytes). */
static inline __attribute__((always_inline)) void
forest_add_tree_codes(const gpl_infer_forest *f, int32_t t, const uint8_t *bins, int64_t n,
                      int32_t F, float *out, int32_t stride, const int w)
{
    const gpl_infer_node *nodes = f->nodes + f->first[t];
    const uint32_t *sets = f->cat_sets ? f->cat_sets + f->first[t] * f->cat_words : NULL;
    const float *leaf = f->leaf + f->first[t];
    const int32_t depth = f->depth[t];
    int64_t i = 0;
    for (; i + PREDICT_LANES <= n; i += PREDICT_LANES) {
        int32_t idx[PREDICT_LANES] = {0};
        const uint8_t *row = bins + i * F * w;
        for (int32_t d = 0; d < depth; d++) {
#pragma GCC unroll 8
            for (int j = 0; j < PREDICT_LANES; j++) idx[j] = STEP(idx[j], row + j * F * w);
        }
        for (int j = 0; j < PREDICT_LANES; j++) out[(i + j) * stride] += leaf[idx[j]];
    }
    for (; i < n; i++) {
        int32_t k = 0;
        for (int32_t d = 0; d < depth; d++) k = STEP(k, bins + i * F * w);
        out[i * stride] += leaf[k];
    }
}

#undef STEP

static void forest_add_tree(const gpl_infer_forest *f, int32_t t, const uint8_t *bins,
                            int64_t n, int32_t F, float *out, int32_t stride)
{
    if (f->code_bytes == 1) forest_add_tree_codes(f, t, bins, n, F, out, stride, 1);
    else forest_add_tree_codes(f, t, bins, n, F, out, stride, 2);
}

void gpl_forest_add_to_margins(const gpl_infer_forest *f, const uint8_t *bins,
                               int64_t num_rows, int32_t num_features, int32_t num_outputs,
                               float *margins, int nthread)
{
    const int64_t row_bytes = (int64_t)num_features * f->code_bytes;
#pragma omp parallel for num_threads(nthread) schedule(dynamic, 4)
    for (int64_t start = 0; start < num_rows; start += PREDICT_BLOCK_ROWS) {
        const int64_t n = num_rows - start < PREDICT_BLOCK_ROWS ? num_rows - start
                                                                : PREDICT_BLOCK_ROWS;
        for (int32_t t = 0; t < f->num_trees; t++)
            forest_add_tree(f, t, bins + start * row_bytes, n, num_features,
                            margins + start * num_outputs + t % num_outputs, num_outputs);
    }
}

gpulayer_status gpl_margins_add_model(const gpl_model *m, const uint8_t *bins, int64_t num_rows,
                                      int32_t num_features, float *margins, int nthread)
{
    if (m->num_trees == 0 || num_rows == 0) return GPULAYER_OK;
    gpl_infer_forest f;
    GPL_CHECK(gpl_infer_forest_build(m, m->num_trees, &f));
    gpl_forest_add_to_margins(&f, bins, num_rows, num_features, m->num_outputs, margins,
                              nthread);
    gpl_infer_forest_free(&f);
    return GPULAYER_OK;
}

void gpl_tree_add_to_margins(const gpl_tree *t, const uint8_t *bins, int code_bytes,
                             int64_t num_rows, int32_t num_features,
                             int32_t num_outputs, int32_t output,
                             float *margins, int nthread)
{
#pragma omp parallel for num_threads(nthread) schedule(static)
    for (int64_t r = 0; r < num_rows; r++) {
        const uint8_t *row = bins + r * num_features * code_bytes;
        margins[r * num_outputs + output] +=
            t->nodes[gpl_tree_leaf_index(t, row, code_bytes)].leaf_value;
    }
}

/* A name of dict that is not a number (the cell that made the column
 * text), else its first name. */
static const char *first_text(const gpl_category_dict *dict)
{
    for (int32_t i = 0; i < dict->count; i++) {
        const char *t = dict->names[i];
        float v;
        if (!gpl_parse_float(t, t + strlen(t), &v)) return t;
    }
    return dict->count > 0 ? dict->names[0] : "";
}

/* Codes of a categorical column of ds translated to the model's dictionary
 * (unknown names become missing), or NULL when no translation is needed. */
static float *translate_categories(const gpl_model *m, const gpulayer_dataset *ds,
                                   int32_t col, gpulayer_status *st)
{
    *st = GPULAYER_OK;
    const gpl_category_dict *model_dict = m->categories ? m->categories[col] : NULL;
    const gpl_category_dict *data_dict = ds->categories ? ds->categories[col] : NULL;
    if (!model_dict && data_dict) {
        /* Codes read as numbers would give wrong predictions without a
         * word: a typo in a numeric column is an error. */
        char column[96];
        if (m->feature_names && m->feature_names[col])
            snprintf(column, sizeof column, "column '%.64s'", m->feature_names[col]);
        else
            snprintf(column, sizeof column, "feature column %d", (int)col);
        *st = gpl_error(GPULAYER_ERR_PARSE,
                        "%s%s%s holds the text '%.64s', but the model reads it as a number: "
                        "correct the value, or leave the cell empty (or NA) for a missing "
                        "value",
                        ds->source ? ds->source : "", ds->source ? ": " : "", column,
                        first_text(data_dict));
        return NULL;
    }
    const int32_t *groups = m->cat_groups ? m->cat_groups[col] : NULL;
    if (model_dict && groups && !data_dict) {
        /* Codes of the model's dictionary: into their groups. */
        float *out = malloc(sizeof(float) * (size_t)(ds->num_rows ? ds->num_rows : 1));
        if (!out) {
            *st = gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory translating categories");
            return NULL;
        }
        gpl_categorical_group_values(groups, model_dict->count,
                                     ds->values + (int64_t)col * ds->num_rows, ds->num_rows, out);
        return out;
    }
    if (!model_dict || !data_dict) return NULL;
    int32_t *map = malloc(sizeof(int32_t) * (size_t)(data_dict->count ? data_dict->count : 1));
    float *out = malloc(sizeof(float) * (size_t)(ds->num_rows ? ds->num_rows : 1));
    if (!map || !out) {
        free(map);
        free(out);
        *st = gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory translating categories");
        return NULL;
    }
    for (int32_t i = 0; i < data_dict->count; i++) {
        map[i] = -1;
        /* Both dictionaries are sorted: a binary search finds the name. */
        int32_t lo = 0, hi = model_dict->count - 1;
        while (lo <= hi) {
            int32_t mid = (lo + hi) / 2;
            int c = strcmp(model_dict->names[mid], data_dict->names[i]);
            if (c == 0) {
                map[i] = mid;
                break;
            }
            if (c < 0) lo = mid + 1;
            else hi = mid - 1;
        }
    }
    const float *src = ds->values + (int64_t)col * ds->num_rows;
    for (int64_t r = 0; r < ds->num_rows; r++) {
        float v = src[r];
        int32_t code = isnan(v) ? -1 : (int32_t)v;
        out[r] = (code >= 0 && code < data_dict->count && map[code] >= 0)
                     ? (float)map[code] : NAN;
    }
    free(map);
    if (groups) gpl_categorical_group_values(groups, model_dict->count, out, ds->num_rows, out);
    return out;
}

void gpl_predict_block(const gpl_model *m, const gpl_infer_forest *forest,
                       const gpl_padded_cuts *padded, const float *const *columns, int64_t n,
                       const float *base, int margin, uint8_t *bins, float *o, float *out)
{
    const int32_t F = m->num_features, K = m->num_outputs;
    const int w = forest->code_bytes;
    for (int32_t f = 0; f < F; f++)
        gpl_bin_values(&padded[f], columns[f], n, bins + f * w, F, w);
    if (base) memcpy(o, base, sizeof(float) * (size_t)(n * K));
    else
        for (int64_t i = 0; i < n * K; i++) o[i] = gpl_model_base_margin(m, (int32_t)(i % K));
    for (int32_t t = 0; t < forest->num_trees; t++)
        forest_add_tree(forest, t, bins, n, F, o + t % K, K);
    if (margin) {
        memcpy(out, o, sizeof(float) * (size_t)(n * K));
        return;
    }
    for (int64_t i = 0; i < n; i++) gpl_objective_transform(m, o + i * K);
    /* multi:softmax gives one value (the class) a row. */
    if (!m->softmax_output_class) memcpy(out, o, sizeof(float) * (size_t)(n * K));
    else
        for (int64_t i = 0; i < n; i++) out[i] = o[i * K];
}

gpulayer_status gpl_predict_place(const char *what, const char *device, char *accelerator,
                                  size_t size, int *index, int verbose)
{
    snprintf(accelerator, size, "cpu");
    *index = 0;
    if (!device || !device[0] || !strcmp(device, "cpu")) return GPULAYER_OK;
    char reason[512] = "";
    gpulayer_status st = gpl_device_choose_backend(device, accelerator, size, index,
                                                   reason, sizeof reason);
    if (st != GPULAYER_OK)
        return gpl_error_prefix(st, "%s on device '%s'", what, device);
    if (verbose && reason[0]) fprintf(stderr, "[gpulayer] %s: %s\n", what, reason);
    return GPULAYER_OK;
}

/* Margins of every row from a device backend's predict operation, then
 * the host's transform (the same function as the CPU path, row by row). */
static gpulayer_status predict_device(const gpl_model *m, const gpl_infer_forest *forest,
                                      const float *const *columns, int64_t N,
                                      const char *device, const char *accelerator,
                                      int index, int margin, int nthread, float *out)
{
    const int32_t K = m->num_outputs;
    const int32_t width = margin || !m->softmax_output_class ? K : 1;
    gpl_backend_config cfg = {nthread, index, 1, K, 0};
    gpl_backend *be = NULL;
    gpulayer_status st = gpl_backend_create(accelerator, &cfg, &be);
    if (st != GPULAYER_OK)
        return gpl_error_prefix(st, "prediction on device '%s'", device);
    if (!gpl_backend_has(be, GPL_BACKEND_CAP_PREDICT)) {
        gpl_backend_destroy(be);
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "prediction on device '%s': the %s backend cannot predict; "
                         "use device cpu", device, accelerator);
    }
    st = gpl_bin_codes_supported(&m->cuts, be, GPL_BACKEND_CAP_WIDE_PREDICT, "prediction");
    if (st == GPULAYER_OK) st = gpl_forest_sets_supported(forest, be, "prediction");
    if (st != GPULAYER_OK) {
        gpl_backend_destroy(be);
        return st;
    }
    float *margins = width == K ? out : malloc(sizeof(float) * (size_t)(N > 0 ? N * K : 1));
    float *base = malloc(sizeof(float) * (size_t)K);
    if (!margins || !base) {
        gpl_backend_destroy(be);
        if (margins != out) free(margins);
        free(base);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory for prediction margins");
    }
    for (int32_t k = 0; k < K; k++) base[k] = gpl_model_base_margin(m, k);
    gpl_predict_job job = {forest, K, base, m->num_features, m->cuts.cut_ptr,
                           m->cuts.values, N, columns};
    st = be->ops->predict(be, &job, margins);
    gpl_backend_destroy(be);
    free(base);
    if (st == GPULAYER_OK && !margin) {
#pragma omp parallel for num_threads(nthread) schedule(static)
        for (int64_t i = 0; i < N; i++) gpl_objective_transform(m, margins + i * K);
        if (width != K)
            for (int64_t i = 0; i < N; i++) out[i] = margins[i * K];
    }
    if (margins != out) free(margins);
    return st;
}

gpulayer_status gpl_forest_sets_supported(const gpl_infer_forest *f, const gpl_backend *be,
                                          const char *job)
{
    if (f->cat_words <= GPL_CAT_WORDS || gpl_backend_has(be, GPL_BACKEND_CAP_WIDE_SETS))
        return GPULAYER_OK;
    return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                     "%s on the %s backend: the model splits a categorical feature of more "
                     "than 255 categories by sets, which this backend does not take in this "
                     "version; use device cpu, or train with max_categories 255 or less",
                     job, be->ops->name);
}

int32_t gpl_predict_num_trees(const gpl_model *m, int32_t num_rounds)
{
    int32_t rounds = gpl_model_num_rounds(m);
    if (num_rounds <= 0 && m->best_round >= 0) num_rounds = m->best_round + 1;
    if (num_rounds > 0 && num_rounds < rounds) rounds = num_rounds;
    return rounds * gpl_model_trees_per_round(m);
}

void gpl_predict_columns_free(const gpl_model *m, const float **columns, float **owned)
{
    if (owned)
        for (int32_t f = 0; f < m->num_features; f++) free(owned[f]);
    free(owned);
    free(columns);
}

gpulayer_status gpl_predict_columns(const gpl_model *m, const gpulayer_dataset *ds,
                                    const float ***columns_out, float ***owned_out)
{
    const int32_t F = m->num_features;
    *columns_out = NULL;
    *owned_out = NULL;
    if (ds->num_cols != F)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s%shas %d columns but the model was trained on %d "
                         "features", ds->source ? ds->source : "",
                         ds->source ? " " : "the data ", ds->num_cols, F);
    /* Categorical columns whose codes need translating, gathered into a
     * view of the data with the translated columns swapped in. */
    const float **columns = malloc(sizeof(float *) * (size_t)(F ? F : 1));
    float **owned = calloc((size_t)(F ? F : 1), sizeof(float *));
    if (!columns || !owned) {
        free(columns);
        free(owned);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory for prediction");
    }
    gpulayer_status st = GPULAYER_OK;
    for (int32_t f = 0; f < F && st == GPULAYER_OK; f++) {
        owned[f] = translate_categories(m, ds, f, &st);
        columns[f] = owned[f] ? owned[f] : ds->values + (int64_t)f * ds->num_rows;
    }
    if (st != GPULAYER_OK) {
        gpl_predict_columns_free(m, columns, owned);
        return st;
    }
    *columns_out = columns;
    *owned_out = owned;
    return GPULAYER_OK;
}

static gpulayer_status predict_dense(const gpl_model *m, const gpulayer_dataset *ds,
                                     int margin, int32_t num_rounds, int nthread,
                                     const char *device, float *out)
{
    const int32_t F = m->num_features, K = m->num_outputs;
    const float **columns = NULL;
    float **owned = NULL;
    GPL_CHECK(gpl_predict_columns(m, ds, &columns, &owned));
    char accelerator[32];
    int index;
    gpulayer_status st =
        gpl_predict_place("prediction", device, accelerator, sizeof accelerator, &index, 0);
    if (st == GPULAYER_OK)
        st = gpl_dataset_check_base_margin(ds, K, ds->source ? ds->source : "the data");
    if (st == GPULAYER_OK && ds->base_margin && strcmp(accelerator, "cpu") != 0)
        st = gpl_error(GPULAYER_ERR_UNSUPPORTED,
                       "prediction on device '%s': data with base margins are predicted on "
                       "the CPU only; use device cpu", device);
    const int32_t num_trees = gpl_predict_num_trees(m, num_rounds);
    const int32_t width = gpl_model_prediction_width(m, margin);
    int nt = gpl_threads(nthread);

    gpl_infer_forest forest = {0};
    if (st == GPULAYER_OK) st = gpl_infer_forest_build(m, num_trees, &forest);
    if (st == GPULAYER_OK && strcmp(accelerator, "cpu") != 0) {
        st = predict_device(m, &forest, columns, ds->num_rows, device, accelerator, index,
                            margin, nt, out);
        gpl_infer_forest_free(&forest);
    } else if (st == GPULAYER_OK) {
        const int64_t N = ds->num_rows;
        gpl_padded_cuts *padded = gpl_padded_cuts_all(&m->cuts);
        if (!padded) st = GPULAYER_ERR_OUT_OF_MEMORY;
        /* Not an OpenMP if-clause: with it false the region would still
         * run, on one thread, reading the NULL cuts. */
        if (padded)
#pragma omp parallel num_threads(nt)
        {
            uint8_t *bins = malloc((size_t)PREDICT_BLOCK_ROWS * (size_t)(F ? F : 1) *
                                   (size_t)forest.code_bytes);
            float *o = malloc(sizeof(float) * PREDICT_BLOCK_ROWS * (size_t)K);
            const float **block = malloc(sizeof(float *) * (size_t)(F ? F : 1));
#pragma omp for schedule(dynamic)
            for (int64_t start = 0; start < N; start += PREDICT_BLOCK_ROWS) {
                if (!bins || !o || !block) continue;
                int64_t n = N - start < PREDICT_BLOCK_ROWS ? N - start : PREDICT_BLOCK_ROWS;
                for (int32_t f = 0; f < F; f++) block[f] = columns[f] + start;
                gpl_predict_block(m, &forest, padded, block, n,
                                  ds->base_margin ? ds->base_margin + start * K : NULL, margin,
                                  bins, o, out + start * width);
            }
            if (!bins || !o || !block) {
#pragma omp atomic write
                st = GPULAYER_ERR_OUT_OF_MEMORY;
            }
            free(bins);
            free(o);
            free(block);
        }
        free(padded);
        if (st != GPULAYER_OK)
            gpl_error(st, "out of host memory for prediction buffers");
        gpl_infer_forest_free(&forest);
    }
    gpl_predict_columns_free(m, columns, owned);
    return st;
}

/* Prediction reads whole columns; sparse data are made dense for it
 * (the memory checked first). */
gpulayer_status gpl_predict_dataset(const gpl_model *m,
                                    const gpulayer_dataset *ds, int margin,
                                    int32_t num_rounds, int nthread,
                                    const char *device, float *out)
{
    gpulayer_dataset *dense = NULL;
    GPL_CHECK(gpl_dataset_dense_copy(ds, &dense));
    gpulayer_status st = predict_dense(m, dense ? dense : ds, margin, num_rounds, nthread,
                                       device, out);
    gpulayer_dataset_free(dense);
    return st;
}
