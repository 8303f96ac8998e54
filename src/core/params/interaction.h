/* interaction.h -- interaction_constraints (XGBoost's): sets of features
 * allowed to interact. The root may split on any feature; below it a node
 * may split on the features its path already used and on every feature of
 * each set that holds all of those (so a path's features always lie in one
 * set, or are a single feature no set lists). */
#ifndef GPL_INTERACTION_H
#define GPL_INTERACTION_H

#include <stddef.h>
#include <stdint.h>

#include "gpulayer.h"

typedef struct gpl_interactions {
    int32_t num_sets;     /* 0: no constraint                            */
    int32_t num_features;
    uint8_t *member;      /* num_sets x num_features: feature f in set s */
} gpl_interactions;

/* Checks the text "[[0,1],[2,3,4]]" (a JSON list of lists of feature
 * indices; "" or "[]": none), naming the parameter in the error, and
 * writes it in its compact form (no spaces; "" for none) into out. */
gpulayer_status gpl_interactions_check(const char *text, char *out, size_t size);
/* The sets of text for data of num_features features: an index out of
 * range is an error naming it. */
gpulayer_status gpl_interactions_parse(const char *text, int32_t num_features,
                                       gpl_interactions *out);
void gpl_interactions_free(gpl_interactions *x);
/* allowed[f]: whether a node whose path split on the features marked in
 * path_used (num_features bytes; none: the root) may split on f. */
void gpl_interactions_allowed(const gpl_interactions *x, const uint8_t *path_used,
                              uint8_t *allowed);

#endif
