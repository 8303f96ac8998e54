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
constant int _1811 = int(WG + 0u);
constant int _1912 = int(WG + 0u);

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

constant uint _2542 = (WG / 2u);

struct Records
{
    uint records[1];
};

constant uint _2933_tmp [[function_constant(0)]];
constant uint _2933 = is_function_constant_defined(_2933_tmp) ? _2933_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_2933, 1u, 1u);

constant spvUnsafeArray<ulong, 14> _2951 = spvUnsafeArray<ulong, 14>({ 4460272573143870729ul, 4477122120089393304ul, 4493156764026750180ul, 4508805057796939612ul, 4523617214285662004ul, 4537941361671905306ul, 4551452160554016794ul, 4564047942368979991ul, 4575957461383581969ul, 4586165620538955093ul, 4595172819793696085ul, 4602678819172646912ul, 4607182418800017408ul, 4607182418800017408ul });
constant spvUnsafeArray<ulong, 13> _2966 = spvUnsafeArray<ulong, 13>({ 4585925428558828667ul, 4586426698778222948ul, 4587023449039406616ul, 4587745830934523688ul, 4588638185040256542ul, 4589468260265693457ul, 4590207312512236308ul, 4591215111030249286ul, 4592670820000712476ul, 4594314991293244562ul, 4596373779694328218ul, 4599676419421066581ul, 4607182418800017408ul });

static inline __attribute__((always_inline))
ulong f64_from_words(thread const uint2& w)
{
    return as_type<ulong>(w);
}

static inline __attribute__((always_inline))
long2 load(thread const uint& i, const device Hist& v_1520, thread uint& hist_base)
{
    uint4 v = v_1520.hist[hist_base + i];
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
            bool _325 = e > 2045;
            bool _334;
            if (!_325)
            {
                _334 = (sig + 512ul) >= 9223372036854775808ul;
            }
            else
            {
                _334 = _325;
            }
            if (_334)
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
    ulong _406 = sf_round_pack(param_4, param_5, param_6);
    return _406;
}

static inline __attribute__((always_inline))
ulong sf_from_i64(thread const long& a)
{
    if ((ulong(a) & 9223372036854775807ul) == 0ul)
    {
        return (a != 0l) ? 14114281232179134464ul : 0ul;
    }
    ulong _sign = (a < 0l) ? 9223372036854775808ul : 0ul;
    ulong _1258;
    if (a < 0l)
    {
        _1258 = 0ul - ulong(a);
    }
    else
    {
        _1258 = ulong(a);
    }
    ulong m = _1258;
    ulong param = _sign;
    int param_1 = 1084;
    ulong param_2 = m;
    ulong _1274 = sf_norm_round_pack(param, param_1, param_2);
    return _1274;
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
            ulong _1079;
            if (sb != 0ul)
            {
                ulong param_4 = a;
                ulong param_5 = b;
                _1079 = sf_propagate_nan(param_4, param_5);
            }
            else
            {
                _1079 = 18444492273895866368ul;
            }
            return _1079;
        }
        return _sign | 9218868437227405312ul;
    }
    if (eb == 2047)
    {
        ulong _1099;
        if (sb != 0ul)
        {
            ulong param_6 = a;
            ulong param_7 = b;
            _1099 = sf_propagate_nan(param_6, param_7);
        }
        else
        {
            _1099 = _sign;
        }
        return _1099;
    }
    if (eb == 0)
    {
        if (sb == 0ul)
        {
            ulong _1125;
            if ((ulong(long(ea)) | sa) == 0ul)
            {
                _1125 = 18444492273895866368ul;
            }
            else
            {
                _1125 = _sign | 9218868437227405312ul;
            }
            return _1125;
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
    ulong _1237 = sf_round_pack(param_10, param_11, param_12);
    return _1237;
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
    bool _1307 = sf_is_nan(param);
    bool _1314;
    if (!_1307)
    {
        ulong param_1 = b;
        _1314 = sf_is_nan(param_1);
    }
    else
    {
        _1314 = _1307;
    }
    if (_1314)
    {
        return false;
    }
    bool na = (a & 9223372036854775808ul) != 0ul;
    bool nb = (b & 9223372036854775808ul) != 0ul;
    if (na != nb)
    {
        bool _1340;
        if (na)
        {
            _1340 = ((a | b) & 9223372036854775807ul) != 0ul;
        }
        else
        {
            _1340 = na;
        }
        return _1340;
    }
    bool _1344 = a != b;
    bool _1352;
    if (_1344)
    {
        _1352 = na != (a < b);
    }
    else
    {
        _1352 = _1344;
    }
    return _1352;
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
            ulong _606;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _606 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _606 = 18444492273895866368ul;
            }
            return _606;
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
            ulong _687;
            if (sb != 0ul)
            {
                ulong param_8 = a;
                ulong param_9 = b;
                _687 = sf_propagate_nan(param_8, param_9);
            }
            else
            {
                _687 = _sign | 9218868437227405312ul;
            }
            return _687;
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
            ulong _727;
            if (sa != 0ul)
            {
                ulong param_12 = a;
                ulong param_13 = b;
                _727 = sf_propagate_nan(param_12, param_13);
            }
            else
            {
                _727 = a;
            }
            return _727;
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
    ulong _763 = sf_norm_round_pack(param_16, param_17, param_18);
    return _763;
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
            ulong _449;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _449 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _449 = a;
            }
            return _449;
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
                ulong _486;
                if (sb != 0ul)
                {
                    ulong param_4 = a;
                    ulong param_5 = b;
                    _486 = sf_propagate_nan(param_4, param_5);
                }
                else
                {
                    _486 = _sign | 9218868437227405312ul;
                }
                return _486;
            }
            ez = eb;
            ulong _502;
            if (ea != 0)
            {
                _502 = sa + 2305843009213693952ul;
            }
            else
            {
                _502 = sa << ulong(1);
            }
            sa = _502;
            ulong param_6 = sa;
            int param_7 = -d;
            sa = sf_shift_right_jam(param_6, param_7);
        }
        else
        {
            if (ea == 2047)
            {
                ulong _525;
                if (sa != 0ul)
                {
                    ulong param_8 = a;
                    ulong param_9 = b;
                    _525 = sf_propagate_nan(param_8, param_9);
                }
                else
                {
                    _525 = a;
                }
                return _525;
            }
            ez = ea;
            ulong _540;
            if (eb != 0)
            {
                _540 = sb + 2305843009213693952ul;
            }
            else
            {
                _540 = sb << ulong(1);
            }
            sb = _540;
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
    ulong _573 = sf_round_pack(param_12, param_13, param_14);
    return _573;
}

static inline __attribute__((always_inline))
ulong sf_sub(thread const ulong& a, thread const ulong& b)
{
    if (((a ^ b) & 9223372036854775808ul) == 0ul)
    {
        ulong param = a;
        ulong param_1 = b;
        ulong param_2 = a & 9223372036854775808ul;
        ulong _806 = sf_sub_mags(param, param_1, param_2);
        return _806;
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
    ulong _789 = sf_sub_mags(param_3, param_4, param_5);
    return _789;
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
        bool _906 = sa != 0ul;
        bool _915;
        if (!_906)
        {
            _915 = (eb == 2047) && (sb != 0ul);
        }
        else
        {
            _915 = _906;
        }
        if (_915)
        {
            ulong param_2 = a;
            ulong param_3 = b;
            return sf_propagate_nan(param_2, param_3);
        }
        ulong _930;
        if ((ulong(long(eb)) | sb) == 0ul)
        {
            _930 = 18444492273895866368ul;
        }
        else
        {
            _930 = _sign | 9218868437227405312ul;
        }
        return _930;
    }
    if (eb == 2047)
    {
        if (sb != 0ul)
        {
            ulong param_4 = a;
            ulong param_5 = b;
            return sf_propagate_nan(param_4, param_5);
        }
        ulong _958;
        if ((ulong(long(ea)) | sa) == 0ul)
        {
            _958 = 18444492273895866368ul;
        }
        else
        {
            _958 = _sign | 9218868437227405312ul;
        }
        return _958;
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
    ulong _1037 = sf_round_pack(param_10, param_11, param_12);
    return _1037;
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
    bool _1279 = sf_is_nan(param);
    bool _1286;
    if (!_1279)
    {
        ulong param_1 = b;
        _1286 = sf_is_nan(param_1);
    }
    else
    {
        _1286 = _1279;
    }
    if (_1286)
    {
        return false;
    }
    bool _1293 = a == b;
    bool _1302;
    if (!_1293)
    {
        _1302 = ((a | b) & 9223372036854775807ul) == 0ul;
    }
    else
    {
        _1302 = _1293;
    }
    return _1302;
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
void try_split(thread const long2& total, thread const ulong& parent, thread const ulong& lambda, thread const ulong& alpha, thread const ulong& sg, thread const ulong& sh, thread const ulong& min_child_weight, thread const long2& left, thread const long2& missing, thread const int& two_way, thread const int& f, thread const int& key, thread ulong& best_gain, thread int3& best, thread long2& best_left)
{
    for (int dl = 0; dl <= two_way; dl++)
    {
        long2 L = left;
        if (dl != 0)
        {
            L += missing;
        }
        long2 R = total - L;
        bool _1584 = L.y <= 0l;
        bool _1591;
        if (!_1584)
        {
            _1591 = R.y <= 0l;
        }
        else
        {
            _1591 = _1584;
        }
        if (_1591)
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
        bool _1617 = f64_lt(param_6, param_7);
        bool _1626;
        if (!_1617)
        {
            ulong param_8 = hr;
            ulong param_9 = min_child_weight;
            _1626 = f64_lt(param_8, param_9);
        }
        else
        {
            _1626 = _1617;
        }
        if (_1626)
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
uint order_categories(thread const uint& first, thread const int& last_bin, thread const ulong& sg, thread const ulong& sh, const device Hist& v_1520, thread uint& hist_base, thread uint3& gl_LocalInvocationID, constant Push& pc, threadgroup uint (&c_ok)[8], threadgroup ulong (&c_ratio)[256], threadgroup uint (&c_bin)[256])
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
    int _1737 = 1 + int(lid);
    for (int b = _1737; b <= last_bin; b += _1811)
    {
        uint param_2 = first + uint(b);
        long2 h = load(param_2, v_1520, hist_base);
        long param_3 = h.y;
        ulong param_4 = f64_from_i64(param_3);
        ulong param_5 = sh;
        ulong hs = f64_div(param_4, param_5);
        bool _1764 = h.y <= 0l;
        bool _1773;
        if (!_1764)
        {
            ulong param_6 = hs;
            ulong param_7 = min_data;
            _1773 = f64_lt(param_6, param_7);
        }
        else
        {
            _1773 = _1764;
        }
        if (_1773)
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
        uint _1809 = atomic_fetch_or_explicit((threadgroup atomic_uint*)&c_ok[uint(b) >> uint(5)], 1u << (uint(b) & 31u), memory_order_relaxed);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint n = 0u;
    for (uint w = 0u; w < 8u; w++)
    {
        n += uint(int(popcount(c_ok[w])));
    }
    int _1835 = 1 + int(lid);
    for (int b_1 = _1835; b_1 <= last_bin; b_1 += _1912)
    {
        if (((c_ok[uint(b_1) >> uint(5)] >> (uint(b_1) & 31u)) & 1u) == 0u)
        {
            continue;
        }
        ulong r = c_ratio[b_1];
        uint rank = 0u;
        for (int o = 1; o <= last_bin; o++)
        {
            bool _1882 = ((c_ok[uint(o) >> uint(5)] >> (uint(o) & 31u)) & 1u) != 0u;
            bool _1898;
            if (_1882)
            {
                ulong param_15 = c_ratio[o];
                uint param_16 = uint(o);
                ulong param_17 = r;
                uint param_18 = uint(b_1);
                _1898 = cat_before(param_15, param_16, param_17, param_18);
            }
            else
            {
                _1898 = _1882;
            }
            if (_1898)
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

kernel void split_eval_level(constant Push& pc [[buffer(0)]], const device Hist& v_1520 [[buffer(1)]], const device Offsets& _1978 [[buffer(2)]], const device Mask& _2063 [[buffer(3)]], device Records& _2778 [[buffer(4)]], const device Categorical& _2075 [[buffer(5)]], const device Nodes& _1925 [[buffer(6)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]])
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
    uint4 entry = _1925.level_nodes[pc.record + gl_WorkGroupID.x];
    int node = int(entry.x);
    uint record = entry.y;
    uint hist_base = entry.z;
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
    for (uint k = _1978.feature_offset[0]; k < _1978.feature_offset[1]; k++)
    {
        uint param_5 = k;
        total += load(param_5, v_1520, hist_base);
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
        bool _2057 = pc.has_mask != 0u;
        bool _2068;
        if (_2057)
        {
            _2068 = _2063.mask[f] == 0u;
        }
        else
        {
            _2068 = _2057;
        }
        bool _2080;
        if (!_2068)
        {
            _2080 = _2075.categorical[f] != 0u;
        }
        else
        {
            _2080 = _2068;
        }
        if (_2080)
        {
            continue;
        }
        uint first = _1978.feature_offset[f];
        int last_bin = int(_1978.feature_offset[f + 1u] - first) - 1;
        int seg_len = ((last_bin + int(segments)) - 1) / int(segments);
        int b_lo = 1 + (int(seg) * seg_len);
        int b_hi = min(last_bin, ((b_lo + seg_len) - 1));
        if (b_lo > b_hi)
        {
            continue;
        }
        uint param_16 = first;
        long2 missing = load(param_16, v_1520, hist_base);
        long2 cum = long2(0l);
        for (int b = 1; b < b_lo; b++)
        {
            uint param_17 = first + uint(b);
            cum += load(param_17, v_1520, hist_base);
        }
        for (int b_1 = b_lo; b_1 <= b_hi; b_1++)
        {
            uint param_18 = first + uint(b_1);
            cum += load(param_18, v_1520, hist_base);
            bool _2170 = b_1 < last_bin;
            bool _2183;
            if (_2170)
            {
                bool _2175 = missing.y != 0l;
                bool _2182;
                if (!_2175)
                {
                    _2182 = missing.x != 0l;
                }
                else
                {
                    _2182 = _2175;
                }
                _2183 = _2182;
            }
            else
            {
                _2183 = _2170;
            }
            int two_way = int(_2183);
            long2 param_19 = total;
            ulong param_20 = parent;
            ulong param_21 = lambda;
            ulong param_22 = alpha;
            ulong param_23 = sg;
            ulong param_24 = sh;
            ulong param_25 = min_child_weight;
            long2 param_26 = cum;
            long2 param_27 = missing;
            int param_28 = two_way;
            int param_29 = int(f);
            int param_30 = b_1;
            ulong param_31 = best_gain;
            int3 param_32 = best;
            long2 param_33 = best_left;
            try_split(param_19, param_20, param_21, param_22, param_23, param_24, param_25, param_26, param_27, param_28, param_29, param_30, param_31, param_32, param_33);
            best_gain = param_31;
            best = param_32;
            best_left = param_33;
        }
    }
    uint num_cat = _2075.categorical[pc.num_features];
    ulong _2358;
    ulong _2375;
    int key;
    long2 left;
    long2 _2423;
    long2 _2466;
    for (uint c = 0u; c < num_cat; c++)
    {
        uint f_1 = _2075.categorical[(pc.num_features + 1u) + c];
        bool _2248 = pc.has_mask != 0u;
        bool _2255;
        if (_2248)
        {
            _2255 = _2063.mask[f_1] == 0u;
        }
        else
        {
            _2255 = _2248;
        }
        if (_2255)
        {
            continue;
        }
        uint first_1 = _1978.feature_offset[f_1];
        int last_bin_1 = int(_1978.feature_offset[f_1 + 1u] - first_1) - 1;
        uint param_34 = first_1;
        long2 missing_1 = load(param_34, v_1520, hist_base);
        bool _2279 = missing_1.x != 0l;
        bool _2286;
        if (!_2279)
        {
            _2286 = missing_1.y != 0l;
        }
        else
        {
            _2286 = _2279;
        }
        int two_way_1 = int(_2286);
        bool onehot = last_bin_1 <= pc.max_cat_to_onehot;
        uint n = 0u;
        uint items = uint(last_bin_1) + 1u;
        if (!onehot)
        {
            uint param_35 = first_1;
            int param_36 = last_bin_1;
            ulong param_37 = sg;
            ulong param_38 = sh;
            uint _2312 = order_categories(param_35, param_36, param_37, param_38, v_1520, hist_base, gl_LocalInvocationID, pc, c_ok, c_ratio, c_bin);
            n = _2312;
            if (lid == 0u)
            {
                long2 sum = long2(0l);
                c_prefix[0] = sum;
                for (uint k_1 = 1u; k_1 <= n; k_1++)
                {
                    uint param_39 = first_1 + c_bin[k_1 - 1u];
                    sum += load(param_39, v_1520, hist_base);
                    c_prefix[k_1] = sum;
                }
            }
            threadgroup_barrier(mem_flags::mem_threadgroup);
            items = 2u * min(n, uint(max(pc.max_cat_threshold, 0)));
        }
        if (onehot)
        {
            _2358 = lambda;
        }
        else
        {
            uint2 param_40 = pc.cat_l2;
            ulong param_41 = lambda;
            ulong param_42 = f64_from_words(param_40);
            _2358 = f64_add(param_41, param_42);
        }
        ulong cat_lambda = _2358;
        if (onehot)
        {
            _2375 = parent;
        }
        else
        {
            long param_43 = total.x;
            ulong param_44 = f64_from_i64(param_43);
            ulong param_45 = sg;
            long param_46 = total.y;
            ulong param_47 = f64_from_i64(param_46);
            ulong param_48 = sh;
            ulong param_49 = f64_div(param_44, param_45);
            ulong param_50 = f64_div(param_47, param_48);
            ulong param_51 = cat_lambda;
            ulong param_52 = alpha;
            _2375 = node_score(param_49, param_50, param_51, param_52);
        }
        ulong cat_parent = _2375;
        for (uint item_1 = lid; item_1 < items; item_1 += WG)
        {
            if (onehot)
            {
                key = int(item_1);
                if (item_1 == 0u)
                {
                    _2423 = long2(0l);
                }
                else
                {
                    uint param_53 = first_1 + item_1;
                    _2423 = load(param_53, v_1520, hist_base);
                }
                left = _2423;
                bool _2434 = item_1 != 0u;
                bool _2440;
                if (_2434)
                {
                    _2440 = left.y <= 0l;
                }
                else
                {
                    _2440 = _2434;
                }
                if (_2440)
                {
                    continue;
                }
            }
            else
            {
                uint kmax = items / 2u;
                uint dir = item_1 / kmax;
                uint k_2 = (item_1 % kmax) + 1u;
                key = (int(dir) * 256) + int(k_2);
                if (dir == 0u)
                {
                    _2466 = c_prefix[k_2];
                }
                else
                {
                    _2466 = c_prefix[n] - c_prefix[n - k_2];
                }
                left = _2466;
            }
            long2 param_54 = total;
            ulong param_55 = cat_parent;
            ulong param_56 = cat_lambda;
            ulong param_57 = alpha;
            ulong param_58 = sg;
            ulong param_59 = sh;
            ulong param_60 = min_child_weight;
            long2 param_61 = left;
            long2 param_62 = missing_1;
            int param_63 = two_way_1;
            int param_64 = int(f_1);
            int param_65 = key;
            ulong param_66 = best_gain;
            int3 param_67 = best;
            long2 param_68 = best_left;
            try_split(param_54, param_55, param_56, param_57, param_58, param_59, param_60, param_61, param_62, param_63, param_64, param_65, param_66, param_67, param_68);
            best_gain = param_66;
            best = param_67;
            best_left = param_68;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    s_gain[lid] = best_gain;
    s_key[lid] = best;
    s_left[lid] = best_left;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint half_size = _2542; half_size > 0u; half_size = half_size >> uint(1))
    {
        if (lid < half_size)
        {
            uint o = lid + half_size;
            ulong param_69 = s_gain[o];
            int param_70 = ((threadgroup int*)&s_key[o])[0u];
            int param_71 = ((threadgroup int*)&s_key[o])[1u];
            int param_72 = ((threadgroup int*)&s_key[o])[2u];
            ulong param_73 = s_gain[lid];
            int param_74 = ((threadgroup int*)&s_key[lid])[0u];
            int param_75 = ((threadgroup int*)&s_key[lid])[1u];
            int param_76 = ((threadgroup int*)&s_key[lid])[2u];
            if (split_better(param_69, param_70, param_71, param_72, param_73, param_74, param_75, param_76))
            {
                s_gain[lid] = s_gain[o];
                s_key[lid] = s_key[o];
                s_left[lid] = s_left[o];
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    int3 win = s_key[0];
    bool _2618 = win.x >= 0;
    bool _2627;
    if (_2618)
    {
        _2627 = _2075.categorical[uint(win.x)] != 0u;
    }
    else
    {
        _2627 = _2618;
    }
    bool win_cat = _2627;
    if (lid < 8u)
    {
        c_set[lid] = 0u;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (win_cat)
    {
        uint first_2 = _1978.feature_offset[uint(win.x)];
        int last_bin_2 = int(_1978.feature_offset[uint(win.x) + 1u] - first_2) - 1;
        if (last_bin_2 <= pc.max_cat_to_onehot)
        {
            bool _2662 = lid == 0u;
            bool _2668;
            if (_2662)
            {
                _2668 = win.y > 0;
            }
            else
            {
                _2668 = _2662;
            }
            if (_2668)
            {
                c_set[uint(win.y) >> uint(5)] = 1u << (uint(win.y) & 31u);
            }
        }
        else
        {
            uint param_77 = first_2;
            int param_78 = last_bin_2;
            ulong param_79 = sg;
            ulong param_80 = sh;
            uint _2691 = order_categories(param_77, param_78, param_79, param_80, v_1520, hist_base, gl_LocalInvocationID, pc, c_ok, c_ratio, c_bin);
            uint n_1 = _2691;
            uint dir_1 = uint(win.y / 256);
            uint k_3 = uint(win.y % 256);
            uint _2719;
            for (uint i = lid; (i < k_3) && (i < n_1); i += WG)
            {
                if (dir_1 != 0u)
                {
                    _2719 = (n_1 - 1u) - i;
                }
                else
                {
                    _2719 = i;
                }
                uint b_2 = c_bin[_2719];
                uint _2737 = atomic_fetch_or_explicit((threadgroup atomic_uint*)&c_set[b_2 >> uint(5)], 1u << (b_2 & 31u), memory_order_relaxed);
            }
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid == 0u)
    {
        int3 key_1 = s_key[0];
        long2 _2751;
        if (key_1.x >= 0)
        {
            _2751 = s_left[0];
        }
        else
        {
            _2751 = total;
        }
        long2 L = _2751;
        long2 _2763;
        if (key_1.x >= 0)
        {
            _2763 = total - L;
        }
        else
        {
            _2763 = long2(0l);
        }
        long2 R = _2763;
        uint o_1 = record * 27u;
        _2778.records[o_1 + 0u] = uint(node);
        _2778.records[o_1 + 1u] = uint(key_1.x);
        uint _2795;
        if (key_1.x >= 0)
        {
            _2795 = uint(key_1.y);
        }
        else
        {
            _2795 = 0u;
        }
        _2778.records[o_1 + 2u] = _2795;
        uint _2810;
        if (key_1.x >= 0)
        {
            _2810 = uint(key_1.z);
        }
        else
        {
            _2810 = 0u;
        }
        _2778.records[o_1 + 3u] = _2810;
        ulong _2823;
        if (key_1.x >= 0)
        {
            _2823 = s_gain[0];
        }
        else
        {
            _2823 = 0ul;
        }
        ulong param_81 = _2823;
        uint2 gw = f64_words(param_81);
        _2778.records[o_1 + 4u] = gw.x;
        _2778.records[o_1 + 5u] = gw.y;
        spvUnsafeArray<long2, 3> _2850 = spvUnsafeArray<long2, 3>({ L, R, total });
        spvUnsafeArray<long2, 3> sums;
        sums = _2850;
        for (uint k_4 = 0u; k_4 < 3u; k_4++)
        {
            uint2 g = as_type<uint2>(ulong(sums[k_4].x));
            uint2 h = as_type<uint2>(ulong(sums[k_4].y));
            _2778.records[(o_1 + 6u) + (4u * k_4)] = g.x;
            _2778.records[(o_1 + 7u) + (4u * k_4)] = g.y;
            _2778.records[(o_1 + 8u) + (4u * k_4)] = h.x;
            _2778.records[(o_1 + 9u) + (4u * k_4)] = h.y;
        }
        _2778.records[o_1 + 18u] = uint(win_cat);
        for (uint w = 0u; w < 8u; w++)
        {
            _2778.records[(o_1 + 19u) + w] = c_set[w];
        }
    }
}

