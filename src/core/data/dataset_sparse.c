/* dataset_sparse.c -- sparse datasets: built from compressed rows (the
 * LibSVM reader, gpulayer_dataset_from_csr), stored by column (binning
 * reads a feature at a time), and made dense where a consumer needs it. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dataset.h"
#include "error.h"
#include "memory_limit.h"

float gpl_dataset_value(const gpulayer_dataset *ds, int64_t row, int32_t col)
{
    if (!ds->sparse) return ds->values[(int64_t)col * ds->num_rows + row];
    const gpl_sparse_columns *s = ds->sparse;
    int64_t lo = s->col_start[col], hi = s->col_start[col + 1];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (s->rows[mid] < row) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->col_start[col + 1] && s->rows[lo] == row ? s->values[lo] : NAN;
}

#define AT(base, stride, k) (*(const __typeof__(*(base)) *)((const char *)(base) + (stride) * (k)))

gpulayer_status gpl_dataset_from_rows(int64_t num_rows, int32_t num_cols,
                                      const int64_t *row_start, const int32_t *index,
                                      size_t index_stride, const float *value,
                                      size_t value_stride, const char *what,
                                      gpulayer_dataset **out)
{
    *out = NULL;
    /* Zero rows are a dataset to predict (nothing) on, as for dense data. */
    if (num_rows < 0 || num_cols < 1)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: %lld rows x %d columns: a dataset "
                         "needs a column, and may have 0 rows but no fewer", what,
                         (long long)num_rows, (int)num_cols);
    if (row_start[0] != 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: the first row must start at entry "
                         "0, not %lld", what, (long long)row_start[0]);
    for (int64_t r = 0; r < num_rows; r++) {
        if (row_start[r + 1] < row_start[r])
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: row %lld ends (entry %lld) "
                             "before it starts (entry %lld)", what, (long long)r,
                             (long long)row_start[r + 1], (long long)row_start[r]);
        for (int64_t k = row_start[r]; k < row_start[r + 1]; k++) {
            const int32_t c = AT(index, index_stride, k);
            if (c < 0 || c >= num_cols)
                return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: row %lld has column index "
                                 "%d, outside 0..%d", what, (long long)r, (int)c,
                                 (int)num_cols - 1);
            if (k > row_start[r] && c <= AT(index, index_stride, k - 1))
                return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: row %lld: column indexes "
                                 "must increase within a row (%d after %d)", what,
                                 (long long)r, (int)c, (int)AT(index, index_stride, k - 1));
        }
    }
    const int64_t nnz = row_start[num_rows];
    char need[160];
    snprintf(need, sizeof need, "%s: %lld entries of %lld rows x %d columns", what,
             (long long)nnz, (long long)num_rows, (int)num_cols);
    GPL_CHECK(gpl_check_host_memory((uint64_t)nnz * 12 + ((uint64_t)num_cols + 1) * 8 +
                                        (uint64_t)num_rows * 8, need));
    gpulayer_dataset *ds = gpl_calloc(1, sizeof *ds, "a dataset");
    gpl_sparse_columns *s = gpl_calloc(1, sizeof *s, "sparse columns");
    if (s) {
        s->col_start = gpl_calloc((size_t)num_cols + 1, sizeof(int64_t), "sparse columns");
        s->rows = gpl_malloc(sizeof(int64_t) * (size_t)(nnz ? nnz : 1), "sparse columns");
        s->values = gpl_malloc(sizeof(float) * (size_t)(nnz ? nnz : 1), "sparse columns");
    }
    if (!ds || !s || !s->col_start || !s->rows || !s->values) {
        gpl_sparse_columns_free(s);
        free(ds);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    /* A counting sort by column; rows are visited in order, so each
     * column's rows come out ascending. */
    for (int64_t k = 0; k < nnz; k++) s->col_start[AT(index, index_stride, k) + 1]++;
    for (int32_t c = 0; c < num_cols; c++) s->col_start[c + 1] += s->col_start[c];
    int64_t *next = gpl_malloc(sizeof(int64_t) * (size_t)num_cols, "sparse columns");
    if (!next) {
        gpl_sparse_columns_free(s);
        free(ds);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    memcpy(next, s->col_start, sizeof(int64_t) * (size_t)num_cols);
    for (int64_t r = 0; r < num_rows; r++)
        for (int64_t k = row_start[r]; k < row_start[r + 1]; k++) {
            const int64_t at = next[AT(index, index_stride, k)]++;
            s->rows[at] = r;
            s->values[at] = AT(value, value_stride, k);
        }
    free(next);
    ds->num_rows = num_rows;
    ds->num_cols = num_cols;
    ds->sparse = s;
    *out = ds;
    return GPULAYER_OK;
}

/* The dense column-major values of a sparse dataset (memory checked). */
static gpulayer_status dense_values(const gpulayer_dataset *ds, float **out)
{
    *out = NULL;
    char what[96];
    snprintf(what, sizeof what, "a dense copy of %lld rows x %d columns of sparse data",
             (long long)ds->num_rows, (int)ds->num_cols);
    const uint64_t cells = (uint64_t)ds->num_rows * (uint64_t)ds->num_cols;
    GPL_CHECK(gpl_check_host_memory(cells * sizeof(float), what));
    float *v = gpl_malloc(sizeof(float) * (size_t)cells, "dense values");
    if (!v) return GPULAYER_ERR_OUT_OF_MEMORY;
    for (uint64_t i = 0; i < cells; i++) v[i] = NAN;
    const gpl_sparse_columns *s = ds->sparse;
    for (int32_t c = 0; c < ds->num_cols; c++)
        for (int64_t k = s->col_start[c]; k < s->col_start[c + 1]; k++)
            v[(int64_t)c * ds->num_rows + s->rows[k]] = s->values[k];
    *out = v;
    return GPULAYER_OK;
}

gpulayer_status gpl_dataset_make_dense(gpulayer_dataset *ds)
{
    if (!ds->sparse) return GPULAYER_OK;
    GPL_CHECK(dense_values(ds, &ds->values));
    gpl_sparse_columns_free(ds->sparse);
    ds->sparse = NULL;
    return GPULAYER_OK;
}

gpulayer_status gpl_dataset_dense_copy(const gpulayer_dataset *ds, gpulayer_dataset **copy)
{
    *copy = NULL;
    if (!ds->sparse) return GPULAYER_OK;
    gpulayer_dataset *o = gpl_calloc(1, sizeof *o, "a dataset");
    if (!o) return GPULAYER_ERR_OUT_OF_MEMORY;
    o->num_rows = ds->num_rows;
    o->num_cols = ds->num_cols;
    gpulayer_status st = dense_values(ds, &o->values);
    if (st == GPULAYER_OK) st = gpl_dataset_copy_row_info(ds, o);
    if (st == GPULAYER_OK && ds->feature_names) {
        o->feature_names = gpl_calloc((size_t)ds->num_cols, sizeof(char *), "feature names");
        if (!o->feature_names) st = GPULAYER_ERR_OUT_OF_MEMORY;
        for (int32_t c = 0; c < ds->num_cols && st == GPULAYER_OK; c++)
            if (ds->feature_names[c] && !(o->feature_names[c] = gpl_strdup(ds->feature_names[c])))
                st = GPULAYER_ERR_OUT_OF_MEMORY;
    }
    if (st != GPULAYER_OK) {
        gpulayer_dataset_free(o);
        return st;
    }
    *copy = o;
    return GPULAYER_OK;
}

gpulayer_status gpulayer_dataset_from_csr(const int64_t *indptr, const int32_t *indices,
                                          const float *data, int64_t num_rows,
                                          int32_t num_cols, const float *label,
                                          const float *weight, gpulayer_dataset **out)
{
    if (!out) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "gpulayer_dataset_from_csr: out is NULL");
    *out = NULL;
    if (!indptr || (!indices && num_rows > 0) || (!data && num_rows > 0))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_dataset_from_csr: indptr, indices and data are required");
    gpulayer_dataset *ds = NULL;
    GPL_CHECK(gpl_dataset_from_rows(num_rows, num_cols, indptr, indices, sizeof(int32_t), data,
                                    sizeof(float), "gpulayer_dataset_from_csr", &ds));
    gpulayer_status st = GPULAYER_OK;
    if (label) st = gpulayer_dataset_set_label(ds, label, num_rows);
    if (st == GPULAYER_OK && weight) st = gpulayer_dataset_set_weight(ds, weight, num_rows);
    if (st != GPULAYER_OK) {
        gpulayer_dataset_free(ds);
        return st;
    }
    *out = ds;
    return GPULAYER_OK;
}
