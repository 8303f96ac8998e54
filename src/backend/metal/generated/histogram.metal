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

struct Push
{
    uint row_begin;
    uint row_count;
    uint feature_first;
    uint feature_count;
    uint bin_first;
    uint bin_count;
    uint column_bytes;
    uint hist_len;
    uint partial_first;
    uint code_bits;
};

#ifndef SPIRV_CROSS_CONSTANT_ID_1
#define SPIRV_CROSS_CONSTANT_ID_1 2048u
#endif
constant uint SHARED_BINS = SPIRV_CROSS_CONSTANT_ID_1;
constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;
constant uint WINDOW_SHIFT_tmp [[function_constant(2)]];
constant uint WINDOW_SHIFT = is_function_constant_defined(WINDOW_SHIFT_tmp) ? WINDOW_SHIFT_tmp : 30u;
constant uint LIST_WINDOW_SHIFT = (WINDOW_SHIFT - 2u);
constant uint GRAD_WINDOW_SHIFT = (WINDOW_SHIFT - 4u);

struct Bins
{
    uint bins[1];
};

struct Offsets
{
    uint feature_offset[1];
};

struct Partial
{
    uint2 partial[1];
};

constant uint _469_tmp [[function_constant(0)]];
constant uint _469 = is_function_constant_defined(_469_tmp) ? _469_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_469, 1u, 1u);

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
uint rows_at(thread const uint& w, thread const uint& j, const device Rows0& v_106, const device Rows1& v_116, const device Rows2& v_124, const device Rows3& v_132, const device Rows4& v_140, const device Rows5& v_148, const device Rows6& v_156, const device Rows7& v_164)
{
    switch (w)
    {
        case 0u:
        {
            return v_106.rows0[j];
        }
        case 1u:
        {
            return v_116.rows1[j];
        }
        case 2u:
        {
            return v_124.rows2[j];
        }
        case 3u:
        {
            return v_132.rows3[j];
        }
        case 4u:
        {
            return v_140.rows4[j];
        }
        case 5u:
        {
            return v_148.rows5[j];
        }
        case 6u:
        {
            return v_156.rows6[j];
        }
        default:
        {
            return v_164.rows7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint4 grad_at(thread const uint& w, thread const uint& j, const device Grad0& v_184, const device Grad1& v_193, const device Grad2& v_201, const device Grad3& v_209, const device Grad4& v_217, const device Grad5& v_225, const device Grad6& v_233, const device Grad7& v_241)
{
    switch (w)
    {
        case 0u:
        {
            return v_184.grad0[j];
        }
        case 1u:
        {
            return v_193.grad1[j];
        }
        case 2u:
        {
            return v_201.grad2[j];
        }
        case 3u:
        {
            return v_209.grad3[j];
        }
        case 4u:
        {
            return v_217.grad4[j];
        }
        case 5u:
        {
            return v_225.grad5[j];
        }
        case 6u:
        {
            return v_233.grad6[j];
        }
        default:
        {
            return v_241.grad7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint code_word(thread const uint& i, thread const uint& code_bits)
{
    uint _41;
    if (code_bits == 16u)
    {
        _41 = i >> uint(1);
    }
    else
    {
        _41 = i >> uint(2);
    }
    return _41;
}

static inline __attribute__((always_inline))
uint code_at(thread const uint& w, thread const uint& i, thread const uint& code_bits)
{
    uint _57;
    if (code_bits == 16u)
    {
        _57 = (w >> ((i & 1u) * 16u)) & 65535u;
    }
    else
    {
        _57 = (w >> ((i & 3u) * 8u)) & 255u;
    }
    return _57;
}

kernel void histogram(constant Push& pc [[buffer(0)]], const device Bins& _370 [[buffer(1)]], const device Offsets& _390 [[buffer(2)]], device Partial& _454 [[buffer(3)]], const device Rows0& v_106 [[buffer(4)]], const device Rows1& v_116 [[buffer(5)]], const device Rows2& v_124 [[buffer(6)]], const device Rows3& v_132 [[buffer(7)]], const device Rows4& v_140 [[buffer(8)]], const device Rows5& v_148 [[buffer(9)]], const device Rows6& v_156 [[buffer(10)]], const device Rows7& v_164 [[buffer(11)]], const device Grad0& v_184 [[buffer(12)]], const device Grad1& v_193 [[buffer(13)]], const device Grad2& v_201 [[buffer(14)]], const device Grad3& v_209 [[buffer(15)]], const device Grad4& v_217 [[buffer(16)]], const device Grad5& v_225 [[buffer(17)]], const device Grad6& v_233 [[buffer(18)]], const device Grad7& v_241 [[buffer(19)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]])
{
    threadgroup uint s_g[SHARED_BINS];
    threadgroup uint s_h[SHARED_BINS];
    uint lid = gl_LocalInvocationID.x;
    for (uint i = lid; i < pc.bin_count; i += WG)
    {
        s_g[i] = 0u;
        s_h[i] = 0u;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint _291 = gl_NumWorkGroups.x * WG;
    uint _298 = (gl_WorkGroupID.x * WG) + lid;
    for (uint stride = _291, i_1 = _298; i_1 < pc.row_count; i_1 += stride)
    {
        uint pos = pc.row_begin + i_1;
        uint param = pos;
        uint param_1 = LIST_WINDOW_SHIFT;
        uint param_2 = pos;
        uint param_3 = LIST_WINDOW_SHIFT;
        uint param_4 = window_of(param, param_1);
        uint param_5 = window_index(param_2, param_3);
        uint r = rows_at(param_4, param_5, v_106, v_116, v_124, v_132, v_140, v_148, v_156, v_164);
        uint param_6 = r;
        uint param_7 = GRAD_WINDOW_SHIFT;
        uint param_8 = r;
        uint param_9 = GRAD_WINDOW_SHIFT;
        uint param_10 = window_of(param_6, param_7);
        uint param_11 = window_index(param_8, param_9);
        uint4 g = grad_at(param_10, param_11, v_184, v_193, v_201, v_209, v_217, v_225, v_233, v_241);
        for (uint k = 0u; k < pc.feature_count; k++)
        {
            uint code = (k * (pc.column_bytes / (pc.code_bits >> uint(3)))) + r;
            uint param_12 = code;
            uint param_13 = pc.code_bits;
            uint param_14 = _370.bins[code_word(param_12, param_13)];
            uint param_15 = code;
            uint param_16 = pc.code_bits;
            uint b = code_at(param_14, param_15, param_16);
            uint i_2 = (_390.feature_offset[pc.feature_first + k] - pc.bin_first) + b;
            if (i_2 >= pc.bin_count)
            {
                continue;
            }
            uint _414 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_g[i_2], g.x, memory_order_relaxed);
            uint _419 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_h[i_2], g.z, memory_order_relaxed);
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint base = ((pc.partial_first + gl_WorkGroupID.x) * pc.hist_len) + pc.bin_first;
    for (uint i_3 = lid; i_3 < pc.bin_count; i_3 += WG)
    {
        _454.partial[base + i_3] = uint2(s_g[i_3], s_h[i_3]);
    }
}

