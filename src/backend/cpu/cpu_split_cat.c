/* cpu_split_cat.c -- the candidates of a categorical feature (split_math.h
 * says which), the reference for every backend. */
#include <stdlib.h>

#include "cat_set.h"
#include "cpu_split_cat.h"
#include "split_math.h"

/* Tries the candidate whose left child (missing values aside) has sums
 * left, for both missing directions. */
static void try_candidate(const gpl_split_params *p, const gpl_node_bounds *b, uint32_t rows,
                          gpl_grad_pair total, double parent, double lambda, gpl_grad_pair left,
                          gpl_grad_pair missing, int32_t f, int32_t key, gpl_split_record *rec)
{
    const int two_way = missing.grad != 0 || missing.hess != 0;
    for (int dl = 0; dl <= two_way; dl++) {
        gpl_grad_pair l = left;
        if (dl) {
            l.grad += missing.grad;
            l.hess += missing.hess;
        }
        const gpl_grad_pair r = {total.grad - l.grad, total.hess - l.hess};
        if (l.hess <= 0 || r.hess <= 0) continue;
        const double hl = (double)l.hess / p->scale.hess, hr = (double)r.hess / p->scale.hess;
        if (hl < p->min_child_weight || hr < p->min_child_weight) continue;
        if (!gpl_children_rows_ok(l.hess, r.hess, rows, p->min_data_in_leaf)) continue;
        int ok; /* categorical features take no monotone constraint */
        const double gain = gpl_bounded_gain((double)l.grad / p->scale.grad, hl,
                                             (double)r.grad / p->scale.grad, hr, lambda,
                                             p->alpha, p->max_delta_step, b->lo, b->hi, 0,
                                             parent, &ok);
        if (gpl_split_better(gain, f, key, dl, rec->gain, rec->feature, rec->bin,
                             rec->default_left)) {
            rec->gain = gain;
            rec->feature = f;
            rec->bin = key;
            rec->default_left = dl;
            rec->left = l;
            rec->right = r;
            rec->categorical = 1;
        }
    }
}

/* The node's score with this lambda. */
static double parent_score(const gpl_split_params *p, const gpl_node_bounds *b,
                           gpl_grad_pair total, double lambda)
{
    return gpl_bounded_node_score((double)total.grad / p->scale.grad,
                                  (double)total.hess / p->scale.hess, lambda, p->alpha,
                                  p->max_delta_step, b->lo, b->hi);
}

gpulayer_status cpu_scan_categorical(const gpl_split_params *p, const gpl_node_bounds *bounds,
                                     uint32_t rows, gpl_grad_pair total, const gpl_grad_pair *h,
                                     int32_t last_bin, int32_t f, gpl_split_record *rec)
{
    const gpl_grad_pair missing = h[0];
    if (gpl_cat_is_onehot(p, last_bin)) {
        const double parent = parent_score(p, bounds, total, p->lambda);
        /* Key 0: no category left, so missing values alone (dl = 1). */
        try_candidate(p, bounds, rows, total, parent, p->lambda, (gpl_grad_pair){0, 0}, missing,
                      f, 0, rec);
        for (int32_t b = 1; b <= last_bin; b++)
            if (h[b].hess > 0)
                try_candidate(p, bounds, rows, total, parent, p->lambda, h[b], missing, f, b,
                              rec);
        return GPULAYER_OK;
    }
    const double lambda = p->lambda + p->cat_l2;
    const double parent = parent_score(p, bounds, total, lambda);
    gpl_cat_entry small[256];
    gpl_cat_entry *e = last_bin <= 256 ? small : malloc(sizeof *e * (size_t)last_bin);
    if (!e) return GPULAYER_ERR_OUT_OF_MEMORY;
    const int32_t n = gpl_cat_order(p, h, last_bin, e);
    const int32_t kmax = n < p->max_cat_threshold ? n : p->max_cat_threshold;
    for (int dir = 0; dir < 2; dir++) {
        gpl_grad_pair left = {0, 0};
        long long added = 0;
        for (int32_t k = 1; k <= kmax; k++) {
            const gpl_cat_entry *c = &e[dir ? n - k : k - 1];
            left.grad += c->sum.grad;
            left.hess += c->sum.hess;
            const int step = gpl_cat_group_step(&added, c->sum.hess, left.hess, total.hess, rows,
                                                p->min_data_per_group);
            if (step < 0) break;
            if (step == 0) continue;
            try_candidate(p, bounds, rows, total, parent, lambda, left, missing, f,
                          gpl_cat_key(dir, k), rec);
        }
    }
    if (e != small) free(e);
    return GPULAYER_OK;
}
