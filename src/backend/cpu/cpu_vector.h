/* cpu_vector.h -- four doubles at a time with GCC's vector extensions, for
 * the CPU backend's hot loops whose scalar code is the numeric reference
 * (gradients, ranking lambdas): the same IEEE operations in the same order,
 * lane by lane, so every lane is the scalar code's bits. */
#ifndef GPL_CPU_VECTOR_H
#define GPL_CPU_VECTOR_H

#include <stdint.h>
#include <string.h>

/* Rows a vector step handles: four doubles (one AVX register, two SSE2). */
#define LANES 4

typedef double vdouble __attribute__((vector_size(LANES * sizeof(double))));
typedef float vfloat __attribute__((vector_size(LANES * sizeof(float))));
/* What a comparison of vdoubles gives (its element type differs between
 * platforms: long here, long long there). */
typedef __typeof__((vdouble){0} < (vdouble){0}) vint64;

/* Macros, not functions: a function taking or returning a vector would
 * have a different calling convention in the AVX2 clone. */
#define vsplat(x) ((vdouble){(x), (x), (x), (x)})
/* a where mask is set, b elsewhere (mask lanes are all ones or zeros). */
#define vselect(mask, a, b) \
    ((vdouble)(((vint64)(a) & (mask)) | ((vint64)(b) & ~(mask))))
#define vall(mask) (((mask)[0] & (mask)[1] & (mask)[2] & (mask)[3]) != 0)
#define vload_floats(dst, p)                              \
    do {                                                  \
        vfloat f_;                                        \
        memcpy(&f_, (p), sizeof f_);                      \
        (dst) = __builtin_convertvector(f_, vdouble);     \
    } while (0)

/* Floats p[0], p[stride], p[2 * stride], p[3 * stride] as doubles. */
#define vgather_floats(dst, p, stride)                                         \
    do {                                                                       \
        const float *q_ = (p);                                                 \
        const int64_t s_ = (stride);                                           \
        (dst) = (vdouble){q_[0], q_[s_], q_[2 * s_], q_[3 * s_]};              \
    } while (0)

/* 1.5 * 2^52: adding it to |y| < 2^51 rounds y to an integer, to nearest
 * even, as rint does in the default rounding mode; subtracting it back
 * gives rint(y) as a double, and the low bits of the sum are the integer. */
#define ROUND_MAGIC 6755399441055744.0
#define ROUND_MAGIC_BITS 0x4338000000000000LL

/* gpl_det_exp of the lanes of x, which must lie in (-708, 709) (no NaN,
 * not the clamped ends, 2^k normal, so the scalar code scales in one
 * step too): the same IEEE operations in the same order. */
#define VEXP(x, out)                                                         \
    do {                                                                     \
        const vdouble t_ = (x) * vsplat(1.44269504088896338700e+00) +        \
                           vsplat(ROUND_MAGIC);                              \
        const vdouble k_ = t_ - vsplat(ROUND_MAGIC);                         \
        const vdouble r_ = ((x) - k_ * vsplat(6.93147180369123816490e-01)) - \
                           k_ * vsplat(1.90821492927058770002e-10);          \
        vdouble p_ = vsplat(1.0 / 6227020800.0);                             \
        p_ = p_ * r_ + vsplat(1.0 / 479001600.0);                            \
        p_ = p_ * r_ + vsplat(1.0 / 39916800.0);                             \
        p_ = p_ * r_ + vsplat(1.0 / 3628800.0);                              \
        p_ = p_ * r_ + vsplat(1.0 / 362880.0);                               \
        p_ = p_ * r_ + vsplat(1.0 / 40320.0);                                \
        p_ = p_ * r_ + vsplat(1.0 / 5040.0);                                 \
        p_ = p_ * r_ + vsplat(1.0 / 720.0);                                  \
        p_ = p_ * r_ + vsplat(1.0 / 120.0);                                  \
        p_ = p_ * r_ + vsplat(1.0 / 24.0);                                   \
        p_ = p_ * r_ + vsplat(1.0 / 6.0);                                    \
        p_ = p_ * r_ + vsplat(0.5);                                          \
        p_ = p_ * r_ + vsplat(1.0);                                          \
        p_ = p_ * r_ + vsplat(1.0);                                          \
        /* gpl_det_scale2: 2^k from its exponent bits */                    \
        const vint64 two_ = ((vint64)t_ - ROUND_MAGIC_BITS + 1023) << 52;    \
        (out) = p_ * (vdouble)two_;                                          \
    } while (0)

#define VIN_RANGE(x) vall(((x) > vsplat(-708.0)) & ((x) < vsplat(709.0)))

#endif
