#pragma clang diagnostic ignored "-Wmissing-prototypes"
#pragma clang diagnostic ignored "-Wunused-variable"

#include <metal_stdlib>
#include <simd/simd.h>
#include <metal_atomic>

using namespace metal;

struct Bins0
{
    uint bins0[1];
};

struct Bins1
{
    uint bins1[1];
};

struct Bins2
{
    uint bins2[1];
};

struct Bins3
{
    uint bins3[1];
};

struct Bins4
{
    uint bins4[1];
};

struct Bins5
{
    uint bins5[1];
};

struct Bins6
{
    uint bins6[1];
};

struct Bins7
{
    uint bins7[1];
};

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

struct Level
{
    uint level0[1];
};

struct Push
{
    uint num_splits;
    uint num_tiles;
    uint table_first;
};

constant uint WINDOW_SHIFT_tmp [[function_constant(2)]];
constant uint WINDOW_SHIFT = is_function_constant_defined(WINDOW_SHIFT_tmp) ? WINDOW_SHIFT_tmp : 30u;
constant uint LIST_WINDOW_SHIFT = (WINDOW_SHIFT - 2u);
constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;
constant uint TILE_ROWS = (WG * 8u);

struct Tiles
{
    uint tile_left[1];
};

constant uint _441_tmp [[function_constant(0)]];
constant uint _441 = is_function_constant_defined(_441_tmp) ? _441_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_441, 1u, 1u);
constant uint GRAD_WINDOW_SHIFT = (WINDOW_SHIFT - 4u);

static inline __attribute__((always_inline))
uint split_word(thread const uint& s, thread const uint& field, const device Level& v_208, constant Push& pc)
{
    return v_208.level0[(pc.table_first + (s * 16u)) + field];
}

static inline __attribute__((always_inline))
uint split_of_tile(thread const uint& t, const device Level& v_208, constant Push& pc)
{
    uint lo = 0u;
    uint hi = pc.num_splits - 1u;
    while (lo < hi)
    {
        uint mid = ((lo + hi) + 1u) >> uint(1);
        uint param = mid;
        uint param_1 = 4u;
        if (split_word(param, param_1, v_208, pc) <= t)
        {
            lo = mid;
        }
        else
        {
            hi = mid - 1u;
        }
    }
    return lo;
}

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
uint rows_at(thread const uint& w, thread const uint& j, const device Rows0& v_142, const device Rows1& v_150, const device Rows2& v_158, const device Rows3& v_166, const device Rows4& v_174, const device Rows5& v_182, const device Rows6& v_190, const device Rows7& v_198)
{
    switch (w)
    {
        case 0u:
        {
            return v_142.rows0[j];
        }
        case 1u:
        {
            return v_150.rows1[j];
        }
        case 2u:
        {
            return v_158.rows2[j];
        }
        case 3u:
        {
            return v_166.rows3[j];
        }
        case 4u:
        {
            return v_174.rows4[j];
        }
        case 5u:
        {
            return v_182.rows5[j];
        }
        case 6u:
        {
            return v_190.rows6[j];
        }
        default:
        {
            return v_198.rows7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint bins_at(thread const uint& w, thread const uint& j, const device Bins0& v_63, const device Bins1& v_74, const device Bins2& v_82, const device Bins3& v_90, const device Bins4& v_98, const device Bins5& v_106, const device Bins6& v_114, const device Bins7& v_122)
{
    switch (w)
    {
        case 0u:
        {
            return v_63.bins0[j];
        }
        case 1u:
        {
            return v_74.bins1[j];
        }
        case 2u:
        {
            return v_82.bins2[j];
        }
        case 3u:
        {
            return v_90.bins3[j];
        }
        case 4u:
        {
            return v_98.bins4[j];
        }
        case 5u:
        {
            return v_106.bins5[j];
        }
        case 6u:
        {
            return v_114.bins6[j];
        }
        default:
        {
            return v_122.bins7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint goes_left(thread const uint& s, thread const uint& row, const device Bins0& v_63, const device Bins1& v_74, const device Bins2& v_82, const device Bins3& v_90, const device Bins4& v_98, const device Bins5& v_106, const device Bins6& v_114, const device Bins7& v_122, const device Level& v_208, constant Push& pc)
{
    uint param = s;
    uint param_1 = 6u;
    uint word = split_word(param, param_1, v_208, pc) + (row >> uint(2));
    uint param_2 = word;
    uint param_3 = LIST_WINDOW_SHIFT;
    uint param_4 = word;
    uint param_5 = LIST_WINDOW_SHIFT;
    uint param_6 = window_of(param_2, param_3);
    uint param_7 = window_index(param_4, param_5);
    uint w = bins_at(param_6, param_7, v_63, v_74, v_82, v_90, v_98, v_106, v_114, v_122);
    uint b = (w >> ((row & 3u) * 8u)) & 255u;
    uint _300;
    if (b == 0u)
    {
        uint param_8 = s;
        uint param_9 = 3u;
        _300 = split_word(param_8, param_9, v_208, pc);
    }
    else
    {
        uint param_10 = s;
        uint param_11 = 8u + (b >> uint(5));
        _300 = (split_word(param_10, param_11, v_208, pc) >> (b & 31u)) & 1u;
    }
    return _300;
}

kernel void partition_count(constant Push& pc [[buffer(0)]], device Tiles& _432 [[buffer(1)]], const device Level& v_208 [[buffer(2)]], const device Bins0& v_63 [[buffer(3)]], const device Bins1& v_74 [[buffer(4)]], const device Bins2& v_82 [[buffer(5)]], const device Bins3& v_90 [[buffer(6)]], const device Bins4& v_98 [[buffer(7)]], const device Bins5& v_106 [[buffer(8)]], const device Bins6& v_114 [[buffer(9)]], const device Bins7& v_122 [[buffer(10)]], const device Rows0& v_142 [[buffer(11)]], const device Rows1& v_150 [[buffer(12)]], const device Rows2& v_158 [[buffer(13)]], const device Rows3& v_166 [[buffer(14)]], const device Rows4& v_174 [[buffer(15)]], const device Rows5& v_182 [[buffer(16)]], const device Rows6& v_190 [[buffer(17)]], const device Rows7& v_198 [[buffer(18)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]])
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
        uint param = t;
        uint s = split_of_tile(param, v_208, pc);
        uint param_1 = s;
        uint param_2 = 1u;
        uint rows = split_word(param_1, param_2, v_208, pc);
        uint param_3 = s;
        uint param_4 = 0u;
        uint begin = split_word(param_3, param_4, v_208, pc);
        uint param_5 = s;
        uint param_6 = 4u;
        uint first = ((t - split_word(param_5, param_6, v_208, pc)) * TILE_ROWS) + (lid * 8u);
        uint left = 0u;
        for (uint k = 0u; k < 8u; k++)
        {
            uint i = first + k;
            uint pos = begin + i;
            if (i < rows)
            {
                uint param_7 = pos;
                uint param_8 = LIST_WINDOW_SHIFT;
                uint param_9 = pos;
                uint param_10 = LIST_WINDOW_SHIFT;
                uint param_11 = window_of(param_7, param_8);
                uint param_12 = window_index(param_9, param_10);
                uint param_13 = s;
                uint param_14 = rows_at(param_11, param_12, v_142, v_150, v_158, v_166, v_174, v_182, v_190, v_198);
                left += goes_left(param_13, param_14, v_63, v_74, v_82, v_90, v_98, v_106, v_114, v_122, v_208, pc);
            }
        }
        if (left != 0u)
        {
            uint _424 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_count, left, memory_order_relaxed);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (lid == 0u)
        {
            _432.tile_left[t] = s_count;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
}

