#pragma clang diagnostic ignored "-Wmissing-prototypes"
#pragma clang diagnostic ignored "-Wmissing-braces"
#pragma clang diagnostic ignored "-Wunused-variable"

#include <metal_stdlib>
#include <simd/simd.h>
#include <metal_atomic>

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
};

constant uint WINDOW_SHIFT_tmp [[function_constant(2)]];
constant uint WINDOW_SHIFT = is_function_constant_defined(WINDOW_SHIFT_tmp) ? WINDOW_SHIFT_tmp : 30u;
constant uint LIST_WINDOW_SHIFT = (WINDOW_SHIFT - 2u);
#ifndef SPIRV_CROSS_CONSTANT_ID_0
#define SPIRV_CROSS_CONSTANT_ID_0 256u
#endif
constant uint WG = SPIRV_CROSS_CONSTANT_ID_0;
constant uint TILE_ROWS = (WG * 8u);
constant uint _694 = (WG - 1u);
constant uint _878_tmp [[function_constant(0)]];
constant uint _878 = is_function_constant_defined(_878_tmp) ? _878_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_878, 1u, 1u);
constant uint GRAD_WINDOW_SHIFT = (WINDOW_SHIFT - 4u);

static inline __attribute__((always_inline))
uint split_word(thread const uint& s, thread const uint& field, device Level& v_385, constant Push& pc)
{
    return v_385.level0[(pc.table_first + (s * 16u)) + field];
}

static inline __attribute__((always_inline))
uint split_of_tile(thread const uint& t, device Level& v_385, constant Push& pc)
{
    uint lo = 0u;
    uint hi = pc.num_splits - 1u;
    while (lo < hi)
    {
        uint mid = ((lo + hi) + 1u) >> uint(1);
        uint param = mid;
        uint param_1 = 4u;
        if (split_word(param, param_1, v_385, pc) <= t)
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
uint scratch_at(thread const uint& w, thread const uint& j, device Scratch0& v_276, device Scratch1& v_284, device Scratch2& v_292, device Scratch3& v_300, device Scratch4& v_308, device Scratch5& v_316, device Scratch6& v_324, device Scratch7& v_332)
{
    switch (w)
    {
        case 0u:
        {
            return v_276.scratch0[j];
        }
        case 1u:
        {
            return v_284.scratch1[j];
        }
        case 2u:
        {
            return v_292.scratch2[j];
        }
        case 3u:
        {
            return v_300.scratch3[j];
        }
        case 4u:
        {
            return v_308.scratch4[j];
        }
        case 5u:
        {
            return v_316.scratch5[j];
        }
        case 6u:
        {
            return v_324.scratch6[j];
        }
        default:
        {
            return v_332.scratch7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint rows_at(thread const uint& w, thread const uint& j, device Rows0& v_157, device Rows1& v_165, device Rows2& v_173, device Rows3& v_181, device Rows4& v_189, device Rows5& v_197, device Rows6& v_205, device Rows7& v_213)
{
    switch (w)
    {
        case 0u:
        {
            return v_157.rows0[j];
        }
        case 1u:
        {
            return v_165.rows1[j];
        }
        case 2u:
        {
            return v_173.rows2[j];
        }
        case 3u:
        {
            return v_181.rows3[j];
        }
        case 4u:
        {
            return v_189.rows4[j];
        }
        case 5u:
        {
            return v_197.rows5[j];
        }
        case 6u:
        {
            return v_205.rows6[j];
        }
        default:
        {
            return v_213.rows7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint bins_at(thread const uint& w, thread const uint& j, const device Bins0& v_78, const device Bins1& v_89, const device Bins2& v_97, const device Bins3& v_105, const device Bins4& v_113, const device Bins5& v_121, const device Bins6& v_129, const device Bins7& v_137)
{
    switch (w)
    {
        case 0u:
        {
            return v_78.bins0[j];
        }
        case 1u:
        {
            return v_89.bins1[j];
        }
        case 2u:
        {
            return v_97.bins2[j];
        }
        case 3u:
        {
            return v_105.bins3[j];
        }
        case 4u:
        {
            return v_113.bins4[j];
        }
        case 5u:
        {
            return v_121.bins5[j];
        }
        case 6u:
        {
            return v_129.bins6[j];
        }
        default:
        {
            return v_137.bins7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint goes_left(thread const uint& s, thread const uint& row, const device Bins0& v_78, const device Bins1& v_89, const device Bins2& v_97, const device Bins3& v_105, const device Bins4& v_113, const device Bins5& v_121, const device Bins6& v_129, const device Bins7& v_137, device Level& v_385, constant Push& pc)
{
    uint param = s;
    uint param_1 = 6u;
    uint word = split_word(param, param_1, v_385, pc) + (row >> uint(2));
    uint param_2 = word;
    uint param_3 = LIST_WINDOW_SHIFT;
    uint param_4 = word;
    uint param_5 = LIST_WINDOW_SHIFT;
    uint param_6 = window_of(param_2, param_3);
    uint param_7 = window_index(param_4, param_5);
    uint w = bins_at(param_6, param_7, v_78, v_89, v_97, v_105, v_113, v_121, v_129, v_137);
    uint b = (w >> ((row & 3u) * 8u)) & 255u;
    uint _477;
    if (b == 0u)
    {
        uint param_8 = s;
        uint param_9 = 3u;
        _477 = split_word(param_8, param_9, v_385, pc);
    }
    else
    {
        uint param_10 = s;
        uint param_11 = 8u + (b >> uint(5));
        _477 = (split_word(param_10, param_11, v_385, pc) >> (b & 31u)) & 1u;
    }
    return _477;
}

static inline __attribute__((always_inline))
void rows_put(thread const uint& w, thread const uint& j, thread const uint& v, device Rows0& v_157, device Rows1& v_165, device Rows2& v_173, device Rows3& v_181, device Rows4& v_189, device Rows5& v_197, device Rows6& v_205, device Rows7& v_213)
{
    switch (w)
    {
        case 0u:
        {
            v_157.rows0[j] = v;
            break;
        }
        case 1u:
        {
            v_165.rows1[j] = v;
            break;
        }
        case 2u:
        {
            v_173.rows2[j] = v;
            break;
        }
        case 3u:
        {
            v_181.rows3[j] = v;
            break;
        }
        case 4u:
        {
            v_189.rows4[j] = v;
            break;
        }
        case 5u:
        {
            v_197.rows5[j] = v;
            break;
        }
        case 6u:
        {
            v_205.rows6[j] = v;
            break;
        }
        default:
        {
            v_213.rows7[j] = v;
            break;
        }
    }
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

kernel void partition_place(constant Push& pc [[buffer(0)]], device Level& v_385 [[buffer(2)]], const device Bins0& v_78 [[buffer(3)]], const device Bins1& v_89 [[buffer(4)]], const device Bins2& v_97 [[buffer(5)]], const device Bins3& v_105 [[buffer(6)]], const device Bins4& v_113 [[buffer(7)]], const device Bins5& v_121 [[buffer(8)]], const device Bins6& v_129 [[buffer(9)]], const device Bins7& v_137 [[buffer(10)]], device Rows0& v_157 [[buffer(11)]], device Rows1& v_165 [[buffer(12)]], device Rows2& v_173 [[buffer(13)]], device Rows3& v_181 [[buffer(14)]], device Rows4& v_189 [[buffer(15)]], device Rows5& v_197 [[buffer(16)]], device Rows6& v_205 [[buffer(17)]], device Rows7& v_213 [[buffer(18)]], device Scratch0& v_276 [[buffer(19)]], device Scratch1& v_284 [[buffer(20)]], device Scratch2& v_292 [[buffer(21)]], device Scratch3& v_300 [[buffer(22)]], device Scratch4& v_308 [[buffer(23)]], device Scratch5& v_316 [[buffer(24)]], device Scratch6& v_324 [[buffer(25)]], device Scratch7& v_332 [[buffer(26)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]])
{
    threadgroup uint s_scan[WG];
    threadgroup uint s_left_total;
    threadgroup uint s_left_base;
    threadgroup uint s_right_base;
    threadgroup uint s_rows[TILE_ROWS];
    uint lid = gl_LocalInvocationID.x;
    spvUnsafeArray<uint, 8> row;
    uint _597;
    uint _665;
    uint _705;
    uint _720;
    uint _788;
    uint _819;
    for (uint t = gl_WorkGroupID.x; t < pc.num_tiles; t += gl_NumWorkGroups.x)
    {
        uint param = t;
        uint s = split_of_tile(param, v_385, pc);
        uint param_1 = s;
        uint param_2 = 1u;
        uint rows = split_word(param_1, param_2, v_385, pc);
        uint param_3 = s;
        uint param_4 = 0u;
        uint begin = split_word(param_3, param_4, v_385, pc);
        uint param_5 = s;
        uint param_6 = 7u;
        bool from_scratch = split_word(param_5, param_6, v_385, pc) != 0u;
        uint param_7 = s;
        uint param_8 = 4u;
        uint first = (t - split_word(param_7, param_8, v_385, pc)) * TILE_ROWS;
        uint left_mask = 0u;
        uint left = 0u;
        uint valid = 0u;
        for (uint k = 0u; k < 8u; k++)
        {
            uint i = (first + (lid * 8u)) + k;
            uint pos = begin + i;
            row[k] = 0u;
            if (i < rows)
            {
                uint param_9 = pos;
                uint param_10 = LIST_WINDOW_SHIFT;
                uint w = window_of(param_9, param_10);
                uint param_11 = pos;
                uint param_12 = LIST_WINDOW_SHIFT;
                uint j = window_index(param_11, param_12);
                if (from_scratch)
                {
                    uint param_13 = w;
                    uint param_14 = j;
                    _597 = scratch_at(param_13, param_14, v_276, v_284, v_292, v_300, v_308, v_316, v_324, v_332);
                }
                else
                {
                    uint param_15 = w;
                    uint param_16 = j;
                    _597 = rows_at(param_15, param_16, v_157, v_165, v_173, v_181, v_189, v_197, v_205, v_213);
                }
                row[k] = _597;
                valid |= (1u << k);
                uint param_17 = s;
                uint param_18 = row[k];
                if (goes_left(param_17, param_18, v_78, v_89, v_97, v_105, v_113, v_121, v_129, v_137, v_385, pc) != 0u)
                {
                    left_mask |= (1u << k);
                    left++;
                }
            }
        }
        uint mine = left | ((uint(int(popcount(valid))) - left) << uint(16));
        s_scan[lid] = mine;
        threadgroup_barrier(mem_flags::mem_threadgroup);
        for (uint off = 1u; off < WG; off = off << uint(1))
        {
            if (lid >= off)
            {
                _665 = s_scan[lid - off];
            }
            else
            {
                _665 = 0u;
            }
            uint v = _665;
            threadgroup_barrier(mem_flags::mem_threadgroup);
            s_scan[lid] += v;
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
        uint before = s_scan[lid] - mine;
        if (lid == 0u)
        {
            uint total = s_scan[_694];
            s_left_total = total & 65535u;
            if ((total & 65535u) != 0u)
            {
                uint _713 = atomic_fetch_add_explicit((device atomic_uint*)&v_385.level0[2u * s], total & 65535u, memory_order_relaxed);
                _705 = _713;
            }
            else
            {
                _705 = 0u;
            }
            s_left_base = _705;
            if ((total >> uint(16)) != 0u)
            {
                uint _729 = atomic_fetch_add_explicit((device atomic_uint*)&v_385.level0[(2u * s) + 1u], total >> uint(16), memory_order_relaxed);
                _720 = _729;
            }
            else
            {
                _720 = 0u;
            }
            s_right_base = _720;
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        uint left_total = s_left_total;
        uint next_left = before & 65535u;
        uint next_right = left_total + (before >> uint(16));
        for (uint k_1 = 0u; k_1 < 8u; k_1++)
        {
            if (((valid >> k_1) & 1u) == 0u)
            {
                continue;
            }
            if (((left_mask >> k_1) & 1u) != 0u)
            {
                uint _768 = next_left;
                next_left = _768 + uint(1);
                s_rows[_768] = row[k_1];
            }
            else
            {
                uint _775 = next_right;
                next_right = _775 + uint(1);
                s_rows[_775] = row[k_1];
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if ((rows - first) < TILE_ROWS)
        {
            _788 = rows - first;
        }
        else
        {
            _788 = TILE_ROWS;
        }
        uint tile_rows = _788;
        for (uint k_2 = 0u; k_2 < 8u; k_2++)
        {
            uint j_1 = (k_2 * WG) + lid;
            if (j_1 >= tile_rows)
            {
                break;
            }
            if (j_1 < left_total)
            {
                _819 = s_left_base + j_1;
            }
            else
            {
                _819 = (rows - 1u) - (s_right_base + (j_1 - left_total));
            }
            uint dest = _819;
            uint to = begin + dest;
            uint param_19 = to;
            uint param_20 = LIST_WINDOW_SHIFT;
            uint w_1 = window_of(param_19, param_20);
            uint param_21 = to;
            uint param_22 = LIST_WINDOW_SHIFT;
            uint i_1 = window_index(param_21, param_22);
            if (from_scratch)
            {
                uint param_23 = w_1;
                uint param_24 = i_1;
                uint param_25 = s_rows[j_1];
                rows_put(param_23, param_24, param_25, v_157, v_165, v_173, v_181, v_189, v_197, v_205, v_213);
            }
            else
            {
                uint param_26 = w_1;
                uint param_27 = i_1;
                uint param_28 = s_rows[j_1];
                scratch_put(param_26, param_27, param_28, v_276, v_284, v_292, v_300, v_308, v_316, v_324, v_332);
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
}

