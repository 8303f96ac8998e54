#pragma clang diagnostic ignored "-Wmissing-prototypes"
#pragma clang diagnostic ignored "-Wunused-variable"

#include <metal_stdlib>
#include <simd/simd.h>
#include <metal_atomic>

using namespace metal;

#ifndef SPIRV_CROSS_CONSTANT_ID_1
#define SPIRV_CROSS_CONSTANT_ID_1 1024u
#endif
constant uint SHARED_BINS = SPIRV_CROSS_CONSTANT_ID_1;

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

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Rows
{
    uint rows[1];
};

struct Grad
{
    uint4 grad[1];
};

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
    uint4 partial[1];
};

constant uint _257_tmp [[function_constant(0)]];
constant uint _257 = is_function_constant_defined(_257_tmp) ? _257_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_257, 1u, 1u);

static inline __attribute__((always_inline))
void add_pair(thread const uint& i, thread const uint4& x, threadgroup uint (&s_glo)[SHARED_BINS], threadgroup uint (&s_ghi)[SHARED_BINS], threadgroup uint (&s_hlo)[SHARED_BINS], threadgroup uint (&s_hhi)[SHARED_BINS])
{
    uint _27 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_glo[i], x.x, memory_order_relaxed);
    uint old = _27;
    uint carry = uint((old + x.x) < old);
    uint _44 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_ghi[i], x.y + carry, memory_order_relaxed);
    uint _51 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_hlo[i], x.z, memory_order_relaxed);
    old = _51;
    carry = uint((old + x.z) < old);
    uint _67 = atomic_fetch_add_explicit((threadgroup atomic_uint*)&s_hhi[i], x.w + carry, memory_order_relaxed);
}

kernel void histogram(constant Push& pc [[buffer(0)]], const device Rows& _130 [[buffer(1)]], const device Grad& _143 [[buffer(2)]], const device Bins& _171 [[buffer(3)]], const device Offsets& _187 [[buffer(4)]], device Partial& _237 [[buffer(5)]], uint3 gl_LocalInvocationID [[thread_position_in_threadgroup]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_WorkGroupID [[threadgroup_position_in_grid]])
{
    threadgroup uint s_glo[SHARED_BINS];
    threadgroup uint s_ghi[SHARED_BINS];
    threadgroup uint s_hlo[SHARED_BINS];
    threadgroup uint s_hhi[SHARED_BINS];
    uint lid = gl_LocalInvocationID.x;
    for (uint i = lid; i < pc.bin_count; i += WG)
    {
        s_glo[i] = 0u;
        s_ghi[i] = 0u;
        s_hlo[i] = 0u;
        s_hhi[i] = 0u;
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint _108 = gl_NumWorkGroups.x * WG;
    uint _115 = (gl_WorkGroupID.x * WG) + lid;
    for (uint stride = _108, i_1 = _115; i_1 < pc.row_count; i_1 += stride)
    {
        uint r = _130.rows[pc.row_begin + i_1];
        uint4 g = _143.grad[r];
        for (uint k = 0u; k < pc.feature_count; k++)
        {
            uint byte_index = (k * pc.column_bytes) + r;
            uint b = (_171.bins[byte_index >> uint(2)] >> ((byte_index & 3u) * 8u)) & 255u;
            uint param = (_187.feature_offset[pc.feature_first + k] - pc.bin_first) + b;
            uint4 param_1 = g;
            add_pair(param, param_1, s_glo, s_ghi, s_hlo, s_hhi);
        }
    }
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint base = ((pc.partial_first + gl_WorkGroupID.x) * pc.hist_len) + pc.bin_first;
    for (uint i_2 = lid; i_2 < pc.bin_count; i_2 += WG)
    {
        _237.partial[base + i_2] = uint4(s_glo[i_2], s_ghi[i_2], s_hlo[i_2], s_hhi[i_2]);
    }
}

