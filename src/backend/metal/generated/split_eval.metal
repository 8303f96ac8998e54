#pragma clang diagnostic ignored "-Wmissing-prototypes"
#pragma clang diagnostic ignored "-Wmissing-braces"
#pragma clang diagnostic ignored "-Wunused-variable"

#include <metal_stdlib>
#include <simd/simd.h>
#include <metal_atomic>

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
    uint2 cat_smooth;
    uint2 cat_l2;
    uint2 min_data_per_group;
    int node;
    uint record;
    uint num_features;
    uint has_mask;
    int max_cat_to_onehot;
    int max_cat_threshold;
};

#ifndef SPIRV_CROSS_CONSTANT_ID_0
#define SPIRV_CROSS_CONSTANT_ID_0 256u
#endif
constant uint WG = SPIRV_CROSS_CONSTANT_ID_0;
constant int _1819 = int(WG + 0u);
constant int _1920 = int(WG + 0u);

struct Offsets
{
    uint feature_offset[1];
};

struct Mask
{
    uint mask[1];
};

struct Categorical
{
    uint categorical[1];
};

constant int _2453 = int(WG + 0u);
constant uint _2647 = (WG / 2u);

struct Records
{
    uint records[1];
};

constant uint _3038_tmp [[function_constant(0)]];
constant uint _3038 = is_function_constant_defined(_3038_tmp) ? _3038_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_3038, 1u, 1u);

static inline __attribute__((always_inline))
ulong f64_from_words(thread const uint2& w)
{
    return as_type<ulong>(w);
}

static inline __attribute__((always_inline))
long2 load(thread const uint& i, const device Hist& v_1519)
{
    uint4 v = v_1519.hist[0u + i];
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
            bool _324 = e > 2045;
            bool _333;
            if (!_324)
            {
                _333 = (sig + 512ul) >= 9223372036854775808ul;
            }
            else
            {
                _333 = _324;
            }
            if (_333)
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
    ulong _405 = sf_round_pack(param_4, param_5, param_6);
    return _405;
}

static inline __attribute__((always_inline))
ulong sf_from_i64(thread const long& a)
{
    if ((ulong(a) & 9223372036854775807ul) == 0ul)
    {
        return (a != 0l) ? 14114281232179134464ul : 0ul;
    }
    ulong _sign = (a < 0l) ? 9223372036854775808ul : 0ul;
    ulong _1257;
    if (a < 0l)
    {
        _1257 = 0ul - ulong(a);
    }
    else
    {
        _1257 = ulong(a);
    }
    ulong m = _1257;
    ulong param = _sign;
    int param_1 = 1084;
    ulong param_2 = m;
    ulong _1273 = sf_norm_round_pack(param, param_1, param_2);
    return _1273;
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
            ulong _1078;
            if (sb != 0ul)
            {
                ulong param_4 = a;
                ulong param_5 = b;
                _1078 = sf_propagate_nan(param_4, param_5);
            }
            else
            {
                _1078 = 18444492273895866368ul;
            }
            return _1078;
        }
        return _sign | 9218868437227405312ul;
    }
    if (eb == 2047)
    {
        ulong _1098;
        if (sb != 0ul)
        {
            ulong param_6 = a;
            ulong param_7 = b;
            _1098 = sf_propagate_nan(param_6, param_7);
        }
        else
        {
            _1098 = _sign;
        }
        return _1098;
    }
    if (eb == 0)
    {
        if (sb == 0ul)
        {
            ulong _1124;
            if ((ulong(long(ea)) | sa) == 0ul)
            {
                _1124 = 18444492273895866368ul;
            }
            else
            {
                _1124 = _sign | 9218868437227405312ul;
            }
            return _1124;
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
    ulong _1236 = sf_round_pack(param_10, param_11, param_12);
    return _1236;
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
    bool _1306 = sf_is_nan(param);
    bool _1313;
    if (!_1306)
    {
        ulong param_1 = b;
        _1313 = sf_is_nan(param_1);
    }
    else
    {
        _1313 = _1306;
    }
    if (_1313)
    {
        return false;
    }
    bool na = (a & 9223372036854775808ul) != 0ul;
    bool nb = (b & 9223372036854775808ul) != 0ul;
    if (na != nb)
    {
        bool _1339;
        if (na)
        {
            _1339 = ((a | b) & 9223372036854775807ul) != 0ul;
        }
        else
        {
            _1339 = na;
        }
        return _1339;
    }
    bool _1343 = a != b;
    bool _1351;
    if (_1343)
    {
        _1351 = na != (a < b);
    }
    else
    {
        _1351 = _1343;
    }
    return _1351;
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
            ulong _605;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _605 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _605 = 18444492273895866368ul;
            }
            return _605;
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
            ulong _686;
            if (sb != 0ul)
            {
                ulong param_8 = a;
                ulong param_9 = b;
                _686 = sf_propagate_nan(param_8, param_9);
            }
            else
            {
                _686 = _sign | 9218868437227405312ul;
            }
            return _686;
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
            ulong _726;
            if (sa != 0ul)
            {
                ulong param_12 = a;
                ulong param_13 = b;
                _726 = sf_propagate_nan(param_12, param_13);
            }
            else
            {
                _726 = a;
            }
            return _726;
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
    ulong _762 = sf_norm_round_pack(param_16, param_17, param_18);
    return _762;
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
            ulong _448;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _448 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _448 = a;
            }
            return _448;
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
                ulong _485;
                if (sb != 0ul)
                {
                    ulong param_4 = a;
                    ulong param_5 = b;
                    _485 = sf_propagate_nan(param_4, param_5);
                }
                else
                {
                    _485 = _sign | 9218868437227405312ul;
                }
                return _485;
            }
            ez = eb;
            ulong _501;
            if (ea != 0)
            {
                _501 = sa + 2305843009213693952ul;
            }
            else
            {
                _501 = sa << ulong(1);
            }
            sa = _501;
            ulong param_6 = sa;
            int param_7 = -d;
            sa = sf_shift_right_jam(param_6, param_7);
        }
        else
        {
            if (ea == 2047)
            {
                ulong _524;
                if (sa != 0ul)
                {
                    ulong param_8 = a;
                    ulong param_9 = b;
                    _524 = sf_propagate_nan(param_8, param_9);
                }
                else
                {
                    _524 = a;
                }
                return _524;
            }
            ez = ea;
            ulong _539;
            if (eb != 0)
            {
                _539 = sb + 2305843009213693952ul;
            }
            else
            {
                _539 = sb << ulong(1);
            }
            sb = _539;
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
    ulong _572 = sf_round_pack(param_12, param_13, param_14);
    return _572;
}

static inline __attribute__((always_inline))
ulong sf_sub(thread const ulong& a, thread const ulong& b)
{
    if (((a ^ b) & 9223372036854775808ul) == 0ul)
    {
        ulong param = a;
        ulong param_1 = b;
        ulong param_2 = a & 9223372036854775808ul;
        ulong _805 = sf_sub_mags(param, param_1, param_2);
        return _805;
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
    ulong _788 = sf_sub_mags(param_3, param_4, param_5);
    return _788;
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
        bool _905 = sa != 0ul;
        bool _914;
        if (!_905)
        {
            _914 = (eb == 2047) && (sb != 0ul);
        }
        else
        {
            _914 = _905;
        }
        if (_914)
        {
            ulong param_2 = a;
            ulong param_3 = b;
            return sf_propagate_nan(param_2, param_3);
        }
        ulong _929;
        if ((ulong(long(eb)) | sb) == 0ul)
        {
            _929 = 18444492273895866368ul;
        }
        else
        {
            _929 = _sign | 9218868437227405312ul;
        }
        return _929;
    }
    if (eb == 2047)
    {
        if (sb != 0ul)
        {
            ulong param_4 = a;
            ulong param_5 = b;
            return sf_propagate_nan(param_4, param_5);
        }
        ulong _957;
        if ((ulong(long(ea)) | sa) == 0ul)
        {
            _957 = 18444492273895866368ul;
        }
        else
        {
            _957 = _sign | 9218868437227405312ul;
        }
        return _957;
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
    ulong _1036 = sf_round_pack(param_10, param_11, param_12);
    return _1036;
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
    bool _1278 = sf_is_nan(param);
    bool _1285;
    if (!_1278)
    {
        ulong param_1 = b;
        _1285 = sf_is_nan(param_1);
    }
    else
    {
        _1285 = _1278;
    }
    if (_1285)
    {
        return false;
    }
    bool _1292 = a == b;
    bool _1301;
    if (!_1292)
    {
        _1301 = ((a | b) & 9223372036854775807ul) == 0ul;
    }
    else
    {
        _1301 = _1292;
    }
    return _1301;
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
void try_cat(thread const long2& total, thread const ulong& parent, thread const ulong& lambda, thread const ulong& alpha, thread const ulong& sg, thread const ulong& sh, thread const ulong& min_child_weight, thread const long2& left, thread const long2& missing, thread const int& f, thread const int& key, thread ulong& best_gain, thread int3& best, thread long2& best_left)
{
    bool _1558 = missing.x != 0l;
    bool _1566;
    if (!_1558)
    {
        _1566 = missing.y != 0l;
    }
    else
    {
        _1566 = _1558;
    }
    int two_way = int(_1566);
    for (int dl = 0; dl <= two_way; dl++)
    {
        long2 L = left;
        if (dl != 0)
        {
            L += missing;
        }
        long2 R = total - L;
        bool _1592 = L.y <= 0l;
        bool _1599;
        if (!_1592)
        {
            _1599 = R.y <= 0l;
        }
        else
        {
            _1599 = _1592;
        }
        if (_1599)
        {
            continue;
        }
        long param = L.y;
        ulong param_1 = f64_from_i64(param);
        ulong param_2 = sh;
        ulong hl = f64_div(param_1, param_2);
        long param_3 = R.y;
        ulong param_4 = f64_from_i64(param_3);
        ulong param_5 = sh;
        ulong hr = f64_div(param_4, param_5);
        ulong param_6 = hl;
        ulong param_7 = min_child_weight;
        bool _1625 = f64_lt(param_6, param_7);
        bool _1634;
        if (!_1625)
        {
            ulong param_8 = hr;
            ulong param_9 = min_child_weight;
            _1634 = f64_lt(param_8, param_9);
        }
        else
        {
            _1634 = _1625;
        }
        if (_1634)
        {
            continue;
        }
        long param_10 = L.x;
        ulong param_11 = f64_from_i64(param_10);
        ulong param_12 = sg;
        ulong param_13 = f64_div(param_11, param_12);
        ulong param_14 = hl;
        ulong param_15 = lambda;
        ulong param_16 = alpha;
        long param_17 = R.x;
        ulong param_18 = f64_from_i64(param_17);
        ulong param_19 = sg;
        ulong param_20 = f64_div(param_18, param_19);
        ulong param_21 = hr;
        ulong param_22 = lambda;
        ulong param_23 = alpha;
        ulong param_24 = node_score(param_13, param_14, param_15, param_16);
        ulong param_25 = node_score(param_20, param_21, param_22, param_23);
        ulong param_26 = f64_add(param_24, param_25);
        ulong param_27 = parent;
        ulong gain = f64_sub(param_26, param_27);
        ulong param_28 = gain;
        int param_29 = f;
        int param_30 = key;
        int param_31 = dl;
        ulong param_32 = best_gain;
        int param_33 = best.x;
        int param_34 = best.y;
        int param_35 = best.z;
        if (split_better(param_28, param_29, param_30, param_31, param_32, param_33, param_34, param_35))
        {
            best_gain = gain;
            best = int3(f, key, dl);
            best_left = L;
        }
    }
}

static inline __attribute__((always_inline))
bool cat_before(thread const ulong& ra, thread const uint& ba, thread const ulong& rb, thread const uint& bb)
{
    ulong param = ra;
    ulong param_1 = rb;
    if (!f64_eq(param, param_1))
    {
        ulong param_2 = ra;
        ulong param_3 = rb;
        return f64_lt(param_2, param_3);
    }
    return ba < bb;
}

static inline __attribute__((always_inline))
uint order_categories(thread const uint& first, thread const int& last_bin, thread const ulong& sg, thread const ulong& sh, const device Hist& v_1519, thread uint3& gl_LocalInvocationID, constant Push& pc, threadgroup uint (&c_ok)[8], threadgroup ulong (&c_ratio)[256], threadgroup uint (&c_bin)[256])
{
    uint lid = gl_LocalInvocationID.x;
    uint2 param = pc.cat_smooth;
    ulong cat_smooth = f64_from_words(param);
    uint2 param_1 = pc.min_data_per_group;
    ulong min_data = f64_from_words(param_1);
    if (lid < 8u)
    {
        c_ok[lid] = 0u;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    int _1745 = 1 + int(lid);
    for (int b = _1745; b <= last_bin; b += _1819)
    {
        uint param_2 = first + uint(b);
        long2 h = load(param_2, v_1519);
        long param_3 = h.y;
        ulong param_4 = f64_from_i64(param_3);
        ulong param_5 = sh;
        ulong hs = f64_div(param_4, param_5);
        bool _1772 = h.y <= 0l;
        bool _1781;
        if (!_1772)
        {
            ulong param_6 = hs;
            ulong param_7 = min_data;
            _1781 = f64_lt(param_6, param_7);
        }
        else
        {
            _1781 = _1772;
        }
        if (_1781)
        {
            continue;
        }
        long param_8 = h.x;
        ulong param_9 = f64_from_i64(param_8);
        ulong param_10 = sg;
        ulong param_11 = hs;
        ulong param_12 = cat_smooth;
        ulong param_13 = f64_div(param_9, param_10);
        ulong param_14 = f64_add(param_11, param_12);
        c_ratio[b] = f64_div(param_13, param_14);
        uint _1817 = atomic_fetch_or_explicit((threadgroup atomic_uint*)&c_ok[uint(b) >> uint(5)], 1u << (uint(b) & 31u), memory_order_relaxed);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint n = 0u;
    for (uint w = 0u; w < 8u; w++)
    {
        n += uint(int(popcount(c_ok[w])));
    }
    int _1843 = 1 + int(lid);
    for (int b_1 = _1843; b_1 <= last_bin; b_1 += _1920)
    {
        if (((c_ok[uint(b_1) >> uint(5)] >> (uint(b_1) & 31u)) & 1u) == 0u)
        {
            continue;
        }
        ulong r = c_ratio[b_1];
        uint rank = 0u;
        for (int o = 1; o <= last_bin; o++)
        {
            bool _1890 = ((c_ok[uint(o) >> uint(5)] >> (uint(o) & 31u)) & 1u) != 0u;
            bool _1906;
            if (_1890)
            {
                ulong param_15 = c_ratio[o];
                uint param_16 = uint(o);
                ulong param_17 = r;
                uint param_18 = uint(b_1);
                _1906 = cat_before(param_15, param_16, param_17, param_18);
            }
            else
            {
                _1906 = _1890;
            }
            if (_1906)
            {
                rank++;
            }
        }
        c_bin[rank] = uint(b_1);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    return n;
}

static inline __attribute__((always_inline))
uint2 f64_words(thread const ulong& a)
{
    return as_type<uint2>(a);
}

kernel void split_eval(constant Push& pc [[buffer(0)]], const device Hist& v_1519 [[buffer(1)]], const device Offsets& _1972 [[buffer(2)]], const device Mask& _2057 [[buffer(3)]], device Records& _2883 [[buffer(4)]], const device Categorical& _2069 [[buffer(5)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    threadgroup uint c_ok[8];
    threadgroup ulong c_ratio[256];
    threadgroup uint c_bin[256];
    threadgroup long2 c_prefix[256];
    threadgroup ulong s_gain[WG];
    threadgroup int3 s_key[WG];
    threadgroup long2 s_left[WG];
    threadgroup uint c_set[8];
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
    for (uint k = _1972.feature_offset[0]; k < _1972.feature_offset[1]; k++)
    {
        uint param_5 = k;
        total += load(param_5, v_1519);
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
        bool _2051 = pc.has_mask != 0u;
        bool _2062;
        if (_2051)
        {
            _2062 = _2057.mask[f] == 0u;
        }
        else
        {
            _2062 = _2051;
        }
        bool _2074;
        if (!_2062)
        {
            _2074 = _2069.categorical[f] != 0u;
        }
        else
        {
            _2074 = _2062;
        }
        if (_2074)
        {
            continue;
        }
        uint first = _1972.feature_offset[f];
        int last_bin = int(_1972.feature_offset[f + 1u] - first) - 1;
        int seg_len = ((last_bin + int(segments)) - 1) / int(segments);
        int b_lo = 1 + (int(seg) * seg_len);
        int b_hi = min(last_bin, ((b_lo + seg_len) - 1));
        if (b_lo > b_hi)
        {
            continue;
        }
        uint param_16 = first;
        long2 missing = load(param_16, v_1519);
        long2 cum = long2(0l);
        for (int b = 1; b < b_lo; b++)
        {
            uint param_17 = first + uint(b);
            cum += load(param_17, v_1519);
        }
        for (int b_1 = b_lo; b_1 <= b_hi; b_1++)
        {
            uint param_18 = first + uint(b_1);
            cum += load(param_18, v_1519);
            bool _2164 = b_1 < last_bin;
            bool _2177;
            if (_2164)
            {
                bool _2169 = missing.y != 0l;
                bool _2176;
                if (!_2169)
                {
                    _2176 = missing.x != 0l;
                }
                else
                {
                    _2176 = _2169;
                }
                _2177 = _2176;
            }
            else
            {
                _2177 = _2164;
            }
            int last_dl = int(_2177);
            for (int dl = 0; dl <= last_dl; dl++)
            {
                long2 L = cum;
                if (dl != 0)
                {
                    L += missing;
                }
                long2 R = total - L;
                bool _2203 = L.y <= 0l;
                bool _2210;
                if (!_2203)
                {
                    _2210 = R.y <= 0l;
                }
                else
                {
                    _2210 = _2203;
                }
                if (_2210)
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
                bool _2236 = f64_lt(param_25, param_26);
                bool _2245;
                if (!_2236)
                {
                    ulong param_27 = hr;
                    ulong param_28 = min_child_weight;
                    _2245 = f64_lt(param_27, param_28);
                }
                else
                {
                    _2245 = _2236;
                }
                if (_2245)
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
    uint num_cat = _2069.categorical[pc.num_features];
    long2 _2398;
    long2 _2567;
    for (uint c = 0u; c < num_cat; c++)
    {
        uint f_1 = _2069.categorical[(pc.num_features + 1u) + c];
        bool _2349 = pc.has_mask != 0u;
        bool _2356;
        if (_2349)
        {
            _2356 = _2057.mask[f_1] == 0u;
        }
        else
        {
            _2356 = _2349;
        }
        if (_2356)
        {
            continue;
        }
        uint first_1 = _1972.feature_offset[f_1];
        int last_bin_1 = int(_1972.feature_offset[f_1 + 1u] - first_1) - 1;
        uint param_55 = first_1;
        long2 missing_1 = load(param_55, v_1519);
        if (last_bin_1 <= pc.max_cat_to_onehot)
        {
            int _2386 = int(lid);
            for (int b_2 = _2386; b_2 <= last_bin_1; b_2 += _2453)
            {
                if (b_2 == 0)
                {
                    _2398 = long2(0l);
                }
                else
                {
                    uint param_56 = first_1 + uint(b_2);
                    _2398 = load(param_56, v_1519);
                }
                long2 h = _2398;
                bool _2410 = b_2 != 0;
                bool _2416;
                if (_2410)
                {
                    _2416 = h.y <= 0l;
                }
                else
                {
                    _2416 = _2410;
                }
                if (_2416)
                {
                    continue;
                }
                long2 param_57 = total;
                ulong param_58 = parent;
                ulong param_59 = lambda;
                ulong param_60 = alpha;
                ulong param_61 = sg;
                ulong param_62 = sh;
                ulong param_63 = min_child_weight;
                long2 param_64 = h;
                long2 param_65 = missing_1;
                int param_66 = int(f_1);
                int param_67 = b_2;
                ulong param_68 = best_gain;
                int3 param_69 = best;
                long2 param_70 = best_left;
                try_cat(param_57, param_58, param_59, param_60, param_61, param_62, param_63, param_64, param_65, param_66, param_67, param_68, param_69, param_70);
                best_gain = param_68;
                best = param_69;
                best_left = param_70;
            }
            continue;
        }
        uint2 param_71 = pc.cat_l2;
        ulong param_72 = lambda;
        ulong param_73 = f64_from_words(param_71);
        ulong cat_lambda = f64_add(param_72, param_73);
        long param_74 = total.x;
        ulong param_75 = f64_from_i64(param_74);
        ulong param_76 = sg;
        long param_77 = total.y;
        ulong param_78 = f64_from_i64(param_77);
        ulong param_79 = sh;
        ulong param_80 = f64_div(param_75, param_76);
        ulong param_81 = f64_div(param_78, param_79);
        ulong param_82 = cat_lambda;
        ulong param_83 = alpha;
        ulong cat_parent = node_score(param_80, param_81, param_82, param_83);
        uint param_84 = first_1;
        int param_85 = last_bin_1;
        ulong param_86 = sg;
        ulong param_87 = sh;
        uint _2500 = order_categories(param_84, param_85, param_86, param_87, v_1519, gl_LocalInvocationID, pc, c_ok, c_ratio, c_bin);
        uint n = _2500;
        if (lid == 0u)
        {
            long2 sum = long2(0l);
            c_prefix[0] = sum;
            for (uint k_1 = 1u; k_1 <= n; k_1++)
            {
                uint param_88 = first_1 + c_bin[k_1 - 1u];
                sum += load(param_88, v_1519);
                c_prefix[k_1] = sum;
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        uint kmax = min(n, uint(max(pc.max_cat_threshold, 0)));
        for (uint item_1 = lid; item_1 < (2u * kmax); item_1 += WG)
        {
            uint dir = item_1 / kmax;
            uint k_2 = (item_1 % kmax) + 1u;
            if (dir == 0u)
            {
                _2567 = c_prefix[k_2];
            }
            else
            {
                _2567 = c_prefix[n] - c_prefix[n - k_2];
            }
            long2 left = _2567;
            long2 param_89 = total;
            ulong param_90 = cat_parent;
            ulong param_91 = cat_lambda;
            ulong param_92 = alpha;
            ulong param_93 = sg;
            ulong param_94 = sh;
            ulong param_95 = min_child_weight;
            long2 param_96 = left;
            long2 param_97 = missing_1;
            int param_98 = int(f_1);
            int param_99 = (int(dir) * 256) + int(k_2);
            ulong param_100 = best_gain;
            int3 param_101 = best;
            long2 param_102 = best_left;
            try_cat(param_89, param_90, param_91, param_92, param_93, param_94, param_95, param_96, param_97, param_98, param_99, param_100, param_101, param_102);
            best_gain = param_100;
            best = param_101;
            best_left = param_102;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    s_gain[lid] = best_gain;
    s_key[lid] = best;
    s_left[lid] = best_left;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint half_size = _2647; half_size > 0u; half_size = half_size >> uint(1))
    {
        if (lid < half_size)
        {
            uint o = lid + half_size;
            ulong param_103 = s_gain[o];
            int param_104 = ((threadgroup int*)&s_key[o])[0u];
            int param_105 = ((threadgroup int*)&s_key[o])[1u];
            int param_106 = ((threadgroup int*)&s_key[o])[2u];
            ulong param_107 = s_gain[lid];
            int param_108 = ((threadgroup int*)&s_key[lid])[0u];
            int param_109 = ((threadgroup int*)&s_key[lid])[1u];
            int param_110 = ((threadgroup int*)&s_key[lid])[2u];
            if (split_better(param_103, param_104, param_105, param_106, param_107, param_108, param_109, param_110))
            {
                s_gain[lid] = s_gain[o];
                s_key[lid] = s_key[o];
                s_left[lid] = s_left[o];
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    int3 win = s_key[0];
    bool _2723 = win.x >= 0;
    bool _2732;
    if (_2723)
    {
        _2732 = _2069.categorical[uint(win.x)] != 0u;
    }
    else
    {
        _2732 = _2723;
    }
    bool win_cat = _2732;
    if (lid < 8u)
    {
        c_set[lid] = 0u;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (win_cat)
    {
        uint first_2 = _1972.feature_offset[uint(win.x)];
        int last_bin_2 = int(_1972.feature_offset[uint(win.x) + 1u] - first_2) - 1;
        if (last_bin_2 <= pc.max_cat_to_onehot)
        {
            bool _2767 = lid == 0u;
            bool _2773;
            if (_2767)
            {
                _2773 = win.y > 0;
            }
            else
            {
                _2773 = _2767;
            }
            if (_2773)
            {
                c_set[uint(win.y) >> uint(5)] = 1u << (uint(win.y) & 31u);
            }
        }
        else
        {
            uint param_111 = first_2;
            int param_112 = last_bin_2;
            ulong param_113 = sg;
            ulong param_114 = sh;
            uint _2796 = order_categories(param_111, param_112, param_113, param_114, v_1519, gl_LocalInvocationID, pc, c_ok, c_ratio, c_bin);
            uint n_1 = _2796;
            uint dir_1 = uint(win.y / 256);
            uint k_3 = uint(win.y % 256);
            uint _2824;
            for (uint i = lid; (i < k_3) && (i < n_1); i += WG)
            {
                if (dir_1 != 0u)
                {
                    _2824 = (n_1 - 1u) - i;
                }
                else
                {
                    _2824 = i;
                }
                uint b_3 = c_bin[_2824];
                uint _2842 = atomic_fetch_or_explicit((threadgroup atomic_uint*)&c_set[b_3 >> uint(5)], 1u << (b_3 & 31u), memory_order_relaxed);
            }
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid == 0u)
    {
        int3 key = s_key[0];
        long2 _2856;
        if (key.x >= 0)
        {
            _2856 = s_left[0];
        }
        else
        {
            _2856 = total;
        }
        long2 L_1 = _2856;
        long2 _2868;
        if (key.x >= 0)
        {
            _2868 = total - L_1;
        }
        else
        {
            _2868 = long2(0l);
        }
        long2 R_1 = _2868;
        uint o_1 = record * 27u;
        _2883.records[o_1 + 0u] = uint(node);
        _2883.records[o_1 + 1u] = uint(key.x);
        uint _2900;
        if (key.x >= 0)
        {
            _2900 = uint(key.y);
        }
        else
        {
            _2900 = 0u;
        }
        _2883.records[o_1 + 2u] = _2900;
        uint _2915;
        if (key.x >= 0)
        {
            _2915 = uint(key.z);
        }
        else
        {
            _2915 = 0u;
        }
        _2883.records[o_1 + 3u] = _2915;
        ulong _2928;
        if (key.x >= 0)
        {
            _2928 = s_gain[0];
        }
        else
        {
            _2928 = 0ul;
        }
        ulong param_115 = _2928;
        uint2 gw = f64_words(param_115);
        _2883.records[o_1 + 4u] = gw.x;
        _2883.records[o_1 + 5u] = gw.y;
        spvUnsafeArray<long2, 3> _2955 = spvUnsafeArray<long2, 3>({ L_1, R_1, total });
        spvUnsafeArray<long2, 3> sums;
        sums = _2955;
        for (uint k_4 = 0u; k_4 < 3u; k_4++)
        {
            uint2 g = as_type<uint2>(ulong(sums[k_4].x));
            uint2 h_1 = as_type<uint2>(ulong(sums[k_4].y));
            _2883.records[(o_1 + 6u) + (4u * k_4)] = g.x;
            _2883.records[(o_1 + 7u) + (4u * k_4)] = g.y;
            _2883.records[(o_1 + 8u) + (4u * k_4)] = h_1.x;
            _2883.records[(o_1 + 9u) + (4u * k_4)] = h_1.y;
        }
        _2883.records[o_1 + 18u] = uint(win_cat);
        for (uint w = 0u; w < 8u; w++)
        {
            _2883.records[(o_1 + 19u) + w] = c_set[w];
        }
    }
}

