/*
 * split_math.h -- the gain and leaf-weight formulas (XGBoost's), in double,
 * evaluated in one fixed order by every backend.
 */
#ifndef GPL_SPLIT_MATH_H
#define GPL_SPLIT_MATH_H

#include <math.h>

#include "kernel_common.h"

GPL_HD double gpl_l1_threshold(double g, double alpha)
{
    if (g > alpha) return g - alpha;
    if (g < -alpha) return g + alpha;
    return 0.0;
}

/* The structure score of a node with sums G and H. */
GPL_HD double gpl_node_score(double G, double H, double lambda, double alpha)
{
    double t = gpl_l1_threshold(G, alpha);
    return (t * t) / (H + lambda);
}

/* The optimal leaf weight (before the learning rate). */
GPL_HD double gpl_leaf_weight(double G, double H, double lambda, double alpha,
                              double min_child_weight)
{
    if (H < min_child_weight || H <= 0.0) return 0.0;
    return -gpl_l1_threshold(G, alpha) / (H + lambda);
}

/* ------------------------------------------------ bounded weights
 *
 * max_delta_step and monotone_constraints (XGBoost's semantics): a node's
 * weight is the optimum, clamped to [-max_delta_step, max_delta_step] when
 * max_delta_step > 0, then to the node's bounds [lo, hi] (infinite at the
 * root; monotone splits narrow them for the children). A node's score is
 * the loss reduction its weight gives: T^2 / (H + lambda) where the
 * optimum stands (gpl_node_score's expression, so unbounded training keeps
 * its bits), else -(2 G w + (H + lambda) w^2 + 2 alpha |w|). */

/* The optimum -T / (H + lambda), clamped (see above). */
GPL_HD double gpl_clamp_weight(double w, double max_delta_step, double lo, double hi)
{
    if (max_delta_step > 0.0) {
        if (w > max_delta_step) w = max_delta_step;
        else if (w < -max_delta_step) w = -max_delta_step;
    }
    if (w < lo) return lo;
    if (w > hi) return hi;
    return w;
}

/* The score of a node with sums G and H (H + lambda > 0) whose weight is
 * bounded; its weight goes to *weight. */
GPL_HD double gpl_bounded_score(double G, double H, double lambda, double alpha,
                                double max_delta_step, double lo, double hi, double *weight)
{
    const double t = gpl_l1_threshold(G, alpha);
    const double optimum = -t / (H + lambda);
    const double w = gpl_clamp_weight(optimum, max_delta_step, lo, hi);
    *weight = w;
    if (w == optimum) return (t * t) / (H + lambda);
    const double abs_w = w < 0.0 ? -w : w;
    return -((2.0 * G * w + (H + lambda) * (w * w)) + 2.0 * alpha * abs_w);
}

/* Whether a weight may be clamped: max_delta_step set, or finite bounds. */
GPL_HD int gpl_weights_may_clamp(double max_delta_step, double lo, double hi)
{
    return max_delta_step > 0.0 || lo > -HUGE_VAL || hi < HUGE_VAL;
}

/* gpl_bounded_score without the weight: the score of a node the search
 * splits (the gains' parent). */
GPL_HD double gpl_bounded_node_score(double G, double H, double lambda, double alpha,
                                     double max_delta_step, double lo, double hi)
{
    double w;
    return gpl_bounded_score(G, H, lambda, alpha, max_delta_step, lo, hi, &w);
}

/* Whether children of weights wl (left) and wr keep a monotone constraint
 * (1: increasing, -1: decreasing, 0: none). */
GPL_HD int gpl_monotone_ok(int constraint, double wl, double wr)
{
    if (constraint > 0) return wl <= wr;
    if (constraint < 0) return wl >= wr;
    return 1;
}

/* The gain of children with sums (gl, hl) and (gr, hr) in a node of
 * bounds [lo, hi] whose score is parent; *ok = 0 when their weights break
 * the split feature's monotone constraint. */
GPL_HD double gpl_bounded_gain(double gl, double hl, double gr, double hr, double lambda,
                               double alpha, double max_delta_step, double lo, double hi,
                               int constraint, double parent, int *ok)
{
    double wl, wr;
    const double sl = gpl_bounded_score(gl, hl, lambda, alpha, max_delta_step, lo, hi, &wl);
    const double sr = gpl_bounded_score(gr, hr, lambda, alpha, max_delta_step, lo, hi, &wr);
    *ok = gpl_monotone_ok(constraint, wl, wr);
    return sl + sr - parent;
}

/* LightGBM's monotone_penalty: the factor of the gain of a split on a
 * monotone feature at a node of this depth (the root's is 0). A penalty
 * p forbids such splits on the first floor(p) levels (a factor of 1e-10
 * there), and weighs them less below. */
GPL_HD double gpl_monotone_penalty_factor(int depth, double penalty)
{
    const double epsilon = 1e-10;
    if (penalty >= depth + 1.0) return epsilon;
    if (penalty <= 1.0) return 1.0 - penalty / pow(2.0, depth) + epsilon;
    return 1.0 - pow(2.0, penalty - 1.0 - depth) + epsilon;
}

/* The bounds of the children of a node with bounds own[0..1] after a split
 * of this constraint whose children weigh wl and wr: the parent's, and
 * for a monotone split the midpoint of the weights as the upper bound of
 * the child that must stay lower and the lower bound of the other. */
GPL_HD void gpl_monotone_child_bounds(int constraint, double wl, double wr, const double *own,
                                      double *left, double *right)
{
    left[0] = right[0] = own[0];
    left[1] = right[1] = own[1];
    if (constraint == 0) return;
    const double mid = (wl + wr) / 2;
    if (constraint > 0) {
        left[1] = mid;
        right[0] = mid;
    } else {
        left[0] = mid;
        right[1] = mid;
    }
}

/* A leaf's weight (before the learning rate) under bounds. */
GPL_HD double gpl_bounded_leaf_weight(double G, double H, double lambda, double alpha,
                                      double min_child_weight, double max_delta_step,
                                      double lo, double hi)
{
    return gpl_clamp_weight(gpl_leaf_weight(G, H, lambda, alpha, min_child_weight),
                            max_delta_step, lo, hi);
}

/* Is candidate (gain, feature, bin, dl) better than the best so far? Larger
 * gain wins; ties go to the smallest (feature, bin, default_left), so any
 * parallel reduction order picks the same split. */
GPL_HD int gpl_split_better(double gain, int feature, int bin, int dl,
                            double best_gain, int best_feature, int best_bin,
                            int best_dl)
{
    if (gain != best_gain) return gain > best_gain;
    if (best_feature < 0) return 0;
    if (feature != best_feature) return feature < best_feature;
    if (bin != best_bin) return bin < best_bin;
    return dl < best_dl;
}

/* ------------------------------------------------------- categories
 *
 * A categorical feature's candidates, the same on every backend:
 *   - one-hot (at most max_cat_to_onehot value bins): value bin b alone
 *     goes left, for every b with a non-zero hessian; key b; and key 0,
 *     no category left (missing values alone, default_left 1);
 *   - partition (more bins): the bins with a hessian sum of at least
 *     min_child_weight (and above 0) are ordered by gpl_cat_ratio, ties by bin; the
 *     first k of that order (direction 0) or of its reverse (direction 1)
 *     go left, 1 <= k <= max_cat_threshold, as LightGBM's groups: k is
 *     tried only where the bins added since the last k tried in that
 *     direction hold at least min_data_per_group rows, and the scan stops
 *     at the first k whose other bins (missing values included) hold
 *     fewer (gpl_cat_group_step); rows as gpl_cat_rows_at_least counts
 *     them. Key
 *     gpl_cat_key(direction, k). Gains take lambda + cat_l2.
 * Every other value bin, and an unused category, goes right; missing
 * values go either way (both tried where there are any), as for numbers.
 * Keys order the ties of gpl_split_better like bins do. */
#define GPL_CAT_KEY_DIRECTION 256

GPL_HD int gpl_cat_key(int direction, int k)
{
    return direction * GPL_CAT_KEY_DIRECTION + k;
}

/* The ordering value of a category with sums g and h (real units). */
GPL_HD double gpl_cat_ratio(double g, double h, double cat_smooth)
{
    return g / (h + cat_smooth);
}

/* Do the hessian sum `part` of a node whose hessian sum is `whole` stand
 * for at least `rows` of the node's node_rows rows? Rows are counted by
 * hessian, part / whole of the node's rows, as LightGBM counts them; the
 * products, not a quotient, so that every backend compares the same
 * doubles. node_rows 0 (unknown): yes. */
GPL_HD int gpl_cat_rows_at_least(long long part, long long whole, unsigned int node_rows,
                                 double rows)
{
    if (node_rows == 0u) return 1;
    return (double)part * (double)node_rows >= rows * (double)whole;
}

/* LightGBM's min_data_in_leaf: do both children of a candidate, of
 * hessian sums left and right, hold at least min_rows of the node's
 * node_rows rows (counted as gpl_cat_rows_at_least counts them)? 0: no
 * limit. */
GPL_HD int gpl_children_rows_ok(long long left, long long right, unsigned int node_rows,
                                double min_rows)
{
    if (!(min_rows > 0.0)) return 1;
    const long long whole = left + right;
    return gpl_cat_rows_at_least(left, whole, node_rows, min_rows) &&
           gpl_cat_rows_at_least(right, whole, node_rows, min_rows);
}

/* One step of a direction's scan: the category of hessian sum cat joins
 * the left set, whose sum is now left, in a node of sums whole and
 * node_rows rows; added (0 when the scan starts) carries the hessian of
 * the categories since the last k tried. Returns 1: try this k; 0: skip
 * it; -1: stop the scan (the other side is too small). */
GPL_HD int gpl_cat_group_step(long long *added, long long cat, long long left, long long whole,
                              unsigned int node_rows, double min_data_per_group)
{
    *added += cat;
    if (!gpl_cat_rows_at_least(whole - left, whole, node_rows, min_data_per_group)) return -1;
    if (!gpl_cat_rows_at_least(*added, whole, node_rows, min_data_per_group)) return 0;
    *added = 0;
    return 1;
}

/* Does category a (ratio ra, bin ba) come before category b? */
GPL_HD int gpl_cat_before(double ra, int ba, double rb, int bb)
{
    if (ra != rb) return ra < rb;
    return ba < bb;
}

#endif
