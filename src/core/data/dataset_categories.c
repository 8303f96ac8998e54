/* dataset_categories.c -- naming the categories of a column whose values
 * are category codes (gpulayer_dataset_set_categories). */
#include <math.h>
#include <string.h>

#include "dataset.h"
#include "alloc.h"
#include "error.h"

#define INVALID GPULAYER_ERR_INVALID_ARGUMENT

/* Codes follow the sorted order of the names (see gpl_category_dict), so
 * the caller's list must already be in that order: reordering it here would
 * silently change what the caller's codes mean. */
static gpulayer_status check_category_names(const char *fn,
                                            const char *const *names, int32_t n)
{
    for (int32_t i = 0; i < n; i++) {
        if (!names[i])
            return gpl_error(INVALID, "%s: category name %d is NULL", fn, (int)i);
        if (i > 0 && strcmp(names[i - 1], names[i]) >= 0)
            return gpl_error(INVALID,
                             "%s: category names must be distinct and in sorted "
                             "(strcmp) order, as codes follow that order; '%s' "
                             "(at %d) does not sort after '%s'",
                             fn, names[i], (int)i, names[i - 1]);
    }
    return GPULAYER_OK;
}

/* Every present value of the column must be a code 0..n-1. */
static gpulayer_status check_codes(const char *fn, const gpulayer_dataset *ds,
                                   int32_t col, int32_t n)
{
    const float *v = ds->values + (int64_t)col * ds->num_rows;
    for (int64_t r = 0; r < ds->num_rows; r++) {
        if (isnan(v[r])) continue;
        if (!(v[r] >= 0 && v[r] < (float)n && v[r] == floorf(v[r])))
            return gpl_error(INVALID,
                             "%s: column %d, row %lld holds %g, which is not a "
                             "category code (0 to %d)", fn, (int)col,
                             (long long)r, (double)v[r], (int)n - 1);
    }
    return GPULAYER_OK;
}

gpulayer_status gpulayer_dataset_set_categories(gpulayer_dataset *ds, int32_t col,
                                                const char *const *names,
                                                int32_t num_categories)
{
    static const char fn[] = "gpulayer_dataset_set_categories";
    if (!ds) return gpl_error(INVALID, "%s: the dataset is NULL", fn);
    if (col < 0 || col >= ds->num_cols)
        return gpl_error(INVALID, "%s: column %d is out of range (0 to %d)", fn,
                         (int)col, (int)ds->num_cols - 1);
    if (num_categories < 0 || (num_categories > 0 && !names))
        return gpl_error(INVALID, "%s: need %d names, got %s", fn,
                         (int)num_categories, names ? "a negative count" : "NULL");
    GPL_CHECK(check_category_names(fn, names, num_categories));
    GPL_CHECK(gpl_dataset_make_dense(ds)); /* categorical data are held dense */
    GPL_CHECK(check_codes(fn, ds, col, num_categories));
    if (!ds->categories) {
        ds->categories = gpl_calloc((size_t)ds->num_cols, sizeof *ds->categories,
                                    "category lists");
        if (!ds->categories) return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    gpl_category_dict *dict = gpl_category_dict_new(names, num_categories);
    if (!dict) return GPULAYER_ERR_OUT_OF_MEMORY;
    gpl_category_dict_free(ds->categories[col]);
    ds->categories[col] = dict;
    return GPULAYER_OK;
}
