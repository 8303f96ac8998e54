/* dataset.h -- the raw (unbinned) data behind gpulayer_dataset. */
#ifndef GPL_DATASET_H
#define GPL_DATASET_H

#include <stdint.h>

#include "gpulayer.h"
#include "row_lines.h"

/* The category names of one categorical column; a value of the column is the
 * 0-based code of its name (NaN = missing). Codes follow the sorted order of
 * the names so that they do not depend on row order. */
typedef struct gpl_category_dict {
    int32_t count;
    char **names;
} gpl_category_dict;

/* Sparse data (LibSVM, compressed rows from the API): column f's present
 * cells are values[col_start[f] .. col_start[f + 1]) at rows rows[...],
 * ascending; every other cell is missing. Memory goes with the entries,
 * not with rows x columns. */
typedef struct gpl_sparse_columns {
    int64_t *col_start; /* num_cols + 1 */
    int64_t *rows;
    float *values;
} gpl_sparse_columns;

struct gpulayer_dataset {
    int64_t num_rows;
    int32_t num_cols;
    /* Column-major values: values[(int64_t)col * num_rows + row]; NaN is
     * missing. Column-major because binning and the column-wise kernels
     * stream one feature at a time. NULL when the data are sparse. */
    float *values;
    gpl_sparse_columns *sparse; /* or NULL (dense) */
    float *label;  /* num_rows, or NULL */
    float *weight; /* num_rows, or NULL (all ones) */
    /* Labels read as class names: label k is label_classes->names[k]
     * (sorted); NULL when the labels are numbers. */
    gpl_category_dict *label_classes;
    /* Each row's starting margins in place of the model's base score
     * (XGBoost's base_margin, LightGBM's init_score): base_margin_width a
     * row, row-major, or NULL. */
    float *base_margin;
    int32_t base_margin_width;
    /* XGBoost's feature_weights: column sampling draws features in
     * proportion (num_cols), or NULL (all alike). */
    float *feature_weights;
    char **feature_names;             /* num_cols entries (each may be NULL), or NULL */
    gpl_category_dict **categories;   /* num_cols entries (NULL = numeric), or NULL */
    char *source;                     /* file name for messages, or NULL */
    /* Query groups (ranking): group q is rows group_ptr[q] ..
     * group_ptr[q + 1]; num_groups + 1 offsets from 0 to num_rows. NULL
     * (num_groups 0) when the data have none. */
    int64_t *group_ptr;
    int64_t num_groups;
    /* The line of `source` each row starts on (read from a text file), or
     * NULL: messages then name rows. */
    gpl_row_lines *lines;
};

/* An empty dataset of the given shape with values uninitialised. */
gpulayer_status gpl_dataset_alloc(int64_t num_rows, int32_t num_cols,
                                  gpulayer_dataset **out);
void gpl_category_dict_free(gpl_category_dict *dict);
/* A dictionary holding copies of names[0..n); NULL (error set) when out of
 * memory. */
gpl_category_dict *gpl_category_dict_new(const char *const *names, int32_t n);

/* How a message names a row: "line L" of the file it was read from, else
 * "row R" counted from 1. Returns buf. */
const char *gpl_dataset_row_text(const gpulayer_dataset *ds, int64_t row, char *buf,
                                 size_t size);

/* A cell of either layout (a binary search in a sparse column). */
float gpl_dataset_value(const gpulayer_dataset *ds, int64_t row, int32_t col);

/* Sparse data from compressed rows: row r's cells are (index[k], value[k])
 * for k in [row_start[r], row_start[r + 1]), indexes strictly increasing
 * within a row and below num_cols. The arrays are read with the given
 * strides in bytes (so that an array of structs can be read in place);
 * what names the data in messages. Labels and weights are left unset. */
gpulayer_status gpl_dataset_from_rows(int64_t num_rows, int32_t num_cols,
                                      const int64_t *row_start, const int32_t *index,
                                      size_t index_stride, const float *value,
                                      size_t value_stride, const char *what,
                                      gpulayer_dataset **out);
/* Sparse data turned dense in place (the memory checked first): for the
 * few places that need the dense layout. A dense dataset is left alone. */
gpulayer_status gpl_dataset_make_dense(gpulayer_dataset *ds);
/* A dense copy of a sparse dataset in *copy (NULL when ds is dense
 * already, which is then used as it is). */
gpulayer_status gpl_dataset_dense_copy(const gpulayer_dataset *ds, gpulayer_dataset **copy);
void gpl_sparse_columns_free(gpl_sparse_columns *s);
/* Whether ds's base margins fit a model of num_outputs outputs (an error
 * naming both widths when not; none fit any). */
gpulayer_status gpl_dataset_check_base_margin(const gpulayer_dataset *ds, int32_t num_outputs,
                                              const char *what);
/* Copies of from's labels, weights, base margins, query groups and source
 * name into to (same rows). */
gpulayer_status gpl_dataset_copy_row_info(const gpulayer_dataset *from, gpulayer_dataset *to);

/* Query groups from per-row query ids, one row at a time (the readers
 * and gpulayer_dataset_set_qid share the rule): ids non-decreasing, so
 * the rows of a query are together. */
typedef struct gpl_qid_groups {
    int64_t *ptr;  /* offsets of the groups so far, ptr[0..count] */
    int64_t *qid;  /* each group's id, ascending: finds a query seen before */
    int64_t count, cap, rows;
} gpl_qid_groups;
enum { GPL_QID_OK = 0, GPL_QID_UNSORTED = 1, GPL_QID_SPLIT = 2, GPL_QID_NOMEM = -1 };
/* Adds the next row's id: GPL_QID_OK, GPL_QID_UNSORTED (below the previous
 * id), GPL_QID_SPLIT (a query whose rows ended earlier) or GPL_QID_NOMEM
 * (error set). */
int gpl_qid_groups_add(gpl_qid_groups *g, int64_t qid);
/* The id of the last row added (0 before any). */
int64_t gpl_qid_groups_last(const gpl_qid_groups *g);
/* The reason of a refusal of add(qid), for messages. */
void gpl_qid_groups_why(const gpl_qid_groups *g, int code, int64_t qid, char *buf,
                        size_t size);
/* Hands the offsets over to ds (whose row count must be the rows added). */
void gpl_qid_groups_attach(gpl_qid_groups *g, gpulayer_dataset *ds);
void gpl_qid_groups_free(gpl_qid_groups *g);

/* Offsets (num_groups + 1, from 0 to num_rows) from group sizes; refuses
 * a size below 1 and sizes that do not add up to num_rows, naming where
 * (what, e.g. the function or file) and both numbers. */
gpulayer_status gpl_groups_from_sizes(const int64_t *sizes, int64_t num_groups,
                                      int64_t num_rows, const char *what,
                                      int64_t **ptr);
/* Reads a group file (one size a line, LightGBM's query file) into ds's
 * groups. */
gpulayer_status gpl_dataset_read_group_file(gpulayer_dataset *ds, const char *path);
/* Base margins from a file (reader_margin.c): one line a row of ds, the
 * row's values separated by commas, tabs or blanks. */
gpulayer_status gpl_dataset_read_base_margin_file(gpulayer_dataset *ds, const char *path);
/* The groups of rows [first, first + count) of ds, in place: refused when
 * a query would be cut, naming the query and its rows. */
gpulayer_status gpl_dataset_keep_groups(gpulayer_dataset *ds, int64_t first,
                                        int64_t count);

#endif
