/* dataset_match.h -- evaluation sets laid out as the training data. */
#ifndef GPL_DATASET_MATCH_H
#define GPL_DATASET_MATCH_H

#include "gpulayer.h"

/* When both have a name for every column, eval's columns are matched to
 * train's by name (reordered; a missing or unknown column is an error
 * naming it); categorical codes are taken into train's dictionaries (a
 * name unseen in training becomes missing), and text in a column that is
 * numeric in train is an error. *out is the rearranged copy, or NULL when
 * eval can be used as it is. */
gpulayer_status gpl_dataset_match_eval(const gpulayer_dataset *train,
                                       const gpulayer_dataset *eval,
                                       gpulayer_dataset **out);

#endif
