/* reader_libsvm.c -- LibSVM / SVMlight text files:
 *
 *     label[:weight] [qid:N] index:value index:value ...  [# comment]
 *
 * A qid:N token gives the row's query id (ranking; as XGBoost and SVMrank):
 * every row has one or none does, and the ids must be non-decreasing.
 * Indices are stored as given (0-based files and 1-based files alike, as
 * XGBoost does), so in a 1-based file feature 0 is all missing. Entries
 * absent from a line are missing (NaN). The rows are collected in
 * compressed sparse form and the dataset stays sparse
 * (gpl_dataset_from_rows): memory goes with the entries. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "label_classes.h"
#include "memory_limit.h"
#include "reader.h"
#include "reader_text.h"

typedef struct entry {
    int32_t index;
    float value;
} entry;

typedef struct sparse_rows {
    const char *name;
    int32_t num_features; /* fixed by the caller, or 0 */
    int64_t rows, row_cap;
    float *label, *weight;
    int64_t *start; /* row r holds entries [start[r], start[r + 1]) */
    entry *entries;
    int64_t nnz, nnz_cap;
    int any_weight;
    int32_t max_index;
    int64_t line;              /* the line being parsed */
    gpl_row_lines lines;       /* each row's line, for later messages */
    const char *line_start;    /* for column numbers in messages */
    /* Query ids (qid:N): the token of this line, or NULL, and the first
     * line with one and without one, since every row needs one or none. */
    const char *qid_token;
    int64_t qid, first_qid_line, first_plain_line;
    gpl_qid_groups qids;
    gpl_label_reader labels; /* numbers or class names */
    gpl_category_dict *fixed_classes; /* label_classes of the options */
} sparse_rows;

static gpulayer_status line_error(const sparse_rows *sr, const char *at,
                                  const char *fmt, ...) GPL_PRINTF(3, 4);

/* "file: line L, column C: message" (C counts characters from 1). */
static gpulayer_status line_error(const sparse_rows *sr, const char *at,
                                  const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!at)
        return gpl_error(GPULAYER_ERR_PARSE, "%s: line %lld: %s", sr->name,
                         (long long)sr->line, msg);
    return gpl_error(GPULAYER_ERR_PARSE, "%s: line %lld, column %lld: %s",
                     sr->name, (long long)sr->line,
                     (long long)(at - sr->line_start + 1), msg);
}

static int shown_len(const char *s, const char *e)
{
    return e - s > 40 ? 40 : (int)(e - s);
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static gpulayer_status out_of_memory(const sparse_rows *sr)
{
    return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                     "out of host memory reading %s (at line %lld)", sr->name,
                     (long long)sr->line);
}

static int grow(void **p, int64_t *cap, size_t elem, int64_t need)
{
    if (need <= *cap) return 1;
    int64_t n = *cap ? *cap : 1024;
    while (n < need) n *= 2;
    void *q = realloc(*p, (size_t)n * elem);
    if (!q) return 0;
    *p = q;
    *cap = n;
    return 1;
}

/* Makes room for one more row (label, weight and the next row start). */
static int grow_rows(sparse_rows *sr)
{
    int64_t cap = sr->row_cap;
    if (!grow((void **)&sr->label, &cap, sizeof(float), sr->rows + 2)) return 0;
    int64_t c2 = sr->row_cap;
    if (!grow((void **)&sr->weight, &c2, sizeof(float), sr->rows + 2)) return 0;
    int64_t c3 = sr->row_cap;
    if (!grow((void **)&sr->start, &c3, sizeof(int64_t), sr->rows + 2)) return 0;
    sr->row_cap = cap;
    return 1;
}

/* The first token: a finite label, optionally ":weight". */
static gpulayer_status parse_label(sparse_rows *sr, const char *t, const char *e)
{
    const char *colon = memchr(t, ':', (size_t)(e - t));
    const char *le = colon ? colon : e;
    float v, w = 1.0f;
    if (gpl_is_missing_marker(t, (size_t)(le - t)))
        return line_error(sr, t, "the label is missing");
    char why[400];
    int code = gpl_label_read(&sr->labels, t, (size_t)(le - t), sr->line, &v, why, sizeof why);
    if (code == GPL_LABEL_NOMEM) return out_of_memory(sr);
    if (code == GPL_LABEL_REFUSED) return line_error(sr, t, "%s", why);
    if (colon) {
        if (!gpl_parse_float(colon + 1, e, &w) || !isfinite(w) || w < 0)
            return line_error(sr, colon + 1,
                              "weight '%.*s' is not a finite number >= 0",
                              shown_len(colon + 1, e), colon + 1);
        sr->any_weight = 1;
    }
    sr->label[sr->rows] = v;
    sr->weight[sr->rows] = w;
    return GPULAYER_OK;
}

/* The largest feature index: the number of features (index + 1) must fit
 * an int32_t. */
#define MAX_INDEX (INT32_MAX - 1)

/* A non-negative decimal integer filling [s, e): 1 and *v set (saturated at
 * INT64_MAX), or 0 when it is not one. */
static int parse_index(const char *s, const char *e, int64_t *v)
{
    if (s == e) return 0;
    *v = 0;
    for (; s < e; s++) {
        if (*s < '0' || *s > '9') return 0;
        int d = *s - '0';
        *v = *v > (INT64_MAX - d) / 10 ? INT64_MAX : *v * 10 + d;
    }
    return 1;
}

/* A number, or a missing marker such as "nan" (stored as NaN). */
static int parse_value(const char *s, const char *e, float *v)
{
    if (gpl_parse_float(s, e, v)) return 1;
    if (s == e || !gpl_is_missing_marker(s, (size_t)(e - s))) return 0;
    *v = NAN;
    return 1;
}

/* qid:N, the row's query id (an integer, once a line). */
static gpulayer_status parse_qid(sparse_rows *sr, const char *t, const char *e)
{
    const char *s = t + 4;
    int neg = s < e && *s == '-';
    int64_t v;
    if (sr->qid_token)
        return line_error(sr, t, "a second qid token (the first: column %lld)",
                          (long long)(sr->qid_token - sr->line_start + 1));
    if (!parse_index(s + neg, e, &v) || v == INT64_MAX)
        return line_error(sr, t, "malformed query id '%.*s' (expected qid:N with an "
                          "integer N)", shown_len(t, e), t);
    sr->qid_token = t;
    sr->qid = neg ? -v : v;
    return GPULAYER_OK;
}

/* The line's query id joins the groups; every row has one or none does. */
static gpulayer_status add_qid(sparse_rows *sr)
{
    if (!sr->qid_token) {
        if (!sr->first_plain_line) sr->first_plain_line = sr->line;
        if (sr->first_qid_line)
            return line_error(sr, NULL, "this row has no qid:N token, but line %lld has "
                              "one: every row needs a query id, or none does",
                              (long long)sr->first_qid_line);
        return GPULAYER_OK;
    }
    if (!sr->first_qid_line) sr->first_qid_line = sr->line;
    if (sr->first_plain_line)
        return line_error(sr, sr->qid_token, "this row has a query id, but line %lld has "
                          "none: every row needs a query id, or none does",
                          (long long)sr->first_plain_line);
    int code = gpl_qid_groups_add(&sr->qids, sr->qid);
    if (code == GPL_QID_NOMEM) return out_of_memory(sr);
    if (code == GPL_QID_OK) return GPULAYER_OK;
    char why[256];
    gpl_qid_groups_why(&sr->qids, code, sr->qid, why, sizeof why);
    return line_error(sr, sr->qid_token, "%s", why);
}

static gpulayer_status parse_pair(sparse_rows *sr, const char *t, const char *e)
{
    const char *colon = memchr(t, ':', (size_t)(e - t));
    if (colon && colon - t == 3 && memcmp(t, "qid", 3) == 0) return parse_qid(sr, t, e);
    int64_t wide = -1;
    float v;
    if (!colon || !parse_index(t, colon, &wide) || !parse_value(colon + 1, e, &v))
        return line_error(sr, t,
                          "malformed feature '%.*s' (expected index:value, "
                          "with a non-negative integer index)",
                          shown_len(t, e), t);
    if (wide > MAX_INDEX)
        return line_error(sr, t,
                          "feature index %.*s is too large: the largest index "
                          "allowed is %d", shown_len(t, colon), t, (int)MAX_INDEX);
    int32_t index = (int32_t)wide;
    if (sr->num_features > 0 && index >= sr->num_features)
        return line_error(sr, t,
                          "feature index %d is out of range: the number of "
                          "features is %d (indices 0 to %d)",
                          (int)index, (int)sr->num_features,
                          (int)sr->num_features - 1);
    if (!grow((void **)&sr->entries, &sr->nnz_cap, sizeof(entry), sr->nnz + 1))
        return out_of_memory(sr);
    sr->entries[sr->nnz++] = (entry){index, v};
    if (index > sr->max_index) sr->max_index = index;
    return GPULAYER_OK;
}

static int compare_index(const void *a, const void *b)
{
    int32_t x = ((const entry *)a)->index, y = ((const entry *)b)->index;
    return (x > y) - (x < y);
}

/* An index given twice in a row would make one of the values vanish. Rows
 * are usually sorted already; only unsorted ones pay for a sort. */
static gpulayer_status check_duplicates(sparse_rows *sr, int64_t first)
{
    int64_t n = sr->nnz - first;
    if (n < 2) return GPULAYER_OK; /* entries may still be NULL */
    entry *e = sr->entries + first;
    int sorted = 1;
    for (int64_t i = 1; i < n && sorted; i++) sorted = e[i - 1].index < e[i].index;
    if (sorted) return GPULAYER_OK;
    qsort(e, (size_t)n, sizeof *e, compare_index);
    for (int64_t i = 1; i < n; i++)
        if (e[i - 1].index == e[i].index)
            return line_error(sr, NULL, "feature index %d appears more than once",
                              (int)e[i].index);
    return GPULAYER_OK;
}

/* One line [p, e); blank and comment lines add no row. */
static gpulayer_status parse_line(sparse_rows *sr, const char *p, const char *e)
{
    sr->line_start = p;
    const char *hash = memchr(p, '#', (size_t)(e - p));
    if (hash) e = hash;
    while (p < e && is_space(*p)) p++;
    if (p == e) return GPULAYER_OK;
    if (!grow_rows(sr)) return out_of_memory(sr);
    int64_t first = sr->nnz;
    sr->start[sr->rows] = first;
    sr->qid_token = NULL;
    for (int token = 0; p < e; token++) {
        const char *t = p;
        while (p < e && !is_space(*p)) p++;
        GPL_CHECK(token == 0 ? parse_label(sr, t, p) : parse_pair(sr, t, p));
        while (p < e && is_space(*p)) p++;
    }
    GPL_CHECK(check_duplicates(sr, first));
    GPL_CHECK(add_qid(sr));
    GPL_CHECK(gpl_row_lines_add(&sr->lines, sr->rows, sr->line));
    sr->rows++;
    sr->start[sr->rows] = sr->nnz;
    return GPULAYER_OK;
}

static gpulayer_status parse_lines(sparse_rows *sr, const gpl_text *text)
{
    const char *p = text->data, *end = text->data + text->len;
    if (text->len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;
    for (sr->line = 1; p < end; sr->line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        GPL_CHECK(parse_line(sr, p, e));
        p = nl ? nl + 1 : end;
    }
    return GPULAYER_OK;
}

/* The rows as a sparse dataset: memory in proportion to the entries. */
static gpulayer_status to_dataset(sparse_rows *sr, gpulayer_dataset **out)
{
    int32_t cols = sr->num_features > 0 ? sr->num_features : sr->max_index + 1;
    if (cols <= 0)
        return gpl_error(GPULAYER_ERR_PARSE,
                         "%s: no feature entries (index:value) in any row",
                         sr->name);
    const entry none = {0, 0.0f};
    const entry *e = sr->entries ? sr->entries : &none;
    gpulayer_dataset *ds;
    GPL_CHECK(gpl_dataset_from_rows(sr->rows, cols, sr->start, &e->index, sizeof(entry),
                                    &e->value, sizeof(entry), sr->name, &ds));
    ds->label = sr->label;
    sr->label = NULL;
    if (sr->any_weight) {
        ds->weight = sr->weight;
        sr->weight = NULL;
    }
    ds->source = gpl_strdup(sr->name);
    if (!ds->source) {
        gpulayer_dataset_free(ds);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    if (sr->qids.rows > 0) gpl_qid_groups_attach(&sr->qids, ds);
    ds->lines = gpl_row_lines_take(&sr->lines);
    *out = ds;
    return GPULAYER_OK;
}

gpulayer_status gpl_parse_libsvm(const gpl_text *text, const char *name,
                                 const gpulayer_read_options *opts,
                                 gpulayer_dataset **out)
{
    sparse_rows sr = {0};
    sr.name = name;
    sr.max_index = -1;
    sr.num_features = opts ? opts->num_features : 0;
    if (sr.num_features < 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s: the number of features must not be negative (got %d)",
                         name, (int)sr.num_features);
    gpl_category_dict *classes = NULL;
    gpulayer_status status = gpl_label_classes_from_list(opts ? opts->label_classes : NULL,
                                                         &sr.fixed_classes);
    sr.labels.fixed = sr.fixed_classes;
    if (status == GPULAYER_OK) status = parse_lines(&sr, text);
    if (status == GPULAYER_OK && sr.rows == 0)
        status = gpl_error(GPULAYER_ERR_PARSE, "%s: %s", name,
                           text->len == 0 ? "the file is empty"
                                          : "no data rows (only blank or "
                                            "comment lines)");
    if (status == GPULAYER_OK)
        status = gpl_label_finish(&sr.labels, sr.label, sr.rows, &classes);
    if (status == GPULAYER_OK) status = to_dataset(&sr, out);
    if (status == GPULAYER_OK) {
        (*out)->label_classes = classes;
        classes = NULL;
    }
    gpl_category_dict_free(classes);
    gpl_category_dict_free(sr.fixed_classes);
    gpl_label_reader_free(&sr.labels);
    free(sr.label);
    free(sr.weight);
    free(sr.start);
    free(sr.entries);
    gpl_qid_groups_free(&sr.qids);
    gpl_row_lines_clear(&sr.lines);
    return status;
}

gpulayer_status gpl_read_libsvm(const char *path,
                                const gpulayer_read_options *opts,
                                gpulayer_dataset **out)
{
    gpl_text text;
    GPL_CHECK(gpl_text_read(path, &text));
    gpulayer_status status = gpl_parse_libsvm(&text, path, opts, out);
    gpl_text_free(&text);
    return status;
}
