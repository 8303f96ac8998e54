#pragma clang diagnostic ignored "-Wunused-variable"

#include <metal_stdlib>
#include <simd/simd.h>
#include <metal_atomic>

using namespace metal;

struct Push
{
    uint row_begin;
    uint row_count;
    uint feature_first;
    uint feature_count;
    uint bin_first;
    uint bin_count;
    uint column_bytes;
    uint hist_len;
    uint partial_first;
};

#ifndef SPIRV_CROSS_CONSTANT_ID_1
#define SPIRV_CROSS_CONSTANT_ID_1 2048u
#endif
constant uint SHARED_BINS = SPIRV_CROSS_CONSTANT_ID_1;
constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Rows
{
    uint rows[1];
};

struct Grad
{
    uint4 grad[1];
};

struct Bins
{
    uint bins[1];
};

struct Offsets
{
    uint feature_offset[1];
};

struct Partial
{
    uint2 partial[1];
};

constant uint _209_tmp [[function_constant(0)]];
constant uint _209 = is_function_constant_defined(_209_tmp) ? _209_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_209, 1u, 1u);

kernel void histogram(constant Push& pc [[buffer(0)]], const device Rows& _75 [[buffer(1)]], const device Grad& _90 [[buffer(2)]], const device Bins& _118 [[buffer(3)]], const device Offsets& _136 [[buffer(4)]], device Partial& _194 [[buffer(5)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]])
{
    threadgroup uint s_g[SHARED_BINS];
    threadgroup uint s_h[SHARED_BINS];
    uint lid = gl_LocalInvocationID.x;
    for (uint i = lid; i < pc.bin_count; i += WG)
    {
        s_g[i] = 0u;
        s_h[i] = 0u;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint _53 = gl_NumWorkGroups.x * WG;
    uint _60 = (gl_WorkGroupID.x * WG) + lid;
    for (uint stride = _53, i_1 = _60; i_1 < pc.row_count; i_1 += stride)
    {
        uint r = _75.rows[pc.row_begin + i_1];
        uint4 g = _90.grad[r];
        for (uint k = 0u; k < pc.feature_count; k++)
        {
            uint byte_index = (k * pc.column_bytes) + r;
            uint b = (_118.bins[byte_index >> uint(2)] >> ((byte_index & 3u) * 8u)) & 255u;
            uint i_2 = (_136.feature_offset[pc.feature_first + k] - pc.bin_first) + b;
            uint _154 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_g[i_2], g.x, memory_order_relaxed);
            uint _159 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_h[i_2], g.z, memory_order_relaxed);
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint base = ((pc.partial_first + gl_WorkGroupID.x) * pc.hist_len) + pc.bin_first;
    for (uint i_3 = lid; i_3 < pc.bin_count; i_3 += WG)
    {
        _194.partial[base + i_3] = uint2(s_g[i_3], s_h[i_3]);
    }
}

