#pragma clang diagnostic ignored "-Wmissing-prototypes"

#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

template<typename T>
[[clang::optnone]] T spvFAdd(T l, T r)
{
    return fma(T(1), l, r);
}

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Push
{
    uint row_begin;
    uint row_count;
    uint num_outputs;
    uint output_index;
    float value;
};

struct Rows
{
    uint rows[1];
};

struct Margins
{
    float margins[1];
};

constant uint _81_tmp [[function_constant(0)]];
constant uint _81 = is_function_constant_defined(_81_tmp) ? _81_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_81, 1u, 1u);

kernel void update_margins(constant Push& pc [[buffer(0)]], const device Rows& _43 [[buffer(1)]], device Margins& _65 [[buffer(2)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _17 = gl_NumWorkGroups.x * WG;
    for (uint stride = _17, i = gl_GlobalInvocationID.x; i < pc.row_count; i += stride)
    {
        uint m = (_43.rows[pc.row_begin + i] * pc.num_outputs) + pc.output_index;
        float v = spvFAdd(_65.margins[m], pc.value);
        _65.margins[m] = v;
    }
}

