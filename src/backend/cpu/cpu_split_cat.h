/* cpu_split_cat.h -- split candidates of categorical features. */
#ifndef GPL_CPU_SPLIT_CAT_H
#define GPL_CPU_SPLIT_CAT_H

#include "backend.h"

/* Every candidate of categorical feature f, whose histogram is h with bins
 * 0..last_bin, in a node of these bounds, rows (0: unknown) and sums
 * total, against the best so far in rec (which takes the winner's gain,
 * key, direction, sums and categorical = 1). */
void cpu_scan_categorical(const gpl_split_params *p, const gpl_node_bounds *bounds,
                          uint32_t rows, gpl_grad_pair total, const gpl_grad_pair *h,
                          int32_t last_bin, int32_t f, gpl_split_record *rec);

/* The value bins that go left for candidate key of a feature whose
 * histogram is h (the set the scan chose, rebuilt). */
void gpl_cat_left_set(const gpl_split_params *p, const gpl_grad_pair *h, int32_t last_bin,
                      int32_t key, uint32_t *set);

#endif
