/* shap.h -- per-feature contributions of rows to their margins: exact
 * path-dependent TreeSHAP (Lundberg et al. 2018, Algorithm 2), Saabas'
 * approximation, and SHAP interaction values (gpl_shap_kind of
 * backend.h), on the CPU or a device backend. */
#ifndef GPL_SHAP_H
#define GPL_SHAP_H

#include <stdint.h>

#include "model.h"

/* Values a row gets: num_outputs x (features + 1), or num_outputs x
 * (features + 1)^2 for interactions; the last column is the bias. */
int64_t gpl_shap_row_width(const gpl_model *m, gpl_shap_kind kind);

/* The values of every row of ds (row-major, gpl_shap_row_width a row),
 * with the trees of num_rounds rounds (as prediction counts them), on
 * device ("cpu" or NULL: the host's nthread threads, <= 0: OpenMP's
 * default; else the backend the device layer places it on, with the same
 * bits). A row's values and bias sum to its margin. */
gpulayer_status gpl_shap_dataset(const gpl_model *m, const gpulayer_dataset *ds,
                                 gpl_shap_kind kind, int32_t num_rounds, int nthread,
                                 const char *device, float *out);

/* What the walks need beyond the first num_trees trees of m (backend.h);
 * free with gpl_shap_forest_free. */
gpulayer_status gpl_shap_forest_build(const gpl_model *m, int32_t num_trees,
                                      gpl_shap_forest *f);
void gpl_shap_forest_free(gpl_shap_forest *f);

#endif
