/* cpu_split_cat.h -- split candidates of categorical features. */
#ifndef GPL_CPU_SPLIT_CAT_H
#define GPL_CPU_SPLIT_CAT_H

#include "backend.h"

/* Every candidate of categorical feature f, whose histogram is h with bins
 * 0..last_bin, in a node of these bounds, rows (0: unknown) and sums
 * total, against the best so far in rec (which takes the winner's gain,
 * key, direction, sums and categorical = 1; the set is cat_set.h's).
 * Fails only for want of memory for the order of a wide feature (no
 * message: the caller names the operation). */
gpulayer_status cpu_scan_categorical(const gpl_split_params *p, const gpl_node_bounds *bounds,
                                     uint32_t rows, gpl_grad_pair total, const gpl_grad_pair *h,
                                     int32_t last_bin, int32_t f, gpl_split_record *rec);

#endif
