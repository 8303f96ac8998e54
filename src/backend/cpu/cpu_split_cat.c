/* cpu_split_cat.c -- the candidates of a categorical feature (split_math.h
 * says which), the reference for every backend. */
#include <stdlib.h>
#include <string.h>

#include "cpu_split_cat.h"
#include "split_math.h"

/* A category of the node: its bin, sums and ordering value. */
typedef struct cat_entry {
    int32_t bin;
    gpl_grad_pair sum;
    double ratio;
} cat_entry;

static int by_order(const void *a, const void *b)
{
    const cat_entry *x = a, *y = b;
    if (gpl_cat_before(x->ratio, x->bin, y->ratio, y->bin)) return -1;
    return gpl_cat_before(y->ratio, y->bin, x->ratio, x->bin);
}

/* gpl_cat_before is a total order (ties by bin), so the result does not
 * depend on the sort's algorithm or stability. */
static void sort_entries(cat_entry *e, int32_t n)
{
    qsort(e, (size_t)n, sizeof *e, by_order);
}

/* The categories of a partition-split feature in their order; returns how
 * many. h holds bins 0..last_bin. */
static int32_t ordered_categories(const gpl_split_params *p, const gpl_grad_pair *h,
                                  int32_t last_bin, cat_entry *e)
{
    int32_t n = 0;
    for (int32_t b = 1; b <= last_bin; b++) {
        const double hs = (double)h[b].hess / p->scale.hess;
        if (h[b].hess <= 0 || hs < p->min_child_weight) continue;
        e[n].bin = b;
        e[n].sum = h[b];
        e[n].ratio = gpl_cat_ratio((double)h[b].grad / p->scale.grad, hs, p->cat_smooth);
        n++;
    }
    sort_entries(e, n);
    return n;
}

static int is_onehot(const gpl_split_params *p, int32_t last_bin)
{
    return last_bin <= p->max_cat_to_onehot;
}

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

void cpu_scan_categorical(const gpl_split_params *p, const gpl_node_bounds *bounds,
                          uint32_t rows, gpl_grad_pair total, const gpl_grad_pair *h,
                          int32_t last_bin, int32_t f, gpl_split_record *rec)
{
    const gpl_grad_pair missing = h[0];
    if (is_onehot(p, last_bin)) {
        const double parent = parent_score(p, bounds, total, p->lambda);
        /* Key 0: no category left, so missing values alone (dl = 1). */
        try_candidate(p, bounds, rows, total, parent, p->lambda, (gpl_grad_pair){0, 0}, missing,
                      f, 0, rec);
        for (int32_t b = 1; b <= last_bin; b++)
            if (h[b].hess > 0)
                try_candidate(p, bounds, rows, total, parent, p->lambda, h[b], missing, f, b,
                              rec);
        return;
    }
    const double lambda = p->lambda + p->cat_l2;
    const double parent = parent_score(p, bounds, total, lambda);
    cat_entry e[256];
    const int32_t n = ordered_categories(p, h, last_bin, e);
    const int32_t kmax = n < p->max_cat_threshold ? n : p->max_cat_threshold;
    for (int dir = 0; dir < 2; dir++) {
        gpl_grad_pair left = {0, 0};
        long long added = 0;
        for (int32_t k = 1; k <= kmax; k++) {
            const cat_entry *c = &e[dir ? n - k : k - 1];
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
}

void gpl_cat_left_set(const gpl_split_params *p, const gpl_grad_pair *h, int32_t last_bin,
                      int32_t key, uint32_t *set)
{
    memset(set, 0, sizeof(uint32_t) * GPL_CAT_WORDS);
    if (is_onehot(p, last_bin)) {
        if (key > 0) set[key >> 5] |= 1u << (key & 31);
        return;
    }
    cat_entry e[256];
    const int32_t n = ordered_categories(p, h, last_bin, e);
    const int dir = key / GPL_CAT_KEY_DIRECTION, k = key % GPL_CAT_KEY_DIRECTION;
    for (int32_t i = 0; i < k && i < n; i++) {
        const int32_t b = e[dir ? n - 1 - i : i].bin;
        set[b >> 5] |= 1u << (b & 31);
    }
}
