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

constant uint _119_tmp [[function_constant(0)]];
constant uint _119 = is_function_constant_defined(_119_tmp) ? _119_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_119, 1u, 1u);

kernel void split_table(constant Push& pc [[buffer(0)]], device Level& _66 [[buffer(1)]], const device Records& _55 [[buffer(2)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _17 = gl_NumWorkGroups.x * WG;
    uint _72;
    uint _104;
    for (uint stride = _17, s = gl_GlobalInvocationID.x; s < pc.num_splits; s += stride)
    {
        uint r = s * 18u;
        uint t = pc.table_first + (s * 8u);
        int feature = int(_55.records[r + 1u]);
        if (feature < 0)
        {
            _72 = 255u;
        }
        else
        {
            _72 = _55.records[r + 2u];
        }
        _66.level0[t + 2u] = _72;
        bool _87 = feature < 0;
        bool _96;
        if (!_87)
        {
            _96 = _55.records[r + 3u] != 0u;
        }
        else
        {
            _96 = _87;
        }
        _66.level0[t + 3u] = uint(_96);
        if (feature < 0)
        {
            _104 = 0u;
        }
        else
        {
            _104 = uint(feature) * pc.column_words;
        }
        _66.level0[t + 6u] = _104;
    }
}

