/*
 * quantize.h -- gradients as fixed-point integers, so histograms are exact
 * sums whatever the order of accumulation (the same idea as XGBoost's GPU
 * quantiser and LightGBM's quantized training). The scale is a power of two
 * chosen so that the sum over all rows stays below 2^31 in magnitude:
 * max|g| * scale * num_rows < 2^31. Any node's gradient sum then fits 32
 * bits, and a (gradient, hessian) pair packs into one int64 whose sums are
 * exact too (the hessians are >= 0 and cannot borrow from the gradient
 * half); backends may accumulate either way. A row keeps 31 - log2(rows)
 * bits: 11 at a million rows, 7 at ten million.
 */
#ifndef GPL_QUANTIZE_H
#define GPL_QUANTIZE_H

#include <math.h>
#include <stdint.h>

#include "kernel_common.h"

/* The magnitude of a sum over all rows stays below 2^GPL_QUANT_SUM_BITS. */
#define GPL_QUANT_SUM_BITS 31

/* A quantized pair packed into one int64: gradient in the high half,
 * hessian (>= 0, < 2^31) in the low half. Sums of packed pairs are the
 * packed sums while the bound above holds. */
GPL_HD int64_t gpl_pack_pair(int64_t grad, int64_t hess)
{
    return (int64_t)(((uint64_t)grad << 32) + (uint64_t)hess);
}

GPL_HD int64_t gpl_packed_grad(int64_t packed) { return packed >> 32; }
GPL_HD int64_t gpl_packed_hess(int64_t packed) { return packed & 0xffffffffLL; }

/* The scale for values whose largest magnitude is max_abs, over num_rows. */
GPL_HD double gpl_quant_scale_for(double max_abs, int64_t num_rows)
{
    int row_bits = 0, value_exp = 0;
    while (row_bits < 62 && ((int64_t)1 << row_bits) <= num_rows) row_bits++;
    if (!(max_abs > 0.0) || max_abs != max_abs) return 1.0;
    frexp(max_abs, &value_exp); /* max_abs < 2^value_exp */
    int e = GPL_QUANT_SUM_BITS - row_bits - value_exp;
    if (e > 1000) e = 1000;
    if (e < -1000) e = -1000;
    return ldexp(1.0, e);
}

GPL_HD int64_t gpl_quantize(double value, double scale)
{
    return (int64_t)llrint(value * scale);
}

#endif
