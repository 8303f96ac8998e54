// soft_f64.glsl -- IEEE-754 binary64 arithmetic on the bits of a double
// held in a uint64_t, for devices without float64 (Apple GPUs, whose MSL
// has no double; Vulkan devices without shaderFloat64). 64-bit integer
// arithmetic only: no float64 type, no 64-bit atomics.
//
// Each operation gives the bits x86-64 SSE2 gives (the CPU reference):
// round to nearest, ties to even; subnormals kept (no flush to zero);
// overflow to infinity; invalid operations give the default NaN
// 0xfff8000000000000; a NaN operand comes back quieted (the first NaN
// operand; a compiler may swap commutative operands, so NaN payloads are
// not part of the numeric contract). The algorithms follow Berkeley
// SoftFloat 3 (add, sub, mul, round-to-integer, conversions); division is
// a long division in 11-bit digits.
//
// The file is both GLSL and C: tests/unit/test_soft_f64.c compiles it with
// SF_C defined and compares every operation with the host's double on
// random and edge-case bit patterns. Keep it in the common subset: no
// vectors, no out parameters, casts through the macros below.
#ifndef SF_C
#define SF_FN
#define U64(x) uint64_t(x)
#define I64(x) int64_t(x)
#define U32(x) uint(x)
#define I32(x) int(x)
#endif

#define SF_SIGN 0x8000000000000000UL
#define SF_MAG 0x7fffffffffffffffUL
#define SF_FRAC 0x000fffffffffffffUL
#define SF_HIDDEN 0x0010000000000000UL
#define SF_INF 0x7ff0000000000000UL
#define SF_QUIET 0x0008000000000000UL
#define SF_DEFAULT_NAN 0xfff8000000000000UL

SF_FN int sf_exp(uint64_t a) { return I32((a >> 52) & 0x7ffUL); }

SF_FN bool sf_is_nan(uint64_t a) { return (a & SF_MAG) > SF_INF; }

// sign is 0 or SF_SIGN; sig may carry into the exponent (hence +).
SF_FN uint64_t sf_pack(uint64_t sign, int e, uint64_t sig)
{
    return sign + (U64(e) << 52) + sig;
}

SF_FN int sf_clz64(uint64_t a)
{
    uint hi = U32(a >> 32);
    uint lo = U32(a & 0xffffffffUL);
    if (hi != 0u) return 31 - findMSB(hi);
    if (lo != 0u) return 63 - findMSB(lo);
    return 64;
}

// a >> dist, with every bit shifted out or-ed into bit 0 (dist >= 1).
SF_FN uint64_t sf_shift_right_jam(uint64_t a, int dist)
{
    if (dist < 63) return (a >> dist) | ((a << (64 - dist)) != 0UL ? 1UL : 0UL);
    return a != 0UL ? 1UL : 0UL;
}

SF_FN uint64_t sf_propagate_nan(uint64_t a, uint64_t b)
{
    return (sf_is_nan(a) ? a : b) | SF_QUIET;
}

// The double nearest to sig * 2^(e + 1 - 1023 - 62), ties to even: sig
// holds the significand with its integer bit at bit 62 (or below, for a
// result that becomes subnormal) and 10 more bits to round away.
SF_FN uint64_t sf_round_pack(uint64_t sign, int e, uint64_t sig)
{
    uint round_bits = U32(sig & 0x3ffUL);
    if (e < 0 || e >= 0x7fd) {
        if (e < 0) {
            sig = sf_shift_right_jam(sig, -e);
            e = 0;
            round_bits = U32(sig & 0x3ffUL);
        } else if (e > 0x7fd || sig + 0x200UL >= 0x8000000000000000UL) {
            return sign | SF_INF;
        }
    }
    sig = (sig + 0x200UL) >> 10;
    if (round_bits == 0x200u) sig &= ~1UL;
    if (sig == 0UL) e = 0;
    return sf_pack(sign, e, sig);
}

// As sf_round_pack, for a sig not yet normalized.
SF_FN uint64_t sf_norm_round_pack(uint64_t sign, int e, uint64_t sig)
{
    int shift = sf_clz64(sig) - 1;
    e -= shift;
    if (shift >= 10 && e >= 0 && e < 0x7fd)
        return sf_pack(sign, sig != 0UL ? e : 0, sig << (shift - 10));
    return sf_round_pack(sign, e, sig << shift);
}

// |a| + |b| with the sign given.
SF_FN uint64_t sf_add_mags(uint64_t a, uint64_t b, uint64_t sign)
{
    int ea = sf_exp(a);
    int eb = sf_exp(b);
    uint64_t sa = a & SF_FRAC;
    uint64_t sb = b & SF_FRAC;
    int d = ea - eb;
    int ez;
    uint64_t sz;
    if (d == 0) {
        if (ea == 0) return a + sb; // subnormals: exact, may become normal
        if (ea == 0x7ff) return (sa | sb) != 0UL ? sf_propagate_nan(a, b) : a;
        ez = ea;
        sz = (0x0020000000000000UL + sa + sb) << 9;
    } else {
        sa <<= 9;
        sb <<= 9;
        if (d < 0) {
            if (eb == 0x7ff) return sb != 0UL ? sf_propagate_nan(a, b) : (sign | SF_INF);
            ez = eb;
            sa = ea != 0 ? sa + 0x2000000000000000UL : sa << 1;
            sa = sf_shift_right_jam(sa, -d);
        } else {
            if (ea == 0x7ff) return sa != 0UL ? sf_propagate_nan(a, b) : a;
            ez = ea;
            sb = eb != 0 ? sb + 0x2000000000000000UL : sb << 1;
            sb = sf_shift_right_jam(sb, d);
        }
        sz = 0x2000000000000000UL + sa + sb;
        if (sz < 0x4000000000000000UL) {
            ez--;
            sz <<= 1;
        }
    }
    return sf_round_pack(sign, ez, sz);
}

// |a| - |b|, the result's sign being `sign` when |a| >= |b|.
SF_FN uint64_t sf_sub_mags(uint64_t a, uint64_t b, uint64_t sign)
{
    int ea = sf_exp(a);
    int eb = sf_exp(b);
    uint64_t sa = a & SF_FRAC;
    uint64_t sb = b & SF_FRAC;
    int d = ea - eb;
    if (d == 0) {
        if (ea == 0x7ff) return (sa | sb) != 0UL ? sf_propagate_nan(a, b) : SF_DEFAULT_NAN;
        int64_t diff = I64(sa) - I64(sb);
        if (diff == 0L) return 0UL; // x - x = +0
        if (ea != 0) ea--;
        if (diff < 0L) {
            sign ^= SF_SIGN;
            diff = -diff;
        }
        int shift = sf_clz64(U64(diff)) - 11;
        int ez = ea - shift;
        if (ez < 0) {
            shift = ea;
            ez = 0;
        }
        return sf_pack(sign, ez, U64(diff) << shift);
    }
    sa <<= 10;
    sb <<= 10;
    int ez;
    uint64_t sz;
    if (d < 0) {
        sign ^= SF_SIGN;
        if (eb == 0x7ff) return sb != 0UL ? sf_propagate_nan(a, b) : (sign | SF_INF);
        sa += ea != 0 ? 0x4000000000000000UL : sa;
        sa = sf_shift_right_jam(sa, -d);
        sb |= 0x4000000000000000UL;
        ez = eb;
        sz = sb - sa;
    } else {
        if (ea == 0x7ff) return sa != 0UL ? sf_propagate_nan(a, b) : a;
        sb += eb != 0 ? 0x4000000000000000UL : sb;
        sb = sf_shift_right_jam(sb, d);
        sa |= 0x4000000000000000UL;
        ez = ea;
        sz = sa - sb;
    }
    return sf_norm_round_pack(sign, ez - 1, sz);
}

SF_FN uint64_t sf_add(uint64_t a, uint64_t b)
{
    if (((a ^ b) & SF_SIGN) == 0UL) return sf_add_mags(a, b, a & SF_SIGN);
    return sf_sub_mags(a, b, a & SF_SIGN);
}

SF_FN uint64_t sf_sub(uint64_t a, uint64_t b)
{
    if (((a ^ b) & SF_SIGN) == 0UL) return sf_sub_mags(a, b, a & SF_SIGN);
    return sf_add_mags(a, b, a & SF_SIGN);
}

// The high 64 bits of the 128-bit product a * b, with bit 0 set when any
// of the low 64 bits is.
SF_FN uint64_t sf_mul_hi_jam(uint64_t a, uint64_t b)
{
    uint64_t a1 = a >> 32;
    uint64_t a0 = a & 0xffffffffUL;
    uint64_t b1 = b >> 32;
    uint64_t b0 = b & 0xffffffffUL;
    uint64_t lo = a0 * b0;
    uint64_t mid1 = a1 * b0;
    uint64_t mid = mid1 + a0 * b1;
    uint64_t hi = a1 * b1;
    hi += (mid < mid1 ? 0x100000000UL : 0UL) + (mid >> 32);
    mid <<= 32;
    lo += mid;
    hi += lo < mid ? 1UL : 0UL;
    return hi | (lo != 0UL ? 1UL : 0UL);
}

// The exponent and significand of a nonzero subnormal, normalized: the
// significand's top bit moved to bit 52, the exponent 1 - shift.
SF_FN int sf_norm_shift(uint64_t frac) { return sf_clz64(frac) - 11; }

SF_FN uint64_t sf_mul(uint64_t a, uint64_t b)
{
    int ea = sf_exp(a);
    int eb = sf_exp(b);
    uint64_t sa = a & SF_FRAC;
    uint64_t sb = b & SF_FRAC;
    uint64_t sign = (a ^ b) & SF_SIGN;
    if (ea == 0x7ff) {
        if (sa != 0UL || (eb == 0x7ff && sb != 0UL)) return sf_propagate_nan(a, b);
        return (U64(eb) | sb) == 0UL ? SF_DEFAULT_NAN : (sign | SF_INF);
    }
    if (eb == 0x7ff) {
        if (sb != 0UL) return sf_propagate_nan(a, b);
        return (U64(ea) | sa) == 0UL ? SF_DEFAULT_NAN : (sign | SF_INF);
    }
    if (ea == 0) {
        if (sa == 0UL) return sign;
        int s = sf_norm_shift(sa);
        ea = 1 - s;
        sa <<= s;
    }
    if (eb == 0) {
        if (sb == 0UL) return sign;
        int s = sf_norm_shift(sb);
        eb = 1 - s;
        sb <<= s;
    }
    int ez = ea + eb - 0x3ff;
    sa = (sa | SF_HIDDEN) << 10;
    sb = (sb | SF_HIDDEN) << 11;
    uint64_t sz = sf_mul_hi_jam(sa, sb);
    if (sz < 0x4000000000000000UL) {
        ez--;
        sz <<= 1;
    }
    return sf_round_pack(sign, ez, sz);
}

SF_FN uint64_t sf_div(uint64_t a, uint64_t b)
{
    int ea = sf_exp(a);
    int eb = sf_exp(b);
    uint64_t sa = a & SF_FRAC;
    uint64_t sb = b & SF_FRAC;
    uint64_t sign = (a ^ b) & SF_SIGN;
    if (ea == 0x7ff) {
        if (sa != 0UL) return sf_propagate_nan(a, b);
        if (eb == 0x7ff) return sb != 0UL ? sf_propagate_nan(a, b) : SF_DEFAULT_NAN;
        return sign | SF_INF;
    }
    if (eb == 0x7ff) return sb != 0UL ? sf_propagate_nan(a, b) : sign;
    if (eb == 0) {
        if (sb == 0UL) return (U64(ea) | sa) == 0UL ? SF_DEFAULT_NAN : (sign | SF_INF);
        int s = sf_norm_shift(sb);
        eb = 1 - s;
        sb <<= s;
    }
    if (ea == 0) {
        if (sa == 0UL) return sign;
        int s = sf_norm_shift(sa);
        ea = 1 - s;
        sa <<= s;
    }
    int ez = ea - eb + 0x3fe;
    sa |= SF_HIDDEN;
    sb |= SF_HIDDEN;
    if (sa < sb) {
        ez--;
        sa <<= 1;
    }
    // q = floor(sa * 2^62 / sb): one integer bit, then 62 fraction bits
    // in digits of 11 and 7 bits (the remainder stays below 2^53, so a
    // shifted remainder fits 64 bits).
    uint64_t q = 1UL;
    uint64_t r = sa - sb;
    for (int i = 0; i < 5; i++) {
        r <<= 11;
        uint64_t digit = r / sb;
        q = (q << 11) | digit;
        r -= digit * sb;
    }
    r <<= 7;
    uint64_t digit = r / sb;
    q = (q << 7) | digit;
    r -= digit * sb;
    return sf_round_pack(sign, ez, q | (r != 0UL ? 1UL : 0UL));
}

// rint: the nearest integral value, ties to even.
SF_FN uint64_t sf_round_even(uint64_t a)
{
    int e = sf_exp(a);
    if (e <= 0x3fe) {
        if ((a & SF_MAG) == 0UL) return a;
        uint64_t z = a & SF_SIGN;
        if (e == 0x3fe && (a & SF_FRAC) != 0UL) z |= 0x3ff0000000000000UL;
        return z;
    }
    if (e >= 0x433) return sf_is_nan(a) ? (a | SF_QUIET) : a;
    uint64_t last = 1UL << (0x433 - e);
    uint64_t mask = last - 1UL;
    uint64_t z = a + (last >> 1);
    if ((z & mask) == 0UL) z &= ~last;
    return z & ~mask;
}

// llrint as x86-64 does it: nearest, ties to even; NaN and values out of
// the int64 range give INT64_MIN.
SF_FN int64_t sf_to_i64(uint64_t a)
{
    uint64_t r = sf_round_even(a);
    int e = sf_exp(r);
    if (e >= 0x43e) return I64(SF_SIGN);
    if (e < 0x3ff) return 0L;
    uint64_t sig = (r & SF_FRAC) | SF_HIDDEN;
    uint64_t mag = e >= 0x433 ? sig << (e - 0x433) : sig >> (0x433 - e);
    return (r & SF_SIGN) != 0UL ? -I64(mag) : I64(mag);
}

SF_FN uint64_t sf_from_i64(int64_t a)
{
    if ((U64(a) & SF_MAG) == 0UL) return a != 0L ? 0xc3e0000000000000UL : 0UL;
    uint64_t sign = a < 0L ? SF_SIGN : 0UL;
    uint64_t m = a < 0L ? 0UL - U64(a) : U64(a);
    return sf_norm_round_pack(sign, 0x43c, m);
}

// float -> double from the float's bits: exact (NaN quieted).
SF_FN uint64_t sf_from_f32(uint f)
{
    uint64_t sign = U64(f >> 31) << 63;
    int e = I32((f >> 23) & 0xffu);
    uint64_t m = U64(f & 0x7fffffu);
    if (e == 0xff) return m != 0UL ? (sign | SF_INF | SF_QUIET | (m << 29)) : (sign | SF_INF);
    if (e == 0) {
        if (m == 0UL) return sign;
        int s = sf_clz64(m) - 40;
        e = 1 - s;
        m = (m << s) & 0x7fffffUL;
    }
    return sign | (U64(e + 0x380) << 52) | (m << 29);
}

// double -> float as the bits of the float: nearest, ties to even;
// subnormal results kept, overflow to infinity, NaN quieted (its top
// payload bits kept, as SSE2's cvtsd2ss).
SF_FN uint sf_to_f32(uint64_t a)
{
    uint sign = U32(a >> 63) << 31;
    int e = sf_exp(a);
    uint64_t frac = a & SF_FRAC;
    if (e == 0x7ff)
        return frac != 0UL ? (sign | 0x7fc00000u | U32(frac >> 29)) : (sign | 0x7f800000u);
    if (e == 0) return sign; // a double subnormal is far below the float range
    // a = sig * 2^(e - 1075); the float's biased exponent would be e - 896.
    int ef = e - 896;
    if (ef >= 255) return sign | 0x7f800000u;
    uint64_t sig = frac | SF_HIDDEN;
    int shift = ef >= 1 ? 29 : 30 - ef; // 24 bits kept, fewer below the normals
    if (shift >= 64) return sign;
    uint64_t q = sig >> shift;
    uint64_t rest = sig & ((1UL << shift) - 1UL);
    uint64_t mid = 1UL << (shift - 1);
    if (rest > mid || (rest == mid && (q & 1UL) != 0UL)) q += 1UL;
    // q's hidden bit (2^23) adds one to the exponent field, and a carry
    // out of the significand one more: the sum is the packed float.
    uint r = (ef >= 1 ? U32(ef - 1) << 23 : 0u) + U32(q);
    if (r >= 0x7f800000u) r = 0x7f800000u;
    return sign | r;
}

SF_FN bool sf_eq(uint64_t a, uint64_t b)
{
    if (sf_is_nan(a) || sf_is_nan(b)) return false;
    return a == b || ((a | b) & SF_MAG) == 0UL;
}

SF_FN bool sf_lt(uint64_t a, uint64_t b)
{
    if (sf_is_nan(a) || sf_is_nan(b)) return false;
    bool na = (a & SF_SIGN) != 0UL;
    bool nb = (b & SF_SIGN) != 0UL;
    if (na != nb) return na && ((a | b) & SF_MAG) != 0UL;
    return a != b && (na != (a < b));
}

SF_FN bool sf_le(uint64_t a, uint64_t b)
{
    if (sf_is_nan(a) || sf_is_nan(b)) return false;
    bool na = (a & SF_SIGN) != 0UL;
    bool nb = (b & SF_SIGN) != 0UL;
    if (na != nb) return na || ((a | b) & SF_MAG) == 0UL;
    return a == b || (na != (a < b));
}
