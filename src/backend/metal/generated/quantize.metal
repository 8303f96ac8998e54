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

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Push
{
    uint2 scale_grad;
    uint2 scale_hess;
    uint num_rows;
};

struct Grad
{
    uint4 grad[1];
};

constant uint _704_tmp [[function_constant(0)]];
constant uint _704 = is_function_constant_defined(_704_tmp) ? _704_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_704, 1u, 1u);

constant spvUnsafeArray<ulong, 14> _729 = spvUnsafeArray<ulong, 14>({ 4460272573143870729ul, 4477122120089393304ul, 4493156764026750180ul, 4508805057796939612ul, 4523617214285662004ul, 4537941361671905306ul, 4551452160554016794ul, 4564047942368979991ul, 4575957461383581969ul, 4586165620538955093ul, 4595172819793696085ul, 4602678819172646912ul, 4607182418800017408ul, 4607182418800017408ul });
constant spvUnsafeArray<ulong, 13> _744 = spvUnsafeArray<ulong, 13>({ 4585925428558828667ul, 4586426698778222948ul, 4587023449039406616ul, 4587745830934523688ul, 4588638185040256542ul, 4589468260265693457ul, 4590207312512236308ul, 4591215111030249286ul, 4592670820000712476ul, 4594314991293244562ul, 4596373779694328218ul, 4599676419421066581ul, 4607182418800017408ul });

static inline __attribute__((always_inline))
ulong f64_from_words(thread const uint2& w)
{
    return as_type<ulong>(w);
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
            bool _197 = e > 2045;
            bool _206;
            if (!_197)
            {
                _206 = (sig + 512ul) >= 9223372036854775808ul;
            }
            else
            {
                _206 = _197;
            }
            if (_206)
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
        bool _328 = sa != 0ul;
        bool _337;
        if (!_328)
        {
            _337 = (eb == 2047) && (sb != 0ul);
        }
        else
        {
            _337 = _328;
        }
        if (_337)
        {
            ulong param_2 = a;
            ulong param_3 = b;
            return sf_propagate_nan(param_2, param_3);
        }
        ulong _352;
        if ((ulong(long(eb)) | sb) == 0ul)
        {
            _352 = 18444492273895866368ul;
        }
        else
        {
            _352 = _sign | 9218868437227405312ul;
        }
        return _352;
    }
    if (eb == 2047)
    {
        if (sb != 0ul)
        {
            ulong param_4 = a;
            ulong param_5 = b;
            return sf_propagate_nan(param_4, param_5);
        }
        ulong _381;
        if ((ulong(long(ea)) | sa) == 0ul)
        {
            _381 = 18444492273895866368ul;
        }
        else
        {
            _381 = _sign | 9218868437227405312ul;
        }
        return _381;
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
    ulong _462 = sf_round_pack(param_10, param_11, param_12);
    return _462;
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
        bool _485 = e == 1022;
        bool _491;
        if (_485)
        {
            _491 = (a & 4503599627370495ul) != 0ul;
        }
        else
        {
            _491 = _485;
        }
        if (_491)
        {
            z |= 4607182418800017408ul;
        }
        return z;
    }
    if (e >= 1075)
    {
        ulong param_1 = a;
        ulong _507;
        if (sf_is_nan(param_1))
        {
            _507 = a | 2251799813685248ul;
        }
        else
        {
            _507 = a;
        }
        return _507;
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
    ulong _572;
    if (e >= 1075)
    {
        _572 = sig << ulong(e - 1075);
    }
    else
    {
        _572 = sig >> ulong(1075 - e);
    }
    ulong mag = _572;
    long _589;
    if ((r & 9223372036854775808ul) != 0ul)
    {
        _589 = -long(mag);
    }
    else
    {
        _589 = long(mag);
    }
    return _589;
}

static inline __attribute__((always_inline))
long f64_llrint(thread const ulong& a)
{
    ulong param = a;
    return sf_to_i64(param);
}

kernel void quantize(constant Push& pc [[buffer(0)]], device Grad& _650 [[buffer(1)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _625 = gl_NumWorkGroups.x * WG;
    for (uint stride = _625, r = gl_GlobalInvocationID.x; r < pc.num_rows; r += stride)
    {
        uint4 v = _650.grad[r];
        uint2 param = v.xy;
        uint2 param_1 = pc.scale_grad;
        ulong param_2 = f64_from_words(param);
        ulong param_3 = f64_from_words(param_1);
        ulong g = f64_mul(param_2, param_3);
        uint2 param_4 = v.zw;
        uint2 param_5 = pc.scale_hess;
        ulong param_6 = f64_from_words(param_4);
        ulong param_7 = f64_from_words(param_5);
        ulong h = f64_mul(param_6, param_7);
        ulong param_8 = g;
        long qg = f64_llrint(param_8);
        ulong param_9 = h;
        long qh = f64_llrint(param_9);
        _650.grad[r] = uint4(as_type<uint2>(ulong(qg)), as_type<uint2>(ulong(qh)));
    }
}

