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
        const uint rows = split_word(s, S_ROW_COUNT), begin = split_word(s, S_ROW_BEGIN);
        const uint first = (t - split_word(s, S_TILE_FIRST)) * TILE_ROWS + lid * PART_ITEMS;
        uint row[PART_ITEMS];
        uint left_mask = 0u, left = 0u;
        for (uint k = 0u; k < PART_ITEMS; k++) {
            const uint i = first + k, pos = begin + i;
            row[k] = 0u;
            if (i < rows) {
                row[k] = rows_at(window_of(pos, LIST_WINDOW_SHIFT),
                                 window_index(pos, LIST_WINDOW_SHIFT));
                if (goes_left(s, row[k]) != 0u) {
                    left_mask |= 1u << k;
                    left++;
                }
            }
        }
        s_scan[lid] = left;
        barrier();
        for (uint off = 1u; off < WG; off <<= 1) {
            const uint v = lid >= off ? s_scan[lid - off] : 0u;
            barrier();
            s_scan[lid] += v;
            barrier();
        }
        // Left rows of the split before this invocation's first position.
        uint left_before = tile_left[t] + s_scan[lid] - left;
        const uint total_left = level[2u * s];
        for (uint k = 0u; k < PART_ITEMS; k++) {
            const uint i = first + k;
            if (i >= rows) break;
            uint dest;
            if ((left_mask >> k & 1u) != 0u) dest = left_before++;
            else dest = total_left + (i - left_before); // right rows before i
            const uint to = begin + dest;
            scratch_put(window_of(to, LIST_WINDOW_SHIFT), window_index(to, LIST_WINDOW_SHIFT),
                        row[k]);
        }
        barrier();
    }
}
