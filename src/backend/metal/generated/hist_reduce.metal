#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Push
{
    uint hist_len;
    uint groups;
    uint partial_first;
};

struct Partial
{
    uint2 partial[1];
};

struct Hist
{
    uint4 hist[1];
};

constant uint _101_tmp [[function_constant(0)]];
constant uint _101 = is_function_constant_defined(_101_tmp) ? _101_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_101, 1u, 1u);

kernel void hist_reduce(constant Push& pc [[buffer(0)]], const device Partial& _56 [[buffer(1)]], device Hist& _78 [[buffer(2)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _17 = gl_NumWorkGroups.x * WG;
    for (uint stride = _17, b = gl_GlobalInvocationID.x; b < pc.hist_len; b += stride)
    {
        uint2 sum = uint2(0u);
        for (uint k = 0u; k < pc.groups; k++)
        {
            sum += _56.partial[((pc.partial_first + k) * pc.hist_len) + b];
        }
        _78.hist[b] = uint4(sum.x, (sum.x >> uint(31)) * 4294967295u, sum.y, (sum.y >> uint(31)) * 4294967295u);
    }
}

