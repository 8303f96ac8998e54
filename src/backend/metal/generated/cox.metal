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

#ifndef SPIRV_CROSS_CONSTANT_ID_0
#define SPIRV_CROSS_CONSTANT_ID_0 256u
#endif
constant uint WG = SPIRV_CROSS_CONSTANT_ID_0;
constant uint _1872 = (WG / 2u);

struct Push
{
    uint2 seed;
    uint num_rows;
    uint num_blocks;
    uint num_outputs;
    uint output_index;
    uint phase;
    uint has_weight;
    int sample_round;
    float subsample;
};

struct Margins
{
    float margins[1];
};

struct Order
{
    uint order[1];
};

struct E
{
    uint2 e[1];
};

struct Blocks
{
    uint2 blocks[1];
};

struct S
{
    uint2 s_sum[1];
};

struct Labels
{
    float label[1];
};

struct TieStart
{
    uint tie_start[1];
};

struct Weights
{
    float weight[1];
};

struct Grad
{
    uint4 grad[1];
};

struct GroupMax
{
    uint4 group_max[1];
};

constant uint _2483_tmp [[function_constant(0)]];
constant uint _2483 = is_function_constant_defined(_2483_tmp) ? _2483_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_2483, 1u, 1u);

constant spvUnsafeArray<ulong, 14> _1773 = spvUnsafeArray<ulong, 14>({ 4460272573143870729ul, 4477122120089393304ul, 4493156764026750180ul, 4508805057796939612ul, 4523617214285662004ul, 4537941361671905306ul, 4551452160554016794ul, 4564047942368979991ul, 4575957461383581969ul, 4586165620538955093ul, 4595172819793696085ul, 4602678819172646912ul, 4607182418800017408ul, 4607182418800017408ul });
constant spvUnsafeArray<ulong, 13> _2500 = spvUnsafeArray<ulong, 13>({ 4585925428558828667ul, 4586426698778222948ul, 4587023449039406616ul, 4587745830934523688ul, 4588638185040256542ul, 4589468260265693457ul, 4590207312512236308ul, 4591215111030249286ul, 4592670820000712476ul, 4594314991293244562ul, 4596373779694328218ul, 4599676419421066581ul, 4607182418800017408ul });

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
ulong sf_from_f32(thread const uint& f)
{
    ulong _sign = ulong(f >> uint(31)) << ulong(63);
    int e = int((f >> uint(23)) & 255u);
    ulong m = ulong(f & 8388607u);
    if (e == 255)
    {
        ulong _1429;
        if (m != 0ul)
        {
            _1429 = ((_sign | 9218868437227405312ul) | 2251799813685248ul) | (m << ulong(29));
        }
        else
        {
            _1429 = _sign | 9218868437227405312ul;
        }
        return _1429;
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
bool sf_is_nan(thread const ulong& a)
{
    return (a & 9223372036854775807ul) > 9218868437227405312ul;
}

static inline __attribute__((always_inline))
bool sf_eq(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    bool _1482 = sf_is_nan(param);
    bool _1489;
    if (!_1482)
    {
        ulong param_1 = b;
        _1489 = sf_is_nan(param_1);
    }
    else
    {
        _1489 = _1482;
    }
    if (_1489)
    {
        return false;
    }
    bool _1496 = a == b;
    bool _1505;
    if (!_1496)
    {
        _1505 = ((a | b) & 9223372036854775807ul) == 0ul;
    }
    else
    {
        _1505 = _1496;
    }
    return _1505;
}

static inline __attribute__((always_inline))
bool f64_eq(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_eq(param, param_1);
}

static inline __attribute__((always_inline))
bool sf_lt(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    bool _1510 = sf_is_nan(param);
    bool _1517;
    if (!_1510)
    {
        ulong param_1 = b;
        _1517 = sf_is_nan(param_1);
    }
    else
    {
        _1517 = _1510;
    }
    if (_1517)
    {
        return false;
    }
    bool na = (a & 9223372036854775808ul) != 0ul;
    bool nb = (b & 9223372036854775808ul) != 0ul;
    if (na != nb)
    {
        bool _1543;
        if (na)
        {
            _1543 = ((a | b) & 9223372036854775807ul) != 0ul;
        }
        else
        {
            _1543 = na;
        }
        return _1543;
    }
    bool _1547 = a != b;
    bool _1555;
    if (_1547)
    {
        _1555 = na != (a < b);
    }
    else
    {
        _1555 = _1547;
    }
    return _1555;
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
bool f64_lt(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_lt(param, param_1);
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
ulong sf_shift_right_jam(thread const ulong& a, thread const int& dist)
{
    if (dist < 63)
    {
        return (a >> ulong(dist)) | ulong((a << ulong(64 - dist)) != 0ul);
    }
    return ulong(a != 0ul);
}

static inline __attribute__((always_inline))
ulong sf_pack(thread const ulong& _sign, thread const int& e, thread const ulong& sig)
{
    return (_sign + (ulong(long(e)) << ulong(52))) + sig;
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
            bool _320 = e > 2045;
            bool _329;
            if (!_320)
            {
                _329 = (sig + 512ul) >= 9223372036854775808ul;
            }
            else
            {
                _329 = _320;
            }
            if (_329)
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
        bool _901 = sa != 0ul;
        bool _910;
        if (!_901)
        {
            _910 = (eb == 2047) && (sb != 0ul);
        }
        else
        {
            _910 = _901;
        }
        if (_910)
        {
            ulong param_2 = a;
            ulong param_3 = b;
            return sf_propagate_nan(param_2, param_3);
        }
        ulong _925;
        if ((ulong(long(eb)) | sb) == 0ul)
        {
            _925 = 18444492273895866368ul;
        }
        else
        {
            _925 = _sign | 9218868437227405312ul;
        }
        return _925;
    }
    if (eb == 2047)
    {
        if (sb != 0ul)
        {
            ulong param_4 = a;
            ulong param_5 = b;
            return sf_propagate_nan(param_4, param_5);
        }
        ulong _953;
        if ((ulong(long(ea)) | sa) == 0ul)
        {
            _953 = 18444492273895866368ul;
        }
        else
        {
            _953 = _sign | 9218868437227405312ul;
        }
        return _953;
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
    ulong _1032 = sf_round_pack(param_10, param_11, param_12);
    return _1032;
}

static inline __attribute__((always_inline))
ulong f64_mul(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_mul(param, param_1);
}

static inline __attribute__((always_inline))
ulong sf_round_even(thread const ulong& a)
{
    ulong param = a;
    int e = sf_exp(param);
    if (e <= 1022)
    {
        if ((a & 9223372036854775807ul) == 0ul)
        {
            return a;
        }
        ulong z = a & 9223372036854775808ul;
        bool _1254 = e == 1022;
        bool _1260;
        if (_1254)
        {
            _1260 = (a & 4503599627370495ul) != 0ul;
        }
        else
        {
            _1260 = _1254;
        }
        if (_1260)
        {
            z |= 4607182418800017408ul;
        }
        return z;
    }
    if (e >= 1075)
    {
        ulong param_1 = a;
        ulong _1276;
        if (sf_is_nan(param_1))
        {
            _1276 = a | 2251799813685248ul;
        }
        else
        {
            _1276 = a;
        }
        return _1276;
    }
    ulong last = 1ul << ulong(1075 - e);
    ulong mask = last - 1ul;
    ulong z_1 = a + (last >> ulong(1));
    if ((z_1 & mask) == 0ul)
    {
        z_1 &= (~last);
    }
    return z_1 & (~mask);
}

static inline __attribute__((always_inline))
ulong f64_round_even(thread const ulong& a)
{
    ulong param = a;
    return sf_round_even(param);
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
    ulong _401 = sf_round_pack(param_4, param_5, param_6);
    return _401;
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
            ulong _601;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _601 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _601 = 18444492273895866368ul;
            }
            return _601;
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
            ulong _682;
            if (sb != 0ul)
            {
                ulong param_8 = a;
                ulong param_9 = b;
                _682 = sf_propagate_nan(param_8, param_9);
            }
            else
            {
                _682 = _sign | 9218868437227405312ul;
            }
            return _682;
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
            ulong _722;
            if (sa != 0ul)
            {
                ulong param_12 = a;
                ulong param_13 = b;
                _722 = sf_propagate_nan(param_12, param_13);
            }
            else
            {
                _722 = a;
            }
            return _722;
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
    ulong _758 = sf_norm_round_pack(param_16, param_17, param_18);
    return _758;
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
            ulong _444;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _444 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _444 = a;
            }
            return _444;
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
                ulong _481;
                if (sb != 0ul)
                {
                    ulong param_4 = a;
                    ulong param_5 = b;
                    _481 = sf_propagate_nan(param_4, param_5);
                }
                else
                {
                    _481 = _sign | 9218868437227405312ul;
                }
                return _481;
            }
            ez = eb;
            ulong _497;
            if (ea != 0)
            {
                _497 = sa + 2305843009213693952ul;
            }
            else
            {
                _497 = sa << ulong(1);
            }
            sa = _497;
            ulong param_6 = sa;
            int param_7 = -d;
            sa = sf_shift_right_jam(param_6, param_7);
        }
        else
        {
            if (ea == 2047)
            {
                ulong _520;
                if (sa != 0ul)
                {
                    ulong param_8 = a;
                    ulong param_9 = b;
                    _520 = sf_propagate_nan(param_8, param_9);
                }
                else
                {
                    _520 = a;
                }
                return _520;
            }
            ez = ea;
            ulong _535;
            if (eb != 0)
            {
                _535 = sb + 2305843009213693952ul;
            }
            else
            {
                _535 = sb << ulong(1);
            }
            sb = _535;
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
    ulong _568 = sf_round_pack(param_12, param_13, param_14);
    return _568;
}

static inline __attribute__((always_inline))
ulong sf_sub(thread const ulong& a, thread const ulong& b)
{
    if (((a ^ b) & 9223372036854775808ul) == 0ul)
    {
        ulong param = a;
        ulong param_1 = b;
        ulong param_2 = a & 9223372036854775808ul;
        ulong _801 = sf_sub_mags(param, param_1, param_2);
        return _801;
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
    ulong _784 = sf_sub_mags(param_3, param_4, param_5);
    return _784;
}

static inline __attribute__((always_inline))
ulong f64_add(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_add(param, param_1);
}

static inline __attribute__((always_inline))
long sf_to_i64(thread const ulong& a)
{
    ulong param = a;
    ulong r = sf_round_even(param);
    ulong param_1 = r;
    int e = sf_exp(param_1);
    if (e >= 1086)
    {
        return long(0x8000000000000000ul);
    }
    if (e < 1023)
    {
        return 0l;
    }
    ulong sig = (r & 4503599627370495ul) | 4503599627370496ul;
    ulong _1340;
    if (e >= 1075)
    {
        _1340 = sig << ulong(e - 1075);
    }
    else
    {
        _1340 = sig >> ulong(1075 - e);
    }
    ulong mag = _1340;
    long _1356;
    if ((r & 9223372036854775808ul) != 0ul)
    {
        _1356 = -long(mag);
    }
    else
    {
        _1356 = long(mag);
    }
    return _1356;
}

static inline __attribute__((always_inline))
long f64_llrint(thread const ulong& a)
{
    ulong param = a;
    return sf_to_i64(param);
}

static inline __attribute__((always_inline))
ulong pow2(thread const int& e)
{
    ulong param = ulong(uint(e + 1023)) << ulong(52);
    return f64_from_bits(param);
}

static inline __attribute__((always_inline))
ulong det_scale2(thread const ulong& p, thread const int& k)
{
    if ((k > (-1022)) && (k < 1024))
    {
        int param = k;
        ulong param_1 = p;
        ulong param_2 = pow2(param);
        return f64_mul(param_1, param_2);
    }
    int half_k = k / 2;
    int param_3 = half_k;
    ulong param_4 = p;
    ulong param_5 = pow2(param_3);
    int param_6 = k - half_k;
    ulong param_7 = f64_mul(param_4, param_5);
    ulong param_8 = pow2(param_6);
    return f64_mul(param_7, param_8);
}

static inline __attribute__((always_inline))
ulong det_exp(thread const ulong& x)
{
    ulong param = x;
    ulong param_1 = x;
    if (!f64_eq(param, param_1))
    {
        return x;
    }
    ulong param_2 = x;
    ulong param_3 = 4649447645771726848ul;
    if (f64_gt(param_2, param_3))
    {
        ulong param_4 = 9218868437227405312ul;
        return f64_from_bits(param_4);
    }
    ulong param_5 = x;
    ulong param_6 = 13873136341975302144ul;
    if (f64_lt(param_5, param_6))
    {
        return 0ul;
    }
    ulong param_7 = x;
    ulong param_8 = 4609176140021203710ul;
    ulong param_9 = f64_mul(param_7, param_8);
    ulong k = f64_round_even(param_9);
    ulong param_10 = k;
    ulong param_11 = 4604418534311723008ul;
    ulong param_12 = x;
    ulong param_13 = f64_mul(param_10, param_11);
    ulong param_14 = k;
    ulong param_15 = 4461442080421002358ul;
    ulong param_16 = f64_sub(param_12, param_13);
    ulong param_17 = f64_mul(param_14, param_15);
    ulong r = f64_sub(param_16, param_17);
    ulong p = 4460272573143870729ul;
    for (int i = 1; i < 14; i++)
    {
        ulong param_18 = p;
        ulong param_19 = r;
        ulong param_20 = f64_mul(param_18, param_19);
        ulong param_21 = _1773[i];
        p = f64_add(param_20, param_21);
    }
    ulong param_22 = k;
    ulong param_23 = p;
    int param_24 = int(f64_llrint(param_22));
    return det_scale2(param_23, param_24);
}

static inline __attribute__((always_inline))
uint2 f64_words(thread const ulong& a)
{
    return as_type<uint2>(a);
}

static inline __attribute__((always_inline))
ulong f64_from_words(thread const uint2& w)
{
    return as_type<ulong>(w);
}

static inline __attribute__((always_inline))
ulong word(thread const uint2& w)
{
    uint2 param = w;
    return f64_from_words(param);
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
            ulong _1074;
            if (sb != 0ul)
            {
                ulong param_4 = a;
                ulong param_5 = b;
                _1074 = sf_propagate_nan(param_4, param_5);
            }
            else
            {
                _1074 = 18444492273895866368ul;
            }
            return _1074;
        }
        return _sign | 9218868437227405312ul;
    }
    if (eb == 2047)
    {
        ulong _1094;
        if (sb != 0ul)
        {
            ulong param_6 = a;
            ulong param_7 = b;
            _1094 = sf_propagate_nan(param_6, param_7);
        }
        else
        {
            _1094 = _sign;
        }
        return _1094;
    }
    if (eb == 0)
    {
        if (sb == 0ul)
        {
            ulong _1120;
            if ((ulong(long(ea)) | sa) == 0ul)
            {
                _1120 = 18444492273895866368ul;
            }
            else
            {
                _1120 = _sign | 9218868437227405312ul;
            }
            return _1120;
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
    ulong _1232 = sf_round_pack(param_10, param_11, param_12);
    return _1232;
}

static inline __attribute__((always_inline))
ulong f64_div(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_div(param, param_1);
}

static inline __attribute__((always_inline))
void block_step(thread const uint& b, constant Push& pc, const device Margins& v_1981, const device Order& v_1985, device E& v_2010, device Blocks& v_2028, device S& v_2088, const device Labels& v_2122, const device TieStart& v_2138, const device Weights& v_2285, device Grad& v_2337)
{
    uint first = b * 256u;
    uint last = min((first + 256u), pc.num_rows);
    if (pc.phase == 0u)
    {
        ulong t = 0ul;
        for (uint p = last; p > first; p--)
        {
            float param = v_1981.margins[(v_1985.order[p - 1u] * pc.num_outputs) + pc.output_index];
            ulong param_1 = f64_from_float(param);
            ulong x = det_exp(param_1);
            ulong param_2 = x;
            v_2010.e[p - 1u] = f64_words(param_2);
            ulong param_3 = t;
            ulong param_4 = x;
            t = f64_add(param_3, param_4);
        }
        ulong param_5 = t;
        v_2028.blocks[b] = f64_words(param_5);
    }
    else
    {
        if (pc.phase == 1u)
        {
            ulong after = 0ul;
            uint _2044 = pc.num_blocks - 1u;
            for (uint c = _2044; c > b; c--)
            {
                uint2 param_6 = v_2028.blocks[c];
                ulong param_7 = after;
                ulong param_8 = word(param_6);
                after = f64_add(param_7, param_8);
            }
            ulong w = 0ul;
            for (uint p_1 = last; p_1 > first; p_1--)
            {
                uint2 param_9 = v_2010.e[p_1 - 1u];
                ulong param_10 = w;
                ulong param_11 = word(param_9);
                w = f64_add(param_10, param_11);
                ulong param_12 = after;
                ulong param_13 = w;
                ulong param_14 = f64_add(param_12, param_13);
                v_2088.s_sum[p_1 - 1u] = f64_words(param_14);
            }
        }
        else
        {
            if (pc.phase == 2u)
            {
                ulong u = 0ul;
                ulong v = 0ul;
                for (uint p_2 = first; p_2 < last; p_2++)
                {
                    if (!(v_2122.label[v_1985.order[p_2]] > 0.0))
                    {
                        continue;
                    }
                    uint2 param_15 = v_2088.s_sum[v_2138.tie_start[p_2]];
                    ulong R = word(param_15);
                    ulong param_16 = 4607182418800017408ul;
                    ulong param_17 = R;
                    ulong param_18 = u;
                    ulong param_19 = f64_div(param_16, param_17);
                    u = f64_add(param_18, param_19);
                    ulong param_20 = R;
                    ulong param_21 = R;
                    ulong param_22 = 4607182418800017408ul;
                    ulong param_23 = f64_mul(param_20, param_21);
                    ulong param_24 = v;
                    ulong param_25 = f64_div(param_22, param_23);
                    v = f64_add(param_24, param_25);
                }
                ulong param_26 = u;
                v_2028.blocks[pc.num_blocks + b] = f64_words(param_26);
                ulong param_27 = v;
                v_2028.blocks[(2u * pc.num_blocks) + b] = f64_words(param_27);
            }
            else
            {
                ulong r = 0ul;
                ulong s = 0ul;
                for (uint c_1 = 0u; c_1 < b; c_1++)
                {
                    uint2 param_28 = v_2028.blocks[pc.num_blocks + c_1];
                    ulong param_29 = r;
                    ulong param_30 = word(param_28);
                    r = f64_add(param_29, param_30);
                    uint2 param_31 = v_2028.blocks[(2u * pc.num_blocks) + c_1];
                    ulong param_32 = s;
                    ulong param_33 = word(param_31);
                    s = f64_add(param_32, param_33);
                }
                ulong _2279;
                for (uint p_3 = first; p_3 < last; p_3++)
                {
                    uint row = v_1985.order[p_3];
                    bool event = v_2122.label[row] > 0.0;
                    if (event)
                    {
                        uint2 param_34 = v_2088.s_sum[v_2138.tie_start[p_3]];
                        ulong R_1 = word(param_34);
                        ulong param_35 = 4607182418800017408ul;
                        ulong param_36 = R_1;
                        ulong param_37 = r;
                        ulong param_38 = f64_div(param_35, param_36);
                        r = f64_add(param_37, param_38);
                        ulong param_39 = R_1;
                        ulong param_40 = R_1;
                        ulong param_41 = 4607182418800017408ul;
                        ulong param_42 = f64_mul(param_39, param_40);
                        ulong param_43 = s;
                        ulong param_44 = f64_div(param_41, param_42);
                        s = f64_add(param_43, param_44);
                    }
                    if (pc.has_weight != 0u)
                    {
                        float param_45 = v_2285.weight[row];
                        _2279 = f64_from_float(param_45);
                    }
                    else
                    {
                        _2279 = 4607182418800017408ul;
                    }
                    ulong w_1 = _2279;
                    uint2 param_46 = v_2010.e[p_3];
                    ulong ep = word(param_46);
                    ulong param_47 = ep;
                    ulong param_48 = r;
                    ulong er = f64_mul(param_47, param_48);
                    ulong param_49 = er;
                    ulong param_50 = event ? 4607182418800017408ul : 0ul;
                    ulong param_51 = f64_sub(param_49, param_50);
                    ulong param_52 = w_1;
                    ulong g = f64_mul(param_51, param_52);
                    ulong param_53 = ep;
                    ulong param_54 = ep;
                    ulong param_55 = f64_mul(param_53, param_54);
                    ulong param_56 = s;
                    ulong param_57 = er;
                    ulong param_58 = f64_mul(param_55, param_56);
                    ulong param_59 = f64_sub(param_57, param_58);
                    ulong param_60 = w_1;
                    ulong h = f64_mul(param_59, param_60);
                    ulong param_61 = g;
                    ulong param_62 = h;
                    v_2337.grad[row] = uint4(f64_words(param_61), f64_words(param_62));
                }
            }
        }
    }
}

static inline __attribute__((always_inline))
ulong sf_from_i64(thread const long& a)
{
    if ((ulong(a) & 9223372036854775807ul) == 0ul)
    {
        return (a != 0l) ? 14114281232179134464ul : 0ul;
    }
    ulong _sign = (a < 0l) ? 9223372036854775808ul : 0ul;
    ulong _1386;
    if (a < 0l)
    {
        _1386 = 0ul - ulong(a);
    }
    else
    {
        _1386 = ulong(a);
    }
    ulong m = _1386;
    ulong param = _sign;
    int param_1 = 1084;
    ulong param_2 = m;
    ulong _1402 = sf_norm_round_pack(param, param_1, param_2);
    return _1402;
}

static inline __attribute__((always_inline))
ulong f64_from_i64(thread const long& x)
{
    long param = x;
    return sf_from_i64(param);
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
    for (uint half_size = _1872; half_size > 0u; half_size = half_size >> uint(1))
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

kernel void cox(constant Push& pc [[buffer(0)]], const device Margins& v_1981 [[buffer(1)]], const device Labels& v_2122 [[buffer(2)]], const device Weights& v_2285 [[buffer(3)]], const device Order& v_1985 [[buffer(4)]], const device TieStart& v_2138 [[buffer(5)]], device E& v_2010 [[buffer(6)]], device S& v_2088 [[buffer(7)]], device Blocks& v_2028 [[buffer(8)]], device Grad& v_2337 [[buffer(9)]], device GroupMax& _2477 [[buffer(10)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]])
{
    threadgroup ulong s_g[WG];
    threadgroup ulong s_h[WG];
    if (pc.phase < 4u)
    {
        if (gl_GlobalInvocationID.x < pc.num_blocks)
        {
            uint param = gl_GlobalInvocationID.x;
            block_step(param, pc, v_1981, v_1985, v_2010, v_2028, v_2088, v_2122, v_2138, v_2285, v_2337);
        }
        return;
    }
    ulong max_g = 0ul;
    ulong max_h = 0ul;
    uint _2379 = gl_NumWorkGroups.x * WG;
    for (uint stride = _2379, r = gl_GlobalInvocationID.x; r < pc.num_rows; r += stride)
    {
        uint4 pair = v_2337.grad[r];
        ulong param_1 = as_type<ulong>(pc.seed);
        int param_2 = pc.sample_round;
        ulong param_3 = ulong(r);
        float param_4 = pc.subsample;
        if (!row_sampled(param_1, param_2, param_3, param_4))
        {
            ulong param_5 = 0ul;
            ulong param_6 = 0ul;
            pair = uint4(f64_words(param_5), f64_words(param_6));
            v_2337.grad[r] = pair;
        }
        uint2 param_7 = pair.xy;
        ulong g = f64_from_words(param_7);
        uint2 param_8 = pair.zw;
        ulong h = f64_from_words(param_8);
        ulong param_9 = g;
        ulong param_10 = f64_abs(param_9);
        ulong param_11 = max_g;
        if (f64_gt(param_10, param_11))
        {
            ulong param_12 = g;
            max_g = f64_abs(param_12);
        }
        ulong param_13 = h;
        ulong param_14 = max_h;
        if (f64_gt(param_13, param_14))
        {
            max_h = h;
        }
    }
    ulong param_15 = max_g;
    ulong param_16 = max_h;
    uint4 _2468 = group_maxima(param_15, param_16, gl_LocalInvocationID, s_g, s_h);
    uint4 mx = _2468;
    if (gl_LocalInvocationID.x == 0u)
    {
        _2477.group_max[gl_WorkGroupID.x] = mx;
    }
}

