/* shap.h -- per-feature contributions of rows to their margins: exact
 * path-dependent TreeSHAP (Lundberg et al. 2018, Algorithm 2), Saabas'
 * approximation, and SHAP interaction values, on the CPU. */
#ifndef GPL_SHAP_H
#define GPL_SHAP_H

#include <stdint.h>

#include "model.h"

typedef enum gpl_shap_kind {
    GPL_SHAP_EXACT = 0,        /* TreeSHAP                                */
    GPL_SHAP_APPROX = 1,       /* Saabas: the value change along the path */
    GPL_SHAP_INTERACTIONS = 2  /* pairs of features, TreeSHAP conditioned */
} gpl_shap_kind;

/* Values a row gets: num_outputs x (features + 1), or num_outputs x
 * (features + 1)^2 for interactions; the last column is the bias. */
int64_t gpl_shap_row_width(const gpl_model *m, gpl_shap_kind kind);

/* The values of every row of ds (row-major, gpl_shap_row_width a row),
 * with the trees of num_rounds rounds (as prediction counts them), on
 * nthread threads (<= 0: OpenMP's default). A row's values and bias sum
 * to its margin. */
gpulayer_status gpl_shap_dataset(const gpl_model *m, const gpulayer_dataset *ds,
                                 gpl_shap_kind kind, int32_t num_rounds, int nthread,
                                 float *out);

#endif
