#pragma clang diagnostic ignored "-Wmissing-prototypes"

#include <metal_stdlib>
#include <simd/simd.h>

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

struct Counts
{
    uint child_rows[1];
};

#ifndef SPIRV_CROSS_CONSTANT_ID_0
#define SPIRV_CROSS_CONSTANT_ID_0 256u
#endif
constant uint WG = SPIRV_CROSS_CONSTANT_ID_0;

struct Rows
{
    uint rows[1];
};

struct Tiles
{
    uint tile_left[1];
};

struct Scratch
{
    uint scratch[1];
};

constant uint _220_tmp [[function_constant(0)]];
constant uint _220 = is_function_constant_defined(_220_tmp) ? _220_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_220, 1u, 1u);

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

kernel void partition_scatter(constant Push& pc [[buffer(0)]], const device Rows& _111 [[buffer(1)]], const device Column& v_16 [[buffer(2)]], const device Tiles& _175 [[buffer(3)]], const device Counts& _68 [[buffer(4)]], device Scratch& _208 [[buffer(5)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]])
{
    threadgroup uint s_scan[WG];
    uint lid = gl_LocalInvocationID.x;
    uint total_left = _68.child_rows[2u * pc.split];
    uint _105;
    uint _122;
    uint _150;
    uint _196;
    for (uint t = gl_WorkGroupID.x; t < pc.num_tiles; t += gl_NumWorkGroups.x)
    {
        uint i = (t * WG) + lid;
        bool live = i < pc.row_count;
        if (live)
        {
            _105 = _111.rows[pc.row_begin + i];
        }
        else
        {
            _105 = 0u;
        }
        uint row = _105;
        if (live)
        {
            uint param = row;
            _122 = goes_left(param, v_16, pc);
        }
        else
        {
            _122 = 0u;
        }
        uint left = _122;
        s_scan[lid] = left;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (uint off = 1u; off < WG; off = off << uint(1))
        {
            if (lid >= off)
            {
                _150 = s_scan[lid - off];
            }
            else
            {
                _150 = 0u;
            }
            uint v = _150;
            threadgroup_barrier(mem_flags::mem_threadgroup);
            s_scan[lid] += v;
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
        if (live)
        {
            uint left_before = (_175.tile_left[pc.tile_first + t] + s_scan[lid]) - left;
            uint right_before = i - left_before;
            if (left != 0u)
            {
                _196 = left_before;
            }
            else
            {
                _196 = total_left + right_before;
            }
            uint dest = _196;
            _208.scratch[pc.row_begin + dest] = row;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
}

