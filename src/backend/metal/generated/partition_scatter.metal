#pragma clang diagnostic ignored "-Wmissing-prototypes"

#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

struct Rows0
{
    uint rows0[1];
};

struct Rows1
{
    uint rows1[1];
};

struct Rows2
{
    uint rows2[1];
};

struct Rows3
{
    uint rows3[1];
};

struct Rows4
{
    uint rows4[1];
};

struct Rows5
{
    uint rows5[1];
};

struct Rows6
{
    uint rows6[1];
};

struct Rows7
{
    uint rows7[1];
};

struct Scratch0
{
    uint scratch0[1];
};

struct Scratch1
{
    uint scratch1[1];
};

struct Scratch2
{
    uint scratch2[1];
};

struct Scratch3
{
    uint scratch3[1];
};

struct Scratch4
{
    uint scratch4[1];
};

struct Scratch5
{
    uint scratch5[1];
};

struct Scratch6
{
    uint scratch6[1];
};

struct Scratch7
{
    uint scratch7[1];
};

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
constant uint WINDOW_SHIFT_tmp [[function_constant(2)]];
constant uint WINDOW_SHIFT = is_function_constant_defined(WINDOW_SHIFT_tmp) ? WINDOW_SHIFT_tmp : 30u;
constant uint LIST_WINDOW_SHIFT = (WINDOW_SHIFT - 2u);

struct Tiles
{
    uint tile_left[1];
};

constant uint _418_tmp [[function_constant(0)]];
constant uint _418 = is_function_constant_defined(_418_tmp) ? _418_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_418, 1u, 1u);
constant uint GRAD_WINDOW_SHIFT = (WINDOW_SHIFT - 4u);

static inline __attribute__((always_inline))
uint window_of(thread const uint& i, thread const uint& shift)
{
    return i >> shift;
}

static inline __attribute__((always_inline))
uint window_index(thread const uint& i, thread const uint& shift)
{
    return i & ((1u << shift) - 1u);
}

static inline __attribute__((always_inline))
uint rows_at(thread const uint& w, thread const uint& j, const device Rows0& v_57, const device Rows1& v_68, const device Rows2& v_76, const device Rows3& v_84, const device Rows4& v_92, const device Rows5& v_100, const device Rows6& v_108, const device Rows7& v_116)
{
    switch (w)
    {
        case 0u:
        {
            return v_57.rows0[j];
        }
        case 1u:
        {
            return v_68.rows1[j];
        }
        case 2u:
        {
            return v_76.rows2[j];
        }
        case 3u:
        {
            return v_84.rows3[j];
        }
        case 4u:
        {
            return v_92.rows4[j];
        }
        case 5u:
        {
            return v_100.rows5[j];
        }
        case 6u:
        {
            return v_108.rows6[j];
        }
        default:
        {
            return v_116.rows7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint goes_left(thread const uint& row, const device Column& v_202, constant Push& pc)
{
    uint b = (v_202.column[row >> uint(2)] >> ((row & 3u) * 8u)) & 255u;
    uint _220;
    if (b == 0u)
    {
        _220 = pc.default_left;
    }
    else
    {
        _220 = uint(b <= pc.bin);
    }
    return _220;
}

static inline __attribute__((always_inline))
void scratch_put(thread const uint& w, thread const uint& j, thread const uint& v, device Scratch0& v_136, device Scratch1& v_144, device Scratch2& v_152, device Scratch3& v_160, device Scratch4& v_168, device Scratch5& v_176, device Scratch6& v_184, device Scratch7& v_192)
{
    switch (w)
    {
        case 0u:
        {
            v_136.scratch0[j] = v;
            break;
        }
        case 1u:
        {
            v_144.scratch1[j] = v;
            break;
        }
        case 2u:
        {
            v_152.scratch2[j] = v;
            break;
        }
        case 3u:
        {
            v_160.scratch3[j] = v;
            break;
        }
        case 4u:
        {
            v_168.scratch4[j] = v;
            break;
        }
        case 5u:
        {
            v_176.scratch5[j] = v;
            break;
        }
        case 6u:
        {
            v_184.scratch6[j] = v;
            break;
        }
        default:
        {
            v_192.scratch7[j] = v;
            break;
        }
    }
}

kernel void partition_scatter(constant Push& pc [[buffer(0)]], const device Column& v_202 [[buffer(1)]], const device Tiles& _365 [[buffer(2)]], const device Counts& _250 [[buffer(3)]], const device Rows0& v_57 [[buffer(4)]], const device Rows1& v_68 [[buffer(5)]], const device Rows2& v_76 [[buffer(6)]], const device Rows3& v_84 [[buffer(7)]], const device Rows4& v_92 [[buffer(8)]], const device Rows5& v_100 [[buffer(9)]], const device Rows6& v_108 [[buffer(10)]], const device Rows7& v_116 [[buffer(11)]], device Scratch0& v_136 [[buffer(12)]], device Scratch1& v_144 [[buffer(13)]], device Scratch2& v_152 [[buffer(14)]], device Scratch3& v_160 [[buffer(15)]], device Scratch4& v_168 [[buffer(16)]], device Scratch5& v_176 [[buffer(17)]], device Scratch6& v_184 [[buffer(18)]], device Scratch7& v_192 [[buffer(19)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]])
{
    threadgroup uint s_scan[WG];
    uint lid = gl_LocalInvocationID.x;
    uint total_left = _250.child_rows[2u * pc.split];
    uint _292;
    uint _312;
    uint _340;
    uint _386;
    for (uint t = gl_WorkGroupID.x; t < pc.num_tiles; t += gl_NumWorkGroups.x)
    {
        uint i = (t * WG) + lid;
        bool live = i < pc.row_count;
        uint pos = pc.row_begin + i;
        if (live)
        {
            uint param = pos;
            uint param_1 = LIST_WINDOW_SHIFT;
            uint param_2 = pos;
            uint param_3 = LIST_WINDOW_SHIFT;
            uint param_4 = window_of(param, param_1);
            uint param_5 = window_index(param_2, param_3);
            _292 = rows_at(param_4, param_5, v_57, v_68, v_76, v_84, v_92, v_100, v_108, v_116);
        }
        else
        {
            _292 = 0u;
        }
        uint row = _292;
        if (live)
        {
            uint param_6 = row;
            _312 = goes_left(param_6, v_202, pc);
        }
        else
        {
            _312 = 0u;
        }
        uint left = _312;
        s_scan[lid] = left;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (uint off = 1u; off < WG; off = off << uint(1))
        {
            if (lid >= off)
            {
                _340 = s_scan[lid - off];
            }
            else
            {
                _340 = 0u;
            }
            uint v = _340;
            threadgroup_barrier(mem_flags::mem_threadgroup);
            s_scan[lid] += v;
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
        if (live)
        {
            uint left_before = (_365.tile_left[pc.tile_first + t] + s_scan[lid]) - left;
            uint right_before = i - left_before;
            if (left != 0u)
            {
                _386 = left_before;
            }
            else
            {
                _386 = total_left + right_before;
            }
            uint dest = _386;
            uint to = pc.row_begin + dest;
            uint param_7 = to;
            uint param_8 = LIST_WINDOW_SHIFT;
            uint param_9 = to;
            uint param_10 = LIST_WINDOW_SHIFT;
            uint param_11 = window_of(param_7, param_8);
            uint param_12 = window_index(param_9, param_10);
            uint param_13 = row;
            scratch_put(param_11, param_12, param_13, v_136, v_144, v_152, v_160, v_168, v_176, v_184, v_192);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
}

