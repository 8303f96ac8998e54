#version 450
// hist_reduce.comp -- the second stage: a node's histogram is the sum of
// the partial histograms of the workgroups of histogram.comp (int32 pairs),
// sign-extended and added in group order with explicit carries (no
// atomics, so the result is exact and independent of scheduling).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(push_constant) uniform Push {
    uint hist_len;
    uint groups;        // partials to add
    uint partial_first; // the node's first partial
} pc;

layout(std430, binding = 1) readonly buffer Partial { uvec2 partial[]; };
layout(std430, binding = 2) writeonly buffer Hist { uvec4 hist[]; };

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint b = gl_GlobalInvocationID.x; b < pc.hist_len; b += stride) {
        uvec2 g = uvec2(0u), h = uvec2(0u);
        for (uint k = 0u; k < pc.groups; k++) {
            const uvec2 x = partial[(pc.partial_first + k) * pc.hist_len + b];
            g = add64(g, uvec2(x.x, (x.x >> 31) * 0xffffffffu));
            h = add64(h, uvec2(x.y, (x.y >> 31) * 0xffffffffu));
        }
        hist[b] = uvec4(g, h);
    }
}
