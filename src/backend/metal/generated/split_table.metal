#pragma clang diagnostic ignored "-Wmissing-prototypes"

#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Push
{
    uint num_splits;
    uint table_first;
    uint column_words;
};

struct Records
{
    uint records[1];
};

struct Level
{
    uint level0[1];
};

constant uint _224_tmp [[function_constant(0)]];
constant uint _224 = is_function_constant_defined(_224_tmp) ? _224_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_224, 1u, 1u);

static inline __attribute__((always_inline))
uint range_word(thread const uint& w, thread const uint& bin)
{
    uint lo = max(1u, (32u * w));
    uint hi = min(bin, ((32u * w) + 31u));
    if (lo > hi)
    {
        return 0u;
    }
    uint n = (hi - lo) + 1u;
    uint _41;
    if (n == 32u)
    {
        _41 = 4294967295u;
    }
    else
    {
        _41 = (1u << n) - 1u;
    }
    return _41 << (lo - (32u * w));
}

kernel void split_table(constant Push& pc [[buffer(0)]], device Level& _112 [[buffer(1)]], const device Records& _102 [[buffer(2)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _65 = gl_NumWorkGroups.x * WG;
    uint _118;
    uint _150;
    uint _178;
    uint _201;
    for (uint stride = _65, s = gl_GlobalInvocationID.x; s < pc.num_splits; s += stride)
    {
        uint r = s * 27u;
        uint t = pc.table_first + (s * 16u);
        int feature = int(_102.records[r + 1u]);
        if (feature < 0)
        {
            _118 = 255u;
        }
        else
        {
            _118 = _102.records[r + 2u];
        }
        _112.level0[t + 2u] = _118;
        bool _133 = feature < 0;
        bool _142;
        if (!_133)
        {
            _142 = _102.records[r + 3u] != 0u;
        }
        else
        {
            _142 = _133;
        }
        _112.level0[t + 3u] = uint(_142);
        if (feature < 0)
        {
            _150 = 0u;
        }
        else
        {
            _150 = uint(feature) * pc.column_words;
        }
        _112.level0[t + 6u] = _150;
        bool _165 = feature >= 0;
        bool _174;
        if (_165)
        {
            _174 = _102.records[r + 18u] != 0u;
        }
        else
        {
            _174 = _165;
        }
        bool cat = _174;
        if (feature < 0)
        {
            _178 = 255u;
        }
        else
        {
            _178 = _102.records[r + 2u];
        }
        uint bin = _178;
        for (uint w = 0u; w < 8u; w++)
        {
            if (cat)
            {
                _201 = _102.records[(r + 19u) + w];
            }
            else
            {
                uint param = w;
                uint param_1 = bin;
                _201 = range_word(param, param_1);
            }
            _112.level0[(t + 8u) + w] = _201;
        }
    }
}

