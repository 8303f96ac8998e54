#pragma clang diagnostic ignored "-Wmissing-prototypes"
#pragma clang diagnostic ignored "-Wmissing-braces"

#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

template<typename T, size_t Num>
struct spvUnsafeArray
{
    T elements[Num ? Num : 1];
    
    thread T& operator [] (size_t pos) thread
    {
        return elements[pos];
    }
    constexpr const thread T& operator [] (size_t pos) const thread
    {
        return elements[pos];
    }
    
    device T& operator [] (size_t pos) device
    {
        return elements[pos];
    }
    constexpr const device T& operator [] (size_t pos) const device
    {
        return elements[pos];
    }
    
    constexpr const constant T& operator [] (size_t pos) const constant
    {
        return elements[pos];
    }
    
    threadgroup T& operator [] (size_t pos) threadgroup
    {
        return elements[pos];
    }
    constexpr const threadgroup T& operator [] (size_t pos) const threadgroup
    {
        return elements[pos];
    }
};

// Implementation of the unsigned GLSL findMSB() function
template<typename T>
inline T spvFindUMSB(T x)
{
    return select(clz(T(0)) - (clz(x) + T(1)), T(-1), x == T(0));
}

struct Hist
{
    uint4 hist[1];
};

struct Push
{
    uint2 lambda;
    uint2 alpha;
    uint2 min_child_weight;
    uint2 scale_grad;
    uint2 scale_hess;
    int node;
    uint record;
    uint num_features;
    uint has_mask;
};

struct Offsets
{
    uint feature_offset[1];
};

#ifndef SPIRV_CROSS_CONSTANT_ID_0
#define SPIRV_CROSS_CONSTANT_ID_0 256u
#endif
constant uint WG = SPIRV_CROSS_CONSTANT_ID_0;

struct Mask
{
    uint mask[1];
};

constant uint _1927 = (WG / 2u);

struct Records
{
    uint records[1];
};

constant uint _2166_tmp [[function_constant(0)]];
constant uint _2166 = is_function_constant_defined(_2166_tmp) ? _2166_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_2166, 1u, 1u);

static inline __attribute__((always_inline))
ulong f64_from_words(thread const uint2& w)
{
    return as_type<ulong>(w);
}

static inline __attribute__((always_inline))
long2 load(thread const uint& i, const device Hist& v_1485)
{
    uint4 v = v_1485.hist[0u + i];
    return long2(long(as_type<ulong>(v.xy)), long(as_type<ulong>(v.zw)));
}

static inline __attribute__((always_inline))
int sf_clz64(thread const ulong& a)
{
    uint hi = uint(a >> ulong(32));
    uint lo = uint(a & 4294967295ul);
    if (hi != 0u)
    {
        return 31 - int(spvFindUMSB(hi));
    }
    if (lo != 0u)
    {
        return 63 - int(spvFindUMSB(lo));
    }
    return 64;
}

static inline __attribute__((always_inline))
ulong sf_pack(thread const ulong& _sign, thread const int& e, thread const ulong& sig)
{
    return (_sign + (ulong(long(e)) << ulong(52))) + sig;
}

static inline __attribute__((always_inline))
ulong sf_shift_right_jam(thread const ulong& a, thread const int& dist)
{
    if (dist < 63)
    {
        return (a >> ulong(dist)) | ulong((a << ulong(64 - dist)) != 0ul);
    }
    return ulong(a != 0ul);
}

static inline __attribute__((always_inline))
ulong sf_round_pack(thread const ulong& _sign, thread int& e, thread ulong& sig)
{
    uint round_bits = uint(sig & 1023ul);
    if ((e < 0) || (e >= 2045))
    {
        if (e < 0)
        {
            ulong param = sig;
            int param_1 = -e;
            sig = sf_shift_right_jam(param, param_1);
            e = 0;
            round_bits = uint(sig & 1023ul);
        }
        else
        {
            bool _290 = e > 2045;
            bool _299;
            if (!_290)
            {
                _299 = (sig + 512ul) >= 9223372036854775808ul;
            }
            else
            {
                _299 = _290;
            }
            if (_299)
            {
                return _sign | 9218868437227405312ul;
            }
        }
    }
    sig = (sig + 512ul) >> ulong(10);
    if (round_bits == 512u)
    {
        sig &= 18446744073709551614ul;
    }
    if (sig == 0ul)
    {
        e = 0;
    }
    ulong param_2 = _sign;
    int param_3 = e;
    ulong param_4 = sig;
    return sf_pack(param_2, param_3, param_4);
}

static inline __attribute__((always_inline))
ulong sf_norm_round_pack(thread const ulong& _sign, thread int& e, thread const ulong& sig)
{
    ulong param = sig;
    int shift = sf_clz64(param) - 1;
    e -= shift;
    if (((shift >= 10) && (e >= 0)) && (e < 2045))
    {
        ulong param_1 = _sign;
        int param_2 = (sig != 0ul) ? e : 0;
        ulong param_3 = sig << ulong(shift - 10);
        return sf_pack(param_1, param_2, param_3);
    }
    ulong param_4 = _sign;
    int param_5 = e;
    ulong param_6 = sig << ulong(shift);
    ulong _371 = sf_round_pack(param_4, param_5, param_6);
    return _371;
}

static inline __attribute__((always_inline))
ulong sf_from_i64(thread const long& a)
{
    if ((ulong(a) & 9223372036854775807ul) == 0ul)
    {
        return (a != 0l) ? 14114281232179134464ul : 0ul;
    }
    ulong _sign = (a < 0l) ? 9223372036854775808ul : 0ul;
    ulong _1223;
    if (a < 0l)
    {
        _1223 = 0ul - ulong(a);
    }
    else
    {
        _1223 = ulong(a);
    }
    ulong m = _1223;
    ulong param = _sign;
    int param_1 = 1084;
    ulong param_2 = m;
    ulong _1239 = sf_norm_round_pack(param, param_1, param_2);
    return _1239;
}

static inline __attribute__((always_inline))
ulong f64_from_i64(thread const long& x)
{
    long param = x;
    return sf_from_i64(param);
}

static inline __attribute__((always_inline))
int sf_exp(thread const ulong& a)
{
    return int(uint((a >> ulong(52)) & 2047ul));
}

static inline __attribute__((always_inline))
bool sf_is_nan(thread const ulong& a)
{
    return (a & 9223372036854775807ul) > 9218868437227405312ul;
}

static inline __attribute__((always_inline))
ulong sf_propagate_nan(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    return (sf_is_nan(param) ? a : b) | 2251799813685248ul;
}

static inline __attribute__((always_inline))
int sf_norm_shift(thread const ulong& frac)
{
    ulong param = frac;
    return sf_clz64(param) - 11;
}

static inline __attribute__((always_inline))
ulong sf_div(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    int ea = sf_exp(param);
    ulong param_1 = b;
    int eb = sf_exp(param_1);
    ulong sa = a & 4503599627370495ul;
    ulong sb = b & 4503599627370495ul;
    ulong _sign = (a ^ b) & 9223372036854775808ul;
    if (ea == 2047)
    {
        if (sa != 0ul)
        {
            ulong param_2 = a;
            ulong param_3 = b;
            return sf_propagate_nan(param_2, param_3);
        }
        if (eb == 2047)
        {
            ulong _1044;
            if (sb != 0ul)
            {
                ulong param_4 = a;
                ulong param_5 = b;
                _1044 = sf_propagate_nan(param_4, param_5);
            }
            else
            {
                _1044 = 18444492273895866368ul;
            }
            return _1044;
        }
        return _sign | 9218868437227405312ul;
    }
    if (eb == 2047)
    {
        ulong _1064;
        if (sb != 0ul)
        {
            ulong param_6 = a;
            ulong param_7 = b;
            _1064 = sf_propagate_nan(param_6, param_7);
        }
        else
        {
            _1064 = _sign;
        }
        return _1064;
    }
    if (eb == 0)
    {
        if (sb == 0ul)
        {
            ulong _1090;
            if ((ulong(long(ea)) | sa) == 0ul)
            {
                _1090 = 18444492273895866368ul;
            }
            else
            {
                _1090 = _sign | 9218868437227405312ul;
            }
            return _1090;
        }
        ulong param_8 = sb;
        int s = sf_norm_shift(param_8);
        eb = 1 - s;
        sb = sb << ulong(s);
    }
    if (ea == 0)
    {
        if (sa == 0ul)
        {
            return _sign;
        }
        ulong param_9 = sa;
        int s_1 = sf_norm_shift(param_9);
        ea = 1 - s_1;
        sa = sa << ulong(s_1);
    }
    int ez = (ea - eb) + 1022;
    sa |= 4503599627370496ul;
    sb |= 4503599627370496ul;
    if (sa < sb)
    {
        ez--;
        sa = sa << ulong(1);
    }
    ulong q = 1ul;
    ulong r = sa - sb;
    for (int i = 0; i < 5; i++)
    {
        r = r << ulong(11);
        ulong digit = r / sb;
        q = (q << ulong(11)) | digit;
        r -= (digit * sb);
    }
    r = r << ulong(7);
    ulong digit_1 = r / sb;
    q = (q << ulong(7)) | digit_1;
    r -= (digit_1 * sb);
    ulong param_10 = _sign;
    int param_11 = ez;
    ulong param_12 = q | ulong(r != 0ul);
    ulong _1202 = sf_round_pack(param_10, param_11, param_12);
    return _1202;
}

static inline __attribute__((always_inline))
ulong f64_div(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_div(param, param_1);
}

static inline __attribute__((always_inline))
bool sf_lt(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    bool _1272 = sf_is_nan(param);
    bool _1279;
    if (!_1272)
    {
        ulong param_1 = b;
        _1279 = sf_is_nan(param_1);
    }
    else
    {
        _1279 = _1272;
    }
    if (_1279)
    {
        return false;
    }
    bool na = (a & 9223372036854775808ul) != 0ul;
    bool nb = (b & 9223372036854775808ul) != 0ul;
    if (na != nb)
    {
        bool _1305;
        if (na)
        {
            _1305 = ((a | b) & 9223372036854775807ul) != 0ul;
        }
        else
        {
            _1305 = na;
        }
        return _1305;
    }
    bool _1309 = a != b;
    bool _1317;
    if (_1309)
    {
        _1317 = na != (a < b);
    }
    else
    {
        _1317 = _1309;
    }
    return _1317;
}

static inline __attribute__((always_inline))
bool f64_gt(thread const ulong& a, thread const ulong& b)
{
    ulong param = b;
    ulong param_1 = a;
    return sf_lt(param, param_1);
}

static inline __attribute__((always_inline))
ulong sf_sub_mags(thread const ulong& a, thread const ulong& b, thread ulong& _sign)
{
    ulong param = a;
    int ea = sf_exp(param);
    ulong param_1 = b;
    int eb = sf_exp(param_1);
    ulong sa = a & 4503599627370495ul;
    ulong sb = b & 4503599627370495ul;
    int d = ea - eb;
    if (d == 0)
    {
        if (ea == 2047)
        {
            ulong _571;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _571 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _571 = 18444492273895866368ul;
            }
            return _571;
        }
        long diff = long(sa) - long(sb);
        if (diff == 0l)
        {
            return 0ul;
        }
        if (ea != 0)
        {
            ea--;
        }
        if (diff < 0l)
        {
            _sign ^= 9223372036854775808ul;
            diff = -diff;
        }
        ulong param_4 = ulong(diff);
        int shift = sf_clz64(param_4) - 11;
        int ez = ea - shift;
        if (ez < 0)
        {
            shift = ea;
            ez = 0;
        }
        ulong param_5 = _sign;
        int param_6 = ez;
        ulong param_7 = ulong(diff) << ulong(shift);
        return sf_pack(param_5, param_6, param_7);
    }
    sa = sa << ulong(10);
    sb = sb << ulong(10);
    int ez_1;
    ulong sz;
    if (d < 0)
    {
        _sign ^= 9223372036854775808ul;
        if (eb == 2047)
        {
            ulong _652;
            if (sb != 0ul)
            {
                ulong param_8 = a;
                ulong param_9 = b;
                _652 = sf_propagate_nan(param_8, param_9);
            }
            else
            {
                _652 = _sign | 9218868437227405312ul;
            }
            return _652;
        }
        sa += ((ea != 0) ? 4611686018427387904ul : sa);
        ulong param_10 = sa;
        int param_11 = -d;
        sa = sf_shift_right_jam(param_10, param_11);
        sb |= 4611686018427387904ul;
        ez_1 = eb;
        sz = sb - sa;
    }
    else
    {
        if (ea == 2047)
        {
            ulong _692;
            if (sa != 0ul)
            {
                ulong param_12 = a;
                ulong param_13 = b;
                _692 = sf_propagate_nan(param_12, param_13);
            }
            else
            {
                _692 = a;
            }
            return _692;
        }
        sb += ((eb != 0) ? 4611686018427387904ul : sb);
        ulong param_14 = sb;
        int param_15 = d;
        sb = sf_shift_right_jam(param_14, param_15);
        sa |= 4611686018427387904ul;
        ez_1 = ea;
        sz = sa - sb;
    }
    ulong param_16 = _sign;
    int param_17 = ez_1 - 1;
    ulong param_18 = sz;
    ulong _728 = sf_norm_round_pack(param_16, param_17, param_18);
    return _728;
}

static inline __attribute__((always_inline))
ulong sf_add_mags(thread const ulong& a, thread const ulong& b, thread const ulong& _sign)
{
    ulong param = a;
    int ea = sf_exp(param);
    ulong param_1 = b;
    int eb = sf_exp(param_1);
    ulong sa = a & 4503599627370495ul;
    ulong sb = b & 4503599627370495ul;
    int d = ea - eb;
    int ez;
    ulong sz;
    if (d == 0)
    {
        if (ea == 0)
        {
            return a + sb;
        }
        if (ea == 2047)
        {
            ulong _414;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _414 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _414 = a;
            }
            return _414;
        }
        ez = ea;
        sz = ((9007199254740992ul + sa) + sb) << ulong(9);
    }
    else
    {
        sa = sa << ulong(9);
        sb = sb << ulong(9);
        if (d < 0)
        {
            if (eb == 2047)
            {
                ulong _451;
                if (sb != 0ul)
                {
                    ulong param_4 = a;
                    ulong param_5 = b;
                    _451 = sf_propagate_nan(param_4, param_5);
                }
                else
                {
                    _451 = _sign | 9218868437227405312ul;
                }
                return _451;
            }
            ez = eb;
            ulong _467;
            if (ea != 0)
            {
                _467 = sa + 2305843009213693952ul;
            }
            else
            {
                _467 = sa << ulong(1);
            }
            sa = _467;
            ulong param_6 = sa;
            int param_7 = -d;
            sa = sf_shift_right_jam(param_6, param_7);
        }
        else
        {
            if (ea == 2047)
            {
                ulong _490;
                if (sa != 0ul)
                {
                    ulong param_8 = a;
                    ulong param_9 = b;
                    _490 = sf_propagate_nan(param_8, param_9);
                }
                else
                {
                    _490 = a;
                }
                return _490;
            }
            ez = ea;
            ulong _505;
            if (eb != 0)
            {
                _505 = sb + 2305843009213693952ul;
            }
            else
            {
                _505 = sb << ulong(1);
            }
            sb = _505;
            ulong param_10 = sb;
            int param_11 = d;
            sb = sf_shift_right_jam(param_10, param_11);
        }
        sz = (2305843009213693952ul + sa) + sb;
        if (sz < 4611686018427387904ul)
        {
            ez--;
            sz = sz << ulong(1);
        }
    }
    ulong param_12 = _sign;
    int param_13 = ez;
    ulong param_14 = sz;
    ulong _538 = sf_round_pack(param_12, param_13, param_14);
    return _538;
}

static inline __attribute__((always_inline))
ulong sf_sub(thread const ulong& a, thread const ulong& b)
{
    if (((a ^ b) & 9223372036854775808ul) == 0ul)
    {
        ulong param = a;
        ulong param_1 = b;
        ulong param_2 = a & 9223372036854775808ul;
        ulong _771 = sf_sub_mags(param, param_1, param_2);
        return _771;
    }
    ulong param_3 = a;
    ulong param_4 = b;
    ulong param_5 = a & 9223372036854775808ul;
    return sf_add_mags(param_3, param_4, param_5);
}

static inline __attribute__((always_inline))
ulong f64_sub(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_sub(param, param_1);
}

static inline __attribute__((always_inline))
ulong f64_neg(thread const ulong& a)
{
    return a ^ 9223372036854775808ul;
}

static inline __attribute__((always_inline))
bool f64_lt(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_lt(param, param_1);
}

static inline __attribute__((always_inline))
ulong sf_add(thread const ulong& a, thread const ulong& b)
{
    if (((a ^ b) & 9223372036854775808ul) == 0ul)
    {
        ulong param = a;
        ulong param_1 = b;
        ulong param_2 = a & 9223372036854775808ul;
        return sf_add_mags(param, param_1, param_2);
    }
    ulong param_3 = a;
    ulong param_4 = b;
    ulong param_5 = a & 9223372036854775808ul;
    ulong _754 = sf_sub_mags(param_3, param_4, param_5);
    return _754;
}

static inline __attribute__((always_inline))
ulong f64_add(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_add(param, param_1);
}

static inline __attribute__((always_inline))
ulong l1_threshold(thread const ulong& g, thread const ulong& alpha)
{
    ulong param = g;
    ulong param_1 = alpha;
    if (f64_gt(param, param_1))
    {
        ulong param_2 = g;
        ulong param_3 = alpha;
        return f64_sub(param_2, param_3);
    }
    ulong param_4 = alpha;
    ulong param_5 = g;
    ulong param_6 = f64_neg(param_4);
    if (f64_lt(param_5, param_6))
    {
        ulong param_7 = g;
        ulong param_8 = alpha;
        return f64_add(param_7, param_8);
    }
    return 0ul;
}

static inline __attribute__((always_inline))
ulong sf_mul_hi_jam(thread const ulong& a, thread const ulong& b)
{
    ulong a1 = a >> ulong(32);
    ulong a0 = a & 4294967295ul;
    ulong b1 = b >> ulong(32);
    ulong b0 = b & 4294967295ul;
    ulong lo = a0 * b0;
    ulong mid1 = a1 * b0;
    ulong mid = mid1 + (a0 * b1);
    ulong hi = a1 * b1;
    hi += (((mid < mid1) ? 4294967296ul : 0ul) + (mid >> ulong(32)));
    mid = mid << ulong(32);
    lo += mid;
    hi += ulong(lo < mid);
    return hi | ulong(lo != 0ul);
}

static inline __attribute__((always_inline))
ulong sf_mul(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    int ea = sf_exp(param);
    ulong param_1 = b;
    int eb = sf_exp(param_1);
    ulong sa = a & 4503599627370495ul;
    ulong sb = b & 4503599627370495ul;
    ulong _sign = (a ^ b) & 9223372036854775808ul;
    if (ea == 2047)
    {
        bool _871 = sa != 0ul;
        bool _880;
        if (!_871)
        {
            _880 = (eb == 2047) && (sb != 0ul);
        }
        else
        {
            _880 = _871;
        }
        if (_880)
        {
            ulong param_2 = a;
            ulong param_3 = b;
            return sf_propagate_nan(param_2, param_3);
        }
        ulong _895;
        if ((ulong(long(eb)) | sb) == 0ul)
        {
            _895 = 18444492273895866368ul;
        }
        else
        {
            _895 = _sign | 9218868437227405312ul;
        }
        return _895;
    }
    if (eb == 2047)
    {
        if (sb != 0ul)
        {
            ulong param_4 = a;
            ulong param_5 = b;
            return sf_propagate_nan(param_4, param_5);
        }
        ulong _923;
        if ((ulong(long(ea)) | sa) == 0ul)
        {
            _923 = 18444492273895866368ul;
        }
        else
        {
            _923 = _sign | 9218868437227405312ul;
        }
        return _923;
    }
    if (ea == 0)
    {
        if (sa == 0ul)
        {
            return _sign;
        }
        ulong param_6 = sa;
        int s = sf_norm_shift(param_6);
        ea = 1 - s;
        sa = sa << ulong(s);
    }
    if (eb == 0)
    {
        if (sb == 0ul)
        {
            return _sign;
        }
        ulong param_7 = sb;
        int s_1 = sf_norm_shift(param_7);
        eb = 1 - s_1;
        sb = sb << ulong(s_1);
    }
    int ez = (ea + eb) - 1023;
    sa = (sa | 4503599627370496ul) << ulong(10);
    sb = (sb | 4503599627370496ul) << ulong(11);
    ulong param_8 = sa;
    ulong param_9 = sb;
    ulong sz = sf_mul_hi_jam(param_8, param_9);
    if (sz < 4611686018427387904ul)
    {
        ez--;
        sz = sz << ulong(1);
    }
    ulong param_10 = _sign;
    int param_11 = ez;
    ulong param_12 = sz;
    ulong _1002 = sf_round_pack(param_10, param_11, param_12);
    return _1002;
}

static inline __attribute__((always_inline))
ulong f64_mul(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_mul(param, param_1);
}

static inline __attribute__((always_inline))
ulong node_score(thread const ulong& G, thread const ulong& H, thread const ulong& lambda, thread const ulong& alpha)
{
    ulong param = G;
    ulong param_1 = alpha;
    ulong t = l1_threshold(param, param_1);
    ulong param_2 = t;
    ulong param_3 = t;
    ulong param_4 = H;
    ulong param_5 = lambda;
    ulong param_6 = f64_mul(param_2, param_3);
    ulong param_7 = f64_add(param_4, param_5);
    return f64_div(param_6, param_7);
}

static inline __attribute__((always_inline))
bool sf_eq(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    bool _1244 = sf_is_nan(param);
    bool _1251;
    if (!_1244)
    {
        ulong param_1 = b;
        _1251 = sf_is_nan(param_1);
    }
    else
    {
        _1251 = _1244;
    }
    if (_1251)
    {
        return false;
    }
    bool _1258 = a == b;
    bool _1267;
    if (!_1258)
    {
        _1267 = ((a | b) & 9223372036854775807ul) == 0ul;
    }
    else
    {
        _1267 = _1258;
    }
    return _1267;
}

static inline __attribute__((always_inline))
bool f64_eq(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_eq(param, param_1);
}

static inline __attribute__((always_inline))
bool split_better(thread const ulong& gain, thread const int& feature, thread const int& bin, thread const int& dl, thread const ulong& best_gain, thread const int& best_feature, thread const int& best_bin, thread const int& best_dl)
{
    ulong param = gain;
    ulong param_1 = best_gain;
    if (!f64_eq(param, param_1))
    {
        ulong param_2 = gain;
        ulong param_3 = best_gain;
        return f64_gt(param_2, param_3);
    }
    if (best_feature < 0)
    {
        return false;
    }
    if (feature != best_feature)
    {
        return feature < best_feature;
    }
    if (bin != best_bin)
    {
        return bin < best_bin;
    }
    return dl < best_dl;
}

static inline __attribute__((always_inline))
uint2 f64_words(thread const ulong& a)
{
    return as_type<uint2>(a);
}

kernel void split_eval(constant Push& pc [[buffer(0)]], const device Hist& v_1485 [[buffer(1)]], const device Offsets& _1557 [[buffer(2)]], const device Mask& _1647 [[buffer(3)]], device Records& _2035 [[buffer(4)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    threadgroup ulong s_gain[WG];
    threadgroup int3 s_key[WG];
    threadgroup long2 s_left[WG];
    uint lid = gl_LocalInvocationID.x;
    int node = pc.node;
    uint record = pc.record;
    uint2 param = pc.scale_grad;
    ulong sg = f64_from_words(param);
    uint2 param_1 = pc.scale_hess;
    ulong sh = f64_from_words(param_1);
    uint2 param_2 = pc.lambda;
    ulong lambda = f64_from_words(param_2);
    uint2 param_3 = pc.alpha;
    ulong alpha = f64_from_words(param_3);
    uint2 param_4 = pc.min_child_weight;
    ulong min_child_weight = f64_from_words(param_4);
    long2 total = long2(0l);
    for (uint k = _1557.feature_offset[0]; k < _1557.feature_offset[1]; k++)
    {
        uint param_5 = k;
        total += load(param_5, v_1485);
    }
    long param_6 = total.x;
    ulong param_7 = f64_from_i64(param_6);
    ulong param_8 = sg;
    long param_9 = total.y;
    ulong param_10 = f64_from_i64(param_9);
    ulong param_11 = sh;
    ulong param_12 = f64_div(param_7, param_8);
    ulong param_13 = f64_div(param_10, param_11);
    ulong param_14 = lambda;
    ulong param_15 = alpha;
    ulong parent = node_score(param_12, param_13, param_14, param_15);
    ulong best_gain = 0ul;
    int3 best = int3(-1, 0, 0);
    long2 best_left = total;
    uint segments = max(1u, (WG / max(pc.num_features, 1u)));
    for (uint item = lid; item < (pc.num_features * segments); item += WG)
    {
        uint f = item / segments;
        uint seg = item % segments;
        bool _1641 = pc.has_mask != 0u;
        bool _1652;
        if (_1641)
        {
            _1652 = _1647.mask[f] == 0u;
        }
        else
        {
            _1652 = _1641;
        }
        if (_1652)
        {
            continue;
        }
        uint first = _1557.feature_offset[f];
        int last_bin = int(_1557.feature_offset[f + 1u] - first) - 1;
        int seg_len = ((last_bin + int(segments)) - 1) / int(segments);
        int b_lo = 1 + (int(seg) * seg_len);
        int b_hi = min(last_bin, ((b_lo + seg_len) - 1));
        if (b_lo > b_hi)
        {
            continue;
        }
        uint param_16 = first;
        long2 missing = load(param_16, v_1485);
        long2 cum = long2(0l);
        for (int b = 1; b < b_lo; b++)
        {
            uint param_17 = first + uint(b);
            cum += load(param_17, v_1485);
        }
        for (int b_1 = b_lo; b_1 <= b_hi; b_1++)
        {
            uint param_18 = first + uint(b_1);
            cum += load(param_18, v_1485);
            bool _1742 = b_1 < last_bin;
            bool _1755;
            if (_1742)
            {
                bool _1747 = missing.y != 0l;
                bool _1754;
                if (!_1747)
                {
                    _1754 = missing.x != 0l;
                }
                else
                {
                    _1754 = _1747;
                }
                _1755 = _1754;
            }
            else
            {
                _1755 = _1742;
            }
            int last_dl = int(_1755);
            for (int dl = 0; dl <= last_dl; dl++)
            {
                long2 L = cum;
                if (dl != 0)
                {
                    L += missing;
                }
                long2 R = total - L;
                bool _1781 = L.y <= 0l;
                bool _1788;
                if (!_1781)
                {
                    _1788 = R.y <= 0l;
                }
                else
                {
                    _1788 = _1781;
                }
                if (_1788)
                {
                    continue;
                }
                long param_19 = L.y;
                ulong param_20 = f64_from_i64(param_19);
                ulong param_21 = sh;
                ulong hl = f64_div(param_20, param_21);
                long param_22 = R.y;
                ulong param_23 = f64_from_i64(param_22);
                ulong param_24 = sh;
                ulong hr = f64_div(param_23, param_24);
                ulong param_25 = hl;
                ulong param_26 = min_child_weight;
                bool _1814 = f64_lt(param_25, param_26);
                bool _1823;
                if (!_1814)
                {
                    ulong param_27 = hr;
                    ulong param_28 = min_child_weight;
                    _1823 = f64_lt(param_27, param_28);
                }
                else
                {
                    _1823 = _1814;
                }
                if (_1823)
                {
                    continue;
                }
                long param_29 = L.x;
                ulong param_30 = f64_from_i64(param_29);
                ulong param_31 = sg;
                ulong param_32 = f64_div(param_30, param_31);
                ulong param_33 = hl;
                ulong param_34 = lambda;
                ulong param_35 = alpha;
                long param_36 = R.x;
                ulong param_37 = f64_from_i64(param_36);
                ulong param_38 = sg;
                ulong param_39 = f64_div(param_37, param_38);
                ulong param_40 = hr;
                ulong param_41 = lambda;
                ulong param_42 = alpha;
                ulong param_43 = node_score(param_32, param_33, param_34, param_35);
                ulong param_44 = node_score(param_39, param_40, param_41, param_42);
                ulong param_45 = f64_add(param_43, param_44);
                ulong param_46 = parent;
                ulong gain = f64_sub(param_45, param_46);
                ulong param_47 = gain;
                int param_48 = int(f);
                int param_49 = b_1;
                int param_50 = dl;
                ulong param_51 = best_gain;
                int param_52 = best.x;
                int param_53 = best.y;
                int param_54 = best.z;
                if (split_better(param_47, param_48, param_49, param_50, param_51, param_52, param_53, param_54))
                {
                    best_gain = gain;
                    best = int3(int(f), b_1, dl);
                    best_left = L;
                }
            }
        }
    }
    s_gain[lid] = best_gain;
    s_key[lid] = best;
    s_left[lid] = best_left;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint half_size = _1927; half_size > 0u; half_size = half_size >> uint(1))
    {
        if (lid < half_size)
        {
            uint o = lid + half_size;
            ulong param_55 = s_gain[o];
            int param_56 = ((threadgroup int*)&s_key[o])[0u];
            int param_57 = ((threadgroup int*)&s_key[o])[1u];
            int param_58 = ((threadgroup int*)&s_key[o])[2u];
            ulong param_59 = s_gain[lid];
            int param_60 = ((threadgroup int*)&s_key[lid])[0u];
            int param_61 = ((threadgroup int*)&s_key[lid])[1u];
            int param_62 = ((threadgroup int*)&s_key[lid])[2u];
            if (split_better(param_55, param_56, param_57, param_58, param_59, param_60, param_61, param_62))
            {
                s_gain[lid] = s_gain[o];
                s_key[lid] = s_key[o];
                s_left[lid] = s_left[o];
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (lid == 0u)
    {
        int3 key = s_key[0];
        long2 _2008;
        if (key.x >= 0)
        {
            _2008 = s_left[0];
        }
        else
        {
            _2008 = total;
        }
        long2 L_1 = _2008;
        long2 _2020;
        if (key.x >= 0)
        {
            _2020 = total - L_1;
        }
        else
        {
            _2020 = long2(0l);
        }
        long2 R_1 = _2020;
        uint o_1 = record * 18u;
        _2035.records[o_1 + 0u] = uint(node);
        _2035.records[o_1 + 1u] = uint(key.x);
        uint _2052;
        if (key.x >= 0)
        {
            _2052 = uint(key.y);
        }
        else
        {
            _2052 = 0u;
        }
        _2035.records[o_1 + 2u] = _2052;
        uint _2067;
        if (key.x >= 0)
        {
            _2067 = uint(key.z);
        }
        else
        {
            _2067 = 0u;
        }
        _2035.records[o_1 + 3u] = _2067;
        ulong _2080;
        if (key.x >= 0)
        {
            _2080 = s_gain[0];
        }
        else
        {
            _2080 = 0ul;
        }
        ulong param_63 = _2080;
        uint2 gw = f64_words(param_63);
        _2035.records[o_1 + 4u] = gw.x;
        _2035.records[o_1 + 5u] = gw.y;
        spvUnsafeArray<long2, 3> _2107 = spvUnsafeArray<long2, 3>({ L_1, R_1, total });
        spvUnsafeArray<long2, 3> sums;
        sums = _2107;
        for (uint k_1 = 0u; k_1 < 3u; k_1++)
        {
            uint2 g = as_type<uint2>(ulong(sums[k_1].x));
            uint2 h = as_type<uint2>(ulong(sums[k_1].y));
            _2035.records[(o_1 + 6u) + (4u * k_1)] = g.x;
            _2035.records[(o_1 + 7u) + (4u * k_1)] = g.y;
            _2035.records[(o_1 + 8u) + (4u * k_1)] = h.x;
            _2035.records[(o_1 + 9u) + (4u * k_1)] = h.y;
        }
    }
}

