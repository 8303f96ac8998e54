/* dataset.h -- the raw (unbinned) data behind gpulayer_dataset. */
#ifndef GPL_DATASET_H
#define GPL_DATASET_H

#include <stdint.h>

#include "gpulayer.h"

/* The category names of one categorical column; a value of the column is the
 * 0-based code of its name (NaN = missing). Codes follow the sorted order of
 * the names so that they do not depend on row order. */
typedef struct gpl_category_dict {
    int32_t count;
    char **names;
} gpl_category_dict;

struct gpulayer_dataset {
    int64_t num_rows;
    int32_t num_cols;
    /* Column-major values: values[(int64_t)col * num_rows + row]; NaN is
     * missing. Column-major because binning and the column-wise kernels
     * stream one feature at a time. */
    float *values;
    float *label;  /* num_rows, or NULL */
    float *weight; /* num_rows, or NULL (all ones) */
    char **feature_names;             /* num_cols entries (each may be NULL), or NULL */
    gpl_category_dict **categories;   /* num_cols entries (NULL = numeric), or NULL */
    char *source;                     /* file name for messages, or NULL */
};

/* An empty dataset of the given shape with values uninitialised. */
gpulayer_status gpl_dataset_alloc(int64_t num_rows, int32_t num_cols,
                                  gpulayer_dataset **out);
void gpl_category_dict_free(gpl_category_dict *dict);
/* A dictionary holding copies of names[0..n); NULL (error set) when out of
 * memory. */
gpl_category_dict *gpl_category_dict_new(const char *const *names, int32_t n);

static inline float gpl_dataset_value(const gpulayer_dataset *ds, int64_t row,
                                      int32_t col)
{
    return ds->values[(int64_t)col * ds->num_rows + row];
}

#endif
