#version 450
// rows_init.comp -- begin_tree: every row belongs to the root, in order.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(push_constant) uniform Push { uint num_rows; } pc;
layout(std430, binding = 1) writeonly buffer Rows { uint rows[]; };

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint i = gl_GlobalInvocationID.x; i < pc.num_rows; i += stride) rows[i] = i;
}
