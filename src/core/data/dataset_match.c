/* dataset_match.c -- an evaluation set laid out as the training data:
 * columns matched by name, category codes taken into the training
 * dictionaries. Prediction matches columns by name, so evaluation must too,
 * or a file with reordered columns gives a wrong metric that early stopping
 * then follows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dataset.h"
#include "dataset_match.h"
#include "error.h"

static int all_named(const gpulayer_dataset *ds)
{
    if (!ds->feature_names) return 0;
    for (int32_t c = 0; c < ds->num_cols; c++)
        if (!ds->feature_names[c] || !ds->feature_names[c][0]) return 0;
    return 1;
}

static int32_t find_name(const gpulayer_dataset *ds, const char *name)
{
    for (int32_t c = 0; c < ds->num_cols; c++)
        if (!strcmp(ds->feature_names[c], name)) return c;
    return -1;
}

static const char *source_of(const gpulayer_dataset *ds)
{
    return ds->source ? ds->source : "an evaluation set";
}

/* Appends "'name'" to a list of at most a few names, then "...". */
static void add_name(char *buf, size_t size, int *count, const char *name)
{
    size_t used = strlen(buf);
    if (*count == 5) snprintf(buf + used, size - used, ", ...");
    else if (*count < 5)
        snprintf(buf + used, size - used, "%s'%.64s'", *count ? ", " : "", name);
    (*count)++;
}

/* pick[f]: the column of eval that is feature f of train, by name. */
static gpulayer_status match_names(const gpulayer_dataset *train,
                                   const gpulayer_dataset *eval, int32_t *pick)
{
    char missing[512] = "", unknown[512] = "";
    int num_missing = 0, num_unknown = 0;
    for (int32_t f = 0; f < train->num_cols; f++) {
        pick[f] = find_name(eval, train->feature_names[f]);
        if (pick[f] < 0) add_name(missing, sizeof missing, &num_missing,
                                  train->feature_names[f]);
    }
    for (int32_t c = 0; c < eval->num_cols; c++)
        if (find_name(train, eval->feature_names[c]) < 0)
            add_name(unknown, sizeof unknown, &num_unknown, eval->feature_names[c]);
    if (!num_missing && !num_unknown) return GPULAYER_OK;
    char unknown_part[600] = "";
    if (num_unknown)
        snprintf(unknown_part, sizeof unknown_part,
                 "; %d not in the training data: %s (leave them out of the file, "
                 "or list them in the ignored columns)", num_unknown, unknown);
    char missing_part[600] = "";
    if (num_missing)
        snprintf(missing_part, sizeof missing_part,
                 "; %d training columns missing: %s", num_missing, missing);
    return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                     "%s: evaluation columns are matched to the training data's by "
                     "name%s%s", source_of(eval), missing_part, unknown_part);
}

/* The code of name in a sorted dictionary, or -1. */
static int32_t code_of(const gpl_category_dict *dict, const char *name)
{
    int32_t lo = 0, hi = dict->count - 1;
    while (lo <= hi) {
        int32_t mid = lo + (hi - lo) / 2;
        int c = strcmp(dict->names[mid], name);
        if (c == 0) return mid;
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

static const char *feature_label(const gpulayer_dataset *train, int32_t f, char *buf,
                                 size_t size)
{
    if (train->feature_names && train->feature_names[f])
        snprintf(buf, size, "column '%.64s'", train->feature_names[f]);
    else
        snprintf(buf, size, "feature column %d", (int)f);
    return buf;
}

/* Puts column f of copy into the training dictionary tdict: its own codes
 * through the names, or numbers through their shortest text (an evaluation
 * file whose categories all look like numbers reads them as numbers).
 * A name unseen in training becomes missing, as in prediction. */
static gpulayer_status map_codes(const gpulayer_dataset *train, gpulayer_dataset *copy,
                                 int32_t f)
{
    const gpl_category_dict *tdict = train->categories[f];
    gpl_category_dict *edict = copy->categories ? copy->categories[f] : NULL;
    float *v = copy->values + (int64_t)f * copy->num_rows;
    int32_t *map = NULL;
    if (edict) {
        map = gpl_malloc(sizeof(int32_t) * (size_t)(edict->count ? edict->count : 1),
                         "category codes");
        if (!map) return GPULAYER_ERR_OUT_OF_MEMORY;
        for (int32_t i = 0; i < edict->count; i++) map[i] = code_of(tdict, edict->names[i]);
    }
    for (int64_t r = 0; r < copy->num_rows; r++) {
        if (isnan(v[r])) continue;
        int32_t code = -1;
        if (edict) {
            int32_t id = (int32_t)v[r];
            code = id >= 0 && id < edict->count ? map[id] : -1;
        } else {
            char text[32];
            snprintf(text, sizeof text, "%.9g", (double)v[r]);
            code = code_of(tdict, text);
        }
        v[r] = code >= 0 ? (float)code : NAN;
    }
    free(map);
    if (!copy->categories) {
        copy->categories = gpl_calloc((size_t)copy->num_cols, sizeof *copy->categories,
                                      "category lists");
        if (!copy->categories) return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    gpl_category_dict_free(copy->categories[f]);
    copy->categories[f] = gpl_category_dict_new((const char *const *)tdict->names,
                                                tdict->count);
    return copy->categories[f] ? GPULAYER_OK : GPULAYER_ERR_OUT_OF_MEMORY;
}

static gpulayer_status match_kinds(const gpulayer_dataset *train, gpulayer_dataset *copy)
{
    for (int32_t f = 0; f < train->num_cols; f++) {
        const gpl_category_dict *tdict = train->categories ? train->categories[f] : NULL;
        const gpl_category_dict *edict = copy->categories ? copy->categories[f] : NULL;
        if (tdict) {
            GPL_CHECK(map_codes(train, copy, f));
        } else if (edict) {
            char what[96];
            return gpl_error(GPULAYER_ERR_PARSE,
                             "%s: %s holds text ('%.64s'), but it is numeric in the "
                             "training data; correct the value, or leave the cell "
                             "empty (or NA) for a missing value",
                             source_of(copy), feature_label(train, f, what, sizeof what),
                             edict->count ? edict->names[0] : "");
        }
    }
    return GPULAYER_OK;
}

gpulayer_status gpl_dataset_match_eval(const gpulayer_dataset *train,
                                       const gpulayer_dataset *eval,
                                       gpulayer_dataset **out)
{
    *out = NULL;
    int by_name = all_named(train) && all_named(eval);
    if (!by_name && eval->num_cols != train->num_cols)
        return GPULAYER_OK; /* the shape check names both counts */
    if (!by_name && !train->categories && !eval->categories) return GPULAYER_OK;
    const int32_t F = train->num_cols;
    int32_t *pick = gpl_malloc(sizeof(int32_t) * (size_t)F, "column order");
    if (!pick) return GPULAYER_ERR_OUT_OF_MEMORY;
    gpulayer_status st = GPULAYER_OK;
    int in_order = eval->num_cols == F;
    if (by_name) st = match_names(train, eval, pick);
    else
        for (int32_t f = 0; f < F; f++) pick[f] = f;
    for (int32_t f = 0; f < F && st == GPULAYER_OK; f++) in_order &= pick[f] == f;
    if (st == GPULAYER_OK && in_order && !train->categories && !eval->categories) {
        free(pick);
        return GPULAYER_OK;
    }
    gpulayer_dataset *copy = NULL;
    if (st == GPULAYER_OK) st = gpulayer_dataset_select_columns(eval, pick, F, &copy);
    free(pick);
    if (st == GPULAYER_OK) st = match_kinds(train, copy);
    if (st != GPULAYER_OK) {
        gpulayer_dataset_free(copy);
        return st;
    }
    *out = copy;
    return GPULAYER_OK;
}
