/*
 * shap_math.h -- the arithmetic of a row's SHAP values (the CPU's in
 * src/core/booster/shap.c and shap_linear.c) over the flattened forest of
 * backend.h, without recursion, for the devices: the same operations on
 * the same doubles in the same order, so the values are the CPU's bit for
 * bit. Compile without fused multiply-add (-ffp-contract=off, nvcc
 * -fmad=false).
 *
 * Per node the device has, beside gpl_infer_node: its share of its
 * parent's cover (cover / parent's cover, computed once on the host as the
 * CPU computes it) and its expected value (gpl_shap_forest of backend.h).
 */
#ifndef GPL_SHAP_MATH_H
#define GPL_SHAP_MATH_H

#include <stdint.h>

#include "backend.h"
#include "kernel_common.h"

/* The points of the linear walk: Gauss-Legendre on [0, 1], as
 * shap_linear.c. */
#define GPL_SHAP_POINTS 8

GPL_HD double gpl_shap_point(int q)
{
    const double t[GPL_SHAP_POINTS] = {
        0.019855071751231912, 0.10166676129318664, 0.2372337950418355, 0.40828267875217511,
        0.59171732124782483,  0.7627662049581645,  0.89833323870681336, 0.98014492824876809};
    return t[q];
}

GPL_HD double gpl_shap_point_weight(int q)
{
    const double w[GPL_SHAP_POINTS] = {
        0.050614268145188532, 0.11119051722668721, 0.15685332293894344, 0.18134189168918083,
        0.18134189168918083,  0.15685332293894344, 0.11119051722668721, 0.050614268145188532};
    return w[q];
}

/* Whether a split node sends a row whose bin is b left (gpl_node_goes_left
 * over the inference layout; sets: the forest's category sets, words a
 * node, or NULL). */
GPL_HD int gpl_shap_goes_left(const gpl_infer_node *nd, const uint32_t *sets, int32_t words,
                              int64_t node, unsigned b)
{
    unsigned left = nd->categorical ? (sets[node * words + (b >> 5)] >> (b & 31)) & 1u
                                    : (b - 1u) < nd->bin;
    return (int)(left | ((b == 0u) & nd->default_left));
}

/* ---------------------------------------------------------- linear walk
 * One point q of an edge from a node with coefficient c to its child
 * (shap_linear.c's linear_edge): the child's coefficient. p_new == 0 when
 * the row does not take the edge. */
GPL_HD double gpl_shap_lin_child(double c, double t, double p_new, double a_new, double a_old)
{
    double cc;
    if (p_new == 0) {
        cc = c * (1 - t);
    } else {
        const double e = 1 + a_new * t;
        cc = c * e;
    }
    if (a_old != 0) cc /= 1 + a_old * t;
    return cc;
}

/* Point q's term of the edge's value (shap_linear.c's linear_edge): its
 * first term, negated where the row does not take the edge, less its
 * second term where the feature was on the path before. */
GPL_HD double gpl_shap_lin_point_value(double h, double t, double p_new, double a_new,
                                       double a_old)
{
    double v = p_new == 0 ? -(h * (1 / (1 - t))) : h * (a_new / (1 + a_new * t));
    if (a_old != 0) v -= h * a_old / (1 + a_old * t);
    return v;
}

/* The edge's value: the points' terms added in pairs, in the order of 3
 * butterfly steps over 8 lanes. */
GPL_HD double gpl_shap_lin_edge_sum(const double *v)
{
    return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
}

/* The factor a / (1 + a t) of an edge's feature in a term at point t, a =
 * p_new - 1; an edge the row does not take (p_new == 0) has -1 / (1 - t).
 * The pairs of the quadrature interactions multiply the terms of an edge
 * by it for each other feature above the edge. */
GPL_HD double gpl_shap_lin_ratio(double p_new, double t)
{
    const double a = p_new - 1;
    return p_new == 0 ? -(1 / (1 - t)) : a / (1 + a * t);
}

/* The deepest tree the linear walk takes (GPL_SHAP_LINEAR_MAX_DEPTH of
 * shap_linear.h). */
#define GPL_SHAP_LINEAR_DEPTH 15

/* One level of the walk: the node, how far its children are done, and
 * the edge into it (feature, p on the path after the edge). */
typedef struct gpl_shap_lin_level {
    int32_t node;
    int32_t stage; /* 0: left next, 1: right next, 2: done */
    int32_t feature;
    double p;
    double zprod;
    double c[GPL_SHAP_POINTS];
    double h[GPL_SHAP_POINTS]; /* the left child's sums */
    double r[GPL_SHAP_POINTS]; /* pairs: gpl_shap_lin_ratio of the edge */
} gpl_shap_lin_level;

/* p of feature f on the path down to level d: the innermost edge's. */
GPL_HD double gpl_shap_lin_p(const gpl_shap_lin_level *lv, int d, int32_t f)
{
    for (int j = d; j >= 1; j--)
        if (lv[j].feature == f) return lv[j].p;
    return 1;
}

/* Whether level k's edge is the innermost of its feature down to level d. */
GPL_HD int gpl_shap_lin_innermost(const gpl_shap_lin_level *lv, int k, int d)
{
    for (int m = k + 1; m <= d; m++)
        if (lv[m].feature == lv[k].feature) return 0;
    return 1;
}

/* ------------------------------------------ interactions by quadrature
 * The interaction value of features i != j (XGBoost's pred_interactions:
 * half the difference of i's value with j present and with j absent)
 * that a leaf of value v gives, when its path splits on both, is
 *     v * prod(z) / 2 * integral over [0, 1] of C(t) * r_i(t) * r_j(t) dt
 * with C, z and r_k(t) = a_k / (1 + a_k t) those of the linear walk
 * (shap_linear.c): a polynomial of degree below the path's length less
 * one, which the walk's 8 points integrate exactly. At each point a
 * leaf's r_i r_j is the sum of its changes down the path: an edge of
 * feature i changes r_i by its point term divided by the sums h, while
 * r_j is that of j's innermost edge above. So each edge adds, for each
 * other feature j on the path above it, its point terms times r_j added
 * in pairs; halved, these sums are the matrix. The pair (i, j) is kept at
 * (min, max) of a (F + 1) x (F + 1) matrix. */
GPL_HD int64_t gpl_shap_pair_at(int32_t i, int32_t j, int32_t C)
{
    return i < j ? (int64_t)i * C + j : (int64_t)j * C + i;
}

/* Adds a tree's values for a row of bins to phi (feature f's at
 * phi[f * phi_stride]), as gpl_shap_linear_tree; nodes, frac, leaf and
 * sets are the tree's (words a node, indexed by tree node). lv:
 * GPL_SHAP_LINEAR_DEPTH + 1 levels. With pairs (else NULL), each edge also
 * adds its sums for the pairs of its feature to pairs ((i, j) at
 * pairs[gpl_shap_pair_at(i, j, C) * phi_stride]). */
GPL_HD void gpl_shap_linear_row(const gpl_infer_node *nodes, const double *frac,
                                const float *leaf, const uint32_t *sets, int32_t words,
                                const uint16_t *row, gpl_shap_lin_level *lv, double *phi,
                                int64_t phi_stride, double *pairs, int32_t C)
{
    if (nodes[0].child[0] == 0) return;
    int d = 0;
    lv[0].node = 0;
    lv[0].stage = 0;
    lv[0].feature = -1;
    lv[0].p = 1;
    lv[0].zprod = 1;
    for (int q = 0; q < GPL_SHAP_POINTS; q++) lv[0].c[q] = 1;
    double h[GPL_SHAP_POINTS] = {0};
    for (;;) {
        gpl_shap_lin_level *L = &lv[d];
        const gpl_infer_node *n = &nodes[L->node];
        if (n->child[0] == L->node) {
            const double scale = L->zprod * leaf[L->node];
            for (int q = 0; q < GPL_SHAP_POINTS; q++)
                h[q] = L->c[q] * scale * gpl_shap_point_weight(q);
            L->stage = 2;
        } else if (L->stage < 2) {
            /* Down the edge to the child of this stage. */
            const int32_t child = n->child[L->stage];
            const int follows =
                gpl_shap_goes_left(n, sets, words, L->node, row[n->feature]) == (L->stage == 0);
            const double z = frac[child];
            const double p_old = gpl_shap_lin_p(lv, d, n->feature);
            const double p_new = follows ? p_old / z : 0;
            const double a_old = p_old - 1, a_new = p_new - 1;
            gpl_shap_lin_level *C1 = &lv[d + 1];
            C1->node = child;
            C1->stage = 0;
            C1->feature = n->feature;
            C1->p = p_new;
            C1->zprod = L->zprod * z;
            for (int q = 0; q < GPL_SHAP_POINTS; q++)
                C1->c[q] = gpl_shap_lin_child(L->c[q], gpl_shap_point(q), p_new, a_new, a_old);
            if (pairs)
                for (int q = 0; q < GPL_SHAP_POINTS; q++)
                    C1->r[q] = gpl_shap_lin_ratio(p_new, gpl_shap_point(q));
            d++;
            continue;
        } else {
            for (int q = 0; q < GPL_SHAP_POINTS; q++) h[q] = L->h[q] + h[q];
        }
        /* Level d is done with sums h: the edge into it adds its value. */
        if (d == 0) return;
        gpl_shap_lin_level *P = &lv[d - 1];
        const double p_new = L->p;
        const double p_old = gpl_shap_lin_p(lv, d - 1, L->feature);
        const double a_old = p_old - 1, a_new = p_new - 1;
        double v[GPL_SHAP_POINTS];
        for (int q = 0; q < GPL_SHAP_POINTS; q++)
            v[q] = gpl_shap_lin_point_value(h[q], gpl_shap_point(q), p_new, a_new, a_old);
        phi[(int64_t)L->feature * phi_stride] += gpl_shap_lin_edge_sum(v);
        if (pairs)
            for (int k = 1; k < d; k++) {
                if (lv[k].feature == L->feature || !gpl_shap_lin_innermost(lv, k, d - 1))
                    continue;
                double pv[GPL_SHAP_POINTS];
                for (int q = 0; q < GPL_SHAP_POINTS; q++) pv[q] = v[q] * lv[k].r[q];
                pairs[gpl_shap_pair_at(L->feature, lv[k].feature, C) * phi_stride] +=
                    gpl_shap_lin_edge_sum(pv);
            }
        d--;
        if (P->stage == 0)
            for (int q = 0; q < GPL_SHAP_POINTS; q++) P->h[q] = h[q];
        P->stage++;
        if (P->stage == 1) continue;
        /* stage 2: both children done; the loop adds the sums. */
    }
}

/* ----------------------------------------------------------- Algorithm 2
 * Lundberg et al.'s walk (shap.c's tree_shap) over a path kept in four
 * arrays of one element a slot, slot i at index i * stride (stride lets
 * the threads of a device interleave their paths). */
typedef struct gpl_shap_path {
    int32_t *feature;
    double *zero, *one, *weight;
    int64_t stride;
} gpl_shap_path;

/* The slots a walk of a tree of depth d needs (shap_path_capacity). */
GPL_HD int64_t gpl_shap_path_slots(int32_t d)
{
    return (int64_t)(d + 2) * (int64_t)(d + 3) / 2 + 1;
}

#define GPL_SP_F(p, i) (p)->feature[(int64_t)(i) * (p)->stride]
#define GPL_SP_Z(p, i) (p)->zero[(int64_t)(i) * (p)->stride]
#define GPL_SP_O(p, i) (p)->one[(int64_t)(i) * (p)->stride]
#define GPL_SP_W(p, i) (p)->weight[(int64_t)(i) * (p)->stride]

/* path_extend on the path starting at slot at. */
GPL_HD void gpl_shap_path_extend(const gpl_shap_path *p, int64_t at, int32_t depth, double zero,
                                 double one, int32_t feature)
{
    GPL_SP_F(p, at + depth) = feature;
    GPL_SP_Z(p, at + depth) = zero;
    GPL_SP_O(p, at + depth) = one;
    GPL_SP_W(p, at + depth) = depth == 0 ? 1.0 : 0.0;
    const double inv = 1.0 / (depth + 1);
    for (int32_t i = depth - 1; i >= 0; i--) {
        GPL_SP_W(p, at + i + 1) += one * GPL_SP_W(p, at + i) * (i + 1) * inv;
        GPL_SP_W(p, at + i) = zero * GPL_SP_W(p, at + i) * (depth - i) * inv;
    }
}

GPL_HD void gpl_shap_path_unwind(const gpl_shap_path *p, int64_t at, int32_t depth, int32_t k)
{
    const double one = GPL_SP_O(p, at + k), zero = GPL_SP_Z(p, at + k);
    double next = GPL_SP_W(p, at + depth);
    for (int32_t i = depth - 1; i >= 0; i--) {
        if (one != 0) {
            const double w = GPL_SP_W(p, at + i);
            GPL_SP_W(p, at + i) = next * (depth + 1) / ((i + 1) * one);
            next = w - GPL_SP_W(p, at + i) * zero * (depth - i) / (depth + 1);
        } else {
            GPL_SP_W(p, at + i) = GPL_SP_W(p, at + i) * (depth + 1) / (zero * (depth - i));
        }
    }
    for (int32_t i = k; i < depth; i++) {
        GPL_SP_F(p, at + i) = GPL_SP_F(p, at + i + 1);
        GPL_SP_Z(p, at + i) = GPL_SP_Z(p, at + i + 1);
        GPL_SP_O(p, at + i) = GPL_SP_O(p, at + i + 1);
    }
}

/* A leaf: every element of the path but the root's gets its unwound sum
 * times (one - zero) times scale (path_unwound_sums, one element at a
 * time: each element's sum is its own chain of operations). */
GPL_HD void gpl_shap_path_leaf(const gpl_shap_path *p, int64_t at, int32_t depth, double scale,
                               double *phi, int64_t phi_stride)
{
    double cold_sum = 0;
    for (int32_t i = 0; i < depth; i++)
        cold_sum += GPL_SP_W(p, at + i) * ((double)(depth + 1) / (double)(depth - i));
    for (int32_t k = 1; k <= depth; k++) {
        const double zero = GPL_SP_Z(p, at + k), one = GPL_SP_O(p, at + k);
        double sum;
        if (one != 0) {
            double next = GPL_SP_W(p, at + depth), total = 0;
            for (int32_t i = depth - 1; i >= 0; i--) {
                const double w = next * ((double)(depth + 1) / (double)(i + 1));
                total += w;
                next = GPL_SP_W(p, at + i) - w * zero * ((double)(depth - i) / (double)(depth + 1));
            }
            sum = total;
        } else {
            sum = zero != 0 ? cold_sum / zero : 0;
        }
        phi[(int64_t)GPL_SP_F(p, at + k) * phi_stride] += sum * (one - zero) * scale;
    }
}

/* A visit the walk has still to make (tree_shap's arguments). */
typedef struct gpl_shap_visit {
    int32_t node;
    int32_t depth;
    int64_t parent; /* slot of the parent's path */
    int32_t feature;
    double zero, one, fraction;
} gpl_shap_visit;

/* tree_shap of a row through one tree from its root, with the condition
 * of shap.c (> 0: condition_feature present, < 0: absent, 0: none).
 * stack: max depth + 2 visits; path: gpl_shap_path_slots(max depth). */
GPL_HD void gpl_shap_alg2_row(const gpl_infer_node *nodes, const double *frac, const float *leaf,
                              const uint32_t *sets, int32_t words, const uint16_t *row,
                              const gpl_shap_path *p,
                              gpl_shap_visit *stack, double *phi, int64_t phi_stride,
                              int condition, int32_t condition_feature)
{
    int32_t top = 0;
    stack[0].node = 0;
    stack[0].depth = 0;
    stack[0].parent = 0;
    stack[0].feature = -1;
    stack[0].zero = 1;
    stack[0].one = 1;
    stack[0].fraction = 1;
    while (top >= 0) {
        const gpl_shap_visit v = stack[top--];
        if (v.fraction == 0) continue;
        int32_t depth = v.depth;
        const int64_t at = v.parent + depth + 1;
        if (v.parent > 0) /* not the root, whose path starts empty */
            for (int32_t i = 0; i <= depth; i++) {
                GPL_SP_F(p, at + i) = GPL_SP_F(p, v.parent + i);
                GPL_SP_Z(p, at + i) = GPL_SP_Z(p, v.parent + i);
                GPL_SP_O(p, at + i) = GPL_SP_O(p, v.parent + i);
                GPL_SP_W(p, at + i) = GPL_SP_W(p, v.parent + i);
            }
        if (condition == 0 || condition_feature != v.feature)
            gpl_shap_path_extend(p, at, depth, v.zero, v.one, v.feature);
        const gpl_infer_node *n = &nodes[v.node];
        if (n->child[0] == v.node) {
            gpl_shap_path_leaf(p, at, depth, leaf[v.node] * v.fraction, phi, phi_stride);
            continue;
        }
        const int left = gpl_shap_goes_left(n, sets, words, v.node, row[n->feature]);
        const int32_t hot = left ? n->child[0] : n->child[1];
        const int32_t cold = left ? n->child[1] : n->child[0];
        const double hot_zero = frac[hot], cold_zero = frac[cold];
        double in_zero = 1, in_one = 1;
        int32_t k = 0;
        while (k <= depth && GPL_SP_F(p, at + k) != n->feature) k++;
        if (k <= depth) {
            in_zero = GPL_SP_Z(p, at + k);
            in_one = GPL_SP_O(p, at + k);
            gpl_shap_path_unwind(p, at, depth, k);
            depth--;
        }
        double hot_fraction = v.fraction, cold_fraction = v.fraction;
        if (condition > 0 && n->feature == condition_feature) {
            cold_fraction = 0;
            depth--;
        } else if (condition < 0 && n->feature == condition_feature) {
            hot_fraction *= hot_zero;
            cold_fraction *= cold_zero;
            depth--;
        }
        /* The cold child below the hot one: the hot subtree goes first. */
        gpl_shap_visit *c = &stack[++top];
        c->node = cold;
        c->depth = depth + 1;
        c->parent = at;
        c->feature = n->feature;
        c->zero = cold_zero * in_zero;
        c->one = 0;
        c->fraction = cold_fraction;
        c = &stack[++top];
        c->node = hot;
        c->depth = depth + 1;
        c->parent = at;
        c->feature = n->feature;
        c->zero = hot_zero * in_zero;
        c->one = in_one;
        c->fraction = hot_fraction;
    }
}

/* ---------------------------------------------------------------- Saabas */
GPL_HD void gpl_shap_saabas_row(const gpl_infer_node *nodes, const double *mean,
                                const uint32_t *sets, int32_t words, const uint16_t *row,
                                double *phi, int64_t phi_stride, int32_t num_features)
{
    int32_t i = 0;
    double v = mean[0];
    phi[(int64_t)num_features * phi_stride] += v;
    while (nodes[i].child[0] != i) {
        const gpl_infer_node *n = &nodes[i];
        i = gpl_shap_goes_left(n, sets, words, i, row[n->feature]) ? n->child[0] : n->child[1];
        phi[(int64_t)n->feature * phi_stride] += mean[i] - v;
        v = mean[i];
    }
}

/* ------------------------------------------------------------- a row
 * The forest as the walks read it (device or host pointers alike). */
typedef struct gpl_shap_view {
    const gpl_infer_node *nodes;
    const float *leaf;
    const uint32_t *sets; /* NULL when no node is categorical */
    int32_t set_words;    /* of each node's set (gpl_infer_forest.cat_words) */
    const int64_t *first;
    const double *frac, *mean;
    const uint8_t *linear;
    const int64_t *feat_first;
    const int32_t *features;
    int32_t num_trees, num_outputs, num_features;
} gpl_shap_view;

/* A thread's workspace for the walks. */
typedef struct gpl_shap_work {
    gpl_shap_lin_level *levels; /* GPL_SHAP_LINEAR_DEPTH + 1               */
    gpl_shap_path path;         /* gpl_shap_path_slots(max depth) slots    */
    gpl_shap_visit *stack;      /* max depth + 2                           */
} gpl_shap_work;

GPL_HD const uint32_t *gpl_shap_tree_sets(const gpl_shap_view *v, int32_t t)
{
    return v->sets ? v->sets + v->first[t] * v->set_words : v->sets;
}

/* A row's contributions (exact, or Saabas' when approx) summed over the
 * trees in order into phi: output k's value of feature f at
 * phi[(k * (F + 1) + f) * stride], zero on entry; the bias gets each
 * tree's expected value, the base margin is the caller's (shap.c's
 * row_values). */
GPL_HD void gpl_shap_contrib_row(const gpl_shap_view *v, int approx, const uint16_t *row,
                                 const gpl_shap_work *w, double *phi, int64_t stride)
{
    const int32_t F = v->num_features, C = F + 1;
    for (int32_t t = 0; t < v->num_trees; t++) {
        const int64_t at = v->first[t];
        const gpl_infer_node *nodes = v->nodes + at;
        const uint32_t *sets = gpl_shap_tree_sets(v, t);
        double *ph = phi + (int64_t)(t % v->num_outputs) * C * stride;
        if (approx) {
            gpl_shap_saabas_row(nodes, v->mean + at, sets, v->set_words, row, ph, stride, F);
            continue;
        }
        if (v->linear[t])
            gpl_shap_linear_row(nodes, v->frac + at, v->leaf + at, sets, v->set_words, row,
                                w->levels, ph, stride, 0, 0);
        else
            gpl_shap_alg2_row(nodes, v->frac + at, v->leaf + at, sets, v->set_words, row,
                              &w->path, w->stack, ph, stride, 0, 0);
        ph[(int64_t)F * stride] += v->mean[at];
    }
}

/* Whether interaction values go by quadrature: when every tree takes the
 * linear walk (else every tree takes Algorithm 2 with each feature present
 * and absent), on the CPU and every device alike. */
GPL_HD int gpl_shap_pairs_by_quadrature(const uint8_t *linear, int32_t num_trees)
{
    for (int32_t t = 0; t < num_trees; t++)
        if (!linear[t]) return 0;
    return 1;
}

/* Interactions by quadrature: a row's diagonal starts (every tree's values
 * and expected value into diag, as phi of gpl_shap_contrib_row) and pair
 * sums (output k's matrix at mat[k * C * C * stride], pair (i, j) of it at
 * gpl_shap_pair_at(i, j, C) * stride), tree by tree in order. */
GPL_HD void gpl_shap_pairs_row(const gpl_shap_view *v, const uint16_t *row,
                               const gpl_shap_work *w, double *diag, double *mat, int64_t stride)
{
    const int32_t F = v->num_features, C = F + 1;
    for (int32_t t = 0; t < v->num_trees; t++) {
        const int64_t at = v->first[t], k = t % v->num_outputs;
        double *d = diag + k * C * stride;
        gpl_shap_linear_row(v->nodes + at, v->frac + at, v->leaf + at, gpl_shap_tree_sets(v, t),
                            v->set_words, row, w->levels, d, stride, mat + k * C * C * stride, C);
        d[(int64_t)F * stride] += v->mean[at];
    }
}

/* The value of pair (i, j), i != j, from one output's pair sums. */
GPL_HD double gpl_shap_pair_value(const double *mat, int32_t i, int32_t j, int32_t C,
                                  int64_t stride)
{
    return mat[gpl_shap_pair_at(i, j, C) * stride] / 2;
}

/* The diagonal entry (i, i) from one output's pair sums: what the pairs
 * leave of start, the diagonal's start (with the bias and base margin for
 * i = F), in the order of gpl_shap_interaction_self. */
GPL_HD double gpl_shap_pair_self(double start, const double *mat, int32_t i, int32_t C,
                                 int64_t stride)
{
    double v = start;
    for (int32_t j = 0; j < C; j++)
        if (j != i) v -= gpl_shap_pair_value(mat, i, j, C, stride);
    return v;
}

/* Interactions, the diagonal's start: every tree's Algorithm 2 values and
 * expected value into diag (K x (F + 1), as phi above). */
GPL_HD void gpl_shap_interaction_diag(const gpl_shap_view *v, const uint16_t *row,
                                      const gpl_shap_work *w, double *diag, int64_t stride)
{
    const int32_t F = v->num_features, C = F + 1;
    for (int32_t t = 0; t < v->num_trees; t++) {
        const int64_t at = v->first[t];
        double *d = diag + (int64_t)(t % v->num_outputs) * C * stride;
        gpl_shap_alg2_row(v->nodes + at, v->frac + at, v->leaf + at, gpl_shap_tree_sets(v, t),
                          v->set_words, row, &w->path, w->stack, d, stride, 0, 0);
        d[(int64_t)F * stride] += v->mean[at];
    }
}

/* Interactions, row i of each output's matrix (feature i < F): for each
 * tree splitting on i, half the difference of its values with i present
 * and absent, into mat (output k's (i, j) at mat[k * out_stride + j *
 * stride]). on, off: F + 1 values (on_stride apart), zero on entry and on
 * return. */
GPL_HD void gpl_shap_interaction_row(const gpl_shap_view *v, const uint16_t *row, int32_t i,
                                     const gpl_shap_work *w, double *on, double *off,
                                     int64_t on_stride, double *mat, int64_t out_stride,
                                     int64_t stride)
{
    for (int32_t t = 0; t < v->num_trees; t++) {
        const int32_t *feats = v->features + v->feat_first[t];
        const int64_t nf = v->feat_first[t + 1] - v->feat_first[t];
        int64_t a = 0;
        while (a < nf && feats[a] != i) a++;
        if (a == nf) continue;
        const int64_t at = v->first[t];
        const gpl_infer_node *nodes = v->nodes + at;
        const uint32_t *sets = gpl_shap_tree_sets(v, t);
        gpl_shap_alg2_row(nodes, v->frac + at, v->leaf + at, sets, v->set_words, row, &w->path,
                          w->stack, on, on_stride, 1, i);
        gpl_shap_alg2_row(nodes, v->frac + at, v->leaf + at, sets, v->set_words, row, &w->path,
                          w->stack, off, on_stride, -1, i);
        double *m = mat + (int64_t)(t % v->num_outputs) * out_stride;
        for (int64_t b = 0; b < nf; b++) {
            const int64_t j = feats[b];
            if (j != i) m[j * stride] += (on[j * on_stride] - off[j * on_stride]) / 2;
            on[j * on_stride] = off[j * on_stride] = 0;
        }
    }
}

/* Interactions, the diagonal entry (i, i) of one output's matrix: what
 * the pairs leave of start, the diagonal's start value (with the bias and
 * base margin for i = F). row: the output's row i, (F + 1) values stride
 * apart. */
GPL_HD double gpl_shap_interaction_self(double start, const double *row, int32_t i, int32_t C,
                                        int64_t stride)
{
    double v = start;
    for (int32_t j = 0; j < C; j++)
        if (j != i) v -= row[(int64_t)j * stride];
    return v;
}

#endif
