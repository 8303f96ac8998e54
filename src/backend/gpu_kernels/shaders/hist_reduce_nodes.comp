#version 450
// hist_reduce_nodes.comp -- the second stage of the histogram builds of a
// level's nodes in one dispatch (hist_reduce.glsl): entry e of the node
// table (4 words: first partial, partials, the histogram's first element
// in the bound run of slots, unused; gpl_hist_node) owns work items
// e * blocks .. + blocks - 1, one a block of 32 bins; workgroups take the
// items grid-stride. The host keeps entries x blocks within 32 bits.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(push_constant) uniform Push {
    uint hist_len;
    uint entries;     // nodes of this dispatch
    uint table_first; // word of its first entry in `table`
} pc;

#include "hist_reduce.glsl"
layout(std430, binding = 3) readonly buffer Table { uint table[]; };

void main()
{
    const uint blocks = (pc.hist_len + REDUCE_BLOCK - 1u) / REDUCE_BLOCK;
    const uint items = pc.entries * blocks;
    for (uint t = gl_WorkGroupID.x; t < items; t += gl_NumWorkGroups.x) {
        const uint e = pc.table_first + 4u * (t / blocks);
        reduce_block(t % blocks, pc.hist_len, table[e + 1u], table[e], table[e + 2u]);
    }
}
