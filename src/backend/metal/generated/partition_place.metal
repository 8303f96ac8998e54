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
constant uint _779 = (WG - 1u);
constant uint _962_tmp [[function_constant(0)]];
constant uint _962 = is_function_constant_defined(_962_tmp) ? _962_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_962, 1u, 1u);
constant uint GRAD_WINDOW_SHIFT = (WINDOW_SHIFT - 4u);

static inline __attribute__((always_inline))
uint split_word(thread const uint& s, thread const uint& field, device Level& v_437, constant Push& pc)
{
    return v_437.level0[(pc.table_first + (s * 16u)) + field];
}

static inline __attribute__((always_inline))
uint split_of_tile(thread const uint& t, device Level& v_437, constant Push& pc)
{
    uint lo = 0u;
    uint hi = pc.num_splits - 1u;
    while (lo < hi)
    {
        uint mid = ((lo + hi) + 1u) >> uint(1);
        uint param = mid;
        uint param_1 = 4u;
        if (split_word(param, param_1, v_437, pc) <= t)
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
uint scratch_at(thread const uint& w, thread const uint& j, device Scratch0& v_328, device Scratch1& v_336, device Scratch2& v_344, device Scratch3& v_352, device Scratch4& v_360, device Scratch5& v_368, device Scratch6& v_376, device Scratch7& v_384)
{
    switch (w)
    {
        case 0u:
        {
            return v_328.scratch0[j];
        }
        case 1u:
        {
            return v_336.scratch1[j];
        }
        case 2u:
        {
            return v_344.scratch2[j];
        }
        case 3u:
        {
            return v_352.scratch3[j];
        }
        case 4u:
        {
            return v_360.scratch4[j];
        }
        case 5u:
        {
            return v_368.scratch5[j];
        }
        case 6u:
        {
            return v_376.scratch6[j];
        }
        default:
        {
            return v_384.scratch7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint rows_at(thread const uint& w, thread const uint& j, device Rows0& v_209, device Rows1& v_217, device Rows2& v_225, device Rows3& v_233, device Rows4& v_241, device Rows5& v_249, device Rows6& v_257, device Rows7& v_265)
{
    switch (w)
    {
        case 0u:
        {
            return v_209.rows0[j];
        }
        case 1u:
        {
            return v_217.rows1[j];
        }
        case 2u:
        {
            return v_225.rows2[j];
        }
        case 3u:
        {
            return v_233.rows3[j];
        }
        case 4u:
        {
            return v_241.rows4[j];
        }
        case 5u:
        {
            return v_249.rows5[j];
        }
        case 6u:
        {
            return v_257.rows6[j];
        }
        default:
        {
            return v_265.rows7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint code_word(thread const uint& i, thread const uint& code_bits)
{
    uint _66;
    if (code_bits == 16u)
    {
        _66 = i >> uint(1);
    }
    else
    {
        _66 = i >> uint(2);
    }
    return _66;
}

static inline __attribute__((always_inline))
uint bins_at(thread const uint& w, thread const uint& j, const device Bins0& v_131, const device Bins1& v_141, const device Bins2& v_149, const device Bins3& v_157, const device Bins4& v_165, const device Bins5& v_173, const device Bins6& v_181, const device Bins7& v_189)
{
    switch (w)
    {
        case 0u:
        {
            return v_131.bins0[j];
        }
        case 1u:
        {
            return v_141.bins1[j];
        }
        case 2u:
        {
            return v_149.bins2[j];
        }
        case 3u:
        {
            return v_157.bins3[j];
        }
        case 4u:
        {
            return v_165.bins4[j];
        }
        case 5u:
        {
            return v_173.bins5[j];
        }
        case 6u:
        {
            return v_181.bins6[j];
        }
        default:
        {
            return v_189.bins7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint code_at(thread const uint& w, thread const uint& i, thread const uint& code_bits)
{
    uint _82;
    if (code_bits == 16u)
    {
        _82 = (w >> ((i & 1u) * 16u)) & 65535u;
    }
    else
    {
        _82 = (w >> ((i & 3u) * 8u)) & 255u;
    }
    return _82;
}

static inline __attribute__((always_inline))
uint goes_left(thread const uint& s, thread const uint& row, const device Bins0& v_131, const device Bins1& v_141, const device Bins2& v_149, const device Bins3& v_157, const device Bins4& v_165, const device Bins5& v_173, const device Bins6& v_181, const device Bins7& v_189, device Level& v_437, constant Push& pc)
{
    uint param = s;
    uint param_1 = 6u;
    uint param_2 = row;
    uint param_3 = pc.code_bits;
    uint word = split_word(param, param_1, v_437, pc) + code_word(param_2, param_3);
    uint param_4 = word;
    uint param_5 = LIST_WINDOW_SHIFT;
    uint param_6 = word;
    uint param_7 = LIST_WINDOW_SHIFT;
    uint param_8 = window_of(param_4, param_5);
    uint param_9 = window_index(param_6, param_7);
    uint w = bins_at(param_8, param_9, v_131, v_141, v_149, v_157, v_165, v_173, v_181, v_189);
    uint param_10 = w;
    uint param_11 = row;
    uint param_12 = pc.code_bits;
    uint b = code_at(param_10, param_11, param_12);
    uint param_13 = s;
    uint param_14 = 3u;
    uint how = split_word(param_13, param_14, v_437, pc);
    if (b == 0u)
    {
        return how & 1u;
    }
    if ((how & 4u) != 0u)
    {
        uint param_15 = s;
        uint param_16 = 8u;
        return (v_437.level0[split_word(param_15, param_16, v_437, pc) + (b >> uint(5))] >> (b & 31u)) & 1u;
    }
    if ((how & 2u) == 0u)
    {
        uint param_17 = s;
        uint param_18 = 2u;
        return uint(b <= split_word(param_17, param_18, v_437, pc));
    }
    uint param_19 = s;
    uint param_20 = 8u + (b >> uint(5));
    return (split_word(param_19, param_20, v_437, pc) >> (b & 31u)) & 1u;
}

static inline __attribute__((always_inline))
void rows_put(thread const uint& w, thread const uint& j, thread const uint& v, device Rows0& v_209, device Rows1& v_217, device Rows2& v_225, device Rows3& v_233, device Rows4& v_241, device Rows5& v_249, device Rows6& v_257, device Rows7& v_265)
{
    switch (w)
    {
        case 0u:
        {
            v_209.rows0[j] = v;
            break;
        }
        case 1u:
        {
            v_217.rows1[j] = v;
            break;
        }
        case 2u:
        {
            v_225.rows2[j] = v;
            break;
        }
        case 3u:
        {
            v_233.rows3[j] = v;
            break;
        }
        case 4u:
        {
            v_241.rows4[j] = v;
            break;
        }
        case 5u:
        {
            v_249.rows5[j] = v;
            break;
        }
        case 6u:
        {
            v_257.rows6[j] = v;
            break;
        }
        default:
        {
            v_265.rows7[j] = v;
            break;
        }
    }
}

static inline __attribute__((always_inline))
void scratch_put(thread const uint& w, thread const uint& j, thread const uint& v, device Scratch0& v_328, device Scratch1& v_336, device Scratch2& v_344, device Scratch3& v_352, device Scratch4& v_360, device Scratch5& v_368, device Scratch6& v_376, device Scratch7& v_384)
{
    switch (w)
    {
        case 0u:
        {
            v_328.scratch0[j] = v;
            break;
        }
        case 1u:
        {
            v_336.scratch1[j] = v;
            break;
        }
        case 2u:
        {
            v_344.scratch2[j] = v;
            break;
        }
        case 3u:
        {
            v_352.scratch3[j] = v;
            break;
        }
        case 4u:
        {
            v_360.scratch4[j] = v;
            break;
        }
        case 5u:
        {
            v_368.scratch5[j] = v;
            break;
        }
        case 6u:
        {
            v_376.scratch6[j] = v;
            break;
        }
        default:
        {
            v_384.scratch7[j] = v;
            break;
        }
    }
}

kernel void partition_place(constant Push& pc [[buffer(0)]], device Level& v_437 [[buffer(2)]], const device Bins0& v_131 [[buffer(3)]], const device Bins1& v_141 [[buffer(4)]], const device Bins2& v_149 [[buffer(5)]], const device Bins3& v_157 [[buffer(6)]], const device Bins4& v_165 [[buffer(7)]], const device Bins5& v_173 [[buffer(8)]], const device Bins6& v_181 [[buffer(9)]], const device Bins7& v_189 [[buffer(10)]], device Rows0& v_209 [[buffer(11)]], device Rows1& v_217 [[buffer(12)]], device Rows2& v_225 [[buffer(13)]], device Rows3& v_233 [[buffer(14)]], device Rows4& v_241 [[buffer(15)]], device Rows5& v_249 [[buffer(16)]], device Rows6& v_257 [[buffer(17)]], device Rows7& v_265 [[buffer(18)]], device Scratch0& v_328 [[buffer(19)]], device Scratch1& v_336 [[buffer(20)]], device Scratch2& v_344 [[buffer(21)]], device Scratch3& v_352 [[buffer(22)]], device Scratch4& v_360 [[buffer(23)]], device Scratch5& v_368 [[buffer(24)]], device Scratch6& v_376 [[buffer(25)]], device Scratch7& v_384 [[buffer(26)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]])
{
    threadgroup uint s_scan[WG];
    threadgroup uint s_left_total;
    threadgroup uint s_left_base;
    threadgroup uint s_right_base;
    threadgroup uint s_rows[TILE_ROWS];
    uint lid = gl_LocalInvocationID.x;
    spvUnsafeArray<uint, 8> row;
    uint _682;
    uint _750;
    uint _789;
    uint _804;
    uint _872;
    uint _903;
    for (uint t = gl_WorkGroupID.x; t < pc.num_tiles; t += gl_NumWorkGroups.x)
    {
        uint param = t;
        uint s = split_of_tile(param, v_437, pc);
        uint param_1 = s;
        uint param_2 = 1u;
        uint rows = split_word(param_1, param_2, v_437, pc);
        uint param_3 = s;
        uint param_4 = 0u;
        uint begin = split_word(param_3, param_4, v_437, pc);
        uint param_5 = s;
        uint param_6 = 7u;
        bool from_scratch = split_word(param_5, param_6, v_437, pc) != 0u;
        uint param_7 = s;
        uint param_8 = 4u;
        uint first = (t - split_word(param_7, param_8, v_437, pc)) * TILE_ROWS;
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
                    _682 = scratch_at(param_13, param_14, v_328, v_336, v_344, v_352, v_360, v_368, v_376, v_384);
                }
                else
                {
                    uint param_15 = w;
                    uint param_16 = j;
                    _682 = rows_at(param_15, param_16, v_209, v_217, v_225, v_233, v_241, v_249, v_257, v_265);
                }
                row[k] = _682;
                valid |= (1u << k);
                uint param_17 = s;
                uint param_18 = row[k];
                if (goes_left(param_17, param_18, v_131, v_141, v_149, v_157, v_165, v_173, v_181, v_189, v_437, pc) != 0u)
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
                _750 = s_scan[lid - off];
            }
            else
            {
                _750 = 0u;
            }
            uint v = _750;
            threadgroup_barrier(mem_flags::mem_threadgroup);
            s_scan[lid] += v;
            threadgroup_barrier(mem_flags::mem_threadgroup);
        }
        uint before = s_scan[lid] - mine;
        if (lid == 0u)
        {
            uint total = s_scan[_779];
            s_left_total = total & 65535u;
            if ((total & 65535u) != 0u)
            {
                uint _797 = atomic_fetch_add_explicit((device atomic_uint*)&v_437.level0[2u * s], total & 65535u, memory_order_relaxed);
                _789 = _797;
            }
            else
            {
                _789 = 0u;
            }
            s_left_base = _789;
            if ((total >> uint(16)) != 0u)
            {
                uint _813 = atomic_fetch_add_explicit((device atomic_uint*)&v_437.level0[(2u * s) + 1u], total >> uint(16), memory_order_relaxed);
                _804 = _813;
            }
            else
            {
                _804 = 0u;
            }
            s_right_base = _804;
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
                uint _852 = next_left;
                next_left = _852 + uint(1);
                s_rows[_852] = row[k_1];
            }
            else
            {
                uint _859 = next_right;
                next_right = _859 + uint(1);
                s_rows[_859] = row[k_1];
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
        if ((rows - first) < TILE_ROWS)
        {
            _872 = rows - first;
        }
        else
        {
            _872 = TILE_ROWS;
        }
        uint tile_rows = _872;
        for (uint k_2 = 0u; k_2 < 8u; k_2++)
        {
            uint j_1 = (k_2 * WG) + lid;
            if (j_1 >= tile_rows)
            {
                break;
            }
            if (j_1 < left_total)
            {
                _903 = s_left_base + j_1;
            }
            else
            {
                _903 = (rows - 1u) - (s_right_base + (j_1 - left_total));
            }
            uint dest = _903;
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
                rows_put(param_23, param_24, param_25, v_209, v_217, v_225, v_233, v_241, v_249, v_257, v_265);
            }
            else
            {
                uint param_26 = w_1;
                uint param_27 = i_1;
                uint param_28 = s_rows[j_1];
                scratch_put(param_26, param_27, param_28, v_328, v_336, v_344, v_352, v_360, v_368, v_376, v_384);
            }
        }
        threadgroup_barrier(mem_flags::mem_threadgroup);
    }
}

