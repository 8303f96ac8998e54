#version 450
// rows_init.comp -- begin_tree: every row belongs to the root, in order.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// One dispatch a window of the row list (bound from row_first on), so a
// list longer than one storage binding is filled window by window.
layout(push_constant) uniform Push {
    uint num_rows;  // rows of this window
    uint row_first; // the window's first position
} pc;
layout(std430, binding = 1) writeonly buffer Rows { uint rows[]; };

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint i = gl_GlobalInvocationID.x; i < pc.num_rows; i += stride)
        rows[i] = pc.row_first + i;
}
