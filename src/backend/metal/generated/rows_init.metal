#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Push
{
    uint num_rows;
    uint row_first;
};

struct Rows
{
    uint rows[1];
};

constant uint _53_tmp [[function_constant(0)]];
constant uint _53 = is_function_constant_defined(_53_tmp) ? _53_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_53, 1u, 1u);

kernel void rows_init(constant Push& pc [[buffer(0)]], device Rows& _41 [[buffer(1)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _17 = gl_NumWorkGroups.x * WG;
    for (uint stride = _17, i = gl_GlobalInvocationID.x; i < pc.num_rows; i += stride)
    {
        _41.rows[i] = pc.row_first + i;
    }
}

