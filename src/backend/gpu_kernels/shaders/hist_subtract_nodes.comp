#version 450
// hist_subtract_nodes.comp -- hist_subtract.comp for the nodes of a level
// in one dispatch: entry e of the table (4 words: the first elements of
// the parent's, the built child's and the target's histograms in the
// bound run of slots, unused; gpl_hist_subtraction) owns work items
// e * blocks .. + blocks - 1, one a block of WG bins; workgroups take the
// items grid-stride. The host keeps entries x blocks within 32 bits.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(push_constant) uniform Push {
    uint hist_len;
    uint entries;     // subtractions of this dispatch
    uint table_first; // word of its first entry in `table`
} pc;

layout(std430, binding = 1) buffer Hist { uvec4 hist[]; };
layout(std430, binding = 2) readonly buffer Table { uint table[]; };

void main()
{
    const uint blocks = (pc.hist_len + WG - 1u) / WG;
    const uint items = pc.entries * blocks;
    for (uint t = gl_WorkGroupID.x; t < items; t += gl_NumWorkGroups.x) {
        const uint e = pc.table_first + 4u * (t / blocks);
        const uint b = (t % blocks) * WG + gl_LocalInvocationID.x;
        if (b >= pc.hist_len) continue;
        const uvec4 p = hist[table[e] + b], q = hist[table[e + 1u] + b];
        hist[table[e + 2u] + b] = uvec4(sub64(p.xy, q.xy), sub64(p.zw, q.zw));
    }
}
