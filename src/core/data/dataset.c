/* dataset.c -- the dataset object: construction from memory, labels,
 * weights, margins, feature names and category dictionaries. Files are read
 * by dataset_read.c; category lists of columns are set by
 * dataset_categories.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "alloc.h"
#include "error.h"
#include "memory_limit.h"
#include "name_index.h"
#include "utf8.h"

#define INVALID GPULAYER_ERR_INVALID_ARGUMENT

/* ------------------------------------------------------------- internals */

gpulayer_status gpl_dataset_alloc(int64_t num_rows, int32_t num_cols,
                                  gpulayer_dataset **out)
{
    *out = NULL;
    if (num_rows < 0 || num_cols < 0)
        return gpl_error(INVALID, "a dataset cannot have %lld rows and %d columns",
                         (long long)num_rows, (int)num_cols);
    if (num_cols > 0 &&
        (uint64_t)num_rows > (uint64_t)(SIZE_MAX / sizeof(float)) / (uint64_t)num_cols)
        return gpl_error(INVALID,
                         "a dataset of %lld rows x %d columns is too large to "
                         "address", (long long)num_rows, (int)num_cols);
    char what[96];
    snprintf(what, sizeof what, "a dataset of %lld rows x %d columns", (long long)num_rows,
             (int)num_cols);
    GPL_CHECK(gpl_check_host_memory((uint64_t)num_rows * (uint64_t)num_cols * sizeof(float),
                                    what));
    gpulayer_dataset *ds = gpl_calloc(1, sizeof *ds, "a dataset");
    if (!ds) return GPULAYER_ERR_OUT_OF_MEMORY;
    ds->num_rows = num_rows;
    ds->num_cols = num_cols;
    ds->values = gpl_malloc((size_t)num_rows * (size_t)num_cols * sizeof(float),
                            "dataset values");
    if (!ds->values) {
        free(ds);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    *out = ds;
    return GPULAYER_OK;
}

void gpl_category_dict_free(gpl_category_dict *dict)
{
    if (!dict) return;
    if (dict->names)
        for (int32_t i = 0; i < dict->count; i++) free(dict->names[i]);
    free(dict->names);
    free(dict);
}

static void free_names(char **names, int32_t count)
{
    if (!names) return;
    for (int32_t i = 0; i < count; i++) free(names[i]);
    free(names);
}

void gpl_sparse_columns_free(gpl_sparse_columns *s)
{
    if (!s) return;
    free(s->col_start);
    free(s->rows);
    free(s->values);
    free(s);
}

void gpulayer_dataset_free(gpulayer_dataset *ds)
{
    if (!ds) return;
    free(ds->values);
    gpl_sparse_columns_free(ds->sparse);
    free(ds->label);
    free(ds->weight);
    gpl_category_dict_free(ds->label_classes);
    free(ds->base_margin);
    free(ds->feature_weights);
    free_names(ds->feature_names, ds->num_cols);
    if (ds->categories)
        for (int32_t c = 0; c < ds->num_cols; c++)
            gpl_category_dict_free(ds->categories[c]);
    free(ds->categories);
    free(ds->source);
    free(ds->group_ptr);
    gpl_row_lines_free(ds->lines);
    free(ds);
}

const char *gpl_dataset_row_text(const gpulayer_dataset *ds, int64_t row, char *buf,
                                 size_t size)
{
    const int64_t line = gpl_row_lines_find(ds->lines, row);
    if (line > 0) snprintf(buf, size, "line %lld", (long long)line);
    else snprintf(buf, size, "row %lld", (long long)row + 1);
    return buf;
}

/* ------------------------------------------------------ labels / weights */

/* Labels must be finite; weights finite and not negative. */
static gpulayer_status check_values(const char *fn, const char *what,
                                    const float *v, int64_t n, int is_weight)
{
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(v[i]))
            return gpl_error(INVALID, "%s: %s[%lld] is %s; %ss must be finite",
                             fn, what, (long long)i, isnan(v[i]) ? "NaN" : "infinite",
                             what);
        if (is_weight && v[i] < 0)
            return gpl_error(INVALID, "%s: weight[%lld] is negative (%g)", fn,
                             (long long)i, (double)v[i]);
    }
    return GPULAYER_OK;
}

/* A checked copy of n labels or weights. */
static gpulayer_status copy_values(const char *fn, const char *what,
                                   const float *src, int64_t n, int is_weight,
                                   float **out)
{
    *out = NULL;
    GPL_CHECK(check_values(fn, what, src, n, is_weight));
    float *copy = gpl_malloc((size_t)n * sizeof *copy, what);
    if (!copy) return GPULAYER_ERR_OUT_OF_MEMORY;
    memcpy(copy, src, (size_t)n * sizeof *copy);
    *out = copy;
    return GPULAYER_OK;
}

static gpulayer_status check_row_count(const char *fn, const gpulayer_dataset *ds,
                                       const void *array, int64_t num_rows)
{
    if (!ds) return gpl_error(INVALID, "%s: the dataset is NULL", fn);
    if (!array) return gpl_error(INVALID, "%s: the array is NULL", fn);
    if (num_rows != ds->num_rows)
        return gpl_error(INVALID, "%s: got %lld values, but the dataset has %lld rows",
                         fn, (long long)num_rows, (long long)ds->num_rows);
    return GPULAYER_OK;
}

gpulayer_status gpulayer_dataset_set_label(gpulayer_dataset *ds,
                                           const float *label, int64_t num_rows)
{
    static const char fn[] = "gpulayer_dataset_set_label";
    GPL_CHECK(check_row_count(fn, ds, label, num_rows));
    float *copy;
    GPL_CHECK(copy_values(fn, "label", label, num_rows, 0, &copy));
    free(ds->label);
    ds->label = copy;
    /* Numbers now: the names no longer say what they mean. */
    gpl_category_dict_free(ds->label_classes);
    ds->label_classes = NULL;
    return GPULAYER_OK;
}

gpulayer_status gpulayer_dataset_set_weight(gpulayer_dataset *ds,
                                            const float *weight, int64_t num_rows)
{
    static const char fn[] = "gpulayer_dataset_set_weight";
    if (ds && !weight) { /* back to equal weights */
        free(ds->weight);
        ds->weight = NULL;
        return GPULAYER_OK;
    }
    GPL_CHECK(check_row_count(fn, ds, weight, num_rows));
    float *copy;
    GPL_CHECK(copy_values(fn, "weight", weight, num_rows, 1, &copy));
    free(ds->weight);
    ds->weight = copy;
    return GPULAYER_OK;
}

gpulayer_status gpulayer_dataset_set_base_margin(gpulayer_dataset *ds, const float *values,
                                                 int64_t num_values)
{
    static const char fn[] = "gpulayer_dataset_set_base_margin";
    if (ds && !values) { /* back to the model's base score */
        free(ds->base_margin);
        ds->base_margin = NULL;
        ds->base_margin_width = 0;
        return GPULAYER_OK;
    }
    if (!ds) return gpl_error(INVALID, "%s: the dataset is NULL", fn);
    if (ds->num_rows < 1 || num_values < ds->num_rows || num_values % ds->num_rows != 0 ||
        num_values / ds->num_rows > 65536)
        return gpl_error(INVALID,
                         "%s: got %lld values for %lld rows; give one a row, or one a row "
                         "and output (rows x outputs, row-major)",
                         fn, (long long)num_values, (long long)ds->num_rows);
    float *copy;
    GPL_CHECK(copy_values(fn, "base_margin", values, num_values, 0, &copy));
    free(ds->base_margin);
    ds->base_margin = copy;
    ds->base_margin_width = (int32_t)(num_values / ds->num_rows);
    return GPULAYER_OK;
}

gpulayer_status gpulayer_dataset_set_feature_weights(gpulayer_dataset *ds, const float *weights,
                                                    int32_t num_cols)
{
    static const char fn[] = "gpulayer_dataset_set_feature_weights";
    if (ds && !weights) {
        free(ds->feature_weights);
        ds->feature_weights = NULL;
        return GPULAYER_OK;
    }
    if (!ds) return gpl_error(INVALID, "%s: the dataset is NULL", fn);
    if (num_cols != ds->num_cols)
        return gpl_error(INVALID, "%s: got %d weights, but the dataset has %d columns", fn,
                         (int)num_cols, (int)ds->num_cols);
    float *copy;
    GPL_CHECK(copy_values(fn, "feature_weights", weights, num_cols, 1, &copy));
    int positive = 0;
    for (int32_t f = 0; f < num_cols; f++) positive |= copy[f] > 0.0f;
    if (!positive) {
        free(copy);
        return gpl_error(INVALID, "%s: every weight is 0; give some feature a weight above 0",
                         fn);
    }
    free(ds->feature_weights);
    ds->feature_weights = copy;
    return GPULAYER_OK;
}

gpulayer_status gpl_dataset_check_base_margin(const gpulayer_dataset *ds, int32_t num_outputs,
                                              const char *what)
{
    if (!ds->base_margin || ds->base_margin_width == num_outputs) return GPULAYER_OK;
    return gpl_error(INVALID,
                     "%s: the base margins have %d value(s) a row, but the model has %d "
                     "output(s) a row",
                     what, (int)ds->base_margin_width, (int)num_outputs);
}

gpulayer_status gpulayer_dataset_get_label(const gpulayer_dataset *ds,
                                           float *out, int64_t num_rows)
{
    static const char fn[] = "gpulayer_dataset_get_label";
    if (!ds || !out)
        return gpl_error(INVALID, "%s: %s is NULL", fn, ds ? "out" : "the dataset");
    if (!ds->label) return gpl_error(INVALID, "%s: the dataset has no labels", fn);
    if (num_rows < ds->num_rows)
        return gpl_error(INVALID, "%s: out holds %lld values, but the dataset has "
                         "%lld rows", fn, (long long)num_rows, (long long)ds->num_rows);
    memcpy(out, ds->label, (size_t)ds->num_rows * sizeof *out);
    return GPULAYER_OK;
}

gpulayer_status gpulayer_dataset_get_weight(const gpulayer_dataset *ds, float *out,
                                            int64_t num_rows, int *has_weight)
{
    static const char fn[] = "gpulayer_dataset_get_weight";
    if (!ds || !has_weight)
        return gpl_error(INVALID, "%s: %s is NULL", fn, ds ? "has_weight" : "the dataset");
    *has_weight = ds->weight != NULL;
    if (!ds->weight || !out) return GPULAYER_OK;
    if (num_rows < ds->num_rows)
        return gpl_error(INVALID, "%s: out holds %lld values, but the dataset has "
                         "%lld rows", fn, (long long)num_rows, (long long)ds->num_rows);
    memcpy(out, ds->weight, (size_t)ds->num_rows * sizeof *out);
    return GPULAYER_OK;
}

/* ------------------------------------------------------------ from dense */

/* Row-major to column-major, in blocks of rows so that the rows being
 * read stay in cache while each column is written. */
static void transpose(const float *src, int64_t rows, int32_t cols, float *dst)
{
    const int64_t block = 64;
    for (int64_t r0 = 0; r0 < rows; r0 += block) {
        int64_t r1 = r0 + block < rows ? r0 + block : rows;
        for (int32_t c = 0; c < cols; c++)
            for (int64_t r = r0; r < r1; r++)
                dst[(int64_t)c * rows + r] = src[r * cols + c];
    }
}

gpulayer_status gpulayer_dataset_from_dense(const float *data, int64_t num_rows,
                                            int32_t num_cols, gpulayer_layout layout,
                                            const float *label, const float *weight,
                                            gpulayer_dataset **out)
{
    static const char fn[] = "gpulayer_dataset_from_dense";
    if (!out) return gpl_error(INVALID, "%s: out is NULL", fn);
    *out = NULL;
    if (!data) return gpl_error(INVALID, "%s: data is NULL", fn);
    /* Zero rows make a dataset to predict (nothing) on, as XGBoost's
     * DMatrix allows; training refuses it (gpl_train_validate). */
    if (num_rows < 0 || num_cols <= 0)
        return gpl_error(INVALID, "%s: got %lld rows, %d columns; a dataset needs a "
                         "column, and may have 0 rows but no fewer", fn, (long long)num_rows,
                         (int)num_cols);
    if (layout != GPULAYER_ROW_MAJOR && layout != GPULAYER_COL_MAJOR)
        return gpl_error(INVALID, "%s: unknown layout %d", fn, (int)layout);
    gpulayer_dataset *ds;
    gpulayer_status st = gpl_dataset_alloc(num_rows, num_cols, &ds);
    if (st != GPULAYER_OK) return gpl_error_prefix(st, "%s", fn);
    if (layout == GPULAYER_COL_MAJOR)
        memcpy(ds->values, data, (size_t)num_rows * (size_t)num_cols * sizeof(float));
    else
        transpose(data, num_rows, num_cols, ds->values);
    if (label) st = copy_values(fn, "label", label, num_rows, 0, &ds->label);
    if (st == GPULAYER_OK && weight)
        st = copy_values(fn, "weight", weight, num_rows, 1, &ds->weight);
    if (st != GPULAYER_OK) {
        gpulayer_dataset_free(ds);
        return st;
    }
    *out = ds;
    return GPULAYER_OK;
}

gpulayer_status gpl_dataset_copy_row_info(const gpulayer_dataset *ds, gpulayer_dataset *o)
{
    size_t n = sizeof(float) * (size_t)(ds->num_rows ? ds->num_rows : 1);
    if (ds->label) {
        if (!(o->label = gpl_malloc(n, "labels"))) return GPULAYER_ERR_OUT_OF_MEMORY;
        memcpy(o->label, ds->label, sizeof(float) * (size_t)ds->num_rows);
    }
    if (ds->weight) {
        if (!(o->weight = gpl_malloc(n, "weights"))) return GPULAYER_ERR_OUT_OF_MEMORY;
        memcpy(o->weight, ds->weight, sizeof(float) * (size_t)ds->num_rows);
    }
    if (ds->base_margin) {
        const size_t bytes = n * (size_t)ds->base_margin_width;
        if (!(o->base_margin = gpl_malloc(bytes, "base margins")))
            return GPULAYER_ERR_OUT_OF_MEMORY;
        memcpy(o->base_margin, ds->base_margin, bytes);
        o->base_margin_width = ds->base_margin_width;
    }
    if (ds->group_ptr) {
        size_t bytes = sizeof(int64_t) * (size_t)(ds->num_groups + 1);
        if (!(o->group_ptr = gpl_malloc(bytes, "query group offsets")))
            return GPULAYER_ERR_OUT_OF_MEMORY;
        memcpy(o->group_ptr, ds->group_ptr, bytes);
        o->num_groups = ds->num_groups;
    }
    if (ds->source && !(o->source = gpl_strdup(ds->source))) return GPULAYER_ERR_OUT_OF_MEMORY;
    if (ds->label_classes &&
        !(o->label_classes = gpl_category_dict_new(
              (const char *const *)ds->label_classes->names, ds->label_classes->count)))
        return GPULAYER_ERR_OUT_OF_MEMORY;
    return GPULAYER_OK;
}

/* ------------------------------------------------------- names, categories */

/* Non-NULL, non-empty names must be distinct; the message names the first
 * position, in column order, whose name was already given. */
static gpulayer_status check_distinct(const char *fn, const char *what,
                                      const char *const *names, int32_t n)
{
    gpl_named *sorted = gpl_malloc(sizeof *sorted * (size_t)(n > 0 ? n : 1), "names");
    if (!sorted) return GPULAYER_ERR_OUT_OF_MEMORY;
    int32_t count = 0;
    for (int32_t i = 0; i < n; i++)
        if (names[i] && names[i][0]) sorted[count++] = (gpl_named){names[i], i};
    gpl_named_sort(sorted, count);
    int32_t repeat = gpl_named_first_repeat(sorted, count);
    free(sorted);
    if (repeat >= 0)
        return gpl_error(INVALID, "%s: %s '%s' is given twice (at %d)", fn, what,
                         names[repeat], (int)repeat);
    return GPULAYER_OK;
}

gpulayer_status gpulayer_dataset_set_feature_names(gpulayer_dataset *ds,
                                                   const char *const *names,
                                                   int32_t num_cols)
{
    static const char fn[] = "gpulayer_dataset_set_feature_names";
    if (!ds) return gpl_error(INVALID, "%s: the dataset is NULL", fn);
    if (!names) { /* forget the names */
        free_names(ds->feature_names, ds->num_cols);
        ds->feature_names = NULL;
        return GPULAYER_OK;
    }
    if (num_cols != ds->num_cols)
        return gpl_error(INVALID, "%s: got %d names, but the dataset has %d columns",
                         fn, (int)num_cols, (int)ds->num_cols);
    GPL_CHECK(check_distinct(fn, "feature name", names, num_cols));
    char **copy = gpl_calloc((size_t)num_cols, sizeof *copy, "feature names");
    if (!copy) return GPULAYER_ERR_OUT_OF_MEMORY;
    for (int32_t c = 0; c < num_cols; c++) {
        if (!names[c] || !names[c][0]) continue; /* unnamed */
        if (!(copy[c] = gpl_strdup(names[c]))) {
            free_names(copy, num_cols);
            return GPULAYER_ERR_OUT_OF_MEMORY;
        }
    }
    free_names(ds->feature_names, ds->num_cols);
    ds->feature_names = copy;
    return GPULAYER_OK;
}

gpl_category_dict *gpl_category_dict_new(const char *const *names, int32_t n)
{
    gpl_category_dict *dict = gpl_calloc(1, sizeof *dict, "a category list");
    if (!dict) return NULL;
    dict->names = gpl_calloc((size_t)n, sizeof *dict->names, "category names");
    if (!dict->names) goto fail;
    for (; dict->count < n; dict->count++)
        if (!(dict->names[dict->count] = gpl_strdup(names[dict->count]))) goto fail;
    return dict;
fail:
    gpl_category_dict_free(dict);
    return NULL;
}

/* --------------------------------------------------------------- queries */

int64_t gpulayer_dataset_num_rows(const gpulayer_dataset *ds)
{
    return ds ? ds->num_rows : 0;
}

int32_t gpulayer_dataset_num_cols(const gpulayer_dataset *ds)
{
    return ds ? ds->num_cols : 0;
}

gpulayer_status gpulayer_dataset_set_label_classes(gpulayer_dataset *ds,
                                                  const char *const *names,
                                                  int32_t num_classes)
{
    static const char fn[] = "gpulayer_dataset_set_label_classes";
    if (!ds) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: dataset is NULL", fn);
    if (!names) {
        gpl_category_dict_free(ds->label_classes);
        ds->label_classes = NULL;
        return GPULAYER_OK;
    }
    if (num_classes < 1 || num_classes > (1 << 24))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s: num_classes is %d, expected 1..%d", fn, num_classes, 1 << 24);
    for (int32_t k = 0; k < num_classes; k++) {
        if (!names[k])
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: name %d is NULL", fn, k);
        if (gpl_utf8_check(names[k], strlen(names[k])) != strlen(names[k]))
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "%s: name %d is not valid UTF-8", fn, k);
        if (k > 0 && strcmp(names[k - 1], names[k]) >= 0)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "%s: the names must be sorted and unique ('%s' after '%s')",
                             fn, names[k], names[k - 1]);
    }
    if (!ds->label)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s: the dataset has no labels to name", fn);
    for (int64_t r = 0; r < ds->num_rows; r++) {
        float y = ds->label[r];
        if (!(y >= 0.0f && y < (float)num_classes && y == floorf(y)))
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "%s: row %lld has label %g, not a class code 0..%d", fn,
                             (long long)r, (double)y, num_classes - 1);
    }
    gpl_category_dict *d = gpl_category_dict_new(names, num_classes);
    if (!d) return GPULAYER_ERR_OUT_OF_MEMORY;
    gpl_category_dict_free(ds->label_classes);
    ds->label_classes = d;
    return GPULAYER_OK;
}

int32_t gpulayer_dataset_num_label_classes(const gpulayer_dataset *ds)
{
    return ds && ds->label_classes ? ds->label_classes->count : 0;
}

const char *gpulayer_dataset_label_class(const gpulayer_dataset *ds, int32_t k)
{
    if (!ds || !ds->label_classes || k < 0 || k >= ds->label_classes->count) return NULL;
    return ds->label_classes->names[k];
}

const char *gpulayer_dataset_feature_name(const gpulayer_dataset *ds, int32_t col)
{
    if (!ds || !ds->feature_names || col < 0 || col >= ds->num_cols) return NULL;
    return ds->feature_names[col];
}

int32_t gpulayer_dataset_num_categories(const gpulayer_dataset *ds, int32_t col)
{
    if (!ds || col < 0 || col >= ds->num_cols) return -1;
    return ds->categories && ds->categories[col] ? ds->categories[col]->count : 0;
}

int64_t gpulayer_dataset_num_missing(const gpulayer_dataset *ds, int32_t col)
{
    if (!ds || col < 0 || col >= ds->num_cols) return -1;
    int64_t missing = 0;
    if (ds->sparse) {
        const gpl_sparse_columns *s = ds->sparse;
        missing = ds->num_rows - (s->col_start[col + 1] - s->col_start[col]);
        for (int64_t k = s->col_start[col]; k < s->col_start[col + 1]; k++)
            missing += isnan(s->values[k]);
        return missing;
    }
    const float *v = ds->values + (int64_t)col * ds->num_rows;
    for (int64_t r = 0; r < ds->num_rows; r++) missing += isnan(v[r]);
    return missing;
}
