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
constant int _2241 = int(WG + 0u);
constant int _2342 = int(WG + 0u);
constant int _2448 = int(WG + 0u);
constant int _2590 = int(WG + 0u);
constant uint _2608 = (WG / 2u);

struct Nodes
{
    uint4 level_nodes[1];
};

struct Offsets
{
    uint feature_offset[1];
};

constant uint _2908 = (WG / 2u);

struct Mask
{
    uint mask[1];
};

struct Categorical
{
    uint categorical[1];
};

constant uint _3800 = (WG / 2u);

struct Records
{
    uint records[1];
};

constant uint _4216_tmp [[function_constant(0)]];
constant uint _4216 = is_function_constant_defined(_4216_tmp) ? _4216_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_4216, 1u, 1u);

constant spvUnsafeArray<ulong, 14> _4233 = spvUnsafeArray<ulong, 14>({ 4460272573143870729ul, 4477122120089393304ul, 4493156764026750180ul, 4508805057796939612ul, 4523617214285662004ul, 4537941361671905306ul, 4551452160554016794ul, 4564047942368979991ul, 4575957461383581969ul, 4586165620538955093ul, 4595172819793696085ul, 4602678819172646912ul, 4607182418800017408ul, 4607182418800017408ul });
constant spvUnsafeArray<ulong, 13> _4248 = spvUnsafeArray<ulong, 13>({ 4585925428558828667ul, 4586426698778222948ul, 4587023449039406616ul, 4587745830934523688ul, 4588638185040256542ul, 4589468260265693457ul, 4590207312512236308ul, 4591215111030249286ul, 4592670820000712476ul, 4594314991293244562ul, 4596373779694328218ul, 4599676419421066581ul, 4607182418800017408ul });

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
    bool _1373 = sf_is_nan(param);
    bool _1380;
    if (!_1373)
    {
        ulong param_1 = b;
        _1380 = sf_is_nan(param_1);
    }
    else
    {
        _1380 = _1373;
    }
    if (_1380)
    {
        return false;
    }
    bool na = (a & 9223372036854775808ul) != 0ul;
    bool nb = (b & 9223372036854775808ul) != 0ul;
    if (na != nb)
    {
        bool _1405;
        if (na)
        {
            _1405 = ((a | b) & 9223372036854775807ul) != 0ul;
        }
        else
        {
            _1405 = na;
        }
        return _1405;
    }
    bool _1409 = a != b;
    bool _1417;
    if (_1409)
    {
        _1417 = na != (a < b);
    }
    else
    {
        _1417 = _1409;
    }
    return _1417;
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
long2 load(thread const uint& i, const device Hist& v_1764, thread uint& hist_base)
{
    uint4 v = v_1764.hist[hist_base + i];
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
            bool _391 = e > 2045;
            bool _400;
            if (!_391)
            {
                _400 = (sig + 512ul) >= 9223372036854775808ul;
            }
            else
            {
                _400 = _391;
            }
            if (_400)
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
    ulong _472 = sf_round_pack(param_4, param_5, param_6);
    return _472;
}

static inline __attribute__((always_inline))
ulong sf_from_i64(thread const long& a)
{
    if ((ulong(a) & 9223372036854775807ul) == 0ul)
    {
        return (a != 0l) ? 14114281232179134464ul : 0ul;
    }
    ulong _sign = (a < 0l) ? 9223372036854775808ul : 0ul;
    ulong _1324;
    if (a < 0l)
    {
        _1324 = 0ul - ulong(a);
    }
    else
    {
        _1324 = ulong(a);
    }
    ulong m = _1324;
    ulong param = _sign;
    int param_1 = 1084;
    ulong param_2 = m;
    ulong _1340 = sf_norm_round_pack(param, param_1, param_2);
    return _1340;
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
        bool _972 = sa != 0ul;
        bool _981;
        if (!_972)
        {
            _981 = (eb == 2047) && (sb != 0ul);
        }
        else
        {
            _981 = _972;
        }
        if (_981)
        {
            ulong param_2 = a;
            ulong param_3 = b;
            return sf_propagate_nan(param_2, param_3);
        }
        ulong _996;
        if ((ulong(long(eb)) | sb) == 0ul)
        {
            _996 = 18444492273895866368ul;
        }
        else
        {
            _996 = _sign | 9218868437227405312ul;
        }
        return _996;
    }
    if (eb == 2047)
    {
        if (sb != 0ul)
        {
            ulong param_4 = a;
            ulong param_5 = b;
            return sf_propagate_nan(param_4, param_5);
        }
        ulong _1024;
        if ((ulong(long(ea)) | sa) == 0ul)
        {
            _1024 = 18444492273895866368ul;
        }
        else
        {
            _1024 = _sign | 9218868437227405312ul;
        }
        return _1024;
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
    ulong _1103 = sf_round_pack(param_10, param_11, param_12);
    return _1103;
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
            ulong _1145;
            if (sb != 0ul)
            {
                ulong param_4 = a;
                ulong param_5 = b;
                _1145 = sf_propagate_nan(param_4, param_5);
            }
            else
            {
                _1145 = 18444492273895866368ul;
            }
            return _1145;
        }
        return _sign | 9218868437227405312ul;
    }
    if (eb == 2047)
    {
        ulong _1165;
        if (sb != 0ul)
        {
            ulong param_6 = a;
            ulong param_7 = b;
            _1165 = sf_propagate_nan(param_6, param_7);
        }
        else
        {
            _1165 = _sign;
        }
        return _1165;
    }
    if (eb == 0)
    {
        if (sb == 0ul)
        {
            ulong _1191;
            if ((ulong(long(ea)) | sa) == 0ul)
            {
                _1191 = 18444492273895866368ul;
            }
            else
            {
                _1191 = _sign | 9218868437227405312ul;
            }
            return _1191;
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
    ulong _1303 = sf_round_pack(param_10, param_11, param_12);
    return _1303;
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
            ulong _672;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _672 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _672 = 18444492273895866368ul;
            }
            return _672;
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
            ulong _753;
            if (sb != 0ul)
            {
                ulong param_8 = a;
                ulong param_9 = b;
                _753 = sf_propagate_nan(param_8, param_9);
            }
            else
            {
                _753 = _sign | 9218868437227405312ul;
            }
            return _753;
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
            ulong _793;
            if (sa != 0ul)
            {
                ulong param_12 = a;
                ulong param_13 = b;
                _793 = sf_propagate_nan(param_12, param_13);
            }
            else
            {
                _793 = a;
            }
            return _793;
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
    ulong _829 = sf_norm_round_pack(param_16, param_17, param_18);
    return _829;
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
            ulong _515;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _515 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _515 = a;
            }
            return _515;
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
                ulong _552;
                if (sb != 0ul)
                {
                    ulong param_4 = a;
                    ulong param_5 = b;
                    _552 = sf_propagate_nan(param_4, param_5);
                }
                else
                {
                    _552 = _sign | 9218868437227405312ul;
                }
                return _552;
            }
            ez = eb;
            ulong _568;
            if (ea != 0)
            {
                _568 = sa + 2305843009213693952ul;
            }
            else
            {
                _568 = sa << ulong(1);
            }
            sa = _568;
            ulong param_6 = sa;
            int param_7 = -d;
            sa = sf_shift_right_jam(param_6, param_7);
        }
        else
        {
            if (ea == 2047)
            {
                ulong _591;
                if (sa != 0ul)
                {
                    ulong param_8 = a;
                    ulong param_9 = b;
                    _591 = sf_propagate_nan(param_8, param_9);
                }
                else
                {
                    _591 = a;
                }
                return _591;
            }
            ez = ea;
            ulong _606;
            if (eb != 0)
            {
                _606 = sb + 2305843009213693952ul;
            }
            else
            {
                _606 = sb << ulong(1);
            }
            sb = _606;
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
    ulong _639 = sf_round_pack(param_12, param_13, param_14);
    return _639;
}

static inline __attribute__((always_inline))
ulong sf_sub(thread const ulong& a, thread const ulong& b)
{
    if (((a ^ b) & 9223372036854775808ul) == 0ul)
    {
        ulong param = a;
        ulong param_1 = b;
        ulong param_2 = a & 9223372036854775808ul;
        ulong _872 = sf_sub_mags(param, param_1, param_2);
        return _872;
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
    ulong _855 = sf_sub_mags(param_3, param_4, param_5);
    return _855;
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
    bool _1345 = sf_is_nan(param);
    bool _1352;
    if (!_1345)
    {
        ulong param_1 = b;
        _1352 = sf_is_nan(param_1);
    }
    else
    {
        _1352 = _1345;
    }
    if (_1352)
    {
        return false;
    }
    bool _1359 = a == b;
    bool _1368;
    if (!_1359)
    {
        _1368 = ((a | b) & 9223372036854775807ul) == 0ul;
    }
    else
    {
        _1368 = _1359;
    }
    return _1368;
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
    ulong _1615 = clamp_weight(param_7, param_8, param_9, param_10);
    ulong w = _1615;
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
    ulong _1643;
    if (f64_lt(param_19, param_20))
    {
        ulong param_21 = w;
        _1643 = f64_neg(param_21);
    }
    else
    {
        _1643 = w;
    }
    ulong abs_w = _1643;
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
        bool _1871 = L.y <= 0l;
        bool _1878;
        if (!_1871)
        {
            _1878 = R.y <= 0l;
        }
        else
        {
            _1878 = _1871;
        }
        if (_1878)
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
        bool _1904 = f64_lt(param_6, param_7);
        bool _1913;
        if (!_1904)
        {
            ulong param_8 = hr;
            ulong param_9 = min_child_weight;
            _1913 = f64_lt(param_8, param_9);
        }
        else
        {
            _1913 = _1904;
        }
        if (_1913)
        {
            continue;
        }
        long param_10 = L.y;
        uint param_11 = rows;
        ulong param_12 = rows_limit;
        bool _1925 = !rows_reach(param_10, param_11, param_12);
        bool _1938;
        if (!_1925)
        {
            long param_13 = R.y;
            uint param_14 = rows;
            ulong param_15 = rows_limit;
            _1938 = !rows_reach(param_13, param_14, param_15);
        }
        else
        {
            _1938 = _1925;
        }
        if (_1938)
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
            ulong _1993 = bounded_score(param_23, param_24, param_25, param_26, param_27, param_28, param_29, param_30);
            ulong wl = param_30;
            ulong sl = _1993;
            ulong param_31 = gr;
            ulong param_32 = hr;
            ulong param_33 = lambda;
            ulong param_34 = alpha;
            ulong param_35 = mds;
            ulong param_36 = lo;
            ulong param_37 = hi;
            ulong _2012 = bounded_score(param_31, param_32, param_33, param_34, param_35, param_36, param_37, param_38);
            ulong wr = param_38;
            ulong sr = _2012;
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
bool cat_used(thread const uint& first, thread const uint& b, thread const ulong& sg, thread const ulong& sh, thread const ulong& min_child_weight, thread const ulong& cat_smooth, thread ulong& ratio, const device Hist& v_1764, thread uint& hist_base)
{
    uint param = first + b;
    long2 h = load(param, v_1764, hist_base);
    long param_1 = h.y;
    ulong param_2 = f64_from_i64(param_1);
    ulong param_3 = sh;
    ulong hs = f64_div(param_2, param_3);
    ratio = 0ul;
    bool _2365 = h.y <= 0l;
    bool _2374;
    if (!_2365)
    {
        ulong param_4 = hs;
        ulong param_5 = min_child_weight;
        _2374 = f64_lt(param_4, param_5);
    }
    else
    {
        _2374 = _2365;
    }
    if (_2374)
    {
        return false;
    }
    long param_6 = h.x;
    ulong param_7 = f64_from_i64(param_6);
    ulong param_8 = sg;
    ulong param_9 = hs;
    ulong param_10 = cat_smooth;
    ulong param_11 = f64_div(param_7, param_8);
    ulong param_12 = f64_add(param_9, param_10);
    ratio = f64_div(param_11, param_12);
    return true;
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
uint select_categories(thread const uint& first, thread const int& last_bin, thread const ulong& sg, thread const ulong& sh, thread const uint& limit, const device Hist& v_1764, thread uint& hist_base, constant Push& pc, thread uint3& gl_LocalInvocationID, threadgroup uint& c_count, threadgroup ulong (&s_gain)[WG], threadgroup int3 (&s_key)[WG], threadgroup long2 (&c_prefix)[256], threadgroup long2 (&c_back)[256])
{
    uint lid = gl_LocalInvocationID.x;
    uint2 param = pc.cat_smooth;
    ulong cat_smooth = f64_from_words(param);
    uint2 param_1 = pc.min_child_weight;
    ulong min_child_weight = f64_from_words(param_1);
    if (lid == 0u)
    {
        c_count = 0u;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint mine = 0u;
    int _2418 = 1 + int(lid);
    ulong param_8;
    for (int b = _2418; b <= last_bin; b += _2448)
    {
        uint param_2 = first;
        uint param_3 = uint(b);
        ulong param_4 = sg;
        ulong param_5 = sh;
        ulong param_6 = min_child_weight;
        ulong param_7 = cat_smooth;
        bool _2442 = cat_used(param_2, param_3, param_4, param_5, param_6, param_7, param_8, v_1764, hist_base);
        ulong r = param_8;
        if (_2442)
        {
            mine++;
        }
    }
    uint _2452 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&c_count, mine, memory_order_relaxed);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint n = c_count;
    uint kmax = min(n, limit);
    ulong param_15;
    bool _2521;
    bool _2558;
    bool _2645;
    for (uint dir = 0u; dir < 2u; dir++)
    {
        ulong last_r = 0ul;
        uint last_b = 0u;
        long2 sum = long2(0l);
        for (uint k = 1u; k <= kmax; k++)
        {
            ulong best_r = 0ul;
            int best_b = -1;
            int _2485 = 1 + int(lid);
            for (int b_1 = _2485; b_1 <= last_bin; b_1 += _2590)
            {
                uint param_9 = first;
                uint param_10 = uint(b_1);
                ulong param_11 = sg;
                ulong param_12 = sh;
                ulong param_13 = min_child_weight;
                ulong param_14 = cat_smooth;
                bool _2509 = cat_used(param_9, param_10, param_11, param_12, param_13, param_14, param_15, v_1764, hist_base);
                ulong r_1 = param_15;
                if (!_2509)
                {
                    continue;
                }
                bool _2516 = k > 1u;
                bool _2547;
                if (_2516)
                {
                    if (dir == 0u)
                    {
                        ulong param_16 = last_r;
                        uint param_17 = last_b;
                        ulong param_18 = r_1;
                        uint param_19 = uint(b_1);
                        _2521 = cat_before(param_16, param_17, param_18, param_19);
                    }
                    else
                    {
                        ulong param_20 = r_1;
                        uint param_21 = uint(b_1);
                        ulong param_22 = last_r;
                        uint param_23 = last_b;
                        _2521 = cat_before(param_20, param_21, param_22, param_23);
                    }
                    _2547 = !_2521;
                }
                else
                {
                    _2547 = _2516;
                }
                if (_2547)
                {
                    continue;
                }
                bool _2552 = best_b < 0;
                bool _2585;
                if (!_2552)
                {
                    if (dir == 0u)
                    {
                        ulong param_24 = r_1;
                        uint param_25 = uint(b_1);
                        ulong param_26 = best_r;
                        uint param_27 = uint(best_b);
                        _2558 = cat_before(param_24, param_25, param_26, param_27);
                    }
                    else
                    {
                        ulong param_28 = best_r;
                        uint param_29 = uint(best_b);
                        ulong param_30 = r_1;
                        uint param_31 = uint(b_1);
                        _2558 = cat_before(param_28, param_29, param_30, param_31);
                    }
                    _2585 = _2558;
                }
                else
                {
                    _2585 = _2552;
                }
                if (_2585)
                {
                    best_r = r_1;
                    best_b = b_1;
                }
            }
            s_gain[lid] = best_r;
            s_key[lid] = int3(best_b, 0, 0);
            threadgroup_barrier(mem_flags::mem_threadgroup);
            for (uint half_size = _2608; half_size > 0u; half_size = half_size >> uint(1))
            {
                if (lid < half_size)
                {
                    uint o = lid + half_size;
                    int ob = ((threadgroup int*)&s_key[o])[0u];
                    int mb = ((threadgroup int*)&s_key[lid])[0u];
                    bool _2635 = ob >= 0;
                    bool _2681;
                    if (_2635)
                    {
                        bool _2639 = mb < 0;
                        bool _2680;
                        if (!_2639)
                        {
                            if (dir == 0u)
                            {
                                ulong param_32 = s_gain[o];
                                uint param_33 = uint(ob);
                                ulong param_34 = s_gain[lid];
                                uint param_35 = uint(mb);
                                _2645 = cat_before(param_32, param_33, param_34, param_35);
                            }
                            else
                            {
                                ulong param_36 = s_gain[lid];
                                uint param_37 = uint(mb);
                                ulong param_38 = s_gain[o];
                                uint param_39 = uint(ob);
                                _2645 = cat_before(param_36, param_37, param_38, param_39);
                            }
                            _2680 = _2645;
                        }
                        else
                        {
                            _2680 = _2639;
                        }
                        _2681 = _2680;
                    }
                    else
                    {
                        _2681 = _2635;
                    }
                    if (_2681)
                    {
                        s_gain[lid] = s_gain[o];
                        s_key[lid] = s_key[o];
                    }
                }
                threadgroup_barrier(mem_flags::mem_threadgroup);
            }
            last_r = s_gain[0];
            last_b = uint(((threadgroup int*)&s_key[0])[0u]);
            threadgroup_barrier(mem_flags::mem_threadgroup);
            uint param_40 = first + last_b;
            sum += load(param_40, v_1764, hist_base);
            if (lid == 0u)
            {
                if (dir == 0u)
                {
                    c_prefix[k] = sum;
                }
                else
                {
                    c_back[k] = sum;
                }
            }
        }
    }
    if (lid == 0u)
    {
        c_prefix[0] = long2(0l);
        c_back[0] = long2(0l);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    return n;
}

static inline __attribute__((always_inline))
uint order_categories(thread const uint& first, thread const int& last_bin, thread const ulong& sg, thread const ulong& sh, const device Hist& v_1764, thread uint& hist_base, constant Push& pc, thread uint3& gl_LocalInvocationID, threadgroup uint (&c_ok)[8], threadgroup ulong (&c_ratio)[256], threadgroup uint (&c_bin)[256])
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
    int _2167 = 1 + int(lid);
    for (int b = _2167; b <= last_bin; b += _2241)
    {
        uint param_2 = first + uint(b);
        long2 h = load(param_2, v_1764, hist_base);
        long param_3 = h.y;
        ulong param_4 = f64_from_i64(param_3);
        ulong param_5 = sh;
        ulong hs = f64_div(param_4, param_5);
        bool _2194 = h.y <= 0l;
        bool _2203;
        if (!_2194)
        {
            ulong param_6 = hs;
            ulong param_7 = min_child_weight;
            _2203 = f64_lt(param_6, param_7);
        }
        else
        {
            _2203 = _2194;
        }
        if (_2203)
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
        uint _2239 = atomic_fetch_or_explicit((threadgroup atomic_uint*)&c_ok[uint(b) >> uint(5)], 1u << (uint(b) & 31u), memory_order_relaxed);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint n = 0u;
    for (uint w = 0u; w < 8u; w++)
    {
        n += uint(int(popcount(c_ok[w])));
    }
    int _2265 = 1 + int(lid);
    for (int b_1 = _2265; b_1 <= last_bin; b_1 += _2342)
    {
        if (((c_ok[uint(b_1) >> uint(5)] >> (uint(b_1) & 31u)) & 1u) == 0u)
        {
            continue;
        }
        ulong r = c_ratio[b_1];
        uint rank = 0u;
        for (int o = 1; o <= last_bin; o++)
        {
            bool _2312 = ((c_ok[uint(o) >> uint(5)] >> (uint(o) & 31u)) & 1u) != 0u;
            bool _2328;
            if (_2312)
            {
                ulong param_15 = c_ratio[o];
                uint param_16 = uint(o);
                ulong param_17 = r;
                uint param_18 = uint(b_1);
                _2328 = cat_before(param_15, param_16, param_17, param_18);
            }
            else
            {
                _2328 = _2312;
            }
            if (_2328)
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

kernel void split_eval_level(constant Push& pc [[buffer(0)]], const device Hist& v_1764 [[buffer(1)]], const device Offsets& _2879 [[buffer(2)]], const device Mask& _3106 [[buffer(3)]], device Records& _4056 [[buffer(4)]], const device Categorical& _3121 [[buffer(5)]], const device Nodes& _2748 [[buffer(6)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]])
{
    threadgroup uint c_ok[8];
    threadgroup ulong c_ratio[256];
    threadgroup uint c_bin[256];
    threadgroup uint c_count;
    threadgroup ulong s_gain[WG];
    threadgroup int3 s_key[WG];
    threadgroup long2 c_prefix[256];
    threadgroup long2 c_back[256];
    threadgroup long2 s_left[WG];
    threadgroup uint c_tried[16];
    threadgroup uint c_set[8];
    uint lid = gl_LocalInvocationID.x;
    uint4 entry = _2748.level_nodes[pc.record + gl_WorkGroupID.x];
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
        uint4 b = _2748.level_nodes[pc.bounds_first + record];
        uint2 param_2 = b.xy;
        lo = f64_from_words(param_2);
        uint2 param_3 = b.zw;
        hi = f64_from_words(param_3);
    }
    uint2 param_4 = pc.max_delta_step;
    ulong mds = f64_from_words(param_4);
    ulong param_5 = mds;
    ulong param_6 = 0ul;
    bool _2812 = f64_gt(param_5, param_6);
    bool _2823;
    if (!_2812)
    {
        ulong param_7 = 18442240474082181120ul;
        ulong param_8 = lo;
        ulong param_9 = f64_from_bits(param_7);
        _2823 = f64_gt(param_8, param_9);
    }
    else
    {
        _2823 = _2812;
    }
    bool _2835;
    if (!_2823)
    {
        ulong param_10 = 18442240474082181120ul;
        ulong param_11 = f64_from_bits(param_10);
        ulong param_12 = hi;
        ulong param_13 = f64_neg(param_11);
        _2835 = f64_lt(param_12, param_13);
    }
    else
    {
        _2835 = _2823;
    }
    bool bounded = _2835;
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
    long2 part = long2(0l);
    uint _2884 = _2879.feature_offset[0] + lid;
    for (uint k = _2884; k < _2879.feature_offset[1]; k += WG)
    {
        uint param_19 = k;
        part += load(param_19, v_1764, hist_base);
    }
    s_left[lid] = part;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint half_size = _2908; half_size > 0u; half_size = half_size >> uint(1))
    {
        if (lid < half_size)
        {
            s_left[lid] += s_left[lid + half_size];
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    long2 total = s_left[0];
    threadgroup_barrier(mem_flags::mem_threadgroup);
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
    ulong _2988 = bounded_score(param_30, param_31, param_32, param_33, param_34, param_35, param_36, param_37);
    ulong weight = param_37;
    ulong parent = _2988;
    ulong best_gain = 0ul;
    int3 best = int3(-1, 0, 0);
    long2 best_left = total;
    uint segments = max(1u, (WG / max(num_features, 1u)));
    if (segments > 1u)
    {
        long2 own = long2(0l);
        if (lid < (num_features * segments))
        {
            uint f = lid / segments;
            uint seg = lid % segments;
            uint first = _2879.feature_offset[f];
            int last_bin = int(_2879.feature_offset[f + 1u] - first) - 1;
            int seg_len = ((last_bin + int(segments)) - 1) / int(segments);
            int b_lo = 1 + (int(seg) * seg_len);
            int b_hi = min(last_bin, ((b_lo + seg_len) - 1));
            for (int b_1 = b_lo; b_1 <= b_hi; b_1++)
            {
                uint param_38 = first + uint(b_1);
                own += load(param_38, v_1764, hist_base);
            }
        }
        s_left[lid] = own;
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    uint _3100;
    for (uint item = lid; item < (num_features * segments); item += WG)
    {
        uint f_1 = item / segments;
        uint seg_1 = item % segments;
        if (has_mask)
        {
            _3100 = _3106.mask[f_1];
        }
        else
        {
            _3100 = 1u;
        }
        uint words = _3100;
        bool _3114 = (words & 1u) == 0u;
        bool _3126;
        if (!_3114)
        {
            _3126 = _3121.categorical[f_1] != 0u;
        }
        else
        {
            _3126 = _3114;
        }
        if (_3126)
        {
            continue;
        }
        int constraint = int((words >> uint(1)) & 1u) - int((words >> uint(2)) & 1u);
        uint first_1 = _2879.feature_offset[f_1];
        int last_bin_1 = int(_2879.feature_offset[f_1 + 1u] - first_1) - 1;
        int seg_len_1 = ((last_bin_1 + int(segments)) - 1) / int(segments);
        int b_lo_1 = 1 + (int(seg_1) * seg_len_1);
        int b_hi_1 = min(last_bin_1, ((b_lo_1 + seg_len_1) - 1));
        if (b_lo_1 > b_hi_1)
        {
            continue;
        }
        uint param_39 = first_1;
        long2 missing = load(param_39, v_1764, hist_base);
        long2 cum = long2(0l);
        uint _3189 = item - seg_1;
        for (uint s = _3189; s < item; s++)
        {
            cum += s_left[s];
        }
        for (int b_2 = b_lo_1; b_2 <= b_hi_1; b_2++)
        {
            uint param_40 = first_1 + uint(b_2);
            cum += load(param_40, v_1764, hist_base);
            bool _3226 = b_2 < last_bin_1;
            bool _3239;
            if (_3226)
            {
                bool _3231 = missing.y != 0l;
                bool _3238;
                if (!_3231)
                {
                    _3238 = missing.x != 0l;
                }
                else
                {
                    _3238 = _3231;
                }
                _3239 = _3238;
            }
            else
            {
                _3239 = _3226;
            }
            int two_way = int(_3239);
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
            int param_55 = int(f_1);
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
    if (segments > 1u)
    {
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    uint num_cat = _3121.categorical[num_features];
    uint _3384;
    long _3519;
    long _3535;
    ulong _3596;
    ulong _3613;
    ulong param_99;
    int key;
    long2 left_1;
    long2 _3669;
    long2 _3729;
    for (uint c = 0u; c < num_cat; c++)
    {
        uint f_2 = _3121.categorical[(num_features + 1u) + c];
        bool _3324;
        if (has_mask)
        {
            _3324 = (_3106.mask[f_2] & 1u) == 0u;
        }
        else
        {
            _3324 = has_mask;
        }
        if (_3324)
        {
            continue;
        }
        uint first_2 = _2879.feature_offset[f_2];
        int last_bin_2 = int(_2879.feature_offset[f_2 + 1u] - first_2) - 1;
        uint param_62 = first_2;
        long2 missing_1 = load(param_62, v_1764, hist_base);
        bool _3348 = missing_1.x != 0l;
        bool _3355;
        if (!_3348)
        {
            _3355 = missing_1.y != 0l;
        }
        else
        {
            _3355 = _3348;
        }
        int two_way_1 = int(_3355);
        bool onehot = last_bin_2 <= pc.max_cat_to_onehot;
        uint n = 0u;
        uint items = uint(last_bin_2) + 1u;
        if (!onehot)
        {
            uint limit = uint(max(pc.max_cat_threshold, 0));
            bool wide = last_bin_2 > 255;
            if (wide)
            {
                uint param_63 = first_2;
                int param_64 = last_bin_2;
                ulong param_65 = sg;
                ulong param_66 = sh;
                uint param_67 = limit;
                uint _3397 = select_categories(param_63, param_64, param_65, param_66, param_67, v_1764, hist_base, pc, gl_LocalInvocationID, c_count, s_gain, s_key, c_prefix, c_back);
                _3384 = _3397;
            }
            else
            {
                uint param_68 = first_2;
                int param_69 = last_bin_2;
                ulong param_70 = sg;
                ulong param_71 = sh;
                uint _3407 = order_categories(param_68, param_69, param_70, param_71, v_1764, hist_base, pc, gl_LocalInvocationID, c_ok, c_ratio, c_bin);
                _3384 = _3407;
            }
            n = _3384;
            uint kmax = min(n, limit);
            if (lid == 0u)
            {
                if (!wide)
                {
                    long2 sum = long2(0l);
                    c_prefix[0] = sum;
                    for (uint k_1 = 1u; k_1 <= n; k_1++)
                    {
                        uint param_72 = first_2 + c_bin[k_1 - 1u];
                        sum += load(param_72, v_1764, hist_base);
                        c_prefix[k_1] = sum;
                    }
                    for (uint k_2 = 0u; k_2 <= kmax; k_2++)
                    {
                        c_back[k_2] = c_prefix[n] - c_prefix[n - k_2];
                    }
                }
                uint2 param_73 = pc.min_data_per_group;
                long param_74 = total.y;
                ulong param_75 = f64_from_words(param_73);
                ulong param_76 = f64_from_i64(param_74);
                ulong limit_1 = f64_mul(param_75, param_76);
                for (uint w = 0u; w < 16u; w++)
                {
                    c_tried[w] = 0u;
                }
                for (uint dir = 0u; dir < 2u; dir++)
                {
                    long added = 0l;
                    for (uint k_3 = 1u; k_3 <= kmax; k_3++)
                    {
                        if (dir == 0u)
                        {
                            _3519 = ((threadgroup long*)&c_prefix[k_3])[1u];
                        }
                        else
                        {
                            _3519 = ((threadgroup long*)&c_back[k_3])[1u];
                        }
                        long left = _3519;
                        if (dir == 0u)
                        {
                            _3535 = ((threadgroup long*)&c_prefix[k_3 - 1u])[1u];
                        }
                        else
                        {
                            _3535 = ((threadgroup long*)&c_back[k_3 - 1u])[1u];
                        }
                        long cat = left - _3535;
                        long param_77 = added;
                        long param_78 = cat;
                        long param_79 = left;
                        long param_80 = total.y;
                        uint param_81 = node_rows;
                        ulong param_82 = limit_1;
                        int _3563 = cat_group_step(param_77, param_78, param_79, param_80, param_81, param_82);
                        added = param_77;
                        int _step = _3563;
                        if (_step < 0)
                        {
                            break;
                        }
                        if (_step > 0)
                        {
                            uint _3579 = (8u * dir) + ((k_3 - 1u) >> uint(5));
                            c_tried[_3579] |= (1u << ((k_3 - 1u) & 31u));
                        }
                    }
                }
            }
            threadgroup_barrier(mem_flags::mem_threadgroup);
            items = 2u * kmax;
        }
        if (onehot)
        {
            _3596 = lambda;
        }
        else
        {
            uint2 param_83 = pc.cat_l2;
            ulong param_84 = lambda;
            ulong param_85 = f64_from_words(param_83);
            _3596 = f64_add(param_84, param_85);
        }
        ulong cat_lambda = _3596;
        if (onehot)
        {
            _3613 = parent;
        }
        else
        {
            long param_86 = total.x;
            ulong param_87 = f64_from_i64(param_86);
            ulong param_88 = sg;
            long param_89 = total.y;
            ulong param_90 = f64_from_i64(param_89);
            ulong param_91 = sh;
            ulong param_92 = f64_div(param_87, param_88);
            ulong param_93 = f64_div(param_90, param_91);
            ulong param_94 = cat_lambda;
            ulong param_95 = alpha;
            ulong param_96 = mds;
            ulong param_97 = lo;
            ulong param_98 = hi;
            ulong _3647 = bounded_score(param_92, param_93, param_94, param_95, param_96, param_97, param_98, param_99);
            weight = param_99;
            _3613 = _3647;
        }
        ulong cat_parent = _3613;
        for (uint item_1 = lid; item_1 < items; item_1 += WG)
        {
            if (onehot)
            {
                key = int(item_1);
                if (item_1 == 0u)
                {
                    _3669 = long2(0l);
                }
                else
                {
                    uint param_100 = first_2 + item_1;
                    _3669 = load(param_100, v_1764, hist_base);
                }
                left_1 = _3669;
                bool _3680 = item_1 != 0u;
                bool _3686;
                if (_3680)
                {
                    _3686 = left_1.y <= 0l;
                }
                else
                {
                    _3686 = _3680;
                }
                if (_3686)
                {
                    continue;
                }
            }
            else
            {
                uint kmax_1 = items / 2u;
                uint dir_1 = item_1 / kmax_1;
                uint k_4 = (item_1 % kmax_1) + 1u;
                if (((c_tried[(8u * dir_1) + ((k_4 - 1u) >> uint(5))] >> ((k_4 - 1u) & 31u)) & 1u) == 0u)
                {
                    continue;
                }
                key = (int(dir_1) * 256) + int(k_4);
                if (dir_1 == 0u)
                {
                    _3729 = c_prefix[k_4];
                }
                else
                {
                    _3729 = c_back[k_4];
                }
                left_1 = _3729;
            }
            long2 param_101 = total;
            ulong param_102 = cat_parent;
            ulong param_103 = cat_lambda;
            ulong param_104 = alpha;
            ulong param_105 = sg;
            ulong param_106 = sh;
            ulong param_107 = min_child_weight;
            ulong param_108 = lo;
            ulong param_109 = hi;
            bool param_110 = bounded;
            int param_111 = 0;
            long2 param_112 = left_1;
            long2 param_113 = missing_1;
            int param_114 = two_way_1;
            int param_115 = int(f_2);
            int param_116 = key;
            uint param_117 = rows;
            ulong param_118 = rows_limit;
            ulong param_119 = best_gain;
            int3 param_120 = best;
            long2 param_121 = best_left;
            try_split(param_101, param_102, param_103, param_104, param_105, param_106, param_107, param_108, param_109, param_110, param_111, param_112, param_113, param_114, param_115, param_116, param_117, param_118, param_119, param_120, param_121, pc);
            best_gain = param_119;
            best = param_120;
            best_left = param_121;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    s_gain[lid] = best_gain;
    s_key[lid] = best;
    s_left[lid] = best_left;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint half_size_1 = _3800; half_size_1 > 0u; half_size_1 = half_size_1 >> uint(1))
    {
        if (lid < half_size_1)
        {
            uint o = lid + half_size_1;
            ulong param_122 = s_gain[o];
            int param_123 = ((threadgroup int*)&s_key[o])[0u];
            int param_124 = ((threadgroup int*)&s_key[o])[1u];
            int param_125 = ((threadgroup int*)&s_key[o])[2u];
            ulong param_126 = s_gain[lid];
            int param_127 = ((threadgroup int*)&s_key[lid])[0u];
            int param_128 = ((threadgroup int*)&s_key[lid])[1u];
            int param_129 = ((threadgroup int*)&s_key[lid])[2u];
            if (split_better(param_122, param_123, param_124, param_125, param_126, param_127, param_128, param_129))
            {
                s_gain[lid] = s_gain[o];
                s_key[lid] = s_key[o];
                s_left[lid] = s_left[o];
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    int3 win = s_key[0];
    bool _3875 = win.x >= 0;
    bool _3884;
    if (_3875)
    {
        _3884 = _3121.categorical[uint(win.x)] != 0u;
    }
    else
    {
        _3884 = _3875;
    }
    bool win_cat = _3884;
    bool _3902;
    if (win_cat)
    {
        _3902 = (_2879.feature_offset[uint(win.x) + 1u] - _2879.feature_offset[uint(win.x)]) > 256u;
    }
    else
    {
        _3902 = win_cat;
    }
    bool win_wide = _3902;
    if (lid < 8u)
    {
        c_set[lid] = 0u;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (win_cat && (!win_wide))
    {
        uint first_3 = _2879.feature_offset[uint(win.x)];
        int last_bin_3 = int(_2879.feature_offset[uint(win.x) + 1u] - first_3) - 1;
        if (last_bin_3 <= pc.max_cat_to_onehot)
        {
            bool _3940 = lid == 0u;
            bool _3946;
            if (_3940)
            {
                _3946 = win.y > 0;
            }
            else
            {
                _3946 = _3940;
            }
            if (_3946)
            {
                c_set[uint(win.y) >> uint(5)] = 1u << (uint(win.y) & 31u);
            }
        }
        else
        {
            uint param_130 = first_3;
            int param_131 = last_bin_3;
            ulong param_132 = sg;
            ulong param_133 = sh;
            uint _3969 = order_categories(param_130, param_131, param_132, param_133, v_1764, hist_base, pc, gl_LocalInvocationID, c_ok, c_ratio, c_bin);
            uint n_1 = _3969;
            uint dir_2 = uint(win.y / 256);
            uint k_5 = uint(win.y % 256);
            uint _3997;
            for (uint i = lid; (i < k_5) && (i < n_1); i += WG)
            {
                if (dir_2 != 0u)
                {
                    _3997 = (n_1 - 1u) - i;
                }
                else
                {
                    _3997 = i;
                }
                uint b_3 = c_bin[_3997];
                uint _4015 = atomic_fetch_or_explicit((threadgroup atomic_uint*)&c_set[b_3 >> uint(5)], 1u << (b_3 & 31u), memory_order_relaxed);
            }
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if (lid == 0u)
    {
        int3 key_1 = s_key[0];
        long2 _4029;
        if (key_1.x >= 0)
        {
            _4029 = s_left[0];
        }
        else
        {
            _4029 = total;
        }
        long2 L = _4029;
        long2 _4041;
        if (key_1.x >= 0)
        {
            _4041 = total - L;
        }
        else
        {
            _4041 = long2(0l);
        }
        long2 R = _4041;
        uint o_1 = record * 27u;
        _4056.records[o_1 + 0u] = uint(node);
        _4056.records[o_1 + 1u] = uint(key_1.x);
        uint _4073;
        if (key_1.x >= 0)
        {
            _4073 = uint(key_1.y);
        }
        else
        {
            _4073 = 0u;
        }
        _4056.records[o_1 + 2u] = _4073;
        uint _4087;
        if (key_1.x >= 0)
        {
            _4087 = uint(key_1.z);
        }
        else
        {
            _4087 = 0u;
        }
        _4056.records[o_1 + 3u] = _4087;
        ulong _4100;
        if (key_1.x >= 0)
        {
            _4100 = s_gain[0];
        }
        else
        {
            _4100 = 0ul;
        }
        ulong param_134 = _4100;
        uint2 gw = f64_words(param_134);
        _4056.records[o_1 + 4u] = gw.x;
        _4056.records[o_1 + 5u] = gw.y;
        spvUnsafeArray<long2, 3> _4127 = spvUnsafeArray<long2, 3>({ L, R, total });
        spvUnsafeArray<long2, 3> sums;
        sums = _4127;
        for (uint k_6 = 0u; k_6 < 3u; k_6++)
        {
            uint2 g = as_type<uint2>(ulong(sums[k_6].x));
            uint2 h = as_type<uint2>(ulong(sums[k_6].y));
            _4056.records[(o_1 + 6u) + (4u * k_6)] = g.x;
            _4056.records[(o_1 + 7u) + (4u * k_6)] = g.y;
            _4056.records[(o_1 + 8u) + (4u * k_6)] = h.x;
            _4056.records[(o_1 + 9u) + (4u * k_6)] = h.y;
        }
        uint _4189;
        if (win_wide)
        {
            _4189 = 2u;
        }
        else
        {
            _4189 = uint(win_cat);
        }
        _4056.records[o_1 + 18u] = _4189;
        for (uint w_1 = 0u; w_1 < 8u; w_1++)
        {
            _4056.records[(o_1 + 19u) + w_1] = c_set[w_1];
        }
    }
}

