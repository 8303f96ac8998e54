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

struct Labels
{
    float label[1];
};

struct Order
{
    uint order[1];
};

struct MapSums
{
    uint4 map_sums[1];
};

constant uint _1160_tmp [[function_constant(0)]];
constant uint _1160 = is_function_constant_defined(_1160_tmp) ? _1160_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_1160, 1u, 1u);

struct Margins
{
    float margins[1];
};

struct YOrder
{
    uint yorder[1];
};

struct Runs
{
    uint2 runs[1];
};

struct Sums
{
    uint sums[1];
};

struct QuerySums
{
    uint qsums[1];
};

struct Discount
{
    uint2 discount[1];
};

struct InvIdcg
{
    uint2 inv_idcg[1];
};

struct GroupWeight
{
    uint2 group_weight[1];
};

struct GroupMax
{
    uint4 group_max[1];
};

constant spvUnsafeArray<ulong, 14> _1181 = spvUnsafeArray<ulong, 14>({ 4460272573143870729ul, 4477122120089393304ul, 4493156764026750180ul, 4508805057796939612ul, 4523617214285662004ul, 4537941361671905306ul, 4551452160554016794ul, 4564047942368979991ul, 4575957461383581969ul, 4586165620538955093ul, 4595172819793696085ul, 4602678819172646912ul, 4607182418800017408ul, 4607182418800017408ul });
constant spvUnsafeArray<ulong, 13> _1196 = spvUnsafeArray<ulong, 13>({ 4585925428558828667ul, 4586426698778222948ul, 4587023449039406616ul, 4587745830934523688ul, 4588638185040256542ul, 4589468260265693457ul, 4590207312512236308ul, 4591215111030249286ul, 4592670820000712476ul, 4594314991293244562ul, 4596373779694328218ul, 4599676419421066581ul, 4607182418800017408ul });

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
        ulong _958;
        if (m != 0ul)
        {
            _958 = ((_sign | 9218868437227405312ul) | 2251799813685248ul) | (m << ulong(29));
        }
        else
        {
            _958 = _sign | 9218868437227405312ul;
        }
        return _958;
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
            bool _223 = e > 2045;
            bool _232;
            if (!_223)
            {
                _232 = (sig + 512ul) >= 9223372036854775808ul;
            }
            else
            {
                _232 = _223;
            }
            if (_232)
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
            ulong _347;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _347 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _347 = a;
            }
            return _347;
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
                ulong _384;
                if (sb != 0ul)
                {
                    ulong param_4 = a;
                    ulong param_5 = b;
                    _384 = sf_propagate_nan(param_4, param_5);
                }
                else
                {
                    _384 = _sign | 9218868437227405312ul;
                }
                return _384;
            }
            ez = eb;
            ulong _400;
            if (ea != 0)
            {
                _400 = sa + 2305843009213693952ul;
            }
            else
            {
                _400 = sa << ulong(1);
            }
            sa = _400;
            ulong param_6 = sa;
            int param_7 = -d;
            sa = sf_shift_right_jam(param_6, param_7);
        }
        else
        {
            if (ea == 2047)
            {
                ulong _423;
                if (sa != 0ul)
                {
                    ulong param_8 = a;
                    ulong param_9 = b;
                    _423 = sf_propagate_nan(param_8, param_9);
                }
                else
                {
                    _423 = a;
                }
                return _423;
            }
            ez = ea;
            ulong _438;
            if (eb != 0)
            {
                _438 = sb + 2305843009213693952ul;
            }
            else
            {
                _438 = sb << ulong(1);
            }
            sb = _438;
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
    ulong _471 = sf_round_pack(param_12, param_13, param_14);
    return _471;
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
    ulong _304 = sf_round_pack(param_4, param_5, param_6);
    return _304;
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
            ulong _504;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _504 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _504 = 18444492273895866368ul;
            }
            return _504;
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
            ulong _585;
            if (sb != 0ul)
            {
                ulong param_8 = a;
                ulong param_9 = b;
                _585 = sf_propagate_nan(param_8, param_9);
            }
            else
            {
                _585 = _sign | 9218868437227405312ul;
            }
            return _585;
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
            ulong _625;
            if (sa != 0ul)
            {
                ulong param_12 = a;
                ulong param_13 = b;
                _625 = sf_propagate_nan(param_12, param_13);
            }
            else
            {
                _625 = a;
            }
            return _625;
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
    ulong _661 = sf_norm_round_pack(param_16, param_17, param_18);
    return _661;
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
    ulong _687 = sf_sub_mags(param_3, param_4, param_5);
    return _687;
}

static inline __attribute__((always_inline))
ulong f64_add(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_add(param, param_1);
}

static inline __attribute__((always_inline))
ulong sf_from_i64(thread const long& a)
{
    if ((ulong(a) & 9223372036854775807ul) == 0ul)
    {
        return (a != 0l) ? 14114281232179134464ul : 0ul;
    }
    ulong _sign = (a < 0l) ? 9223372036854775808ul : 0ul;
    ulong _915;
    if (a < 0l)
    {
        _915 = 0ul - ulong(a);
    }
    else
    {
        _915 = ulong(a);
    }
    ulong m = _915;
    ulong param = _sign;
    int param_1 = 1084;
    ulong param_2 = m;
    ulong _931 = sf_norm_round_pack(param, param_1, param_2);
    return _931;
}

static inline __attribute__((always_inline))
ulong f64_from_i64(thread const long& x)
{
    long param = x;
    return sf_from_i64(param);
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
            ulong _735;
            if (sb != 0ul)
            {
                ulong param_4 = a;
                ulong param_5 = b;
                _735 = sf_propagate_nan(param_4, param_5);
            }
            else
            {
                _735 = 18444492273895866368ul;
            }
            return _735;
        }
        return _sign | 9218868437227405312ul;
    }
    if (eb == 2047)
    {
        ulong _755;
        if (sb != 0ul)
        {
            ulong param_6 = a;
            ulong param_7 = b;
            _755 = sf_propagate_nan(param_6, param_7);
        }
        else
        {
            _755 = _sign;
        }
        return _755;
    }
    if (eb == 0)
    {
        if (sb == 0ul)
        {
            ulong _781;
            if ((ulong(long(ea)) | sa) == 0ul)
            {
                _781 = 18444492273895866368ul;
            }
            else
            {
                _781 = _sign | 9218868437227405312ul;
            }
            return _781;
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
    ulong _894 = sf_round_pack(param_10, param_11, param_12);
    return _894;
}

static inline __attribute__((always_inline))
ulong f64_div(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_div(param, param_1);
}

static inline __attribute__((always_inline))
uint2 f64_words(thread const ulong& a)
{
    return as_type<uint2>(a);
}

kernel void rank_map(constant Push& pc [[buffer(0)]], const device GroupPtr& _1069 [[buffer(1)]], const device Labels& _1097 [[buffer(3)]], device Order& _1101 [[buffer(4)]], device MapSums& _1138 [[buffer(7)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _1046 = gl_NumWorkGroups.x * WG;
    for (uint stride = _1046, q = gl_GlobalInvocationID.x; q < pc.num_groups; q += stride)
    {
        uint first = _1069.group_ptr[q];
        uint n = _1069.group_ptr[q + 1u] - first;
        ulong n_rel = 0ul;
        ulong acc = 0ul;
        for (uint p = 0u; p < n; p++)
        {
            float param = _1097.label[_1101.order[first + p]];
            ulong grade = f64_from_float(param);
            ulong param_1 = n_rel;
            ulong param_2 = grade;
            n_rel = f64_add(param_1, param_2);
            long param_3 = long(ulong(p));
            ulong param_4 = f64_from_i64(param_3);
            ulong param_5 = 4607182418800017408ul;
            ulong param_6 = grade;
            ulong param_7 = f64_add(param_4, param_5);
            ulong param_8 = acc;
            ulong param_9 = f64_div(param_6, param_7);
            acc = f64_add(param_8, param_9);
            ulong param_10 = n_rel;
            ulong param_11 = acc;
            _1138.map_sums[first + p] = uint4(f64_words(param_10), f64_words(param_11));
        }
    }
}

