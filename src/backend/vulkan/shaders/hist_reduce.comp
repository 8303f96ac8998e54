#version 450
// hist_reduce.comp -- the second stage: a node's histogram is the sum of
// the partial histograms of the workgroups of histogram.comp (int32 pairs),
// added as 32-bit words and sign-extended to int64 (no atomics, so the
// result is independent of scheduling). Exact: quantize.h bounds the sum of
// |value| over all rows below 2^31, so the node's sum fits int32 and the
// wrapping 32-bit sum is its low word.
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
        uvec2 sum = uvec2(0u);
        for (uint k = 0u; k < pc.groups; k++)
            sum += partial[(pc.partial_first + k) * pc.hist_len + b];
        hist[b] = uvec4(sum.x, (sum.x >> 31) * 0xffffffffu, sum.y, (sum.y >> 31) * 0xffffffffu);
    }
}
