/* categorical.h -- which categorical features are split by sets of
 * categories, and their bins: one value bin a category. */
#ifndef GPL_CATEGORICAL_H
#define GPL_CATEGORICAL_H

#include "model.h"
#include "params.h"

/* For every categorical feature of m (m->categories) that is split by
 * sets: its cuts become one value bin a category (code c in bin c + 1)
 * and m->cat_split marks it. With categorical=ordered, nothing changes.
 * A feature with more categories than max_bin - 1 value bins is split as
 * ordered codes, and verbosity >= 2 says so. */
gpulayer_status gpl_categorical_setup(const gpl_params *p, gpl_model *m);

#endif
