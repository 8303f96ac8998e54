#version 450
// partition_scan.comp -- stage 2: a workgroup a split turns the split's
// tile counts into exclusive prefix sums (in place) and writes its two
// child row counts, which are all the host reads back.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(std430, binding = 1) buffer Tiles { uint tile_left[]; };
layout(std430, binding = 2) buffer Level { uint level[]; };

#include "partition_push.glsl"

shared uint s_scan[WG];

void main()
{
    const uint lid = gl_LocalInvocationID.x;
    for (uint s = gl_WorkGroupID.x; s < pc.num_splits; s += gl_NumWorkGroups.x) {
        const uint first = split_word(s, S_TILE_FIRST), tiles = split_word(s, S_NUM_TILES);
        uint carry = 0u;
        for (uint base = 0u; base < tiles; base += WG) {
            const uint t = base + lid;
            const uint mine = t < tiles ? tile_left[first + t] : 0u;
            s_scan[lid] = mine;
            barrier();
            // Hillis-Steele inclusive scan over the workgroup.
            for (uint off = 1u; off < WG; off <<= 1) {
                const uint v = lid >= off ? s_scan[lid - off] : 0u;
                barrier();
                s_scan[lid] += v;
                barrier();
            }
            if (t < tiles) tile_left[first + t] = carry + s_scan[lid] - mine;
            carry += s_scan[WG - 1u];
            barrier();
        }
        if (lid == 0u) {
            level[2u * s] = carry;
            level[2u * s + 1u] = split_word(s, S_ROW_COUNT) - carry;
        }
    }
}
