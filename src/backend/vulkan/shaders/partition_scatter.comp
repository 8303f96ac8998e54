#version 450
// partition_scatter.comp -- stage 3: every row goes to its place in the
// scratch row list: left rows first, right rows after all left rows, each
// side in the original order (a stable partition, as the CPU reference).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(std430, binding = 1) readonly buffer Rows { uint rows[]; };
layout(std430, binding = 2) readonly buffer Column { uint column[]; };
layout(std430, binding = 3) readonly buffer Tiles { uint tile_left[]; };
layout(std430, binding = 4) readonly buffer Counts { uint child_rows[]; };
layout(std430, binding = 5) writeonly buffer Scratch { uint scratch[]; };

#include "partition.glsl"

shared uint s_scan[WG];

void main()
{
    const uint lid = gl_LocalInvocationID.x;
    const uint total_left = child_rows[2u * pc.split];
    for (uint t = gl_WorkGroupID.x; t < pc.num_tiles; t += gl_NumWorkGroups.x) {
        const uint i = t * WG + lid;
        const bool live = i < pc.row_count;
        const uint row = live ? rows[pc.row_begin + i] : 0u;
        const uint left = live ? goes_left(row) : 0u;
        s_scan[lid] = left;
        barrier();
        for (uint off = 1u; off < WG; off <<= 1) {
            const uint v = lid >= off ? s_scan[lid - off] : 0u;
            barrier();
            s_scan[lid] += v;
            barrier();
        }
        if (live) {
            const uint left_before = tile_left[pc.tile_first + t] + s_scan[lid] - left;
            const uint right_before = i - left_before; // positions before i going right
            const uint dest = left != 0u ? left_before : total_left + right_before;
            scratch[pc.row_begin + dest] = row;
        }
        barrier();
    }
}
