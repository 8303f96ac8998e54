#version 450
// hist_subtract.comp -- target = parent - built, bin by bin, in 64-bit
// two's complement carried in word pairs: the larger child for free.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(push_constant) uniform Push { uint hist_len; } pc;

layout(std430, binding = 1) readonly buffer Parent { uvec4 parent[]; };
layout(std430, binding = 2) readonly buffer Built { uvec4 built[]; };
layout(std430, binding = 3) writeonly buffer Target { uvec4 target[]; };

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint b = gl_GlobalInvocationID.x; b < pc.hist_len; b += stride) {
        const uvec4 p = parent[b], q = built[b];
        target[b] = uvec4(sub64(p.xy, q.xy), sub64(p.zw, q.zw));
    }
}
