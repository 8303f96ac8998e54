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

struct Row
{
    uint2 pair;
    spvUnsafeArray<uint, 8> w;
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

struct Grad0
{
    uint4 grad0[1];
};

struct Grad1
{
    uint4 grad1[1];
};

struct Grad2
{
    uint4 grad2[1];
};

struct Grad3
{
    uint4 grad3[1];
};

struct Grad4
{
    uint4 grad4[1];
};

struct Grad5
{
    uint4 grad5[1];
};

struct Grad6
{
    uint4 grad6[1];
};

struct Grad7
{
    uint4 grad7[1];
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

constant uint WINDOW_SHIFT_tmp [[function_constant(2)]];
constant uint WINDOW_SHIFT = is_function_constant_defined(WINDOW_SHIFT_tmp) ? WINDOW_SHIFT_tmp : 30u;
constant uint LIST_WINDOW_SHIFT = (WINDOW_SHIFT - 2u);
constant uint GRAD_WINDOW_SHIFT = (WINDOW_SHIFT - 4u);

struct Push
{
    uint num_chunks;
    uint chunk_table;
    uint row_words;
    uint hist_len;
    uint block_table;
    uint code_bits;
};

#ifndef SPIRV_CROSS_CONSTANT_ID_1
#define SPIRV_CROSS_CONSTANT_ID_1 2048u
#endif
constant uint SHARED_BINS = SPIRV_CROSS_CONSTANT_ID_1;

struct Offsets
{
    uint feature_offset[1];
};

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Partial
{
    uint2 partial[1];
};

constant uint _791_tmp [[function_constant(0)]];
constant uint _791 = is_function_constant_defined(_791_tmp) ? _791_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_791, 1u, 1u);

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
uint rows_at(thread const uint& w, thread const uint& j, const device Rows0& v_92, const device Rows1& v_102, const device Rows2& v_110, const device Rows3& v_118, const device Rows4& v_126, const device Rows5& v_134, const device Rows6& v_142, const device Rows7& v_150)
{
    switch (w)
    {
        case 0u:
        {
            return v_92.rows0[j];
        }
        case 1u:
        {
            return v_102.rows1[j];
        }
        case 2u:
        {
            return v_110.rows2[j];
        }
        case 3u:
        {
            return v_118.rows3[j];
        }
        case 4u:
        {
            return v_126.rows4[j];
        }
        case 5u:
        {
            return v_134.rows5[j];
        }
        case 6u:
        {
            return v_142.rows6[j];
        }
        default:
        {
            return v_150.rows7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint4 grad_at(thread const uint& w, thread const uint& j, const device Grad0& v_170, const device Grad1& v_179, const device Grad2& v_187, const device Grad3& v_195, const device Grad4& v_203, const device Grad5& v_211, const device Grad6& v_219, const device Grad7& v_227)
{
    switch (w)
    {
        case 0u:
        {
            return v_170.grad0[j];
        }
        case 1u:
        {
            return v_179.grad1[j];
        }
        case 2u:
        {
            return v_187.grad2[j];
        }
        case 3u:
        {
            return v_195.grad3[j];
        }
        case 4u:
        {
            return v_203.grad4[j];
        }
        case 5u:
        {
            return v_211.grad5[j];
        }
        case 6u:
        {
            return v_219.grad6[j];
        }
        default:
        {
            return v_227.grad7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint code_word(thread const uint& i, thread const uint& code_bits)
{
    uint _52;
    if (code_bits == 16u)
    {
        _52 = i >> uint(1);
    }
    else
    {
        _52 = i >> uint(2);
    }
    return _52;
}

static inline __attribute__((always_inline))
uint bins_at(thread const uint& w, thread const uint& j, const device Bins0& v_247, const device Bins1& v_255, const device Bins2& v_263, const device Bins3& v_271, const device Bins4& v_279, const device Bins5& v_287, const device Bins6& v_295, const device Bins7& v_303)
{
    switch (w)
    {
        case 0u:
        {
            return v_247.bins0[j];
        }
        case 1u:
        {
            return v_255.bins1[j];
        }
        case 2u:
        {
            return v_263.bins2[j];
        }
        case 3u:
        {
            return v_271.bins3[j];
        }
        case 4u:
        {
            return v_279.bins4[j];
        }
        case 5u:
        {
            return v_287.bins5[j];
        }
        case 6u:
        {
            return v_295.bins6[j];
        }
        default:
        {
            return v_303.bins7[j];
        }
    }
}

static inline __attribute__((always_inline))
Row load_row(thread const uint& i, const device Rows0& v_92, const device Rows1& v_102, const device Rows2& v_110, const device Rows3& v_118, const device Rows4& v_126, const device Rows5& v_134, const device Rows6& v_142, const device Rows7& v_150, const device Grad0& v_170, const device Grad1& v_179, const device Grad2& v_187, const device Grad3& v_195, const device Grad4& v_203, const device Grad5& v_211, const device Grad6& v_219, const device Grad7& v_227, const device Bins0& v_247, const device Bins1& v_255, const device Bins2& v_263, const device Bins3& v_271, const device Bins4& v_279, const device Bins5& v_287, const device Bins6& v_295, const device Bins7& v_303, thread uint& row_begin, constant Push& pc, thread uint& feature_first, thread uint& feature_count)
{
    uint pos = row_begin + i;
    uint param = pos;
    uint param_1 = LIST_WINDOW_SHIFT;
    uint param_2 = pos;
    uint param_3 = LIST_WINDOW_SHIFT;
    uint param_4 = window_of(param, param_1);
    uint param_5 = window_index(param_2, param_3);
    uint r = rows_at(param_4, param_5, v_92, v_102, v_110, v_118, v_126, v_134, v_142, v_150);
    uint param_6 = r;
    uint param_7 = GRAD_WINDOW_SHIFT;
    uint param_8 = r;
    uint param_9 = GRAD_WINDOW_SHIFT;
    uint param_10 = window_of(param_6, param_7);
    uint param_11 = window_index(param_8, param_9);
    Row row;
    row.pair = grad_at(param_10, param_11, v_170, v_179, v_187, v_195, v_203, v_211, v_219, v_227).xz;
    uint per_word = 32u / pc.code_bits;
    uint param_12 = feature_first;
    uint param_13 = pc.code_bits;
    uint first = (r * pc.row_words) + code_word(param_12, param_13);
    uint lead = feature_first & (per_word - 1u);
    uint words = (((lead + feature_count) + per_word) - 1u) / per_word;
    uint _403;
    for (uint j = 0u; j < 8u; j++)
    {
        uint word = first + j;
        if (j < words)
        {
            uint param_14 = word;
            uint param_15 = LIST_WINDOW_SHIFT;
            uint param_16 = word;
            uint param_17 = LIST_WINDOW_SHIFT;
            uint param_18 = window_of(param_14, param_15);
            uint param_19 = window_index(param_16, param_17);
            _403 = bins_at(param_18, param_19, v_247, v_255, v_263, v_271, v_279, v_287, v_295, v_303);
        }
        else
        {
            _403 = 0u;
        }
        row.w[j] = _403;
    }
    return row;
}

static inline __attribute__((always_inline))
void add_row(thread const Row& row, constant Push& pc, thread uint& feature_first, thread uint& feature_count, thread uint& bin_skip, thread uint& stride, threadgroup uint (&s_g)[SHARED_BINS], threadgroup uint (&s_h)[SHARED_BINS])
{
    int per_word = int(32u / pc.code_bits);
    int lead = int(feature_first) & (per_word - 1);
    int count = int(feature_count);
    for (int j = 0; j < 8; j++)
    {
        for (int q = 0; q < 4; q++)
        {
            int k = ((j * per_word) + q) - lead;
            if (((q >= per_word) || (k < 0)) || (k >= count))
            {
                continue;
            }
            uint b = (row.w[j] >> (uint(q) * pc.code_bits)) & ((1u << pc.code_bits) - 1u);
            if ((b - bin_skip) >= stride)
            {
                continue;
            }
            uint i = ((uint(k) * stride) + b) - bin_skip;
            uint _522 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_g[i], row.pair.x, memory_order_relaxed);
            uint _528 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_h[i], row.pair.y, memory_order_relaxed);
        }
    }
}

kernel void histogram_rows(constant Push& pc [[buffer(0)]], const device Offsets& _560 [[buffer(1)]], device Partial& _774 [[buffer(2)]], const device Rows0& v_92 [[buffer(3)]], const device Rows1& v_102 [[buffer(4)]], const device Rows2& v_110 [[buffer(5)]], const device Rows3& v_118 [[buffer(6)]], const device Rows4& v_126 [[buffer(7)]], const device Rows5& v_134 [[buffer(8)]], const device Rows6& v_142 [[buffer(9)]], const device Rows7& v_150 [[buffer(10)]], const device Grad0& v_170 [[buffer(11)]], const device Grad1& v_179 [[buffer(12)]], const device Grad2& v_187 [[buffer(13)]], const device Grad3& v_195 [[buffer(14)]], const device Grad4& v_203 [[buffer(15)]], const device Grad5& v_211 [[buffer(16)]], const device Grad6& v_219 [[buffer(17)]], const device Grad7& v_227 [[buffer(18)]], const device Bins0& v_247 [[buffer(19)]], const device Bins1& v_255 [[buffer(20)]], const device Bins2& v_263 [[buffer(21)]], const device Bins3& v_271 [[buffer(22)]], const device Bins4& v_279 [[buffer(23)]], const device Bins5& v_287 [[buffer(24)]], const device Bins6& v_295 [[buffer(25)]], const device Bins7& v_303 [[buffer(26)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]])
{
    threadgroup uint s_g[SHARED_BINS];
    threadgroup uint s_h[SHARED_BINS];
    uint lid = gl_LocalInvocationID.x;
    uint chunk = gl_WorkGroupID.x % pc.num_chunks;
    uint e = pc.block_table + (4u * (gl_WorkGroupID.x / pc.num_chunks));
    uint row_begin = _560.feature_offset[e];
    uint row_count = _560.feature_offset[e + 1u];
    uint block = _560.feature_offset[e + 2u] & 65535u;
    uint blocks = _560.feature_offset[e + 2u] >> uint(16);
    uint partial_index = _560.feature_offset[e + 3u];
    uint c = pc.chunk_table + (4u * chunk);
    uint feature_first = _560.feature_offset[c];
    uint feature_count = _560.feature_offset[c + 1u];
    uint bin_skip = _560.feature_offset[c + 2u] - _560.feature_offset[feature_first];
    uint stride = 0u;
    for (uint k = 0u; k < feature_count; k++)
    {
        stride = max(stride, (_560.feature_offset[(feature_first + k) + 1u] - _560.feature_offset[feature_first + k]));
    }
    bool _636 = bin_skip != 0u;
    bool _646;
    if (!_636)
    {
        _646 = stride > _560.feature_offset[c + 3u];
    }
    else
    {
        _646 = _636;
    }
    if (_646)
    {
        stride = _560.feature_offset[c + 3u];
    }
    uint shared_bins = feature_count * stride;
    for (uint i = lid; i < shared_bins; i += WG)
    {
        s_g[i] = 0u;
        s_h[i] = 0u;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint _step = blocks * WG;
    uint i_1 = (block * WG) + lid;
    if (i_1 < row_count)
    {
        uint param = i_1;
        Row current = load_row(param, v_92, v_102, v_110, v_118, v_126, v_134, v_142, v_150, v_170, v_179, v_187, v_195, v_203, v_211, v_219, v_227, v_247, v_255, v_263, v_271, v_279, v_287, v_295, v_303, row_begin, pc, feature_first, feature_count);
        for (;;)
        {
            bool more = (row_count - i_1) > _step;
            Row next = current;
            if (more)
            {
                uint param_1 = i_1 + _step;
                next = load_row(param_1, v_92, v_102, v_110, v_118, v_126, v_134, v_142, v_150, v_170, v_179, v_187, v_195, v_203, v_211, v_219, v_227, v_247, v_255, v_263, v_271, v_279, v_287, v_295, v_303, row_begin, pc, feature_first, feature_count);
            }
            Row param_2 = current;
            add_row(param_2, pc, feature_first, feature_count, bin_skip, stride, s_g, s_h);
            if (!more)
            {
                break;
            }
            current = next;
            i_1 += _step;
            continue;
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint base = partial_index * pc.hist_len;
    for (uint e_1 = lid; e_1 < shared_bins; e_1 += WG)
    {
        uint k_1 = e_1 / stride;
        uint b = (e_1 - (k_1 * stride)) + bin_skip;
        uint first = _560.feature_offset[feature_first + k_1];
        if (b < (_560.feature_offset[(feature_first + k_1) + 1u] - first))
        {
            _774.partial[(base + first) + b] = uint2(s_g[e_1], s_h[e_1]);
        }
    }
}

