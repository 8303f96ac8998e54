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
    uint num_features;
    uint has_mask;
    int max_cat_to_onehot;
    int max_cat_threshold;
    uint bounds_first;
};

#ifndef SPIRV_CROSS_CONSTANT_ID_0
#define SPIRV_CROSS_CONSTANT_ID_0 256u
#endif
constant uint WG = SPIRV_CROSS_CONSTANT_ID_0;
constant int _2104 = int(WG + 0u);
constant int _2205 = int(WG + 0u);

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

constant uint _2914 = (WG / 2u);

struct Records
{
    uint records[1];
};

constant uint _3305_tmp [[function_constant(0)]];
constant uint _3305 = is_function_constant_defined(_3305_tmp) ? _3305_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_3305, 1u, 1u);

constant spvUnsafeArray<ulong, 14> _3322 = spvUnsafeArray<ulong, 14>({ 4460272573143870729ul, 4477122120089393304ul, 4493156764026750180ul, 4508805057796939612ul, 4523617214285662004ul, 4537941361671905306ul, 4551452160554016794ul, 4564047942368979991ul, 4575957461383581969ul, 4586165620538955093ul, 4595172819793696085ul, 4602678819172646912ul, 4607182418800017408ul, 4607182418800017408ul });
constant spvUnsafeArray<ulong, 13> _3337 = spvUnsafeArray<ulong, 13>({ 4585925428558828667ul, 4586426698778222948ul, 4587023449039406616ul, 4587745830934523688ul, 4588638185040256542ul, 4589468260265693457ul, 4590207312512236308ul, 4591215111030249286ul, 4592670820000712476ul, 4594314991293244562ul, 4596373779694328218ul, 4599676419421066581ul, 4607182418800017408ul });

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
    bool _1338 = sf_is_nan(param);
    bool _1345;
    if (!_1338)
    {
        ulong param_1 = b;
        _1345 = sf_is_nan(param_1);
    }
    else
    {
        _1345 = _1338;
    }
    if (_1345)
    {
        return false;
    }
    bool na = (a & 9223372036854775808ul) != 0ul;
    bool nb = (b & 9223372036854775808ul) != 0ul;
    if (na != nb)
    {
        bool _1370;
        if (na)
        {
            _1370 = ((a | b) & 9223372036854775807ul) != 0ul;
        }
        else
        {
            _1370 = na;
        }
        return _1370;
    }
    bool _1374 = a != b;
    bool _1382;
    if (_1374)
    {
        _1382 = na != (a < b);
    }
    else
    {
        _1382 = _1374;
    }
    return _1382;
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
long2 load(thread const uint& i, const device Hist& v_1729)
{
    uint4 v = v_1729.hist[0u + i];
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
            bool _356 = e > 2045;
            bool _365;
            if (!_356)
            {
                _365 = (sig + 512ul) >= 9223372036854775808ul;
            }
            else
            {
                _365 = _356;
            }
            if (_365)
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
    ulong _437 = sf_round_pack(param_4, param_5, param_6);
    return _437;
}

static inline __attribute__((always_inline))
ulong sf_from_i64(thread const long& a)
{
    if ((ulong(a) & 9223372036854775807ul) == 0ul)
    {
        return (a != 0l) ? 14114281232179134464ul : 0ul;
    }
    ulong _sign = (a < 0l) ? 9223372036854775808ul : 0ul;
    ulong _1289;
    if (a < 0l)
    {
        _1289 = 0ul - ulong(a);
    }
    else
    {
        _1289 = ulong(a);
    }
    ulong m = _1289;
    ulong param = _sign;
    int param_1 = 1084;
    ulong param_2 = m;
    ulong _1305 = sf_norm_round_pack(param, param_1, param_2);
    return _1305;
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
            ulong _1110;
            if (sb != 0ul)
            {
                ulong param_4 = a;
                ulong param_5 = b;
                _1110 = sf_propagate_nan(param_4, param_5);
            }
            else
            {
                _1110 = 18444492273895866368ul;
            }
            return _1110;
        }
        return _sign | 9218868437227405312ul;
    }
    if (eb == 2047)
    {
        ulong _1130;
        if (sb != 0ul)
        {
            ulong param_6 = a;
            ulong param_7 = b;
            _1130 = sf_propagate_nan(param_6, param_7);
        }
        else
        {
            _1130 = _sign;
        }
        return _1130;
    }
    if (eb == 0)
    {
        if (sb == 0ul)
        {
            ulong _1156;
            if ((ulong(long(ea)) | sa) == 0ul)
            {
                _1156 = 18444492273895866368ul;
            }
            else
            {
                _1156 = _sign | 9218868437227405312ul;
            }
            return _1156;
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
    ulong _1268 = sf_round_pack(param_10, param_11, param_12);
    return _1268;
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
            ulong _637;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _637 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _637 = 18444492273895866368ul;
            }
            return _637;
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
            ulong _718;
            if (sb != 0ul)
            {
                ulong param_8 = a;
                ulong param_9 = b;
                _718 = sf_propagate_nan(param_8, param_9);
            }
            else
            {
                _718 = _sign | 9218868437227405312ul;
            }
            return _718;
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
            ulong _758;
            if (sa != 0ul)
            {
                ulong param_12 = a;
                ulong param_13 = b;
                _758 = sf_propagate_nan(param_12, param_13);
            }
            else
            {
                _758 = a;
            }
            return _758;
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
    ulong _794 = sf_norm_round_pack(param_16, param_17, param_18);
    return _794;
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
            ulong _480;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _480 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _480 = a;
            }
            return _480;
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
                ulong _517;
                if (sb != 0ul)
                {
                    ulong param_4 = a;
                    ulong param_5 = b;
                    _517 = sf_propagate_nan(param_4, param_5);
                }
                else
                {
                    _517 = _sign | 9218868437227405312ul;
                }
                return _517;
            }
            ez = eb;
            ulong _533;
            if (ea != 0)
            {
                _533 = sa + 2305843009213693952ul;
            }
            else
            {
                _533 = sa << ulong(1);
            }
            sa = _533;
            ulong param_6 = sa;
            int param_7 = -d;
            sa = sf_shift_right_jam(param_6, param_7);
        }
        else
        {
            if (ea == 2047)
            {
                ulong _556;
                if (sa != 0ul)
                {
                    ulong param_8 = a;
                    ulong param_9 = b;
                    _556 = sf_propagate_nan(param_8, param_9);
                }
                else
                {
                    _556 = a;
                }
                return _556;
            }
            ez = ea;
            ulong _571;
            if (eb != 0)
            {
                _571 = sb + 2305843009213693952ul;
            }
            else
            {
                _571 = sb << ulong(1);
            }
            sb = _571;
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
    ulong _604 = sf_round_pack(param_12, param_13, param_14);
    return _604;
}

static inline __attribute__((always_inline))
ulong sf_sub(thread const ulong& a, thread const ulong& b)
{
    if (((a ^ b) & 9223372036854775808ul) == 0ul)
    {
        ulong param = a;
        ulong param_1 = b;
        ulong param_2 = a & 9223372036854775808ul;
        ulong _837 = sf_sub_mags(param, param_1, param_2);
        return _837;
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
    ulong _820 = sf_sub_mags(param_3, param_4, param_5);
    return _820;
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
    bool _1310 = sf_is_nan(param);
    bool _1317;
    if (!_1310)
    {
        ulong param_1 = b;
        _1317 = sf_is_nan(param_1);
    }
    else
    {
        _1317 = _1310;
    }
    if (_1317)
    {
        return false;
    }
    bool _1324 = a == b;
    bool _1333;
    if (!_1324)
    {
        _1333 = ((a | b) & 9223372036854775807ul) == 0ul;
    }
    else
    {
        _1333 = _1324;
    }
    return _1333;
}

static inline __attribute__((always_inline))
bool f64_eq(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_eq(param, param_1);
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
        bool _937 = sa != 0ul;
        bool _946;
        if (!_937)
        {
            _946 = (eb == 2047) && (sb != 0ul);
        }
        else
        {
            _946 = _937;
        }
        if (_946)
        {
            ulong param_2 = a;
            ulong param_3 = b;
            return sf_propagate_nan(param_2, param_3);
        }
        ulong _961;
        if ((ulong(long(eb)) | sb) == 0ul)
        {
            _961 = 18444492273895866368ul;
        }
        else
        {
            _961 = _sign | 9218868437227405312ul;
        }
        return _961;
    }
    if (eb == 2047)
    {
        if (sb != 0ul)
        {
            ulong param_4 = a;
            ulong param_5 = b;
            return sf_propagate_nan(param_4, param_5);
        }
        ulong _989;
        if ((ulong(long(ea)) | sa) == 0ul)
        {
            _989 = 18444492273895866368ul;
        }
        else
        {
            _989 = _sign | 9218868437227405312ul;
        }
        return _989;
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
    ulong _1068 = sf_round_pack(param_10, param_11, param_12);
    return _1068;
}

static inline __attribute__((always_inline))
ulong f64_mul(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_mul(param, param_1);
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
    ulong _1580 = clamp_weight(param_7, param_8, param_9, param_10);
    ulong w = _1580;
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
    ulong _1608;
    if (f64_lt(param_19, param_20))
    {
        ulong param_21 = w;
        _1608 = f64_neg(param_21);
    }
    else
    {
        _1608 = w;
    }
    ulong abs_w = _1608;
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
void try_split(thread const long2& total, thread const ulong& parent, thread const ulong& lambda, thread const ulong& alpha, thread const ulong& sg, thread const ulong& sh, thread const ulong& min_child_weight, thread const ulong& lo, thread const ulong& hi, thread const bool& bounded, thread const int& constraint, thread const long2& left, thread const long2& missing, thread const int& two_way, thread const int& f, thread const int& key, thread ulong& best_gain, thread int3& best, thread long2& best_left, constant Push& pc)
{
    ulong param_24;
    ulong param_32;
    ulong gain;
    for (int dl = 0; dl <= two_way; dl++)
    {
        long2 L = left;
        if (dl != 0)
        {
            L += missing;
        }
        long2 R = total - L;
        bool _1790 = L.y <= 0l;
        bool _1797;
        if (!_1790)
        {
            _1797 = R.y <= 0l;
        }
        else
        {
            _1797 = _1790;
        }
        if (_1797)
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
        bool _1823 = f64_lt(param_6, param_7);
        bool _1832;
        if (!_1823)
        {
            ulong param_8 = hr;
            ulong param_9 = min_child_weight;
            _1832 = f64_lt(param_8, param_9);
        }
        else
        {
            _1832 = _1823;
        }
        if (_1832)
        {
            continue;
        }
        long param_10 = L.x;
        ulong param_11 = f64_from_i64(param_10);
        ulong param_12 = sg;
        ulong gl = f64_div(param_11, param_12);
        long param_13 = R.x;
        ulong param_14 = f64_from_i64(param_13);
        ulong param_15 = sg;
        ulong gr = f64_div(param_14, param_15);
        if (bounded || (constraint != 0))
        {
            uint2 param_16 = pc.max_delta_step;
            ulong mds = f64_from_words(param_16);
            ulong param_17 = gl;
            ulong param_18 = hl;
            ulong param_19 = lambda;
            ulong param_20 = alpha;
            ulong param_21 = mds;
            ulong param_22 = lo;
            ulong param_23 = hi;
            ulong _1887 = bounded_score(param_17, param_18, param_19, param_20, param_21, param_22, param_23, param_24);
            ulong wl = param_24;
            ulong sl = _1887;
            ulong param_25 = gr;
            ulong param_26 = hr;
            ulong param_27 = lambda;
            ulong param_28 = alpha;
            ulong param_29 = mds;
            ulong param_30 = lo;
            ulong param_31 = hi;
            ulong _1906 = bounded_score(param_25, param_26, param_27, param_28, param_29, param_30, param_31, param_32);
            ulong wr = param_32;
            ulong sr = _1906;
            int param_33 = constraint;
            ulong param_34 = wl;
            ulong param_35 = wr;
            if (!monotone_ok(param_33, param_34, param_35))
            {
                continue;
            }
            ulong param_36 = sl;
            ulong param_37 = sr;
            ulong param_38 = f64_add(param_36, param_37);
            ulong param_39 = parent;
            gain = f64_sub(param_38, param_39);
            if (constraint != 0)
            {
                uint2 param_40 = pc.monotone_gain_factor;
                ulong param_41 = gain;
                ulong param_42 = f64_from_words(param_40);
                gain = f64_mul(param_41, param_42);
            }
        }
        else
        {
            ulong param_43 = gl;
            ulong param_44 = hl;
            ulong param_45 = lambda;
            ulong param_46 = alpha;
            ulong param_47 = gr;
            ulong param_48 = hr;
            ulong param_49 = lambda;
            ulong param_50 = alpha;
            ulong param_51 = node_score(param_43, param_44, param_45, param_46);
            ulong param_52 = node_score(param_47, param_48, param_49, param_50);
            ulong param_53 = f64_add(param_51, param_52);
            ulong param_54 = parent;
            gain = f64_sub(param_53, param_54);
        }
        ulong param_55 = gain;
        int param_56 = f;
        int param_57 = key;
        int param_58 = dl;
        ulong param_59 = best_gain;
        int param_60 = best.x;
        int param_61 = best.y;
        int param_62 = best.z;
        if (split_better(param_55, param_56, param_57, param_58, param_59, param_60, param_61, param_62))
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
uint order_categories(thread const uint& first, thread const int& last_bin, thread const ulong& sg, thread const ulong& sh, const device Hist& v_1729, constant Push& pc, thread uint3& gl_LocalInvocationID, threadgroup uint (&c_ok)[8], threadgroup ulong (&c_ratio)[256], threadgroup uint (&c_bin)[256])
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
    int _2030 = 1 + int(lid);
    for (int b = _2030; b <= last_bin; b += _2104)
    {
        uint param_2 = first + uint(b);
        long2 h = load(param_2, v_1729);
        long param_3 = h.y;
        ulong param_4 = f64_from_i64(param_3);
        ulong param_5 = sh;
        ulong hs = f64_div(param_4, param_5);
        bool _2057 = h.y <= 0l;
        bool _2066;
        if (!_2057)
        {
            ulong param_6 = hs;
            ulong param_7 = min_data;
            _2066 = f64_lt(param_6, param_7);
        }
        else
        {
            _2066 = _2057;
        }
        if (_2066)
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
        uint _2102 = atomic_fetch_or_explicit((threadgroup atomic_uint*)&c_ok[uint(b) >> uint(5)], 1u << (uint(b) & 31u), memory_order_relaxed);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint n = 0u;
    for (uint w = 0u; w < 8u; w++)
    {
        n += uint(int(popcount(c_ok[w])));
    }
    int _2128 = 1 + int(lid);
    for (int b_1 = _2128; b_1 <= last_bin; b_1 += _2205)
    {
        if (((c_ok[uint(b_1) >> uint(5)] >> (uint(b_1) & 31u)) & 1u) == 0u)
        {
            continue;
        }
        ulong r = c_ratio[b_1];
        uint rank = 0u;
        for (int o = 1; o <= last_bin; o++)
        {
            bool _2175 = ((c_ok[uint(o) >> uint(5)] >> (uint(o) & 31u)) & 1u) != 0u;
            bool _2191;
            if (_2175)
            {
                ulong param_15 = c_ratio[o];
                uint param_16 = uint(o);
                ulong param_17 = r;
                uint param_18 = uint(b_1);
                _2191 = cat_before(param_15, param_16, param_17, param_18);
            }
            else
            {
                _2191 = _2175;
            }
            if (_2191)
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

kernel void split_eval(constant Push& pc [[buffer(0)]], const device Hist& v_1729 [[buffer(1)]], const device Offsets& _2301 [[buffer(2)]], const device Mask& _2399 [[buffer(3)]], device Records& _3150 [[buffer(4)]], const device Categorical& _2414 [[buffer(5)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
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
    uint2 param = pc.lower;
    ulong lo = f64_from_words(param);
    uint2 param_1 = pc.upper;
    ulong hi = f64_from_words(param_1);
    uint2 param_2 = pc.max_delta_step;
    ulong mds = f64_from_words(param_2);
    ulong param_3 = mds;
    ulong param_4 = 0ul;
    bool _2243 = f64_gt(param_3, param_4);
    bool _2254;
    if (!_2243)
    {
        ulong param_5 = 18442240474082181120ul;
        ulong param_6 = lo;
        ulong param_7 = f64_from_bits(param_5);
        _2254 = f64_gt(param_6, param_7);
    }
    else
    {
        _2254 = _2243;
    }
    bool _2266;
    if (!_2254)
    {
        ulong param_8 = 18442240474082181120ul;
        ulong param_9 = f64_from_bits(param_8);
        ulong param_10 = hi;
        ulong param_11 = f64_neg(param_9);
        _2266 = f64_lt(param_10, param_11);
    }
    else
    {
        _2266 = _2254;
    }
    bool bounded = _2266;
    uint2 param_12 = pc.scale_grad;
    ulong sg = f64_from_words(param_12);
    uint2 param_13 = pc.scale_hess;
    ulong sh = f64_from_words(param_13);
    uint2 param_14 = pc.lambda;
    ulong lambda = f64_from_words(param_14);
    uint2 param_15 = pc.alpha;
    ulong alpha = f64_from_words(param_15);
    uint2 param_16 = pc.min_child_weight;
    ulong min_child_weight = f64_from_words(param_16);
    long2 total = long2(0l);
    for (uint k = _2301.feature_offset[0]; k < _2301.feature_offset[1]; k++)
    {
        uint param_17 = k;
        total += load(param_17, v_1729);
    }
    long param_18 = total.x;
    ulong param_19 = f64_from_i64(param_18);
    ulong param_20 = sg;
    long param_21 = total.y;
    ulong param_22 = f64_from_i64(param_21);
    ulong param_23 = sh;
    ulong param_24 = f64_div(param_19, param_20);
    ulong param_25 = f64_div(param_22, param_23);
    ulong param_26 = lambda;
    ulong param_27 = alpha;
    ulong param_28 = mds;
    ulong param_29 = lo;
    ulong param_30 = hi;
    ulong param_31;
    ulong _2352 = bounded_score(param_24, param_25, param_26, param_27, param_28, param_29, param_30, param_31);
    ulong weight = param_31;
    ulong parent = _2352;
    ulong best_gain = 0ul;
    int3 best = int3(-1, 0, 0);
    long2 best_left = total;
    uint segments = max(1u, (WG / max(pc.num_features, 1u)));
    uint _2393;
    for (uint item = lid; item < (pc.num_features * segments); item += WG)
    {
        uint f = item / segments;
        uint seg = item % segments;
        if (pc.has_mask != 0u)
        {
            _2393 = _2399.mask[f];
        }
        else
        {
            _2393 = 1u;
        }
        uint words = _2393;
        bool _2407 = (words & 1u) == 0u;
        bool _2419;
        if (!_2407)
        {
            _2419 = _2414.categorical[f] != 0u;
        }
        else
        {
            _2419 = _2407;
        }
        if (_2419)
        {
            continue;
        }
        int constraint = int((words >> uint(1)) & 1u) - int((words >> uint(2)) & 1u);
        uint first = _2301.feature_offset[f];
        int last_bin = int(_2301.feature_offset[f + 1u] - first) - 1;
        int seg_len = ((last_bin + int(segments)) - 1) / int(segments);
        int b_lo = 1 + (int(seg) * seg_len);
        int b_hi = min(last_bin, ((b_lo + seg_len) - 1));
        if (b_lo > b_hi)
        {
            continue;
        }
        uint param_32 = first;
        long2 missing = load(param_32, v_1729);
        long2 cum = long2(0l);
        for (int b = 1; b < b_lo; b++)
        {
            uint param_33 = first + uint(b);
            cum += load(param_33, v_1729);
        }
        for (int b_1 = b_lo; b_1 <= b_hi; b_1++)
        {
            uint param_34 = first + uint(b_1);
            cum += load(param_34, v_1729);
            bool _2519 = b_1 < last_bin;
            bool _2532;
            if (_2519)
            {
                bool _2524 = missing.y != 0l;
                bool _2531;
                if (!_2524)
                {
                    _2531 = missing.x != 0l;
                }
                else
                {
                    _2531 = _2524;
                }
                _2532 = _2531;
            }
            else
            {
                _2532 = _2519;
            }
            int two_way = int(_2532);
            long2 param_35 = total;
            ulong param_36 = parent;
            ulong param_37 = lambda;
            ulong param_38 = alpha;
            ulong param_39 = sg;
            ulong param_40 = sh;
            ulong param_41 = min_child_weight;
            ulong param_42 = lo;
            ulong param_43 = hi;
            bool param_44 = bounded;
            int param_45 = constraint;
            long2 param_46 = cum;
            long2 param_47 = missing;
            int param_48 = two_way;
            int param_49 = int(f);
            int param_50 = b_1;
            ulong param_51 = best_gain;
            int3 param_52 = best;
            long2 param_53 = best_left;
            try_split(param_35, param_36, param_37, param_38, param_39, param_40, param_41, param_42, param_43, param_44, param_45, param_46, param_47, param_48, param_49, param_50, param_51, param_52, param_53, pc);
            best_gain = param_51;
            best = param_52;
            best_left = param_53;
        }
    }
    uint num_cat = _2414.categorical[pc.num_features];
    ulong _2715;
    ulong _2732;
    ulong param_76;
    int key;
    long2 left;
    long2 _2788;
    long2 _2831;
    for (uint c = 0u; c < num_cat; c++)
    {
        uint f_1 = _2414.categorical[(pc.num_features + 1u) + c];
        bool _2605 = pc.has_mask != 0u;
        bool _2613;
        if (_2605)
        {
            _2613 = (_2399.mask[f_1] & 1u) == 0u;
        }
        else
        {
            _2613 = _2605;
        }
        if (_2613)
        {
            continue;
        }
        uint first_1 = _2301.feature_offset[f_1];
        int last_bin_1 = int(_2301.feature_offset[f_1 + 1u] - first_1) - 1;
        uint param_54 = first_1;
        long2 missing_1 = load(param_54, v_1729);
        bool _2637 = missing_1.x != 0l;
        bool _2644;
        if (!_2637)
        {
            _2644 = missing_1.y != 0l;
        }
        else
        {
            _2644 = _2637;
        }
        int two_way_1 = int(_2644);
        bool onehot = last_bin_1 <= pc.max_cat_to_onehot;
        uint n = 0u;
        uint items = uint(last_bin_1) + 1u;
        if (!onehot)
        {
            uint param_55 = first_1;
            int param_56 = last_bin_1;
            ulong param_57 = sg;
            ulong param_58 = sh;
            uint _2669 = order_categories(param_55, param_56, param_57, param_58, v_1729, pc, gl_LocalInvocationID, c_ok, c_ratio, c_bin);
            n = _2669;
            if (lid == 0u)
            {
                long2 sum = long2(0l);
                c_prefix[0] = sum;
                for (uint k_1 = 1u; k_1 <= n; k_1++)
                {
                    uint param_59 = first_1 + c_bin[k_1 - 1u];
                    sum += load(param_59, v_1729);
                    c_prefix[k_1] = sum;
                }
            }
            threadgroup_barrier(mem_flags::mem_threadgroup);
            items = 2u * min(n, uint(max(pc.max_cat_threshold, 0)));
        }
        if (onehot)
        {
            _2715 = lambda;
        }
        else
        {
            uint2 param_60 = pc.cat_l2;
            ulong param_61 = lambda;
            ulong param_62 = f64_from_words(param_60);
            _2715 = f64_add(param_61, param_62);
        }
        ulong cat_lambda = _2715;
        if (onehot)
        {
            _2732 = parent;
        }
        else
        {
            long param_63 = total.x;
            ulong param_64 = f64_from_i64(param_63);
            ulong param_65 = sg;
            long param_66 = total.y;
            ulong param_67 = f64_from_i64(param_66);
            ulong param_68 = sh;
            ulong param_69 = f64_div(param_64, param_65);
            ulong param_70 = f64_div(param_67, param_68);
            ulong param_71 = cat_lambda;
            ulong param_72 = alpha;
            ulong param_73 = mds;
            ulong param_74 = lo;
            ulong param_75 = hi;
            ulong _2766 = bounded_score(param_69, param_70, param_71, param_72, param_73, param_74, param_75, param_76);
            weight = param_76;
            _2732 = _2766;
        }
        ulong cat_parent = _2732;
        for (uint item_1 = lid; item_1 < items; item_1 += WG)
        {
            if (onehot)
            {
                key = int(item_1);
                if (item_1 == 0u)
                {
                    _2788 = long2(0l);
                }
                else
                {
                    uint param_77 = first_1 + item_1;
                    _2788 = load(param_77, v_1729);
                }
                left = _2788;
                bool _2799 = item_1 != 0u;
                bool _2805;
                if (_2799)
                {
                    _2805 = left.y <= 0l;
                }
                else
                {
                    _2805 = _2799;
                }
                if (_2805)
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
                    _2831 = c_prefix[k_2];
                }
                else
                {
                    _2831 = c_prefix[n] - c_prefix[n - k_2];
                }
                left = _2831;
            }
            long2 param_78 = total;
            ulong param_79 = cat_parent;
            ulong param_80 = cat_lambda;
            ulong param_81 = alpha;
            ulong param_82 = sg;
            ulong param_83 = sh;
            ulong param_84 = min_child_weight;
            ulong param_85 = lo;
            ulong param_86 = hi;
            bool param_87 = bounded;
            int param_88 = 0;
            long2 param_89 = left;
            long2 param_90 = missing_1;
            int param_91 = two_way_1;
            int param_92 = int(f_1);
            int param_93 = key;
            ulong param_94 = best_gain;
            int3 param_95 = best;
            long2 param_96 = best_left;
            try_split(param_78, param_79, param_80, param_81, param_82, param_83, param_84, param_85, param_86, param_87, param_88, param_89, param_90, param_91, param_92, param_93, param_94, param_95, param_96, pc);
            best_gain = param_94;
            best = param_95;
            best_left = param_96;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    s_gain[lid] = best_gain;
    s_key[lid] = best;
    s_left[lid] = best_left;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint half_size = _2914; half_size > 0u; half_size = half_size >> uint(1))
    {
        if (lid < half_size)
        {
            uint o = lid + half_size;
            ulong param_97 = s_gain[o];
            int param_98 = ((threadgroup int*)&s_key[o])[0u];
            int param_99 = ((threadgroup int*)&s_key[o])[1u];
            int param_100 = ((threadgroup int*)&s_key[o])[2u];
            ulong param_101 = s_gain[lid];
            int param_102 = ((threadgroup int*)&s_key[lid])[0u];
            int param_103 = ((threadgroup int*)&s_key[lid])[1u];
            int param_104 = ((threadgroup int*)&s_key[lid])[2u];
            if (split_better(param_97, param_98, param_99, param_100, param_101, param_102, param_103, param_104))
            {
                s_gain[lid] = s_gain[o];
                s_key[lid] = s_key[o];
                s_left[lid] = s_left[o];
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    int3 win = s_key[0];
    bool _2990 = win.x >= 0;
    bool _2999;
    if (_2990)
    {
        _2999 = _2414.categorical[uint(win.x)] != 0u;
    }
    else
    {
        _2999 = _2990;
    }
    bool win_cat = _2999;
    if (lid < 8u)
    {
        c_set[lid] = 0u;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (win_cat)
    {
        uint first_2 = _2301.feature_offset[uint(win.x)];
        int last_bin_2 = int(_2301.feature_offset[uint(win.x) + 1u] - first_2) - 1;
        if (last_bin_2 <= pc.max_cat_to_onehot)
        {
            bool _3034 = lid == 0u;
            bool _3040;
            if (_3034)
            {
                _3040 = win.y > 0;
            }
            else
            {
                _3040 = _3034;
            }
            if (_3040)
            {
                c_set[uint(win.y) >> uint(5)] = 1u << (uint(win.y) & 31u);
            }
        }
        else
        {
            uint param_105 = first_2;
            int param_106 = last_bin_2;
            ulong param_107 = sg;
            ulong param_108 = sh;
            uint _3063 = order_categories(param_105, param_106, param_107, param_108, v_1729, pc, gl_LocalInvocationID, c_ok, c_ratio, c_bin);
            uint n_1 = _3063;
            uint dir_1 = uint(win.y / 256);
            uint k_3 = uint(win.y % 256);
            uint _3091;
            for (uint i = lid; (i < k_3) && (i < n_1); i += WG)
            {
                if (dir_1 != 0u)
                {
                    _3091 = (n_1 - 1u) - i;
                }
                else
                {
                    _3091 = i;
                }
                uint b_2 = c_bin[_3091];
                uint _3109 = atomic_fetch_or_explicit((threadgroup atomic_uint*)&c_set[b_2 >> uint(5)], 1u << (b_2 & 31u), memory_order_relaxed);
            }
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid == 0u)
    {
        int3 key_1 = s_key[0];
        long2 _3123;
        if (key_1.x >= 0)
        {
            _3123 = s_left[0];
        }
        else
        {
            _3123 = total;
        }
        long2 L = _3123;
        long2 _3135;
        if (key_1.x >= 0)
        {
            _3135 = total - L;
        }
        else
        {
            _3135 = long2(0l);
        }
        long2 R = _3135;
        uint o_1 = record * 27u;
        _3150.records[o_1 + 0u] = uint(node);
        _3150.records[o_1 + 1u] = uint(key_1.x);
        uint _3167;
        if (key_1.x >= 0)
        {
            _3167 = uint(key_1.y);
        }
        else
        {
            _3167 = 0u;
        }
        _3150.records[o_1 + 2u] = _3167;
        uint _3182;
        if (key_1.x >= 0)
        {
            _3182 = uint(key_1.z);
        }
        else
        {
            _3182 = 0u;
        }
        _3150.records[o_1 + 3u] = _3182;
        ulong _3195;
        if (key_1.x >= 0)
        {
            _3195 = s_gain[0];
        }
        else
        {
            _3195 = 0ul;
        }
        ulong param_109 = _3195;
        uint2 gw = f64_words(param_109);
        _3150.records[o_1 + 4u] = gw.x;
        _3150.records[o_1 + 5u] = gw.y;
        spvUnsafeArray<long2, 3> _3222 = spvUnsafeArray<long2, 3>({ L, R, total });
        spvUnsafeArray<long2, 3> sums;
        sums = _3222;
        for (uint k_4 = 0u; k_4 < 3u; k_4++)
        {
            uint2 g = as_type<uint2>(ulong(sums[k_4].x));
            uint2 h = as_type<uint2>(ulong(sums[k_4].y));
            _3150.records[(o_1 + 6u) + (4u * k_4)] = g.x;
            _3150.records[(o_1 + 7u) + (4u * k_4)] = g.y;
            _3150.records[(o_1 + 8u) + (4u * k_4)] = h.x;
            _3150.records[(o_1 + 9u) + (4u * k_4)] = h.y;
        }
        _3150.records[o_1 + 18u] = uint(win_cat);
        for (uint w = 0u; w < 8u; w++)
        {
            _3150.records[(o_1 + 19u) + w] = c_set[w];
        }
    }
}

