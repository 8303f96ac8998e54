/*
 * det_math.h -- an exp() built from + and * only, so that the CPU and every
 * GPU get the same bits for the same input (vendor expf/exp differ by an ulp
 * or two, which would change quantized gradients and hence models).
 * Compile without fused multiply-add (-ffp-contract=off, nvcc -fmad=false).
 */
#ifndef GPL_DET_MATH_H
#define GPL_DET_MATH_H

#include <math.h>

#include "kernel_common.h"

/* p * 2^k, exact: a power of two built from its exponent bits (ldexp is a
 * slow library call on the host). */
GPL_HD double gpl_det_scale2(double p, int k)
{
    union {
        double d;
        unsigned long long u;
    } two;
    if (k > -1022 && k < 1024) {
        two.u = (unsigned long long)(k + 1023) << 52;
        return p * two.d;
    }
    int half = k / 2;
    two.u = (unsigned long long)(half + 1023) << 52;
    double a = p * two.d;
    two.u = (unsigned long long)(k - half + 1023) << 52;
    return a * two.d;
}

GPL_HD double gpl_det_exp(double x)
{
    /* exp(x) = 2^k * exp(r), x = k ln2 + r, |r| <= ln2 / 2 (Cody-Waite). */
    const double ln2_hi = 6.93147180369123816490e-01;
    const double ln2_lo = 1.90821492927058770002e-10;
    const double inv_ln2 = 1.44269504088896338700e+00;
    if (x != x) return x;
    if (x > 709.0) return HUGE_VAL;
    if (x < -745.0) return 0.0;
    double k = rint(x * inv_ln2);
    double r = (x - k * ln2_hi) - k * ln2_lo;
    /* Taylor series to r^13/13!: below one ulp for |r| <= 0.3466. */
    double p = 1.0 / 6227020800.0;
    p = p * r + 1.0 / 479001600.0;
    p = p * r + 1.0 / 39916800.0;
    p = p * r + 1.0 / 3628800.0;
    p = p * r + 1.0 / 362880.0;
    p = p * r + 1.0 / 40320.0;
    p = p * r + 1.0 / 5040.0;
    p = p * r + 1.0 / 720.0;
    p = p * r + 1.0 / 120.0;
    p = p * r + 1.0 / 24.0;
    p = p * r + 1.0 / 6.0;
    p = p * r + 0.5;
    p = p * r + 1.0;
    p = p * r + 1.0;
    return gpl_det_scale2(p, (int)k);
}

GPL_HD double gpl_det_sigmoid(double x)
{
    return 1.0 / (1.0 + gpl_det_exp(-x));
}

#endif
