/* cat_set.c -- the order of a node's categories and the sets of partition
 * splits (cat_set.h). */
#include "cat_set.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "split_math.h"

static int by_order(const void *a, const void *b)
{
    const gpl_cat_entry *x = a, *y = b;
    if (gpl_cat_before(x->ratio, x->bin, y->ratio, y->bin)) return -1;
    return gpl_cat_before(y->ratio, y->bin, x->ratio, x->bin);
}

/* gpl_cat_before is a total order (ties by bin), so the result does not
 * depend on the sort's algorithm or stability. */
int32_t gpl_cat_order(const gpl_split_params *p, const gpl_grad_pair *h, int32_t last_bin,
                      gpl_cat_entry *e)
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
    qsort(e, (size_t)n, sizeof *e, by_order);
    return n;
}

gpulayer_status gpl_cat_left_set(const gpl_split_params *p, const gpl_grad_pair *h,
                                 int32_t last_bin, int32_t key, uint32_t *set)
{
    memset(set, 0, sizeof(uint32_t) * (size_t)gpl_cat_set_words(last_bin));
    if (gpl_cat_is_onehot(p, last_bin)) {
        if (key > 0) set[key >> 5] |= 1u << (key & 31);
        return GPULAYER_OK;
    }
    gpl_cat_entry small[256];
    gpl_cat_entry *e = last_bin <= 256 ? small
                                      : gpl_malloc(sizeof *e * (size_t)last_bin, "category order");
    if (!e) return GPULAYER_ERR_OUT_OF_MEMORY;
    const int32_t n = gpl_cat_order(p, h, last_bin, e);
    const int dir = key / GPL_CAT_KEY_DIRECTION, k = key % GPL_CAT_KEY_DIRECTION;
    for (int32_t i = 0; i < k && i < n; i++) {
        const int32_t b = e[dir ? n - 1 - i : i].bin;
        set[b >> 5] |= 1u << (b & 31);
    }
    if (e != small) free(e);
    return GPULAYER_OK;
}
