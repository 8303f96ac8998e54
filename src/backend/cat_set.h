/* cat_set.h -- the order of a node's categories and the set a partition
 * split sends left, rebuilt from the node's histogram: the CPU's split
 * search uses it, and the core rebuilds the sets of features too wide for
 * a split record's inline set with it. */
#ifndef GPL_CAT_SET_H
#define GPL_CAT_SET_H

#include "backend.h"

/* A category of the node: its bin, sums and ordering value. */
typedef struct gpl_cat_entry {
    int32_t bin;
    gpl_grad_pair sum;
    double ratio;
} gpl_cat_entry;

/* Whether a feature of value bins 1..last_bin splits one category against
 * the rest. */
static inline int gpl_cat_is_onehot(const gpl_split_params *p, int32_t last_bin)
{
    return last_bin <= p->max_cat_to_onehot;
}

/* The categories of a partition-split feature whose histogram h holds bins
 * 0..last_bin into e (room for last_bin entries), in their order
 * (split_math.h's gpl_cat_before); returns how many. */
int32_t gpl_cat_order(const gpl_split_params *p, const gpl_grad_pair *h, int32_t last_bin,
                      gpl_cat_entry *e);

/* The value bins that go left for candidate key of a feature whose
 * histogram is h (the set the search chose, rebuilt) into set, of
 * gpl_cat_set_words(last_bin) words. Returns GPULAYER_ERR_OUT_OF_MEMORY
 * (with the message set) when the order of a wide feature finds no
 * memory. */
gpulayer_status gpl_cat_left_set(const gpl_split_params *p, const gpl_grad_pair *h,
                                 int32_t last_bin, int32_t key, uint32_t *set);

#endif
