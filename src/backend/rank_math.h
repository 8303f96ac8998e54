/*
 * rank_math.h -- the LambdaMART gradients of rank:ndcg, rank:pairwise and
 * rank:map (XGBoost's lambdarank objectives), as pieces every backend
 * composes the same way, so that every backend gets the same bits.
 *
 * For each query (rows group_ptr[q] .. group_ptr[q + 1], n of them):
 *  1. Order: the rows by margin, descending, ties by row index
 *     (gpl_rank_before; -0 equals +0). Position p holds row order[p].
 *     MAP also needs, by position, the running count of relevant rows and
 *     of precision terms (gpl_rank_map_step, summed in position order).
 *  2. Pairs of positions (i, j):
 *     topk: every i < min(n, k) with every j in (i, n);
 *     mean: the positions by grade, descending, ties by position
 *       (gpl_rank_grade_before) give yorder; the rows of equal grade form
 *       runs [lo, hi) of it. For each t of yorder and s < num_pair,
 *       (yorder[t], yorder[gpl_rank_partner(...)]) is a pair, unless t's
 *       run is the whole query.
 *  3. A pair of different grades: high is the one of the larger grade;
 *     gpl_rank_pair gives its (lambda, hess) as floats. In fixed point
 *     (gpl_rank_fixed), the row at high gets (+lambda, +hess), the row at
 *     low (-lambda, +hess) and the query's lambda sum +lambda. Integer sums
 *     do not depend on the order of the additions: threads and atomics are
 *     free. Sums wrap as uint64 (see docs/ranking.md for the bound).
 *  4. Each row: gpl_rank_finish of its sums with the query's norm
 *     (gpl_rank_norm) and weight.
 * Rows that subsampling leaves out then get a zero pair, as for every
 * objective.
 */
#ifndef GPL_RANK_MATH_H
#define GPL_RANK_MATH_H

#include <stdint.h>

#include "backend.h"
#include "det_math.h"
#include "kernel_common.h"

/* 2^32: the fixed-point unit of the per-row sums. */
#define GPL_RANK_FIXED_ONE 4294967296.0
#define GPL_RANK_FIXED_INV (1.0 / 4294967296.0)

/* Whether the row (margin a, index ra) comes before (b, rb) in the model's
 * order: larger margin first, equal margins by row index. */
GPL_HD int gpl_rank_before(float a, int64_t ra, float b, int64_t rb)
{
    return a > b || (a == b && ra < rb);
}

/* Whether position pa of grade a comes before position pb of grade b in
 * the grade order of the mean method. */
GPL_HD int gpl_rank_grade_before(float a, int64_t pa, float b, int64_t pb)
{
    return a > b || (a == b && pa < pb);
}

/* A float in fixed point, truncated towards zero (exact: a float times 2^32
 * is a double). */
GPL_HD int64_t gpl_rank_fixed(float v)
{
    return (int64_t)((double)v * GPL_RANK_FIXED_ONE);
}

/* The NDCG gain of a grade: 2^grade - 1, or the grade itself. Grades are
 * integers in [0, 31] when exp_gain (the core checks). */
GPL_HD double gpl_rank_gain(float grade, int32_t exp_gain)
{
    return exp_gain ? (double)((1u << (uint32_t)grade) - 1u) : (double)grade;
}

/* |change in NDCG| when rows of gains gh, gl at discounts dh, dl swap. */
GPL_HD double gpl_rank_delta_ndcg_gains(double gh, double gl, double dh, double dl,
                                        double inv_idcg)
{
    const double original = gh * dh + gl * dl;
    const double changed = gl * dh + gh * dl;
    double d = (original - changed) * inv_idcg;
    return d < 0.0 ? -d : d;
}

/* |change in NDCG| when the rows at positions p_high and p_low swap. */
GPL_HD double gpl_rank_delta_ndcg(float y_high, float y_low, int64_t p_high, int64_t p_low,
                                  double inv_idcg, const double *discount, int32_t exp_gain)
{
    return gpl_rank_delta_ndcg_gains(gpl_rank_gain(y_high, exp_gain),
                                     gpl_rank_gain(y_low, exp_gain), discount[p_high],
                                     discount[p_low], inv_idcg);
}

/* MAP's running sums at position p from those at p - 1 (or zeros at p = 0):
 * n_rel counts relevant rows (grades 0 or 1), acc adds grade / (p + 1). */
GPL_HD void gpl_rank_map_step(float grade, int64_t p, double *n_rel, double *acc)
{
    *n_rel = *n_rel + (double)grade;
    *acc = *acc + (double)grade / ((double)p + 1.0);
}

/* |change in average precision| when the rows at positions p_high and
 * p_low swap (XGBoost's DeltaMAP); n_rel and acc are the query's running
 * sums by position, n its size. */
GPL_HD double gpl_rank_delta_map(float y_high, float y_low, int64_t p_high, int64_t p_low,
                                 const double *n_rel, const double *acc, int64_t n)
{
    if (p_high > p_low) {
        int64_t tp = p_high;
        p_high = p_low;
        p_low = tp;
        float ty = y_high;
        y_high = y_low;
        y_low = ty;
    }
    const double r_h = (double)p_high + 1.0, r_l = (double)p_low + 1.0;
    const double total = n_rel[n - 1];
    const double m = n_rel[p_low], nh = n_rel[p_high];
    const double b = acc[p_low - 1] - acc[p_high];
    double d;
    if (y_high < y_low) d = ((m / r_l - (nh + 1.0) / r_h) - b) / total;
    else d = ((nh / r_h - m / r_l) + b) / total;
    return d < 0.0 ? -d : d;
}

/* The pair's lambda and hessian (XGBoost's LambdaGrad): s_high, s_low are
 * the margins of the rows of higher and lower grade, delta the |change in
 * the metric| (1 for rank:pairwise). by_diff: lambdarank_score_normalization
 * and the query's margins are not all equal. */
GPL_HD void gpl_rank_pair(float s_high, float s_low, double delta, int by_diff, float *lambda,
                          float *hess)
{
    const double diff = (double)s_high - (double)s_low;
    const double sig = gpl_det_sigmoid(diff);
    if (by_diff) delta = delta / ((diff < 0.0 ? -diff : diff) + 0.01);
    double h = sig * (1.0 - sig);
    if (h < 1e-16) h = 1e-16;
    *lambda = (float)((sig - 1.0) * delta);
    *hess = (float)(h * delta * 2.0);
}

/* The partner of grade-order index t in the mean method: uniform over the
 * indexes outside t's run [lo, hi) of equal grades (n - (hi - lo) > 0 of
 * them), from a counter-based hash of (seed, round, query, t, s). */
GPL_HD int64_t gpl_rank_partner(uint64_t seed, int32_t round, int64_t query, int64_t t,
                                int32_t s, int64_t lo, int64_t hi, int64_t n)
{
    uint64_t z = seed ^ ((uint64_t)(uint32_t)round << 40) ^ (uint64_t)query;
    for (int k = 0; k < 2; k++) {
        z += 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        if (k == 0) z ^= ((uint64_t)t << 20) ^ (uint64_t)(uint32_t)s;
    }
    const int64_t r = (int64_t)(z % (uint64_t)(n - (hi - lo)));
    return r < lo ? r : r + (hi - lo);
}

/* The factor of a query's gradients (lambdarank_normalization): 1 / k for
 * the mean method; for topk log2(1 + L) / L, L = -2 * the query's lambda
 * sum, when L > 0. */
GPL_HD double gpl_rank_norm(const gpl_rank_request *r, int64_t lambda_sum)
{
    if (!r->normalization) return 1.0;
    if (r->pair_method == GPL_RANK_MEAN) return 1.0 / (double)r->num_pair;
    const double sum = -2.0 * ((double)lambda_sum * GPL_RANK_FIXED_INV);
    if (!(sum > 0.0)) return 1.0;
    return gpl_det_log(1.0 + sum) / 0.69314718055994530942 / sum;
}

/* A row's gradient pair from its fixed-point sums. */
GPL_HD void gpl_rank_finish(int64_t g_sum, int64_t h_sum, double norm, double group_weight,
                            double *grad, double *hess)
{
    *grad = (double)g_sum * GPL_RANK_FIXED_INV * norm * group_weight;
    *hess = (double)h_sum * GPL_RANK_FIXED_INV * norm * group_weight;
}

#endif
