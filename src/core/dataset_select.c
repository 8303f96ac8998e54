/* dataset_select.c -- a dataset made of some columns of another (rows,
 * with their labels, weights, base margins and query groups, kept). */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dataset.h"
#include "error.h"

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
    return GPULAYER_OK;
}

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
