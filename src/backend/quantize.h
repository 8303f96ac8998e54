/*
 * quantize.h -- gradients as fixed-point int64, so histograms are exact sums
 * whatever the order of accumulation (the same idea as XGBoost's GPU
 * quantiser). The scale is a power of two chosen so that the sum of all
 * rows cannot overflow: max|g| * scale * num_rows < 2^62.
 */
#ifndef GPL_QUANTIZE_H
#define GPL_QUANTIZE_H

#include <math.h>
#include <stdint.h>

#include "kernel_common.h"

/* The scale for values whose largest magnitude is max_abs, over num_rows. */
GPL_HD double gpl_quant_scale_for(double max_abs, int64_t num_rows)
{
    int row_bits = 0, value_exp = 0;
    while (row_bits < 62 && ((int64_t)1 << row_bits) <= num_rows) row_bits++;
    if (!(max_abs > 0.0) || max_abs != max_abs) return 1.0;
    frexp(max_abs, &value_exp); /* max_abs < 2^value_exp */
    int e = 62 - row_bits - value_exp;
    if (e > 1000) e = 1000;
    if (e < -1000) e = -1000;
    return ldexp(1.0, e);
}

GPL_HD int64_t gpl_quantize(double value, double scale)
{
    return (int64_t)llrint(value * scale);
}

#endif
