/*
 * cox_math.h -- survival:cox's gradients over the rows' order by time,
 * shared by every backend. XGBoost walks the order once: the risk sum of a
 * time is every exp(margin) at that time or later, and a row's gradient is
 * exp(m) r - [event], its hessian exp(m) r - exp(m)^2 s, where r and s sum
 * 1/R and 1/R^2 over the events at its position or before, R their risk
 * sums. Here the sums go in blocks of GPL_COX_BLOCK positions, each a
 * fixed sequence of additions in double, so a GPU that gives each block a
 * thread adds the same numbers in the same order as the CPU:
 *
 *   1. e[p] = exp(margin of row order[p]); T[b] = the sum of block b's e
 *      from its last position down;
 *   2. S[p] = (T of the blocks after b, from the last down) + (e from the
 *      block's last position down to p): the sum of e from p on;
 *   3. R[p] = S[tie_start[p]]; U[b], V[b]: block b's sums of 1/R and 1/R^2
 *      over its events, from its first position up;
 *   4. r[p]: the U of the blocks before b, summed from the first up, then
 *      1/R of the block's events up to p added one by one; s[p] likewise
 *      from V and 1/R^2; then the row's pair, times its weight.
 */
#ifndef GPL_COX_MATH_H
#define GPL_COX_MATH_H

#include <stdint.h>

#include "det_math.h"
#include "kernel_common.h"

#define GPL_COX_BLOCK 256

/* Positions [first, last) of block b of n positions. */
GPL_HD void gpl_cox_block(int64_t b, int64_t n, int64_t *first, int64_t *last)
{
    *first = b * GPL_COX_BLOCK;
    *last = *first + GPL_COX_BLOCK < n ? *first + GPL_COX_BLOCK : n;
}

/* Step 1 of block b: e of its positions, returns T[b]. */
GPL_HD double gpl_cox_exp_block(const float *margins, int32_t stride, const uint32_t *order,
                                int64_t b, int64_t n, double *e)
{
    int64_t first, last;
    gpl_cox_block(b, n, &first, &last);
    double t = 0.0;
    for (int64_t p = last - 1; p >= first; p--) {
        e[p] = gpl_det_exp((double)margins[(int64_t)order[p] * stride]);
        t = t + e[p];
    }
    return t;
}

/* T[b] of step 1 from e already in place (the same additions): for a
 * backend that takes the exps another way. */
GPL_HD double gpl_cox_block_total(const double *e, int64_t b, int64_t n)
{
    int64_t first, last;
    gpl_cox_block(b, n, &first, &last);
    double t = 0.0;
    for (int64_t p = last - 1; p >= first; p--) t = t + e[p];
    return t;
}

/* Step 2 of block b: S of its positions from T[0..nb). */
GPL_HD void gpl_cox_suffix_block(const double *e, const double *T, int64_t nb, int64_t b,
                                 int64_t n, double *S)
{
    double after = 0.0;
    for (int64_t c = nb - 1; c > b; c--) after = after + T[c];
    int64_t first, last;
    gpl_cox_block(b, n, &first, &last);
    double w = 0.0;
    for (int64_t p = last - 1; p >= first; p--) {
        w = w + e[p];
        S[p] = after + w;
    }
}

/* Step 3 of block b: U[b] and V[b]. An event is a positive label. */
GPL_HD void gpl_cox_event_block(const double *S, const uint32_t *order,
                                const uint32_t *tie_start, const float *label, int64_t b,
                                int64_t n, double *U, double *V)
{
    int64_t first, last;
    gpl_cox_block(b, n, &first, &last);
    double u = 0.0, v = 0.0;
    for (int64_t p = first; p < last; p++) {
        if (!(label[order[p]] > 0.0f)) continue;
        const double R = S[tie_start[p]];
        u = u + 1.0 / R;
        v = v + 1.0 / (R * R);
    }
    U[b] = u;
    V[b] = v;
}

/* Step 4 of block b: each position's pair into grad[row * stride] and
 * hess[row * stride] (weights NULL: all 1), from U[0..b) and V[0..b). */
GPL_HD void gpl_cox_pair_block(const double *e, const double *S, const double *U,
                               const double *V, const uint32_t *order,
                               const uint32_t *tie_start, const float *label,
                               const float *weight, int64_t b, int64_t n, double *grad,
                               double *hess, int64_t stride)
{
    double r = 0.0, s = 0.0;
    for (int64_t c = 0; c < b; c++) {
        r = r + U[c];
        s = s + V[c];
    }
    int64_t first, last;
    gpl_cox_block(b, n, &first, &last);
    for (int64_t p = first; p < last; p++) {
        const uint32_t row = order[p];
        const int event = label[row] > 0.0f;
        if (event) {
            const double R = S[tie_start[p]];
            r = r + 1.0 / R;
            s = s + 1.0 / (R * R);
        }
        const double w = weight ? (double)weight[row] : 1.0;
        const double er = e[p] * r;
        grad[(int64_t)row * stride] = (er - (event ? 1.0 : 0.0)) * w;
        hess[(int64_t)row * stride] = (er - e[p] * e[p] * s) * w;
    }
}

#endif
