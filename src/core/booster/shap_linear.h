/* shap_linear.h -- exact path-dependent SHAP values of a row under one
 * tree at a cost linear in the tree's size (shap_linear.c). */
#ifndef GPL_SHAP_LINEAR_H
#define GPL_SHAP_LINEAR_H

#include <stdint.h>

#include "model.h"
#include "shap_math.h"

/* GPL_SHAP_LINEAR_DEPTH (shap_math.h) is the deepest tree the walk
 * takes: deeper trees, and trees with a node of zero cover (whose fraction
 * would divide by zero), take Algorithm 2 (shap.c). */

/* Adds tree t's SHAP values of a row of bins to phi (one a feature; the
 * expected value is the caller's). p: one value a feature, all 1 on entry
 * and again on return. */
void gpl_shap_linear_tree(const gpl_tree *t, const uint16_t *row, double *p, double *phi);

#endif
