/* categorical.c -- bins of the categorical features split by sets, and
 * the grouping of the rarest categories of a feature with more categories
 * than max_categories. */
#include "categorical.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "binning.h"
#include "error.h"

/* The cuts of m with feature f's thresholds replaced by 0.5, 1.5, ...,
 * groups - 1.5 wherever split[f] is set. */
static gpulayer_status category_cuts(gpl_model *m, const uint8_t *split)
{
    const gpl_bin_cuts *old = &m->cuts;
    const int32_t F = m->num_features;
    uint64_t total = 0;
    for (int32_t f = 0; f < F; f++)
        total += split[f] ? (uint64_t)(gpl_model_category_groups(m, f) - 1)
                          : old->cut_ptr[f + 1] - old->cut_ptr[f];
    gpl_bin_cuts cuts = {F, NULL, NULL};
    cuts.cut_ptr = gpl_malloc(sizeof(uint32_t) * ((size_t)F + 1), "bin cuts");
    cuts.values = gpl_malloc(sizeof(float) * (size_t)(total ? total : 1), "bin cuts");
    if (!cuts.cut_ptr || !cuts.values) {
        gpl_bin_cuts_free(&cuts);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    uint32_t at = 0;
    for (int32_t f = 0; f < F; f++) {
        cuts.cut_ptr[f] = at;
        if (split[f]) {
            const int32_t groups = gpl_model_category_groups(m, f);
            for (int32_t c = 0; c + 1 < groups; c++)
                cuts.values[at++] = (float)c + 0.5f;
        } else {
            for (uint32_t k = old->cut_ptr[f]; k < old->cut_ptr[f + 1]; k++)
                cuts.values[at++] = old->values[k];
        }
    }
    cuts.cut_ptr[F] = at;
    gpl_bin_cuts_free(&m->cuts);
    m->cuts = cuts;
    return GPULAYER_OK;
}

typedef struct code_count {
    int32_t code;
    int64_t rows;
} code_count;

/* Most rows first; equal counts by code, so the choice does not depend on
 * the sort. */
static int by_rows(const void *a, const void *b)
{
    const code_count *x = a, *y = b;
    if (x->rows != y->rows) return x->rows < y->rows ? 1 : -1;
    return (x->code > y->code) - (x->code < y->code);
}

/* Groups of feature f's count categories: the keep most frequent in the
 * training rows get groups 0..keep-1 in code order, the others group keep. */
static int32_t *rare_groups(const gpulayer_dataset *ds, int32_t f, int32_t count, int32_t keep)
{
    code_count *c = gpl_calloc((size_t)count, sizeof *c, "category counts");
    int32_t *group = gpl_malloc(sizeof(int32_t) * (size_t)count, "category groups");
    uint8_t *kept = gpl_calloc((size_t)count, 1, "category groups");
    if (!c || !group || !kept) {
        free(c);
        free(group);
        free(kept);
        return NULL;
    }
    for (int32_t i = 0; i < count; i++) c[i].code = i;
    for (int64_t r = 0; r < ds->num_rows; r++) {
        const float v = gpl_dataset_value(ds, r, f);
        if (!isnan(v) && v >= 0.0f && v < (float)count) c[(int32_t)v].rows++;
    }
    qsort(c, (size_t)count, sizeof *c, by_rows);
    for (int32_t i = 0; i < keep; i++) kept[c[i].code] = 1;
    int32_t next = 0;
    for (int32_t code = 0; code < count; code++) group[code] = kept[code] ? next++ : keep;
    free(c);
    free(kept);
    return group;
}

static const char *feature_name(const gpl_model *m, int32_t f)
{
    return m->feature_names && m->feature_names[f] ? m->feature_names[f] : "";
}

/* Whether item (a name or a 0-based index) is in the comma list. */
static int listed(const char *list, const char *name, int32_t index)
{
    char number[16];
    snprintf(number, sizeof number, "%d", index);
    for (const char *at = list; *at;) {
        size_t n = strcspn(at, ",");
        if ((name && strlen(name) == n && !strncmp(at, name, n)) ||
            (strlen(number) == n && !strncmp(at, number, n)))
            return 1;
        at += n + (at[n] == ',');
    }
    return 0;
}

/* Every column of categorical=ordered:LIST names a categorical feature. */
static gpulayer_status check_ordered_list(const gpl_params *p, const gpl_model *m)
{
    for (const char *at = p->ordered_columns; *at;) {
        size_t n = strcspn(at, ",");
        int found = 0;
        for (int32_t f = 0; f < m->num_features && !found; f++) {
            char one[300];
            snprintf(one, sizeof one, "%.*s", (int)n, at);
            found = m->categories && m->categories[f] && listed(one, feature_name(m, f), f);
        }
        if (!found)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "parameter categorical: '%.*s' is not a categorical column of "
                             "the training data", (int)n, at);
        at += n + (at[n] == ',');
    }
    return GPULAYER_OK;
}

gpulayer_status gpl_categorical_setup(const gpl_params *p, const gpulayer_dataset *train,
                                      int distributed, gpl_model *m)
{
    if (!m->categories || p->ordered_categories) return GPULAYER_OK;
    GPL_CHECK(check_ordered_list(p, m));
    const int32_t F = m->num_features, max_groups = p->max_categories;
    uint8_t *split = gpl_calloc((size_t)F, 1, "categorical feature flags");
    if (!split) return GPULAYER_ERR_OUT_OF_MEMORY;
    int any = 0;
    gpulayer_status st = GPULAYER_OK;
    for (int32_t f = 0; f < F && st == GPULAYER_OK; f++) {
        const gpl_category_dict *d = m->categories[f];
        if (!d || d->count < 1) continue;
        if (listed(p->ordered_columns, feature_name(m, f), f)) continue;
        if (d->count > max_groups && (distributed || max_groups < 2)) {
            if (p->verbosity >= 2)
                fprintf(stderr, "[gpulayer] feature %d (%s) has %d categories, more than "
                        "max_categories = %d: split as ordered codes (%s)\n", f,
                        feature_name(m, f), d->count, max_groups,
                        distributed ? "a distributed job does not group categories"
                                    : "max_categories leaves no room for groups");
            continue;
        }
        if (d->count > max_groups) {
            if (!m->cat_groups &&
                !(m->cat_groups = gpl_calloc((size_t)F, sizeof *m->cat_groups,
                                             "category groups"))) {
                st = GPULAYER_ERR_OUT_OF_MEMORY;
                break;
            }
            if (!(m->cat_groups[f] = rare_groups(train, f, d->count, max_groups - 1))) {
                st = GPULAYER_ERR_OUT_OF_MEMORY;
                break;
            }
            if (p->verbosity >= 2)
                fprintf(stderr, "[gpulayer] feature %d (%s) has %d categories: the %d most "
                        "frequent keep a bin each, the other %d share one\n", f,
                        feature_name(m, f), d->count, max_groups - 1,
                        d->count - (max_groups - 1));
        }
        split[f] = 1;
        any = 1;
    }
    if (st == GPULAYER_OK && any) st = category_cuts(m, split);
    if (st != GPULAYER_OK || !any) {
        free(split);
        return st;
    }
    m->cat_split = split;
    return GPULAYER_OK;
}

/* The group of code v, or -1 for a missing code or one outside the
 * categories (not from the dictionary): unseen, as an unknown name is. */
static int32_t group_of(const int32_t *group, int32_t count, float v)
{
    return !isnan(v) && v >= 0.0f && v < (float)count && v == floorf(v) ? group[(int32_t)v]
                                                                        : -1;
}

void gpl_categorical_group_values(const int32_t *group, int32_t count, const float *in,
                                  int64_t n, float *out)
{
    for (int64_t i = 0; i < n; i++) {
        const int32_t g = group_of(group, count, in[i]);
        out[i] = g >= 0 ? (float)g : NAN;
    }
}

gpulayer_status gpl_categorical_bin_matrix(const gpl_model *m, const gpulayer_dataset *ds,
                                           int nthread, uint8_t **out)
{
    GPL_CHECK(gpl_bin_matrix(&m->cuts, ds, nthread, out));
    if (!m->cat_groups || ds->sparse) return GPULAYER_OK;
    const int32_t F = m->num_features;
    const int64_t N = ds->num_rows;
    uint8_t *bins = *out;
    const int w = gpl_bin_code_bytes(&m->cuts);
    for (int32_t f = 0; f < F; f++) {
        const int32_t *group = m->cat_groups[f];
        if (!group) continue;
        const int32_t count = m->categories[f]->count;
        const float *col = ds->values + (int64_t)f * N;
        for (int64_t r = 0; r < N; r++)
            gpl_bin_code_set(bins, w, r * F + f, (uint32_t)(group_of(group, count, col[r]) + 1));
    }
    return GPULAYER_OK;
}
