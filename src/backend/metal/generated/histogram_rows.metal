#pragma clang diagnostic ignored "-Wmissing-prototypes"
#pragma clang diagnostic ignored "-Wunused-variable"

#include <metal_stdlib>
#include <simd/simd.h>
#include <metal_atomic>

using namespace metal;

struct Row
{
    uint2 pair;
    uint4 q0;
    uint4 q1;
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
    uint4 bins0[1];
};

struct Bins1
{
    uint4 bins1[1];
};

struct Bins2
{
    uint4 bins2[1];
};

struct Bins3
{
    uint4 bins3[1];
};

struct Bins4
{
    uint4 bins4[1];
};

struct Bins5
{
    uint4 bins5[1];
};

struct Bins6
{
    uint4 bins6[1];
};

struct Bins7
{
    uint4 bins7[1];
};

constant uint WINDOW_SHIFT_tmp [[function_constant(2)]];
constant uint WINDOW_SHIFT = is_function_constant_defined(WINDOW_SHIFT_tmp) ? WINDOW_SHIFT_tmp : 30u;
constant uint LIST_WINDOW_SHIFT = (WINDOW_SHIFT - 2u);
constant uint GRAD_WINDOW_SHIFT = (WINDOW_SHIFT - 4u);

struct Push
{
    uint num_chunks;
    uint chunk_table;
    uint row_quads;
    uint hist_len;
    uint block_table;
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

constant uint _707_tmp [[function_constant(0)]];
constant uint _707 = is_function_constant_defined(_707_tmp) ? _707_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_707, 1u, 1u);

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
uint rows_at(thread const uint& w, thread const uint& j, const device Rows0& v_68, const device Rows1& v_79, const device Rows2& v_87, const device Rows3& v_95, const device Rows4& v_103, const device Rows5& v_111, const device Rows6& v_119, const device Rows7& v_127)
{
    switch (w)
    {
        case 0u:
        {
            return v_68.rows0[j];
        }
        case 1u:
        {
            return v_79.rows1[j];
        }
        case 2u:
        {
            return v_87.rows2[j];
        }
        case 3u:
        {
            return v_95.rows3[j];
        }
        case 4u:
        {
            return v_103.rows4[j];
        }
        case 5u:
        {
            return v_111.rows5[j];
        }
        case 6u:
        {
            return v_119.rows6[j];
        }
        default:
        {
            return v_127.rows7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint4 grad_at(thread const uint& w, thread const uint& j, const device Grad0& v_147, const device Grad1& v_156, const device Grad2& v_164, const device Grad3& v_172, const device Grad4& v_180, const device Grad5& v_188, const device Grad6& v_196, const device Grad7& v_204)
{
    switch (w)
    {
        case 0u:
        {
            return v_147.grad0[j];
        }
        case 1u:
        {
            return v_156.grad1[j];
        }
        case 2u:
        {
            return v_164.grad2[j];
        }
        case 3u:
        {
            return v_172.grad3[j];
        }
        case 4u:
        {
            return v_180.grad4[j];
        }
        case 5u:
        {
            return v_188.grad5[j];
        }
        case 6u:
        {
            return v_196.grad6[j];
        }
        default:
        {
            return v_204.grad7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint4 bins_at(thread const uint& w, thread const uint& j, const device Bins0& v_224, const device Bins1& v_232, const device Bins2& v_240, const device Bins3& v_248, const device Bins4& v_256, const device Bins5& v_264, const device Bins6& v_272, const device Bins7& v_280)
{
    switch (w)
    {
        case 0u:
        {
            return v_224.bins0[j];
        }
        case 1u:
        {
            return v_232.bins1[j];
        }
        case 2u:
        {
            return v_240.bins2[j];
        }
        case 3u:
        {
            return v_248.bins3[j];
        }
        case 4u:
        {
            return v_256.bins4[j];
        }
        case 5u:
        {
            return v_264.bins5[j];
        }
        case 6u:
        {
            return v_272.bins6[j];
        }
        default:
        {
            return v_280.bins7[j];
        }
    }
}

static inline __attribute__((always_inline))
Row load_row(thread const uint& i, const device Rows0& v_68, const device Rows1& v_79, const device Rows2& v_87, const device Rows3& v_95, const device Rows4& v_103, const device Rows5& v_111, const device Rows6& v_119, const device Rows7& v_127, const device Grad0& v_147, const device Grad1& v_156, const device Grad2& v_164, const device Grad3& v_172, const device Grad4& v_180, const device Grad5& v_188, const device Grad6& v_196, const device Grad7& v_204, const device Bins0& v_224, const device Bins1& v_232, const device Bins2& v_240, const device Bins3& v_248, const device Bins4& v_256, const device Bins5& v_264, const device Bins6& v_272, const device Bins7& v_280, thread uint& row_begin, constant Push& pc, thread uint& feature_first, thread uint& feature_count)
{
    uint pos = row_begin + i;
    uint param = pos;
    uint param_1 = LIST_WINDOW_SHIFT;
    uint param_2 = pos;
    uint param_3 = LIST_WINDOW_SHIFT;
    uint param_4 = window_of(param, param_1);
    uint param_5 = window_index(param_2, param_3);
    uint r = rows_at(param_4, param_5, v_68, v_79, v_87, v_95, v_103, v_111, v_119, v_127);
    uint param_6 = r;
    uint param_7 = GRAD_WINDOW_SHIFT;
    uint param_8 = r;
    uint param_9 = GRAD_WINDOW_SHIFT;
    uint param_10 = window_of(param_6, param_7);
    uint param_11 = window_index(param_8, param_9);
    Row row;
    row.pair = grad_at(param_10, param_11, v_147, v_156, v_164, v_172, v_180, v_188, v_196, v_204).xz;
    uint first = (r * pc.row_quads) + (feature_first >> uint(4));
    uint param_12 = first;
    uint param_13 = GRAD_WINDOW_SHIFT;
    uint param_14 = first;
    uint param_15 = GRAD_WINDOW_SHIFT;
    uint param_16 = window_of(param_12, param_13);
    uint param_17 = window_index(param_14, param_15);
    row.q0 = bins_at(param_16, param_17, v_224, v_232, v_240, v_248, v_256, v_264, v_272, v_280);
    row.q1 = uint4(0u);
    if (((feature_first & 15u) + feature_count) > 16u)
    {
        uint param_18 = first + 1u;
        uint param_19 = GRAD_WINDOW_SHIFT;
        uint param_20 = first + 1u;
        uint param_21 = GRAD_WINDOW_SHIFT;
        uint param_22 = window_of(param_18, param_19);
        uint param_23 = window_index(param_20, param_21);
        row.q1 = bins_at(param_22, param_23, v_224, v_232, v_240, v_248, v_256, v_264, v_272, v_280);
    }
    return row;
}

static inline __attribute__((always_inline))
void add_row(thread const Row& row, thread uint& feature_first, thread uint& feature_count, thread uint& stride, threadgroup uint (&s_g)[SHARED_BINS], threadgroup uint (&s_h)[SHARED_BINS])
{
    int lead = int(feature_first & 15u);
    int count = int(feature_count);
    uint _405;
    for (int j = 0; j < 8; j++)
    {
        if (j < 4)
        {
            _405 = row.q0[j];
        }
        else
        {
            _405 = row.q1[j - 4];
        }
        uint word = _405;
        for (int q = 0; q < 4; q++)
        {
            int k = ((j * 4) + q) - lead;
            if ((k < 0) || (k >= count))
            {
                continue;
            }
            uint b = (word >> uint(q * 8)) & 255u;
            uint i = (uint(k) * stride) + b;
            uint _466 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_g[i], row.pair.x, memory_order_relaxed);
            uint _472 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_h[i], row.pair.y, memory_order_relaxed);
        }
    }
}

kernel void histogram_rows(constant Push& pc [[buffer(0)]], const device Offsets& _504 [[buffer(1)]], device Partial& _690 [[buffer(2)]], const device Rows0& v_68 [[buffer(3)]], const device Rows1& v_79 [[buffer(4)]], const device Rows2& v_87 [[buffer(5)]], const device Rows3& v_95 [[buffer(6)]], const device Rows4& v_103 [[buffer(7)]], const device Rows5& v_111 [[buffer(8)]], const device Rows6& v_119 [[buffer(9)]], const device Rows7& v_127 [[buffer(10)]], const device Grad0& v_147 [[buffer(11)]], const device Grad1& v_156 [[buffer(12)]], const device Grad2& v_164 [[buffer(13)]], const device Grad3& v_172 [[buffer(14)]], const device Grad4& v_180 [[buffer(15)]], const device Grad5& v_188 [[buffer(16)]], const device Grad6& v_196 [[buffer(17)]], const device Grad7& v_204 [[buffer(18)]], const device Bins0& v_224 [[buffer(19)]], const device Bins1& v_232 [[buffer(20)]], const device Bins2& v_240 [[buffer(21)]], const device Bins3& v_248 [[buffer(22)]], const device Bins4& v_256 [[buffer(23)]], const device Bins5& v_264 [[buffer(24)]], const device Bins6& v_272 [[buffer(25)]], const device Bins7& v_280 [[buffer(26)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]])
{
    threadgroup uint s_g[SHARED_BINS];
    threadgroup uint s_h[SHARED_BINS];
    uint lid = gl_LocalInvocationID.x;
    uint chunk = gl_WorkGroupID.x % pc.num_chunks;
    uint e = pc.block_table + (4u * (gl_WorkGroupID.x / pc.num_chunks));
    uint row_begin = _504.feature_offset[e];
    uint row_count = _504.feature_offset[e + 1u];
    uint block = _504.feature_offset[e + 2u] & 65535u;
    uint blocks = _504.feature_offset[e + 2u] >> uint(16);
    uint partial_index = _504.feature_offset[e + 3u];
    uint c = pc.chunk_table + (4u * chunk);
    uint feature_first = _504.feature_offset[c];
    uint feature_count = _504.feature_offset[c + 1u];
    uint stride = 0u;
    for (uint k = 0u; k < feature_count; k++)
    {
        stride = max(stride, (_504.feature_offset[(feature_first + k) + 1u] - _504.feature_offset[feature_first + k]));
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
        Row current = load_row(param, v_68, v_79, v_87, v_95, v_103, v_111, v_119, v_127, v_147, v_156, v_164, v_172, v_180, v_188, v_196, v_204, v_224, v_232, v_240, v_248, v_256, v_264, v_272, v_280, row_begin, pc, feature_first, feature_count);
        for (;;)
        {
            bool more = (row_count - i_1) > _step;
            Row next = current;
            if (more)
            {
                uint param_1 = i_1 + _step;
                next = load_row(param_1, v_68, v_79, v_87, v_95, v_103, v_111, v_119, v_127, v_147, v_156, v_164, v_172, v_180, v_188, v_196, v_204, v_224, v_232, v_240, v_248, v_256, v_264, v_272, v_280, row_begin, pc, feature_first, feature_count);
            }
            Row param_2 = current;
            add_row(param_2, feature_first, feature_count, stride, s_g, s_h);
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
        uint b = e_1 - (k_1 * stride);
        uint first = _504.feature_offset[feature_first + k_1];
        if (b < (_504.feature_offset[(feature_first + k_1) + 1u] - first))
        {
            _690.partial[(base + first) + b] = uint2(s_g[e_1], s_h[e_1]);
        }
    }
}

