#version 450
// hist_reduce.comp -- the second stage of one node's histogram build
// (hist_reduce.glsl). Any number of workgroups works (grid-stride over
// the blocks of 32 bins); the hosts dispatch one a block.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(push_constant) uniform Push {
    uint hist_len;
    uint groups;        // partials to add
    uint partial_first; // the node's first partial
} pc;

#include "hist_reduce.glsl"

void main()
{
    const uint blocks = (pc.hist_len + REDUCE_BLOCK - 1u) / REDUCE_BLOCK;
    for (uint blk = gl_WorkGroupID.x; blk < blocks; blk += gl_NumWorkGroups.x)
        reduce_block(blk, pc.hist_len, pc.groups, pc.partial_first, 0u);
}
