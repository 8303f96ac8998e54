#pragma clang diagnostic ignored "-Wmissing-prototypes"

#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

struct Level
{
    uint level0[1];
};

struct Push
{
    uint num_splits;
    uint num_tiles;
    uint table_first;
    uint code_bits;
};

struct Tiles
{
    uint tile_left[1];
};

#ifndef SPIRV_CROSS_CONSTANT_ID_0
#define SPIRV_CROSS_CONSTANT_ID_0 256u
#endif
constant uint WG = SPIRV_CROSS_CONSTANT_ID_0;
constant uint _161 = (WG - 1u);
constant uint _191_tmp [[function_constant(0)]];
constant uint _191 = is_function_constant_defined(_191_tmp) ? _191_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_191, 1u, 1u);
constant uint TILE_ROWS = (WG * 8u);

static inline __attribute__((always_inline))
uint split_word(thread const uint& s, thread const uint& field, device Level& v_16, constant Push& pc)
{
    return v_16.level0[(pc.table_first + (s * 16u)) + field];
}

kernel void partition_scan(constant Push& pc [[buffer(0)]], device Tiles& _95 [[buffer(1)]], device Level& v_16 [[buffer(2)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]])
{
    threadgroup uint s_scan[WG];
    uint lid = gl_LocalInvocationID.x;
    uint _89;
    uint _126;
    for (uint s = gl_WorkGroupID.x; s < pc.num_splits; s += gl_NumWorkGroups.x)
    {
        uint param = s;
        uint param_1 = 4u;
        uint first = split_word(param, param_1, v_16, pc);
        uint param_2 = s;
        uint param_3 = 5u;
        uint tiles = split_word(param_2, param_3, v_16, pc);
        uint carry = 0u;
        for (uint base = 0u; base < tiles; base += WG)
        {
            uint t = base + lid;
            if (t < tiles)
            {
                _89 = _95.tile_left[first + t];
            }
            else
            {
                _89 = 0u;
            }
            uint mine = _89;
            s_scan[lid] = mine;
            threadgroup_barrier(mem_flags::mem_threadgroup);
            for (uint off = 1u; off < WG; off = off << uint(1))
            {
                if (lid >= off)
                {
                    _126 = s_scan[lid - off];
                }
                else
                {
                    _126 = 0u;
                }
                uint v = _126;
                threadgroup_barrier(mem_flags::mem_threadgroup);
                s_scan[lid] += v;
                threadgroup_barrier(mem_flags::mem_threadgroup);
            }
            if (t < tiles)
            {
                _95.tile_left[first + t] = (carry + s_scan[lid]) - mine;
            }
            carry += s_scan[_161];
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
        if (lid == 0u)
        {
            v_16.level0[2u * s] = carry;
            uint param_4 = s;
            uint param_5 = 1u;
            v_16.level0[(2u * s) + 1u] = split_word(param_4, param_5, v_16, pc) - carry;
        }
    }
}

