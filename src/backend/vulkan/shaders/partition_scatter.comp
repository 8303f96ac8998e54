#version 450
// partition_scatter.comp -- stage 3: every row of every split goes to its
// place in the scratch row list: left rows first, right rows after all
// left rows, each side in the original order (a stable partition, as the
// CPU reference).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(std430, binding = 1) readonly buffer Tiles { uint tile_left[]; };
layout(std430, binding = 2) readonly buffer Level { uint level[]; };
// The bin columns (bindings 3..10), the row list (11..18) and the scratch
// list (19..26) in windows (window.glsl).
#include "window.glsl"
WINDOW_BUFFERS(Bins, bins, uint, 3, readonly)
WINDOW_BUFFERS(Rows, rows, uint, 3 + GPL_WINDOWS, readonly)
WINDOW_BUFFERS(Scratch, scratch, uint, 3 + 2 * GPL_WINDOWS, writeonly)
WINDOW_LOAD(bins, uint)
WINDOW_LOAD(rows, uint)
WINDOW_STORE(scratch, uint)

#include "partition.glsl"

shared uint s_scan[WG];

void main()
{
    const uint lid = gl_LocalInvocationID.x;
    for (uint t = gl_WorkGroupID.x; t < pc.num_tiles; t += gl_NumWorkGroups.x) {
        const uint s = split_of_tile(t);
        const uint row_begin = split_word(s, S_ROW_BEGIN);
        const uint i = (t - split_word(s, S_TILE_FIRST)) * WG + lid;
        const bool live = i < split_word(s, S_ROW_COUNT);
        const uint pos = row_begin + i;
        const uint row = live ? rows_at(window_of(pos, LIST_WINDOW_SHIFT),
                                        window_index(pos, LIST_WINDOW_SHIFT))
                              : 0u;
        const uint left = live ? goes_left(s, row) : 0u;
        s_scan[lid] = left;
        barrier();
        for (uint off = 1u; off < WG; off <<= 1) {
            const uint v = lid >= off ? s_scan[lid - off] : 0u;
            barrier();
            s_scan[lid] += v;
            barrier();
        }
        if (live) {
            const uint left_before = tile_left[t] + s_scan[lid] - left;
            const uint right_before = i - left_before; // positions before i going right
            const uint dest = left != 0u ? left_before : level[2u * s] + right_before;
            const uint to = row_begin + dest;
            scratch_put(window_of(to, LIST_WINDOW_SHIFT), window_index(to, LIST_WINDOW_SHIFT),
                        row);
        }
        barrier();
    }
}
