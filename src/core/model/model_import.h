/* model_import.h -- models of XGBoost and LightGBM read into a gpl_model
 * (docs/model-import.md).
 *
 * The other libraries split on raw values; a gpl_model splits on bins of
 * its cuts. An imported model's cuts are therefore made of its trees' own
 * thresholds: each feature's cuts are the distinct thresholds its splits
 * use, so that every split is "bin <= k" for one k and sends exactly the
 * rows the source library sends. The importers build the trees with each
 * numeric split's threshold in raw units (x < threshold goes left) and
 * hand categorical splits over as lists of the library's codes; the
 * builder below then makes cuts, bins, category dictionaries and sets. */
#ifndef GPL_MODEL_IMPORT_H
#define GPL_MODEL_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* A categorical split as the source library lists it: the codes
 * codes[first .. first + count) of feature `feature` go left when
 * listed_left (LightGBM), right otherwise (XGBoost); every other code of
 * the feature goes the other way. */
typedef struct gpl_import_cat_split {
    int32_t tree, node;
    int64_t first;
    int32_t count;
    int32_t listed_left;
} gpl_import_cat_split;

typedef struct gpl_import {
    gpl_model *m;        /* num_features set; trees added as they are read */
    const char *source;  /* file name for messages, or NULL */
    const char *library; /* "XGBoost" or "LightGBM", for messages */
    /* Per feature: the known category codes (ascending after
     * gpl_import_finish) and their names, where declared; NULL else. */
    int64_t **cat_codes;
    char ***cat_names;
    int32_t *cat_count;
    uint8_t *declared_categorical;
    gpl_import_cat_split *splits;
    int32_t num_splits, split_cap;
    int64_t *codes;
    int64_t num_codes, code_cap;
} gpl_import;

/* Starts an import into m (m->num_features set). */
gpulayer_status gpl_import_init(gpl_import *imp, gpl_model *m, const char *source,
                                const char *library);
void gpl_import_free(gpl_import *imp);

/* Feature f is categorical with the n categories codes[i] named names[i]
 * (names NULL: each code's decimal text). Takes nothing; copies. */
gpulayer_status gpl_import_declare_categories(gpl_import *imp, int32_t f,
                                              const int64_t *codes,
                                              const char *const *names, int32_t n);

/* Records node `node` of the tree the model will hold at index `tree` as a
 * categorical split on its feature (the node's feature and default_left
 * set; the rest is filled by gpl_import_finish). */
gpulayer_status gpl_import_cat_split_add(gpl_import *imp, int32_t tree, int32_t node,
                                         const int64_t *codes, int32_t n, int listed_left);

/* Cuts from the thresholds, bins of every numeric split, the category
 * dictionaries and sets; then the model's strict validation. Refusals
 * (GPULAYER_ERR_UNSUPPORTED) name the feature and what does not fit. */
gpulayer_status gpl_import_finish(gpl_import *imp);

/* A refusal of something the model holds that GPUlayer cannot represent:
 * GPULAYER_ERR_UNSUPPORTED, prefixed with the file name when there is one. */
gpulayer_status gpl_import_refuse(const char *source, const char *fmt, ...)
    GPL_PRINTF(2, 3);

/* A feature's name for messages: "feature 3 ('age')" or "feature 3". */
void gpl_import_feature_text(const gpl_model *m, int32_t f, char *buf, size_t size);

/* Parameter record of an imported model: {"imported_from": "<what>"}.
 * Continued training refuses models that carry it (train_setup.c). */
gpulayer_status gpl_import_set_record(gpl_model *m, const char *what);

/* XGBoost's model document (JSON, or UBJSON decoded) -> model
 * (import_xgboost.c). */
struct cJSON;
gpulayer_status gpl_model_import_xgboost(const struct cJSON *doc, const char *source,
                                         gpl_model **out);

/* LightGBM's text model -> model (import_lightgbm.c). */
gpulayer_status gpl_model_import_lightgbm(const char *text, size_t len, const char *source,
                                          gpl_model **out);

/* The margin XGBoost derives from a base_score (export_xgboost.c). */
float gpl_xgboost_margin_of(gpl_objective_kind kind, float score);

/* A model file of any format GPUlayer reads: its own JSON, XGBoost's JSON
 * or UBJSON, LightGBM's text model (model_load.c). */
gpulayer_status gpl_model_load_buffer(const char *buf, size_t len, const char *source,
                                      gpl_model **out);

#endif
