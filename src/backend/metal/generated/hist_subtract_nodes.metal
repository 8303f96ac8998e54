#pragma clang diagnostic ignored "-Wmissing-prototypes"

#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

struct Push
{
    uint hist_len;
    uint entries;
    uint table_first;
};

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Hist
{
    uint4 hist[1];
};

struct Table
{
    uint table[1];
};

constant uint _161_tmp [[function_constant(0)]];
constant uint _161 = is_function_constant_defined(_161_tmp) ? _161_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_161, 1u, 1u);

static inline __attribute__((always_inline))
uint2 sub64(thread const uint2& a, thread const uint2& b)
{
    uint borrow = uint(a.x < b.x);
    return uint2(a.x - b.x, (a.y - b.y) - borrow);
}

kernel void hist_subtract_nodes(constant Push& pc [[buffer(0)]], device Hist& _106 [[buffer(1)]], const device Table& _110 [[buffer(2)]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]])
{
    uint blocks = ((pc.hist_len + WG) - 1u) / WG;
    uint items = pc.entries * blocks;
    for (uint t = gl_WorkGroupID.x; t < items; t += gl_NumWorkGroups.x)
    {
        uint e = pc.table_first + (4u * (t / blocks));
        uint b = ((t % blocks) * WG) + gl_LocalInvocationID.x;
        if (b >= pc.hist_len)
        {
            continue;
        }
        uint4 p = _106.hist[_110.table[e] + b];
        uint4 q = _106.hist[_110.table[e + 1u] + b];
        uint2 param = p.xy;
        uint2 param_1 = q.xy;
        uint2 param_2 = p.zw;
        uint2 param_3 = q.zw;
        _106.hist[_110.table[e + 2u] + b] = uint4(sub64(param, param_1), sub64(param_2, param_3));
    }
}

