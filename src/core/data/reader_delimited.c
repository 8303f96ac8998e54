/* reader_delimited.c -- CSV and TSV files.
 *
 * The whole decompressed file is in memory. One pass splits records into
 * fields (pointers into the text, no copies) and stores each cell straight
 * into its column-major slot; numbers are parsed in place. A feature column
 * turns categorical at its first non-numeric cell; the numeric cells it had
 * before then are re-read as strings in a second, partial pass, which in
 * practice covers only the first few rows. Category ids are numbered in
 * order of appearance while parsing and renumbered to sorted order at the
 * end. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "label_classes.h"
#include "name_index.h"
#include "reader.h"
#include "reader_text.h"
#include "utf8.h"

/* Category codes are stored as floats, which count exactly up to 2^24. */
#define MAX_CATEGORIES (1 << 24)

typedef struct field {
    const char *p; /* content, without enclosing quotes */
    size_t len;
    int quoted;
    int escaped; /* holds doubled quotes, so p..len is not the final text */
} field;

enum role { ROLE_FEATURE, ROLE_LABEL, ROLE_WEIGHT, ROLE_IGNORE, ROLE_QID };

typedef struct column {
    enum role role;
    int32_t feature;   /* index among the features (ROLE_FEATURE) */
    float *dst;        /* dst[row] receives the cell */
    gpl_strtab *strings;   /* non-NULL once the column is categorical */
    int64_t first_string_row; /* rows before it hold numbers to re-read */
    int must_be_numeric;   /* named in numeric_columns */
    int declared_categorical; /* named in categorical_columns */
    /* Non-missing cells that are numbers and that are not, and where the
     * first of the latter is, for the "looks numeric" rule. */
    int64_t numbers, texts, first_text_line;
    char first_text[44];
} column;

typedef struct parser {
    const char *name; /* the file, for messages */
    char delim;
    const char *p, *end; /* scanning position */
    int64_t line;        /* 1-based line of p */
    int64_t record_line; /* line the current record starts on */
    gpl_row_lines lines; /* each row's record_line, for later messages */
    field *fields;       /* the current record */
    int32_t count, capacity;

    int32_t ncols;    /* fields per record, fixed by the first record */
    char **header;    /* ncols names, or NULL without a header row */
    gpl_named *by_name; /* the header sorted by name, then column */
    column *cols;
    int32_t nfeatures;
    int64_t row_capacity, rows;
    gpulayer_dataset *ds;
    float *label, *weight;
    char *scratch; /* unescaped text of a quoted field with "" inside */
    size_t scratch_cap;
    int bad_numbers;           /* GPULAYER_BAD_NUMBERS_* */
    int64_t bad_cells;         /* read as missing under BAD_NUMBERS_MISSING */
    int64_t bad_line;          /* the first of them */
    int32_t bad_col;
    char bad_text[44];
    gpl_qid_groups qids; /* query groups from the qid column, if any */
    gpl_label_reader labels; /* numbers or class names */
    gpl_category_dict *fixed_classes; /* label_classes of the options */
} parser;

/* ---------------------------------------------------------------- messages */

/* An error at a cell: "file: line L, column C ('name'): message". */
static gpulayer_status cell_error(const parser *ps, int64_t line, int32_t col,
                                  const char *fmt, ...) GPL_PRINTF(4, 5);

static gpulayer_status cell_error(const parser *ps, int64_t line, int32_t col,
                                  const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (ps->header && col < ps->ncols && ps->header[col] && ps->header[col][0])
        return gpl_error(GPULAYER_ERR_PARSE, "%s: line %lld, column %d ('%s'): %s",
                         ps->name, (long long)line, (int)col + 1,
                         ps->header[col], msg);
    return gpl_error(GPULAYER_ERR_PARSE, "%s: line %lld, column %d: %s",
                     ps->name, (long long)line, (int)col + 1, msg);
}

/* Cell text for a message, cut to a readable length. */
static int shown_len(size_t len) { return len > 40 ? 40 : (int)len; }
static const char *ellipsis(size_t len) { return len > 40 ? "..." : ""; }

/* -------------------------------------------------------------- scanning */

static int is_blank(char c, char delim)
{
    return c == ' ' || c == '\r' || (c == '\t' && delim != '\t');
}

static gpulayer_status push_field(parser *ps, const field *f)
{
    if (ps->count == ps->capacity) {
        if (ps->capacity >= INT32_MAX / 2)
            return gpl_error(GPULAYER_ERR_PARSE, "%s: line %lld has too many fields",
                             ps->name, (long long)ps->record_line);
        int32_t cap = ps->capacity ? ps->capacity * 2 : 64;
        field *fs = realloc(ps->fields, (size_t)cap * sizeof *fs);
        if (!fs)
            return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                             "out of host memory splitting a line of %s", ps->name);
        ps->fields = fs;
        ps->capacity = cap;
    }
    ps->fields[ps->count++] = *f;
    return GPULAYER_OK;
}

static int64_t count_newlines(const char *p, const char *e)
{
    int64_t n = 0;
    while (p < e && (p = memchr(p, '\n', (size_t)(e - p))) != NULL) {
        n++;
        p++;
    }
    return n;
}

/* A field that starts with a quote; *pp is at the quote and is left at the
 * character after the field. The content may hold delimiters, newlines and
 * doubled quotes. */
static gpulayer_status scan_quoted(parser *ps, const char **pp, field *f)
{
    const char *s = *pp + 1, *p = s, *q;
    int64_t start_line = ps->line;
    for (;;) {
        q = memchr(p, '"', (size_t)(ps->end - p));
        if (!q)
            return cell_error(ps, start_line, ps->count,
                              "a quoted field is not closed before the end of "
                              "the file");
        if (q + 1 < ps->end && q[1] == '"') {
            f->escaped = 1;
            p = q + 2;
            continue;
        }
        break;
    }
    ps->line += count_newlines(s, q);
    f->p = s;
    f->len = (size_t)(q - s);
    f->quoted = 1;
    p = q + 1;
    while (p < ps->end && is_blank(*p, ps->delim)) p++;
    if (p < ps->end && *p != ps->delim && *p != '\n')
        return cell_error(ps, ps->line, ps->count,
                          "unexpected text after the closing quote of a "
                          "quoted field");
    *pp = p;
    return GPULAYER_OK;
}

/* Splits one record (usually one line) into ps->fields. */
static gpulayer_status scan_fields(parser *ps)
{
    const char delim = ps->delim, *end = ps->end;
    for (;;) {
        field f = {0};
        const char *p = ps->p;
        while (p < end && is_blank(*p, delim)) p++;
        if (p < end && *p == '"') {
            GPL_CHECK(scan_quoted(ps, &p, &f));
        } else {
            const char *s = p;
            while (p < end && *p != delim && *p != '\n') p++;
            const char *e = p;
            while (e > s && is_blank(e[-1], delim)) e--;
            f.p = s;
            f.len = (size_t)(e - s);
        }
        GPL_CHECK(push_field(ps, &f));
        if (p < end && *p == delim) {
            ps->p = p + 1;
            continue;
        }
        if (p < end) { /* the newline */
            p++;
            ps->line++;
        }
        ps->p = p;
        return GPULAYER_OK;
    }
}

/* Reads the next non-blank record; *got is 0 at the end of the text. */
static gpulayer_status next_record(parser *ps, int *got)
{
    for (;;) {
        *got = 0;
        if (ps->p >= ps->end) return GPULAYER_OK;
        ps->record_line = ps->line;
        ps->count = 0;
        GPL_CHECK(scan_fields(ps));
        const field *f = &ps->fields[0];
        /* Blank lines carry no row (in a one-column file an empty cell
         * cannot be told apart from them). */
        if (ps->count > 1 || f->quoted || f->len > 0) {
            *got = 1;
            return GPULAYER_OK;
        }
    }
}

/* The final text of a field: itself, or with doubled quotes collapsed into
 * the scratch buffer. NULL when out of memory. */
static const char *field_text(parser *ps, const field *f, size_t *len)
{
    *len = f->len;
    if (!f->escaped) return f->p;
    if (f->len + 1 > ps->scratch_cap) {
        char *s = realloc(ps->scratch, f->len + 1);
        if (!s) {
            gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                      "out of host memory reading a field of %s", ps->name);
            return NULL;
        }
        ps->scratch = s;
        ps->scratch_cap = f->len + 1;
    }
    size_t n = 0;
    for (size_t i = 0; i < f->len; i++) {
        ps->scratch[n++] = f->p[i];
        if (f->p[i] == '"') i++; /* skip the second quote of a pair */
    }
    ps->scratch[n] = '\0';
    *len = n;
    return ps->scratch;
}

/* ------------------------------------------------------------------ header */

static int header_looks_numeric(const parser *ps)
{
    for (int32_t j = 0; j < ps->ncols; j++) {
        float v;
        const char *h = ps->header[j];
        if (!gpl_parse_float(h, h + strlen(h), &v)) return 0;
    }
    return 1;
}

static const char *no_header_hint(const parser *ps)
{
    return header_looks_numeric(ps)
               ? " (the first line looks like data: if the file has no "
                 "header row, set the no-header option)"
               : "";
}

/* A name the header gives twice (unnamed columns may repeat). */
static gpulayer_status check_duplicate_names(const parser *ps)
{
    int32_t j = gpl_named_first_repeat(ps->by_name, ps->ncols);
    if (j < 0) return GPULAYER_OK;
    return cell_error(ps, ps->record_line, j, "duplicate column name '%s' in the header%s",
                      ps->header[j], no_header_hint(ps));
}

/* Names and categories are written into the model's JSON, which must be
 * UTF-8: text in another encoding is refused where it is. */
static gpulayer_status check_utf8(const parser *ps, int32_t col, const char *what,
                                  const char *s, size_t len)
{
    size_t bad = gpl_utf8_check(s, len);
    if (bad == len) return GPULAYER_OK;
    return cell_error(ps, ps->record_line, col,
                      "the %s is not valid UTF-8 (byte 0x%02X at position %zu); "
                      "convert the file to UTF-8, e.g. iconv -f latin1 -t utf-8",
                      what, (unsigned)(unsigned char)s[bad], bad + 1);
}

/* Copies the current record's fields as column names. */
static gpulayer_status take_header(parser *ps)
{
    ps->header = gpl_calloc((size_t)ps->ncols, sizeof *ps->header, "column names");
    if (!ps->header) return GPULAYER_ERR_OUT_OF_MEMORY;
    for (int32_t j = 0; j < ps->ncols; j++) {
        size_t len;
        const char *s = field_text(ps, &ps->fields[j], &len);
        if (!s) return GPULAYER_ERR_OUT_OF_MEMORY;
        GPL_CHECK(check_utf8(ps, j, "column name", s, len));
        ps->header[j] = gpl_malloc(len + 1, "a column name");
        if (!ps->header[j]) return GPULAYER_ERR_OUT_OF_MEMORY;
        memcpy(ps->header[j], s, len);
        ps->header[j][len] = '\0';
    }
    ps->by_name = gpl_malloc(sizeof *ps->by_name * (size_t)(ps->ncols ? ps->ncols : 1),
                             "column names");
    if (!ps->by_name) return GPULAYER_ERR_OUT_OF_MEMORY;
    for (int32_t j = 0; j < ps->ncols; j++) ps->by_name[j] = (gpl_named){ps->header[j], j};
    gpl_named_sort(ps->by_name, ps->ncols);
    GPL_CHECK(check_duplicate_names(ps));
    return GPULAYER_OK;
}

/* --------------------------------------------------------- column choice */

/* "'a', 'b', ... (and 12 more)" for messages. */
static void list_columns(const parser *ps, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int32_t j = 0; j < ps->ncols; j++) {
        size_t room = size - used;
        int n = snprintf(buf + used, room, "%s'%s'", j ? ", " : "", ps->header[j]);
        if (n < 0 || (size_t)n >= room || used + (size_t)n > size - 32) {
            buf[used] = '\0';
            snprintf(buf + used, size - used, ", ... (and %d more)",
                     (int)(ps->ncols - j));
            return;
        }
        used += (size_t)n;
    }
}

/* The column named spec[0..len), else the one with that 0-based index;
 * -1 when there is none. */
static int32_t find_column(const parser *ps, const char *spec, size_t len)
{
    if (ps->by_name) {
        int32_t j = gpl_named_find(ps->by_name, ps->ncols, spec, len);
        if (j >= 0) return j;
    }
    if (len == 0 || len > 9) return -1;
    int32_t index = 0;
    for (size_t i = 0; i < len; i++) {
        if (spec[i] < '0' || spec[i] > '9') return -1;
        index = index * 10 + (spec[i] - '0');
    }
    return index < ps->ncols ? index : -1;
}

static gpulayer_status column_not_found(const parser *ps, const char *what,
                                        const char *spec, size_t len)
{
    if (!ps->header)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s: %s column '%.*s' not found: without a header row "
                         "columns are chosen by 0-based index, and the file "
                         "has %d columns",
                         ps->name, what, (int)len, spec, (int)ps->ncols);
    char names[400];
    list_columns(ps, names, sizeof names);
    return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                     "%s: %s column '%.*s' not found; the columns are: %s%s",
                     ps->name, what, (int)len, spec, names, no_header_hint(ps));
}

/* Gives column spec the role; a column can have only one role. */
static gpulayer_status assign_role(parser *ps, const char *what,
                                   const char *spec, size_t len, enum role role)
{
    int32_t j = find_column(ps, spec, len);
    if (j < 0) return column_not_found(ps, what, spec, len);
    static const char *const names[] = {"a feature", "the label column",
                                        "the weight column", "ignored",
                                        "the qid column"};
    if (ps->cols[j].role != ROLE_FEATURE)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s: column '%.*s' cannot be %s: it is already %s",
                         ps->name, (int)len, spec, names[role],
                         names[ps->cols[j].role]);
    ps->cols[j].role = role;
    return GPULAYER_OK;
}

static gpulayer_status assign_ignored(parser *ps, const char *list)
{
    while (list && *list) {
        const char *comma = strchr(list, ',');
        const char *e = comma ? comma : list + strlen(list);
        const char *s = list;
        while (s < e && *s == ' ') s++;
        while (e > s && e[-1] == ' ') e--;
        if (e > s) {
            int32_t j = find_column(ps, s, (size_t)(e - s));
            /* Ignoring a column twice is harmless. */
            if (j < 0 || ps->cols[j].role != ROLE_IGNORE)
                GPL_CHECK(assign_role(ps, "ignored", s, (size_t)(e - s),
                                      ROLE_IGNORE));
        }
        list = comma ? comma + 1 : NULL;
    }
    return GPULAYER_OK;
}

/* Marks the columns named in numeric_columns and categorical_columns. */
static gpulayer_status assign_kinds(parser *ps, const gpulayer_read_options *o)
{
    for (const char *const *n = o->numeric_columns; n && *n; n++) {
        int32_t j = find_column(ps, *n, strlen(*n));
        if (j < 0) {
            char names[400] = "";
            if (ps->header) list_columns(ps, names, sizeof names);
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "%s: no column '%s', which must be numeric (a numeric "
                             "feature of the model); the columns are: %s", ps->name,
                             *n, ps->header ? names : "(no header row)");
        }
        ps->cols[j].must_be_numeric = 1;
    }
    for (const char *const *n = o->categorical_columns; n && *n; n++) {
        int32_t j = find_column(ps, *n, strlen(*n));
        if (j < 0) return column_not_found(ps, "categorical", *n, strlen(*n));
        if (ps->cols[j].must_be_numeric)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "%s: column '%s' cannot be both numeric and "
                             "categorical", ps->name, *n);
        ps->cols[j].declared_categorical = 1;
    }
    return GPULAYER_OK;
}

static gpulayer_status assign_roles(parser *ps, const gpulayer_read_options *o)
{
    ps->cols = gpl_calloc((size_t)ps->ncols, sizeof *ps->cols, "column roles");
    if (!ps->cols) return GPULAYER_ERR_OUT_OF_MEMORY;
    const char *label = o->label ? o->label : "";
    if (strcmp(label, "none") != 0) {
        if (!label[0]) label = "0";
        GPL_CHECK(assign_role(ps, "label", label, strlen(label), ROLE_LABEL));
    }
    if (o->weight_column && o->weight_column[0])
        GPL_CHECK(assign_role(ps, "weight", o->weight_column,
                              strlen(o->weight_column), ROLE_WEIGHT));
    if (o->qid_column && o->qid_column[0])
        GPL_CHECK(assign_role(ps, "qid", o->qid_column, strlen(o->qid_column), ROLE_QID));
    GPL_CHECK(assign_ignored(ps, o->ignore_columns));
    GPL_CHECK(assign_kinds(ps, o));
    for (int32_t j = 0; j < ps->ncols; j++)
        if (ps->cols[j].role == ROLE_FEATURE) ps->cols[j].feature = ps->nfeatures++;
    if (ps->nfeatures == 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s: no feature columns are left (the file has %d "
                         "columns, besides label, weight, qid and ignored ones)",
                         ps->name, (int)ps->ncols);
    return GPULAYER_OK;
}

/* ---------------------------------------------------------------- storage */

static gpulayer_status allocate_storage(parser *ps)
{
    /* One row per remaining line at most; the excess is trimmed later. */
    ps->row_capacity = count_newlines(ps->p, ps->end) + 1;
    GPL_CHECK(gpl_dataset_alloc(ps->row_capacity, ps->nfeatures, &ps->ds));
    for (int32_t j = 0; j < ps->ncols; j++) {
        column *c = &ps->cols[j];
        float **array = c->role == ROLE_LABEL ? &ps->label
                        : c->role == ROLE_WEIGHT ? &ps->weight : NULL;
        if (c->role == ROLE_FEATURE) {
            c->dst = ps->ds->values + (int64_t)c->feature * ps->row_capacity;
            if (c->declared_categorical && !(c->strings = gpl_strtab_create()))
                return GPULAYER_ERR_OUT_OF_MEMORY;
        } else if (array) {
            *array = gpl_malloc((size_t)ps->row_capacity * sizeof(float),
                                c->role == ROLE_LABEL ? "labels" : "weights");
            if (!*array) return GPULAYER_ERR_OUT_OF_MEMORY;
            c->dst = *array;
        }
    }
    return GPULAYER_OK;
}

/* ------------------------------------------------------------------- cells */

static gpulayer_status check_label_or_weight(const parser *ps, int32_t j,
                                             const field *f, float v)
{
    const char *what = ps->cols[j].role == ROLE_LABEL ? "label" : "weight";
    if (!isfinite(v))
        return cell_error(ps, ps->record_line, j, "%s '%.*s%s' %s", what,
                          shown_len(f->len), f->p, ellipsis(f->len),
                          gpl_not_finite_why(f->p, f->p + f->len));
    if (ps->cols[j].role == ROLE_WEIGHT && v < 0)
        return cell_error(ps, ps->record_line, j, "weight '%.*s%s' is negative",
                          shown_len(f->len), f->p, ellipsis(f->len));
    return GPULAYER_OK;
}

static gpulayer_status not_numeric(const parser *ps, int32_t j, const field *f)
{
    if (!f->escaped && gpl_is_missing_marker(f->p, f->len))
        return cell_error(ps, ps->record_line, j, "the weight is missing");
    return cell_error(ps, ps->record_line, j, "weight '%.*s%s' is not a number",
                      shown_len(f->len), f->p, ellipsis(f->len));
}

/* A label cell: a number or a class name (label_classes.h). */
static gpulayer_status store_label(parser *ps, int32_t j, int64_t row)
{
    const field *f = &ps->fields[j];
    if (!f->escaped && gpl_is_missing_marker(f->p, f->len))
        return cell_error(ps, ps->record_line, j, "the label is missing");
    size_t len;
    const char *s = field_text(ps, f, &len);
    if (!s) return GPULAYER_ERR_OUT_OF_MEMORY;
    char why[400];
    int code = gpl_label_read(&ps->labels, s, len, ps->record_line, &ps->cols[j].dst[row],
                              why, sizeof why);
    if (code == GPL_LABEL_NOMEM) return gpl_error_prefix(GPULAYER_ERR_OUT_OF_MEMORY, "%s",
                                                         ps->name);
    if (code == GPL_LABEL_REFUSED) return cell_error(ps, ps->record_line, j, "%s", why);
    return GPULAYER_OK;
}

/* Stores the category id of a non-missing cell of a categorical column. */
static gpulayer_status store_string(parser *ps, int32_t j, const field *f,
                                    int64_t row)
{
    column *c = &ps->cols[j];
    size_t len;
    const char *s = field_text(ps, f, &len);
    if (!s) return GPULAYER_ERR_OUT_OF_MEMORY;
    int32_t known = gpl_strtab_count(c->strings);
    int32_t id = gpl_strtab_intern(c->strings, s, len);
    if (id < 0) return gpl_error_prefix(GPULAYER_ERR_OUT_OF_MEMORY, "%s", ps->name);
    if (id >= known) GPL_CHECK(check_utf8(ps, j, "text", s, len));
    if (id >= MAX_CATEGORIES)
        return cell_error(ps, ps->record_line, j,
                          "more than %d distinct strings in one column; if it "
                          "is an identifier or free text, list it in the "
                          "ignored columns", MAX_CATEGORIES);
    c->dst[row] = (float)id;
    return GPULAYER_OK;
}

static void keep_text(char *buf, size_t size, const field *f)
{
    snprintf(buf, size, "%.*s%s", shown_len(f->len), f->p, ellipsis(f->len));
}

/* A cell of a column that must be numeric and is not a number: an error,
 * or a counted missing value. */
static gpulayer_status bad_number(parser *ps, int32_t j, const field *f, int64_t row)
{
    if (ps->bad_numbers != GPULAYER_BAD_NUMBERS_MISSING)
        return cell_error(ps, ps->record_line, j,
                          "'%.*s%s' is not a number, and the column must be "
                          "numeric (a numeric column of the model, or named in "
                          "numeric_columns); correct the value, leave the cell "
                          "empty (or NA) for a missing value, or set the "
                          "bad-numbers option to 'missing'",
                          shown_len(f->len), f->p, ellipsis(f->len));
    if (ps->bad_cells++ == 0) {
        ps->bad_line = ps->record_line;
        ps->bad_col = j;
        keep_text(ps->bad_text, sizeof ps->bad_text, f);
    }
    ps->cols[j].dst[row] = NAN;
    return GPULAYER_OK;
}

/* A decimal integer filling [s, e), optionally signed: 1 and *v set, or 0. */
static int parse_int64(const char *s, const char *e, int64_t *v)
{
    int neg = s < e && (*s == '-' || *s == '+') ? *s++ == '-' : 0;
    if (s == e) return 0;
    uint64_t u = 0;
    for (; s < e; s++) {
        if (*s < '0' || *s > '9' || u > ((uint64_t)INT64_MAX - 9) / 10) return 0;
        u = u * 10 + (uint64_t)(*s - '0');
    }
    *v = neg ? -(int64_t)u : (int64_t)u;
    return 1;
}

/* A cell of the qid column: an integer, in the order of the rows before. */
static gpulayer_status store_qid(parser *ps, int32_t j)
{
    const field *f = &ps->fields[j];
    int64_t qid;
    float v;
    if (f->escaped || !parse_int64(f->p, f->p + f->len, &qid)) {
        if (!f->escaped && gpl_is_missing_marker(f->p, f->len))
            return cell_error(ps, ps->record_line, j, "the qid is missing");
        return cell_error(ps, ps->record_line, j, "qid '%.*s%s' is not %s", shown_len(f->len),
                          f->p, ellipsis(f->len),
                          !f->escaped && gpl_parse_float(f->p, f->p + f->len, &v)
                              ? "a whole number" : "a number (query ids are integers)");
    }
    int code = gpl_qid_groups_add(&ps->qids, qid);
    if (code == GPL_QID_OK) return GPULAYER_OK;
    if (code == GPL_QID_NOMEM) return GPULAYER_ERR_OUT_OF_MEMORY;
    char why[256];
    gpl_qid_groups_why(&ps->qids, code, qid, why, sizeof why);
    return cell_error(ps, ps->record_line, j, "%s", why);
}

static gpulayer_status store_cell(parser *ps, int32_t j, int64_t row)
{
    column *c = &ps->cols[j];
    const field *f = &ps->fields[j];
    float v;
    if (c->role == ROLE_QID) return store_qid(ps, j);
    if (c->role == ROLE_LABEL) return store_label(ps, j, row);
    if (!c->strings) {
        if (gpl_parse_float(f->p, f->p + f->len, &v)) {
            if (c->role != ROLE_FEATURE) GPL_CHECK(check_label_or_weight(ps, j, f, v));
            c->dst[row] = v;
            c->numbers++;
            return GPULAYER_OK;
        }
        if (c->role != ROLE_FEATURE) return not_numeric(ps, j, f);
        if (!f->escaped && gpl_is_missing_marker(f->p, f->len)) {
            c->dst[row] = NAN;
            return GPULAYER_OK;
        }
        if (c->must_be_numeric) return bad_number(ps, j, f, row);
        /* The first string: the column is categorical from here on. */
        c->strings = gpl_strtab_create();
        if (!c->strings) return GPULAYER_ERR_OUT_OF_MEMORY;
        c->first_string_row = row;
    } else if (!f->escaped && gpl_is_missing_marker(f->p, f->len)) {
        c->dst[row] = NAN;
        return GPULAYER_OK;
    }
    if (!f->escaped && gpl_parse_float(f->p, f->p + f->len, &v)) {
        c->numbers++;
    } else if (c->texts++ == 0) {
        c->first_text_line = ps->record_line;
        keep_text(c->first_text, sizeof c->first_text, f);
    }
    return store_string(ps, j, f, row);
}

/* The "looks numeric" rule: a column whose non-missing cells are numbers
 * but for at most 5% of them is taken for a numeric column with typos, not
 * a categorical one. */
int gpulayer_column_looks_numeric(int64_t numbers, int64_t texts)
{
    return texts > 0 && texts * 20 <= numbers + texts;
}

static int looks_numeric(const column *c)
{
    return !c->declared_categorical && gpulayer_column_looks_numeric(c->numbers, c->texts);
}

/* Refuses the columns that look numeric, or under BAD_NUMBERS_MISSING
 * turns them back into numbers with their text cells missing. Runs before
 * the early cells are re-read, so the rows before first_string_row still
 * hold their numbers. */
static gpulayer_status check_mostly_numeric(parser *ps)
{
    for (int32_t j = 0; j < ps->ncols; j++) {
        column *c = &ps->cols[j];
        if (!c->strings || !looks_numeric(c)) continue;
        if (ps->bad_numbers != GPULAYER_BAD_NUMBERS_MISSING)
            return cell_error(ps, c->first_text_line, j,
                              "the column looks numeric, but %lld of its cells "
                              "are not numbers, the first here: '%s'; correct "
                              "them, set the bad-numbers option to 'missing' to "
                              "read them as missing values, or name the column "
                              "categorical", (long long)c->texts, c->first_text);
        int32_t n = gpl_strtab_count(c->strings);
        float *value = gpl_malloc((size_t)(n ? n : 1) * sizeof *value, "category values");
        if (!value) return GPULAYER_ERR_OUT_OF_MEMORY;
        for (int32_t id = 0; id < n; id++) {
            const char *s = gpl_strtab_string(c->strings, id);
            if (!gpl_parse_float(s, s + strlen(s), &value[id])) value[id] = NAN;
        }
        for (int64_t r = c->first_string_row; r < ps->rows; r++)
            if (!isnan(c->dst[r])) c->dst[r] = value[(int32_t)c->dst[r]];
        free(value);
        gpl_strtab_free(c->strings);
        c->strings = NULL;
        if (ps->bad_cells == 0) {
            ps->bad_line = c->first_text_line;
            ps->bad_col = j;
            memcpy(ps->bad_text, c->first_text, sizeof ps->bad_text);
        }
        ps->bad_cells += c->texts;
    }
    return GPULAYER_OK;
}

static void warn_bad_cells(const parser *ps)
{
    if (ps->bad_cells == 0) return;
    fprintf(stderr,
            "[gpulayer] warning: %s: %lld cells that are not numbers in numeric "
            "columns were read as missing values (the first at line %lld, "
            "column %d: '%s')\n",
            ps->name, (long long)ps->bad_cells, (long long)ps->bad_line,
            (int)ps->bad_col + 1, ps->bad_text);
}

/* A column read as categorical although most of its cells are numbers
 * (placeholder text such as "-" or "n.a." in more than 5% of a numeric
 * column): each of its numbers becomes a category, which is rarely what
 * was meant and ruins a model silently. Said once a column, with the two
 * ways out. */
static void warn_numeric_categories(const parser *ps)
{
    for (int32_t j = 0; j < ps->ncols; j++) {
        const column *c = &ps->cols[j];
        if (!c->strings || c->declared_categorical || c->numbers < c->texts) continue;
        const int64_t cells = c->numbers + c->texts;
        char name[300] = "";
        if (ps->header && ps->header[j] && ps->header[j][0])
            snprintf(name, sizeof name, " ('%s')", ps->header[j]);
        fprintf(stderr,
                "[gpulayer] warning: %s: column %d%s is read as categorical, but %lld of "
                "its %lld cells (%.1f%%) are numbers; the first text is at line %lld: "
                "'%s'. If the column is numeric, name it numeric (--numeric, or the "
                "read option numeric_columns) with bad-numbers 'missing' "
                "(--bad-numbers missing) to read its text as missing values; to keep "
                "it categorical, name it categorical (--categorical)\n",
                ps->name, (int)j + 1, name, (long long)c->numbers, (long long)cells,
                100.0 * (double)c->numbers / (double)cells, (long long)c->first_text_line,
                c->first_text);
    }
}

static gpulayer_status check_field_count(const parser *ps)
{
    if (ps->count == ps->ncols) return GPULAYER_OK;
    return gpl_error(GPULAYER_ERR_PARSE,
                     "%s: line %lld has %d fields, expected %d (as in the %s)",
                     ps->name, (long long)ps->record_line, (int)ps->count,
                     (int)ps->ncols, ps->header ? "header" : "first line");
}

static gpulayer_status read_rows(parser *ps)
{
    int got;
    for (;;) {
        GPL_CHECK(next_record(ps, &got));
        if (!got) return GPULAYER_OK;
        GPL_CHECK(check_field_count(ps));
        GPL_CHECK(gpl_row_lines_add(&ps->lines, ps->rows, ps->record_line));
        for (int32_t j = 0; j < ps->ncols; j++)
            if (ps->cols[j].role != ROLE_IGNORE) GPL_CHECK(store_cell(ps, j, ps->rows));
        ps->rows++;
    }
}

/* Re-reads, as strings, the numeric cells that categorical columns had
 * before their first string. */
static gpulayer_status reread_early_cells(parser *ps, const char *data_start,
                                          int64_t data_line)
{
    int64_t last = 0;
    for (int32_t j = 0; j < ps->ncols; j++)
        if (ps->cols[j].strings && ps->cols[j].first_string_row > last)
            last = ps->cols[j].first_string_row;
    ps->p = data_start;
    ps->line = data_line;
    for (int64_t row = 0; row < last; row++) {
        int got;
        GPL_CHECK(next_record(ps, &got));
        for (int32_t j = 0; got && j < ps->ncols; j++) {
            const column *c = &ps->cols[j];
            const field *f = &ps->fields[j];
            if (c->strings && row < c->first_string_row &&
                !gpl_is_missing_marker(f->p, f->len))
                GPL_CHECK(store_string(ps, j, f, row));
        }
    }
    return GPULAYER_OK;
}

/* Turns appearance-order ids into sorted codes and builds the dictionaries. */
static gpulayer_status finish_categories(parser *ps)
{
    gpulayer_dataset *ds = ps->ds;
    for (int32_t j = 0; j < ps->ncols; j++) {
        column *c = &ps->cols[j];
        if (!c->strings) continue;
        if (!ds->categories) {
            ds->categories = gpl_calloc((size_t)ps->nfeatures,
                                        sizeof *ds->categories, "category lists");
            if (!ds->categories) return GPULAYER_ERR_OUT_OF_MEMORY;
        }
        int32_t n = gpl_strtab_count(c->strings);
        int32_t *rank = gpl_malloc((size_t)n * sizeof *rank, "category codes");
        if (!rank) return GPULAYER_ERR_OUT_OF_MEMORY;
        gpulayer_status st = gpl_strtab_to_dict(c->strings, rank,
                                                &ds->categories[c->feature]);
        if (st == GPULAYER_OK)
            for (int64_t r = 0; r < ps->rows; r++)
                if (!isnan(c->dst[r])) c->dst[r] = (float)rank[(int32_t)c->dst[r]];
        free(rank);
        GPL_CHECK(st);
    }
    return GPULAYER_OK;
}

/* Moves the columns together once the true row count is known, and gives
 * back the unused rows. */
static void trim_rows(parser *ps)
{
    gpulayer_dataset *ds = ps->ds;
    int64_t rows = ps->rows, cap = ps->row_capacity;
    if (rows < cap) {
        for (int32_t k = 1; k < ps->nfeatures; k++)
            memmove(ds->values + (int64_t)k * rows, ds->values + (int64_t)k * cap,
                    (size_t)rows * sizeof(float));
        float *v = realloc(ds->values, (size_t)rows * ps->nfeatures * sizeof(float));
        if (v) ds->values = v;
        float *l = ps->label ? realloc(ps->label, (size_t)rows * sizeof(float)) : NULL;
        if (l) ps->label = l;
        float *w = ps->weight ? realloc(ps->weight, (size_t)rows * sizeof(float)) : NULL;
        if (w) ps->weight = w;
    }
    ds->num_rows = rows;
}

static gpulayer_status attach_names(parser *ps)
{
    gpulayer_dataset *ds = ps->ds;
    ds->label = ps->label;
    ds->weight = ps->weight;
    ps->label = ps->weight = NULL;
    ds->source = gpl_strdup(ps->name);
    if (!ds->source) return GPULAYER_ERR_OUT_OF_MEMORY;
    if (ps->qids.rows > 0) gpl_qid_groups_attach(&ps->qids, ds);
    if (!ps->header) return GPULAYER_OK;
    ds->feature_names = gpl_calloc((size_t)ps->nfeatures,
                                   sizeof *ds->feature_names, "feature names");
    if (!ds->feature_names) return GPULAYER_ERR_OUT_OF_MEMORY;
    for (int32_t j = 0; j < ps->ncols; j++) {
        const column *c = &ps->cols[j];
        if (c->role != ROLE_FEATURE || !ps->header[j][0]) continue;
        ds->feature_names[c->feature] = ps->header[j];
        ps->header[j] = NULL; /* moved */
    }
    return GPULAYER_OK;
}

/* ------------------------------------------------------------- top level */

static gpulayer_status parse(parser *ps, const gpulayer_read_options *opts)
{
    const char *data_start = ps->p;
    int64_t data_line = ps->line;
    int got;
    GPL_CHECK(next_record(ps, &got));
    if (!got)
        return gpl_error(GPULAYER_ERR_PARSE, "%s: the file is empty", ps->name);
    ps->ncols = ps->count;
    if (opts->no_header) {
        /* The first record is data: read_rows scans it again. */
        ps->p = data_start;
        ps->line = data_line;
    } else {
        GPL_CHECK(take_header(ps));
        data_start = ps->p;
        data_line = ps->line;
    }
    GPL_CHECK(assign_roles(ps, opts));
    GPL_CHECK(allocate_storage(ps));
    GPL_CHECK(read_rows(ps));
    if (ps->rows == 0)
        return gpl_error(GPULAYER_ERR_PARSE,
                         "%s: no data rows (the file holds only a header line)",
                         ps->name);
    GPL_CHECK(check_mostly_numeric(ps));
    warn_bad_cells(ps);
    warn_numeric_categories(ps);
    GPL_CHECK(reread_early_cells(ps, data_start, data_line));
    GPL_CHECK(finish_categories(ps));
    if (ps->label)
        GPL_CHECK(gpl_label_finish(&ps->labels, ps->label, ps->rows, &ps->ds->label_classes));
    trim_rows(ps);
    ps->ds->lines = gpl_row_lines_take(&ps->lines);
    return attach_names(ps);
}

static void parser_free(parser *ps)
{
    if (ps->header)
        for (int32_t j = 0; j < ps->ncols; j++) free(ps->header[j]);
    free(ps->header);
    free(ps->by_name);
    if (ps->cols)
        for (int32_t j = 0; j < ps->ncols; j++) gpl_strtab_free(ps->cols[j].strings);
    free(ps->cols);
    free(ps->fields);
    free(ps->scratch);
    free(ps->label);
    free(ps->weight);
    gpl_qid_groups_free(&ps->qids);
    gpl_label_reader_free(&ps->labels);
    gpl_category_dict_free(ps->fixed_classes);
    gpl_row_lines_clear(&ps->lines);
    gpulayer_dataset_free(ps->ds);
}

gpulayer_status gpl_parse_delimited(const gpl_text *text, const char *name,
                                    char delimiter,
                                    const gpulayer_read_options *opts,
                                    gpulayer_dataset **out)
{
    static const gpulayer_read_options defaults;
    parser ps = {0};
    ps.name = name;
    ps.delim = delimiter;
    ps.p = text->data;
    ps.end = text->data + text->len;
    ps.line = 1;
    ps.bad_numbers = opts ? opts->bad_numbers : 0;
    if (text->len >= 3 && memcmp(ps.p, "\xEF\xBB\xBF", 3) == 0) ps.p += 3;
    gpulayer_status status = gpl_label_classes_from_list(opts ? opts->label_classes : NULL,
                                                         &ps.fixed_classes);
    ps.labels.fixed = ps.fixed_classes;
    if (status == GPULAYER_OK) status = parse(&ps, opts ? opts : &defaults);
    if (status == GPULAYER_OK) {
        *out = ps.ds;
        ps.ds = NULL;
    }
    parser_free(&ps);
    return status;
}

gpulayer_status gpl_read_delimited(const char *path, char delimiter,
                                   const gpulayer_read_options *opts,
                                   gpulayer_dataset **out)
{
    gpl_text text;
    GPL_CHECK(gpl_text_read(path, &text));
    gpulayer_status status = gpl_parse_delimited(&text, path, delimiter, opts, out);
    gpl_text_free(&text);
    return status;
}
