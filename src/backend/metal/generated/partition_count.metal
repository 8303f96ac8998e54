#pragma clang diagnostic ignored "-Wmissing-prototypes"
#pragma clang diagnostic ignored "-Wunused-variable"

#include <metal_stdlib>
#include <simd/simd.h>
#include <metal_atomic>

using namespace metal;

struct Column
{
    uint column[1];
};

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

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Rows
{
    uint rows[1];
};

struct Tiles
{
    uint tile_left[1];
};

constant uint _136_tmp [[function_constant(0)]];
constant uint _136 = is_function_constant_defined(_136_tmp) ? _136_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_136, 1u, 1u);

static inline __attribute__((always_inline))
uint goes_left(thread const uint& row, const device Column& v_16, constant Push& pc)
{
    uint b = (v_16.column[row >> uint(2)] >> ((row & 3u) * 8u)) & 255u;
    uint _37;
    if (b == 0u)
    {
        _37 = pc.default_left;
    }
    else
    {
        _37 = uint(b <= pc.bin);
    }
    return _37;
}

kernel void partition_count(constant Push& pc [[buffer(0)]], const device Rows& _102 [[buffer(1)]], const device Column& v_16 [[buffer(2)]], device Tiles& _123 [[buffer(3)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]])
{
    threadgroup uint s_count;
    uint lid = gl_LocalInvocationID.x;
    for (uint t = gl_WorkGroupID.x; t < pc.num_tiles; t += gl_NumWorkGroups.x)
    {
        if (lid == 0u)
        {
            s_count = 0u;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        uint i = (t * WG) + lid;
        bool _96 = i < pc.row_count;
        bool _112;
        if (_96)
        {
            uint param = _102.rows[pc.row_begin + i];
            _112 = goes_left(param, v_16, pc) != 0u;
        }
        else
        {
            _112 = _96;
        }
        if (_112)
        {
            uint _115 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_count, 1u, memory_order_relaxed);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (lid == 0u)
        {
            _123.tile_left[pc.tile_first + t] = s_count;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
}

