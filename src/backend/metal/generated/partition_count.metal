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
    uint code_bits;
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

constant uint _526_tmp [[function_constant(0)]];
constant uint _526 = is_function_constant_defined(_526_tmp) ? _526_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_526, 1u, 1u);
constant uint GRAD_WINDOW_SHIFT = (WINDOW_SHIFT - 4u);

static inline __attribute__((always_inline))
uint split_word(thread const uint& s, thread const uint& field, const device Level& v_260, constant Push& pc)
{
    return v_260.level0[(pc.table_first + (s * 16u)) + field];
}

static inline __attribute__((always_inline))
uint split_of_tile(thread const uint& t, const device Level& v_260, constant Push& pc)
{
    uint lo = 0u;
    uint hi = pc.num_splits - 1u;
    while (lo < hi)
    {
        uint mid = ((lo + hi) + 1u) >> uint(1);
        uint param = mid;
        uint param_1 = 4u;
        if (split_word(param, param_1, v_260, pc) <= t)
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
uint rows_at(thread const uint& w, thread const uint& j, const device Rows0& v_194, const device Rows1& v_202, const device Rows2& v_210, const device Rows3& v_218, const device Rows4& v_226, const device Rows5& v_234, const device Rows6& v_242, const device Rows7& v_250)
{
    switch (w)
    {
        case 0u:
        {
            return v_194.rows0[j];
        }
        case 1u:
        {
            return v_202.rows1[j];
        }
        case 2u:
        {
            return v_210.rows2[j];
        }
        case 3u:
        {
            return v_218.rows3[j];
        }
        case 4u:
        {
            return v_226.rows4[j];
        }
        case 5u:
        {
            return v_234.rows5[j];
        }
        case 6u:
        {
            return v_242.rows6[j];
        }
        default:
        {
            return v_250.rows7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint code_word(thread const uint& i, thread const uint& code_bits)
{
    uint _51;
    if (code_bits == 16u)
    {
        _51 = i >> uint(1);
    }
    else
    {
        _51 = i >> uint(2);
    }
    return _51;
}

static inline __attribute__((always_inline))
uint bins_at(thread const uint& w, thread const uint& j, const device Bins0& v_116, const device Bins1& v_126, const device Bins2& v_134, const device Bins3& v_142, const device Bins4& v_150, const device Bins5& v_158, const device Bins6& v_166, const device Bins7& v_174)
{
    switch (w)
    {
        case 0u:
        {
            return v_116.bins0[j];
        }
        case 1u:
        {
            return v_126.bins1[j];
        }
        case 2u:
        {
            return v_134.bins2[j];
        }
        case 3u:
        {
            return v_142.bins3[j];
        }
        case 4u:
        {
            return v_150.bins4[j];
        }
        case 5u:
        {
            return v_158.bins5[j];
        }
        case 6u:
        {
            return v_166.bins6[j];
        }
        default:
        {
            return v_174.bins7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint code_at(thread const uint& w, thread const uint& i, thread const uint& code_bits)
{
    uint _67;
    if (code_bits == 16u)
    {
        _67 = (w >> ((i & 1u) * 16u)) & 65535u;
    }
    else
    {
        _67 = (w >> ((i & 3u) * 8u)) & 255u;
    }
    return _67;
}

static inline __attribute__((always_inline))
uint goes_left(thread const uint& s, thread const uint& row, const device Bins0& v_116, const device Bins1& v_126, const device Bins2& v_134, const device Bins3& v_142, const device Bins4& v_150, const device Bins5& v_158, const device Bins6& v_166, const device Bins7& v_174, const device Level& v_260, constant Push& pc)
{
    uint param = s;
    uint param_1 = 6u;
    uint param_2 = row;
    uint param_3 = pc.code_bits;
    uint word = split_word(param, param_1, v_260, pc) + code_word(param_2, param_3);
    uint param_4 = word;
    uint param_5 = LIST_WINDOW_SHIFT;
    uint param_6 = word;
    uint param_7 = LIST_WINDOW_SHIFT;
    uint param_8 = window_of(param_4, param_5);
    uint param_9 = window_index(param_6, param_7);
    uint w = bins_at(param_8, param_9, v_116, v_126, v_134, v_142, v_150, v_158, v_166, v_174);
    uint param_10 = w;
    uint param_11 = row;
    uint param_12 = pc.code_bits;
    uint b = code_at(param_10, param_11, param_12);
    uint param_13 = s;
    uint param_14 = 3u;
    uint how = split_word(param_13, param_14, v_260, pc);
    if (b == 0u)
    {
        return how & 1u;
    }
    if ((how & 4u) != 0u)
    {
        uint param_15 = s;
        uint param_16 = 8u;
        return (v_260.level0[split_word(param_15, param_16, v_260, pc) + (b >> uint(5))] >> (b & 31u)) & 1u;
    }
    if ((how & 2u) == 0u)
    {
        uint param_17 = s;
        uint param_18 = 2u;
        return uint(b <= split_word(param_17, param_18, v_260, pc));
    }
    uint param_19 = s;
    uint param_20 = 8u + (b >> uint(5));
    return (split_word(param_19, param_20, v_260, pc) >> (b & 31u)) & 1u;
}

kernel void partition_count(constant Push& pc [[buffer(0)]], device Tiles& _517 [[buffer(1)]], const device Level& v_260 [[buffer(2)]], const device Bins0& v_116 [[buffer(3)]], const device Bins1& v_126 [[buffer(4)]], const device Bins2& v_134 [[buffer(5)]], const device Bins3& v_142 [[buffer(6)]], const device Bins4& v_150 [[buffer(7)]], const device Bins5& v_158 [[buffer(8)]], const device Bins6& v_166 [[buffer(9)]], const device Bins7& v_174 [[buffer(10)]], const device Rows0& v_194 [[buffer(11)]], const device Rows1& v_202 [[buffer(12)]], const device Rows2& v_210 [[buffer(13)]], const device Rows3& v_218 [[buffer(14)]], const device Rows4& v_226 [[buffer(15)]], const device Rows5& v_234 [[buffer(16)]], const device Rows6& v_242 [[buffer(17)]], const device Rows7& v_250 [[buffer(18)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]])
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
        uint s = split_of_tile(param, v_260, pc);
        uint param_1 = s;
        uint param_2 = 1u;
        uint rows = split_word(param_1, param_2, v_260, pc);
        uint param_3 = s;
        uint param_4 = 0u;
        uint begin = split_word(param_3, param_4, v_260, pc);
        uint param_5 = s;
        uint param_6 = 4u;
        uint first = ((t - split_word(param_5, param_6, v_260, pc)) * TILE_ROWS) + (lid * 8u);
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
                uint param_14 = rows_at(param_11, param_12, v_194, v_202, v_210, v_218, v_226, v_234, v_242, v_250);
                left += goes_left(param_13, param_14, v_116, v_126, v_134, v_142, v_150, v_158, v_166, v_174, v_260, pc);
            }
        }
        if (left != 0u)
        {
            uint _509 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_count, left, memory_order_relaxed);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if (lid == 0u)
        {
            _517.tile_left[t] = s_count;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
}

