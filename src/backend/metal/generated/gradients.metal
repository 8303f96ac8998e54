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
constant uint _2773 = (WG / 2u);

struct Push
{
    uint2 seed;
    uint2 param;
    uint num_rows;
    uint num_outputs;
    uint output_index;
    int objective;
    int round_index;
    uint has_weight;
    float subsample;
    uint row_first;
    uint norm_write;
    float alphas[16];
};

struct Margins
{
    float margins[1];
};

struct SoftmaxNorm
{
    uint4 softmax_norm[1];
};

struct Weights
{
    float weight[1];
};

struct Labels
{
    float label[1];
};

struct Grad
{
    uint4 grad[1];
};

struct GroupMax
{
    uint4 group_max[1];
};

constant uint _3407_tmp [[function_constant(0)]];
constant uint _3407 = is_function_constant_defined(_3407_tmp) ? _3407_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_3407, 1u, 1u);

constant spvUnsafeArray<ulong, 14> _1815 = spvUnsafeArray<ulong, 14>({ 4460272573143870729ul, 4477122120089393304ul, 4493156764026750180ul, 4508805057796939612ul, 4523617214285662004ul, 4537941361671905306ul, 4551452160554016794ul, 4564047942368979991ul, 4575957461383581969ul, 4586165620538955093ul, 4595172819793696085ul, 4602678819172646912ul, 4607182418800017408ul, 4607182418800017408ul });
constant spvUnsafeArray<ulong, 13> _3411 = spvUnsafeArray<ulong, 13>({ 4585925428558828667ul, 4586426698778222948ul, 4587023449039406616ul, 4587745830934523688ul, 4588638185040256542ul, 4589468260265693457ul, 4590207312512236308ul, 4591215111030249286ul, 4592670820000712476ul, 4594314991293244562ul, 4596373779694328218ul, 4599676419421066581ul, 4607182418800017408ul });

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
        ulong _1464;
        if (m != 0ul)
        {
            _1464 = ((_sign | 9218868437227405312ul) | 2251799813685248ul) | (m << ulong(29));
        }
        else
        {
            _1464 = _sign | 9218868437227405312ul;
        }
        return _1464;
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
bool sf_lt(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    bool _1545 = sf_is_nan(param);
    bool _1552;
    if (!_1545)
    {
        ulong param_1 = b;
        _1552 = sf_is_nan(param_1);
    }
    else
    {
        _1552 = _1545;
    }
    if (_1552)
    {
        return false;
    }
    bool na = (a & 9223372036854775808ul) != 0ul;
    bool nb = (b & 9223372036854775808ul) != 0ul;
    if (na != nb)
    {
        bool _1578;
        if (na)
        {
            _1578 = ((a | b) & 9223372036854775807ul) != 0ul;
        }
        else
        {
            _1578 = na;
        }
        return _1578;
    }
    bool _1582 = a != b;
    bool _1590;
    if (_1582)
    {
        _1590 = na != (a < b);
    }
    else
    {
        _1590 = _1582;
    }
    return _1590;
}

static inline __attribute__((always_inline))
bool f64_gt(thread const ulong& a, thread const ulong& b)
{
    ulong param = b;
    ulong param_1 = a;
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
            bool _355 = e > 2045;
            bool _364;
            if (!_355)
            {
                _364 = (sig + 512ul) >= 9223372036854775808ul;
            }
            else
            {
                _364 = _355;
            }
            if (_364)
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
    ulong _436 = sf_round_pack(param_4, param_5, param_6);
    return _436;
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
            ulong _636;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _636 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _636 = 18444492273895866368ul;
            }
            return _636;
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
            ulong _717;
            if (sb != 0ul)
            {
                ulong param_8 = a;
                ulong param_9 = b;
                _717 = sf_propagate_nan(param_8, param_9);
            }
            else
            {
                _717 = _sign | 9218868437227405312ul;
            }
            return _717;
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
            ulong _757;
            if (sa != 0ul)
            {
                ulong param_12 = a;
                ulong param_13 = b;
                _757 = sf_propagate_nan(param_12, param_13);
            }
            else
            {
                _757 = a;
            }
            return _757;
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
    ulong _793 = sf_norm_round_pack(param_16, param_17, param_18);
    return _793;
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
            ulong _479;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _479 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _479 = a;
            }
            return _479;
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
                ulong _516;
                if (sb != 0ul)
                {
                    ulong param_4 = a;
                    ulong param_5 = b;
                    _516 = sf_propagate_nan(param_4, param_5);
                }
                else
                {
                    _516 = _sign | 9218868437227405312ul;
                }
                return _516;
            }
            ez = eb;
            ulong _532;
            if (ea != 0)
            {
                _532 = sa + 2305843009213693952ul;
            }
            else
            {
                _532 = sa << ulong(1);
            }
            sa = _532;
            ulong param_6 = sa;
            int param_7 = -d;
            sa = sf_shift_right_jam(param_6, param_7);
        }
        else
        {
            if (ea == 2047)
            {
                ulong _555;
                if (sa != 0ul)
                {
                    ulong param_8 = a;
                    ulong param_9 = b;
                    _555 = sf_propagate_nan(param_8, param_9);
                }
                else
                {
                    _555 = a;
                }
                return _555;
            }
            ez = ea;
            ulong _570;
            if (eb != 0)
            {
                _570 = sb + 2305843009213693952ul;
            }
            else
            {
                _570 = sb << ulong(1);
            }
            sb = _570;
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
    ulong _603 = sf_round_pack(param_12, param_13, param_14);
    return _603;
}

static inline __attribute__((always_inline))
ulong sf_sub(thread const ulong& a, thread const ulong& b)
{
    if (((a ^ b) & 9223372036854775808ul) == 0ul)
    {
        ulong param = a;
        ulong param_1 = b;
        ulong param_2 = a & 9223372036854775808ul;
        ulong _836 = sf_sub_mags(param, param_1, param_2);
        return _836;
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
bool sf_eq(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    bool _1517 = sf_is_nan(param);
    bool _1524;
    if (!_1517)
    {
        ulong param_1 = b;
        _1524 = sf_is_nan(param_1);
    }
    else
    {
        _1524 = _1517;
    }
    if (_1524)
    {
        return false;
    }
    bool _1531 = a == b;
    bool _1540;
    if (!_1531)
    {
        _1540 = ((a | b) & 9223372036854775807ul) == 0ul;
    }
    else
    {
        _1540 = _1531;
    }
    return _1540;
}

static inline __attribute__((always_inline))
bool f64_eq(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_eq(param, param_1);
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
        bool _936 = sa != 0ul;
        bool _945;
        if (!_936)
        {
            _945 = (eb == 2047) && (sb != 0ul);
        }
        else
        {
            _945 = _936;
        }
        if (_945)
        {
            ulong param_2 = a;
            ulong param_3 = b;
            return sf_propagate_nan(param_2, param_3);
        }
        ulong _960;
        if ((ulong(long(eb)) | sb) == 0ul)
        {
            _960 = 18444492273895866368ul;
        }
        else
        {
            _960 = _sign | 9218868437227405312ul;
        }
        return _960;
    }
    if (eb == 2047)
    {
        if (sb != 0ul)
        {
            ulong param_4 = a;
            ulong param_5 = b;
            return sf_propagate_nan(param_4, param_5);
        }
        ulong _988;
        if ((ulong(long(ea)) | sa) == 0ul)
        {
            _988 = 18444492273895866368ul;
        }
        else
        {
            _988 = _sign | 9218868437227405312ul;
        }
        return _988;
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
    ulong _1067 = sf_round_pack(param_10, param_11, param_12);
    return _1067;
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
        bool _1289 = e == 1022;
        bool _1295;
        if (_1289)
        {
            _1295 = (a & 4503599627370495ul) != 0ul;
        }
        else
        {
            _1295 = _1289;
        }
        if (_1295)
        {
            z |= 4607182418800017408ul;
        }
        return z;
    }
    if (e >= 1075)
    {
        ulong param_1 = a;
        ulong _1311;
        if (sf_is_nan(param_1))
        {
            _1311 = a | 2251799813685248ul;
        }
        else
        {
            _1311 = a;
        }
        return _1311;
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
    ulong _819 = sf_sub_mags(param_3, param_4, param_5);
    return _819;
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
    ulong _1375;
    if (e >= 1075)
    {
        _1375 = sig << ulong(e - 1075);
    }
    else
    {
        _1375 = sig >> ulong(1075 - e);
    }
    ulong mag = _1375;
    long _1391;
    if ((r & 9223372036854775808ul) != 0ul)
    {
        _1391 = -long(mag);
    }
    else
    {
        _1391 = long(mag);
    }
    return _1391;
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
        ulong param_21 = _1815[i];
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
ulong f64_neg(thread const ulong& a)
{
    return a ^ 9223372036854775808ul;
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
            ulong _1109;
            if (sb != 0ul)
            {
                ulong param_4 = a;
                ulong param_5 = b;
                _1109 = sf_propagate_nan(param_4, param_5);
            }
            else
            {
                _1109 = 18444492273895866368ul;
            }
            return _1109;
        }
        return _sign | 9218868437227405312ul;
    }
    if (eb == 2047)
    {
        ulong _1129;
        if (sb != 0ul)
        {
            ulong param_6 = a;
            ulong param_7 = b;
            _1129 = sf_propagate_nan(param_6, param_7);
        }
        else
        {
            _1129 = _sign;
        }
        return _1129;
    }
    if (eb == 0)
    {
        if (sb == 0ul)
        {
            ulong _1155;
            if ((ulong(long(ea)) | sa) == 0ul)
            {
                _1155 = 18444492273895866368ul;
            }
            else
            {
                _1155 = _sign | 9218868437227405312ul;
            }
            return _1155;
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
    ulong _1267 = sf_round_pack(param_10, param_11, param_12);
    return _1267;
}

static inline __attribute__((always_inline))
ulong f64_div(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_div(param, param_1);
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
ulong sf_from_i64(thread const long& a)
{
    if ((ulong(a) & 9223372036854775807ul) == 0ul)
    {
        return (a != 0l) ? 14114281232179134464ul : 0ul;
    }
    ulong _sign = (a < 0l) ? 9223372036854775808ul : 0ul;
    ulong _1421;
    if (a < 0l)
    {
        _1421 = 0ul - ulong(a);
    }
    else
    {
        _1421 = ulong(a);
    }
    ulong m = _1421;
    ulong param = _sign;
    int param_1 = 1084;
    ulong param_2 = m;
    ulong _1437 = sf_norm_round_pack(param, param_1, param_2);
    return _1437;
}

static inline __attribute__((always_inline))
ulong f64_from_i64(thread const long& x)
{
    long param = x;
    return sf_from_i64(param);
}

static inline __attribute__((always_inline))
ulong det_log(thread const ulong& x)
{
    ulong param = x;
    ulong param_1 = x;
    bool _1902 = !f64_eq(param, param_1);
    bool _1910;
    if (!_1902)
    {
        ulong param_2 = x;
        ulong param_3 = 0ul;
        _1910 = f64_lt(param_2, param_3);
    }
    else
    {
        _1910 = _1902;
    }
    if (_1910)
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
    ulong _1941 = det_split(param_10, param_11);
    int e = param_11;
    ulong m = _1941;
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
    ulong _2092;
    if (e < 0)
    {
        ulong param_73 = k_abs;
        _2092 = f64_neg(param_73);
    }
    else
    {
        _2092 = k_abs;
    }
    ulong k = _2092;
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
ulong det_log1p(thread const ulong& x)
{
    ulong param = 4607182418800017408ul;
    ulong param_1 = x;
    ulong u = f64_add(param, param_1);
    ulong param_2 = u;
    ulong param_3 = 4607182418800017408ul;
    if (f64_eq(param_2, param_3))
    {
        return x;
    }
    ulong param_4 = u;
    ulong param_5 = 9218868437227405311ul;
    if (f64_gt(param_4, param_5))
    {
        return u;
    }
    ulong param_6 = u;
    ulong param_7 = u;
    ulong param_8 = 4607182418800017408ul;
    ulong param_9 = x;
    ulong param_10 = f64_sub(param_7, param_8);
    ulong param_11 = det_log(param_6);
    ulong param_12 = f64_div(param_9, param_10);
    return f64_mul(param_11, param_12);
}

static inline __attribute__((always_inline))
ulong det_softplus(thread const ulong& x)
{
    ulong param = x;
    ulong param_1 = 0ul;
    if (f64_gt(param, param_1))
    {
        ulong param_2 = x;
        ulong param_3 = f64_neg(param_2);
        ulong param_4 = det_exp(param_3);
        ulong param_5 = x;
        ulong param_6 = det_log1p(param_4);
        return f64_add(param_5, param_6);
    }
    ulong param_7 = x;
    ulong param_8 = det_exp(param_7);
    return det_log1p(param_8);
}

static inline __attribute__((always_inline))
ulong expectile_next(thread const ulong& before, thread const float& margin)
{
    ulong param = before;
    ulong param_1 = 4517329193096183808ul;
    float param_2 = margin;
    ulong param_3 = f64_from_float(param_2);
    ulong param_4 = f64_add(param, param_1);
    ulong param_5 = det_softplus(param_3);
    return f64_add(param_4, param_5);
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
ulong det_sigmoid(thread const ulong& x)
{
    ulong param = x;
    ulong param_1 = f64_neg(param);
    ulong param_2 = 4607182418800017408ul;
    ulong param_3 = det_exp(param_1);
    ulong param_4 = 4607182418800017408ul;
    ulong param_5 = f64_add(param_2, param_3);
    return f64_div(param_4, param_5);
}

static inline __attribute__((always_inline))
ulong det_sqrt(thread const ulong& x)
{
    ulong param = x;
    ulong param_1 = x;
    bool _2167 = !f64_eq(param, param_1);
    bool _2175;
    if (!_2167)
    {
        ulong param_2 = x;
        ulong param_3 = 0ul;
        _2175 = f64_lt(param_2, param_3);
    }
    else
    {
        _2175 = _2167;
    }
    if (_2175)
    {
        ulong param_4 = x;
        return det_nan(param_4);
    }
    ulong param_5 = x;
    ulong param_6 = 0ul;
    bool _2185 = f64_eq(param_5, param_6);
    bool _2193;
    if (!_2185)
    {
        ulong param_7 = x;
        ulong param_8 = 9218868437227405311ul;
        _2193 = f64_gt(param_7, param_8);
    }
    else
    {
        _2193 = _2185;
    }
    if (_2193)
    {
        return x;
    }
    ulong param_9 = x;
    int param_10;
    ulong _2203 = det_split(param_9, param_10);
    int e = param_10;
    ulong m = _2203;
    if ((e & 1) != 0)
    {
        ulong param_11 = m;
        ulong param_12 = 4611686018427387904ul;
        m = f64_mul(param_11, param_12);
        e--;
    }
    ulong param_13 = 4607182418800017408ul;
    ulong param_14 = m;
    ulong param_15 = 4602678819172646912ul;
    ulong param_16 = f64_add(param_13, param_14);
    ulong param_17 = f64_mul(param_15, param_16);
    int param_18 = e >> 1;
    ulong y = det_scale2(param_17, param_18);
    for (int i = 0; i < 6; i++)
    {
        ulong param_19 = x;
        ulong param_20 = y;
        ulong param_21 = y;
        ulong param_22 = f64_div(param_19, param_20);
        ulong param_23 = 4602678819172646912ul;
        ulong param_24 = f64_add(param_21, param_22);
        y = f64_mul(param_23, param_24);
    }
    return y;
}

static inline __attribute__((always_inline))
ulong2 objective_single(thread const int& objective, thread const float& margin, thread const float& label, thread const float& weight, thread const ulong& param)
{
    float param_1 = margin;
    ulong m = f64_from_float(param_1);
    float param_2 = label;
    ulong y = f64_from_float(param_2);
    int exps = 0;
    ulong x0 = m;
    ulong x1 = m;
    if ((objective == 1) || (objective == 5))
    {
        exps = 1;
        ulong param_3 = m;
        x0 = f64_neg(param_3);
    }
    else
    {
        if (objective == 4)
        {
            exps = 2;
            ulong param_4 = m;
            ulong param_5 = param;
            x1 = f64_add(param_4, param_5);
        }
        else
        {
            if (objective == 6)
            {
                exps = 2;
                ulong param_6 = 4607182418800017408ul;
                ulong param_7 = param;
                ulong param_8 = f64_sub(param_6, param_7);
                ulong param_9 = m;
                x0 = f64_mul(param_8, param_9);
                ulong param_10 = 4611686018427387904ul;
                ulong param_11 = param;
                ulong param_12 = f64_sub(param_10, param_11);
                ulong param_13 = m;
                x1 = f64_mul(param_12, param_13);
            }
        }
    }
    ulong e0 = 0ul;
    ulong e1 = 0ul;
    for (int i = 0; i < exps; i++)
    {
        ulong param_14 = (i == 0) ? x0 : x1;
        ulong e = det_exp(param_14);
        if (i == 0)
        {
            e0 = e;
        }
        else
        {
            e1 = e;
        }
    }
    ulong param_15 = m;
    ulong param_16 = 13830554446647593961ul;
    ulong q = f64_lt(param_15, param_16) ? 13830554446647593961ul : m;
    ulong lq = 0ul;
    ulong ly = 0ul;
    if (objective == 7)
    {
        ulong param_17 = q;
        lq = det_log1p(param_17);
        ulong param_18 = y;
        ly = det_log1p(param_18);
    }
    ulong g;
    ulong h;
    if (objective == 1)
    {
        ulong param_19 = 4607182418800017408ul;
        ulong param_20 = e0;
        ulong param_21 = 4607182418800017408ul;
        ulong param_22 = f64_add(param_19, param_20);
        ulong p = f64_div(param_21, param_22);
        ulong param_23 = p;
        ulong param_24 = y;
        g = f64_sub(param_23, param_24);
        ulong param_25 = 4607182418800017408ul;
        ulong param_26 = p;
        ulong param_27 = p;
        ulong param_28 = f64_sub(param_25, param_26);
        h = f64_mul(param_27, param_28);
        ulong param_29 = h;
        ulong param_30 = 4367597403136100796ul;
        if (f64_lt(param_29, param_30))
        {
            h = 4367597403136100796ul;
        }
    }
    else
    {
        if (objective == 3)
        {
            ulong param_31 = m;
            ulong param_32 = y;
            ulong _2403;
            if (f64_gt(param_31, param_32))
            {
                _2403 = 4607182418800017408ul;
            }
            else
            {
                ulong param_33 = m;
                ulong param_34 = y;
                _2403 = f64_lt(param_33, param_34) ? 13830554455654793216ul : 0ul;
            }
            g = _2403;
            h = 4607182418800017408ul;
        }
        else
        {
            if (objective == 4)
            {
                ulong param_35 = e0;
                ulong param_36 = y;
                g = f64_sub(param_35, param_36);
                h = e1;
            }
            else
            {
                if (objective == 5)
                {
                    ulong param_37 = y;
                    ulong param_38 = e0;
                    ulong r = f64_mul(param_37, param_38);
                    ulong param_39 = 4607182418800017408ul;
                    ulong param_40 = r;
                    g = f64_sub(param_39, param_40);
                    ulong param_41 = r;
                    ulong param_42 = 4367597403136100796ul;
                    h = f64_lt(param_41, param_42) ? 4367597403136100796ul : r;
                }
                else
                {
                    if (objective == 6)
                    {
                        ulong param_43 = y;
                        ulong param_44 = e0;
                        ulong param_45 = e1;
                        ulong param_46 = f64_mul(param_43, param_44);
                        g = f64_sub(param_45, param_46);
                        ulong param_47 = 4611686018427387904ul;
                        ulong param_48 = param;
                        ulong param_49 = f64_sub(param_47, param_48);
                        ulong param_50 = e1;
                        ulong param_51 = 4607182418800017408ul;
                        ulong param_52 = param;
                        ulong param_53 = y;
                        ulong param_54 = f64_sub(param_51, param_52);
                        ulong param_55 = f64_mul(param_53, param_54);
                        ulong param_56 = e0;
                        ulong param_57 = f64_mul(param_49, param_50);
                        ulong param_58 = f64_mul(param_55, param_56);
                        h = f64_sub(param_57, param_58);
                        ulong param_59 = h;
                        ulong param_60 = 4367597403136100796ul;
                        if (f64_lt(param_59, param_60))
                        {
                            h = 4367597403136100796ul;
                        }
                    }
                    else
                    {
                        if (objective == 7)
                        {
                            ulong param_61 = q;
                            ulong param_62 = 4607182418800017408ul;
                            ulong q1 = f64_add(param_61, param_62);
                            ulong param_63 = lq;
                            ulong param_64 = ly;
                            ulong d = f64_sub(param_63, param_64);
                            ulong param_65 = d;
                            ulong param_66 = q1;
                            g = f64_div(param_65, param_66);
                            ulong param_67 = 4607182418800017408ul;
                            ulong param_68 = d;
                            ulong param_69 = q1;
                            ulong param_70 = q1;
                            ulong param_71 = f64_sub(param_67, param_68);
                            ulong param_72 = f64_mul(param_69, param_70);
                            h = f64_div(param_71, param_72);
                            ulong param_73 = h;
                            ulong param_74 = 4517329193108106637ul;
                            if (f64_lt(param_73, param_74))
                            {
                                h = 4517329193108106637ul;
                            }
                        }
                        else
                        {
                            if (objective == 8)
                            {
                                ulong param_75 = m;
                                ulong param_76 = y;
                                ulong z = f64_sub(param_75, param_76);
                                ulong param_77 = z;
                                ulong param_78 = param;
                                ulong t = f64_div(param_77, param_78);
                                ulong param_79 = t;
                                ulong param_80 = t;
                                ulong param_81 = 4607182418800017408ul;
                                ulong param_82 = f64_mul(param_79, param_80);
                                ulong scale = f64_add(param_81, param_82);
                                ulong param_83 = scale;
                                ulong root = det_sqrt(param_83);
                                ulong param_84 = z;
                                ulong param_85 = root;
                                g = f64_div(param_84, param_85);
                                ulong param_86 = scale;
                                ulong param_87 = root;
                                ulong param_88 = 4607182418800017408ul;
                                ulong param_89 = f64_mul(param_86, param_87);
                                h = f64_div(param_88, param_89);
                            }
                            else
                            {
                                if (objective == 9)
                                {
                                    ulong param_90 = m;
                                    ulong param_91 = y;
                                    bool _2583 = f64_gt(param_90, param_91);
                                    bool _2592;
                                    if (!_2583)
                                    {
                                        ulong param_92 = m;
                                        ulong param_93 = y;
                                        _2592 = f64_eq(param_92, param_93);
                                    }
                                    else
                                    {
                                        _2592 = _2583;
                                    }
                                    ulong _2593;
                                    if (_2592)
                                    {
                                        ulong param_94 = 4607182418800017408ul;
                                        ulong param_95 = param;
                                        _2593 = f64_sub(param_94, param_95);
                                    }
                                    else
                                    {
                                        ulong param_96 = param;
                                        _2593 = f64_neg(param_96);
                                    }
                                    g = _2593;
                                    h = 4607182418800017408ul;
                                }
                                else
                                {
                                    if (objective == 10)
                                    {
                                        ulong param_97 = 4611686018427387904ul;
                                        ulong param_98 = y;
                                        ulong param_99 = f64_mul(param_97, param_98);
                                        ulong param_100 = 4607182418800017408ul;
                                        ulong s = f64_sub(param_99, param_100);
                                        ulong param_101 = m;
                                        ulong param_102 = s;
                                        ulong param_103 = f64_mul(param_101, param_102);
                                        ulong param_104 = 4607182418800017408ul;
                                        if (f64_lt(param_103, param_104))
                                        {
                                            ulong param_105 = s;
                                            g = f64_neg(param_105);
                                            h = 4607182418800017408ul;
                                        }
                                        else
                                        {
                                            g = 0ul;
                                            h = 4367597403136100796ul;
                                        }
                                    }
                                    else
                                    {
                                        ulong param_106 = m;
                                        ulong param_107 = y;
                                        g = f64_sub(param_106, param_107);
                                        h = 4607182418800017408ul;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    float param_108 = weight;
    ulong w = f64_from_float(param_108);
    ulong param_109 = g;
    ulong param_110 = w;
    ulong param_111 = h;
    ulong param_112 = w;
    return ulong2(f64_mul(param_109, param_110), f64_mul(param_111, param_112));
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
    for (uint half_size = _2773; half_size > 0u; half_size = half_size >> uint(1))
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

kernel void gradients(constant Push& pc [[buffer(0)]], device Grad& _3344 [[buffer(1)]], const device Margins& _2893 [[buffer(2)]], const device Labels& _3102 [[buffer(3)]], const device Weights& _3084 [[buffer(4)]], device GroupMax& _3401 [[buffer(5)]], device SoftmaxNorm& _2966 [[buffer(6)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]])
{
    threadgroup ulong s_g[WG];
    threadgroup ulong s_h[WG];
    ulong max_g = 0ul;
    ulong max_h = 0ul;
    uint _2849 = gl_NumWorkGroups.x * WG;
    float _3078;
    ulong _3162;
    ulong _3191;
    for (uint stride = _2849, r = gl_GlobalInvocationID.x; r < pc.num_rows; r += stride)
    {
        ulong2 gh = ulong2(0ul);
        uint base = r * pc.num_outputs;
        bool _2880 = pc.objective == 2;
        bool _2886;
        if (_2880)
        {
            _2886 = pc.norm_write != 0u;
        }
        else
        {
            _2886 = _2880;
        }
        if (_2886)
        {
            float param = _2893.margins[base];
            ulong top = f64_from_float(param);
            for (uint c = 1u; c < pc.num_outputs; c++)
            {
                float param_1 = _2893.margins[base + c];
                ulong param_2 = f64_from_float(param_1);
                ulong param_3 = top;
                if (f64_gt(param_2, param_3))
                {
                    float param_4 = _2893.margins[base + c];
                    top = f64_from_float(param_4);
                }
            }
            ulong sum = 0ul;
            for (uint c_1 = 0u; c_1 < pc.num_outputs; c_1++)
            {
                float param_5 = _2893.margins[base + c_1];
                ulong param_6 = f64_from_float(param_5);
                ulong param_7 = top;
                ulong param_8 = f64_sub(param_6, param_7);
                ulong param_9 = sum;
                ulong param_10 = det_exp(param_8);
                sum = f64_add(param_9, param_10);
            }
            ulong param_11 = top;
            ulong param_12 = sum;
            _2966.softmax_norm[r] = uint4(f64_words(param_11), f64_words(param_12));
        }
        ulong pred = 0ul;
        if (pc.objective == 16)
        {
            float param_13 = _2893.margins[base];
            pred = f64_from_float(param_13);
            if (pc.output_index > 0u)
            {
                uint4 slot = _2966.softmax_norm[r];
                if (pc.norm_write != 0u)
                {
                    uint4 _3008 = slot;
                    slot.x = _3008.zw.x;
                    slot.y = _3008.zw.y;
                }
                uint2 param_14 = slot.xy;
                ulong param_15 = f64_from_words(param_14);
                float param_16 = _2893.margins[base + pc.output_index];
                pred = expectile_next(param_15, param_16);
                ulong param_17 = pred;
                uint2 _3029 = f64_words(param_17);
                slot.z = _3029.x;
                slot.w = _3029.y;
                _2966.softmax_norm[r] = slot;
            }
            else
            {
                if (pc.num_outputs > 1u)
                {
                    ulong param_18 = pred;
                    uint2 _3047 = f64_words(param_18);
                    ((device uint*)&_2966.softmax_norm[r])[2u] = _3047.x;
                    ((device uint*)&_2966.softmax_norm[r])[3u] = _3047.y;
                }
            }
        }
        ulong param_19 = as_type<ulong>(pc.seed);
        int param_20 = pc.round_index;
        ulong param_21 = ulong(pc.row_first + r);
        float param_22 = pc.subsample;
        if (row_sampled(param_19, param_20, param_21, param_22))
        {
            if (pc.has_weight != 0u)
            {
                _3078 = _3084.weight[r];
            }
            else
            {
                _3078 = 1.0;
            }
            float w = _3078;
            if (pc.objective == 16)
            {
                uint j = pc.output_index;
                float param_23 = _3102.label[r];
                ulong y = f64_from_float(param_23);
                ulong p = pred;
                ulong g = 0ul;
                ulong h = 0ul;
                for (uint k = j; k < pc.num_outputs; k++)
                {
                    if (k > j)
                    {
                        ulong param_24 = p;
                        float param_25 = _2893.margins[base + k];
                        p = expectile_next(param_24, param_25);
                    }
                    ulong param_26 = p;
                    ulong param_27 = y;
                    ulong diff = f64_sub(param_26, param_27);
                    float param_28 = pc.alphas[k];
                    ulong a = f64_from_float(param_28);
                    ulong param_29 = diff;
                    ulong param_30 = 0ul;
                    bool _3153 = f64_gt(param_29, param_30);
                    bool _3161;
                    if (!_3153)
                    {
                        ulong param_31 = diff;
                        ulong param_32 = 0ul;
                        _3161 = f64_eq(param_31, param_32);
                    }
                    else
                    {
                        _3161 = _3153;
                    }
                    if (_3161)
                    {
                        ulong param_33 = 4607182418800017408ul;
                        ulong param_34 = a;
                        _3162 = f64_sub(param_33, param_34);
                    }
                    else
                    {
                        _3162 = a;
                    }
                    ulong sc = _3162;
                    ulong param_35 = sc;
                    ulong param_36 = diff;
                    ulong param_37 = g;
                    ulong param_38 = f64_mul(param_35, param_36);
                    g = f64_add(param_37, param_38);
                    ulong param_39 = h;
                    ulong param_40 = sc;
                    h = f64_add(param_39, param_40);
                }
                if (j == 0u)
                {
                    _3191 = 4607182418800017408ul;
                }
                else
                {
                    float param_41 = _2893.margins[base + j];
                    ulong param_42 = f64_from_float(param_41);
                    _3191 = det_sigmoid(param_42);
                }
                ulong s = _3191;
                float param_43 = w;
                ulong wd = f64_from_float(param_43);
                ulong param_44 = s;
                ulong param_45 = g;
                ulong param_46 = f64_mul(param_44, param_45);
                ulong param_47 = wd;
                ulong param_48 = s;
                ulong param_49 = s;
                ulong param_50 = f64_mul(param_48, param_49);
                ulong param_51 = h;
                ulong param_52 = f64_mul(param_50, param_51);
                ulong param_53 = wd;
                gh = ulong2(f64_mul(param_46, param_47), f64_mul(param_52, param_53));
            }
            else
            {
                if (pc.objective == 2)
                {
                    uint4 norm = _2966.softmax_norm[r];
                    uint2 param_54 = norm.xy;
                    ulong top_1 = f64_from_words(param_54);
                    uint2 param_55 = norm.zw;
                    ulong sum_1 = f64_from_words(param_55);
                    float param_56 = _2893.margins[base + pc.output_index];
                    ulong param_57 = f64_from_float(param_56);
                    ulong param_58 = top_1;
                    ulong param_59 = f64_sub(param_57, param_58);
                    ulong param_60 = det_exp(param_59);
                    ulong param_61 = sum_1;
                    ulong p_1 = f64_div(param_60, param_61);
                    ulong y_1 = (int(_3102.label[r]) == int(pc.output_index)) ? 4607182418800017408ul : 0ul;
                    ulong param_62 = 4611686018427387904ul;
                    ulong param_63 = p_1;
                    ulong param_64 = 4607182418800017408ul;
                    ulong param_65 = p_1;
                    ulong param_66 = f64_mul(param_62, param_63);
                    ulong param_67 = f64_sub(param_64, param_65);
                    ulong h_1 = f64_mul(param_66, param_67);
                    ulong param_68 = h_1;
                    ulong param_69 = 4367597403136100796ul;
                    if (f64_lt(param_68, param_69))
                    {
                        h_1 = 4367597403136100796ul;
                    }
                    float param_70 = w;
                    ulong wd_1 = f64_from_float(param_70);
                    ulong param_71 = p_1;
                    ulong param_72 = y_1;
                    ulong param_73 = f64_sub(param_71, param_72);
                    ulong param_74 = wd_1;
                    ulong param_75 = h_1;
                    ulong param_76 = wd_1;
                    gh = ulong2(f64_mul(param_73, param_74), f64_mul(param_75, param_76));
                }
                else
                {
                    uint2 param_77 = pc.param;
                    int param_78 = pc.objective;
                    float param_79 = _2893.margins[base + pc.output_index];
                    float param_80 = _3102.label[r];
                    float param_81 = w;
                    ulong param_82 = f64_from_words(param_77);
                    gh = objective_single(param_78, param_79, param_80, param_81, param_82);
                }
            }
        }
        ulong param_83 = gh.x;
        ulong param_84 = gh.y;
        _3344.grad[r] = uint4(f64_words(param_83), f64_words(param_84));
        ulong param_85 = gh.x;
        ulong param_86 = f64_abs(param_85);
        ulong param_87 = max_g;
        if (f64_gt(param_86, param_87))
        {
            ulong param_88 = gh.x;
            max_g = f64_abs(param_88);
        }
        ulong param_89 = gh.y;
        ulong param_90 = max_h;
        if (f64_gt(param_89, param_90))
        {
            max_h = gh.y;
        }
    }
    ulong param_91 = max_g;
    ulong param_92 = max_h;
    uint4 _3392 = group_maxima(param_91, param_92, gl_LocalInvocationID, s_g, s_h);
    uint4 mx = _3392;
    if (gl_LocalInvocationID.x == 0u)
    {
        _3401.group_max[gl_WorkGroupID.x] = mx;
    }
}

