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

constant uint _164_tmp [[function_constant(0)]];
constant uint _164 = is_function_constant_defined(_164_tmp) ? _164_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_164, 1u, 1u);

kernel void split_table(constant Push& pc [[buffer(0)]], device Level& _79 [[buffer(1)]], const device Records& _55 [[buffer(2)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _17 = gl_NumWorkGroups.x * WG;
    uint _85;
    uint _120;
    uint _146;
    for (uint stride = _17, s = gl_GlobalInvocationID.x; s < pc.num_splits; s += stride)
    {
        uint r = s * 27u;
        uint t = pc.table_first + (s * 16u);
        int feature = int(_55.records[r + 1u]);
        bool _66 = feature >= 0;
        bool _75;
        if (_66)
        {
            _75 = _55.records[r + 18u] != 0u;
        }
        else
        {
            _75 = _66;
        }
        bool cat = _75;
        if (feature < 0)
        {
            _85 = 4294967295u;
        }
        else
        {
            _85 = _55.records[r + 2u];
        }
        _79.level0[t + 2u] = _85;
        bool _100 = feature < 0;
        bool _109;
        if (!_100)
        {
            _109 = _55.records[r + 3u] != 0u;
        }
        else
        {
            _109 = _100;
        }
        _79.level0[t + 3u] = uint(_109) | (cat ? 2u : 0u);
        if (feature < 0)
        {
            _120 = 0u;
        }
        else
        {
            _120 = uint(feature) * pc.column_words;
        }
        _79.level0[t + 6u] = _120;
        for (uint w = 0u; w < 8u; w++)
        {
            if (cat)
            {
                _146 = _55.records[(r + 19u) + w];
            }
            else
            {
                _146 = 0u;
            }
            _79.level0[(t + 8u) + w] = _146;
        }
    }
}

