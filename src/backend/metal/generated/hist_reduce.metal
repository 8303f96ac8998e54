#pragma clang diagnostic ignored "-Wmissing-prototypes"

#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Push
{
    uint hist_len;
    uint groups;
    uint partial_first;
};

struct Partial
{
    uint2 partial[1];
};

struct Hist
{
    uint4 hist[1];
};

constant uint _145_tmp [[function_constant(0)]];
constant uint _145 = is_function_constant_defined(_145_tmp) ? _145_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_145, 1u, 1u);

static inline __attribute__((always_inline))
uint2 add64(thread const uint2& a, thread const uint2& b)
{
    uint lo = a.x + b.x;
    uint carry = uint(lo < a.x);
    return uint2(lo, (a.y + b.y) + carry);
}

kernel void hist_reduce(constant Push& pc [[buffer(0)]], const device Partial& _87 [[buffer(1)]], device Hist& _131 [[buffer(2)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _49 = gl_NumWorkGroups.x * WG;
    for (uint stride = _49, b = gl_GlobalInvocationID.x; b < pc.hist_len; b += stride)
    {
        uint2 g = uint2(0u);
        uint2 h = uint2(0u);
        for (uint k = 0u; k < pc.groups; k++)
        {
            uint2 x = _87.partial[((pc.partial_first + k) * pc.hist_len) + b];
            uint2 param = g;
            uint2 param_1 = uint2(x.x, (x.x >> uint(31)) * 4294967295u);
            g = add64(param, param_1);
            uint2 param_2 = h;
            uint2 param_3 = uint2(x.y, (x.y >> uint(31)) * 4294967295u);
            h = add64(param_2, param_3);
        }
        _131.hist[b] = uint4(g, h);
    }
}

