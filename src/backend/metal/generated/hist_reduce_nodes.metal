#pragma clang diagnostic ignored "-Wmissing-prototypes"

#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

struct Partial
{
    uint2 partial[1];
};

#ifndef SPIRV_CROSS_CONSTANT_ID_0
#define SPIRV_CROSS_CONSTANT_ID_0 256u
#endif
constant uint WG = SPIRV_CROSS_CONSTANT_ID_0;
constant uint slices = (WG / 32u);

struct Hist
{
    uint4 hist[1];
};

struct Push
{
    uint hist_len;
    uint entries;
    uint table_first;
};

struct Table
{
    uint table[1];
};

constant uint _209_tmp [[function_constant(0)]];
constant uint _209 = is_function_constant_defined(_209_tmp) ? _209_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_209, 1u, 1u);

static inline __attribute__((always_inline))
void reduce_block(thread const uint& blk, thread const uint& hist_len, thread const uint& groups, thread const uint& partial_first, thread const uint& hist_first, thread uint3& gl_LocalInvocationID, const device Partial& v_59, threadgroup uint2 (&s_sum)[WG], device Hist& v_119)
{
    uint lid = gl_LocalInvocationID.x;
    uint lane = lid % 32u;
    uint slice = lid / 32u;
    uint b = (blk * 32u) + lane;
    uint2 sum = uint2(0u);
    if (b < hist_len)
    {
        for (uint k = slice; k < groups; k += slices)
        {
            sum += v_59.partial[((partial_first + k) * hist_len) + b];
        }
    }
    s_sum[lid] = sum;
    threadgroup_barrier(mem_flags::mem_threadgroup);
    if ((slice == 0u) && (b < hist_len))
    {
        for (uint s = 1u; s < slices; s++)
        {
            sum += s_sum[(s * 32u) + lane];
        }
        v_119.hist[hist_first + b] = uint4(sum.x, (sum.x >> uint(31)) * 4294967295u, sum.y, (sum.y >> uint(31)) * 4294967295u);
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
}

kernel void hist_reduce_nodes(constant Push& pc [[buffer(0)]], const device Partial& v_59 [[buffer(1)]], device Hist& v_119 [[buffer(2)]], const device Table& _183 [[buffer(3)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]])
{
    threadgroup uint2 s_sum[WG];
    uint blocks = ((pc.hist_len + 32u) - 1u) / 32u;
    uint items = pc.entries * blocks;
    for (uint t = gl_WorkGroupID.x; t < items; t += gl_NumWorkGroups.x)
    {
        uint e = pc.table_first + (4u * (t / blocks));
        uint param = t % blocks;
        uint param_1 = pc.hist_len;
        uint param_2 = _183.table[e + 1u];
        uint param_3 = _183.table[e];
        uint param_4 = _183.table[e + 2u];
        reduce_block(param, param_1, param_2, param_3, param_4, gl_LocalInvocationID, v_59, s_sum, v_119);
    }
}

