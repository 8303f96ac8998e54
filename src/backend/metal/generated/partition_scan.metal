#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

struct Push
{
    uint row_begin;
    uint row_count;
    uint bin;
    uint default_left;
    uint tile_first;
    uint num_tiles;
    uint split;
};

struct Tiles
{
    uint tile_left[1];
};

#ifndef SPIRV_CROSS_CONSTANT_ID_0
#define SPIRV_CROSS_CONSTANT_ID_0 256u
#endif
constant uint WG = SPIRV_CROSS_CONSTANT_ID_0;
constant uint _121 = (WG - 1u);

struct Counts
{
    uint child_rows[1];
};

constant uint _151_tmp [[function_constant(0)]];
constant uint _151 = is_function_constant_defined(_151_tmp) ? _151_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_151, 1u, 1u);

kernel void partition_scan(constant Push& pc [[buffer(0)]], device Tiles& _49 [[buffer(1)]], device Counts& _135 [[buffer(2)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]])
{
    threadgroup uint s_scan[WG];
    uint lid = gl_LocalInvocationID.x;
    uint carry = 0u;
    uint _43;
    uint _84;
    for (uint base = 0u; base < pc.num_tiles; base += WG)
    {
        uint t = base + lid;
        if (t < pc.num_tiles)
        {
            _43 = _49.tile_left[pc.tile_first + t];
        }
        else
        {
            _43 = 0u;
        }
        uint mine = _43;
        s_scan[lid] = mine;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (uint off = 1u; off < WG; off = off << uint(1))
        {
            if (lid >= off)
            {
                _84 = s_scan[lid - off];
            }
            else
            {
                _84 = 0u;
            }
            uint v = _84;
            threadgroup_barrier(mem_flags::mem_threadgroup);
            s_scan[lid] += v;
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
        if (t < pc.num_tiles)
        {
            _49.tile_left[pc.tile_first + t] = (carry + s_scan[lid]) - mine;
        }
        carry += s_scan[_121];
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
    if (lid == 0u)
    {
        _135.child_rows[2u * pc.split] = carry;
        _135.child_rows[(2u * pc.split) + 1u] = pc.row_count - carry;
    }
}

