/* categorical.h -- which categorical features are split by sets of
 * categories, and their bins: one value bin a category. */
#ifndef GPL_CATEGORICAL_H
#define GPL_CATEGORICAL_H

#include "model.h"
#include "params.h"

/* For every categorical feature of m (m->categories) that is split by
 * sets: its cuts become one value bin a group of categories (group g in
 * bin g + 1) and m->cat_split marks it. A feature with at most
 * max_bin - 1 categories has a group each (the code is the group); with
 * more, the max_bin - 2 most frequent in train keep a group each and the
 * others share the last (m->cat_groups; verbosity >= 2 says so), except
 * in a distributed job, whose ranks see different rows: there such a
 * feature is split as ordered codes. With categorical=ordered, nothing
 * changes. */
gpulayer_status gpl_categorical_setup(const gpl_params *p, const gpulayer_dataset *train,
                                      int distributed, gpl_model *m);

/* out[i] = the group of code in[i] (NaN for a missing or unknown code),
 * for a feature of count categories grouped by group. */
void gpl_categorical_group_values(const int32_t *group, int32_t count, const float *in,
                                  int64_t n, float *out);

/* gpl_bin_matrix with the model's cuts, categories through their groups. */
gpulayer_status gpl_categorical_bin_matrix(const gpl_model *m, const gpulayer_dataset *ds,
                                           int nthread, uint8_t **out);

#endif
