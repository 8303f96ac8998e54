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

struct Push
{
    uint2 seed;
    uint num_rows;
    uint num_groups;
    uint num_outputs;
    uint output_index;
    int objective;
    int round_index;
    int pair_method;
    int num_pair;
    int exp_gain;
    int normalization;
    int score_normalization;
    uint mode;
    float subsample;
    int sample_round;
};

struct GroupPtr
{
    uint group_ptr[1];
};

#ifndef SPIRV_CROSS_CONSTANT_ID_0
#define SPIRV_CROSS_CONSTANT_ID_0 256u
#endif
constant uint WG = SPIRV_CROSS_CONSTANT_ID_0;
constant uint _1993 = (WG / 2u);

struct Sums
{
    uint sums[1];
};

struct QuerySums
{
    uint qsums[1];
};

struct GroupWeight
{
    uint2 group_weight[1];
};

struct GroupMax
{
    uint4 group_max[1];
};

constant uint _2278_tmp [[function_constant(0)]];
constant uint _2278 = is_function_constant_defined(_2278_tmp) ? _2278_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_2278, 1u, 1u);

struct Margins
{
    float margins[1];
};

struct Labels
{
    float label[1];
};

struct Order
{
    uint order[1];
};

struct YOrder
{
    uint yorder[1];
};

struct Runs
{
    uint2 runs[1];
};

struct MapSums
{
    uint4 map_sums[1];
};

struct Discount
{
    uint2 discount[1];
};

struct InvIdcg
{
    uint2 inv_idcg[1];
};

constant spvUnsafeArray<ulong, 14> _2297 = spvUnsafeArray<ulong, 14>({ 4460272573143870729ul, 4477122120089393304ul, 4493156764026750180ul, 4508805057796939612ul, 4523617214285662004ul, 4537941361671905306ul, 4551452160554016794ul, 4564047942368979991ul, 4575957461383581969ul, 4586165620538955093ul, 4595172819793696085ul, 4602678819172646912ul, 4607182418800017408ul, 4607182418800017408ul });
constant spvUnsafeArray<ulong, 13> _2300 = spvUnsafeArray<ulong, 13>({ 4585925428558828667ul, 4586426698778222948ul, 4587023449039406616ul, 4587745830934523688ul, 4588638185040256542ul, 4589468260265693457ul, 4590207312512236308ul, 4591215111030249286ul, 4592670820000712476ul, 4594314991293244562ul, 4596373779694328218ul, 4599676419421066581ul, 4607182418800017408ul });

static inline __attribute__((always_inline))
uint query_of(thread const uint& r, constant Push& pc, const device GroupPtr& v_1866)
{
    uint lo = 0u;
    uint hi = pc.num_groups - 1u;
    while (lo < hi)
    {
        uint mid = ((lo + hi) + 1u) >> uint(1);
        if (v_1866.group_ptr[mid] <= r)
        {
            lo = mid;
        }
        else
        {
            hi = mid - 1u;
        }
    }
    return lo;
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
            bool _315 = e > 2045;
            bool _324;
            if (!_315)
            {
                _324 = (sig + 512ul) >= 9223372036854775808ul;
            }
            else
            {
                _324 = _315;
            }
            if (_324)
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
    ulong _396 = sf_round_pack(param_4, param_5, param_6);
    return _396;
}

static inline __attribute__((always_inline))
ulong sf_from_i64(thread const long& a)
{
    if ((ulong(a) & 9223372036854775807ul) == 0ul)
    {
        return (a != 0l) ? 14114281232179134464ul : 0ul;
    }
    ulong _sign = (a < 0l) ? 9223372036854775808ul : 0ul;
    ulong _1248;
    if (a < 0l)
    {
        _1248 = 0ul - ulong(a);
    }
    else
    {
        _1248 = ulong(a);
    }
    ulong m = _1248;
    ulong param = _sign;
    int param_1 = 1084;
    ulong param_2 = m;
    ulong _1264 = sf_norm_round_pack(param, param_1, param_2);
    return _1264;
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
        bool _896 = sa != 0ul;
        bool _905;
        if (!_896)
        {
            _905 = (eb == 2047) && (sb != 0ul);
        }
        else
        {
            _905 = _896;
        }
        if (_905)
        {
            ulong param_2 = a;
            ulong param_3 = b;
            return sf_propagate_nan(param_2, param_3);
        }
        ulong _920;
        if ((ulong(long(eb)) | sb) == 0ul)
        {
            _920 = 18444492273895866368ul;
        }
        else
        {
            _920 = _sign | 9218868437227405312ul;
        }
        return _920;
    }
    if (eb == 2047)
    {
        if (sb != 0ul)
        {
            ulong param_4 = a;
            ulong param_5 = b;
            return sf_propagate_nan(param_4, param_5);
        }
        ulong _948;
        if ((ulong(long(ea)) | sa) == 0ul)
        {
            _948 = 18444492273895866368ul;
        }
        else
        {
            _948 = _sign | 9218868437227405312ul;
        }
        return _948;
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
    ulong _1027 = sf_round_pack(param_10, param_11, param_12);
    return _1027;
}

static inline __attribute__((always_inline))
ulong f64_mul(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_mul(param, param_1);
}

static inline __attribute__((always_inline))
ulong sf_from_f32(thread const uint& f)
{
    ulong _sign = ulong(f >> uint(31)) << ulong(63);
    int e = int((f >> uint(23)) & 255u);
    ulong m = ulong(f & 8388607u);
    if (e == 255)
    {
        ulong _1291;
        if (m != 0ul)
        {
            _1291 = ((_sign | 9218868437227405312ul) | 2251799813685248ul) | (m << ulong(29));
        }
        else
        {
            _1291 = _sign | 9218868437227405312ul;
        }
        return _1291;
    }
    if (e == 0)
    {
        if (m == 0ul)
        {
            return _sign;
        }
        ulong param = m;
        int s = sf_clz64(param) - 40;
        e = 1 - s;
        m = (m << ulong(s)) & 8388607ul;
    }
    return (_sign | (ulong(long(e + 896)) << ulong(52))) | (m << ulong(29));
}

static inline __attribute__((always_inline))
ulong f64_from_float(thread const float& x)
{
    uint param = as_type<uint>(x);
    return sf_from_f32(param);
}

static inline __attribute__((always_inline))
bool sf_lt(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    bool _1372 = sf_is_nan(param);
    bool _1379;
    if (!_1372)
    {
        ulong param_1 = b;
        _1379 = sf_is_nan(param_1);
    }
    else
    {
        _1379 = _1372;
    }
    if (_1379)
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
bool f64_lt(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_lt(param, param_1);
}

static inline __attribute__((always_inline))
bool row_sampled(thread const ulong& seed, thread const int& round_index, thread const ulong& row, thread const float& rate)
{
    if (rate >= 1.0)
    {
        return true;
    }
    ulong z = (seed ^ (ulong(uint(round_index)) << ulong(40))) ^ row;
    z += 11400714819323198485ul;
    z = (z ^ (z >> ulong(30))) * 13787848793156543929ul;
    z = (z ^ (z >> ulong(27))) * 10723151780598845931ul;
    z ^= (z >> ulong(31));
    long param = long(z >> ulong(11));
    ulong param_1 = f64_from_i64(param);
    ulong param_2 = 4368491638549381120ul;
    ulong u = f64_mul(param_1, param_2);
    float param_3 = rate;
    ulong param_4 = u;
    ulong param_5 = f64_from_float(param_3);
    return f64_lt(param_4, param_5);
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
            ulong _1069;
            if (sb != 0ul)
            {
                ulong param_4 = a;
                ulong param_5 = b;
                _1069 = sf_propagate_nan(param_4, param_5);
            }
            else
            {
                _1069 = 18444492273895866368ul;
            }
            return _1069;
        }
        return _sign | 9218868437227405312ul;
    }
    if (eb == 2047)
    {
        ulong _1089;
        if (sb != 0ul)
        {
            ulong param_6 = a;
            ulong param_7 = b;
            _1089 = sf_propagate_nan(param_6, param_7);
        }
        else
        {
            _1089 = _sign;
        }
        return _1089;
    }
    if (eb == 0)
    {
        if (sb == 0ul)
        {
            ulong _1115;
            if ((ulong(long(ea)) | sa) == 0ul)
            {
                _1115 = 18444492273895866368ul;
            }
            else
            {
                _1115 = _sign | 9218868437227405312ul;
            }
            return _1115;
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
    ulong _1227 = sf_round_pack(param_10, param_11, param_12);
    return _1227;
}

static inline __attribute__((always_inline))
ulong f64_div(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_div(param, param_1);
}

static inline __attribute__((always_inline))
ulong f64_neg(thread const ulong& a)
{
    return a ^ 9223372036854775808ul;
}

static inline __attribute__((always_inline))
ulong f64_from_i64_signed(thread const long& x)
{
    bool neg = (x < 0l) && (x != long(0x8000000000000000ul));
    long _1891;
    if (neg)
    {
        _1891 = -x;
    }
    else
    {
        _1891 = x;
    }
    long param = _1891;
    ulong m = f64_from_i64(param);
    ulong _1902;
    if (neg)
    {
        ulong param_1 = m;
        _1902 = f64_neg(param_1);
    }
    else
    {
        _1902 = m;
    }
    return _1902;
}

static inline __attribute__((always_inline))
bool f64_gt(thread const ulong& a, thread const ulong& b)
{
    ulong param = b;
    ulong param_1 = a;
    return sf_lt(param, param_1);
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
            ulong _439;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _439 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _439 = a;
            }
            return _439;
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
                ulong _476;
                if (sb != 0ul)
                {
                    ulong param_4 = a;
                    ulong param_5 = b;
                    _476 = sf_propagate_nan(param_4, param_5);
                }
                else
                {
                    _476 = _sign | 9218868437227405312ul;
                }
                return _476;
            }
            ez = eb;
            ulong _492;
            if (ea != 0)
            {
                _492 = sa + 2305843009213693952ul;
            }
            else
            {
                _492 = sa << ulong(1);
            }
            sa = _492;
            ulong param_6 = sa;
            int param_7 = -d;
            sa = sf_shift_right_jam(param_6, param_7);
        }
        else
        {
            if (ea == 2047)
            {
                ulong _515;
                if (sa != 0ul)
                {
                    ulong param_8 = a;
                    ulong param_9 = b;
                    _515 = sf_propagate_nan(param_8, param_9);
                }
                else
                {
                    _515 = a;
                }
                return _515;
            }
            ez = ea;
            ulong _530;
            if (eb != 0)
            {
                _530 = sb + 2305843009213693952ul;
            }
            else
            {
                _530 = sb << ulong(1);
            }
            sb = _530;
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
    ulong _563 = sf_round_pack(param_12, param_13, param_14);
    return _563;
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
            ulong _596;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _596 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _596 = 18444492273895866368ul;
            }
            return _596;
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
            ulong _677;
            if (sb != 0ul)
            {
                ulong param_8 = a;
                ulong param_9 = b;
                _677 = sf_propagate_nan(param_8, param_9);
            }
            else
            {
                _677 = _sign | 9218868437227405312ul;
            }
            return _677;
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
            ulong _717;
            if (sa != 0ul)
            {
                ulong param_12 = a;
                ulong param_13 = b;
                _717 = sf_propagate_nan(param_12, param_13);
            }
            else
            {
                _717 = a;
            }
            return _717;
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
    ulong _753 = sf_norm_round_pack(param_16, param_17, param_18);
    return _753;
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
    ulong _779 = sf_sub_mags(param_3, param_4, param_5);
    return _779;
}

static inline __attribute__((always_inline))
ulong f64_add(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_add(param, param_1);
}

static inline __attribute__((always_inline))
bool sf_eq(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    bool _1344 = sf_is_nan(param);
    bool _1351;
    if (!_1344)
    {
        ulong param_1 = b;
        _1351 = sf_is_nan(param_1);
    }
    else
    {
        _1351 = _1344;
    }
    if (_1351)
    {
        return false;
    }
    bool _1358 = a == b;
    bool _1367;
    if (!_1358)
    {
        _1367 = ((a | b) & 9223372036854775807ul) == 0ul;
    }
    else
    {
        _1367 = _1358;
    }
    return _1367;
}

static inline __attribute__((always_inline))
bool f64_eq(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_eq(param, param_1);
}

static inline __attribute__((always_inline))
ulong sf_sub(thread const ulong& a, thread const ulong& b)
{
    if (((a ^ b) & 9223372036854775808ul) == 0ul)
    {
        ulong param = a;
        ulong param_1 = b;
        ulong param_2 = a & 9223372036854775808ul;
        ulong _796 = sf_sub_mags(param, param_1, param_2);
        return _796;
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
ulong det_nan(thread const ulong& x)
{
    ulong param = x;
    ulong param_1 = x;
    ulong param_2 = x;
    ulong param_3 = x;
    ulong param_4 = f64_sub(param, param_1);
    ulong param_5 = f64_sub(param_2, param_3);
    return f64_div(param_4, param_5);
}

static inline __attribute__((always_inline))
ulong f64_from_bits(thread const ulong& b)
{
    return b;
}

static inline __attribute__((always_inline))
ulong f64_bits(thread const ulong& a)
{
    return a;
}

static inline __attribute__((always_inline))
ulong det_split(thread ulong& x, thread int& e)
{
    int bias0 = 0;
    ulong param = x;
    ulong param_1 = 4503599627370496ul;
    if (f64_lt(param, param_1))
    {
        ulong param_2 = x;
        ulong param_3 = 4850376798678024192ul;
        x = f64_mul(param_2, param_3);
        bias0 = 54;
    }
    ulong param_4 = x;
    ulong u = f64_bits(param_4);
    e = (int(uint(u >> ulong(52)) & 2047u) - 1023) - bias0;
    ulong param_5 = (u & 4503599627370495ul) | 4607182418800017408ul;
    return f64_from_bits(param_5);
}

static inline __attribute__((always_inline))
ulong det_log(thread const ulong& x)
{
    ulong param = x;
    ulong param_1 = x;
    bool _1556 = !f64_eq(param, param_1);
    bool _1564;
    if (!_1556)
    {
        ulong param_2 = x;
        ulong param_3 = 0ul;
        _1564 = f64_lt(param_2, param_3);
    }
    else
    {
        _1564 = _1556;
    }
    if (_1564)
    {
        ulong param_4 = x;
        return det_nan(param_4);
    }
    ulong param_5 = x;
    ulong param_6 = 0ul;
    if (f64_eq(param_5, param_6))
    {
        ulong param_7 = 18442240474082181120ul;
        return f64_from_bits(param_7);
    }
    ulong param_8 = x;
    ulong param_9 = 9218868437227405311ul;
    if (f64_gt(param_8, param_9))
    {
        return x;
    }
    ulong param_10 = x;
    int param_11;
    ulong _1595 = det_split(param_10, param_11);
    int e = param_11;
    ulong m = _1595;
    ulong param_12 = m;
    ulong param_13 = 4609047870845172685ul;
    if (f64_gt(param_12, param_13))
    {
        ulong param_14 = m;
        ulong param_15 = 4602678819172646912ul;
        m = f64_mul(param_14, param_15);
        e++;
    }
    ulong param_16 = m;
    ulong param_17 = 4607182418800017408ul;
    ulong param_18 = m;
    ulong param_19 = 4607182418800017408ul;
    ulong param_20 = f64_sub(param_16, param_17);
    ulong param_21 = f64_add(param_18, param_19);
    ulong s = f64_div(param_20, param_21);
    ulong param_22 = s;
    ulong param_23 = s;
    ulong z = f64_mul(param_22, param_23);
    ulong p = 4585925428558828667ul;
    ulong param_24 = p;
    ulong param_25 = z;
    ulong param_26 = f64_mul(param_24, param_25);
    ulong param_27 = 4586426698778222948ul;
    p = f64_add(param_26, param_27);
    ulong param_28 = p;
    ulong param_29 = z;
    ulong param_30 = f64_mul(param_28, param_29);
    ulong param_31 = 4587023449039406616ul;
    p = f64_add(param_30, param_31);
    ulong param_32 = p;
    ulong param_33 = z;
    ulong param_34 = f64_mul(param_32, param_33);
    ulong param_35 = 4587745830934523688ul;
    p = f64_add(param_34, param_35);
    ulong param_36 = p;
    ulong param_37 = z;
    ulong param_38 = f64_mul(param_36, param_37);
    ulong param_39 = 4588638185040256542ul;
    p = f64_add(param_38, param_39);
    ulong param_40 = p;
    ulong param_41 = z;
    ulong param_42 = f64_mul(param_40, param_41);
    ulong param_43 = 4589468260265693457ul;
    p = f64_add(param_42, param_43);
    ulong param_44 = p;
    ulong param_45 = z;
    ulong param_46 = f64_mul(param_44, param_45);
    ulong param_47 = 4590207312512236308ul;
    p = f64_add(param_46, param_47);
    ulong param_48 = p;
    ulong param_49 = z;
    ulong param_50 = f64_mul(param_48, param_49);
    ulong param_51 = 4591215111030249286ul;
    p = f64_add(param_50, param_51);
    ulong param_52 = p;
    ulong param_53 = z;
    ulong param_54 = f64_mul(param_52, param_53);
    ulong param_55 = 4592670820000712476ul;
    p = f64_add(param_54, param_55);
    ulong param_56 = p;
    ulong param_57 = z;
    ulong param_58 = f64_mul(param_56, param_57);
    ulong param_59 = 4594314991293244562ul;
    p = f64_add(param_58, param_59);
    ulong param_60 = p;
    ulong param_61 = z;
    ulong param_62 = f64_mul(param_60, param_61);
    ulong param_63 = 4596373779694328218ul;
    p = f64_add(param_62, param_63);
    ulong param_64 = p;
    ulong param_65 = z;
    ulong param_66 = f64_mul(param_64, param_65);
    ulong param_67 = 4599676419421066581ul;
    p = f64_add(param_66, param_67);
    ulong param_68 = p;
    ulong param_69 = z;
    ulong param_70 = f64_mul(param_68, param_69);
    ulong param_71 = 4607182418800017408ul;
    p = f64_add(param_70, param_71);
    long param_72 = long(abs(e));
    ulong k_abs = f64_from_i64(param_72);
    ulong _1747;
    if (e < 0)
    {
        ulong param_73 = k_abs;
        _1747 = f64_neg(param_73);
    }
    else
    {
        _1747 = k_abs;
    }
    ulong k = _1747;
    ulong param_74 = k;
    ulong param_75 = 4604418534311723008ul;
    ulong param_76 = k;
    ulong param_77 = 4461442080421002358ul;
    ulong param_78 = 4611686018427387904ul;
    ulong param_79 = s;
    ulong param_80 = f64_mul(param_78, param_79);
    ulong param_81 = p;
    ulong param_82 = f64_mul(param_76, param_77);
    ulong param_83 = f64_mul(param_80, param_81);
    ulong param_84 = f64_mul(param_74, param_75);
    ulong param_85 = f64_add(param_82, param_83);
    return f64_add(param_84, param_85);
}

static inline __attribute__((always_inline))
ulong rank_norm(thread const long& lambda_sum, constant Push& pc)
{
    if (pc.normalization == 0)
    {
        return 4607182418800017408ul;
    }
    if (pc.pair_method == 1)
    {
        long param = long(pc.num_pair);
        ulong param_1 = 4607182418800017408ul;
        ulong param_2 = f64_from_i64(param);
        return f64_div(param_1, param_2);
    }
    long param_3 = lambda_sum;
    ulong param_4 = f64_from_i64_signed(param_3);
    ulong param_5 = 4463067230724161536ul;
    ulong param_6 = 13835058055282163712ul;
    ulong param_7 = f64_mul(param_4, param_5);
    ulong sum = f64_mul(param_6, param_7);
    ulong param_8 = sum;
    ulong param_9 = 0ul;
    if (!f64_gt(param_8, param_9))
    {
        return 4607182418800017408ul;
    }
    ulong param_10 = 4607182418800017408ul;
    ulong param_11 = sum;
    ulong param_12 = f64_add(param_10, param_11);
    ulong param_13 = det_log(param_12);
    ulong param_14 = 4604418534313441775ul;
    ulong param_15 = f64_div(param_13, param_14);
    ulong param_16 = sum;
    return f64_div(param_15, param_16);
}

static inline __attribute__((always_inline))
ulong f64_from_words(thread const uint2& w)
{
    return as_type<ulong>(w);
}

static inline __attribute__((always_inline))
uint2 f64_words(thread const ulong& a)
{
    return as_type<uint2>(a);
}

static inline __attribute__((always_inline))
ulong f64_abs(thread const ulong& a)
{
    return a & 9223372036854775807ul;
}

static inline __attribute__((always_inline))
uint4 group_maxima(thread const ulong& max_g, thread const ulong& max_h, thread uint3& gl_LocalInvocationID, threadgroup ulong (&s_g)[WG], threadgroup ulong (&s_h)[WG])
{
    uint lid = gl_LocalInvocationID.x;
    s_g[lid] = max_g;
    s_h[lid] = max_h;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    for (uint half_size = _1993; half_size > 0u; half_size = half_size >> uint(1))
    {
        if (lid < half_size)
        {
            ulong param = s_g[lid + half_size];
            ulong param_1 = s_g[lid];
            if (f64_gt(param, param_1))
            {
                s_g[lid] = s_g[lid + half_size];
            }
            ulong param_2 = s_h[lid + half_size];
            ulong param_3 = s_h[lid];
            if (f64_gt(param_2, param_3))
            {
                s_h[lid] = s_h[lid + half_size];
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    ulong param_4 = s_g[0];
    ulong param_5 = s_h[0];
    return uint4(f64_words(param_4), f64_words(param_5));
}

kernel void rank_finish(constant Push& pc [[buffer(0)]], const device GroupPtr& v_1866 [[buffer(1)]], device Sums& _2091 [[buffer(8)]], device QuerySums& _2124 [[buffer(9)]], const device GroupWeight& _2167 [[buffer(12)]], device GroupMax& _2271 [[buffer(13)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]])
{
    threadgroup ulong s_g[WG];
    threadgroup ulong s_h[WG];
    ulong max_g = 0ul;
    ulong max_h = 0ul;
    uint _2069 = gl_NumWorkGroups.x * WG;
    for (uint stride = _2069, r = gl_GlobalInvocationID.x; r < pc.num_rows; r += stride)
    {
        uint param = r;
        uint q = query_of(param, pc, v_1866);
        long g_sum = long(as_type<ulong>(uint2(_2091.sums[4u * r], _2091.sums[(4u * r) + 1u])));
        long h_sum = long(as_type<ulong>(uint2(_2091.sums[(4u * r) + 2u], _2091.sums[(4u * r) + 3u])));
        long l_sum = long(as_type<ulong>(uint2(_2124.qsums[2u * q], _2124.qsums[(2u * q) + 1u])));
        ulong g = 0ul;
        ulong h = 0ul;
        ulong param_1 = as_type<ulong>(pc.seed);
        int param_2 = pc.sample_round;
        ulong param_3 = ulong(r);
        float param_4 = pc.subsample;
        if (row_sampled(param_1, param_2, param_3, param_4))
        {
            long param_5 = l_sum;
            ulong norm = rank_norm(param_5, pc);
            uint2 param_6 = _2167.group_weight[q];
            ulong w = f64_from_words(param_6);
            long param_7 = g_sum;
            ulong param_8 = f64_from_i64_signed(param_7);
            ulong param_9 = 4463067230724161536ul;
            ulong param_10 = f64_mul(param_8, param_9);
            ulong param_11 = norm;
            ulong param_12 = f64_mul(param_10, param_11);
            ulong param_13 = w;
            g = f64_mul(param_12, param_13);
            long param_14 = h_sum;
            ulong param_15 = f64_from_i64_signed(param_14);
            ulong param_16 = 4463067230724161536ul;
            ulong param_17 = f64_mul(param_15, param_16);
            ulong param_18 = norm;
            ulong param_19 = f64_mul(param_17, param_18);
            ulong param_20 = w;
            h = f64_mul(param_19, param_20);
        }
        ulong param_21 = g;
        uint2 gw = f64_words(param_21);
        ulong param_22 = h;
        uint2 hw = f64_words(param_22);
        _2091.sums[4u * r] = gw.x;
        _2091.sums[(4u * r) + 1u] = gw.y;
        _2091.sums[(4u * r) + 2u] = hw.x;
        _2091.sums[(4u * r) + 3u] = hw.y;
        ulong param_23 = g;
        ulong param_24 = f64_abs(param_23);
        ulong param_25 = max_g;
        if (f64_gt(param_24, param_25))
        {
            ulong param_26 = g;
            max_g = f64_abs(param_26);
        }
        ulong param_27 = h;
        ulong param_28 = max_h;
        if (f64_gt(param_27, param_28))
        {
            max_h = h;
        }
    }
    ulong param_29 = max_g;
    ulong param_30 = max_h;
    uint4 _2262 = group_maxima(param_29, param_30, gl_LocalInvocationID, s_g, s_h);
    uint4 mx = _2262;
    if (gl_LocalInvocationID.x == 0u)
    {
        _2271.group_max[gl_WorkGroupID.x] = mx;
    }
}

