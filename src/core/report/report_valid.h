/* report_valid.h -- the training report's section on a validation set:
 * how the model's predictions meet its labels (ROC and precision-recall
 * curves, a confusion matrix and calibration for binary models, a
 * confusion matrix for multiclass ones, residuals for regression) and the
 * mean |SHAP value| of each feature. */
#ifndef GPL_CLI_REPORT_VALID_H
#define GPL_CLI_REPORT_VALID_H

#include <stdio.h>

#include "gpulayer.h"

/* The section on valid (read as name) under booster b, as HTML. */
void report_validation(FILE *out, const gpulayer_booster *b, const gpulayer_dataset *valid,
                       const char *name);

#endif
