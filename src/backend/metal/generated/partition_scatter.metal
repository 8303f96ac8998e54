#pragma clang diagnostic ignored "-Wmissing-prototypes"
#pragma clang diagnostic ignored "-Wmissing-braces"

#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

template<typename T, size_t Num>
struct spvUnsafeArray
{
    T elements[Num ? Num : 1];
    
    thread T& operator [] (size_t pos) thread
    {
        return elements[pos];
    }
    constexpr const thread T& operator [] (size_t pos) const thread
    {
        return elements[pos];
    }
    
    device T& operator [] (size_t pos) device
    {
        return elements[pos];
    }
    constexpr const device T& operator [] (size_t pos) const device
    {
        return elements[pos];
    }
    
    constexpr const constant T& operator [] (size_t pos) const constant
    {
        return elements[pos];
    }
    
    threadgroup T& operator [] (size_t pos) threadgroup
    {
        return elements[pos];
    }
    constexpr const threadgroup T& operator [] (size_t pos) const threadgroup
    {
        return elements[pos];
    }
};

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
#ifndef SPIRV_CROSS_CONSTANT_ID_0
#define SPIRV_CROSS_CONSTANT_ID_0 256u
#endif
constant uint WG = SPIRV_CROSS_CONSTANT_ID_0;
constant uint TILE_ROWS = (WG * 8u);

struct Tiles
{
    uint tile_left[1];
};

constant uint _713_tmp [[function_constant(0)]];
constant uint _713 = is_function_constant_defined(_713_tmp) ? _713_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_713, 1u, 1u);
constant uint GRAD_WINDOW_SHIFT = (WINDOW_SHIFT - 4u);

static inline __attribute__((always_inline))
uint split_word(thread const uint& s, thread const uint& field, const device Level& v_341, constant Push& pc)
{
    return v_341.level0[(pc.table_first + (s * 16u)) + field];
}

static inline __attribute__((always_inline))
uint split_of_tile(thread const uint& t, const device Level& v_341, constant Push& pc)
{
    uint lo = 0u;
    uint hi = pc.num_splits - 1u;
    while (lo < hi)
    {
        uint mid = ((lo + hi) + 1u) >> uint(1);
        uint param = mid;
        uint param_1 = 4u;
        if (split_word(param, param_1, v_341, pc) <= t)
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
uint rows_at(thread const uint& w, thread const uint& j, const device Rows0& v_200, const device Rows1& v_208, const device Rows2& v_216, const device Rows3& v_224, const device Rows4& v_232, const device Rows5& v_240, const device Rows6& v_248, const device Rows7& v_256)
{
    switch (w)
    {
        case 0u:
        {
            return v_200.rows0[j];
        }
        case 1u:
        {
            return v_208.rows1[j];
        }
        case 2u:
        {
            return v_216.rows2[j];
        }
        case 3u:
        {
            return v_224.rows3[j];
        }
        case 4u:
        {
            return v_232.rows4[j];
        }
        case 5u:
        {
            return v_240.rows5[j];
        }
        case 6u:
        {
            return v_248.rows6[j];
        }
        default:
        {
            return v_256.rows7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint code_word(thread const uint& i, thread const uint& code_bits)
{
    uint _57;
    if (code_bits == 16u)
    {
        _57 = i >> uint(1);
    }
    else
    {
        _57 = i >> uint(2);
    }
    return _57;
}

static inline __attribute__((always_inline))
uint bins_at(thread const uint& w, thread const uint& j, const device Bins0& v_122, const device Bins1& v_132, const device Bins2& v_140, const device Bins3& v_148, const device Bins4& v_156, const device Bins5& v_164, const device Bins6& v_172, const device Bins7& v_180)
{
    switch (w)
    {
        case 0u:
        {
            return v_122.bins0[j];
        }
        case 1u:
        {
            return v_132.bins1[j];
        }
        case 2u:
        {
            return v_140.bins2[j];
        }
        case 3u:
        {
            return v_148.bins3[j];
        }
        case 4u:
        {
            return v_156.bins4[j];
        }
        case 5u:
        {
            return v_164.bins5[j];
        }
        case 6u:
        {
            return v_172.bins6[j];
        }
        default:
        {
            return v_180.bins7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint code_at(thread const uint& w, thread const uint& i, thread const uint& code_bits)
{
    uint _73;
    if (code_bits == 16u)
    {
        _73 = (w >> ((i & 1u) * 16u)) & 65535u;
    }
    else
    {
        _73 = (w >> ((i & 3u) * 8u)) & 255u;
    }
    return _73;
}

static inline __attribute__((always_inline))
uint goes_left(thread const uint& s, thread const uint& row, const device Bins0& v_122, const device Bins1& v_132, const device Bins2& v_140, const device Bins3& v_148, const device Bins4& v_156, const device Bins5& v_164, const device Bins6& v_172, const device Bins7& v_180, const device Level& v_341, constant Push& pc)
{
    uint param = s;
    uint param_1 = 6u;
    uint param_2 = row;
    uint param_3 = pc.code_bits;
    uint word = split_word(param, param_1, v_341, pc) + code_word(param_2, param_3);
    uint param_4 = word;
    uint param_5 = LIST_WINDOW_SHIFT;
    uint param_6 = word;
    uint param_7 = LIST_WINDOW_SHIFT;
    uint param_8 = window_of(param_4, param_5);
    uint param_9 = window_index(param_6, param_7);
    uint w = bins_at(param_8, param_9, v_122, v_132, v_140, v_148, v_156, v_164, v_172, v_180);
    uint param_10 = w;
    uint param_11 = row;
    uint param_12 = pc.code_bits;
    uint b = code_at(param_10, param_11, param_12);
    uint param_13 = s;
    uint param_14 = 3u;
    uint how = split_word(param_13, param_14, v_341, pc);
    if (b == 0u)
    {
        return how & 1u;
    }
    if ((how & 4u) != 0u)
    {
        uint param_15 = s;
        uint param_16 = 8u;
        return (v_341.level0[split_word(param_15, param_16, v_341, pc) + (b >> uint(5))] >> (b & 31u)) & 1u;
    }
    if ((how & 2u) == 0u)
    {
        uint param_17 = s;
        uint param_18 = 2u;
        return uint(b <= split_word(param_17, param_18, v_341, pc));
    }
    uint param_19 = s;
    uint param_20 = 8u + (b >> uint(5));
    return (split_word(param_19, param_20, v_341, pc) >> (b & 31u)) & 1u;
}

static inline __attribute__((always_inline))
void scratch_put(thread const uint& w, thread const uint& j, thread const uint& v, device Scratch0& v_276, device Scratch1& v_284, device Scratch2& v_292, device Scratch3& v_300, device Scratch4& v_308, device Scratch5& v_316, device Scratch6& v_324, device Scratch7& v_332)
{
    switch (w)
    {
        case 0u:
        {
            v_276.scratch0[j] = v;
            break;
        }
        case 1u:
        {
            v_284.scratch1[j] = v;
            break;
        }
        case 2u:
        {
            v_292.scratch2[j] = v;
            break;
        }
        case 3u:
        {
            v_300.scratch3[j] = v;
            break;
        }
        case 4u:
        {
            v_308.scratch4[j] = v;
            break;
        }
        case 5u:
        {
            v_316.scratch5[j] = v;
            break;
        }
        case 6u:
        {
            v_324.scratch6[j] = v;
            break;
        }
        default:
        {
            v_332.scratch7[j] = v;
            break;
        }
    }
}

kernel void partition_scatter(constant Push& pc [[buffer(0)]], const device Tiles& _638 [[buffer(1)]], const device Level& v_341 [[buffer(2)]], const device Bins0& v_122 [[buffer(3)]], const device Bins1& v_132 [[buffer(4)]], const device Bins2& v_140 [[buffer(5)]], const device Bins3& v_148 [[buffer(6)]], const device Bins4& v_156 [[buffer(7)]], const device Bins5& v_164 [[buffer(8)]], const device Bins6& v_172 [[buffer(9)]], const device Bins7& v_180 [[buffer(10)]], const device Rows0& v_200 [[buffer(11)]], const device Rows1& v_208 [[buffer(12)]], const device Rows2& v_216 [[buffer(13)]], const device Rows3& v_224 [[buffer(14)]], const device Rows4& v_232 [[buffer(15)]], const device Rows5& v_240 [[buffer(16)]], const device Rows6& v_248 [[buffer(17)]], const device Rows7& v_256 [[buffer(18)]], device Scratch0& v_276 [[buffer(19)]], device Scratch1& v_284 [[buffer(20)]], device Scratch2& v_292 [[buffer(21)]], device Scratch3& v_300 [[buffer(22)]], device Scratch4& v_308 [[buffer(23)]], device Scratch5& v_316 [[buffer(24)]], device Scratch6& v_324 [[buffer(25)]], device Scratch7& v_332 [[buffer(26)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]])
{
    threadgroup uint s_scan[WG];
    uint lid = gl_LocalInvocationID.x;
    spvUnsafeArray<uint, 8> row;
    uint _616;
    uint dest;
    for (uint t = gl_WorkGroupID.x; t < pc.num_tiles; t += gl_NumWorkGroups.x)
    {
        uint param = t;
        uint s = split_of_tile(param, v_341, pc);
        uint param_1 = s;
        uint param_2 = 1u;
        uint rows = split_word(param_1, param_2, v_341, pc);
        uint param_3 = s;
        uint param_4 = 0u;
        uint begin = split_word(param_3, param_4, v_341, pc);
        uint param_5 = s;
        uint param_6 = 4u;
        uint first = ((t - split_word(param_5, param_6, v_341, pc)) * TILE_ROWS) + (lid * 8u);
        uint left_mask = 0u;
        uint left = 0u;
        for (uint k = 0u; k < 8u; k++)
        {
            uint i = first + k;
            uint pos = begin + i;
            row[k] = 0u;
            if (i < rows)
            {
                uint param_7 = pos;
                uint param_8 = LIST_WINDOW_SHIFT;
                uint param_9 = pos;
                uint param_10 = LIST_WINDOW_SHIFT;
                uint param_11 = window_of(param_7, param_8);
                uint param_12 = window_index(param_9, param_10);
                row[k] = rows_at(param_11, param_12, v_200, v_208, v_216, v_224, v_232, v_240, v_248, v_256);
                uint param_13 = s;
                uint param_14 = row[k];
                if (goes_left(param_13, param_14, v_122, v_132, v_140, v_148, v_156, v_164, v_172, v_180, v_341, pc) != 0u)
                {
                    left_mask |= (1u << k);
                    left++;
                }
            }
        }
        s_scan[lid] = left;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (uint off = 1u; off < WG; off = off << uint(1))
        {
            if (lid >= off)
            {
                _616 = s_scan[lid - off];
            }
            else
            {
                _616 = 0u;
            }
            uint v = _616;
            threadgroup_barrier(mem_flags::mem_threadgroup);
            s_scan[lid] += v;
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
        uint left_before = (_638.tile_left[t] + s_scan[lid]) - left;
        uint total_left = v_341.level0[2u * s];
        for (uint k_1 = 0u; k_1 < 8u; k_1++)
        {
            uint i_1 = first + k_1;
            if (i_1 >= rows)
            {
                break;
            }
            if (((left_mask >> k_1) & 1u) != 0u)
            {
                uint _679 = left_before;
                left_before = _679 + uint(1);
                dest = _679;
            }
            else
            {
                dest = total_left + (i_1 - left_before);
            }
            uint to = begin + dest;
            uint param_15 = to;
            uint param_16 = LIST_WINDOW_SHIFT;
            uint param_17 = to;
            uint param_18 = LIST_WINDOW_SHIFT;
            uint param_19 = window_of(param_15, param_16);
            uint param_20 = window_index(param_17, param_18);
            uint param_21 = row[k_1];
            scratch_put(param_19, param_20, param_21, v_276, v_284, v_292, v_300, v_308, v_316, v_324, v_332);
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
}

