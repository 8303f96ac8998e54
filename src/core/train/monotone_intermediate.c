/* monotone_intermediate.c -- LightGBM's intermediate monotone method
 * (monotone_intermediate.h): the children's bounds, and the walk that
 * tightens the bounds of the leaves next to new leaves. */
#include "monotone_intermediate.h"

#include <stddef.h>

void gpl_monotone_intermediate_children(int constraint, double wl, double wr, const double *own,
                                        double *left, double *right)
{
    left[0] = right[0] = own[0];
    left[1] = right[1] = own[1];
    if (constraint > 0) {
        if (wr < left[1]) left[1] = wr;
        if (wl > right[0]) right[0] = wl;
    } else if (constraint < 0) {
        if (wr > left[0]) left[0] = wr;
        if (wl < right[1]) right[1] = wl;
    }
}

typedef struct walk {
    const gpl_monotone_tree *t;
    int32_t path_len;
    int32_t split_feature, split_bin, split_default_left;
    double wl, wr;
    int32_t *moved;
    int32_t num_moved;
} walk;

/* Whether the left and right subtrees of node can touch the new leaves: a
 * numeric split on a feature the path up from them also split on has only
 * one side next to them by value; but where the path lets rows missing
 * that feature reach the new leaves, the side node sends such rows to
 * touches them too. */
static void reaches(const walk *w, int32_t node, int *left, int *right)
{
    const gpl_tree_node *n = &w->t->nodes[node];
    *left = *right = 1;
    if (n->categorical) return;
    int missing_reach = 1;
    for (int32_t i = 0; i < w->path_len; i++) {
        const gpl_monotone_step *p = &w->t->path[i];
        if (p->feature != n->feature) continue;
        if (n->split_bin >= p->bin && !p->right) *right = 0;
        if (n->split_bin <= p->bin && p->right) *left = 0;
        missing_reach &= p->missing_along;
    }
    if (missing_reach) {
        if (n->default_left) *left = 1;
        else *right = 1;
    }
}

/* Tightens the open leaves of the subtree at node that touch the new left
 * (use_left) or right (use_right) leaf: their upper bound (upper) or
 * lower bound (!upper) by those leaves' weights. */
static void tighten(walk *w, int32_t node, int upper, int use_left, int use_right)
{
    const gpl_tree_node *n = &w->t->nodes[node];
    if (n->left < 0) {
        if (!w->t->open[node]) return;
        double lo = use_left ? w->wl : w->wr, hi = lo;
        if (use_left && use_right) {
            lo = w->wl < w->wr ? w->wl : w->wr;
            hi = w->wl < w->wr ? w->wr : w->wl;
        }
        double *b = &w->t->bounds[2 * node];
        if (upper ? lo < b[1] : hi > b[0]) {
            if (upper) b[1] = lo;
            else b[0] = hi;
            w->moved[w->num_moved++] = node;
        }
        return;
    }
    int go_left, go_right;
    reaches(w, node, &go_left, &go_right);
    /* A split on the new split's feature: its right side shares values
     * with the new left leaf only if its bin is below the new split's (or
     * both send missing values there), and the other way round. */
    int left_going_right = 1, right_going_left = 1;
    if (!n->categorical && n->feature == w->split_feature) {
        if (n->split_bin >= w->split_bin && !(!n->default_left && w->split_default_left))
            left_going_right = 0;
        if (n->split_bin <= w->split_bin && !(n->default_left && !w->split_default_left))
            right_going_left = 0;
    }
    if (go_left) tighten(w, n->left, upper, use_left, right_going_left && use_right);
    if (go_right) tighten(w, n->right, upper, left_going_right && use_left, use_right);
}

int32_t gpl_monotone_intermediate_update(const gpl_monotone_tree *t, int32_t split, double wl,
                                         double wr, int32_t *moved)
{
    const gpl_tree_node *s = &t->nodes[split];
    walk w = {t, 0, s->feature, s->split_bin, s->default_left, wl, wr, moved, 0};
    for (int32_t node = split; t->parent[node] >= 0; node = t->parent[node]) {
        const int32_t up = t->parent[node];
        const gpl_tree_node *p = &t->nodes[up];
        const int from_right = p->right == node;
        int go_left, go_right;
        reaches(&w, up, &go_left, &go_right);
        if (!(from_right ? go_left : go_right)) continue;
        const int c = p->categorical ? 0 : t->monotone[p->feature];
        /* Across a rising split the leaves on the right stay above. */
        if (c != 0)
            tighten(&w, from_right ? p->left : p->right, c > 0 ? from_right : !from_right, 1, 1);
        t->path[w.path_len++] = (gpl_monotone_step){p->feature, p->split_bin,
                                                    (uint8_t)from_right,
                                                    (uint8_t)(p->default_left != from_right)};
    }
    return w.num_moved;
}
