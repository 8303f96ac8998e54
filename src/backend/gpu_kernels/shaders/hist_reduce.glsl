// hist_reduce.glsl -- the second stage of a histogram build, shared by
// hist_reduce.comp (one node a dispatch) and hist_reduce_nodes.comp (the
// nodes of a level): a node's histogram is the sum of its workgroups'
// partial histograms (int32 pairs), added as 32-bit words and
// sign-extended to int64 (no atomics, so the result is independent of
// scheduling). Exact: quantize.h bounds the sum of |value| over all rows
// below 2^31, so the node's sum fits int32 and the wrapping 32-bit sum is
// its low word.
//
// A workgroup takes 32 bins at a time, its WG / 32 slices of invocations
// each adding every (WG / 32)-th partial of them, then the slices' sums
// are added in shared memory: a root's thousand partials are read by many
// invocations at once, not by one a bin.

// Binding 1: the partials, [partial][hist_len]; binding 2: histograms.
layout(std430, binding = 1) readonly buffer Partial { uvec2 partial[]; };
layout(std430, binding = 2) writeonly buffer Hist { uvec4 hist[]; };

const uint REDUCE_BLOCK = 32u; // GPL_REDUCE_BLOCK
shared uvec2 s_sum[WG];

// Bins blk * 32 .. + 31 of the histogram at hist[hist_first], the sum of
// partials partial_first .. + groups - 1. Every invocation of the
// workgroup calls it (it has barriers).
void reduce_block(uint blk, uint hist_len, uint groups, uint partial_first, uint hist_first)
{
    const uint lid = gl_LocalInvocationID.x;
    const uint lane = lid % REDUCE_BLOCK, slice = lid / REDUCE_BLOCK;
    const uint slices = WG / REDUCE_BLOCK;
    const uint b = blk * REDUCE_BLOCK + lane;
    uvec2 sum = uvec2(0u);
    if (b < hist_len)
        for (uint k = slice; k < groups; k += slices)
            sum += partial[(partial_first + k) * hist_len + b];
    s_sum[lid] = sum;
    barrier();
    if (slice == 0u && b < hist_len) {
        for (uint s = 1u; s < slices; s++) sum += s_sum[s * REDUCE_BLOCK + lane];
        hist[hist_first + b] = uvec4(sum.x, (sum.x >> 31) * 0xffffffffu, sum.y,
                                     (sum.y >> 31) * 0xffffffffu);
    }
    barrier();
}
