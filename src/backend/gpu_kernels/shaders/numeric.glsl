// numeric.glsl -- the shared numeric headers of src/backend (det_math.h,
// objective_math.h, split_math.h) in GLSL, operation for operation, so the
// device gets the same bits as the CPU reference.
//
// The arithmetic is written over a type f64 and the functions f64_add,
// f64_mul, ... so that one source builds two variants:
//   - float64 (default): f64 is double, and every operation is `precise`
//     (SPIR-V may otherwise fuse a*b+c into one rounding, which the numeric
//     contract of backend.h forbids). Needs shaderFloat64 and shaderInt64.
//   - soft (GPL_SOFT_F64 defined): f64 is uint64_t holding the bits of a
//     double, and every operation is IEEE-754 binary64 in integer
//     arithmetic (soft_f64.glsl), with the same bits as the float64
//     variant. Needs shaderInt64 only; no float64 type in the SPIR-V, so
//     the kernel translates to Metal.
// Doubles cross buffers and push constants as uvec2 words (low, high) in
// both variants: MSL 2.1 has neither double nor 64-bit integers in buffers.
//
// Compilers inline every call, and an operation of the soft variant is a
// few hundred integer instructions: series run as loops over constant
// tables and each function is called from as few places as possible
// ([[dont_unroll]] where the count is known), or the soft kernels take
// drivers minutes and gigabytes to compile.
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_control_flow_attributes : require

#ifdef GPL_SOFT_F64
#include "soft_f64.glsl"

#define f64 uint64_t
#define f64x2 u64vec2
// A constant: its bits here, its decimal value in the float64 variant.
#define F64C(bits, value) (bits)

f64 f64_add(f64 a, f64 b) { return sf_add(a, b); }
f64 f64_sub(f64 a, f64 b) { return sf_sub(a, b); }
f64 f64_mul(f64 a, f64 b) { return sf_mul(a, b); }
f64 f64_div(f64 a, f64 b) { return sf_div(a, b); }
f64 f64_neg(f64 a) { return a ^ SF_SIGN; }
f64 f64_abs(f64 a) { return a & SF_MAG; }
bool f64_eq(f64 a, f64 b) { return sf_eq(a, b); }
bool f64_lt(f64 a, f64 b) { return sf_lt(a, b); }
bool f64_gt(f64 a, f64 b) { return sf_lt(b, a); }
f64 f64_from_float(float x) { return sf_from_f32(floatBitsToUint(x)); }
f64 f64_from_i64(int64_t x) { return sf_from_i64(x); }
f64 f64_from_bits(uint64_t b) { return b; }
f64 f64_from_words(uvec2 w) { return packUint2x32(w); }
uvec2 f64_words(f64 a) { return unpackUint2x32(a); }
uint64_t f64_bits(f64 a) { return a; }
// rint and llrint: nearest integer, ties to even.
f64 f64_round_even(f64 a) { return sf_round_even(a); }
int64_t f64_llrint(f64 a) { return sf_to_i64(a); }
// (float)a, as the float's bits.
uint f64_to_float_bits(f64 a) { return sf_to_f32(a); }

#else

#define f64 double
#define f64x2 dvec2
#define F64C(bits, value) (value)

f64 f64_add(f64 a, f64 b) { precise f64 r = a + b; return r; }
f64 f64_sub(f64 a, f64 b) { precise f64 r = a - b; return r; }
f64 f64_mul(f64 a, f64 b) { precise f64 r = a * b; return r; }
f64 f64_div(f64 a, f64 b) { precise f64 r = a / b; return r; }
f64 f64_neg(f64 a) { return -a; }
f64 f64_abs(f64 a) { return abs(a); }
bool f64_eq(f64 a, f64 b) { return a == b; }
bool f64_lt(f64 a, f64 b) { return a < b; }
bool f64_gt(f64 a, f64 b) { return a > b; }
f64 f64_from_float(float x) { return double(x); }
f64 f64_from_i64(int64_t x) { return double(x); }
f64 f64_from_bits(uint64_t b) { return packDouble2x32(unpackUint2x32(b)); }
f64 f64_from_words(uvec2 w) { return packDouble2x32(w); }
uvec2 f64_words(f64 a) { return unpackDouble2x32(a); }
uint64_t f64_bits(f64 a) { return packUint2x32(unpackDouble2x32(a)); }
// rint by the 2^52 trick (|a| + 2^52 rounds to an integer, ties to even,
// and subtracting 2^52 back is exact), not roundEven(): Mesa's lavapipe
// got roundEven of a double wrong by one in some cases, which changed
// quantized gradients.
f64 f64_round_even(f64 a)
{
    if (!(abs(a) < 4503599627370496.0LF)) return a;
    precise f64 t = abs(a) + 4503599627370496.0LF;
    precise f64 r = t - 4503599627370496.0LF;
    return (unpackDouble2x32(a).y & 0x80000000u) != 0u ? -r : r;
}
int64_t f64_llrint(f64 a) { return int64_t(f64_round_even(a)); }
uint f64_to_float_bits(f64 a) { return floatBitsToUint(float(a)); }

#endif

const int OBJ_SQUARED_ERROR = 0;
const int OBJ_LOGISTIC = 1;
const int OBJ_SOFTMAX = 2;
const int OBJ_ABSOLUTE_ERROR = 3;
const int OBJ_POISSON = 4;
const int OBJ_GAMMA = 5;
const int OBJ_TWEEDIE = 6;
const int OBJ_SQUARED_LOG_ERROR = 7;
const int OBJ_PSEUDO_HUBER = 8;
const int OBJ_QUANTILE = 9;
const int OBJ_HINGE = 10;
const int OBJ_EXPECTILE = 16;

#define F64_ZERO F64C(0x0000000000000000UL, 0.0LF)
#define F64_HALF F64C(0x3fe0000000000000UL, 0.5LF)
#define F64_ONE F64C(0x3ff0000000000000UL, 1.0LF)
#define F64_TWO F64C(0x4000000000000000UL, 2.0LF)
#define F64_MINUS_ONE F64C(0xbff0000000000000UL, -1.0LF)
#define F64_MIN_HESS F64C(0x3c9cd2b297d889bcUL, 1e-16LF)
#define F64_DBL_MAX F64C(0x7fefffffffffffffUL, 1.7976931348623157e308LF)
#define F64_NEG_INF f64_from_bits(0xfff0000000000000UL)

// gpl_det_exp's series, 1/13! down to 1/0!, in Horner order.
const f64 EXP_SERIES[14] = f64[14](
    F64C(0x3de6124613a86d09UL, 1.0LF / 6227020800.0LF),
    F64C(0x3e21eed8eff8d898UL, 1.0LF / 479001600.0LF),
    F64C(0x3e5ae64567f544e4UL, 1.0LF / 39916800.0LF),
    F64C(0x3e927e4fb7789f5cUL, 1.0LF / 3628800.0LF),
    F64C(0x3ec71de3a556c734UL, 1.0LF / 362880.0LF),
    F64C(0x3efa01a01a01a01aUL, 1.0LF / 40320.0LF),
    F64C(0x3f2a01a01a01a01aUL, 1.0LF / 5040.0LF),
    F64C(0x3f56c16c16c16c17UL, 1.0LF / 720.0LF),
    F64C(0x3f81111111111111UL, 1.0LF / 120.0LF),
    F64C(0x3fa5555555555555UL, 1.0LF / 24.0LF),
    F64C(0x3fc5555555555555UL, 1.0LF / 6.0LF),
    F64_HALF, F64_ONE, F64_ONE);

// gpl_det_log's series, 1/25 down to 1/1, in Horner order.
const f64 LOG_SERIES[13] = f64[13](
    F64C(0x3fa47ae147ae147bUL, 1.0LF / 25.0LF),
    F64C(0x3fa642c8590b2164UL, 1.0LF / 23.0LF),
    F64C(0x3fa8618618618618UL, 1.0LF / 21.0LF),
    F64C(0x3faaf286bca1af28UL, 1.0LF / 19.0LF),
    F64C(0x3fae1e1e1e1e1e1eUL, 1.0LF / 17.0LF),
    F64C(0x3fb1111111111111UL, 1.0LF / 15.0LF),
    F64C(0x3fb3b13b13b13b14UL, 1.0LF / 13.0LF),
    F64C(0x3fb745d1745d1746UL, 1.0LF / 11.0LF),
    F64C(0x3fbc71c71c71c71cUL, 1.0LF / 9.0LF),
    F64C(0x3fc2492492492492UL, 1.0LF / 7.0LF),
    F64C(0x3fc999999999999aUL, 1.0LF / 5.0LF),
    F64C(0x3fd5555555555555UL, 1.0LF / 3.0LF),
    F64_ONE);

// 2^e for -1022 < e < 1024, from its exponent bits.
f64 pow2(int e) { return f64_from_bits(uint64_t(uint(e + 1023)) << 52); }

// p * 2^k, exact (gpl_det_scale2).
f64 det_scale2(f64 p, int k)
{
    if (k > -1022 && k < 1024) return f64_mul(p, pow2(k));
    int half_k = k / 2;
    return f64_mul(f64_mul(p, pow2(half_k)), pow2(k - half_k));
}

// gpl_det_exp: Cody-Waite reduction and a Taylor series, + and * only.
f64 det_exp(f64 x)
{
    const f64 ln2_hi = F64C(0x3fe62e42fee00000UL, 6.93147180369123816490e-01LF);
    const f64 ln2_lo = F64C(0x3dea39ef35793c76UL, 1.90821492927058770002e-10LF);
    const f64 inv_ln2 = F64C(0x3ff71547652b82feUL, 1.44269504088896338700e+00LF);
    if (!f64_eq(x, x)) return x;
    if (f64_gt(x, F64C(0x4086280000000000UL, 709.0LF)))
        return f64_from_bits(0x7ff0000000000000UL);
    if (f64_lt(x, F64C(0xc087480000000000UL, -745.0LF))) return F64_ZERO;
    const f64 k = f64_round_even(f64_mul(x, inv_ln2));
    const f64 r = f64_sub(f64_sub(x, f64_mul(k, ln2_hi)), f64_mul(k, ln2_lo));
    f64 p = EXP_SERIES[0];
    [[dont_unroll]] for (int i = 1; i < 14; i++) p = f64_add(f64_mul(p, r), EXP_SERIES[i]);
    // k is integral and within [-1075, 1023]: the conversion is exact.
    return det_scale2(p, int(f64_llrint(k)));
}

f64 det_sigmoid(f64 x)
{
    return f64_div(F64_ONE, f64_add(F64_ONE, det_exp(f64_neg(x))));
}

// gpl_det_split: x = m * 2^e with m in [1, 2), for finite x > 0; returns m.
f64 det_split(f64 x, out int e)
{
    int bias = 0;
    if (f64_lt(x, F64C(0x0010000000000000UL, 2.2250738585072014e-308LF))) {
        x = f64_mul(x, F64C(0x4350000000000000UL, 18014398509481984.0LF));
        bias = 54;
    }
    const uint64_t u = f64_bits(x);
    e = int(uint(u >> 52) & 0x7ffu) - 1023 - bias;
    return f64_from_bits((u & 0x000fffffffffffffUL) | 0x3ff0000000000000UL);
}

// The NaN gpl_det_log and gpl_det_sqrt return for x < 0 or NaN.
f64 det_nan(f64 x) { return f64_div(f64_sub(x, x), f64_sub(x, x)); }

// gpl_det_log: 2 atanh((m - 1) / (m + 1)) by its series, plus e ln2.
f64 det_log(f64 x)
{
    const f64 ln2_hi = F64C(0x3fe62e42fee00000UL, 6.93147180369123816490e-01LF);
    const f64 ln2_lo = F64C(0x3dea39ef35793c76UL, 1.90821492927058770002e-10LF);
    if (!f64_eq(x, x) || f64_lt(x, F64_ZERO)) return det_nan(x);
    if (f64_eq(x, F64_ZERO)) return F64_NEG_INF;
    if (f64_gt(x, F64_DBL_MAX)) return x;
    int e;
    f64 m = det_split(x, e);
    if (f64_gt(m, F64C(0x3ff6a09e667f3bcdUL, 1.4142135623730951LF))) {
        m = f64_mul(m, F64_HALF);
        e = e + 1;
    }
    const f64 s = f64_div(f64_sub(m, F64_ONE), f64_add(m, F64_ONE));
    const f64 z = f64_mul(s, s);
    f64 p = LOG_SERIES[0];
    p = f64_add(f64_mul(p, z), LOG_SERIES[1]);
    p = f64_add(f64_mul(p, z), LOG_SERIES[2]);
    p = f64_add(f64_mul(p, z), LOG_SERIES[3]);
    p = f64_add(f64_mul(p, z), LOG_SERIES[4]);
    p = f64_add(f64_mul(p, z), LOG_SERIES[5]);
    p = f64_add(f64_mul(p, z), LOG_SERIES[6]);
    p = f64_add(f64_mul(p, z), LOG_SERIES[7]);
    p = f64_add(f64_mul(p, z), LOG_SERIES[8]);
    p = f64_add(f64_mul(p, z), LOG_SERIES[9]);
    p = f64_add(f64_mul(p, z), LOG_SERIES[10]);
    p = f64_add(f64_mul(p, z), LOG_SERIES[11]);
    p = f64_add(f64_mul(p, z), LOG_SERIES[12]);
    // (double)e, from |e| and its sign: the soft variant's conversion of
    // a negative int64 gave wrong bits on lavapipe.
    const f64 k_abs = f64_from_i64(int64_t(abs(e)));
    const f64 k = e < 0 ? f64_neg(k_abs) : k_abs;
    return f64_add(f64_mul(k, ln2_hi),
                   f64_add(f64_mul(k, ln2_lo), f64_mul(f64_mul(F64_TWO, s), p)));
}

// gpl_det_log1p: log(u) * (x / (u - 1)), u = 1 + x.
f64 det_log1p(f64 x)
{
    const f64 u = f64_add(F64_ONE, x);
    if (f64_eq(u, F64_ONE)) return x;
    if (f64_gt(u, F64_DBL_MAX)) return u;
    return f64_mul(det_log(u), f64_div(x, f64_sub(u, F64_ONE)));
}

// gpl_det_sqrt: six Newton steps from a start within 25%.
f64 det_sqrt(f64 x)
{
    if (!f64_eq(x, x) || f64_lt(x, F64_ZERO)) return det_nan(x);
    if (f64_eq(x, F64_ZERO) || f64_gt(x, F64_DBL_MAX)) return x;
    int e;
    f64 m = det_split(x, e);
    // e % 2 != 0 in C; GLSL leaves % of a negative operand undefined.
    if ((e & 1) != 0) {
        m = f64_mul(m, F64_TWO);
        e = e - 1;
    }
    // e is even: the shift is C's e / 2.
    f64 y = det_scale2(f64_mul(F64_HALF, f64_add(F64_ONE, m)), e >> 1);
    [[dont_unroll]] for (int i = 0; i < 6; i++)
        y = f64_mul(F64_HALF, f64_add(y, f64_div(x, y)));
    return y;
}

// gpl_objective_single: returns (grad, hess); param as in backend.h. The
// kinds share one call of det_exp (twice for Poisson and Tweedie), one of
// det_log1p and one of det_sqrt, the same operations as the C.
f64x2 objective_single(int objective, float margin, float label, float weight, f64 param)
{
    const f64 m = f64_from_float(margin), y = f64_from_float(label);
    // The arguments of exp: sigmoid's and gamma's -m, Poisson's m and
    // m + max_delta_step, Tweedie's (1 - rho) m and (2 - rho) m.
    int exps = 0;
    f64 x0 = m, x1 = m;
    if (objective == OBJ_LOGISTIC || objective == OBJ_GAMMA) {
        exps = 1;
        x0 = f64_neg(m);
    } else if (objective == OBJ_POISSON) {
        exps = 2;
        x1 = f64_add(m, param);
    } else if (objective == OBJ_TWEEDIE) {
        exps = 2;
        x0 = f64_mul(f64_sub(F64_ONE, param), m);
        x1 = f64_mul(f64_sub(F64_TWO, param), m);
    }
    f64 e0 = F64_ZERO, e1 = F64_ZERO;
    [[dont_unroll]] for (int i = 0; i < exps; i++) {
        const f64 e = det_exp(i == 0 ? x0 : x1);
        if (i == 0) e0 = e; else e1 = e;
    }
    // Squared log error: the margin clamped to -1 + 1e-6, and log1p of it
    // and of the label.
    const f64 floor_q = F64C(0xbfeffffde7210be9UL, -0.999999LF); // -1.0 + 1e-6
    const f64 q = f64_lt(m, floor_q) ? floor_q : m;
    f64 lq = F64_ZERO, ly = F64_ZERO;
    if (objective == OBJ_SQUARED_LOG_ERROR) {
        lq = det_log1p(q);
        ly = det_log1p(y);
    }
    f64 g, h;
    if (objective == OBJ_LOGISTIC) {
        const f64 p = f64_div(F64_ONE, f64_add(F64_ONE, e0)); // det_sigmoid
        g = f64_sub(p, y);
        h = f64_mul(p, f64_sub(F64_ONE, p));
        if (f64_lt(h, F64_MIN_HESS)) h = F64_MIN_HESS;
    } else if (objective == OBJ_ABSOLUTE_ERROR) {
        g = f64_gt(m, y) ? F64_ONE : (f64_lt(m, y) ? F64_MINUS_ONE : F64_ZERO);
        h = F64_ONE;
    } else if (objective == OBJ_POISSON) {
        g = f64_sub(e0, y);
        h = e1;
    } else if (objective == OBJ_GAMMA) {
        const f64 r = f64_mul(y, e0);
        g = f64_sub(F64_ONE, r);
        h = f64_lt(r, F64_MIN_HESS) ? F64_MIN_HESS : r;
    } else if (objective == OBJ_TWEEDIE) {
        g = f64_sub(e1, f64_mul(y, e0));
        h = f64_sub(f64_mul(f64_sub(F64_TWO, param), e1),
                    f64_mul(f64_mul(y, f64_sub(F64_ONE, param)), e0));
        if (f64_lt(h, F64_MIN_HESS)) h = F64_MIN_HESS;
    } else if (objective == OBJ_SQUARED_LOG_ERROR) {
        const f64 q1 = f64_add(q, F64_ONE);
        const f64 d = f64_sub(lq, ly);
        g = f64_div(d, q1);
        h = f64_div(f64_sub(F64_ONE, d), f64_mul(q1, q1));
        const f64 h_floor = F64C(0x3eb0c6f7a0b5ed8dUL, 1e-6LF);
        if (f64_lt(h, h_floor)) h = h_floor;
    } else if (objective == OBJ_PSEUDO_HUBER) {
        const f64 z = f64_sub(m, y), t = f64_div(z, param);
        const f64 scale = f64_add(F64_ONE, f64_mul(t, t)), root = det_sqrt(scale);
        g = f64_div(z, root);
        h = f64_div(F64_ONE, f64_mul(scale, root));
    } else if (objective == OBJ_QUANTILE) {
        g = (f64_gt(m, y) || f64_eq(m, y)) ? f64_sub(F64_ONE, param) : f64_neg(param);
        h = F64_ONE;
    } else if (objective == OBJ_HINGE) {
        const f64 s = f64_sub(f64_mul(F64_TWO, y), F64_ONE);
        if (f64_lt(f64_mul(m, s), F64_ONE)) {
            g = f64_neg(s);
            h = F64_ONE;
        } else {
            g = F64_ZERO;
            h = F64_MIN_HESS;
        }
    } else {
        g = f64_sub(m, y);
        h = F64_ONE;
    }
    const f64 w = f64_from_float(weight);
    return f64x2(f64_mul(g, w), f64_mul(h, w));
}

// gpl_det_softplus
f64 det_softplus(f64 x)
{
    if (f64_gt(x, F64_ZERO)) return f64_add(x, det_log1p(det_exp(f64_neg(x))));
    return det_log1p(det_exp(x));
}

// GPL_EXPECTILE_GAP: (double)1e-6f
#define F64_EXPECTILE_GAP F64C(0x3eb0c6f7a0000000UL, 9.999999974752427e-07LF)

// One link of gpl_expectile_chain: the prediction of an output from the
// one before it and its margin.
f64 expectile_next(f64 before, float margin)
{
    return f64_add(f64_add(before, F64_EXPECTILE_GAP), det_softplus(f64_from_float(margin)));
}

// gpl_row_sampled: splitmix64 of (seed, round, row).
bool row_sampled(uint64_t seed, int round_index, uint64_t row, float rate)
{
    if (rate >= 1.0) return true;
    uint64_t z = seed ^ (uint64_t(uint(round_index)) << 40) ^ row;
    z += 0x9e3779b97f4a7c15UL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
    z ^= z >> 31;
    const f64 u = f64_mul(f64_from_i64(int64_t(z >> 11)),
                          F64C(0x3ca0000000000000UL, 1.0LF / 9007199254740992.0LF));
    return f64_lt(u, f64_from_float(rate));
}

// gpl_l1_threshold, gpl_node_score.
f64 l1_threshold(f64 g, f64 alpha)
{
    if (f64_gt(g, alpha)) return f64_sub(g, alpha);
    if (f64_lt(g, f64_neg(alpha))) return f64_add(g, alpha);
    return F64_ZERO;
}

f64 node_score(f64 G, f64 H, f64 lambda, f64 alpha)
{
    const f64 t = l1_threshold(G, alpha);
    return f64_div(f64_mul(t, t), f64_add(H, lambda));
}

// gpl_clamp_weight, gpl_bounded_score and gpl_monotone_ok (split_math.h):
// max_delta_step and a node's bounds on its weight.
f64 clamp_weight(f64 w, f64 max_delta_step, f64 lo, f64 hi)
{
    if (f64_gt(max_delta_step, F64_ZERO)) {
        if (f64_gt(w, max_delta_step)) w = max_delta_step;
        else if (f64_lt(w, f64_neg(max_delta_step))) w = f64_neg(max_delta_step);
    }
    if (f64_lt(w, lo)) return lo;
    if (f64_gt(w, hi)) return hi;
    return w;
}

f64 bounded_score(f64 G, f64 H, f64 lambda, f64 alpha, f64 max_delta_step, f64 lo, f64 hi,
                  out f64 weight)
{
    const f64 t = l1_threshold(G, alpha);
    const f64 optimum = f64_div(f64_neg(t), f64_add(H, lambda));
    const f64 w = clamp_weight(optimum, max_delta_step, lo, hi);
    weight = w;
    if (f64_eq(w, optimum)) return f64_div(f64_mul(t, t), f64_add(H, lambda));
    const f64 abs_w = f64_lt(w, F64_ZERO) ? f64_neg(w) : w;
    // -((2 G w + (H + lambda) w^2) + 2 alpha |w|)
    return f64_neg(f64_add(f64_add(f64_mul(f64_mul(F64_TWO, G), w),
                                   f64_mul(f64_add(H, lambda), f64_mul(w, w))),
                           f64_mul(f64_mul(F64_TWO, alpha), abs_w)));
}

bool monotone_ok(int constraint, f64 wl, f64 wr)
{
    if (constraint > 0) return !f64_gt(wl, wr);
    if (constraint < 0) return !f64_lt(wl, wr);
    return true;
}

// gpl_split_better: larger gain, then the smallest (feature, bin, dl).
bool split_better(f64 gain, int feature, int bin, int dl,
                  f64 best_gain, int best_feature, int best_bin, int best_dl)
{
    if (!f64_eq(gain, best_gain)) return f64_gt(gain, best_gain);
    if (best_feature < 0) return false;
    if (feature != best_feature) return feature < best_feature;
    if (bin != best_bin) return bin < best_bin;
    return dl < best_dl;
}
