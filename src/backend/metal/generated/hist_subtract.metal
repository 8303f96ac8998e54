#pragma clang diagnostic ignored "-Wmissing-prototypes"

#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Push
{
    uint hist_len;
};

struct Parent
{
    uint4 parent[1];
};

struct Built
{
    uint4 built[1];
};

struct Target
{
    uint4 target[1];
};

constant uint _115_tmp [[function_constant(0)]];
constant uint _115 = is_function_constant_defined(_115_tmp) ? _115_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_115, 1u, 1u);

static inline __attribute__((always_inline))
uint2 sub64(thread const uint2& a, thread const uint2& b)
{
    uint borrow = uint(a.x < b.x);
    return uint2(a.x - b.x, (a.y - b.y) - borrow);
}

kernel void hist_subtract(constant Push& pc [[buffer(0)]], const device Parent& _74 [[buffer(1)]], const device Built& _83 [[buffer(2)]], device Target& _90 [[buffer(3)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _48 = gl_NumWorkGroups.x * WG;
    for (uint stride = _48, b = gl_GlobalInvocationID.x; b < pc.hist_len; b += stride)
    {
        uint4 p = _74.parent[b];
        uint4 q = _83.built[b];
        uint2 param = p.xy;
        uint2 param_1 = q.xy;
        uint2 param_2 = p.zw;
        uint2 param_3 = q.zw;
        _90.target[b] = uint4(sub64(param, param_1), sub64(param_2, param_3));
    }
}

