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

struct MapSums
{
    uint4 map_sums[1];
};

struct Margins
{
    float margins[1];
};

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct YOrder
{
    uint yorder[1];
};

struct Runs
{
    uint2 runs[1];
};

struct Order
{
    uint order[1];
};

struct InvIdcg
{
    uint2 inv_idcg[1];
};

struct Labels
{
    float label[1];
};

constant uint _2918_tmp [[function_constant(0)]];
constant uint _2918 = is_function_constant_defined(_2918_tmp) ? _2918_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_2918, 1u, 1u);

struct GroupWeight
{
    uint2 group_weight[1];
};

struct GroupMax
{
    uint4 group_max[1];
};

constant spvUnsafeArray<ulong, 14> _1952 = spvUnsafeArray<ulong, 14>({ 4460272573143870729ul, 4477122120089393304ul, 4493156764026750180ul, 4508805057796939612ul, 4523617214285662004ul, 4537941361671905306ul, 4551452160554016794ul, 4564047942368979991ul, 4575957461383581969ul, 4586165620538955093ul, 4595172819793696085ul, 4602678819172646912ul, 4607182418800017408ul, 4607182418800017408ul });
constant spvUnsafeArray<ulong, 13> _2935 = spvUnsafeArray<ulong, 13>({ 4585925428558828667ul, 4586426698778222948ul, 4587023449039406616ul, 4587745830934523688ul, 4588638185040256542ul, 4589468260265693457ul, 4590207312512236308ul, 4591215111030249286ul, 4592670820000712476ul, 4594314991293244562ul, 4596373779694328218ul, 4599676419421066581ul, 4607182418800017408ul });

static inline __attribute__((always_inline))
uint query_of(thread const uint& r, constant Push& pc, const device GroupPtr& v_2013)
{
    uint lo = 0u;
    uint hi = pc.num_groups - 1u;
    while (lo < hi)
    {
        uint mid = ((lo + hi) + 1u) >> uint(1);
        if (v_2013.group_ptr[mid] <= r)
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
float margin_of(thread const uint& row, constant Push& pc, const device Margins& v_2548)
{
    return v_2548.margins[(row * pc.num_outputs) + pc.output_index];
}

static inline __attribute__((always_inline))
ulong f64_from_words(thread const uint2& w)
{
    return as_type<ulong>(w);
}

static inline __attribute__((always_inline))
uint rank_partner(thread const uint& q, thread const uint& t, thread const uint& s, thread const uint& lo, thread const uint& hi, thread const uint& n, constant Push& pc)
{
    ulong z = (as_type<ulong>(pc.seed) ^ (ulong(uint(pc.round_index)) << ulong(40))) ^ ulong(q);
    for (int k = 0; k < 2; k++)
    {
        z += 11400714819323198485ul;
        z = (z ^ (z >> ulong(30))) * 13787848793156543929ul;
        z = (z ^ (z >> ulong(27))) * 10723151780598845931ul;
        z ^= (z >> ulong(31));
        if (k == 0)
        {
            z ^= ((ulong(t) << ulong(20)) ^ ulong(s));
        }
    }
    uint r = uint(z % ulong(n - (hi - lo)));
    uint _2532;
    if (r < lo)
    {
        _2532 = r;
    }
    else
    {
        _2532 = r + (hi - lo);
    }
    return _2532;
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
            bool _367 = e > 2045;
            bool _376;
            if (!_367)
            {
                _376 = (sig + 512ul) >= 9223372036854775808ul;
            }
            else
            {
                _376 = _367;
            }
            if (_376)
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
    ulong _448 = sf_round_pack(param_4, param_5, param_6);
    return _448;
}

static inline __attribute__((always_inline))
ulong sf_from_i64(thread const long& a)
{
    if ((ulong(a) & 9223372036854775807ul) == 0ul)
    {
        return (a != 0l) ? 14114281232179134464ul : 0ul;
    }
    ulong _sign = (a < 0l) ? 9223372036854775808ul : 0ul;
    ulong _1433;
    if (a < 0l)
    {
        _1433 = 0ul - ulong(a);
    }
    else
    {
        _1433 = ulong(a);
    }
    ulong m = _1433;
    ulong param = _sign;
    int param_1 = 1084;
    ulong param_2 = m;
    ulong _1449 = sf_norm_round_pack(param, param_1, param_2);
    return _1449;
}

static inline __attribute__((always_inline))
ulong f64_from_i64(thread const long& x)
{
    long param = x;
    return sf_from_i64(param);
}

static inline __attribute__((always_inline))
ulong sf_from_f32(thread const uint& f)
{
    ulong _sign = ulong(f >> uint(31)) << ulong(63);
    int e = int((f >> uint(23)) & 255u);
    ulong m = ulong(f & 8388607u);
    if (e == 255)
    {
        ulong _1476;
        if (m != 0ul)
        {
            _1476 = ((_sign | 9218868437227405312ul) | 2251799813685248ul) | (m << ulong(29));
        }
        else
        {
            _1476 = _sign | 9218868437227405312ul;
        }
        return _1476;
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
ulong rank_gain(thread const float& grade, constant Push& pc)
{
    ulong _2164;
    if (pc.exp_gain != 0)
    {
        long param = long(ulong((1u << uint(grade)) - 1u));
        _2164 = f64_from_i64(param);
    }
    else
    {
        float param_1 = grade;
        _2164 = f64_from_float(param_1);
    }
    return _2164;
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
        bool _948 = sa != 0ul;
        bool _957;
        if (!_948)
        {
            _957 = (eb == 2047) && (sb != 0ul);
        }
        else
        {
            _957 = _948;
        }
        if (_957)
        {
            ulong param_2 = a;
            ulong param_3 = b;
            return sf_propagate_nan(param_2, param_3);
        }
        ulong _972;
        if ((ulong(long(eb)) | sb) == 0ul)
        {
            _972 = 18444492273895866368ul;
        }
        else
        {
            _972 = _sign | 9218868437227405312ul;
        }
        return _972;
    }
    if (eb == 2047)
    {
        if (sb != 0ul)
        {
            ulong param_4 = a;
            ulong param_5 = b;
            return sf_propagate_nan(param_4, param_5);
        }
        ulong _1000;
        if ((ulong(long(ea)) | sa) == 0ul)
        {
            _1000 = 18444492273895866368ul;
        }
        else
        {
            _1000 = _sign | 9218868437227405312ul;
        }
        return _1000;
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
    ulong _1079 = sf_round_pack(param_10, param_11, param_12);
    return _1079;
}

static inline __attribute__((always_inline))
ulong f64_mul(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_mul(param, param_1);
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
            ulong _491;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _491 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _491 = a;
            }
            return _491;
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
                ulong _528;
                if (sb != 0ul)
                {
                    ulong param_4 = a;
                    ulong param_5 = b;
                    _528 = sf_propagate_nan(param_4, param_5);
                }
                else
                {
                    _528 = _sign | 9218868437227405312ul;
                }
                return _528;
            }
            ez = eb;
            ulong _544;
            if (ea != 0)
            {
                _544 = sa + 2305843009213693952ul;
            }
            else
            {
                _544 = sa << ulong(1);
            }
            sa = _544;
            ulong param_6 = sa;
            int param_7 = -d;
            sa = sf_shift_right_jam(param_6, param_7);
        }
        else
        {
            if (ea == 2047)
            {
                ulong _567;
                if (sa != 0ul)
                {
                    ulong param_8 = a;
                    ulong param_9 = b;
                    _567 = sf_propagate_nan(param_8, param_9);
                }
                else
                {
                    _567 = a;
                }
                return _567;
            }
            ez = ea;
            ulong _582;
            if (eb != 0)
            {
                _582 = sb + 2305843009213693952ul;
            }
            else
            {
                _582 = sb << ulong(1);
            }
            sb = _582;
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
    ulong _615 = sf_round_pack(param_12, param_13, param_14);
    return _615;
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
            ulong _648;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _648 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _648 = 18444492273895866368ul;
            }
            return _648;
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
            ulong _729;
            if (sb != 0ul)
            {
                ulong param_8 = a;
                ulong param_9 = b;
                _729 = sf_propagate_nan(param_8, param_9);
            }
            else
            {
                _729 = _sign | 9218868437227405312ul;
            }
            return _729;
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
            ulong _769;
            if (sa != 0ul)
            {
                ulong param_12 = a;
                ulong param_13 = b;
                _769 = sf_propagate_nan(param_12, param_13);
            }
            else
            {
                _769 = a;
            }
            return _769;
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
    ulong _805 = sf_norm_round_pack(param_16, param_17, param_18);
    return _805;
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
    ulong _831 = sf_sub_mags(param_3, param_4, param_5);
    return _831;
}

static inline __attribute__((always_inline))
ulong f64_add(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_add(param, param_1);
}

static inline __attribute__((always_inline))
ulong sf_sub(thread const ulong& a, thread const ulong& b)
{
    if (((a ^ b) & 9223372036854775808ul) == 0ul)
    {
        ulong param = a;
        ulong param_1 = b;
        ulong param_2 = a & 9223372036854775808ul;
        ulong _848 = sf_sub_mags(param, param_1, param_2);
        return _848;
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
ulong f64_abs(thread const ulong& a)
{
    return a & 9223372036854775807ul;
}

static inline __attribute__((always_inline))
ulong rank_delta_ndcg(thread const float& y_high, thread const float& y_low, thread const uint& p_high, thread const uint& p_low, thread const ulong& idcg_inv, constant Push& pc, const device Discount& v_2194)
{
    float param = y_high;
    ulong gh = rank_gain(param, pc);
    float param_1 = y_low;
    ulong gl = rank_gain(param_1, pc);
    uint2 param_2 = v_2194.discount[p_high];
    ulong dh = f64_from_words(param_2);
    uint2 param_3 = v_2194.discount[p_low];
    ulong dl = f64_from_words(param_3);
    ulong param_4 = gh;
    ulong param_5 = dh;
    ulong param_6 = gl;
    ulong param_7 = dl;
    ulong param_8 = f64_mul(param_4, param_5);
    ulong param_9 = f64_mul(param_6, param_7);
    ulong original = f64_add(param_8, param_9);
    ulong param_10 = gl;
    ulong param_11 = dh;
    ulong param_12 = gh;
    ulong param_13 = dl;
    ulong param_14 = f64_mul(param_10, param_11);
    ulong param_15 = f64_mul(param_12, param_13);
    ulong changed = f64_add(param_14, param_15);
    ulong param_16 = original;
    ulong param_17 = changed;
    ulong param_18 = f64_sub(param_16, param_17);
    ulong param_19 = idcg_inv;
    ulong param_20 = f64_mul(param_18, param_19);
    return f64_abs(param_20);
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
            ulong _1121;
            if (sb != 0ul)
            {
                ulong param_4 = a;
                ulong param_5 = b;
                _1121 = sf_propagate_nan(param_4, param_5);
            }
            else
            {
                _1121 = 18444492273895866368ul;
            }
            return _1121;
        }
        return _sign | 9218868437227405312ul;
    }
    if (eb == 2047)
    {
        ulong _1141;
        if (sb != 0ul)
        {
            ulong param_6 = a;
            ulong param_7 = b;
            _1141 = sf_propagate_nan(param_6, param_7);
        }
        else
        {
            _1141 = _sign;
        }
        return _1141;
    }
    if (eb == 0)
    {
        if (sb == 0ul)
        {
            ulong _1167;
            if ((ulong(long(ea)) | sa) == 0ul)
            {
                _1167 = 18444492273895866368ul;
            }
            else
            {
                _1167 = _sign | 9218868437227405312ul;
            }
            return _1167;
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
    ulong _1279 = sf_round_pack(param_10, param_11, param_12);
    return _1279;
}

static inline __attribute__((always_inline))
ulong f64_div(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_div(param, param_1);
}

static inline __attribute__((always_inline))
ulong rank_delta_map(thread float& y_high, thread float& y_low, thread uint& p_high, thread uint& p_low, thread const uint& b, thread const uint& n, device MapSums& v_2284)
{
    if (p_high > p_low)
    {
        uint tp = p_high;
        p_high = p_low;
        p_low = tp;
        float ty = y_high;
        y_high = y_low;
        y_low = ty;
    }
    long param = long(ulong(p_high));
    ulong param_1 = f64_from_i64(param);
    ulong param_2 = 4607182418800017408ul;
    ulong r_h = f64_add(param_1, param_2);
    long param_3 = long(ulong(p_low));
    ulong param_4 = f64_from_i64(param_3);
    ulong param_5 = 4607182418800017408ul;
    ulong r_l = f64_add(param_4, param_5);
    uint2 param_6 = v_2284.map_sums[(b + n) - 1u].xy;
    ulong total = f64_from_words(param_6);
    uint2 param_7 = v_2284.map_sums[b + p_low].xy;
    ulong m = f64_from_words(param_7);
    uint2 param_8 = v_2284.map_sums[b + p_high].xy;
    ulong nh = f64_from_words(param_8);
    uint2 param_9 = v_2284.map_sums[(b + p_low) - 1u].zw;
    uint2 param_10 = v_2284.map_sums[b + p_high].zw;
    ulong param_11 = f64_from_words(param_9);
    ulong param_12 = f64_from_words(param_10);
    ulong bb = f64_sub(param_11, param_12);
    bool up = y_high < y_low;
    ulong param_13 = m;
    ulong param_14 = r_l;
    ulong a = f64_div(param_13, param_14);
    ulong _2346;
    if (up)
    {
        ulong param_15 = nh;
        ulong param_16 = 4607182418800017408ul;
        _2346 = f64_add(param_15, param_16);
    }
    else
    {
        _2346 = nh;
    }
    ulong param_17 = _2346;
    ulong param_18 = r_h;
    ulong x = f64_div(param_17, param_18);
    ulong _2362;
    if (up)
    {
        ulong param_19 = a;
        ulong param_20 = x;
        ulong param_21 = f64_sub(param_19, param_20);
        ulong param_22 = bb;
        _2362 = f64_sub(param_21, param_22);
    }
    else
    {
        ulong param_23 = x;
        ulong param_24 = a;
        ulong param_25 = f64_sub(param_23, param_24);
        ulong param_26 = bb;
        _2362 = f64_add(param_25, param_26);
    }
    ulong d = _2362;
    ulong param_27 = d;
    ulong param_28 = total;
    ulong param_29 = f64_div(param_27, param_28);
    return f64_abs(param_29);
}

static inline __attribute__((always_inline))
ulong f64_neg(thread const ulong& a)
{
    return a ^ 9223372036854775808ul;
}

static inline __attribute__((always_inline))
bool sf_eq(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    bool _1657 = sf_is_nan(param);
    bool _1664;
    if (!_1657)
    {
        ulong param_1 = b;
        _1664 = sf_is_nan(param_1);
    }
    else
    {
        _1664 = _1657;
    }
    if (_1664)
    {
        return false;
    }
    bool _1671 = a == b;
    bool _1680;
    if (!_1671)
    {
        _1680 = ((a | b) & 9223372036854775807ul) == 0ul;
    }
    else
    {
        _1680 = _1671;
    }
    return _1680;
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
    bool _1685 = sf_is_nan(param);
    bool _1692;
    if (!_1685)
    {
        ulong param_1 = b;
        _1692 = sf_is_nan(param_1);
    }
    else
    {
        _1692 = _1685;
    }
    if (_1692)
    {
        return false;
    }
    bool na = (a & 9223372036854775808ul) != 0ul;
    bool nb = (b & 9223372036854775808ul) != 0ul;
    if (na != nb)
    {
        bool _1717;
        if (na)
        {
            _1717 = ((a | b) & 9223372036854775807ul) != 0ul;
        }
        else
        {
            _1717 = na;
        }
        return _1717;
    }
    bool _1721 = a != b;
    bool _1729;
    if (_1721)
    {
        _1729 = na != (a < b);
    }
    else
    {
        _1729 = _1721;
    }
    return _1729;
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
        bool _1301 = e == 1022;
        bool _1307;
        if (_1301)
        {
            _1307 = (a & 4503599627370495ul) != 0ul;
        }
        else
        {
            _1307 = _1301;
        }
        if (_1307)
        {
            z |= 4607182418800017408ul;
        }
        return z;
    }
    if (e >= 1075)
    {
        ulong param_1 = a;
        ulong _1323;
        if (sf_is_nan(param_1))
        {
            _1323 = a | 2251799813685248ul;
        }
        else
        {
            _1323 = a;
        }
        return _1323;
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
    ulong _1387;
    if (e >= 1075)
    {
        _1387 = sig << ulong(e - 1075);
    }
    else
    {
        _1387 = sig >> ulong(1075 - e);
    }
    ulong mag = _1387;
    long _1403;
    if ((r & 9223372036854775808ul) != 0ul)
    {
        _1403 = -long(mag);
    }
    else
    {
        _1403 = long(mag);
    }
    return _1403;
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
        ulong param_21 = _1952[i];
        p = f64_add(param_20, param_21);
    }
    ulong param_22 = k;
    ulong param_23 = p;
    int param_24 = int(f64_llrint(param_22));
    return det_scale2(param_23, param_24);
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
uint sf_to_f32(thread const ulong& a)
{
    uint _sign = uint(a >> ulong(63)) << uint(31);
    ulong param = a;
    int e = sf_exp(param);
    ulong frac = a & 4503599627370495ul;
    if (e == 2047)
    {
        uint _1545;
        if (frac != 0ul)
        {
            _1545 = (_sign | 2143289344u) | uint(frac >> ulong(29));
        }
        else
        {
            _1545 = _sign | 2139095040u;
        }
        return _1545;
    }
    if (e == 0)
    {
        return _sign;
    }
    int ef = e - 896;
    if (ef >= 255)
    {
        return _sign | 2139095040u;
    }
    ulong sig = frac | 4503599627370496ul;
    int _1583;
    if (ef >= 1)
    {
        _1583 = 29;
    }
    else
    {
        _1583 = 30 - ef;
    }
    int shift = _1583;
    if (shift >= 64)
    {
        return _sign;
    }
    ulong q = sig >> ulong(shift);
    ulong rest = sig & ((1ul << ulong(shift)) - 1ul);
    ulong mid = 1ul << ulong(shift - 1);
    bool _1613 = rest > mid;
    bool _1626;
    if (!_1613)
    {
        bool _1619 = rest == mid;
        bool _1625;
        if (_1619)
        {
            _1625 = (q & 1ul) != 0ul;
        }
        else
        {
            _1625 = _1619;
        }
        _1626 = _1625;
    }
    else
    {
        _1626 = _1613;
    }
    if (_1626)
    {
        q += 1ul;
    }
    uint _1634;
    if (ef >= 1)
    {
        _1634 = uint(ef - 1) << uint(23);
    }
    else
    {
        _1634 = 0u;
    }
    uint r = _1634 + uint(q);
    if (r >= 2139095040u)
    {
        r = 2139095040u;
    }
    return _sign | r;
}

static inline __attribute__((always_inline))
uint f64_to_float_bits(thread const ulong& a)
{
    ulong param = a;
    return sf_to_f32(param);
}

static inline __attribute__((always_inline))
uint2 rank_pair(thread const float& s_high, thread const float& s_low, thread ulong& delta, thread const bool& by_diff)
{
    float param = s_high;
    float param_1 = s_low;
    ulong param_2 = f64_from_float(param);
    ulong param_3 = f64_from_float(param_1);
    ulong diff = f64_sub(param_2, param_3);
    ulong param_4 = diff;
    ulong sig = det_sigmoid(param_4);
    if (by_diff)
    {
        ulong param_5 = diff;
        ulong param_6 = f64_abs(param_5);
        ulong param_7 = 4576918229304087675ul;
        ulong param_8 = delta;
        ulong param_9 = f64_add(param_6, param_7);
        delta = f64_div(param_8, param_9);
    }
    ulong param_10 = 4607182418800017408ul;
    ulong param_11 = sig;
    ulong param_12 = sig;
    ulong param_13 = f64_sub(param_10, param_11);
    ulong h = f64_mul(param_12, param_13);
    ulong param_14 = h;
    ulong param_15 = 4367597403136100796ul;
    if (f64_lt(param_14, param_15))
    {
        h = 4367597403136100796ul;
    }
    ulong param_16 = sig;
    ulong param_17 = 4607182418800017408ul;
    ulong param_18 = f64_sub(param_16, param_17);
    ulong param_19 = delta;
    ulong param_20 = f64_mul(param_18, param_19);
    ulong param_21 = h;
    ulong param_22 = delta;
    ulong param_23 = f64_mul(param_21, param_22);
    ulong param_24 = 4611686018427387904ul;
    ulong param_25 = f64_mul(param_23, param_24);
    return uint2(f64_to_float_bits(param_20), f64_to_float_bits(param_25));
}

static inline __attribute__((always_inline))
long rank_fixed(thread const uint& f)
{
    uint e = (f >> uint(23)) & 255u;
    ulong sig = ulong(f & 8388607u);
    if (e != 0u)
    {
        sig |= 8388608ul;
    }
    else
    {
        e = 1u;
    }
    int s = int(e) - 118;
    ulong mag = 0ul;
    if (s >= 0)
    {
        mag = sig << ulong(uint(min(s, 40)));
    }
    else
    {
        if (s > (-64))
        {
            mag = sig >> ulong(uint(-s));
        }
    }
    long _2075;
    if ((f & 2147483648u) != 0u)
    {
        _2075 = -long(mag);
    }
    else
    {
        _2075 = long(mag);
    }
    return _2075;
}

static inline __attribute__((always_inline))
void atomic_add64(thread const uint& word, thread const long& v, device Sums& v_2100)
{
    if (v == 0l)
    {
        return;
    }
    uint2 w = as_type<uint2>(ulong(v));
    uint _2105 = atomic_fetch_add_explicit((device atomic_uint*)&v_2100.sums[word], w.x, memory_order_relaxed);
    uint old = _2105;
    uint carry = uint((old + w.x) < old);
    uint _2121 = atomic_fetch_add_explicit((device atomic_uint*)&v_2100.sums[word + 1u], w.y + carry, memory_order_relaxed);
}

static inline __attribute__((always_inline))
void atomic_add64_query(thread const uint& q, thread const long& v, device QuerySums& v_2135)
{
    if (v == 0l)
    {
        return;
    }
    uint2 w = as_type<uint2>(ulong(v));
    uint _2142 = atomic_fetch_add_explicit((device atomic_uint*)&v_2135.qsums[2u * q], w.x, memory_order_relaxed);
    uint old = _2142;
    uint carry = uint((old + w.x) < old);
    uint _2159 = atomic_fetch_add_explicit((device atomic_uint*)&v_2135.qsums[(2u * q) + 1u], w.y + carry, memory_order_relaxed);
}

kernel void rank_pairs(constant Push& pc [[buffer(0)]], const device GroupPtr& v_2013 [[buffer(1)]], const device Margins& v_2548 [[buffer(2)]], const device Labels& _2703 [[buffer(3)]], device Order& _2666 [[buffer(4)]], device YOrder& _2625 [[buffer(5)]], device Runs& _2632 [[buffer(6)]], device MapSums& v_2284 [[buffer(7)]], device Sums& v_2100 [[buffer(8)]], device QuerySums& v_2135 [[buffer(9)]], const device Discount& v_2194 [[buffer(10)]], const device InvIdcg& _2687 [[buffer(11)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _2571 = gl_NumWorkGroups.x * WG;
    uint _2644;
    uint _2725;
    long _2857;
    long _2877;
    for (uint stride = _2571, x = gl_GlobalInvocationID.x; x < pc.num_rows; x += stride)
    {
        uint param = x;
        uint q = query_of(param, pc, v_2013);
        uint first = v_2013.group_ptr[q];
        uint n = v_2013.group_ptr[q + 1u] - first;
        uint idx = x - first;
        bool mean = pc.pair_method == 1;
        uint p_own = idx;
        uint count = min(idx, uint(pc.num_pair));
        uint lo = 0u;
        uint hi = 0u;
        if (mean)
        {
            p_own = _2625.yorder[x];
            lo = ((device uint*)&_2632.runs[x])[0u];
            hi = ((device uint*)&_2632.runs[x])[1u];
            if ((hi - lo) == n)
            {
                _2644 = 0u;
            }
            else
            {
                _2644 = uint(pc.num_pair);
            }
            count = _2644;
        }
        if (count == 0u)
        {
            continue;
        }
        bool _2660 = pc.score_normalization != 0;
        bool _2682;
        if (_2660)
        {
            uint param_1 = _2666.order[first];
            uint param_2 = _2666.order[(first + n) - 1u];
            _2682 = !(margin_of(param_1, pc, v_2548) == margin_of(param_2, pc, v_2548));
        }
        else
        {
            _2682 = _2660;
        }
        bool by_diff = _2682;
        uint2 param_3 = _2687.inv_idcg[q];
        ulong idcg_inv = f64_from_words(param_3);
        uint r_own = _2666.order[first + p_own];
        float y_own = _2703.label[r_own];
        uint param_4 = r_own;
        float s_own = margin_of(param_4, pc, v_2548);
        long own_g = 0l;
        long own_h = 0l;
        long lambda_sum = 0l;
        for (uint c = 0u; c < count; c++)
        {
            if (mean)
            {
                uint param_5 = q;
                uint param_6 = idx;
                uint param_7 = c;
                uint param_8 = lo;
                uint param_9 = hi;
                uint param_10 = n;
                _2725 = _2625.yorder[first + rank_partner(param_5, param_6, param_7, param_8, param_9, param_10, pc)];
            }
            else
            {
                _2725 = c;
            }
            uint p_other = _2725;
            uint r_other = _2666.order[first + p_other];
            float y_other = _2703.label[r_other];
            if (y_own == y_other)
            {
                continue;
            }
            bool own_high = y_own > y_other;
            uint p_high = own_high ? p_own : p_other;
            uint p_low = own_high ? p_other : p_own;
            float y_high = own_high ? y_own : y_other;
            float y_low = own_high ? y_other : y_own;
            uint param_11 = r_other;
            float s_other = margin_of(param_11, pc, v_2548);
            ulong delta = 4607182418800017408ul;
            if (pc.objective == 13)
            {
                float param_12 = y_high;
                float param_13 = y_low;
                uint param_14 = p_high;
                uint param_15 = p_low;
                ulong param_16 = idcg_inv;
                delta = rank_delta_ndcg(param_12, param_13, param_14, param_15, param_16, pc, v_2194);
            }
            else
            {
                if (pc.objective == 15)
                {
                    float param_17 = y_high;
                    float param_18 = y_low;
                    uint param_19 = p_high;
                    uint param_20 = p_low;
                    uint param_21 = first;
                    uint param_22 = n;
                    ulong _2829 = rank_delta_map(param_17, param_18, param_19, param_20, param_21, param_22, v_2284);
                    delta = _2829;
                }
            }
            float param_23 = own_high ? s_own : s_other;
            float param_24 = own_high ? s_other : s_own;
            ulong param_25 = delta;
            bool param_26 = by_diff;
            uint2 _2845 = rank_pair(param_23, param_24, param_25, param_26);
            uint2 lh = _2845;
            uint param_27 = lh.x;
            long l = rank_fixed(param_27);
            uint param_28 = lh.y;
            long h = rank_fixed(param_28);
            if (own_high)
            {
                _2857 = l;
            }
            else
            {
                _2857 = -l;
            }
            own_g += _2857;
            own_h += h;
            lambda_sum += l;
            if (own_high)
            {
                _2877 = -l;
            }
            else
            {
                _2877 = l;
            }
            uint param_29 = 4u * r_other;
            long param_30 = _2877;
            atomic_add64(param_29, param_30, v_2100);
            uint param_31 = (4u * r_other) + 2u;
            long param_32 = h;
            atomic_add64(param_31, param_32, v_2100);
        }
        uint param_33 = 4u * r_own;
        long param_34 = own_g;
        atomic_add64(param_33, param_34, v_2100);
        uint param_35 = (4u * r_own) + 2u;
        long param_36 = own_h;
        atomic_add64(param_35, param_36, v_2100);
        uint param_37 = q;
        long param_38 = lambda_sum;
        atomic_add64_query(param_37, param_38, v_2135);
    }
}

