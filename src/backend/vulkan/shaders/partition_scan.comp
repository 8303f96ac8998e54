#version 450
// partition_scan.comp -- stage 2: one workgroup a split turns the tiles'
// left counts into exclusive prefix sums (in place) and writes the two
// child row counts, which are all the host reads back.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(std430, binding = 1) buffer Tiles { uint tile_left[]; };
layout(std430, binding = 2) writeonly buffer Counts { uint child_rows[]; };

#include "partition_push.glsl"

shared uint s_scan[WG];

void main()
{
    const uint lid = gl_LocalInvocationID.x;
    uint carry = 0u;
    for (uint base = 0u; base < pc.num_tiles; base += WG) {
        const uint t = base + lid;
        const uint mine = t < pc.num_tiles ? tile_left[pc.tile_first + t] : 0u;
        s_scan[lid] = mine;
        barrier();
        // Hillis-Steele inclusive scan over the workgroup.
        for (uint off = 1u; off < WG; off <<= 1) {
            const uint v = lid >= off ? s_scan[lid - off] : 0u;
            barrier();
            s_scan[lid] += v;
            barrier();
        }
        if (t < pc.num_tiles) tile_left[pc.tile_first + t] = carry + s_scan[lid] - mine;
        carry += s_scan[WG - 1u];
        barrier();
    }
    if (lid == 0u) {
        child_rows[2u * pc.split] = carry;
        child_rows[2u * pc.split + 1u] = pc.row_count - carry;
    }
}
