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

constant uint _405_tmp [[function_constant(0)]];
constant uint _405 = is_function_constant_defined(_405_tmp) ? _405_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_405, 1u, 1u);

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
uint rows_at(thread const uint& w, thread const uint& j, const device Rows0& v_53, const device Rows1& v_64, const device Rows2& v_72, const device Rows3& v_80, const device Rows4& v_88, const device Rows5& v_96, const device Rows6& v_104, const device Rows7& v_112)
{
    switch (w)
    {
        case 0u:
        {
            return v_53.rows0[j];
        }
        case 1u:
        {
            return v_64.rows1[j];
        }
        case 2u:
        {
            return v_72.rows2[j];
        }
        case 3u:
        {
            return v_80.rows3[j];
        }
        case 4u:
        {
            return v_88.rows4[j];
        }
        case 5u:
        {
            return v_96.rows5[j];
        }
        case 6u:
        {
            return v_104.rows6[j];
        }
        default:
        {
            return v_112.rows7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint4 grad_at(thread const uint& w, thread const uint& j, const device Grad0& v_132, const device Grad1& v_141, const device Grad2& v_149, const device Grad3& v_157, const device Grad4& v_165, const device Grad5& v_173, const device Grad6& v_181, const device Grad7& v_189)
{
    switch (w)
    {
        case 0u:
        {
            return v_132.grad0[j];
        }
        case 1u:
        {
            return v_141.grad1[j];
        }
        case 2u:
        {
            return v_149.grad2[j];
        }
        case 3u:
        {
            return v_157.grad3[j];
        }
        case 4u:
        {
            return v_165.grad4[j];
        }
        case 5u:
        {
            return v_173.grad5[j];
        }
        case 6u:
        {
            return v_181.grad6[j];
        }
        default:
        {
            return v_189.grad7[j];
        }
    }
}

kernel void histogram(constant Push& pc [[buffer(0)]], const device Bins& _315 [[buffer(1)]], const device Offsets& _333 [[buffer(2)]], device Partial& _390 [[buffer(3)]], const device Rows0& v_53 [[buffer(4)]], const device Rows1& v_64 [[buffer(5)]], const device Rows2& v_72 [[buffer(6)]], const device Rows3& v_80 [[buffer(7)]], const device Rows4& v_88 [[buffer(8)]], const device Rows5& v_96 [[buffer(9)]], const device Rows6& v_104 [[buffer(10)]], const device Rows7& v_112 [[buffer(11)]], const device Grad0& v_132 [[buffer(12)]], const device Grad1& v_141 [[buffer(13)]], const device Grad2& v_149 [[buffer(14)]], const device Grad3& v_157 [[buffer(15)]], const device Grad4& v_165 [[buffer(16)]], const device Grad5& v_173 [[buffer(17)]], const device Grad6& v_181 [[buffer(18)]], const device Grad7& v_189 [[buffer(19)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]])
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
    uint _240 = gl_NumWorkGroups.x * WG;
    uint _247 = (gl_WorkGroupID.x * WG) + lid;
    for (uint stride = _240, i_1 = _247; i_1 < pc.row_count; i_1 += stride)
    {
        uint pos = pc.row_begin + i_1;
        uint param = pos;
        uint param_1 = LIST_WINDOW_SHIFT;
        uint param_2 = pos;
        uint param_3 = LIST_WINDOW_SHIFT;
        uint param_4 = window_of(param, param_1);
        uint param_5 = window_index(param_2, param_3);
        uint r = rows_at(param_4, param_5, v_53, v_64, v_72, v_80, v_88, v_96, v_104, v_112);
        uint param_6 = r;
        uint param_7 = GRAD_WINDOW_SHIFT;
        uint param_8 = r;
        uint param_9 = GRAD_WINDOW_SHIFT;
        uint param_10 = window_of(param_6, param_7);
        uint param_11 = window_index(param_8, param_9);
        uint4 g = grad_at(param_10, param_11, v_132, v_141, v_149, v_157, v_165, v_173, v_181, v_189);
        for (uint k = 0u; k < pc.feature_count; k++)
        {
            uint byte_index = (k * pc.column_bytes) + r;
            uint b = (_315.bins[byte_index >> uint(2)] >> ((byte_index & 3u) * 8u)) & 255u;
            uint i_2 = (_333.feature_offset[pc.feature_first + k] - pc.bin_first) + b;
            uint _350 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_g[i_2], g.x, memory_order_relaxed);
            uint _355 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_h[i_2], g.z, memory_order_relaxed);
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint base = ((pc.partial_first + gl_WorkGroupID.x) * pc.hist_len) + pc.bin_first;
    for (uint i_3 = lid; i_3 < pc.bin_count; i_3 += WG)
    {
        _390.partial[base + i_3] = uint2(s_g[i_3], s_h[i_3]);
    }
}

