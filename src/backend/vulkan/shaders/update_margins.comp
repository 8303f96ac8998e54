#version 450
// update_margins.comp -- margins[row][output] += the leaf value of the
// row's leaf, for the rows of one leaf (a dispatch a leaf; leaves hold
// disjoint rows, so the dispatches of a tree need no barrier between them).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(push_constant) uniform Push {
    uint row_begin;
    uint row_count;
    uint num_outputs;
    uint output_index;
    float value;
} pc;

layout(std430, binding = 1) readonly buffer Rows { uint rows[]; };
layout(std430, binding = 2) buffer Margins { float margins[]; };

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint i = gl_GlobalInvocationID.x; i < pc.row_count; i += stride) {
        const uint m = rows[pc.row_begin + i] * pc.num_outputs + pc.output_index;
        precise float v = margins[m] + pc.value;
        margins[m] = v;
    }
}
