#version 450
// hist_reduce.comp -- the second stage: a node's histogram is the sum of
// the partial histograms of the workgroups of histogram.comp (int32 pairs),
// added as 32-bit words and sign-extended to int64 (no atomics, so the
// result is independent of scheduling). Exact: quantize.h bounds the sum of
// |value| over all rows below 2^31, so the node's sum fits int32 and the
// wrapping 32-bit sum is its low word.
//
// A workgroup takes 32 bins at a time, its WG / 32 slices of invocations
// each adding every (WG / 32)-th partial of them, then the slices' sums
// are added in shared memory: a root's thousand partials are read by many
// invocations at once, not by one a bin. Any number of workgroups works
// (grid-stride over the blocks of 32 bins); the hosts dispatch one a block.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(push_constant) uniform Push {
    uint hist_len;
    uint groups;        // partials to add
    uint partial_first; // the node's first partial
} pc;

layout(std430, binding = 1) readonly buffer Partial { uvec2 partial[]; };
layout(std430, binding = 2) writeonly buffer Hist { uvec4 hist[]; };

const uint BLOCK = 32u;
shared uvec2 s_sum[WG];

void main()
{
    const uint lid = gl_LocalInvocationID.x;
    const uint lane = lid % BLOCK, slice = lid / BLOCK, slices = WG / BLOCK;
    const uint blocks = (pc.hist_len + BLOCK - 1u) / BLOCK;
    for (uint blk = gl_WorkGroupID.x; blk < blocks; blk += gl_NumWorkGroups.x) {
        const uint b = blk * BLOCK + lane;
        uvec2 sum = uvec2(0u);
        if (b < pc.hist_len)
            for (uint k = slice; k < pc.groups; k += slices)
                sum += partial[(pc.partial_first + k) * pc.hist_len + b];
        s_sum[lid] = sum;
        barrier();
        if (slice == 0u && b < pc.hist_len) {
            for (uint s = 1u; s < slices; s++) sum += s_sum[s * BLOCK + lane];
            hist[b] = uvec4(sum.x, (sum.x >> 31) * 0xffffffffu, sum.y,
                            (sum.y >> 31) * 0xffffffffu);
        }
        barrier();
    }
}
