/* dataset_select.c -- a dataset made of some columns of another (rows,
 * with their labels, weights, base margins and query groups, kept), or of
 * some of its rows. */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dataset.h"
#include "error.h"

static gpulayer_status select_dense(const gpulayer_dataset *ds, const int32_t *cols,
                                    int32_t num_cols, gpulayer_dataset **out);

gpulayer_status gpulayer_dataset_select_columns(const gpulayer_dataset *ds,
                                                const int32_t *cols, int32_t num_cols,
                                                gpulayer_dataset **out)
{
    if (!ds || !cols || !out || num_cols < 1)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_dataset_select_columns: bad arguments");
    for (int32_t i = 0; i < num_cols; i++)
        if (cols[i] < 0 || cols[i] >= ds->num_cols)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "column %d is outside 0..%d", cols[i], ds->num_cols - 1);
    gpulayer_dataset *dense = NULL;
    GPL_CHECK(gpl_dataset_dense_copy(ds, &dense));
    gpulayer_status st = select_dense(dense ? dense : ds, cols, num_cols, out);
    gpulayer_dataset_free(dense);
    return st;
}

static gpulayer_status select_dense(const gpulayer_dataset *ds, const int32_t *cols,
                                    int32_t num_cols, gpulayer_dataset **out)
{
    gpulayer_dataset *o;
    GPL_CHECK(gpl_dataset_alloc(ds->num_rows, num_cols, &o));
    gpulayer_status st = gpl_dataset_copy_row_info(ds, o);
    if (st == GPULAYER_OK && ds->feature_names &&
        !(o->feature_names = calloc((size_t)num_cols, sizeof(char *))))
        st = gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory");
    if (st == GPULAYER_OK && ds->categories &&
        !(o->categories = calloc((size_t)num_cols, sizeof(gpl_category_dict *))))
        st = gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory");
    for (int32_t i = 0; i < num_cols && st == GPULAYER_OK; i++) {
        int32_t c = cols[i];
        memcpy(o->values + (int64_t)i * ds->num_rows, ds->values + (int64_t)c * ds->num_rows,
               sizeof(float) * (size_t)ds->num_rows);
        if (o->feature_names && ds->feature_names[c] &&
            !(o->feature_names[i] = gpl_strdup(ds->feature_names[c])))
            st = GPULAYER_ERR_OUT_OF_MEMORY;
        if (st == GPULAYER_OK && o->categories && ds->categories[c] &&
            !(o->categories[i] = gpl_category_dict_new(
                  (const char *const *)ds->categories[c]->names, ds->categories[c]->count)))
            st = GPULAYER_ERR_OUT_OF_MEMORY;
    }
    if (st != GPULAYER_OK) {
        gpulayer_dataset_free(o);
        return st;
    }
    *out = o;
    return GPULAYER_OK;
}

/* Names and category dictionaries of every column of ds into o. */
static gpulayer_status copy_column_info(const gpulayer_dataset *ds, gpulayer_dataset *o)
{
    const size_t C = (size_t)ds->num_cols;
    if (ds->feature_names && !(o->feature_names = gpl_calloc(C, sizeof(char *), "names")))
        return GPULAYER_ERR_OUT_OF_MEMORY;
    if (ds->categories &&
        !(o->categories = gpl_calloc(C, sizeof(gpl_category_dict *), "categories")))
        return GPULAYER_ERR_OUT_OF_MEMORY;
    for (size_t c = 0; c < C; c++) {
        if (o->feature_names && ds->feature_names[c] &&
            !(o->feature_names[c] = gpl_strdup(ds->feature_names[c])))
            return GPULAYER_ERR_OUT_OF_MEMORY;
        if (o->categories && ds->categories[c] &&
            !(o->categories[c] = gpl_category_dict_new(
                  (const char *const *)ds->categories[c]->names, ds->categories[c]->count)))
            return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    return GPULAYER_OK;
}

gpulayer_status gpulayer_dataset_select_rows(const gpulayer_dataset *ds, int64_t first,
                                             int64_t count, gpulayer_dataset **out)
{
    if (!ds || !out)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_dataset_select_rows: NULL argument");
    if (first < 0 || count < 0 || first > ds->num_rows || count > ds->num_rows - first)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "rows %lld..%lld are outside the data's %lld rows", (long long)first,
                         (long long)(first + count), (long long)ds->num_rows);
    gpulayer_dataset *o;
    GPL_CHECK(gpl_dataset_alloc(count, ds->num_cols, &o));
    gpulayer_status st = copy_column_info(ds, o);
    if (st == GPULAYER_OK && ds->source && !(o->source = gpl_strdup(ds->source)))
        st = GPULAYER_ERR_OUT_OF_MEMORY;
    const size_t n = sizeof(float) * (size_t)(count ? count : 1);
    if (st == GPULAYER_OK && ds->label) {
        if ((o->label = gpl_malloc(n, "labels")))
            memcpy(o->label, ds->label + first, sizeof(float) * (size_t)count);
        else
            st = GPULAYER_ERR_OUT_OF_MEMORY;
    }
    if (st == GPULAYER_OK && ds->weight) {
        if ((o->weight = gpl_malloc(n, "weights")))
            memcpy(o->weight, ds->weight + first, sizeof(float) * (size_t)count);
        else
            st = GPULAYER_ERR_OUT_OF_MEMORY;
    }
    if (st == GPULAYER_OK && ds->base_margin) {
        const int64_t w = ds->base_margin_width;
        if ((o->base_margin = gpl_malloc(n * (size_t)w, "base margins"))) {
            memcpy(o->base_margin, ds->base_margin + first * w, sizeof(float) * (size_t)(count * w));
            o->base_margin_width = ds->base_margin_width;
        } else {
            st = GPULAYER_ERR_OUT_OF_MEMORY;
        }
    }
    for (int32_t c = 0; c < ds->num_cols && st == GPULAYER_OK; c++) {
        float *dst = o->values + (int64_t)c * count;
        if (ds->values)
            memcpy(dst, ds->values + (int64_t)c * ds->num_rows + first,
                   sizeof(float) * (size_t)count);
        else
            for (int64_t r = 0; r < count; r++) dst[r] = gpl_dataset_value(ds, first + r, c);
    }
    if (st != GPULAYER_OK) {
        gpulayer_dataset_free(o);
        return st;
    }
    *out = o;
    return GPULAYER_OK;
}
