/* dataset_groups.c -- query groups (ranking): from sizes, from per-row
 * query ids, from a group file, and kept through row slices.
 *
 * Rows are counted from 1 in messages, as the readers count lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dataset.h"
#include "error.h"
#include "reader_text.h"

#define INVALID GPULAYER_ERR_INVALID_ARGUMENT

/* ------------------------------------------------------- from query ids */

/* Room for one more group (its offset, its end and its id). */
static int grow_groups(gpl_qid_groups *g)
{
    if (g->count + 2 <= g->cap) return 1;
    int64_t cap = g->cap ? g->cap * 2 : 64;
    int64_t *ptr = gpl_malloc(sizeof *ptr * (size_t)cap, "query group offsets");
    int64_t *qid = gpl_malloc(sizeof *qid * (size_t)cap, "query ids");
    if (!ptr || !qid) {
        free(ptr);
        free(qid);
        return 0;
    }
    if (g->ptr) {
        memcpy(ptr, g->ptr, sizeof *ptr * (size_t)(g->count + 1));
        memcpy(qid, g->qid, sizeof *qid * (size_t)g->count);
    } else {
        ptr[0] = 0;
    }
    free(g->ptr);
    free(g->qid);
    g->ptr = ptr;
    g->qid = qid;
    g->cap = cap;
    return 1;
}

/* Whether id is one of the groups' ids (ascending, so a binary search). */
static int seen(const gpl_qid_groups *g, int64_t id)
{
    int64_t lo = 0, hi = g->count;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (g->qid[mid] < id) lo = mid + 1;
        else hi = mid;
    }
    return lo < g->count && g->qid[lo] == id;
}

int gpl_qid_groups_add(gpl_qid_groups *g, int64_t qid)
{
    if (g->count > 0 && qid == g->qid[g->count - 1]) {
        g->ptr[g->count] = ++g->rows;
        return GPL_QID_OK;
    }
    if (g->count > 0 && qid < g->qid[g->count - 1])
        return seen(g, qid) ? GPL_QID_SPLIT : GPL_QID_UNSORTED;
    if (!grow_groups(g)) return GPL_QID_NOMEM;
    g->qid[g->count++] = qid;
    g->ptr[g->count] = ++g->rows;
    return GPL_QID_OK;
}

int64_t gpl_qid_groups_last(const gpl_qid_groups *g)
{
    return g->count > 0 ? g->qid[g->count - 1] : 0;
}

void gpl_qid_groups_why(const gpl_qid_groups *g, int code, int64_t qid, char *buf,
                        size_t size)
{
    const long long last = (long long)gpl_qid_groups_last(g);
    if (code == GPL_QID_SPLIT)
        snprintf(buf, size,
                 "qid %lld follows qid %lld, but query %lld had rows before: the "
                 "rows of one query must be together, with qids non-decreasing "
                 "(sort the rows by qid)", (long long)qid, last, (long long)qid);
    else
        snprintf(buf, size,
                 "qid %lld follows qid %lld: qids must be non-decreasing, the rows "
                 "of one query together (sort the rows by qid)", (long long)qid, last);
}

void gpl_qid_groups_attach(gpl_qid_groups *g, gpulayer_dataset *ds)
{
    free(ds->group_ptr);
    ds->group_ptr = g->ptr;
    ds->num_groups = g->count;
    g->ptr = NULL;
    gpl_qid_groups_free(g);
}

void gpl_qid_groups_free(gpl_qid_groups *g)
{
    free(g->ptr);
    free(g->qid);
    memset(g, 0, sizeof *g);
}

/* ----------------------------------------------------------- from sizes */

gpulayer_status gpl_groups_from_sizes(const int64_t *sizes, int64_t num_groups,
                                      int64_t num_rows, const char *what, int64_t **out)
{
    *out = NULL;
    int64_t sum = 0;
    for (int64_t q = 0; q < num_groups; q++) {
        if (sizes[q] < 1)
            return gpl_error(INVALID, "%s: group %lld has size %lld; group sizes must "
                             "be at least 1", what, (long long)q + 1, (long long)sizes[q]);
        sum = sizes[q] > INT64_MAX - sum ? INT64_MAX : sum + sizes[q];
    }
    if (sum != num_rows)
        return gpl_error(INVALID, "%s: the group sizes add up to %lld rows, but the "
                         "data have %lld rows", what, (long long)sum, (long long)num_rows);
    int64_t *ptr = gpl_malloc(sizeof *ptr * (size_t)(num_groups + 1), "query group offsets");
    if (!ptr) return GPULAYER_ERR_OUT_OF_MEMORY;
    ptr[0] = 0;
    for (int64_t q = 0; q < num_groups; q++) ptr[q + 1] = ptr[q] + sizes[q];
    *out = ptr;
    return GPULAYER_OK;
}

/* ------------------------------------------------------------ public API */

gpulayer_status gpulayer_dataset_set_group(gpulayer_dataset *ds, const int64_t *sizes,
                                           int64_t num_groups)
{
    static const char fn[] = "gpulayer_dataset_set_group";
    if (!ds) return gpl_error(INVALID, "%s: the dataset is NULL", fn);
    if (!sizes) { /* no groups any more */
        free(ds->group_ptr);
        ds->group_ptr = NULL;
        ds->num_groups = 0;
        return GPULAYER_OK;
    }
    if (num_groups < 1)
        return gpl_error(INVALID, "%s: %lld groups given; at least 1 is needed", fn,
                         (long long)num_groups);
    int64_t *ptr;
    GPL_CHECK(gpl_groups_from_sizes(sizes, num_groups, ds->num_rows, fn, &ptr));
    free(ds->group_ptr);
    ds->group_ptr = ptr;
    ds->num_groups = num_groups;
    return GPULAYER_OK;
}

gpulayer_status gpulayer_dataset_set_qid(gpulayer_dataset *ds, const int64_t *qid,
                                         int64_t num_rows)
{
    static const char fn[] = "gpulayer_dataset_set_qid";
    if (!ds) return gpl_error(INVALID, "%s: the dataset is NULL", fn);
    if (!qid) return gpulayer_dataset_set_group(ds, NULL, 0);
    if (num_rows != ds->num_rows)
        return gpl_error(INVALID, "%s: got %lld query ids, but the dataset has %lld rows",
                         fn, (long long)num_rows, (long long)ds->num_rows);
    gpl_qid_groups g = {0};
    for (int64_t r = 0; r < num_rows; r++) {
        int code = gpl_qid_groups_add(&g, qid[r]);
        if (code == GPL_QID_OK) continue;
        gpulayer_status st = GPULAYER_ERR_OUT_OF_MEMORY;
        if (code != GPL_QID_NOMEM) {
            char why[256];
            gpl_qid_groups_why(&g, code, qid[r], why, sizeof why);
            st = gpl_error(INVALID, "%s: row %lld (counted from 1): %s", fn, (long long)r + 1,
                           why);
        }
        gpl_qid_groups_free(&g);
        return st;
    }
    gpl_qid_groups_attach(&g, ds);
    return GPULAYER_OK;
}

int64_t gpulayer_dataset_num_groups(const gpulayer_dataset *ds)
{
    return ds ? ds->num_groups : 0;
}

gpulayer_status gpulayer_dataset_get_group(const gpulayer_dataset *ds, int64_t *sizes,
                                           int64_t num_groups)
{
    static const char fn[] = "gpulayer_dataset_get_group";
    if (!ds || !sizes)
        return gpl_error(INVALID, "%s: %s is NULL", fn, ds ? "sizes" : "the dataset");
    if (!ds->group_ptr) return gpl_error(INVALID, "%s: the dataset has no query groups", fn);
    if (num_groups < ds->num_groups)
        return gpl_error(INVALID, "%s: sizes holds %lld values, but the dataset has %lld "
                         "groups", fn, (long long)num_groups, (long long)ds->num_groups);
    for (int64_t q = 0; q < ds->num_groups; q++)
        sizes[q] = ds->group_ptr[q + 1] - ds->group_ptr[q];
    return GPULAYER_OK;
}

/* ------------------------------------------------------------ group file */

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* The sizes of the lines of text: blank lines skipped, anything but a
 * positive integer refused with the line. */
static gpulayer_status parse_sizes(const gpl_text *t, const char *path, int64_t **out,
                                   int64_t *count)
{
    int64_t n = 0, cap = 0, *sizes = NULL;
    const char *p = t->data, *end = t->data + t->len;
    gpulayer_status st = GPULAYER_OK;
    for (int64_t line = 1; p < end && st == GPULAYER_OK; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end, *s = p;
        p = nl ? nl + 1 : end;
        while (s < e && is_blank(*s)) s++;
        while (e > s && is_blank(e[-1])) e--;
        if (s == e) continue;
        int64_t v = 0;
        const char *d = s;
        for (; d < e && *d >= '0' && *d <= '9' && v <= (INT64_MAX - 9) / 10; d++)
            v = v * 10 + (*d - '0');
        if (d != e || v < 1) {
            st = gpl_error(GPULAYER_ERR_PARSE, "%s: line %lld: '%.*s' is not a group "
                           "size (a whole number of rows, at least 1)", path,
                           (long long)line, (int)(e - s > 40 ? 40 : e - s), s);
            break;
        }
        if (n == cap) {
            int64_t ncap = cap ? cap * 2 : 256;
            int64_t *grown = gpl_malloc(sizeof *grown * (size_t)ncap, "group sizes");
            if (!grown) {
                st = GPULAYER_ERR_OUT_OF_MEMORY;
                break;
            }
            if (sizes) memcpy(grown, sizes, sizeof *sizes * (size_t)n);
            free(sizes);
            sizes = grown;
            cap = ncap;
        }
        sizes[n++] = v;
    }
    if (st == GPULAYER_OK && n == 0)
        st = gpl_error(GPULAYER_ERR_PARSE, "%s: the group file holds no group sizes", path);
    if (st != GPULAYER_OK) {
        free(sizes);
        return st;
    }
    *out = sizes;
    *count = n;
    return GPULAYER_OK;
}

gpulayer_status gpl_dataset_read_group_file(gpulayer_dataset *ds, const char *path)
{
    gpl_text text;
    GPL_CHECK(gpl_text_read(path, &text));
    int64_t *sizes = NULL, n = 0;
    gpulayer_status st = parse_sizes(&text, path, &sizes, &n);
    gpl_text_free(&text);
    int64_t *ptr = NULL;
    if (st == GPULAYER_OK) {
        char what[1100];
        snprintf(what, sizeof what, "group file %s (for %s)", path,
                 ds->source ? ds->source : "the data");
        st = gpl_groups_from_sizes(sizes, n, ds->num_rows, what, &ptr);
    }
    free(sizes);
    if (st != GPULAYER_OK) return st;
    free(ds->group_ptr);
    ds->group_ptr = ptr;
    ds->num_groups = n;
    return GPULAYER_OK;
}

/* -------------------------------------------------------------- slicing */

/* The group holding row r (0-based): the last q with ptr[q] <= r. */
static int64_t group_of(const gpulayer_dataset *ds, int64_t r)
{
    int64_t lo = 0, hi = ds->num_groups - 1;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo + 1) / 2;
        if (ds->group_ptr[mid] <= r) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

static gpulayer_status cut_query(const gpulayer_dataset *ds, int64_t first, int64_t count,
                                 int64_t q)
{
    return gpl_error(INVALID,
                     "rows %lld to %lld cut query group %lld (rows %lld to %lld) in "
                     "two: a query's rows must stay together", (long long)first + 1,
                     (long long)(first + count), (long long)q + 1,
                     (long long)ds->group_ptr[q] + 1, (long long)ds->group_ptr[q + 1]);
}

gpulayer_status gpl_dataset_keep_groups(gpulayer_dataset *ds, int64_t first, int64_t count)
{
    if (!ds->group_ptr) return GPULAYER_OK;
    if (count == 0) {
        free(ds->group_ptr);
        ds->group_ptr = NULL;
        ds->num_groups = 0;
        return GPULAYER_OK;
    }
    const int64_t a = group_of(ds, first), b = group_of(ds, first + count - 1);
    if (ds->group_ptr[a] != first) return cut_query(ds, first, count, a);
    if (ds->group_ptr[b + 1] != first + count) return cut_query(ds, first, count, b);
    const int64_t n = b - a + 1;
    for (int64_t q = 0; q <= n; q++) ds->group_ptr[q] = ds->group_ptr[a + q] - first;
    ds->num_groups = n;
    return GPULAYER_OK;
}
