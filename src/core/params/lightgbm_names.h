/* lightgbm_names.h -- LightGBM's objective and metric names, as the
 * XGBoost names GPUlayer uses (docs/porting.md lists them). */
#ifndef GPL_LIGHTGBM_NAMES_H
#define GPL_LIGHTGBM_NAMES_H

#include <stddef.h>

/* The XGBoost name of LightGBM objective `name`, or NULL. When NULL and
 * LightGBM has the objective but GPUlayer does not, *why says what to use
 * instead (else *why is NULL). */
const char *gpl_lightgbm_objective(const char *name, const char **why);

/* The same for LightGBM's metric names. */
const char *gpl_lightgbm_metric(const char *name, const char **why);

#endif
