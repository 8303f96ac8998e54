/* monotone.h -- monotone_constraints (XGBoost's): for each feature, 1 when
 * predictions may only rise with it, -1 when they may only fall, 0 when
 * free. Trees keep them by bounding each node's weight (split_math.h). */
#ifndef GPL_MONOTONE_H
#define GPL_MONOTONE_H

#include <stddef.h>
#include <stdint.h>

#include "gpulayer.h"

/* Checks the text "(1,-1,0)" (also "[1,-1,0]" or "1,-1,0"; "" or "()":
 * none), naming the parameter and the entry in an error, and writes its
 * canonical form "(1,-1,0)" ("" for none) into out. */
gpulayer_status gpl_monotone_check(const char *text, char *out, size_t size);

/* The constraints of text for data of num_features features into
 * out[num_features] (features past the list are free). A list longer than
 * the features, or a constraint on a categorical feature (categorical:
 * num_features flags, or NULL), is an error naming it. *any: whether one
 * feature is constrained. */
gpulayer_status gpl_monotone_parse(const char *text, int32_t num_features,
                                   const uint8_t *categorical,
                                   const char *const *feature_names, int8_t *out, int *any);

#endif
