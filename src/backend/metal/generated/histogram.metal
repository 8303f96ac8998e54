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
    uint slots;
    uint slot_bins;
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

constant uint _462_tmp [[function_constant(0)]];
constant uint _462 = is_function_constant_defined(_462_tmp) ? _462_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_462, 1u, 1u);

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

kernel void histogram(constant Push& pc [[buffer(0)]], const device Bins& _342 [[buffer(1)]], const device Offsets& _421 [[buffer(2)]], device Partial& _445 [[buffer(3)]], const device Rows0& v_53 [[buffer(4)]], const device Rows1& v_64 [[buffer(5)]], const device Rows2& v_72 [[buffer(6)]], const device Rows3& v_80 [[buffer(7)]], const device Rows4& v_88 [[buffer(8)]], const device Rows5& v_96 [[buffer(9)]], const device Rows6& v_104 [[buffer(10)]], const device Rows7& v_112 [[buffer(11)]], const device Grad0& v_132 [[buffer(12)]], const device Grad1& v_141 [[buffer(13)]], const device Grad2& v_149 [[buffer(14)]], const device Grad3& v_157 [[buffer(15)]], const device Grad4& v_165 [[buffer(16)]], const device Grad5& v_173 [[buffer(17)]], const device Grad6& v_181 [[buffer(18)]], const device Grad7& v_189 [[buffer(19)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]])
{
    threadgroup uint s_g[SHARED_BINS];
    threadgroup uint s_h[SHARED_BINS];
    uint lid = gl_LocalInvocationID.x;
    uint entries = pc.slots * pc.slot_bins;
    for (uint e = lid; e < entries; e += WG)
    {
        s_g[e] = 0u;
        s_h[e] = 0u;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint j = lid % pc.slots;
    uint rows_step = WG / pc.slots;
    bool _255 = j < pc.feature_count;
    bool _264;
    if (_255)
    {
        _264 = (lid / pc.slots) < rows_step;
    }
    else
    {
        _264 = _255;
    }
    if (_264)
    {
        uint column = j * pc.column_bytes;
        uint _278 = gl_NumWorkGroups.x * rows_step;
        uint _289 = (gl_WorkGroupID.x * rows_step) + (lid / pc.slots);
        for (uint stride = _278, i = _289; i < pc.row_count; i += stride)
        {
            uint pos = pc.row_begin + i;
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
            uint byte_index = column + r;
            uint b = (_342.bins[byte_index >> uint(2)] >> ((byte_index & 3u) * 8u)) & 255u;
            uint _365 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_g[(b * pc.slots) + j], g.x, memory_order_relaxed);
            uint _375 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_h[(b * pc.slots) + j], g.z, memory_order_relaxed);
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint base = (pc.partial_first + gl_WorkGroupID.x) * pc.hist_len;
    for (uint e_1 = lid; e_1 < entries; e_1 += WG)
    {
        uint f = e_1 % pc.slots;
        uint b_1 = e_1 / pc.slots;
        if (f >= pc.feature_count)
        {
            continue;
        }
        uint first = _421.feature_offset[pc.feature_first + f];
        if (b_1 < (_421.feature_offset[(pc.feature_first + f) + 1u] - first))
        {
            _445.partial[(base + first) + b_1] = uint2(s_g[e_1], s_h[e_1]);
        }
    }
}

