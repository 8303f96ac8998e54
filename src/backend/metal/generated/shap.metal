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

struct CutPtr
{
    uint cut_ptr[1];
};

struct Cuts
{
    float cuts[1];
};

struct Push
{
    uint phase;
    uint num_rows;
    uint num_features;
    uint num_outputs;
    uint num_trees;
    uint num_nodes;
    uint approx;
    uint threads;
    uint slots;
    uint stack_len;
    uint row_words;
    uint has_row_base;
    uint tree;
    uint code_bits;
    uint set_words;
};

struct Bins
{
    uint bins[1];
};

struct CatSets
{
    uint cat_sets[1];
};

struct NodeNumbers
{
    uint2 numbers[1];
};

struct Sums
{
    uint2 sums[1];
};

struct Nodes
{
    uint4 nodes[1];
};

struct Leaf
{
    float leaf[1];
};

struct WalkDoubles
{
    uint2 walk_d[1];
};

struct WalkInts
{
    int walk_i[1];
};

struct Trees
{
    uint4 trees[1];
};

struct Features
{
    int features[1];
};

struct RowBase
{
    float row_base[1];
};

struct Out
{
    float outv[1];
};

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Data
{
    float data[1];
};

constant uint _4848_tmp [[function_constant(0)]];
constant uint _4848 = is_function_constant_defined(_4848_tmp) ? _4848_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_4848, 1u, 1u);

constant spvUnsafeArray<ulong, 8> _2104 = spvUnsafeArray<ulong, 8>({ 4587455105808860078ul, 4592676541814352788ul, 4594819256824452622ul, 4595701550497239869ul, 4595701550497239869ul, 4594819256824452622ul, 4592676541814352788ul, 4587455105808860078ul });
constant spvUnsafeArray<ulong, 8> _2248 = spvUnsafeArray<ulong, 8>({ 4581380056207800736ul, 4591990282875580296ul, 4597715268538136216ul, 4601026586797466415ul, 4603504935360237160ul, 4605045606738117210ul, 4606266686023465487ul, 4607003580212536883ul });
constant spvUnsafeArray<ulong, 14> _4864 = spvUnsafeArray<ulong, 14>({ 4460272573143870729ul, 4477122120089393304ul, 4493156764026750180ul, 4508805057796939612ul, 4523617214285662004ul, 4537941361671905306ul, 4551452160554016794ul, 4564047942368979991ul, 4575957461383581969ul, 4586165620538955093ul, 4595172819793696085ul, 4602678819172646912ul, 4607182418800017408ul, 4607182418800017408ul });
constant spvUnsafeArray<ulong, 13> _4879 = spvUnsafeArray<ulong, 13>({ 4585925428558828667ul, 4586426698778222948ul, 4587023449039406616ul, 4587745830934523688ul, 4588638185040256542ul, 4589468260265693457ul, 4590207312512236308ul, 4591215111030249286ul, 4592670820000712476ul, 4594314991293244562ul, 4596373779694328218ul, 4599676419421066581ul, 4607182418800017408ul });

static inline __attribute__((always_inline))
uint code_shift(constant Push& pc)
{
    return (pc.code_bits == 16u) ? 1u : 2u;
}

static inline __attribute__((always_inline))
uint order_key(thread const float& x)
{
    uint u = as_type<uint>(x);
    if (u == 2147483648u)
    {
        u = 0u;
    }
    uint _1706;
    if ((u & 2147483648u) != 0u)
    {
        _1706 = ~u;
    }
    else
    {
        _1706 = u | 2147483648u;
    }
    return _1706;
}

static inline __attribute__((always_inline))
uint bin_of(thread const uint& f, thread const float& v, const device CutPtr& v_1731, const device Cuts& v_1768)
{
    uint u = as_type<uint>(v);
    if ((u & 2147483647u) > 2139095040u)
    {
        return 0u;
    }
    uint first = v_1731.cut_ptr[f];
    uint len = v_1731.cut_ptr[f + 1u] - first;
    if (len == 0u)
    {
        return 1u;
    }
    float param = v;
    uint key = order_key(param);
    uint base = first;
    while (len > 1u)
    {
        uint half_len = len >> uint(1);
        float param_1 = v_1768.cuts[base + half_len];
        if (order_key(param_1) <= key)
        {
            base += half_len;
        }
        len -= half_len;
    }
    float param_2 = v_1768.cuts[base];
    return (((base - first) + uint(order_key(param_2) <= key)) + 1u) & 65535u;
}

static inline __attribute__((always_inline))
ulong f64_from_words(thread const uint2& w)
{
    return as_type<ulong>(w);
}

static inline __attribute__((always_inline))
ulong mean_of(thread const uint& node, constant Push& pc, const device NodeNumbers& v_1912)
{
    uint2 param = v_1912.numbers[pc.num_nodes + node];
    return f64_from_words(param);
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
            bool _449 = e > 2045;
            bool _458;
            if (!_449)
            {
                _458 = (sig + 512ul) >= 9223372036854775808ul;
            }
            else
            {
                _458 = _449;
            }
            if (_458)
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
            ulong _573;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _573 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _573 = a;
            }
            return _573;
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
                ulong _610;
                if (sb != 0ul)
                {
                    ulong param_4 = a;
                    ulong param_5 = b;
                    _610 = sf_propagate_nan(param_4, param_5);
                }
                else
                {
                    _610 = _sign | 9218868437227405312ul;
                }
                return _610;
            }
            ez = eb;
            ulong _626;
            if (ea != 0)
            {
                _626 = sa + 2305843009213693952ul;
            }
            else
            {
                _626 = sa << ulong(1);
            }
            sa = _626;
            ulong param_6 = sa;
            int param_7 = -d;
            sa = sf_shift_right_jam(param_6, param_7);
        }
        else
        {
            if (ea == 2047)
            {
                ulong _649;
                if (sa != 0ul)
                {
                    ulong param_8 = a;
                    ulong param_9 = b;
                    _649 = sf_propagate_nan(param_8, param_9);
                }
                else
                {
                    _649 = a;
                }
                return _649;
            }
            ez = ea;
            ulong _664;
            if (eb != 0)
            {
                _664 = sb + 2305843009213693952ul;
            }
            else
            {
                _664 = sb << ulong(1);
            }
            sb = _664;
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
    ulong _697 = sf_round_pack(param_12, param_13, param_14);
    return _697;
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
    ulong _530 = sf_round_pack(param_4, param_5, param_6);
    return _530;
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
            ulong _730;
            if ((sa | sb) != 0ul)
            {
                ulong param_2 = a;
                ulong param_3 = b;
                _730 = sf_propagate_nan(param_2, param_3);
            }
            else
            {
                _730 = 18444492273895866368ul;
            }
            return _730;
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
            ulong _811;
            if (sb != 0ul)
            {
                ulong param_8 = a;
                ulong param_9 = b;
                _811 = sf_propagate_nan(param_8, param_9);
            }
            else
            {
                _811 = _sign | 9218868437227405312ul;
            }
            return _811;
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
            ulong _851;
            if (sa != 0ul)
            {
                ulong param_12 = a;
                ulong param_13 = b;
                _851 = sf_propagate_nan(param_12, param_13);
            }
            else
            {
                _851 = a;
            }
            return _851;
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
    ulong _887 = sf_norm_round_pack(param_16, param_17, param_18);
    return _887;
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
    ulong _913 = sf_sub_mags(param_3, param_4, param_5);
    return _913;
}

static inline __attribute__((always_inline))
ulong f64_add(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_add(param, param_1);
}

static inline __attribute__((always_inline))
uint2 f64_words(thread const ulong& a)
{
    return as_type<uint2>(a);
}

static inline __attribute__((always_inline))
void sum_add(thread const uint& at, thread const ulong& v, device Sums& v_1940)
{
    uint2 param = v_1940.sums[at];
    ulong param_1 = f64_from_words(param);
    ulong param_2 = v;
    ulong param_3 = f64_add(param_1, param_2);
    v_1940.sums[at] = f64_words(param_3);
}

static inline __attribute__((always_inline))
bool is_leaf(thread const uint4& nd, thread const uint& local)
{
    return nd.x == local;
}

static inline __attribute__((always_inline))
uint bin_at(thread const uint& r, thread const uint& f, constant Push& pc, device Bins& v_1824)
{
    uint lane = (1u << code_shift(pc)) - 1u;
    return (v_1824.bins[(r * pc.row_words) + (f >> code_shift(pc))] >> ((f & lane) * pc.code_bits)) & ((1u << pc.code_bits) - 1u);
}

static inline __attribute__((always_inline))
bool goes_left(thread const uint& node, thread const uint4& nd, thread const uint& b, constant Push& pc, const device CatSets& v_1861)
{
    bool left;
    if ((nd.w >> uint(24)) != 0u)
    {
        left = ((v_1861.cat_sets[(node * pc.set_words) + (b >> uint(5))] >> (b & 31u)) & 1u) != 0u;
    }
    else
    {
        left = (b - 1u) < (nd.w & 65535u);
    }
    bool _1900;
    if (!left)
    {
        bool _1890 = b == 0u;
        bool _1899;
        if (_1890)
        {
            _1899 = ((nd.w >> uint(16)) & 255u) != 0u;
        }
        else
        {
            _1899 = _1890;
        }
        _1900 = _1899;
    }
    else
    {
        _1900 = left;
    }
    return _1900;
}

static inline __attribute__((always_inline))
ulong sf_sub(thread const ulong& a, thread const ulong& b)
{
    if (((a ^ b) & 9223372036854775808ul) == 0ul)
    {
        ulong param = a;
        ulong param_1 = b;
        ulong param_2 = a & 9223372036854775808ul;
        ulong _930 = sf_sub_mags(param, param_1, param_2);
        return _930;
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
void saabas_tree(thread const uint& first, thread const uint& r, thread const uint& phi, thread const uint& stride, constant Push& pc, device Bins& v_1824, const device CatSets& v_1861, const device NodeNumbers& v_1912, device Sums& v_1940, const device Nodes& v_1990)
{
    uint i = 0u;
    uint param = first;
    ulong v = mean_of(param, pc, v_1912);
    uint param_1 = phi + (pc.num_features * stride);
    ulong param_2 = v;
    sum_add(param_1, param_2, v_1940);
    uint _3831;
    for (;;)
    {
        uint4 n = v_1990.nodes[first + i];
        uint4 param_3 = n;
        uint param_4 = i;
        if (is_leaf(param_3, param_4))
        {
            break;
        }
        uint param_5 = r;
        uint param_6 = n.z;
        uint param_7 = first + i;
        uint4 param_8 = n;
        uint param_9 = bin_at(param_5, param_6, pc, v_1824);
        if (goes_left(param_7, param_8, param_9, pc, v_1861))
        {
            _3831 = n.x;
        }
        else
        {
            _3831 = n.y;
        }
        i = _3831;
        uint param_10 = first + i;
        ulong m = mean_of(param_10, pc, v_1912);
        ulong param_11 = m;
        ulong param_12 = v;
        uint param_13 = phi + (n.z * stride);
        ulong param_14 = f64_sub(param_11, param_12);
        sum_add(param_13, param_14, v_1940);
        v = m;
        continue;
    }
}

static inline __attribute__((always_inline))
ulong sf_from_f32(thread const uint& f)
{
    ulong _sign = ulong(f >> uint(31)) << ulong(63);
    int e = int((f >> uint(23)) & 255u);
    ulong m = ulong(f & 8388607u);
    if (e == 255)
    {
        ulong _1425;
        if (m != 0ul)
        {
            _1425 = ((_sign | 9218868437227405312ul) | 2251799813685248ul) | (m << ulong(29));
        }
        else
        {
            _1425 = _sign | 9218868437227405312ul;
        }
        return _1425;
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
        bool _1030 = sa != 0ul;
        bool _1039;
        if (!_1030)
        {
            _1039 = (eb == 2047) && (sb != 0ul);
        }
        else
        {
            _1039 = _1030;
        }
        if (_1039)
        {
            ulong param_2 = a;
            ulong param_3 = b;
            return sf_propagate_nan(param_2, param_3);
        }
        ulong _1054;
        if ((ulong(long(eb)) | sb) == 0ul)
        {
            _1054 = 18444492273895866368ul;
        }
        else
        {
            _1054 = _sign | 9218868437227405312ul;
        }
        return _1054;
    }
    if (eb == 2047)
    {
        if (sb != 0ul)
        {
            ulong param_4 = a;
            ulong param_5 = b;
            return sf_propagate_nan(param_4, param_5);
        }
        ulong _1082;
        if ((ulong(long(ea)) | sa) == 0ul)
        {
            _1082 = 18444492273895866368ul;
        }
        else
        {
            _1082 = _sign | 9218868437227405312ul;
        }
        return _1082;
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
    ulong _1161 = sf_round_pack(param_10, param_11, param_12);
    return _1161;
}

static inline __attribute__((always_inline))
ulong f64_mul(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_mul(param, param_1);
}

static inline __attribute__((always_inline))
ulong frac_of(thread const uint& node, const device NodeNumbers& v_1912)
{
    uint2 param = v_1912.numbers[node];
    return f64_from_words(param);
}

static inline __attribute__((always_inline))
ulong lin_p(thread const int& d, thread const int& f, thread spvUnsafeArray<int, 16>& lv_feature, thread spvUnsafeArray<ulong, 16>& lv_p)
{
    for (int j = d; j >= 1; j--)
    {
        if (lv_feature[j] == f)
        {
            return lv_p[j];
        }
    }
    return 4607182418800017408ul;
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
            ulong _1203;
            if (sb != 0ul)
            {
                ulong param_4 = a;
                ulong param_5 = b;
                _1203 = sf_propagate_nan(param_4, param_5);
            }
            else
            {
                _1203 = 18444492273895866368ul;
            }
            return _1203;
        }
        return _sign | 9218868437227405312ul;
    }
    if (eb == 2047)
    {
        ulong _1223;
        if (sb != 0ul)
        {
            ulong param_6 = a;
            ulong param_7 = b;
            _1223 = sf_propagate_nan(param_6, param_7);
        }
        else
        {
            _1223 = _sign;
        }
        return _1223;
    }
    if (eb == 0)
    {
        if (sb == 0ul)
        {
            ulong _1249;
            if ((ulong(long(ea)) | sa) == 0ul)
            {
                _1249 = 18444492273895866368ul;
            }
            else
            {
                _1249 = _sign | 9218868437227405312ul;
            }
            return _1249;
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
    ulong _1361 = sf_round_pack(param_10, param_11, param_12);
    return _1361;
}

static inline __attribute__((always_inline))
ulong f64_div(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_div(param, param_1);
}

static inline __attribute__((always_inline))
bool sf_eq(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    bool _1606 = sf_is_nan(param);
    bool _1613;
    if (!_1606)
    {
        ulong param_1 = b;
        _1613 = sf_is_nan(param_1);
    }
    else
    {
        _1613 = _1606;
    }
    if (_1613)
    {
        return false;
    }
    bool _1620 = a == b;
    bool _1629;
    if (!_1620)
    {
        _1629 = ((a | b) & 9223372036854775807ul) == 0ul;
    }
    else
    {
        _1629 = _1620;
    }
    return _1629;
}

static inline __attribute__((always_inline))
bool f64_eq(thread const ulong& a, thread const ulong& b)
{
    ulong param = a;
    ulong param_1 = b;
    return sf_eq(param, param_1);
}

static inline __attribute__((always_inline))
ulong f64_neg(thread const ulong& a)
{
    return a ^ 9223372036854775808ul;
}

static inline __attribute__((always_inline))
void linear_tree(thread const uint& first, thread const uint& r, thread const uint& phi, thread const uint& stride, thread const bool& with_pairs, thread const uint& pairs, constant Push& pc, device Bins& v_1824, const device CatSets& v_1861, const device NodeNumbers& v_1912, device Sums& v_1940, thread spvUnsafeArray<int, 16>& lv_feature, thread spvUnsafeArray<ulong, 16>& lv_p, const device Nodes& v_1990, thread spvUnsafeArray<int, 16>& lv_node, thread spvUnsafeArray<int, 16>& lv_stage, thread spvUnsafeArray<ulong, 16>& lv_zprod, thread spvUnsafeArray<spvUnsafeArray<ulong, 8>, 16>& lv_c, const device Leaf& v_2070, thread spvUnsafeArray<spvUnsafeArray<ulong, 8>, 16>& lv_r, thread spvUnsafeArray<spvUnsafeArray<ulong, 8>, 16>& lv_h)
{
    uint4 param = v_1990.nodes[first];
    uint param_1 = 0u;
    if (is_leaf(param, param_1))
    {
        return;
    }
    int d = 0;
    lv_node[0] = 0;
    lv_stage[0] = 0;
    lv_feature[0] = -1;
    lv_p[0] = 4607182418800017408ul;
    lv_zprod[0] = 4607182418800017408ul;
    for (int q = 0; q < 8; q++)
    {
        lv_c[0][q] = 4607182418800017408ul;
    }
    spvUnsafeArray<ulong, 8> h;
    for (int q_1 = 0; q_1 < 8; q_1++)
    {
        h[q_1] = 0ul;
    }
    uint _2130;
    ulong _2175;
    ulong cc;
    ulong _2320;
    ulong x;
    spvUnsafeArray<ulong, 8> pv;
    spvUnsafeArray<ulong, 8> x_1;
    for (;;)
    {
        uint local = uint(lv_node[d]);
        uint4 n = v_1990.nodes[first + local];
        uint4 param_2 = n;
        uint param_3 = local;
        if (is_leaf(param_2, param_3))
        {
            float param_4 = v_2070.leaf[first + local];
            ulong param_5 = lv_zprod[d];
            ulong param_6 = f64_from_float(param_4);
            ulong scale = f64_mul(param_5, param_6);
            for (int q_2 = 0; q_2 < 8; q_2++)
            {
                ulong param_7 = lv_c[d][q_2];
                ulong param_8 = scale;
                ulong param_9 = f64_mul(param_7, param_8);
                ulong param_10 = _2104[q_2];
                h[q_2] = f64_mul(param_9, param_10);
            }
            lv_stage[d] = 2;
        }
        else
        {
            if (lv_stage[d] < 2)
            {
                if (lv_stage[d] == 0)
                {
                    _2130 = n.x;
                }
                else
                {
                    _2130 = n.y;
                }
                uint child = _2130;
                uint param_11 = r;
                uint param_12 = n.z;
                uint param_13 = first + local;
                uint4 param_14 = n;
                uint param_15 = bin_at(param_11, param_12, pc, v_1824);
                bool follows = goes_left(param_13, param_14, param_15, pc, v_1861) == (lv_stage[d] == 0);
                uint param_16 = first + child;
                ulong z = frac_of(param_16, v_1912);
                int param_17 = d;
                int param_18 = int(n.z);
                ulong p_old = lin_p(param_17, param_18, lv_feature, lv_p);
                if (follows)
                {
                    ulong param_19 = p_old;
                    ulong param_20 = z;
                    _2175 = f64_div(param_19, param_20);
                }
                else
                {
                    _2175 = 0ul;
                }
                ulong p_new = _2175;
                ulong param_21 = p_old;
                ulong param_22 = 4607182418800017408ul;
                ulong a_old = f64_sub(param_21, param_22);
                ulong param_23 = p_new;
                ulong param_24 = 4607182418800017408ul;
                ulong a_new = f64_sub(param_23, param_24);
                lv_node[d + 1] = int(child);
                lv_stage[d + 1] = 0;
                lv_feature[d + 1] = int(n.z);
                lv_p[d + 1] = p_new;
                ulong param_25 = lv_zprod[d];
                ulong param_26 = z;
                lv_zprod[d + 1] = f64_mul(param_25, param_26);
                for (int q_3 = 0; q_3 < 8; q_3++)
                {
                    ulong param_27 = p_new;
                    ulong param_28 = 0ul;
                    if (f64_eq(param_27, param_28))
                    {
                        ulong param_29 = 4607182418800017408ul;
                        ulong param_30 = _2248[q_3];
                        ulong param_31 = lv_c[d][q_3];
                        ulong param_32 = f64_sub(param_29, param_30);
                        cc = f64_mul(param_31, param_32);
                    }
                    else
                    {
                        ulong param_33 = a_new;
                        ulong param_34 = _2248[q_3];
                        ulong param_35 = 4607182418800017408ul;
                        ulong param_36 = f64_mul(param_33, param_34);
                        ulong e = f64_add(param_35, param_36);
                        ulong param_37 = lv_c[d][q_3];
                        ulong param_38 = e;
                        cc = f64_mul(param_37, param_38);
                    }
                    ulong param_39 = a_old;
                    ulong param_40 = 0ul;
                    if (!f64_eq(param_39, param_40))
                    {
                        ulong param_41 = a_old;
                        ulong param_42 = _2248[q_3];
                        ulong param_43 = 4607182418800017408ul;
                        ulong param_44 = f64_mul(param_41, param_42);
                        ulong param_45 = cc;
                        ulong param_46 = f64_add(param_43, param_44);
                        cc = f64_div(param_45, param_46);
                    }
                    lv_c[d + 1][q_3] = cc;
                    if (with_pairs)
                    {
                        ulong param_47 = p_new;
                        ulong param_48 = 0ul;
                        if (f64_eq(param_47, param_48))
                        {
                            ulong param_49 = 4607182418800017408ul;
                            ulong param_50 = _2248[q_3];
                            ulong param_51 = 4607182418800017408ul;
                            ulong param_52 = f64_sub(param_49, param_50);
                            ulong param_53 = f64_div(param_51, param_52);
                            _2320 = f64_neg(param_53);
                        }
                        else
                        {
                            ulong param_54 = a_new;
                            ulong param_55 = _2248[q_3];
                            ulong param_56 = 4607182418800017408ul;
                            ulong param_57 = f64_mul(param_54, param_55);
                            ulong param_58 = a_new;
                            ulong param_59 = f64_add(param_56, param_57);
                            _2320 = f64_div(param_58, param_59);
                        }
                        lv_r[d + 1][q_3] = _2320;
                    }
                }
                d++;
                continue;
            }
            else
            {
                for (int q_4 = 0; q_4 < 8; q_4++)
                {
                    ulong param_60 = lv_h[d][q_4];
                    ulong param_61 = h[q_4];
                    h[q_4] = f64_add(param_60, param_61);
                }
            }
        }
        if (d == 0)
        {
            return;
        }
        ulong p_new_1 = lv_p[d];
        int param_62 = d - 1;
        int param_63 = lv_feature[d];
        ulong p_old_1 = lin_p(param_62, param_63, lv_feature, lv_p);
        ulong param_64 = p_old_1;
        ulong param_65 = 4607182418800017408ul;
        ulong a_old_1 = f64_sub(param_64, param_65);
        ulong param_66 = p_new_1;
        ulong param_67 = 4607182418800017408ul;
        ulong a_new_1 = f64_sub(param_66, param_67);
        ulong param_68 = p_new_1;
        ulong param_69 = 0ul;
        bool untaken = f64_eq(param_68, param_69);
        for (int q_5 = 0; q_5 < 8; q_5++)
        {
            if (untaken)
            {
                ulong param_70 = 4607182418800017408ul;
                ulong param_71 = _2248[q_5];
                ulong param_72 = 4607182418800017408ul;
                ulong param_73 = f64_sub(param_70, param_71);
                ulong inv = f64_div(param_72, param_73);
                ulong param_74 = h[q_5];
                ulong param_75 = inv;
                ulong param_76 = f64_mul(param_74, param_75);
                x = f64_neg(param_76);
            }
            else
            {
                ulong param_77 = a_new_1;
                ulong param_78 = _2248[q_5];
                ulong param_79 = 4607182418800017408ul;
                ulong param_80 = f64_mul(param_77, param_78);
                ulong param_81 = a_new_1;
                ulong param_82 = f64_add(param_79, param_80);
                ulong ratio = f64_div(param_81, param_82);
                ulong param_83 = h[q_5];
                ulong param_84 = ratio;
                x = f64_mul(param_83, param_84);
            }
            ulong param_85 = a_old_1;
            ulong param_86 = 0ul;
            if (!f64_eq(param_85, param_86))
            {
                ulong param_87 = h[q_5];
                ulong param_88 = a_old_1;
                ulong param_89 = a_old_1;
                ulong param_90 = _2248[q_5];
                ulong param_91 = 4607182418800017408ul;
                ulong param_92 = f64_mul(param_89, param_90);
                ulong param_93 = f64_mul(param_87, param_88);
                ulong param_94 = f64_add(param_91, param_92);
                ulong param_95 = x;
                ulong param_96 = f64_div(param_93, param_94);
                x = f64_sub(param_95, param_96);
            }
            pv[q_5] = x;
        }
        ulong param_97 = pv[0];
        ulong param_98 = pv[1];
        ulong param_99 = pv[2];
        ulong param_100 = pv[3];
        ulong param_101 = f64_add(param_97, param_98);
        ulong param_102 = f64_add(param_99, param_100);
        ulong param_103 = pv[4];
        ulong param_104 = pv[5];
        ulong param_105 = pv[6];
        ulong param_106 = pv[7];
        ulong param_107 = f64_add(param_103, param_104);
        ulong param_108 = f64_add(param_105, param_106);
        ulong param_109 = f64_add(param_101, param_102);
        ulong param_110 = f64_add(param_107, param_108);
        ulong v = f64_add(param_109, param_110);
        uint param_111 = phi + (uint(lv_feature[d]) * stride);
        ulong param_112 = v;
        sum_add(param_111, param_112, v_1940);
        if (with_pairs)
        {
            for (int k = 1; k < d; k++)
            {
                bool inner = lv_feature[k] != lv_feature[d];
                int _2584 = k + 1;
                for (int m = _2584; inner && (m < d); m++)
                {
                    inner = lv_feature[m] != lv_feature[k];
                }
                if (!inner)
                {
                    continue;
                }
                for (int q_6 = 0; q_6 < 8; q_6++)
                {
                    ulong param_113 = pv[q_6];
                    ulong param_114 = lv_r[k][q_6];
                    x_1[q_6] = f64_mul(param_113, param_114);
                }
                ulong param_115 = x_1[0];
                ulong param_116 = x_1[1];
                ulong param_117 = x_1[2];
                ulong param_118 = x_1[3];
                ulong param_119 = f64_add(param_115, param_116);
                ulong param_120 = f64_add(param_117, param_118);
                ulong param_121 = x_1[4];
                ulong param_122 = x_1[5];
                ulong param_123 = x_1[6];
                ulong param_124 = x_1[7];
                ulong param_125 = f64_add(param_121, param_122);
                ulong param_126 = f64_add(param_123, param_124);
                ulong param_127 = f64_add(param_119, param_120);
                ulong param_128 = f64_add(param_125, param_126);
                ulong s = f64_add(param_127, param_128);
                uint i = uint(lv_feature[d]);
                uint j = uint(lv_feature[k]);
                uint param_129 = pairs + (((min(i, j) * (pc.num_features + 1u)) + max(i, j)) * stride);
                ulong param_130 = s;
                sum_add(param_129, param_130, v_1940);
            }
        }
        d--;
        if (lv_stage[d] == 0)
        {
            for (int q_7 = 0; q_7 < 8; q_7++)
            {
                lv_h[d][q_7] = h[q_7];
            }
        }
        lv_stage[d]++;
        continue;
    }
}

static inline __attribute__((always_inline))
uint vi(thread const uint& e, thread const uint& field, constant Push& pc, thread uint& walk_id)
{
    return (((pc.slots + (e * 4u)) + field) * pc.threads) + walk_id;
}

static inline __attribute__((always_inline))
uint vd(thread const uint& e, thread const uint& field, constant Push& pc, thread uint& walk_id)
{
    return ((((3u * pc.slots) + (e * 3u)) + field) * pc.threads) + walk_id;
}

static inline __attribute__((always_inline))
void wd_set(thread const uint& at, thread const ulong& v, device WalkDoubles& v_2765)
{
    ulong param = v;
    v_2765.walk_d[at] = f64_words(param);
}

static inline __attribute__((always_inline))
void push_visit(thread const uint& e, thread const int& node, thread const int& depth, thread const uint& parent, thread const int& feature, thread const ulong& zero, thread const ulong& one, thread const ulong& fraction, constant Push& pc, thread uint& walk_id, device WalkDoubles& v_2765, device WalkInts& v_2816)
{
    uint param = e;
    uint param_1 = 0u;
    v_2816.walk_i[vi(param, param_1, pc, walk_id)] = node;
    uint param_2 = e;
    uint param_3 = 1u;
    v_2816.walk_i[vi(param_2, param_3, pc, walk_id)] = depth;
    uint param_4 = e;
    uint param_5 = 2u;
    v_2816.walk_i[vi(param_4, param_5, pc, walk_id)] = int(parent);
    uint param_6 = e;
    uint param_7 = 3u;
    v_2816.walk_i[vi(param_6, param_7, pc, walk_id)] = feature;
    uint param_8 = e;
    uint param_9 = 0u;
    uint param_10 = vd(param_8, param_9, pc, walk_id);
    ulong param_11 = zero;
    wd_set(param_10, param_11, v_2765);
    uint param_12 = e;
    uint param_13 = 1u;
    uint param_14 = vd(param_12, param_13, pc, walk_id);
    ulong param_15 = one;
    wd_set(param_14, param_15, v_2765);
    uint param_16 = e;
    uint param_17 = 2u;
    uint param_18 = vd(param_16, param_17, pc, walk_id);
    ulong param_19 = fraction;
    wd_set(param_18, param_19, v_2765);
}

static inline __attribute__((always_inline))
ulong wd(thread const uint& at, device WalkDoubles& v_2765)
{
    uint2 param = v_2765.walk_d[at];
    return f64_from_words(param);
}

static inline __attribute__((always_inline))
uint pz(thread const uint& s, constant Push& pc, thread uint& walk_id)
{
    return (s * pc.threads) + walk_id;
}

static inline __attribute__((always_inline))
uint po(thread const uint& s, constant Push& pc, thread uint& walk_id)
{
    return ((pc.slots + s) * pc.threads) + walk_id;
}

static inline __attribute__((always_inline))
uint pw(thread const uint& s, constant Push& pc, thread uint& walk_id)
{
    return (((2u * pc.slots) + s) * pc.threads) + walk_id;
}

static inline __attribute__((always_inline))
ulong sf_from_i64(thread const long& a)
{
    if ((ulong(a) & 9223372036854775807ul) == 0ul)
    {
        return (a != 0l) ? 14114281232179134464ul : 0ul;
    }
    ulong _sign = (a < 0l) ? 9223372036854775808ul : 0ul;
    ulong _1382;
    if (a < 0l)
    {
        _1382 = 0ul - ulong(a);
    }
    else
    {
        _1382 = ulong(a);
    }
    ulong m = _1382;
    ulong param = _sign;
    int param_1 = 1084;
    ulong param_2 = m;
    ulong _1398 = sf_norm_round_pack(param, param_1, param_2);
    return _1398;
}

static inline __attribute__((always_inline))
ulong f64_from_i64(thread const long& x)
{
    long param = x;
    return sf_from_i64(param);
}

static inline __attribute__((always_inline))
ulong f64_of_int(thread const int& v)
{
    long param = long(v);
    return f64_from_i64(param);
}

static inline __attribute__((always_inline))
void path_extend(thread const uint& at, thread const int& depth, thread const ulong& zero, thread const ulong& one, thread const int& feature, constant Push& pc, thread uint& walk_id, device WalkDoubles& v_2765, device WalkInts& v_2816)
{
    uint s = at + uint(depth);
    uint param = s;
    v_2816.walk_i[pz(param, pc, walk_id)] = feature;
    uint param_1 = s;
    uint param_2 = pz(param_1, pc, walk_id);
    ulong param_3 = zero;
    wd_set(param_2, param_3, v_2765);
    uint param_4 = s;
    uint param_5 = po(param_4, pc, walk_id);
    ulong param_6 = one;
    wd_set(param_5, param_6, v_2765);
    uint param_7 = s;
    uint param_8 = pw(param_7, pc, walk_id);
    ulong param_9 = (depth == 0) ? 4607182418800017408ul : 0ul;
    wd_set(param_8, param_9, v_2765);
    int param_10 = depth + 1;
    ulong param_11 = 4607182418800017408ul;
    ulong param_12 = f64_of_int(param_10);
    ulong inv = f64_div(param_11, param_12);
    int _2856 = depth - 1;
    for (int i = _2856; i >= 0; i--)
    {
        uint a = at + uint(i);
        uint param_13 = a;
        uint param_14 = pw(param_13, pc, walk_id);
        ulong w = wd(param_14, v_2765);
        uint param_15 = a + 1u;
        uint param_16 = a + 1u;
        uint param_17 = pw(param_16, pc, walk_id);
        ulong param_18 = one;
        ulong param_19 = w;
        int param_20 = i + 1;
        ulong param_21 = f64_mul(param_18, param_19);
        ulong param_22 = f64_of_int(param_20);
        ulong param_23 = f64_mul(param_21, param_22);
        ulong param_24 = inv;
        ulong param_25 = wd(param_17, v_2765);
        ulong param_26 = f64_mul(param_23, param_24);
        uint param_27 = pw(param_15, pc, walk_id);
        ulong param_28 = f64_add(param_25, param_26);
        wd_set(param_27, param_28, v_2765);
        uint param_29 = a;
        ulong param_30 = zero;
        ulong param_31 = w;
        int param_32 = depth - i;
        ulong param_33 = f64_mul(param_30, param_31);
        ulong param_34 = f64_of_int(param_32);
        ulong param_35 = f64_mul(param_33, param_34);
        ulong param_36 = inv;
        uint param_37 = pw(param_29, pc, walk_id);
        ulong param_38 = f64_mul(param_35, param_36);
        wd_set(param_37, param_38, v_2765);
    }
}

static inline __attribute__((always_inline))
void path_leaf(thread const uint& at, thread const int& depth, thread const ulong& scale, thread const uint& phi, thread const uint& stride, constant Push& pc, device Sums& v_1940, thread uint& walk_id, device WalkDoubles& v_2765, device WalkInts& v_2816)
{
    int param = depth + 1;
    ulong d1 = f64_of_int(param);
    ulong cold_sum = 0ul;
    for (int i = 0; i < depth; i++)
    {
        uint param_1 = at + uint(i);
        uint param_2 = pw(param_1, pc, walk_id);
        int param_3 = depth - i;
        ulong param_4 = d1;
        ulong param_5 = f64_of_int(param_3);
        ulong param_6 = wd(param_2, v_2765);
        ulong param_7 = f64_div(param_4, param_5);
        ulong param_8 = cold_sum;
        ulong param_9 = f64_mul(param_6, param_7);
        cold_sum = f64_add(param_8, param_9);
    }
    ulong sum;
    ulong _3267;
    for (int k = 1; k <= depth; k++)
    {
        uint a = at + uint(k);
        uint param_10 = a;
        uint param_11 = pz(param_10, pc, walk_id);
        ulong zero = wd(param_11, v_2765);
        uint param_12 = a;
        uint param_13 = po(param_12, pc, walk_id);
        ulong one = wd(param_13, v_2765);
        ulong param_14 = one;
        ulong param_15 = 0ul;
        if (!f64_eq(param_14, param_15))
        {
            uint param_16 = at + uint(depth);
            uint param_17 = pw(param_16, pc, walk_id);
            ulong next = wd(param_17, v_2765);
            ulong total = 0ul;
            int _3204 = depth - 1;
            for (int i_1 = _3204; i_1 >= 0; i_1--)
            {
                int param_18 = i_1 + 1;
                ulong param_19 = d1;
                ulong param_20 = f64_of_int(param_18);
                ulong param_21 = next;
                ulong param_22 = f64_div(param_19, param_20);
                ulong w = f64_mul(param_21, param_22);
                ulong param_23 = total;
                ulong param_24 = w;
                total = f64_add(param_23, param_24);
                uint param_25 = at + uint(i_1);
                uint param_26 = pw(param_25, pc, walk_id);
                ulong param_27 = w;
                ulong param_28 = zero;
                int param_29 = depth - i_1;
                ulong param_30 = f64_of_int(param_29);
                ulong param_31 = d1;
                ulong param_32 = f64_mul(param_27, param_28);
                ulong param_33 = f64_div(param_30, param_31);
                ulong param_34 = wd(param_26, v_2765);
                ulong param_35 = f64_mul(param_32, param_33);
                next = f64_sub(param_34, param_35);
            }
            sum = total;
        }
        else
        {
            ulong param_36 = zero;
            ulong param_37 = 0ul;
            if (f64_eq(param_36, param_37))
            {
                _3267 = 0ul;
            }
            else
            {
                ulong param_38 = cold_sum;
                ulong param_39 = zero;
                _3267 = f64_div(param_38, param_39);
            }
            sum = _3267;
        }
        uint param_40 = a;
        ulong param_41 = one;
        ulong param_42 = zero;
        ulong param_43 = sum;
        ulong param_44 = f64_sub(param_41, param_42);
        ulong param_45 = f64_mul(param_43, param_44);
        ulong param_46 = scale;
        uint param_47 = phi + (uint(v_2816.walk_i[pz(param_40, pc, walk_id)]) * stride);
        ulong param_48 = f64_mul(param_45, param_46);
        sum_add(param_47, param_48, v_1940);
    }
}

static inline __attribute__((always_inline))
void path_unwind(thread const uint& at, thread const int& depth, thread const int& k, constant Push& pc, thread uint& walk_id, device WalkDoubles& v_2765, device WalkInts& v_2816)
{
    uint param = at + uint(k);
    uint param_1 = po(param, pc, walk_id);
    ulong one = wd(param_1, v_2765);
    uint param_2 = at + uint(k);
    uint param_3 = pz(param_2, pc, walk_id);
    ulong zero = wd(param_3, v_2765);
    uint param_4 = at + uint(depth);
    uint param_5 = pw(param_4, pc, walk_id);
    ulong next = wd(param_5, v_2765);
    int param_6 = depth + 1;
    ulong d1 = f64_of_int(param_6);
    int _2966 = depth - 1;
    for (int i = _2966; i >= 0; i--)
    {
        uint a = at + uint(i);
        ulong param_7 = one;
        ulong param_8 = 0ul;
        if (!f64_eq(param_7, param_8))
        {
            uint param_9 = a;
            uint param_10 = pw(param_9, pc, walk_id);
            ulong w = wd(param_10, v_2765);
            ulong param_11 = next;
            ulong param_12 = d1;
            int param_13 = i + 1;
            ulong param_14 = f64_of_int(param_13);
            ulong param_15 = one;
            ulong param_16 = f64_mul(param_11, param_12);
            ulong param_17 = f64_mul(param_14, param_15);
            ulong nw = f64_div(param_16, param_17);
            uint param_18 = a;
            uint param_19 = pw(param_18, pc, walk_id);
            ulong param_20 = nw;
            wd_set(param_19, param_20, v_2765);
            ulong param_21 = nw;
            ulong param_22 = zero;
            int param_23 = depth - i;
            ulong param_24 = f64_mul(param_21, param_22);
            ulong param_25 = f64_of_int(param_23);
            ulong param_26 = f64_mul(param_24, param_25);
            ulong param_27 = d1;
            ulong param_28 = w;
            ulong param_29 = f64_div(param_26, param_27);
            next = f64_sub(param_28, param_29);
        }
        else
        {
            uint param_30 = a;
            uint param_31 = a;
            uint param_32 = pw(param_31, pc, walk_id);
            ulong param_33 = wd(param_32, v_2765);
            ulong param_34 = d1;
            int param_35 = depth - i;
            ulong param_36 = zero;
            ulong param_37 = f64_of_int(param_35);
            ulong param_38 = f64_mul(param_33, param_34);
            ulong param_39 = f64_mul(param_36, param_37);
            uint param_40 = pw(param_30, pc, walk_id);
            ulong param_41 = f64_div(param_38, param_39);
            wd_set(param_40, param_41, v_2765);
        }
    }
    for (int i_1 = k; i_1 < depth; i_1++)
    {
        uint a_1 = at + uint(i_1);
        uint param_42 = a_1;
        uint param_43 = a_1 + 1u;
        v_2816.walk_i[pz(param_42, pc, walk_id)] = v_2816.walk_i[pz(param_43, pc, walk_id)];
        uint param_44 = a_1;
        uint param_45 = a_1 + 1u;
        uint param_46 = pz(param_45, pc, walk_id);
        uint param_47 = pz(param_44, pc, walk_id);
        ulong param_48 = wd(param_46, v_2765);
        wd_set(param_47, param_48, v_2765);
        uint param_49 = a_1;
        uint param_50 = a_1 + 1u;
        uint param_51 = po(param_50, pc, walk_id);
        uint param_52 = po(param_49, pc, walk_id);
        ulong param_53 = wd(param_51, v_2765);
        wd_set(param_52, param_53, v_2765);
    }
}

static inline __attribute__((always_inline))
void alg2_visit(thread const uint& first, thread const uint& r, thread const uint& phi, thread const uint& stride, thread const int& condition, thread const int& cond_feature, thread int& top, thread const uint& node, thread int& depth, thread const uint& parent, thread const int& feature, thread const ulong& v_zero, thread const ulong& v_one, thread const ulong& fraction, constant Push& pc, device Bins& v_1824, const device CatSets& v_1861, const device NodeNumbers& v_1912, device Sums& v_1940, const device Nodes& v_1990, const device Leaf& v_2070, thread uint& walk_id, device WalkDoubles& v_2765, device WalkInts& v_2816)
{
    uint at = (parent + uint(depth)) + 1u;
    if (parent > 0u)
    {
        for (int i = 0; i <= depth; i++)
        {
            uint s = at + uint(i);
            uint p = parent + uint(i);
            uint param = s;
            uint param_1 = p;
            v_2816.walk_i[pz(param, pc, walk_id)] = v_2816.walk_i[pz(param_1, pc, walk_id)];
            uint param_2 = s;
            uint param_3 = p;
            uint param_4 = pz(param_3, pc, walk_id);
            uint param_5 = pz(param_2, pc, walk_id);
            ulong param_6 = wd(param_4, v_2765);
            wd_set(param_5, param_6, v_2765);
            uint param_7 = s;
            uint param_8 = p;
            uint param_9 = po(param_8, pc, walk_id);
            uint param_10 = po(param_7, pc, walk_id);
            ulong param_11 = wd(param_9, v_2765);
            wd_set(param_10, param_11, v_2765);
            uint param_12 = s;
            uint param_13 = p;
            uint param_14 = pw(param_13, pc, walk_id);
            uint param_15 = pw(param_12, pc, walk_id);
            ulong param_16 = wd(param_14, v_2765);
            wd_set(param_15, param_16, v_2765);
        }
    }
    if ((condition == 0) || (cond_feature != feature))
    {
        uint param_17 = at;
        int param_18 = depth;
        ulong param_19 = v_zero;
        ulong param_20 = v_one;
        int param_21 = feature;
        path_extend(param_17, param_18, param_19, param_20, param_21, pc, walk_id, v_2765, v_2816);
    }
    uint4 n = v_1990.nodes[first + node];
    uint4 param_22 = n;
    uint param_23 = node;
    if (is_leaf(param_22, param_23))
    {
        float param_24 = v_2070.leaf[first + node];
        ulong param_25 = f64_from_float(param_24);
        ulong param_26 = fraction;
        uint param_27 = at;
        int param_28 = depth;
        ulong param_29 = f64_mul(param_25, param_26);
        uint param_30 = phi;
        uint param_31 = stride;
        path_leaf(param_27, param_28, param_29, param_30, param_31, pc, v_1940, walk_id, v_2765, v_2816);
    }
    else
    {
        uint param_32 = r;
        uint param_33 = n.z;
        uint param_34 = first + node;
        uint4 param_35 = n;
        uint param_36 = bin_at(param_32, param_33, pc, v_1824);
        bool left = goes_left(param_34, param_35, param_36, pc, v_1861);
        uint _3498;
        if (left)
        {
            _3498 = n.x;
        }
        else
        {
            _3498 = n.y;
        }
        uint hot = _3498;
        uint _3509;
        if (left)
        {
            _3509 = n.y;
        }
        else
        {
            _3509 = n.x;
        }
        uint cold = _3509;
        uint param_37 = first + hot;
        ulong hot_zero = frac_of(param_37, v_1912);
        uint param_38 = first + cold;
        ulong cold_zero = frac_of(param_38, v_1912);
        ulong in_zero = 4607182418800017408ul;
        ulong in_one = 4607182418800017408ul;
        int k = 0;
        for (;;)
        {
            bool _3540 = k <= depth;
            bool _3555;
            if (_3540)
            {
                uint param_39 = at + uint(k);
                _3555 = v_2816.walk_i[pz(param_39, pc, walk_id)] != int(n.z);
            }
            else
            {
                _3555 = _3540;
            }
            if (_3555)
            {
                k++;
                continue;
            }
            else
            {
                break;
            }
        }
        if (k <= depth)
        {
            uint param_40 = at + uint(k);
            uint param_41 = pz(param_40, pc, walk_id);
            in_zero = wd(param_41, v_2765);
            uint param_42 = at + uint(k);
            uint param_43 = po(param_42, pc, walk_id);
            in_one = wd(param_43, v_2765);
            uint param_44 = at;
            int param_45 = depth;
            int param_46 = k;
            path_unwind(param_44, param_45, param_46, pc, walk_id, v_2765, v_2816);
            depth--;
        }
        ulong hot_fraction = fraction;
        ulong cold_fraction = fraction;
        bool _3593 = condition > 0;
        bool _3601;
        if (_3593)
        {
            _3601 = int(n.z) == cond_feature;
        }
        else
        {
            _3601 = _3593;
        }
        if (_3601)
        {
            cold_fraction = 0ul;
            depth--;
        }
        else
        {
            bool _3608 = condition < 0;
            bool _3616;
            if (_3608)
            {
                _3616 = int(n.z) == cond_feature;
            }
            else
            {
                _3616 = _3608;
            }
            if (_3616)
            {
                ulong param_47 = hot_fraction;
                ulong param_48 = hot_zero;
                hot_fraction = f64_mul(param_47, param_48);
                ulong param_49 = cold_fraction;
                ulong param_50 = cold_zero;
                cold_fraction = f64_mul(param_49, param_50);
                depth--;
            }
        }
        top++;
        ulong param_51 = cold_zero;
        ulong param_52 = in_zero;
        uint param_53 = uint(top);
        int param_54 = int(cold);
        int param_55 = depth + 1;
        uint param_56 = at;
        int param_57 = int(n.z);
        ulong param_58 = f64_mul(param_51, param_52);
        ulong param_59 = 0ul;
        ulong param_60 = cold_fraction;
        push_visit(param_53, param_54, param_55, param_56, param_57, param_58, param_59, param_60, pc, walk_id, v_2765, v_2816);
        top++;
        ulong param_61 = hot_zero;
        ulong param_62 = in_zero;
        uint param_63 = uint(top);
        int param_64 = int(hot);
        int param_65 = depth + 1;
        uint param_66 = at;
        int param_67 = int(n.z);
        ulong param_68 = f64_mul(param_61, param_62);
        ulong param_69 = in_one;
        ulong param_70 = hot_fraction;
        push_visit(param_63, param_64, param_65, param_66, param_67, param_68, param_69, param_70, pc, walk_id, v_2765, v_2816);
    }
}

static inline __attribute__((always_inline))
void alg2_tree(thread const uint& first, thread const uint& r, thread const uint& phi, thread const uint& stride, thread const int& condition, thread const int& cond_feature, constant Push& pc, device Bins& v_1824, const device CatSets& v_1861, const device NodeNumbers& v_1912, device Sums& v_1940, const device Nodes& v_1990, const device Leaf& v_2070, thread uint& walk_id, device WalkDoubles& v_2765, device WalkInts& v_2816)
{
    int top = 0;
    uint param = 0u;
    int param_1 = 0;
    int param_2 = 0;
    uint param_3 = 0u;
    int param_4 = -1;
    ulong param_5 = 4607182418800017408ul;
    ulong param_6 = 4607182418800017408ul;
    ulong param_7 = 4607182418800017408ul;
    push_visit(param, param_1, param_2, param_3, param_4, param_5, param_6, param_7, pc, walk_id, v_2765, v_2816);
    while (top >= 0)
    {
        uint e = uint(top);
        top--;
        uint param_8 = e;
        uint param_9 = 2u;
        uint param_10 = vd(param_8, param_9, pc, walk_id);
        ulong fraction = wd(param_10, v_2765);
        ulong param_11 = fraction;
        ulong param_12 = 0ul;
        if (!f64_eq(param_11, param_12))
        {
            uint param_13 = e;
            uint param_14 = 0u;
            uint param_15 = e;
            uint param_16 = 1u;
            uint param_17 = e;
            uint param_18 = 2u;
            uint param_19 = e;
            uint param_20 = 3u;
            uint param_21 = e;
            uint param_22 = 0u;
            uint param_23 = vd(param_21, param_22, pc, walk_id);
            uint param_24 = e;
            uint param_25 = 1u;
            uint param_26 = vd(param_24, param_25, pc, walk_id);
            uint param_27 = first;
            uint param_28 = r;
            uint param_29 = phi;
            uint param_30 = stride;
            int param_31 = condition;
            int param_32 = cond_feature;
            int param_33 = top;
            uint param_34 = uint(v_2816.walk_i[vi(param_13, param_14, pc, walk_id)]);
            int param_35 = v_2816.walk_i[vi(param_15, param_16, pc, walk_id)];
            uint param_36 = uint(v_2816.walk_i[vi(param_17, param_18, pc, walk_id)]);
            int param_37 = v_2816.walk_i[vi(param_19, param_20, pc, walk_id)];
            ulong param_38 = wd(param_23, v_2765);
            ulong param_39 = wd(param_26, v_2765);
            ulong param_40 = fraction;
            alg2_visit(param_27, param_28, param_29, param_30, param_31, param_32, param_33, param_34, param_35, param_36, param_37, param_38, param_39, param_40, pc, v_1824, v_1861, v_1912, v_1940, v_1990, v_2070, walk_id, v_2765, v_2816);
            top = param_33;
        }
    }
}

static inline __attribute__((always_inline))
void contributions(thread const uint& r, constant Push& pc, device Bins& v_1824, const device CatSets& v_1861, const device NodeNumbers& v_1912, device Sums& v_1940, thread spvUnsafeArray<int, 16>& lv_feature, thread spvUnsafeArray<ulong, 16>& lv_p, const device Nodes& v_1990, thread spvUnsafeArray<int, 16>& lv_node, thread spvUnsafeArray<int, 16>& lv_stage, thread spvUnsafeArray<ulong, 16>& lv_zprod, thread spvUnsafeArray<spvUnsafeArray<ulong, 8>, 16>& lv_c, const device Leaf& v_2070, thread spvUnsafeArray<spvUnsafeArray<ulong, 8>, 16>& lv_r, thread spvUnsafeArray<spvUnsafeArray<ulong, 8>, 16>& lv_h, thread uint& walk_id, device WalkDoubles& v_2765, device WalkInts& v_2816, const device Trees& v_3876)
{
    uint C = pc.num_features + 1u;
    uint n = pc.num_rows;
    uint t = pc.tree;
    uint4 tree = v_3876.trees[t];
    uint phi = (((t % pc.num_outputs) * C) * n) + r;
    if (pc.approx != 0u)
    {
        uint param = tree.x;
        uint param_1 = r;
        uint param_2 = phi;
        uint param_3 = n;
        saabas_tree(param, param_1, param_2, param_3, pc, v_1824, v_1861, v_1912, v_1940, v_1990);
        return;
    }
    if (tree.y != 0u)
    {
        uint param_4 = tree.x;
        uint param_5 = r;
        uint param_6 = phi;
        uint param_7 = n;
        bool param_8 = false;
        uint param_9 = 0u;
        linear_tree(param_4, param_5, param_6, param_7, param_8, param_9, pc, v_1824, v_1861, v_1912, v_1940, lv_feature, lv_p, v_1990, lv_node, lv_stage, lv_zprod, lv_c, v_2070, lv_r, lv_h);
    }
    else
    {
        uint param_10 = tree.x;
        uint param_11 = r;
        uint param_12 = phi;
        uint param_13 = n;
        int param_14 = 0;
        int param_15 = 0;
        alg2_tree(param_10, param_11, param_12, param_13, param_14, param_15, pc, v_1824, v_1861, v_1912, v_1940, v_1990, v_2070, walk_id, v_2765, v_2816);
    }
    uint param_16 = tree.x;
    uint param_17 = phi + (pc.num_features * n);
    ulong param_18 = mean_of(param_16, pc, v_1912);
    sum_add(param_17, param_18, v_1940);
}

static inline __attribute__((always_inline))
uint diag_at(constant Push& pc)
{
    return ((pc.num_outputs * (pc.num_features + 1u)) * (pc.num_features + 1u)) * pc.num_rows;
}

static inline __attribute__((always_inline))
uint on_at(constant Push& pc)
{
    return diag_at(pc) + ((pc.num_outputs * (pc.num_features + 1u)) * pc.num_rows);
}

static inline __attribute__((always_inline))
uint off_at(constant Push& pc)
{
    return on_at(pc) + ((pc.num_features + 1u) * pc.threads);
}

static inline __attribute__((always_inline))
void interactions(thread const uint& id, constant Push& pc, device Bins& v_1824, const device CatSets& v_1861, const device NodeNumbers& v_1912, device Sums& v_1940, const device Nodes& v_1990, const device Leaf& v_2070, thread uint& walk_id, device WalkDoubles& v_2765, device WalkInts& v_2816, const device Trees& v_3876, const device Features& v_4081)
{
    uint F = pc.num_features;
    uint C = F + 1u;
    uint n = pc.num_rows;
    uint T = pc.threads;
    uint i = id / n;
    uint r = id % n;
    uint t = pc.tree;
    uint4 tree = v_3876.trees[t];
    if (i == F)
    {
        if (pc.phase != 2u)
        {
            return;
        }
        uint d = (diag_at(pc) + (((t % pc.num_outputs) * C) * n)) + r;
        uint param = tree.x;
        uint param_1 = r;
        uint param_2 = d;
        uint param_3 = n;
        int param_4 = 0;
        int param_5 = 0;
        alg2_tree(param, param_1, param_2, param_3, param_4, param_5, pc, v_1824, v_1861, v_1912, v_1940, v_1990, v_2070, walk_id, v_2765, v_2816);
        uint param_6 = tree.x;
        uint param_7 = d + (F * n);
        ulong param_8 = mean_of(param_6, pc, v_1912);
        sum_add(param_7, param_8, v_1940);
        return;
    }
    uint a = tree.z;
    for (;;)
    {
        bool _4075 = a < tree.w;
        bool _4088;
        if (_4075)
        {
            _4088 = v_4081.features[a] != int(i);
        }
        else
        {
            _4088 = _4075;
        }
        if (_4088)
        {
            a++;
            continue;
        }
        else
        {
            break;
        }
    }
    if (a == tree.w)
    {
        return;
    }
    uint on = on_at(pc) + id;
    uint off = off_at(pc) + id;
    if (pc.phase == 2u)
    {
        uint param_9 = tree.x;
        uint param_10 = r;
        uint param_11 = on;
        uint param_12 = T;
        int param_13 = 1;
        int param_14 = int(i);
        alg2_tree(param_9, param_10, param_11, param_12, param_13, param_14, pc, v_1824, v_1861, v_1912, v_1940, v_1990, v_2070, walk_id, v_2765, v_2816);
        return;
    }
    if (pc.phase == 5u)
    {
        uint param_15 = tree.x;
        uint param_16 = r;
        uint param_17 = off;
        uint param_18 = T;
        int param_19 = -1;
        int param_20 = int(i);
        alg2_tree(param_15, param_16, param_17, param_18, param_19, param_20, pc, v_1824, v_1861, v_1912, v_1940, v_1990, v_2070, walk_id, v_2765, v_2816);
        return;
    }
    uint m = (((((t % pc.num_outputs) * C) + i) * C) * n) + r;
    for (uint b = tree.z; b < tree.w; b++)
    {
        uint j = uint(v_4081.features[b]);
        if (j != i)
        {
            uint2 param_21 = v_1940.sums[on + (j * T)];
            uint2 param_22 = v_1940.sums[off + (j * T)];
            ulong param_23 = f64_from_words(param_21);
            ulong param_24 = f64_from_words(param_22);
            ulong param_25 = f64_sub(param_23, param_24);
            ulong param_26 = 4611686018427387904ul;
            uint param_27 = m + (j * n);
            ulong param_28 = f64_div(param_25, param_26);
            sum_add(param_27, param_28, v_1940);
        }
        v_1940.sums[on + (j * T)] = uint2(0u);
        v_1940.sums[off + (j * T)] = uint2(0u);
    }
}

static inline __attribute__((always_inline))
void pairs_tree(thread const uint& r, constant Push& pc, device Bins& v_1824, const device CatSets& v_1861, const device NodeNumbers& v_1912, device Sums& v_1940, thread spvUnsafeArray<int, 16>& lv_feature, thread spvUnsafeArray<ulong, 16>& lv_p, const device Nodes& v_1990, thread spvUnsafeArray<int, 16>& lv_node, thread spvUnsafeArray<int, 16>& lv_stage, thread spvUnsafeArray<ulong, 16>& lv_zprod, thread spvUnsafeArray<spvUnsafeArray<ulong, 8>, 16>& lv_c, const device Leaf& v_2070, thread spvUnsafeArray<spvUnsafeArray<ulong, 8>, 16>& lv_r, thread spvUnsafeArray<spvUnsafeArray<ulong, 8>, 16>& lv_h, const device Trees& v_3876)
{
    uint F = pc.num_features;
    uint C = F + 1u;
    uint n = pc.num_rows;
    uint t = pc.tree;
    uint4 tree = v_3876.trees[t];
    uint k = t % pc.num_outputs;
    uint d = (diag_at(pc) + ((k * C) * n)) + r;
    uint param = tree.x;
    uint param_1 = r;
    uint param_2 = d;
    uint param_3 = n;
    bool param_4 = true;
    uint param_5 = (((k * C) * C) * n) + r;
    linear_tree(param, param_1, param_2, param_3, param_4, param_5, pc, v_1824, v_1861, v_1912, v_1940, lv_feature, lv_p, v_1990, lv_node, lv_stage, lv_zprod, lv_c, v_2070, lv_r, lv_h);
    uint param_6 = tree.x;
    uint param_7 = d + (F * n);
    ulong param_8 = mean_of(param_6, pc, v_1912);
    sum_add(param_7, param_8, v_1940);
}

static inline __attribute__((always_inline))
float base_of(thread const uint& r, thread const uint& k, constant Push& pc, const device Leaf& v_2070, const device RowBase& v_4305)
{
    float _4299;
    if (pc.has_row_base != 0u)
    {
        _4299 = v_4305.row_base[(r * pc.num_outputs) + k];
    }
    else
    {
        _4299 = v_2070.leaf[pc.num_nodes + k];
    }
    return _4299;
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
        uint _1494;
        if (frac != 0ul)
        {
            _1494 = (_sign | 2143289344u) | uint(frac >> ulong(29));
        }
        else
        {
            _1494 = _sign | 2139095040u;
        }
        return _1494;
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
    int _1532;
    if (ef >= 1)
    {
        _1532 = 29;
    }
    else
    {
        _1532 = 30 - ef;
    }
    int shift = _1532;
    if (shift >= 64)
    {
        return _sign;
    }
    ulong q = sig >> ulong(shift);
    ulong rest = sig & ((1ul << ulong(shift)) - 1ul);
    ulong mid = 1ul << ulong(shift - 1);
    bool _1562 = rest > mid;
    bool _1575;
    if (!_1562)
    {
        bool _1568 = rest == mid;
        bool _1574;
        if (_1568)
        {
            _1574 = (q & 1ul) != 0ul;
        }
        else
        {
            _1574 = _1568;
        }
        _1575 = _1574;
    }
    else
    {
        _1575 = _1562;
    }
    if (_1575)
    {
        q += 1ul;
    }
    uint _1583;
    if (ef >= 1)
    {
        _1583 = uint(ef - 1) << uint(23);
    }
    else
    {
        _1583 = 0u;
    }
    uint r = _1583 + uint(q);
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
void finish_pairs(thread const uint& id, constant Push& pc, device Sums& v_1940, const device Leaf& v_2070, const device RowBase& v_4305, device Out& v_4374)
{
    uint C = pc.num_features + 1u;
    uint n = pc.num_rows;
    uint ki = id / n;
    uint r = id % n;
    uint k = ki / C;
    uint i = ki % C;
    uint2 param = v_1940.sums[diag_at(pc) + id];
    ulong v = f64_from_words(param);
    if (i == (C - 1u))
    {
        uint param_1 = r;
        uint param_2 = k;
        float param_3 = base_of(param_1, param_2, pc, v_2070, v_4305);
        ulong param_4 = v;
        ulong param_5 = f64_from_float(param_3);
        v = f64_add(param_4, param_5);
    }
    uint mat = (((k * C) * C) * n) + r;
    uint o = (((r * pc.num_outputs) * C) + ki) * C;
    for (uint j = 0u; j < C; j++)
    {
        if (j == i)
        {
            continue;
        }
        uint2 param_6 = v_1940.sums[mat + (((min(i, j) * C) + max(i, j)) * n)];
        ulong param_7 = f64_from_words(param_6);
        ulong param_8 = 4611686018427387904ul;
        ulong m = f64_div(param_7, param_8);
        ulong param_9 = m;
        v_4374.outv[o + j] = as_type<float>(f64_to_float_bits(param_9));
        ulong param_10 = v;
        ulong param_11 = m;
        v = f64_sub(param_10, param_11);
    }
    ulong param_12 = v;
    v_4374.outv[o + i] = as_type<float>(f64_to_float_bits(param_12));
}

static inline __attribute__((always_inline))
void finish_contributions(thread const uint& id, constant Push& pc, device Sums& v_1940, const device Leaf& v_2070, const device RowBase& v_4305, device Out& v_4374)
{
    uint C = pc.num_features + 1u;
    uint width = pc.num_outputs * C;
    uint n = pc.num_rows;
    uint e = id / n;
    uint r = id % n;
    uint2 param = v_1940.sums[id];
    ulong v = f64_from_words(param);
    if ((e % C) == (C - 1u))
    {
        uint param_1 = r;
        uint param_2 = e / C;
        float param_3 = base_of(param_1, param_2, pc, v_2070, v_4305);
        ulong param_4 = v;
        ulong param_5 = f64_from_float(param_3);
        v = f64_add(param_4, param_5);
    }
    ulong param_6 = v;
    v_4374.outv[(r * width) + e] = as_type<float>(f64_to_float_bits(param_6));
}

static inline __attribute__((always_inline))
void finish_interactions(thread const uint& id, constant Push& pc, device Sums& v_1940, const device Leaf& v_2070, const device RowBase& v_4305, device Out& v_4374)
{
    uint C = pc.num_features + 1u;
    uint n = pc.num_rows;
    uint ki = id / n;
    uint r = id % n;
    uint k = ki / C;
    uint i = ki % C;
    uint2 param = v_1940.sums[diag_at(pc) + id];
    ulong v = f64_from_words(param);
    if (i == (C - 1u))
    {
        uint param_1 = r;
        uint param_2 = k;
        float param_3 = base_of(param_1, param_2, pc, v_2070, v_4305);
        ulong param_4 = v;
        ulong param_5 = f64_from_float(param_3);
        v = f64_add(param_4, param_5);
    }
    uint row = ((ki * C) * n) + r;
    uint o = (((r * pc.num_outputs) * C) + ki) * C;
    for (uint j = 0u; j < C; j++)
    {
        uint2 param_6 = v_1940.sums[row + (j * n)];
        ulong m = f64_from_words(param_6);
        ulong param_7 = m;
        v_4374.outv[o + j] = as_type<float>(f64_to_float_bits(param_7));
        if (j != i)
        {
            ulong param_8 = v;
            ulong param_9 = m;
            v = f64_sub(param_8, param_9);
        }
    }
    ulong param_10 = v;
    v_4374.outv[o + i] = as_type<float>(f64_to_float_bits(param_10));
}

kernel void shap(constant Push& pc [[buffer(0)]], const device Data& _4735 [[buffer(1)]], const device CutPtr& v_1731 [[buffer(2)]], const device Cuts& v_1768 [[buffer(3)]], const device Nodes& v_1990 [[buffer(4)]], const device Leaf& v_2070 [[buffer(5)]], const device Trees& v_3876 [[buffer(6)]], const device NodeNumbers& v_1912 [[buffer(7)]], const device Features& v_4081 [[buffer(8)]], const device CatSets& v_1861 [[buffer(9)]], device Bins& v_1824 [[buffer(10)]], device Sums& v_1940 [[buffer(11)]], device WalkDoubles& v_2765 [[buffer(12)]], device WalkInts& v_2816 [[buffer(13)]], device Out& v_4374 [[buffer(14)]], const device RowBase& v_4305 [[buffer(15)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint stride = gl_NumWorkGroups.x * WG;
    uint C = pc.num_features + 1u;
    uint n = pc.num_rows;
    uint count = n;
    bool _4647 = pc.phase == 2u;
    spvUnsafeArray<int, 16> lv_feature;
    spvUnsafeArray<ulong, 16> lv_p;
    spvUnsafeArray<int, 16> lv_node;
    spvUnsafeArray<int, 16> lv_stage;
    spvUnsafeArray<ulong, 16> lv_zprod;
    spvUnsafeArray<spvUnsafeArray<ulong, 8>, 16> lv_c;
    spvUnsafeArray<spvUnsafeArray<ulong, 8>, 16> lv_r;
    spvUnsafeArray<spvUnsafeArray<ulong, 8>, 16> lv_h;
    uint walk_id;
    bool _4654;
    if (!_4647)
    {
        _4654 = pc.phase == 5u;
    }
    else
    {
        _4654 = _4647;
    }
    bool _4662;
    if (!_4654)
    {
        _4662 = pc.phase == 6u;
    }
    else
    {
        _4662 = _4654;
    }
    if (_4662)
    {
        count = n * C;
    }
    else
    {
        bool _4671 = pc.phase == 3u;
        bool _4678;
        if (!_4671)
        {
            _4678 = pc.phase == 4u;
        }
        else
        {
            _4678 = _4671;
        }
        bool _4685;
        if (!_4678)
        {
            _4685 = pc.phase == 8u;
        }
        else
        {
            _4685 = _4678;
        }
        if (_4685)
        {
            count = (n * pc.num_outputs) * C;
        }
    }
    for (uint id = gl_GlobalInvocationID.x; id < count; id += stride)
    {
        walk_id = id;
        if (pc.phase == 0u)
        {
            uint rb = id * pc.row_words;
            uint lane = (1u << code_shift(pc)) - 1u;
            uint word = 0u;
            for (uint f = 0u; f < pc.num_features; f++)
            {
                uint param = f;
                float param_1 = _4735.data[(f * n) + id];
                word |= (bin_of(param, param_1, v_1731, v_1768) << ((f & lane) * pc.code_bits));
                bool _4760 = (f & lane) == lane;
                bool _4769;
                if (!_4760)
                {
                    _4769 = (f + 1u) == pc.num_features;
                }
                else
                {
                    _4769 = _4760;
                }
                if (_4769)
                {
                    v_1824.bins[rb + (f >> code_shift(pc))] = word;
                    word = 0u;
                }
            }
        }
        else
        {
            if (pc.phase == 1u)
            {
                uint param_2 = id;
                contributions(param_2, pc, v_1824, v_1861, v_1912, v_1940, lv_feature, lv_p, v_1990, lv_node, lv_stage, lv_zprod, lv_c, v_2070, lv_r, lv_h, walk_id, v_2765, v_2816, v_3876);
            }
            else
            {
                bool _4793 = pc.phase == 2u;
                bool _4800;
                if (!_4793)
                {
                    _4800 = pc.phase == 5u;
                }
                else
                {
                    _4800 = _4793;
                }
                bool _4807;
                if (!_4800)
                {
                    _4807 = pc.phase == 6u;
                }
                else
                {
                    _4807 = _4800;
                }
                if (_4807)
                {
                    uint param_3 = id;
                    interactions(param_3, pc, v_1824, v_1861, v_1912, v_1940, v_1990, v_2070, walk_id, v_2765, v_2816, v_3876, v_4081);
                }
                else
                {
                    if (pc.phase == 7u)
                    {
                        uint param_4 = id;
                        pairs_tree(param_4, pc, v_1824, v_1861, v_1912, v_1940, lv_feature, lv_p, v_1990, lv_node, lv_stage, lv_zprod, lv_c, v_2070, lv_r, lv_h, v_3876);
                    }
                    else
                    {
                        if (pc.phase == 8u)
                        {
                            uint param_5 = id;
                            finish_pairs(param_5, pc, v_1940, v_2070, v_4305, v_4374);
                        }
                        else
                        {
                            if (pc.phase == 3u)
                            {
                                uint param_6 = id;
                                finish_contributions(param_6, pc, v_1940, v_2070, v_4305, v_4374);
                            }
                            else
                            {
                                uint param_7 = id;
                                finish_interactions(param_7, pc, v_1940, v_2070, v_4305, v_4374);
                            }
                        }
                    }
                }
            }
        }
    }
}

