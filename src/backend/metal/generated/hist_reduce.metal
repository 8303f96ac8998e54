#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

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

#ifndef SPIRV_CROSS_CONSTANT_ID_0
#define SPIRV_CROSS_CONSTANT_ID_0 256u
#endif
constant uint WG = SPIRV_CROSS_CONSTANT_ID_0;
constant uint slices = (WG / 32u);

struct Hist
{
    uint4 hist[1];
};

constant uint _165_tmp [[function_constant(0)]];
constant uint _165 = is_function_constant_defined(_165_tmp) ? _165_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_165, 1u, 1u);

kernel void hist_reduce(constant Push& pc [[buffer(0)]], const device Partial& _79 [[buffer(1)]], device Hist& _141 [[buffer(2)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]])
{
    threadgroup uint2 s_sum[WG];
    uint lid = gl_LocalInvocationID.x;
    uint lane = lid % 32u;
    uint slice = lid / 32u;
    uint blocks = ((pc.hist_len + 32u) - 1u) / 32u;
    for (uint blk = gl_WorkGroupID.x; blk < blocks; blk += gl_NumWorkGroups.x)
    {
        uint b = (blk * 32u) + lane;
        uint2 sum = uint2(0u);
        if (b < pc.hist_len)
        {
            for (uint k = slice; k < pc.groups; k += slices)
            {
                sum += _79.partial[((pc.partial_first + k) * pc.hist_len) + b];
            }
        }
        s_sum[lid] = sum;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        bool _109 = slice == 0u;
        bool _116;
        if (_109)
        {
            _116 = b < pc.hist_len;
        }
        else
        {
            _116 = _109;
        }
        if (_116)
        {
            for (uint s = 1u; s < slices; s++)
            {
                sum += s_sum[(s * 32u) + lane];
            }
            _141.hist[b] = uint4(sum.x, (sum.x >> uint(31)) * 4294967295u, sum.y, (sum.y >> uint(31)) * 4294967295u);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
}

