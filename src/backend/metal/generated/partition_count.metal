#pragma clang diagnostic ignored "-Wmissing-prototypes"
#pragma clang diagnostic ignored "-Wunused-variable"

#include <metal_stdlib>
#include <simd/simd.h>
#include <metal_atomic>

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
constant uint WINDOW_SHIFT_tmp [[function_constant(2)]];
constant uint WINDOW_SHIFT = is_function_constant_defined(WINDOW_SHIFT_tmp) ? WINDOW_SHIFT_tmp : 30u;
constant uint LIST_WINDOW_SHIFT = (WINDOW_SHIFT - 2u);

struct Tiles
{
    uint tile_left[1];
};

constant uint _245_tmp [[function_constant(0)]];
constant uint _245 = is_function_constant_defined(_245_tmp) ? _245_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_245, 1u, 1u);
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
uint rows_at(thread const uint& w, thread const uint& j, const device Rows0& v_51, const device Rows1& v_62, const device Rows2& v_70, const device Rows3& v_78, const device Rows4& v_86, const device Rows5& v_94, const device Rows6& v_102, const device Rows7& v_110)
{
    switch (w)
    {
        case 0u:
        {
            return v_51.rows0[j];
        }
        case 1u:
        {
            return v_62.rows1[j];
        }
        case 2u:
        {
            return v_70.rows2[j];
        }
        case 3u:
        {
            return v_78.rows3[j];
        }
        case 4u:
        {
            return v_86.rows4[j];
        }
        case 5u:
        {
            return v_94.rows5[j];
        }
        case 6u:
        {
            return v_102.rows6[j];
        }
        default:
        {
            return v_110.rows7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint goes_left(thread const uint& row, const device Column& v_121, constant Push& pc)
{
    uint b = (v_121.column[row >> uint(2)] >> ((row & 3u) * 8u)) & 255u;
    uint _139;
    if (b == 0u)
    {
        _139 = pc.default_left;
    }
    else
    {
        _139 = uint(b <= pc.bin);
    }
    return _139;
}

kernel void partition_count(constant Push& pc [[buffer(0)]], const device Column& v_121 [[buffer(1)]], device Tiles& _232 [[buffer(2)]], const device Rows0& v_51 [[buffer(3)]], const device Rows1& v_62 [[buffer(4)]], const device Rows2& v_70 [[buffer(5)]], const device Rows3& v_78 [[buffer(6)]], const device Rows4& v_86 [[buffer(7)]], const device Rows5& v_94 [[buffer(8)]], const device Rows6& v_102 [[buffer(9)]], const device Rows7& v_110 [[buffer(10)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]])
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
        uint pos = pc.row_begin + i;
        bool _202 = i < pc.row_count;
        bool _221;
        if (_202)
        {
            uint param = pos;
            uint param_1 = LIST_WINDOW_SHIFT;
            uint param_2 = pos;
            uint param_3 = LIST_WINDOW_SHIFT;
            uint param_4 = window_of(param, param_1);
            uint param_5 = window_index(param_2, param_3);
            uint param_6 = rows_at(param_4, param_5, v_51, v_62, v_70, v_78, v_86, v_94, v_102, v_110);
            _221 = goes_left(param_6, v_121, pc) != 0u;
        }
        else
        {
            _221 = _202;
        }
        if (_221)
        {
            uint _224 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_count, 1u, memory_order_relaxed);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (lid == 0u)
        {
            _232.tile_left[pc.tile_first + t] = s_count;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
}

