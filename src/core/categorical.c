/* categorical.c -- bins of the categorical features split by sets. */
#include "categorical.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"

/* The cuts of m with feature f's thresholds replaced by 0.5, 1.5, ...,
 * count - 1.5 wherever split[f] is set. */
static gpulayer_status category_cuts(gpl_model *m, const uint8_t *split)
{
    const gpl_bin_cuts *old = &m->cuts;
    const int32_t F = m->num_features;
    uint64_t total = 0;
    for (int32_t f = 0; f < F; f++)
        total += split[f] ? (uint64_t)(m->categories[f]->count - 1)
                          : old->cut_ptr[f + 1] - old->cut_ptr[f];
    gpl_bin_cuts cuts = {F, NULL, NULL};
    cuts.cut_ptr = gpl_malloc(sizeof(uint32_t) * ((size_t)F + 1), "bin cuts");
    cuts.values = gpl_malloc(sizeof(float) * (size_t)(total ? total : 1), "bin cuts");
    if (!cuts.cut_ptr || !cuts.values) {
        gpl_bin_cuts_free(&cuts);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    uint32_t at = 0;
    for (int32_t f = 0; f < F; f++) {
        cuts.cut_ptr[f] = at;
        if (split[f]) {
            for (int32_t c = 0; c + 1 < m->categories[f]->count; c++)
                cuts.values[at++] = (float)c + 0.5f;
        } else {
            for (uint32_t k = old->cut_ptr[f]; k < old->cut_ptr[f + 1]; k++)
                cuts.values[at++] = old->values[k];
        }
    }
    cuts.cut_ptr[F] = at;
    gpl_bin_cuts_free(&m->cuts);
    m->cuts = cuts;
    return GPULAYER_OK;
}

gpulayer_status gpl_categorical_setup(const gpl_params *p, gpl_model *m)
{
    if (!m->categories || p->ordered_categories) return GPULAYER_OK;
    const int32_t F = m->num_features;
    uint8_t *split = gpl_calloc((size_t)F, 1, "categorical feature flags");
    if (!split) return GPULAYER_ERR_OUT_OF_MEMORY;
    int any = 0;
    for (int32_t f = 0; f < F; f++) {
        const gpl_category_dict *d = m->categories[f];
        if (!d || d->count < 1) continue;
        if (d->count > p->max_bin - 1) {
            if (p->verbosity >= 2)
                fprintf(stderr, "[gpulayer] feature %d (%s) has %d categories, more than "
                        "max_bin - 1 = %d: split as ordered codes\n", f,
                        m->feature_names && m->feature_names[f] ? m->feature_names[f] : "",
                        d->count, p->max_bin - 1);
            continue;
        }
        split[f] = 1;
        any = 1;
    }
    gpulayer_status st = any ? category_cuts(m, split) : GPULAYER_OK;
    if (st != GPULAYER_OK || !any) {
        free(split);
        return st;
    }
    m->cat_split = split;
    return GPULAYER_OK;
}
