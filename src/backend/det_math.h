/*
 * det_math.h -- exp(), log() and sqrt() built from +, -, * and / only, so
 * that the CPU and every GPU get the same bits for the same input (vendor
 * exp/log differ by an ulp or two, and Vulkan does not promise a correctly
 * rounded double sqrt, which would change quantized gradients and hence
 * models).
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

/* The bits of a double and back (the GPU ports use their own casts). */
GPL_HD unsigned long long gpl_det_bits(double x)
{
    union {
        double d;
        unsigned long long u;
    } v;
    v.d = x;
    return v.u;
}

GPL_HD double gpl_det_from_bits(unsigned long long u)
{
    union {
        double d;
        unsigned long long u;
    } v;
    v.u = u;
    return v.d;
}

/* x = m * 2^e with m in [1, 2), for finite x > 0 (subnormals scaled up
 * first). Returns m, sets *e. */
GPL_HD double gpl_det_split(double x, int *e)
{
    int bias = 0;
    if (x < 2.2250738585072014e-308) { /* subnormal: times 2^54 */
        x *= 18014398509481984.0;
        bias = 54;
    }
    unsigned long long u = gpl_det_bits(x);
    *e = (int)((u >> 52) & 0x7ff) - 1023 - bias;
    return gpl_det_from_bits((u & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
}

/* Natural log: x = m * 2^e with m in [sqrt(1/2), sqrt(2)), and
 * log(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172, by its series. */
GPL_HD double gpl_det_log(double x)
{
    const double ln2_hi = 6.93147180369123816490e-01;
    const double ln2_lo = 1.90821492927058770002e-10;
    if (x != x || x < 0.0) return (x - x) / (x - x); /* NaN */
    if (x == 0.0) return -HUGE_VAL;
    if (x > 1.7976931348623157e308) return x;
    int e;
    double m = gpl_det_split(x, &e);
    if (m > 1.4142135623730951) {
        m = m * 0.5;
        e = e + 1;
    }
    const double s = (m - 1.0) / (m + 1.0);
    const double z = s * s;
    /* sum of z^i / (2i + 1), i = 0..12: below one ulp for |s| < 0.172. */
    double p = 1.0 / 25.0;
    p = p * z + 1.0 / 23.0;
    p = p * z + 1.0 / 21.0;
    p = p * z + 1.0 / 19.0;
    p = p * z + 1.0 / 17.0;
    p = p * z + 1.0 / 15.0;
    p = p * z + 1.0 / 13.0;
    p = p * z + 1.0 / 11.0;
    p = p * z + 1.0 / 9.0;
    p = p * z + 1.0 / 7.0;
    p = p * z + 1.0 / 5.0;
    p = p * z + 1.0 / 3.0;
    p = p * z + 1.0;
    const double k = (double)e;
    return k * ln2_hi + (k * ln2_lo + 2.0 * s * p);
}

/* log(1 + x) for x > -1, accurate near 0: the rounding of u = 1 + x is
 * undone by the factor x / (u - 1). */
GPL_HD double gpl_det_log1p(double x)
{
    const double u = 1.0 + x;
    if (u == 1.0) return x;
    if (u > 1.7976931348623157e308) return u;
    return gpl_det_log(u) * (x / (u - 1.0));
}

/* Square root of x >= 0 by Newton's iteration from a start within 25%:
 * six steps converge to the last bits, the same bits on every device. */
GPL_HD double gpl_det_sqrt(double x)
{
    if (x != x || x < 0.0) return (x - x) / (x - x);
    if (x == 0.0 || x > 1.7976931348623157e308) return x;
    int e;
    double m = gpl_det_split(x, &e);
    if (e % 2 != 0) { /* make the exponent even: m in [2, 4) */
        m = m * 2.0;
        e = e - 1;
    }
    double y = gpl_det_scale2(0.5 * (1.0 + m), e / 2);
    for (int i = 0; i < 6; i++) y = 0.5 * (y + x / y);
    return y;
}

#endif
