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

constant uint _295_tmp [[function_constant(0)]];
constant uint _295 = is_function_constant_defined(_295_tmp) ? _295_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_295, 1u, 1u);

struct MapSums
{
    uint4 map_sums[1];
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

constant spvUnsafeArray<ulong, 14> _320 = spvUnsafeArray<ulong, 14>({ 4460272573143870729ul, 4477122120089393304ul, 4493156764026750180ul, 4508805057796939612ul, 4523617214285662004ul, 4537941361671905306ul, 4551452160554016794ul, 4564047942368979991ul, 4575957461383581969ul, 4586165620538955093ul, 4595172819793696085ul, 4602678819172646912ul, 4607182418800017408ul, 4607182418800017408ul });
constant spvUnsafeArray<ulong, 13> _335 = spvUnsafeArray<ulong, 13>({ 4585925428558828667ul, 4586426698778222948ul, 4587023449039406616ul, 4587745830934523688ul, 4588638185040256542ul, 4589468260265693457ul, 4590207312512236308ul, 4591215111030249286ul, 4592670820000712476ul, 4594314991293244562ul, 4596373779694328218ul, 4599676419421066581ul, 4607182418800017408ul });

static inline __attribute__((always_inline))
uint query_of(thread const uint& r, constant Push& pc, const device GroupPtr& v_63)
{
    uint lo = 0u;
    uint hi = pc.num_groups - 1u;
    while (lo < hi)
    {
        uint mid = ((lo + hi) + 1u) >> uint(1);
        if (v_63.group_ptr[mid] <= r)
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
uint order_key(thread const float& v)
{
    uint u = as_type<uint>(v);
    if (u == 2147483648u)
    {
        u = 0u;
    }
    uint _91;
    if ((u & 2147483648u) != 0u)
    {
        _91 = ~u;
    }
    else
    {
        _91 = u | 2147483648u;
    }
    return _91;
}

static inline __attribute__((always_inline))
uint key_at(thread const uint& first, thread const uint& i, constant Push& pc, const device Margins& v_127, const device Labels& v_148, device Order& v_152)
{
    if (pc.mode == 0u)
    {
        float param = v_127.margins[((first + i) * pc.num_outputs) + pc.output_index];
        return order_key(param);
    }
    float param_1 = v_148.label[v_152.order[first + i]];
    return order_key(param_1);
}

static inline __attribute__((always_inline))
bool key_before(thread const uint& ka, thread const uint& ia, thread const uint& kb, thread const uint& ib)
{
    bool _104 = ka > kb;
    bool _115;
    if (!_104)
    {
        _115 = (ka == kb) && (ia < ib);
    }
    else
    {
        _115 = _104;
    }
    return _115;
}

kernel void rank_order(constant Push& pc [[buffer(0)]], const device GroupPtr& v_63 [[buffer(1)]], const device Margins& v_127 [[buffer(2)]], const device Labels& v_148 [[buffer(3)]], device Order& v_152 [[buffer(4)]], device YOrder& _272 [[buffer(5)]], device Runs& _281 [[buffer(6)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _172 = gl_NumWorkGroups.x * WG;
    for (uint stride = _172, x = gl_GlobalInvocationID.x; x < pc.num_rows; x += stride)
    {
        uint param = x;
        uint q = query_of(param, pc, v_63);
        uint first = v_63.group_ptr[q];
        uint n = v_63.group_ptr[q + 1u] - first;
        uint i = x - first;
        uint param_1 = first;
        uint param_2 = i;
        uint key = key_at(param_1, param_2, pc, v_127, v_148, v_152);
        uint before = 0u;
        uint greater = 0u;
        uint _equal = 0u;
        for (uint j = 0u; j < n; j++)
        {
            uint param_3 = first;
            uint param_4 = j;
            uint kj = key_at(param_3, param_4, pc, v_127, v_148, v_152);
            uint param_5 = kj;
            uint param_6 = j;
            uint param_7 = key;
            uint param_8 = i;
            if (key_before(param_5, param_6, param_7, param_8))
            {
                before++;
            }
            if (kj > key)
            {
                greater++;
            }
            if (kj == key)
            {
                _equal++;
            }
        }
        if (pc.mode == 0u)
        {
            v_152.order[first + before] = x;
        }
        else
        {
            _272.yorder[first + before] = i;
            _281.runs[first + before] = uint2(greater, greater + _equal);
        }
    }
}

