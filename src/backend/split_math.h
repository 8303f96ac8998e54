/*
 * split_math.h -- the gain and leaf-weight formulas (XGBoost's, without
 * max_delta_step), in double, evaluated in one fixed order by every backend.
 */
#ifndef GPL_SPLIT_MATH_H
#define GPL_SPLIT_MATH_H

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

#endif
