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

constant uint _175_tmp [[function_constant(0)]];
constant uint _175 = is_function_constant_defined(_175_tmp) ? _175_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_175, 1u, 1u);

kernel void split_table(constant Push& pc [[buffer(0)]], device Level& _91 [[buffer(1)]], const device Records& _55 [[buffer(2)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _17 = gl_NumWorkGroups.x * WG;
    int _64;
    uint _96;
    uint _131;
    uint _157;
    for (uint stride = _17, s = gl_GlobalInvocationID.x; s < pc.num_splits; s += stride)
    {
        uint r = s * 27u;
        uint t = pc.table_first + (s * 16u);
        if (_55.records[r + 18u] == 2u)
        {
            _64 = -1;
        }
        else
        {
            _64 = int(_55.records[r + 1u]);
        }
        int feature = _64;
        bool _79 = feature >= 0;
        bool _87;
        if (_79)
        {
            _87 = _55.records[r + 18u] != 0u;
        }
        else
        {
            _87 = _79;
        }
        bool cat = _87;
        if (feature < 0)
        {
            _96 = 4294967295u;
        }
        else
        {
            _96 = _55.records[r + 2u];
        }
        _91.level0[t + 2u] = _96;
        bool _111 = feature < 0;
        bool _120;
        if (!_111)
        {
            _120 = _55.records[r + 3u] != 0u;
        }
        else
        {
            _120 = _111;
        }
        _91.level0[t + 3u] = uint(_120) | (cat ? 2u : 0u);
        if (feature < 0)
        {
            _131 = 0u;
        }
        else
        {
            _131 = uint(feature) * pc.column_words;
        }
        _91.level0[t + 6u] = _131;
        for (uint w = 0u; w < 8u; w++)
        {
            if (cat)
            {
                _157 = _55.records[(r + 19u) + w];
            }
            else
            {
                _157 = 0u;
            }
            _91.level0[(t + 8u) + w] = _157;
        }
    }
}

