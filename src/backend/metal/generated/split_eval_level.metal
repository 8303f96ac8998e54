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
    uint2 max_delta_step;
    uint2 lower;
    uint2 upper;
    uint2 monotone_gain_factor;
    int node;
    uint record;
    uint features;
    uint min_data_in_leaf;
    int max_cat_to_onehot;
    int max_cat_threshold;
    uint bounds_first;
    uint node_rows;
};

#ifndef SPIRV_CROSS_CONSTANT_ID_0
#define SPIRV_CROSS_CONSTANT_ID_0 256u
#endif
constant uint WG = SPIRV_CROSS_CONSTANT_ID_0;
constant int _2223 = int(WG + 0u);
constant int _2324 = int(WG + 0u);

struct Nodes
{
    uint4 level_nodes[1];
};

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

constant uint _3252 = (WG / 2u);

struct Records
{
    uint records[1];
};

constant uint _3642_tmp [[function_constant(0)]];
constant uint _3642 = is_function_constant_defined(_3642_tmp) ? _3642_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_3642, 1u, 1u);

constant spvUnsafeArray<ulong, 14> _3659 = spvUnsafeArray<ulong, 14>({ 4460272573143870729ul, 4477122120089393304ul, 4493156764026750180ul, 4508805057796939612ul, 4523617214285662004ul, 4537941361671905306ul, 4551452160554016794ul, 4564047942368979991ul, 4575957461383581969ul, 4586165620538955093ul, 4595172819793696085ul, 4602678819172646912ul, 4607182418800017408ul, 4607182418800017408ul });
constant spvUnsafeArray<ulong, 13> _3674 = spvUnsafeArray<ulong, 13>({ 4585925428558828667ul, 4586426698778222948ul, 4587023449039406616ul, 4587745830934523688ul, 4588638185040256542ul, 4589468260265693457ul, 4590207312512236308ul, 4591215111030249286ul, 4592670820000712476ul, 4594314991293244562ul, 4596373779694328218ul, 4599676419421066581ul, 4607182418800017408ul });

static inline __attribute__((always_inline))
ulong f64_from_words(thread const uint2& w)
{
    return as_type<ulong>(w);
}

static inline __attribute__((always_inline))
bool sf_is_nan(thread const ulong& a)
{
    return (a & 9223372036854775807ul) > 9218868437227405312ul;
}

static inline __attribute__((always_inline))
bool sf_lt(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    bool _1355 = sf_is_nan(param);
    bool _1362;
    if (!_1355)
    {
        ulong param_1 = b;
        _1362 = sf_is_nan(param_1);
    }
    else
    {
        _1362 = _1355;
    }
    if (_1362)
    {
        return false;
    }
    bool na = (a & 9223372036854775808ul) != 0ul;
    bool nb = (b & 9223372036854775808ul) != 0ul;
    if (na != nb)
    {
        bool _1387;
        if (na)
        {
            _1387 = ((a | b) & 9223372036854775807ul) != 0ul;
        }
        else
        {
            _1387 = na;
        }
        return _1387;
    }
    bool _1391 = a != b;
    bool _1399;
    if (_1391)
    {
        _1399 = na != (a < b);
    }
    else
    {
        _1399 = _1391;
    }
    return _1399;
}

static inline __attribute__((always_inline))
bool f64_gt(thread const ulong& a, thread const ulong& b)
{
    ulong param = b;
    ulong param_1 = a;
    return sf_lt(param, param_1);
}

static inline __attribute__((always_inline))
ulong f64_from_bits(thread const ulong& b)
{
    return b;
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
long2 load(thread const uint& i, const device Hist& v_1746, thread uint& hist_base)
{
    uint4 v = v_1746.hist[hist_base + i];
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
            bool _373 = e > 2045;
            bool _382;
            if (!_373)
            {
                _382 = (sig + 512ul) >= 9223372036854775808ul;
            }
            else
            {
                _382 = _373;
            }
            if (_382)
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
    ulong _454 = sf_round_pack(param_4, param_5, param_6);
    return _454;
}

static inline __attribute__((always_inline))
ulong sf_from_i64(thread const long& a)
{
    if ((ulong(a) & 9223372036854775807ul) == 0ul)
    {
        return (a != 0l) ? 14114281232179134464ul : 0ul;
    }
    ulong _sign = (a < 0l) ? 9223372036854775808ul : 0ul;
    ulong _1306;
    if (a < 0l)
    {
        _1306 = 0ul - ulong(a);
    }
    else
    {
        _1306 = ulong(a);
    }
    ulong m = _1306;
    ulong param = _sign;
    int param_1 = 1084;
    ulong param_2 = m;
    ulong _1322 = sf_norm_round_pack(param, param_1, param_2);
    return _1322;
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
        bool _954 = sa != 0ul;
        bool _963;
        if (!_954)
        {
            _963 = (eb == 2047) && (sb != 0ul);
        }
        else
        {
            _963 = _954;
        }
        if (_963)
        {
            ulong param_2 = a;
            ulong param_3 = b;
            return sf_propagate_nan(param_2, param_3);
        }
        ulong _978;
        if ((ulong(long(eb)) | sb) == 0ul)
        {
            _978 = 18444492273895866368ul;
        }
        else
        {
            _978 = _sign | 9218868437227405312ul;
        }
        return _978;
    }
    if (eb == 2047)
    {
        if (sb != 0ul)
        {
            ulong param_4 = a;
            ulong param_5 = b;
            return sf_propagate_nan(param_4, param_5);
        }
        ulong _1006;
        if ((ulong(long(ea)) | sa) == 0ul)
        {
            _1006 = 18444492273895866368ul;
        }
        else
        {
            _1006 = _sign | 9218868437227405312ul;
        }
        return _1006;
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
    ulong _1085 = sf_round_pack(param_10, param_11, param_12);
    return _1085;
}

static inline __attribute__((always_inline))
ulong f64_mul(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_mul(param, param_1);
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
            ulong _1127;
            if (sb != 0ul)
            {
                ulong param_4 = a;
                ulong param_5 = b;
                _1127 = sf_propagate_nan(param_4, param_5);
            }
            else
            {
                _1127 = 18444492273895866368ul;
            }
            return _1127;
        }
        return _sign | 9218868437227405312ul;
    }
    if (eb == 2047)
    {
        ulong _1147;
        if (sb != 0ul)
        {
            ulong param_6 = a;
            ulong param_7 = b;
            _1147 = sf_propagate_nan(param_6, param_7);
        }
        else
        {
            _1147 = _sign;
        }
        return _1147;
    }
    if (eb == 0)
    {
        if (sb == 0ul)
        {
            ulong _1173;
            if ((ulong(long(ea)) | sa) == 0ul)
            {
                _1173 = 18444492273895866368ul;
            }
            else
            {
                _1173 = _sign | 9218868437227405312ul;
            }
            return _1173;
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
    ulong _1285 = sf_round_pack(param_10, param_11, param_12);
    return _1285;
}

static inline __attribute__((always_inline))
ulong f64_div(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_div(param, param_1);
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
            ulong _654;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _654 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _654 = 18444492273895866368ul;
            }
            return _654;
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
            ulong _735;
            if (sb != 0ul)
            {
                ulong param_8 = a;
                ulong param_9 = b;
                _735 = sf_propagate_nan(param_8, param_9);
            }
            else
            {
                _735 = _sign | 9218868437227405312ul;
            }
            return _735;
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
            ulong _775;
            if (sa != 0ul)
            {
                ulong param_12 = a;
                ulong param_13 = b;
                _775 = sf_propagate_nan(param_12, param_13);
            }
            else
            {
                _775 = a;
            }
            return _775;
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
    ulong _811 = sf_norm_round_pack(param_16, param_17, param_18);
    return _811;
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
            ulong _497;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _497 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _497 = a;
            }
            return _497;
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
                ulong _534;
                if (sb != 0ul)
                {
                    ulong param_4 = a;
                    ulong param_5 = b;
                    _534 = sf_propagate_nan(param_4, param_5);
                }
                else
                {
                    _534 = _sign | 9218868437227405312ul;
                }
                return _534;
            }
            ez = eb;
            ulong _550;
            if (ea != 0)
            {
                _550 = sa + 2305843009213693952ul;
            }
            else
            {
                _550 = sa << ulong(1);
            }
            sa = _550;
            ulong param_6 = sa;
            int param_7 = -d;
            sa = sf_shift_right_jam(param_6, param_7);
        }
        else
        {
            if (ea == 2047)
            {
                ulong _573;
                if (sa != 0ul)
                {
                    ulong param_8 = a;
                    ulong param_9 = b;
                    _573 = sf_propagate_nan(param_8, param_9);
                }
                else
                {
                    _573 = a;
                }
                return _573;
            }
            ez = ea;
            ulong _588;
            if (eb != 0)
            {
                _588 = sb + 2305843009213693952ul;
            }
            else
            {
                _588 = sb << ulong(1);
            }
            sb = _588;
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
    ulong _621 = sf_round_pack(param_12, param_13, param_14);
    return _621;
}

static inline __attribute__((always_inline))
ulong sf_sub(thread const ulong& a, thread const ulong& b)
{
    if (((a ^ b) & 9223372036854775808ul) == 0ul)
    {
        ulong param = a;
        ulong param_1 = b;
        ulong param_2 = a & 9223372036854775808ul;
        ulong _854 = sf_sub_mags(param, param_1, param_2);
        return _854;
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
    ulong _837 = sf_sub_mags(param_3, param_4, param_5);
    return _837;
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
ulong clamp_weight(thread ulong& w, thread const ulong& max_delta_step, thread const ulong& lo, thread const ulong& hi)
{
    ulong param = max_delta_step;
    ulong param_1 = 0ul;
    if (f64_gt(param, param_1))
    {
        ulong param_2 = w;
        ulong param_3 = max_delta_step;
        if (f64_gt(param_2, param_3))
        {
            w = max_delta_step;
        }
        else
        {
            ulong param_4 = max_delta_step;
            ulong param_5 = w;
            ulong param_6 = f64_neg(param_4);
            if (f64_lt(param_5, param_6))
            {
                ulong param_7 = max_delta_step;
                w = f64_neg(param_7);
            }
        }
    }
    ulong param_8 = w;
    ulong param_9 = lo;
    if (f64_lt(param_8, param_9))
    {
        return lo;
    }
    ulong param_10 = w;
    ulong param_11 = hi;
    if (f64_gt(param_10, param_11))
    {
        return hi;
    }
    return w;
}

static inline __attribute__((always_inline))
bool sf_eq(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    bool _1327 = sf_is_nan(param);
    bool _1334;
    if (!_1327)
    {
        ulong param_1 = b;
        _1334 = sf_is_nan(param_1);
    }
    else
    {
        _1334 = _1327;
    }
    if (_1334)
    {
        return false;
    }
    bool _1341 = a == b;
    bool _1350;
    if (!_1341)
    {
        _1350 = ((a | b) & 9223372036854775807ul) == 0ul;
    }
    else
    {
        _1350 = _1341;
    }
    return _1350;
}

static inline __attribute__((always_inline))
bool f64_eq(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_eq(param, param_1);
}

static inline __attribute__((always_inline))
ulong bounded_score(thread const ulong& G, thread const ulong& H, thread const ulong& lambda, thread const ulong& alpha, thread const ulong& max_delta_step, thread const ulong& lo, thread const ulong& hi, thread ulong& weight)
{
    ulong param = G;
    ulong param_1 = alpha;
    ulong t = l1_threshold(param, param_1);
    ulong param_2 = t;
    ulong param_3 = H;
    ulong param_4 = lambda;
    ulong param_5 = f64_neg(param_2);
    ulong param_6 = f64_add(param_3, param_4);
    ulong optimum = f64_div(param_5, param_6);
    ulong param_7 = optimum;
    ulong param_8 = max_delta_step;
    ulong param_9 = lo;
    ulong param_10 = hi;
    ulong _1597 = clamp_weight(param_7, param_8, param_9, param_10);
    ulong w = _1597;
    weight = w;
    ulong param_11 = w;
    ulong param_12 = optimum;
    if (f64_eq(param_11, param_12))
    {
        ulong param_13 = t;
        ulong param_14 = t;
        ulong param_15 = H;
        ulong param_16 = lambda;
        ulong param_17 = f64_mul(param_13, param_14);
        ulong param_18 = f64_add(param_15, param_16);
        return f64_div(param_17, param_18);
    }
    ulong param_19 = w;
    ulong param_20 = 0ul;
    ulong _1625;
    if (f64_lt(param_19, param_20))
    {
        ulong param_21 = w;
        _1625 = f64_neg(param_21);
    }
    else
    {
        _1625 = w;
    }
    ulong abs_w = _1625;
    ulong param_22 = 4611686018427387904ul;
    ulong param_23 = G;
    ulong param_24 = f64_mul(param_22, param_23);
    ulong param_25 = w;
    ulong param_26 = H;
    ulong param_27 = lambda;
    ulong param_28 = w;
    ulong param_29 = w;
    ulong param_30 = f64_add(param_26, param_27);
    ulong param_31 = f64_mul(param_28, param_29);
    ulong param_32 = f64_mul(param_24, param_25);
    ulong param_33 = f64_mul(param_30, param_31);
    ulong param_34 = 4611686018427387904ul;
    ulong param_35 = alpha;
    ulong param_36 = f64_mul(param_34, param_35);
    ulong param_37 = abs_w;
    ulong param_38 = f64_add(param_32, param_33);
    ulong param_39 = f64_mul(param_36, param_37);
    ulong param_40 = f64_add(param_38, param_39);
    return f64_neg(param_40);
}

static inline __attribute__((always_inline))
bool rows_reach(thread const long& part, thread const uint& node_rows, thread const ulong& limit)
{
    if (node_rows == 0u)
    {
        return true;
    }
    long product = part * long(ulong(node_rows));
    if (product < 9007199254740992l)
    {
        long param = product;
        ulong param_1 = f64_from_i64(param);
        ulong param_2 = limit;
        return !f64_lt(param_1, param_2);
    }
    long param_3 = part;
    long param_4 = long(ulong(node_rows));
    ulong param_5 = f64_from_i64(param_3);
    ulong param_6 = f64_from_i64(param_4);
    ulong param_7 = f64_mul(param_5, param_6);
    ulong param_8 = limit;
    return !f64_lt(param_7, param_8);
}

static inline __attribute__((always_inline))
bool monotone_ok(thread const int& constraint, thread const ulong& wl, thread const ulong& wr)
{
    if (constraint > 0)
    {
        ulong param = wl;
        ulong param_1 = wr;
        return !f64_gt(param, param_1);
    }
    if (constraint < 0)
    {
        ulong param_2 = wl;
        ulong param_3 = wr;
        return !f64_lt(param_2, param_3);
    }
    return true;
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
void try_split(thread const long2& total, thread const ulong& parent, thread const ulong& lambda, thread const ulong& alpha, thread const ulong& sg, thread const ulong& sh, thread const ulong& min_child_weight, thread const ulong& lo, thread const ulong& hi, thread const bool& bounded, thread const int& constraint, thread const long2& left, thread const long2& missing, thread const int& two_way, thread const int& f, thread const int& key, thread const uint& rows, thread const ulong& rows_limit, thread ulong& best_gain, thread int3& best, thread long2& best_left, constant Push& pc)
{
    ulong param_30;
    ulong param_38;
    ulong gain;
    for (int dl = 0; dl <= two_way; dl++)
    {
        long2 L = left;
        if (dl != 0)
        {
            L += missing;
        }
        long2 R = total - L;
        bool _1853 = L.y <= 0l;
        bool _1860;
        if (!_1853)
        {
            _1860 = R.y <= 0l;
        }
        else
        {
            _1860 = _1853;
        }
        if (_1860)
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
        bool _1886 = f64_lt(param_6, param_7);
        bool _1895;
        if (!_1886)
        {
            ulong param_8 = hr;
            ulong param_9 = min_child_weight;
            _1895 = f64_lt(param_8, param_9);
        }
        else
        {
            _1895 = _1886;
        }
        if (_1895)
        {
            continue;
        }
        long param_10 = L.y;
        uint param_11 = rows;
        ulong param_12 = rows_limit;
        bool _1907 = !rows_reach(param_10, param_11, param_12);
        bool _1920;
        if (!_1907)
        {
            long param_13 = R.y;
            uint param_14 = rows;
            ulong param_15 = rows_limit;
            _1920 = !rows_reach(param_13, param_14, param_15);
        }
        else
        {
            _1920 = _1907;
        }
        if (_1920)
        {
            continue;
        }
        long param_16 = L.x;
        ulong param_17 = f64_from_i64(param_16);
        ulong param_18 = sg;
        ulong gl = f64_div(param_17, param_18);
        long param_19 = R.x;
        ulong param_20 = f64_from_i64(param_19);
        ulong param_21 = sg;
        ulong gr = f64_div(param_20, param_21);
        if (bounded || (constraint != 0))
        {
            uint2 param_22 = pc.max_delta_step;
            ulong mds = f64_from_words(param_22);
            ulong param_23 = gl;
            ulong param_24 = hl;
            ulong param_25 = lambda;
            ulong param_26 = alpha;
            ulong param_27 = mds;
            ulong param_28 = lo;
            ulong param_29 = hi;
            ulong _1975 = bounded_score(param_23, param_24, param_25, param_26, param_27, param_28, param_29, param_30);
            ulong wl = param_30;
            ulong sl = _1975;
            ulong param_31 = gr;
            ulong param_32 = hr;
            ulong param_33 = lambda;
            ulong param_34 = alpha;
            ulong param_35 = mds;
            ulong param_36 = lo;
            ulong param_37 = hi;
            ulong _1994 = bounded_score(param_31, param_32, param_33, param_34, param_35, param_36, param_37, param_38);
            ulong wr = param_38;
            ulong sr = _1994;
            int param_39 = constraint;
            ulong param_40 = wl;
            ulong param_41 = wr;
            if (!monotone_ok(param_39, param_40, param_41))
            {
                continue;
            }
            ulong param_42 = sl;
            ulong param_43 = sr;
            ulong param_44 = f64_add(param_42, param_43);
            ulong param_45 = parent;
            gain = f64_sub(param_44, param_45);
            if (constraint != 0)
            {
                uint2 param_46 = pc.monotone_gain_factor;
                ulong param_47 = gain;
                ulong param_48 = f64_from_words(param_46);
                gain = f64_mul(param_47, param_48);
            }
        }
        else
        {
            ulong param_49 = gl;
            ulong param_50 = hl;
            ulong param_51 = lambda;
            ulong param_52 = alpha;
            ulong param_53 = gr;
            ulong param_54 = hr;
            ulong param_55 = lambda;
            ulong param_56 = alpha;
            ulong param_57 = node_score(param_49, param_50, param_51, param_52);
            ulong param_58 = node_score(param_53, param_54, param_55, param_56);
            ulong param_59 = f64_add(param_57, param_58);
            ulong param_60 = parent;
            gain = f64_sub(param_59, param_60);
        }
        ulong param_61 = gain;
        int param_62 = f;
        int param_63 = key;
        int param_64 = dl;
        ulong param_65 = best_gain;
        int param_66 = best.x;
        int param_67 = best.y;
        int param_68 = best.z;
        if (split_better(param_61, param_62, param_63, param_64, param_65, param_66, param_67, param_68))
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
uint order_categories(thread const uint& first, thread const int& last_bin, thread const ulong& sg, thread const ulong& sh, const device Hist& v_1746, thread uint& hist_base, constant Push& pc, thread uint3& gl_LocalInvocationID, threadgroup uint (&c_ok)[8], threadgroup ulong (&c_ratio)[256], threadgroup uint (&c_bin)[256])
{
    uint lid = gl_LocalInvocationID.x;
    uint2 param = pc.cat_smooth;
    ulong cat_smooth = f64_from_words(param);
    uint2 param_1 = pc.min_child_weight;
    ulong min_child_weight = f64_from_words(param_1);
    if (lid < 8u)
    {
        c_ok[lid] = 0u;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    int _2149 = 1 + int(lid);
    for (int b = _2149; b <= last_bin; b += _2223)
    {
        uint param_2 = first + uint(b);
        long2 h = load(param_2, v_1746, hist_base);
        long param_3 = h.y;
        ulong param_4 = f64_from_i64(param_3);
        ulong param_5 = sh;
        ulong hs = f64_div(param_4, param_5);
        bool _2176 = h.y <= 0l;
        bool _2185;
        if (!_2176)
        {
            ulong param_6 = hs;
            ulong param_7 = min_child_weight;
            _2185 = f64_lt(param_6, param_7);
        }
        else
        {
            _2185 = _2176;
        }
        if (_2185)
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
        uint _2221 = atomic_fetch_or_explicit((threadgroup atomic_uint*)&c_ok[uint(b) >> uint(5)], 1u << (uint(b) & 31u), memory_order_relaxed);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint n = 0u;
    for (uint w = 0u; w < 8u; w++)
    {
        n += uint(int(popcount(c_ok[w])));
    }
    int _2247 = 1 + int(lid);
    for (int b_1 = _2247; b_1 <= last_bin; b_1 += _2324)
    {
        if (((c_ok[uint(b_1) >> uint(5)] >> (uint(b_1) & 31u)) & 1u) == 0u)
        {
            continue;
        }
        ulong r = c_ratio[b_1];
        uint rank = 0u;
        for (int o = 1; o <= last_bin; o++)
        {
            bool _2294 = ((c_ok[uint(o) >> uint(5)] >> (uint(o) & 31u)) & 1u) != 0u;
            bool _2310;
            if (_2294)
            {
                ulong param_15 = c_ratio[o];
                uint param_16 = uint(o);
                ulong param_17 = r;
                uint param_18 = uint(b_1);
                _2310 = cat_before(param_15, param_16, param_17, param_18);
            }
            else
            {
                _2310 = _2294;
            }
            if (_2310)
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
int cat_group_step(thread long& added, thread const long& cat, thread const long& left, thread const long& whole, thread const uint& node_rows, thread const ulong& limit)
{
    added += cat;
    long param = whole - left;
    uint param_1 = node_rows;
    ulong param_2 = limit;
    if (!rows_reach(param, param_1, param_2))
    {
        return -1;
    }
    long param_3 = added;
    uint param_4 = node_rows;
    ulong param_5 = limit;
    if (!rows_reach(param_3, param_4, param_5))
    {
        return 0;
    }
    added = 0l;
    return 1;
}

static inline __attribute__((always_inline))
uint2 f64_words(thread const ulong& a)
{
    return as_type<uint2>(a);
}

kernel void split_eval_level(constant Push& pc [[buffer(0)]], const device Hist& v_1746 [[buffer(1)]], const device Offsets& _2469 [[buffer(2)]], const device Mask& _2581 [[buffer(3)]], device Records& _3488 [[buffer(4)]], const device Categorical& _2596 [[buffer(5)]], const device Nodes& _2337 [[buffer(6)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]])
{
    threadgroup uint c_ok[8];
    threadgroup ulong c_ratio[256];
    threadgroup uint c_bin[256];
    threadgroup long2 c_prefix[256];
    threadgroup uint c_tried[16];
    threadgroup ulong s_gain[WG];
    threadgroup int3 s_key[WG];
    threadgroup long2 s_left[WG];
    threadgroup uint c_set[8];
    uint lid = gl_LocalInvocationID.x;
    uint4 entry = _2337.level_nodes[pc.record + gl_WorkGroupID.x];
    int node = int(entry.x);
    uint record = entry.y;
    uint hist_base = entry.z;
    uint node_rows = entry.w;
    uint2 param = pc.lower;
    ulong lo = f64_from_words(param);
    uint2 param_1 = pc.upper;
    ulong hi = f64_from_words(param_1);
    if (pc.bounds_first != 0u)
    {
        uint4 b = _2337.level_nodes[pc.bounds_first + record];
        uint2 param_2 = b.xy;
        lo = f64_from_words(param_2);
        uint2 param_3 = b.zw;
        hi = f64_from_words(param_3);
    }
    uint2 param_4 = pc.max_delta_step;
    ulong mds = f64_from_words(param_4);
    ulong param_5 = mds;
    ulong param_6 = 0ul;
    bool _2401 = f64_gt(param_5, param_6);
    bool _2412;
    if (!_2401)
    {
        ulong param_7 = 18442240474082181120ul;
        ulong param_8 = lo;
        ulong param_9 = f64_from_bits(param_7);
        _2412 = f64_gt(param_8, param_9);
    }
    else
    {
        _2412 = _2401;
    }
    bool _2424;
    if (!_2412)
    {
        ulong param_10 = 18442240474082181120ul;
        ulong param_11 = f64_from_bits(param_10);
        ulong param_12 = hi;
        ulong param_13 = f64_neg(param_11);
        _2424 = f64_lt(param_12, param_13);
    }
    else
    {
        _2424 = _2412;
    }
    bool bounded = _2424;
    uint2 param_14 = pc.scale_grad;
    ulong sg = f64_from_words(param_14);
    uint2 param_15 = pc.scale_hess;
    ulong sh = f64_from_words(param_15);
    uint2 param_16 = pc.lambda;
    ulong lambda = f64_from_words(param_16);
    uint2 param_17 = pc.alpha;
    ulong alpha = f64_from_words(param_17);
    uint2 param_18 = pc.min_child_weight;
    ulong min_child_weight = f64_from_words(param_18);
    uint num_features = pc.features & 2147483647u;
    bool has_mask = (pc.features >> uint(31)) != 0u;
    long2 total = long2(0l);
    for (uint k = _2469.feature_offset[0]; k < _2469.feature_offset[1]; k++)
    {
        uint param_19 = k;
        total += load(param_19, v_1746, hist_base);
    }
    uint rows = (pc.min_data_in_leaf != 0u) ? node_rows : 0u;
    long param_20 = long(ulong(pc.min_data_in_leaf));
    long param_21 = total.y;
    ulong param_22 = f64_from_i64(param_20);
    ulong param_23 = f64_from_i64(param_21);
    ulong rows_limit = f64_mul(param_22, param_23);
    long param_24 = total.x;
    ulong param_25 = f64_from_i64(param_24);
    ulong param_26 = sg;
    long param_27 = total.y;
    ulong param_28 = f64_from_i64(param_27);
    ulong param_29 = sh;
    ulong param_30 = f64_div(param_25, param_26);
    ulong param_31 = f64_div(param_28, param_29);
    ulong param_32 = lambda;
    ulong param_33 = alpha;
    ulong param_34 = mds;
    ulong param_35 = lo;
    ulong param_36 = hi;
    ulong param_37;
    ulong _2541 = bounded_score(param_30, param_31, param_32, param_33, param_34, param_35, param_36, param_37);
    ulong weight = param_37;
    ulong parent = _2541;
    ulong best_gain = 0ul;
    int3 best = int3(-1, 0, 0);
    long2 best_left = total;
    uint segments = max(1u, (WG / max(num_features, 1u)));
    uint _2575;
    for (uint item = lid; item < (num_features * segments); item += WG)
    {
        uint f = item / segments;
        uint seg = item % segments;
        if (has_mask)
        {
            _2575 = _2581.mask[f];
        }
        else
        {
            _2575 = 1u;
        }
        uint words = _2575;
        bool _2589 = (words & 1u) == 0u;
        bool _2601;
        if (!_2589)
        {
            _2601 = _2596.categorical[f] != 0u;
        }
        else
        {
            _2601 = _2589;
        }
        if (_2601)
        {
            continue;
        }
        int constraint = int((words >> uint(1)) & 1u) - int((words >> uint(2)) & 1u);
        uint first = _2469.feature_offset[f];
        int last_bin = int(_2469.feature_offset[f + 1u] - first) - 1;
        int seg_len = ((last_bin + int(segments)) - 1) / int(segments);
        int b_lo = 1 + (int(seg) * seg_len);
        int b_hi = min(last_bin, ((b_lo + seg_len) - 1));
        if (b_lo > b_hi)
        {
            continue;
        }
        uint param_38 = first;
        long2 missing = load(param_38, v_1746, hist_base);
        long2 cum = long2(0l);
        for (int b_1 = 1; b_1 < b_lo; b_1++)
        {
            uint param_39 = first + uint(b_1);
            cum += load(param_39, v_1746, hist_base);
        }
        for (int b_2 = b_lo; b_2 <= b_hi; b_2++)
        {
            uint param_40 = first + uint(b_2);
            cum += load(param_40, v_1746, hist_base);
            bool _2701 = b_2 < last_bin;
            bool _2714;
            if (_2701)
            {
                bool _2706 = missing.y != 0l;
                bool _2713;
                if (!_2706)
                {
                    _2713 = missing.x != 0l;
                }
                else
                {
                    _2713 = _2706;
                }
                _2714 = _2713;
            }
            else
            {
                _2714 = _2701;
            }
            int two_way = int(_2714);
            long2 param_41 = total;
            ulong param_42 = parent;
            ulong param_43 = lambda;
            ulong param_44 = alpha;
            ulong param_45 = sg;
            ulong param_46 = sh;
            ulong param_47 = min_child_weight;
            ulong param_48 = lo;
            ulong param_49 = hi;
            bool param_50 = bounded;
            int param_51 = constraint;
            long2 param_52 = cum;
            long2 param_53 = missing;
            int param_54 = two_way;
            int param_55 = int(f);
            int param_56 = b_2;
            uint param_57 = rows;
            ulong param_58 = rows_limit;
            ulong param_59 = best_gain;
            int3 param_60 = best;
            long2 param_61 = best_left;
            try_split(param_41, param_42, param_43, param_44, param_45, param_46, param_47, param_48, param_49, param_50, param_51, param_52, param_53, param_54, param_55, param_56, param_57, param_58, param_59, param_60, param_61, pc);
            best_gain = param_59;
            best = param_60;
            best_left = param_61;
        }
    }
    uint num_cat = _2596.categorical[num_features];
    uint _2945;
    long _2968;
    ulong _3032;
    ulong _3049;
    ulong param_94;
    int key;
    long2 left_1;
    long2 _3105;
    long2 _3165;
    for (uint c = 0u; c < num_cat; c++)
    {
        uint f_1 = _2596.categorical[(num_features + 1u) + c];
        bool _2795;
        if (has_mask)
        {
            _2795 = (_2581.mask[f_1] & 1u) == 0u;
        }
        else
        {
            _2795 = has_mask;
        }
        if (_2795)
        {
            continue;
        }
        uint first_1 = _2469.feature_offset[f_1];
        int last_bin_1 = int(_2469.feature_offset[f_1 + 1u] - first_1) - 1;
        uint param_62 = first_1;
        long2 missing_1 = load(param_62, v_1746, hist_base);
        bool _2819 = missing_1.x != 0l;
        bool _2826;
        if (!_2819)
        {
            _2826 = missing_1.y != 0l;
        }
        else
        {
            _2826 = _2819;
        }
        int two_way_1 = int(_2826);
        bool onehot = last_bin_1 <= pc.max_cat_to_onehot;
        uint n = 0u;
        uint items = uint(last_bin_1) + 1u;
        if (!onehot)
        {
            uint param_63 = first_1;
            int param_64 = last_bin_1;
            ulong param_65 = sg;
            ulong param_66 = sh;
            uint _2852 = order_categories(param_63, param_64, param_65, param_66, v_1746, hist_base, pc, gl_LocalInvocationID, c_ok, c_ratio, c_bin);
            n = _2852;
            uint kmax = min(n, uint(max(pc.max_cat_threshold, 0)));
            if (lid == 0u)
            {
                long2 sum = long2(0l);
                c_prefix[0] = sum;
                for (uint k_1 = 1u; k_1 <= n; k_1++)
                {
                    uint param_67 = first_1 + c_bin[k_1 - 1u];
                    sum += load(param_67, v_1746, hist_base);
                    c_prefix[k_1] = sum;
                }
                uint2 param_68 = pc.min_data_per_group;
                long param_69 = total.y;
                ulong param_70 = f64_from_words(param_68);
                ulong param_71 = f64_from_i64(param_69);
                ulong limit = f64_mul(param_70, param_71);
                for (uint w = 0u; w < 16u; w++)
                {
                    c_tried[w] = 0u;
                }
                for (uint dir = 0u; dir < 2u; dir++)
                {
                    long added = 0l;
                    for (uint k_2 = 1u; k_2 <= kmax; k_2++)
                    {
                        if (dir == 0u)
                        {
                            _2945 = k_2 - 1u;
                        }
                        else
                        {
                            _2945 = n - k_2;
                        }
                        uint i = _2945;
                        long cat = ((threadgroup long*)&c_prefix[i + 1u])[1u] - ((threadgroup long*)&c_prefix[i])[1u];
                        if (dir == 0u)
                        {
                            _2968 = ((threadgroup long*)&c_prefix[k_2])[1u];
                        }
                        else
                        {
                            _2968 = ((threadgroup long*)&c_prefix[n])[1u] - ((threadgroup long*)&c_prefix[n - k_2])[1u];
                        }
                        long left = _2968;
                        long param_72 = added;
                        long param_73 = cat;
                        long param_74 = left;
                        long param_75 = total.y;
                        uint param_76 = node_rows;
                        ulong param_77 = limit;
                        int _2999 = cat_group_step(param_72, param_73, param_74, param_75, param_76, param_77);
                        added = param_72;
                        int _step = _2999;
                        if (_step < 0)
                        {
                            break;
                        }
                        if (_step > 0)
                        {
                            uint _3015 = (8u * dir) + ((k_2 - 1u) >> uint(5));
                            c_tried[_3015] |= (1u << ((k_2 - 1u) & 31u));
                        }
                    }
                }
            }
            threadgroup_barrier(mem_flags::mem_threadgroup);
            items = 2u * kmax;
        }
        if (onehot)
        {
            _3032 = lambda;
        }
        else
        {
            uint2 param_78 = pc.cat_l2;
            ulong param_79 = lambda;
            ulong param_80 = f64_from_words(param_78);
            _3032 = f64_add(param_79, param_80);
        }
        ulong cat_lambda = _3032;
        if (onehot)
        {
            _3049 = parent;
        }
        else
        {
            long param_81 = total.x;
            ulong param_82 = f64_from_i64(param_81);
            ulong param_83 = sg;
            long param_84 = total.y;
            ulong param_85 = f64_from_i64(param_84);
            ulong param_86 = sh;
            ulong param_87 = f64_div(param_82, param_83);
            ulong param_88 = f64_div(param_85, param_86);
            ulong param_89 = cat_lambda;
            ulong param_90 = alpha;
            ulong param_91 = mds;
            ulong param_92 = lo;
            ulong param_93 = hi;
            ulong _3083 = bounded_score(param_87, param_88, param_89, param_90, param_91, param_92, param_93, param_94);
            weight = param_94;
            _3049 = _3083;
        }
        ulong cat_parent = _3049;
        for (uint item_1 = lid; item_1 < items; item_1 += WG)
        {
            if (onehot)
            {
                key = int(item_1);
                if (item_1 == 0u)
                {
                    _3105 = long2(0l);
                }
                else
                {
                    uint param_95 = first_1 + item_1;
                    _3105 = load(param_95, v_1746, hist_base);
                }
                left_1 = _3105;
                bool _3116 = item_1 != 0u;
                bool _3122;
                if (_3116)
                {
                    _3122 = left_1.y <= 0l;
                }
                else
                {
                    _3122 = _3116;
                }
                if (_3122)
                {
                    continue;
                }
            }
            else
            {
                uint kmax_1 = items / 2u;
                uint dir_1 = item_1 / kmax_1;
                uint k_3 = (item_1 % kmax_1) + 1u;
                if (((c_tried[(8u * dir_1) + ((k_3 - 1u) >> uint(5))] >> ((k_3 - 1u) & 31u)) & 1u) == 0u)
                {
                    continue;
                }
                key = (int(dir_1) * 256) + int(k_3);
                if (dir_1 == 0u)
                {
                    _3165 = c_prefix[k_3];
                }
                else
                {
                    _3165 = c_prefix[n] - c_prefix[n - k_3];
                }
                left_1 = _3165;
            }
            long2 param_96 = total;
            ulong param_97 = cat_parent;
            ulong param_98 = cat_lambda;
            ulong param_99 = alpha;
            ulong param_100 = sg;
            ulong param_101 = sh;
            ulong param_102 = min_child_weight;
            ulong param_103 = lo;
            ulong param_104 = hi;
            bool param_105 = bounded;
            int param_106 = 0;
            long2 param_107 = left_1;
            long2 param_108 = missing_1;
            int param_109 = two_way_1;
            int param_110 = int(f_1);
            int param_111 = key;
            uint param_112 = rows;
            ulong param_113 = rows_limit;
            ulong param_114 = best_gain;
            int3 param_115 = best;
            long2 param_116 = best_left;
            try_split(param_96, param_97, param_98, param_99, param_100, param_101, param_102, param_103, param_104, param_105, param_106, param_107, param_108, param_109, param_110, param_111, param_112, param_113, param_114, param_115, param_116, pc);
            best_gain = param_114;
            best = param_115;
            best_left = param_116;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    s_gain[lid] = best_gain;
    s_key[lid] = best;
    s_left[lid] = best_left;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint half_size = _3252; half_size > 0u; half_size = half_size >> uint(1))
    {
        if (lid < half_size)
        {
            uint o = lid + half_size;
            ulong param_117 = s_gain[o];
            int param_118 = ((threadgroup int*)&s_key[o])[0u];
            int param_119 = ((threadgroup int*)&s_key[o])[1u];
            int param_120 = ((threadgroup int*)&s_key[o])[2u];
            ulong param_121 = s_gain[lid];
            int param_122 = ((threadgroup int*)&s_key[lid])[0u];
            int param_123 = ((threadgroup int*)&s_key[lid])[1u];
            int param_124 = ((threadgroup int*)&s_key[lid])[2u];
            if (split_better(param_117, param_118, param_119, param_120, param_121, param_122, param_123, param_124))
            {
                s_gain[lid] = s_gain[o];
                s_key[lid] = s_key[o];
                s_left[lid] = s_left[o];
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    int3 win = s_key[0];
    bool _3328 = win.x >= 0;
    bool _3337;
    if (_3328)
    {
        _3337 = _2596.categorical[uint(win.x)] != 0u;
    }
    else
    {
        _3337 = _3328;
    }
    bool win_cat = _3337;
    if (lid < 8u)
    {
        c_set[lid] = 0u;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (win_cat)
    {
        uint first_2 = _2469.feature_offset[uint(win.x)];
        int last_bin_2 = int(_2469.feature_offset[uint(win.x) + 1u] - first_2) - 1;
        if (last_bin_2 <= pc.max_cat_to_onehot)
        {
            bool _3372 = lid == 0u;
            bool _3378;
            if (_3372)
            {
                _3378 = win.y > 0;
            }
            else
            {
                _3378 = _3372;
            }
            if (_3378)
            {
                c_set[uint(win.y) >> uint(5)] = 1u << (uint(win.y) & 31u);
            }
        }
        else
        {
            uint param_125 = first_2;
            int param_126 = last_bin_2;
            ulong param_127 = sg;
            ulong param_128 = sh;
            uint _3401 = order_categories(param_125, param_126, param_127, param_128, v_1746, hist_base, pc, gl_LocalInvocationID, c_ok, c_ratio, c_bin);
            uint n_1 = _3401;
            uint dir_2 = uint(win.y / 256);
            uint k_4 = uint(win.y % 256);
            uint _3429;
            for (uint i_1 = lid; (i_1 < k_4) && (i_1 < n_1); i_1 += WG)
            {
                if (dir_2 != 0u)
                {
                    _3429 = (n_1 - 1u) - i_1;
                }
                else
                {
                    _3429 = i_1;
                }
                uint b_3 = c_bin[_3429];
                uint _3447 = atomic_fetch_or_explicit((threadgroup atomic_uint*)&c_set[b_3 >> uint(5)], 1u << (b_3 & 31u), memory_order_relaxed);
            }
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid == 0u)
    {
        int3 key_1 = s_key[0];
        long2 _3461;
        if (key_1.x >= 0)
        {
            _3461 = s_left[0];
        }
        else
        {
            _3461 = total;
        }
        long2 L = _3461;
        long2 _3473;
        if (key_1.x >= 0)
        {
            _3473 = total - L;
        }
        else
        {
            _3473 = long2(0l);
        }
        long2 R = _3473;
        uint o_1 = record * 27u;
        _3488.records[o_1 + 0u] = uint(node);
        _3488.records[o_1 + 1u] = uint(key_1.x);
        uint _3505;
        if (key_1.x >= 0)
        {
            _3505 = uint(key_1.y);
        }
        else
        {
            _3505 = 0u;
        }
        _3488.records[o_1 + 2u] = _3505;
        uint _3519;
        if (key_1.x >= 0)
        {
            _3519 = uint(key_1.z);
        }
        else
        {
            _3519 = 0u;
        }
        _3488.records[o_1 + 3u] = _3519;
        ulong _3532;
        if (key_1.x >= 0)
        {
            _3532 = s_gain[0];
        }
        else
        {
            _3532 = 0ul;
        }
        ulong param_129 = _3532;
        uint2 gw = f64_words(param_129);
        _3488.records[o_1 + 4u] = gw.x;
        _3488.records[o_1 + 5u] = gw.y;
        spvUnsafeArray<long2, 3> _3559 = spvUnsafeArray<long2, 3>({ L, R, total });
        spvUnsafeArray<long2, 3> sums;
        sums = _3559;
        for (uint k_5 = 0u; k_5 < 3u; k_5++)
        {
            uint2 g = as_type<uint2>(ulong(sums[k_5].x));
            uint2 h = as_type<uint2>(ulong(sums[k_5].y));
            _3488.records[(o_1 + 6u) + (4u * k_5)] = g.x;
            _3488.records[(o_1 + 7u) + (4u * k_5)] = g.y;
            _3488.records[(o_1 + 8u) + (4u * k_5)] = h.x;
            _3488.records[(o_1 + 9u) + (4u * k_5)] = h.y;
        }
        _3488.records[o_1 + 18u] = uint(win_cat);
        for (uint w_1 = 0u; w_1 < 8u; w_1++)
        {
            _3488.records[(o_1 + 19u) + w_1] = c_set[w_1];
        }
    }
}

