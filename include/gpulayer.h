/*
 * gpulayer.h -- the public C API of libgpulayer.
 *
 * Every function returns a gpulayer_status; on failure the message of the
 * last error of the calling thread is available from gpulayer_last_error().
 * Objects are opaque handles with _create/_free (or _read/_load) pairs.
 * Nothing here creates a device or loads a GPU runtime until a function that
 * trains, predicts on a device or discovers devices is called.
 */
#ifndef GPULAYER_H
#define GPULAYER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define GPULAYER_API __declspec(dllexport)
#else
#define GPULAYER_API __attribute__((visibility("default")))
#endif

/* ------------------------------------------------------------------ status */

typedef enum gpulayer_status {
    GPULAYER_OK = 0,
    GPULAYER_ERR_INVALID_ARGUMENT = 1, /* a bad parameter or value          */
    GPULAYER_ERR_IO = 2,               /* a file could not be read/written  */
    GPULAYER_ERR_PARSE = 3,            /* malformed input data              */
    GPULAYER_ERR_OUT_OF_MEMORY = 4,    /* host or device memory exhausted   */
    GPULAYER_ERR_MODEL = 5,            /* a model file is damaged/foreign   */
    GPULAYER_ERR_DEVICE = 6,           /* a device or runtime failed        */
    GPULAYER_ERR_UNSUPPORTED = 7,      /* not available in this build/host  */
    GPULAYER_ERR_INTERRUPTED = 8,      /* stopped by a callback or signal   */
    GPULAYER_ERR_PLACEMENT = 9,        /* no device satisfies the request   */
    GPULAYER_ERR_INTERNAL = 10         /* a bug: please report it           */
} gpulayer_status;

/* The message of the last error raised on the calling thread ("" if none). */
GPULAYER_API const char *gpulayer_last_error(void);
/* A short constant name for a status ("invalid argument", ...). */
GPULAYER_API const char *gpulayer_status_string(gpulayer_status status);
GPULAYER_API const char *gpulayer_version(void);

/* ----------------------------------------------------------------- dataset */

typedef struct gpulayer_dataset gpulayer_dataset;

typedef enum gpulayer_layout {
    GPULAYER_ROW_MAJOR = 0,
    GPULAYER_COL_MAJOR = 1
} gpulayer_layout;

typedef enum gpulayer_file_format {
    GPULAYER_FORMAT_AUTO = 0, /* from the extension: .csv .tsv .svm/.libsvm */
    GPULAYER_FORMAT_CSV = 1,
    GPULAYER_FORMAT_TSV = 2,
    GPULAYER_FORMAT_LIBSVM = 3
} gpulayer_file_format;

/* Options for reading a data file. Zero-initialise, then set what you need. */
typedef struct gpulayer_read_options {
    gpulayer_file_format format;
    /* Label column of a CSV/TSV file: a column name, or a 0-based index
     * written as digits. NULL or "" means the first column. "none" means the
     * file has no label column (prediction input). Ignored for LibSVM,
     * whose label is always the first token. */
    const char *label;
    /* Non-zero when a CSV/TSV file has no header row. */
    int no_header;
    /* Comma-separated column names to drop (CSV/TSV), or NULL. */
    const char *ignore_columns;
    /* Comma-separated column name for per-row weights (CSV/TSV), or NULL. */
    const char *weight_column;
    /* LibSVM: number of features, 0 = infer from the largest index.
     * Prediction files must be given the model's feature count. */
    int32_t num_features;
    /* CSV/TSV columns that must hold numbers, e.g. the numeric features of
     * a model about to predict: a NULL-terminated array of column names (or
     * 0-based indexes written as digits), or NULL. A cell that is not a
     * number there is handled as bad_numbers says. */
    const char *const *numeric_columns;
    /* A cell that is not a number (nor a missing-value marker) in a numeric
     * column: GPULAYER_BAD_NUMBERS_ERROR (the default) refuses the file
     * naming line, column and text; GPULAYER_BAD_NUMBERS_MISSING reads it
     * as missing and prints one warning with the count. Without
     * numeric_columns, a column counts as numeric when at least 95% of its
     * non-missing cells are numbers (see docs/data.md). */
    int bad_numbers;
    /* CSV/TSV columns to read as categorical even where their cells are
     * numbers: a NULL-terminated array of names (or 0-based indexes), or
     * NULL. */
    const char *const *categorical_columns;
    /* Query groups for ranking (docs/data.md, "Query groups"); NULL or ""
     * = none. qid_column: the CSV/TSV column of query ids, by name or
     * 0-based index; not a feature. Its cells must be integers, the rows
     * of one query together and the ids non-decreasing (as XGBoost).
     * LibSVM files give query ids as qid:N tokens instead. group_file: a
     * file of group sizes, one a line (LightGBM's query file), for any
     * format; the sizes must add up to the row count. */
    const char *qid_column;
    const char *group_file;
    /* Each row's base margins (gpulayer_dataset_set_base_margin): a file of
     * one line a row, its values separated by commas, tabs or blanks (one,
     * or one an output); NULL or "" = none. */
    const char *base_margin_file;
    /* A label column of text is read as class names (docs/data.md,
     * "Labels"). label_classes: the classes to read them as, sorted, a
     * NULL-terminated array (a model's, gpulayer_booster_class_name), or
     * NULL to take the file's own, sorted, as codes 0..K-1. */
    const char *const *label_classes;
} gpulayer_read_options;

enum { GPULAYER_BAD_NUMBERS_ERROR = 0, GPULAYER_BAD_NUMBERS_MISSING = 1 };

/* What a cell of a CSV/TSV text column holds, as the readers decide it:
 * a missing-value marker ("", NA, N/A, NaN, nan, NAN, null, NULL, "?"), a
 * number (optional sign, digits with an optional fraction and exponent, or
 * inf/infinity; "1e3" is one, "0x10" and "1,5" are not), or text. */
typedef enum gpulayer_cell_kind {
    GPULAYER_CELL_MISSING = 0,
    GPULAYER_CELL_NUMBER = 1,
    GPULAYER_CELL_TEXT = 2
} gpulayer_cell_kind;

/* Reads num_cells NUL-terminated cells as the CSV/TSV readers read an
 * unquoted field, blanks (spaces, tabs, carriage returns) around it
 * ignored: kinds[i] receives cells[i]'s gpulayer_cell_kind and values[i]
 * its number as a float (rounded as strtof rounds), NaN when it is not a
 * number. A NULL cell is missing. For callers that type columns of text
 * themselves (data frames) with the readers' rules. */
GPULAYER_API gpulayer_status gpulayer_read_text_cells(const char *const *cells,
                                                      int64_t num_cells, float *values,
                                                      int32_t *kinds);
/* The readers' rule for a column that holds some text and that
 * numeric_columns does not name: given how many of its non-missing cells
 * are numbers and how many are text, 1 when it is a numeric column with
 * typos (texts > 0 and at most 5% of those cells text: the readers refuse
 * it, or with BAD_NUMBERS_MISSING read the text as missing), 0 when it is
 * categorical or holds no text. */
GPULAYER_API int gpulayer_column_looks_numeric(int64_t numbers, int64_t texts);

/* A dense float32 matrix; NaN marks a missing value. label and weight may be
 * NULL (weight NULL = all ones). The data are copied. num_rows may be 0:
 * prediction then gives no values; training and evaluation sets need rows. */
GPULAYER_API gpulayer_status gpulayer_dataset_from_dense(
    const float *data, int64_t num_rows, int32_t num_cols,
    gpulayer_layout layout, const float *label, const float *weight,
    gpulayer_dataset **out);

/* Sparse data in compressed rows (CSR, as scipy.sparse.csr_matrix): row
 * r's cells are (indices[k], data[k]) for k in [indptr[r], indptr[r + 1]),
 * column indexes increasing within a row; absent cells are missing, as in
 * LibSVM. Held sparse (memory in proportion to the entries) and binned
 * without a dense copy. label and weight may be NULL. The data are copied.
 * num_rows may be 0, as for gpulayer_dataset_from_dense. */
GPULAYER_API gpulayer_status gpulayer_dataset_from_csr(
    const int64_t *indptr, const int32_t *indices, const float *data, int64_t num_rows,
    int32_t num_cols, const float *label, const float *weight, gpulayer_dataset **out);

/* Reads CSV, TSV (optionally gzip-compressed, detected by content) or
 * LibSVM. String-valued columns become categorical features whose
 * dictionary travels with the dataset and, after training, the model. */
GPULAYER_API gpulayer_status gpulayer_dataset_read_file(
    const char *path, const gpulayer_read_options *options,
    gpulayer_dataset **out);

GPULAYER_API gpulayer_status gpulayer_dataset_set_label(
    gpulayer_dataset *ds, const float *label, int64_t num_rows);
GPULAYER_API gpulayer_status gpulayer_dataset_set_weight(
    gpulayer_dataset *ds, const float *weight, int64_t num_rows);
/* Each row's starting margins (XGBoost's base_margin, LightGBM's
 * init_score), in place of the model's base score: num_values = rows (one
 * a row) or rows x outputs (row-major) finite floats, copied. Training
 * starts from them (they must then have the model's outputs a row),
 * evaluation sets and prediction add the trees to them; prediction with
 * them runs on the CPU. values NULL clears them. */
GPULAYER_API gpulayer_status gpulayer_dataset_set_base_margin(
    gpulayer_dataset *ds, const float *values, int64_t num_values);
/* XGBoost's feature_weights: colsample_bytree, _bylevel and _bynode draw
 * features in proportion to these (num_cols non-negative finite floats,
 * some above 0; copied), by XGBoost's weighted sampling; NULL clears them.
 * Read from the training data. */
GPULAYER_API gpulayer_status gpulayer_dataset_set_feature_weights(
    gpulayer_dataset *ds, const float *weights, int32_t num_cols);
/* Feature names, num_cols of them (copied). */
GPULAYER_API gpulayer_status gpulayer_dataset_set_feature_names(
    gpulayer_dataset *ds, const char *const *names, int32_t num_cols);
/* Marks column col as categorical with the given category names; its values
 * are then the 0-based codes into names (NaN = missing). */
GPULAYER_API gpulayer_status gpulayer_dataset_set_categories(
    gpulayer_dataset *ds, int32_t col, const char *const *names,
    int32_t num_categories);

GPULAYER_API int64_t gpulayer_dataset_num_rows(const gpulayer_dataset *ds);
GPULAYER_API int32_t gpulayer_dataset_num_cols(const gpulayer_dataset *ds);
/* NULL when the column has no name. */
GPULAYER_API const char *gpulayer_dataset_feature_name(
    const gpulayer_dataset *ds, int32_t col);
/* The number of categories of column col: 0 when it is numeric, -1 when
 * col is out of range. */
GPULAYER_API int32_t gpulayer_dataset_num_categories(const gpulayer_dataset *ds,
                                                     int32_t col);
/* The missing cells of column col (NaN, or absent from sparse data); -1
 * when col is out of range. */
GPULAYER_API int64_t gpulayer_dataset_num_missing(const gpulayer_dataset *ds, int32_t col);
/* Labels read as class names: the number of classes (0 when the labels
 * are numbers) and the name of class code k (NULL when out of range). */
GPULAYER_API int32_t gpulayer_dataset_num_label_classes(const gpulayer_dataset *ds);
/* Names the classes of the labels, which must be the codes 0..num_classes-1:
 * names sorted byte-wise and unique, UTF-8 (copied). A model trained on
 * the dataset keeps them. NULL names clears them. */
GPULAYER_API gpulayer_status gpulayer_dataset_set_label_classes(
    gpulayer_dataset *ds, const char *const *names, int32_t num_classes);
GPULAYER_API const char *gpulayer_dataset_label_class(const gpulayer_dataset *ds,
                                                      int32_t k);
/* Copies the labels into out (num_rows floats); error if there are none. */
GPULAYER_API gpulayer_status gpulayer_dataset_get_label(
    const gpulayer_dataset *ds, float *out, int64_t num_rows);
/* *has_weight: 1 when the dataset has per-row weights, else 0; when it
 * has and out is not NULL, they are copied into out (num_rows floats). */
GPULAYER_API gpulayer_status gpulayer_dataset_get_weight(
    const gpulayer_dataset *ds, float *out, int64_t num_rows, int *has_weight);
/* A new dataset made of the columns cols[0..num_cols) of ds, in that order
 * (names, categories, labels and weights kept). */
GPULAYER_API gpulayer_status gpulayer_dataset_select_columns(
    const gpulayer_dataset *ds, const int32_t *cols, int32_t num_cols,
    gpulayer_dataset **out);
/* A new dataset of count rows of ds from row first on (names, categories,
 * and those rows' labels and weights kept; query groups are not). */
GPULAYER_API gpulayer_status gpulayer_dataset_select_rows(
    const gpulayer_dataset *ds, int64_t first, int64_t count, gpulayer_dataset **out);
GPULAYER_API void gpulayer_dataset_free(gpulayer_dataset *ds);

/* Query groups (ranking): consecutive rows that belong to one query. A
 * new set replaces the old; NULL sizes (or qid) clears them. Datasets made
 * from another (select_columns) keep them. */
/* sizes[0..num_groups): each > 0, adding up to the row count. */
GPULAYER_API gpulayer_status gpulayer_dataset_set_group(
    gpulayer_dataset *ds, const int64_t *sizes, int64_t num_groups);
/* One query id per row: the rows of one query together and the ids
 * non-decreasing, as XGBoost wants them (sort the rows by qid first). */
GPULAYER_API gpulayer_status gpulayer_dataset_set_qid(
    gpulayer_dataset *ds, const int64_t *qid, int64_t num_rows);
/* The number of query groups; 0 when the dataset has none. */
GPULAYER_API int64_t gpulayer_dataset_num_groups(const gpulayer_dataset *ds);
/* *out = an evaluation metric (eval_metric's names: "rmse", "auc",
 * "ndcg@10", ...) of predictions pred (num_rows x num_outputs, row-major,
 * as gpulayer_booster_predict gives them) against ds's labels, weights and
 * query groups. Labels the metric cannot take are an error naming it. */
GPULAYER_API gpulayer_status gpulayer_evaluate(
    const gpulayer_dataset *ds, const char *metric, const float *pred,
    int64_t num_rows, int32_t num_outputs, double *out);
/* Copies the group sizes into sizes (num_groups of them, as
 * gpulayer_dataset_num_groups says); error when there are none. */
GPULAYER_API gpulayer_status gpulayer_dataset_get_group(
    const gpulayer_dataset *ds, int64_t *sizes, int64_t num_groups);

/* ----------------------------------------------------------------- booster */

typedef struct gpulayer_booster gpulayer_booster;

/* One metric of one evaluation set after one round. */
typedef struct gpulayer_eval_result {
    const char *data_name;
    const char *metric_name;
    double value;
} gpulayer_eval_result;

/* Called after every round; return non-zero to stop training (the booster
 * keeps the rounds done so far and train returns GPULAYER_ERR_INTERRUPTED
 * when the stop came from a return value other than 1; 1 means "stop, this
 * is a normal early stop"). */
typedef int (*gpulayer_round_callback)(void *user_data, int round,
                                       const gpulayer_eval_result *results,
                                       int num_results);

GPULAYER_API gpulayer_status gpulayer_booster_create(gpulayer_booster **out);
GPULAYER_API void gpulayer_booster_free(gpulayer_booster *b);

/* Every training parameter, from the one table the library parses them
 * with (docs/parameters.md is made from it): XGBoost's names, defaults and
 * ranges where XGBoost has the parameter. The texts are static. */
typedef struct gpulayer_param_info {
    const char *name;
    const char *aliases;       /* other accepted names, comma separated, or "" */
    const char *group;         /* general, tree, sampling, evaluation, ...     */
    const char *type;          /* number, integer, boolean, text, list, ...    */
    const char *default_value; /* in parentheses: a default that depends on
                                  other parameters, described                  */
    const char *range;         /* the allowed values                           */
    const char *applies;       /* the objectives or data it acts on            */
    const char *doc;           /* one line                                     */
} gpulayer_param_info;
GPULAYER_API int32_t gpulayer_param_count(void);
/* The index-th parameter (0 <= index < gpulayer_param_count()). */
GPULAYER_API gpulayer_status gpulayer_param_info_get(int32_t index, gpulayer_param_info *out);

/* Sets a parameter of the table above by name or alias; an unknown name is
 * refused with the nearest known one when there is a likely typo, and a
 * bad value with the allowed range. eval_metric may be given several
 * times. */
GPULAYER_API gpulayer_status gpulayer_booster_set_param(
    gpulayer_booster *b, const char *key, const char *value);
/* The current value of a parameter as text, written into buf; when it does
 * not fit buf_size bytes, INVALID_ARGUMENT names the size needed and buf
 * holds "" (a cut value would read as another). */
GPULAYER_API gpulayer_status gpulayer_booster_get_param(
    const gpulayer_booster *b, const char *key, char *buf, size_t buf_size);

/* Continued training (XGBoost's xgb_model, LightGBM's init_model): the
 * next gpulayer_booster_train of b starts from a copy of from's model,
 * keeps its cuts, base score and trees, and adds num_round rounds to them,
 * numbered on from its rounds (so sampling draws as one longer run would:
 * 50 rounds and then 50 more give the bits of 100 in one go, with the same
 * data and parameters). The data must have the model's features (count
 * and names); the objective and num_class must be the model's. The copy
 * is used up by that training; from NULL clears it. b may be from. */
GPULAYER_API gpulayer_status gpulayer_booster_set_init_model(
    gpulayer_booster *b, const gpulayer_booster *from);

/* Trains num_round rounds (or until early stopping on the last evaluation
 * set). evals may be NULL when num_evals is 0. callback may be NULL. */
GPULAYER_API gpulayer_status gpulayer_booster_train(
    gpulayer_booster *b, const gpulayer_dataset *train,
    const gpulayer_dataset *const *evals, const char *const *eval_names,
    int num_evals, gpulayer_round_callback callback, void *user_data);

/* ------------------------------------- the caller's objective and metrics */

/* A custom objective: called at the start of every round with the margins
 * of the training rows before the round (num_rows x num_outputs,
 * row-major, raw scores before any link), it writes each row's first and
 * second derivative of the loss into grad and hess (the same shape),
 * weights included: the library does not apply them. Doubles, as the
 * built-in objectives compute them, so that a function with their formula
 * trains the same model bits. Returns 0, or non-zero to stop training
 * (train then returns GPULAYER_ERR_INTERRUPTED). */
typedef int (*gpulayer_objective_callback)(void *user_data, int round,
                                           const float *margins, int64_t num_rows,
                                           int32_t num_outputs, double *grad,
                                           double *hess);

/* Later trainings of b take their gradients from fn (NULL: from the
 * objective again). The objective parameter still names the link of the
 * predictions and the default metric. A NaN or infinite value or a
 * negative hessian stops training with an error naming the round (counted
 * from 1), the row and the value; rows that subsample leaves out get zero
 * pairs. Without base_score the base score is 0.5 in output space, as
 * XGBoost has it for custom objectives. The backend must take gradients
 * from the host (the CPU and CUDA do; another is refused before the first
 * round) and data-parallel training is refused. */
GPULAYER_API gpulayer_status gpulayer_booster_set_objective_callback(
    gpulayer_booster *b, gpulayer_objective_callback fn, void *user_data);

/* Called after every round for each evaluation set, before the round
 * callback, with its margins and its predictions (the objective's
 * transform of the margins: probabilities, exp(margin), ...; multi:softmax
 * gives the probabilities), each num_rows x num_outputs, row-major. For
 * metrics of the caller's own. Returns 0, or non-zero to stop training
 * (GPULAYER_ERR_INTERRUPTED). */
typedef int (*gpulayer_eval_callback)(void *user_data, int round, int eval_index,
                                      const float *margins, const float *predictions,
                                      int64_t num_rows, int32_t num_outputs);

/* Later trainings of b call fn (NULL: none). */
GPULAYER_API gpulayer_status gpulayer_booster_set_eval_callback(
    gpulayer_booster *b, gpulayer_eval_callback fn, void *user_data);

/* The best round of a trained model when the caller decided early
 * stopping (by its own metric): predictions then stop there, as after
 * early_stopping_rounds. -1 clears it. */
GPULAYER_API gpulayer_status gpulayer_booster_set_best_round(gpulayer_booster *b,
                                                             int32_t round);

/* Whether early stopping looks for the largest value of the metric named:
 * 1 for the library's auc, aucpr, ndcg, map and pre (with their @k and '-'
 * forms), 0 for its other metrics; for other names, the caller's own
 * metrics, XGBoost's rule: 1 for those that start with auc, map, ndcg or
 * pre. */
GPULAYER_API int gpulayer_metric_maximize(const char *name);

/* Early stopping's decision after a round, as training makes it on the
 * last metric of the last evaluation set, for a caller that watches a
 * metric of its own. The round's score becomes the best when it is the
 * first (*best_round is -1 before the first round) or better than
 * *best_score: larger when maximize, else smaller; a tie keeps the earlier
 * round, and NaN is never better. Returns 1 when training should stop:
 * rounds > 0 and round is rounds rounds past the best one. */
GPULAYER_API int gpulayer_early_stopping_update(int32_t rounds, int maximize,
                                                int32_t round, double score,
                                                int32_t *best_round, double *best_score);

/* ----------------------------------------------------- distributed training */

/* Data-parallel training over MPI: every process of the job (a rank) holds
 * some of the training rows, and together they train the model one
 * process would train on all the rows, bit for bit. Every rank calls the
 * functions marked collective at the same point, in the same order. */

/* Non-zero when this library was built with MPI and can join a job. */
GPULAYER_API int gpulayer_dist_built(void);
/* Non-zero when the process was started by an MPI launcher (mpirun, srun,
 * gpulayer run --nproc). */
GPULAYER_API int gpulayer_dist_launched(void);
/* Joins the job (MPI is initialised unless the caller did it); again once
 * joined does nothing. Every collective then stops the whole job with a
 * message when another rank does not answer within timeout_s seconds
 * (<= 0: GPULAYER_DIST_TIMEOUT from the environment, else 300).
 * GPULAYER_ERR_UNSUPPORTED in a build without MPI. Collective. */
GPULAYER_API gpulayer_status gpulayer_dist_init(double timeout_s);
/* Leaves the job (finalising MPI when gpulayer_dist_init initialised it,
 * after which it cannot be joined again in this process). Collective. */
GPULAYER_API void gpulayer_dist_finalize(void);
/* This process's rank and the job's number of ranks (0 and 1 when it has
 * not joined a job). */
GPULAYER_API int gpulayer_dist_rank(void);
GPULAYER_API int gpulayer_dist_size(void);
/* CPU threads for a rank that was given none: its host's cores shared
 * with the other ranks of the host. */
GPULAYER_API int gpulayer_dist_default_threads(void);
/* Seconds this rank has spent in collectives so far. */
GPULAYER_API double gpulayer_dist_comm_seconds(void);

/* A rank's rows are its own file, when the path holds %d (replaced by the
 * rank), or else its slice [r*n/N, (r+1)*n/N) of one file's n rows. */
GPULAYER_API int gpulayer_dist_is_shard_pattern(const char *path);
/* The path with its first %d replaced by rank (a copy when there is none);
 * *out is freed with gpulayer_free_buffer. */
GPULAYER_API gpulayer_status gpulayer_dist_shard_path(const char *path, int rank,
                                                      char **out);
/* Keeps this rank's slice of ds's rows, in place (all of them when it has
 * not joined a job). With query groups, a slice that would cut a query in
 * two is refused, naming the query's rows. */
GPULAYER_API gpulayer_status gpulayer_dist_keep_slice(gpulayer_dataset *ds);
/* Where this rank's rows lie, given their count: *first, the global index
 * of its first row, and *total, the rows of every rank. Collective. */
GPULAYER_API gpulayer_status gpulayer_dist_row_place(int64_t rows, int64_t *first,
                                                     int64_t *total);

/* After a step that may fail on some ranks only (reading a shard): every
 * rank passes its own status and gets back OK when every rank succeeded;
 * otherwise the status and message of the lowest failing rank, prefixed
 * with "rank R: ", become every rank's last error. Collective. */
GPULAYER_API gpulayer_status gpulayer_dist_agree(gpulayer_status local);
/* Whether the last failure was agreed by every rank (by gpulayer_dist_agree
 * or a collective function's status). One that was not is this rank's
 * alone: it must end the job with gpulayer_dist_abort rather than return,
 * or the other ranks would wait for it. */
GPULAYER_API int gpulayer_dist_failure_shared(void);
/* Prints "gpulayer: rank R: message; stopping all ranks" and ends every
 * rank of the job with exit status code. Does not return. */
GPULAYER_API void gpulayer_dist_abort(const char *message, int code);

/* Trains as gpulayer_booster_train, each rank on its own rows, which count
 * as the rows of the ranks before it followed by its own (rank order is
 * row order). Every rank ends with the same model; evals are evaluated
 * whole by every rank. Needs gpulayer_dist_init first. Collective; the
 * status is the one every rank agreed on. */
GPULAYER_API gpulayer_status gpulayer_booster_train_distributed(
    gpulayer_booster *b, const gpulayer_dataset *train,
    const gpulayer_dataset *const *evals, const char *const *eval_names,
    int num_evals, gpulayer_round_callback callback, void *user_data);

typedef enum gpulayer_predict_flags {
    GPULAYER_PREDICT_DEFAULT = 0, /* probabilities / values             */
    GPULAYER_PREDICT_MARGIN = 1   /* raw untransformed margins          */
} gpulayer_predict_flags;

/* Number of outputs per row: num_class for multi:softprob, 1 otherwise. */
GPULAYER_API int32_t gpulayer_booster_num_outputs(const gpulayer_booster *b);
/* Values per row that predict writes with these flags (margins: one per
 * output; multi:softmax without MARGIN: one class index). */
GPULAYER_API int32_t gpulayer_booster_prediction_width(
    const gpulayer_booster *b, int flags);
/* 1 when predict writes a class code a row with these flags (multi:softmax
 * and binary:hinge without MARGIN), else 0. */
GPULAYER_API int gpulayer_booster_predicts_class(const gpulayer_booster *b, int flags);
GPULAYER_API int32_t gpulayer_booster_num_features(const gpulayer_booster *b);
GPULAYER_API int32_t gpulayer_booster_num_rounds(const gpulayer_booster *b);
/* Best round by the early-stopping metric, or -1 when none was tracked. */
GPULAYER_API int32_t gpulayer_booster_best_round(const gpulayer_booster *b);

/* Predicts every row of ds into out (num_rows * prediction_width floats,
 * row major). num_rounds = 0 uses all rounds (or up to the best round when
 * early stopping found one). */
GPULAYER_API gpulayer_status gpulayer_booster_predict(
    const gpulayer_booster *b, const gpulayer_dataset *ds, int flags,
    int32_t num_rounds, float *out, int64_t out_len);
/* The same on a device: "cpu" (what gpulayer_booster_predict uses),
 * "cuda[:N]", "vulkan[:N]" or "auto" (the device training's device=auto
 * would pick). Binning and the tree walk run on the device and give the
 * CPU's output bits exactly; a device that is absent, a backend this
 * library was built without, or a job that does not fit the device is an
 * error with a message, never a silent fallback. NULL device = "cpu". */
GPULAYER_API gpulayer_status gpulayer_booster_predict_device(
    const gpulayer_booster *b, const gpulayer_dataset *ds, const char *device,
    int flags, int32_t num_rounds, float *out, int64_t out_len);
GPULAYER_API gpulayer_status gpulayer_booster_predict_dense(
    const gpulayer_booster *b, const float *data, int64_t num_rows,
    int32_t num_cols, gpulayer_layout layout, int flags, int32_t num_rounds,
    float *out, int64_t out_len);

/* Flags of gpulayer_booster_predict_contribs. */
typedef enum gpulayer_contribs_flags {
    GPULAYER_CONTRIBS_EXACT = 0, /* TreeSHAP (path dependent)          */
    GPULAYER_CONTRIBS_APPROX = 1 /* Saabas: value changes along the path */
} gpulayer_contribs_flags;

/* Per-feature contributions of every row of ds to its margins (SHAP
 * values, as XGBoost's pred_contribs): out holds num_rows x num_outputs x
 * (num_features + 1) floats, row-major, the last of each output's values
 * the bias (the base margin plus the trees' expected values), so that a
 * row's values of an output sum to its margin. Computed on the CPU with
 * the booster's nthread; num_rounds as for gpulayer_booster_predict. The
 * _device variants below take a device. */
GPULAYER_API gpulayer_status gpulayer_booster_predict_contribs(
    const gpulayer_booster *b, const gpulayer_dataset *ds, int flags,
    int32_t num_rounds, float *out, int64_t out_len);
/* SHAP interaction values (XGBoost's pred_interactions): num_rows x
 * num_outputs x (num_features + 1) x (num_features + 1) floats; each row
 * of a matrix sums to that feature's contribution, the diagonal holding
 * what the pairs leave. flags: 0 (reserved). */
GPULAYER_API gpulayer_status gpulayer_booster_predict_interactions(
    const gpulayer_booster *b, const gpulayer_dataset *ds, int flags,
    int32_t num_rounds, float *out, int64_t out_len);
/* Both on a device, as gpulayer_booster_predict_device: "cpu" (what the
 * two above use), "cuda[:N]", "vulkan[:N]" or "auto". The device gives
 * the CPU's values bit for bit; a backend that cannot compute them, or a
 * job whose workspace does not fit the device, is an error naming the
 * device and the numbers. */
GPULAYER_API gpulayer_status gpulayer_booster_predict_contribs_device(
    const gpulayer_booster *b, const gpulayer_dataset *ds, const char *device,
    int flags, int32_t num_rounds, float *out, int64_t out_len);
GPULAYER_API gpulayer_status gpulayer_booster_predict_interactions_device(
    const gpulayer_booster *b, const gpulayer_dataset *ds, const char *device,
    int flags, int32_t num_rounds, float *out, int64_t out_len);

/* A model prepared for many small predictions (one request at a time in
 * a service): the trees flattened and the cuts padded once, instead of on
 * every gpulayer_booster_predict call. The predictor keeps its own copy of
 * the model (the booster may be retrained or freed afterwards), predicts on
 * the CPU, and may be used from several threads at once. flags and
 * num_rounds as for gpulayer_booster_predict. */
typedef struct gpulayer_predictor gpulayer_predictor;
GPULAYER_API gpulayer_status gpulayer_booster_predictor_create(
    const gpulayer_booster *b, int flags, int32_t num_rounds,
    gpulayer_predictor **out);
/* Values a row the predictor writes (gpulayer_booster_prediction_width). */
GPULAYER_API int32_t gpulayer_predictor_width(const gpulayer_predictor *p);
GPULAYER_API int32_t gpulayer_predictor_num_features(const gpulayer_predictor *p);
/* Predicts num_rows rows of num_cols floats (NaN = missing; categorical
 * features as codes of the model's categories) into out (num_rows x width
 * floats, row major): the same values as gpulayer_booster_predict. Up to
 * 512 rows run on the calling thread; more use the booster's nthread. */
GPULAYER_API gpulayer_status gpulayer_predictor_predict_dense(
    const gpulayer_predictor *p, const float *data, int64_t num_rows,
    int32_t num_cols, gpulayer_layout layout, float *out, int64_t out_len);
GPULAYER_API void gpulayer_predictor_free(gpulayer_predictor *p);

typedef enum gpulayer_importance_type {
    GPULAYER_IMPORTANCE_WEIGHT = 0, /* number of splits on the feature    */
    GPULAYER_IMPORTANCE_GAIN = 1,   /* mean gain of its splits            */
    GPULAYER_IMPORTANCE_COVER = 2,  /* mean hessian sum of its splits     */
    GPULAYER_IMPORTANCE_TOTAL_GAIN = 3,
    GPULAYER_IMPORTANCE_TOTAL_COVER = 4
} gpulayer_importance_type;

/* out receives num_features values. */
GPULAYER_API gpulayer_status gpulayer_booster_feature_importance(
    const gpulayer_booster *b, gpulayer_importance_type type, double *out,
    int32_t num_features);
GPULAYER_API const char *gpulayer_booster_feature_name(
    const gpulayer_booster *b, int32_t col);
/* 1 when feature col of the model is categorical, 0 when numeric (or out
 * of range). */
GPULAYER_API int gpulayer_booster_feature_is_categorical(
    const gpulayer_booster *b, int32_t col);
/* Categories of feature col of the model: their number (0 for a numeric
 * feature or col out of range), and the name of code (NULL when out of
 * range). Codes follow the names sorted byte-wise. */
GPULAYER_API int32_t gpulayer_booster_num_categories(const gpulayer_booster *b,
                                                     int32_t col);
GPULAYER_API const char *gpulayer_booster_category_name(
    const gpulayer_booster *b, int32_t col, int32_t code);
/* A model trained on class names (docs/data.md, "Labels"): the number of
 * classes (0 for numeric labels) and the name of class k (NULL when out
 * of range). Predicted class k and probability column k are name k. */
GPULAYER_API int32_t gpulayer_booster_num_class_names(const gpulayer_booster *b);
GPULAYER_API const char *gpulayer_booster_class_name(const gpulayer_booster *b, int32_t k);
/* Trees in the model: num_rounds * num_outputs. */
GPULAYER_API int32_t gpulayer_booster_num_trees(const gpulayer_booster *b);

/* The trees as text, in XGBoost's get_dump layout: one line a node, indented
 * by depth with tabs. A numeric split reads "3:[age<41.5] yes=7,no=8,
 * missing=7", a categorical one "1:[colour in {blue, red}] yes=3,no=4,
 * missing=4" (the listed categories go to yes; missing and unseen
 * categories to missing; a categorical feature split as ordered codes,
 * categorical=ordered, reads the same), a leaf "7:leaf=0.25". Features
 * without a name are f0, f1, ... with_stats adds gain and cover.
 * dump_model writes every tree, each after a "booster[t]:" line; dump_tree
 * writes tree t only, down to max_depth (0 = all; an internal node at that
 * depth reads "9:...").
 * The caller frees the text with gpulayer_free_buffer. */
GPULAYER_API gpulayer_status gpulayer_booster_dump_model(
    const gpulayer_booster *b, int with_stats, char **out, size_t *out_len);
GPULAYER_API gpulayer_status gpulayer_booster_dump_tree(
    const gpulayer_booster *b, int32_t tree, int with_stats, int32_t max_depth,
    char **out, size_t *out_len);
/* Feature col as the dump writes it: its name, or f<col> when it has none.
 * For pictures that label features as the trees do. The caller frees the
 * text with gpulayer_free_buffer. */
GPULAYER_API gpulayer_status gpulayer_booster_feature_label(
    const gpulayer_booster *b, int32_t col, char **out, size_t *out_len);

/* Model files: versioned JSON, written atomically (temp file + rename). */
GPULAYER_API gpulayer_status gpulayer_booster_save(const gpulayer_booster *b,
                                                   const char *path);
GPULAYER_API gpulayer_status gpulayer_booster_load(const char *path,
                                                   gpulayer_booster **out);
/* The model as a JSON text in a buffer the caller frees with
 * gpulayer_free_buffer. */
GPULAYER_API gpulayer_status gpulayer_booster_save_to_buffer(
    const gpulayer_booster *b, char **out, size_t *out_len);
GPULAYER_API gpulayer_status gpulayer_booster_load_from_buffer(
    const char *buf, size_t len, gpulayer_booster **out);
/* Writes the model in XGBoost's JSON model format (for xgboost.Booster). */
GPULAYER_API gpulayer_status gpulayer_booster_export_xgboost(
    const gpulayer_booster *b, const char *path);
GPULAYER_API void gpulayer_free_buffer(void *buf);

/* ------------------------------------------------------------ device layer */
/* BEGIN DEVICE LAYER API (owned by src/device/) */
/*
 * Discovery reports every compute device of this host: the CPU, NVIDIA GPUs
 * through CUDA, the Apple GPU through Metal (accelerator "mps") and other
 * GPUs through Vulkan. Runtimes are loaded only inside a separate probe
 * process with a time limit, so a missing or broken driver yields a note,
 * never an error or a crash. The first call that needs devices runs
 * discovery; later calls in the same process reuse its result.
 */

typedef enum gpulayer_memory_kind {
    GPULAYER_MEMORY_ANY = 0,       /* in requests: no constraint          */
    GPULAYER_MEMORY_HOST = 1,      /* the CPU's own memory                */
    GPULAYER_MEMORY_DEDICATED = 2, /* a GPU's own memory (VRAM, HBM)      */
    GPULAYER_MEMORY_UNIFIED = 3    /* GPU memory shared with the CPU      */
} gpulayer_memory_kind;

/* One device. The strings belong to the library and stay valid for the
 * life of the process. */
typedef struct gpulayer_device_info {
    const char *accelerator;  /* "cpu", "cuda", "mps", "vulkan"             */
    int32_t index;            /* within the accelerator                     */
    const char *name;
    const char *stable_id;    /* the runtime's UUID; "" when it has none    */
    gpulayer_memory_kind memory_kind;
    uint64_t memory_bytes;    /* total; host RAM for unified-memory GPUs    */
    uint64_t usable_bytes;    /* free (CUDA), recommended working set (mps) */
    const char *capabilities; /* space-separated: "cuda.sm_90 ..."          */
    int backend_built;        /* this library has a backend for it          */
    int backend_available;    /* ... and that backend can use this device   */
    const char *backend_reason; /* why not available; "" when available    */
} gpulayer_device_info;

/* Number of devices found (at least 1: the CPU). */
GPULAYER_API int32_t gpulayer_device_count(void);
GPULAYER_API gpulayer_status gpulayer_device_get(int32_t i,
                                                 gpulayer_device_info *out);

/* How a report or decision is rendered. Markdown exists only for the
 * support matrix. */
typedef enum gpulayer_render_format {
    GPULAYER_RENDER_TEXT = 0,
    GPULAYER_RENDER_JSON = 1,
    GPULAYER_RENDER_MARKDOWN = 2
} gpulayer_render_format;

/* Reports write a NUL-terminated text into *out, a buffer the caller frees
 * with gpulayer_free_buffer; out_len, when not NULL, receives its length
 * without the NUL (out may be NULL when only that is wanted). On failure
 * nothing is written and the last error says why. */

/* The device table of `gpulayer devices`: every device with its memory,
 * backend state and capabilities, then the discovery notes (TEXT), or the
 * same as JSON ({"devices": [...], "notes": [...]}, see docs/devices.md).
 * GPULAYER_ERR_INVALID_ARGUMENT for MARKDOWN. */
GPULAYER_API gpulayer_status gpulayer_devices_report(
    gpulayer_render_format format, char **out, size_t *out_len);
/* What gpulayer_devices_report_ex adds to discovery. */
typedef enum gpulayer_discover_flags {
    GPULAYER_DISCOVER_DEFAULT = 0,
    /* Also run the framework probe: Python (GPULAYER_PYTHON, else python3
     * on PATH) imports torch and mlx in a child process with a time limit
     * (GPULAYER_FRAMEWORK_TIMEOUT_MS), and the devices gain the
     * capabilities torch.cuda, torch.mps and mlx, or notes saying why not
     * (`gpulayer devices --frameworks`). */
    GPULAYER_DISCOVER_FRAMEWORKS = 1
} gpulayer_discover_flags;
/* gpulayer_devices_report with flags, an OR of gpulayer_discover_flags. */
GPULAYER_API gpulayer_status gpulayer_devices_report_ex(
    gpulayer_render_format format, int flags, char **out, size_t *out_len);
/* The capability summary of `gpulayer diagnose`, safe to paste into a bug
 * report: no serial numbers, UUIDs, host names or user names. TEXT or
 * JSON; GPULAYER_ERR_INVALID_ARGUMENT for MARKDOWN. */
GPULAYER_API gpulayer_status gpulayer_diagnose_report(
    gpulayer_render_format format, char **out, size_t *out_len);
/* gpulayer_devices_report and gpulayer_diagnose_report as JSON. */
GPULAYER_API gpulayer_status gpulayer_devices_json(char **out, size_t *out_len);
GPULAYER_API gpulayer_status gpulayer_diagnose_json(char **out,
                                                    size_t *out_len);

/* The support matrix (accelerator x job kind x status), the one table
 * behind `gpulayer support-matrix` and docs/support-matrix.md: TEXT, JSON
 * or MARKDOWN, written like a report above. */
GPULAYER_API gpulayer_status gpulayer_support_matrix(
    gpulayer_render_format format, char **out, size_t *out_len);

typedef enum gpulayer_job_kind {
    GPULAYER_JOB_INDEPENDENT = 0, /* one process                          */
    GPULAYER_JOB_DISTRIBUTED = 1  /* num_processes ranks, one device each */
} gpulayer_job_kind;

/* What a job needs. Zero-initialise, then set what you need. */
typedef struct gpulayer_device_request {
    /* "auto" (or NULL), "cpu", "cuda", "mps", "vulkan", optionally with a
     * device index: "cuda:1". auto prefers cuda, then mps, vulkan, cpu. */
    const char *accelerator;
    uint64_t min_memory_bytes;        /* usable memory per device          */
    gpulayer_memory_kind memory_kind; /* ANY, DEDICATED or UNIFIED         */
    const char *const *capabilities;  /* all required, e.g. "cuda.sm_80"   */
    int32_t num_capabilities;
    int32_t device_count;             /* devices per process; 0 means 1    */
    gpulayer_job_kind job_kind;
    int32_t num_processes;            /* distributed ranks; 0 means 1      */
} gpulayer_device_request;

/* Places a request on this host's devices. The decision -- the chosen
 * devices, why, and every other device with the reason it was not chosen --
 * is written as JSON (freed with gpulayer_free_buffer) even when the request
 * is refused. Returns GPULAYER_ERR_PLACEMENT when no device fits (every
 * reason is then also in gpulayer_last_error()), and
 * GPULAYER_ERR_INVALID_ARGUMENT for a job that can never run (distributed
 * mps). decision_json may be NULL. The same as gpulayer_placement_create
 * with no flags followed by gpulayer_placement_render as JSON. */
GPULAYER_API gpulayer_status gpulayer_place(
    const gpulayer_device_request *request, char **decision_json,
    size_t *decision_len);

/*
 * A request held by the library, for building one up from the text form
 * and command-line flags as `gpulayer place` and `gpulayer run` do. The
 * text form is comma-separated items, a bare word being the accelerator
 * and the rest key=value, with the keys accelerator, memory (512M, 8G,
 * 1.5GiB, 8GB), memory_kind (any, dedicated, unified), capability (adds
 * one), count and nproc (a distributed job of N processes):
 *   "cuda"   "cuda:1"   "auto,memory=8G,memory_kind=dedicated"
 *   "capability=cuda.sm_90,count=2"   "cpu,nproc=4"
 * Each function applies its items on top of what the request holds, so the
 * last word on a field wins. A failing call leaves the items before the
 * bad one applied and says why in gpulayer_last_error().
 */
typedef struct gpulayer_request gpulayer_request;

/* A new request holding base (NULL: auto, one device, any memory, one
 * independent process). Free it with gpulayer_request_free. Fails with
 * GPULAYER_ERR_INVALID_ARGUMENT when base is malformed (then *out is
 * NULL). */
GPULAYER_API gpulayer_status gpulayer_request_create(
    const gpulayer_device_request *base, gpulayer_request **out);
GPULAYER_API void gpulayer_request_free(gpulayer_request *r);
/* Applies a request in text form (see above). NULL changes nothing. */
GPULAYER_API gpulayer_status gpulayer_request_parse(gpulayer_request *r,
                                                    const char *text);
/* Sets one item by its key, as in the text form. */
GPULAYER_API gpulayer_status gpulayer_request_set(gpulayer_request *r,
                                                  const char *key,
                                                  const char *value);
/* Reads one request flag of a command line at argv[*i]: --accelerator A,
 * --memory SIZE, --memory-kind K, --capability C (repeatable), --count N,
 * --nproc N, each also as --flag=value. Returns 1 when it took the flag
 * (and advanced *i past its value), 0 when argv[*i] is no request flag,
 * and -1 on a missing or bad value (gpulayer_last_error() says why). */
GPULAYER_API int gpulayer_request_parse_flag(gpulayer_request *r, int argc,
                                             char *const *argv, int *i);
/* Parses a memory size as requests and --memory take it: a number with an
 * optional unit, "512M", "8G", "1.5GiB" (B, K, M, G, T and KiB..TiB are
 * powers of 1024), "8GB" (KB..TB: powers of 1000), "4096" (bytes). A
 * negative, non-finite or too large size, or an unknown unit, is
 * GPULAYER_ERR_INVALID_ARGUMENT, with gpulayer_last_error() saying why. */
GPULAYER_API gpulayer_status gpulayer_parse_bytes(const char *text, uint64_t *out);

/* A placement decision: the devices a request gets on this host, or the
 * refusal, with every device considered and the reason for each. */
typedef struct gpulayer_placement gpulayer_placement;

typedef enum gpulayer_place_flags {
    /* Probe every runtime and consider every device, so that a refusal
     * also lists the devices of other accelerators (`gpulayer place`). */
    GPULAYER_PLACE_DEFAULT = 0,
    /* Only devices this library's own backend can use: the choice
     * training makes for device=... (`gpulayer place --backend`). */
    GPULAYER_PLACE_BACKEND = 1,
    /* A named accelerator probes only its own runtime and the CPU: quicker,
     * at the price of a shorter refusal (`gpulayer run`). */
    GPULAYER_PLACE_NARROW = 2
} gpulayer_place_flags;

/* Places r on this host (discovering devices on first use) with flags, an
 * OR of gpulayer_place_flags. Returns GPULAYER_OK when placed,
 * GPULAYER_ERR_PLACEMENT when no device fits (every reason and the notes
 * of the discovery that explain absent devices are then also in
 * gpulayer_last_error()) and GPULAYER_ERR_INVALID_ARGUMENT for a job that
 * can never run (distributed mps). In these three cases *out receives the
 * decision, to be freed with gpulayer_placement_free; on any other error
 * *out is NULL. */
GPULAYER_API gpulayer_status gpulayer_placement_create(
    const gpulayer_request *r, int flags, gpulayer_placement **out);
GPULAYER_API void gpulayer_placement_free(gpulayer_placement *p);
/* 1 when the request was placed, 0 when refused or invalid. */
GPULAYER_API int gpulayer_placement_placed(const gpulayer_placement *p);
/* The choice or the refusal in one line ("auto: chose cuda:0 (...) because
 * ..."); owned by p. */
GPULAYER_API const char *gpulayer_placement_why(const gpulayer_placement *p);
/* The decision as `gpulayer place` prints it: TEXT for people (the
 * request, the choice, every device considered with its reason and, when
 * refused, the discovery notes that explain absent devices) or JSON (see
 * docs/devices.md), written like a report above. Leaves the last error
 * alone unless it fails. GPULAYER_ERR_INVALID_ARGUMENT for MARKDOWN. */
GPULAYER_API gpulayer_status gpulayer_placement_render(
    const gpulayer_placement *p, gpulayer_render_format format, char **out,
    size_t *out_len);

/*
 * The training report: one HTML page on a trained booster that opens in a
 * browser with no network (inline SVG and styles; no scripts, fonts,
 * images or outside addresses), as `gpulayer train --report` writes it
 * (README): the command and when the page was written, the learning
 * curves with the best round marked and each curve's value at the best
 * and the last round, for the last validation set its ROC and
 * precision-recall curves, confusion matrix and calibration (binary),
 * confusion matrix (multiclass) or residuals (regression) and each
 * feature's mean |SHAP value|, a summary of the training data, feature
 * importance, the parameters, the devices considered with their reasons,
 * time and memory. Every member may be NULL or 0 (its section is left
 * out); the names are shown as given.
 */
typedef struct gpulayer_report_info {
    const char *command;           /* the command line shown, or NULL      */
    const char *data;              /* what the training rows are called    */
    const gpulayer_dataset *train; /* the training rows: the data summary  */
    const gpulayer_dataset *const *valid; /* num_valid validation sets     */
    const char *const *valid_names;
    int32_t num_valid;
    const char *model;             /* where the model was saved, or NULL   */
    double train_seconds;          /* the training's time; < 0: unknown    */
    int32_t ranks;                 /* processes of a distributed job, or 1 */
    /* The learning curves: num_series (data set, metric) pairs, named by
     * series_data and series_metric, with values[round * num_series +
     * series] for num_rounds rounds, the first of them round first_round
     * (0, or the rounds of the model training continued). */
    int32_t num_series, num_rounds, first_round;
    const char *const *series_data;
    const char *const *series_metric;
    const double *values;
} gpulayer_report_info;

/* Writes the report on b to path, atomically (a failure leaves any
 * earlier file as it was). */
GPULAYER_API gpulayer_status gpulayer_report_write(const char *path, const gpulayer_booster *b,
                                                   const gpulayer_report_info *info);

/*
 * Running a program on a placement (`gpulayer run`). The program is an
 * ordinary child process that learns its devices from the environment:
 * GPULAYER_ACCELERATOR, GPULAYER_DEVICE (the index(es) as the program will
 * number them), GPULAYER_DEVICE_ID (stable ids, when the runtime has
 * them) and, for cuda, CUDA_VISIBLE_DEVICES (the chosen GPUs' UUIDs). A
 * distributed job starts its ranks through an existing launcher (mpirun),
 * each rank passing through `PROGRAM run --rank-exec SPEC -- ARGV...`,
 * which ends in gpulayer_run_rank.
 */
typedef struct gpulayer_run_options {
    /* Distributed jobs: the launcher, searched on PATH (NULL: "mpirun"),
     * and arguments passed to it before the ranks' command. */
    const char *launcher;
    const char *const *launcher_args;
    int32_t num_launcher_args;
    /* The gpulayer command the launcher starts every rank through; NULL:
     * the running program, which must then be the gpulayer command. */
    const char *program;
} gpulayer_run_options;

/* Runs argv (argv[0] searched on PATH, NULL-terminated) on the placed p
 * with the environment of this process plus the device variables, passes
 * SIGINT, SIGTERM and SIGHUP sent to this process on to it, and waits.
 * Signal handlers are process-wide: one run at a time per process.
 * options may be NULL. *exit_status is always written: returns
 * GPULAYER_OK when the program ran, with its exit status there (128 + N
 * when it died of signal N); otherwise an error saying why, with 127 there
 * when the program (or launcher) was not found, 126 when it could not be
 * executed, and 125 for any other failure (p not placed, no launcher, out
 * of memory), as env(1) does. */
GPULAYER_API gpulayer_status gpulayer_placement_run(
    const gpulayer_placement *p, char *const *argv,
    const gpulayer_run_options *options, int *exit_status);
/* The rank side of a distributed run: finds this rank (as the launcher
 * announced it: Open MPI, MPICH, Slurm, PMIx) in spec, sets its device
 * variables and replaces this process with argv. Returns only on failure,
 * with the reason in gpulayer_last_error(). */
GPULAYER_API gpulayer_status gpulayer_run_rank(const char *spec,
                                               char *const *argv);
/* END DEVICE LAYER API */

#ifdef __cplusplus
}
#endif
#endif /* GPULAYER_H */
