#version 450
// partition_count.comp -- stage 1 of the stable partition of a level: the
// number of left-going rows of each tile of every split.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(std430, binding = 1) writeonly buffer Tiles { uint tile_left[]; };
layout(std430, binding = 2) readonly buffer Level { uint level[]; };
// The bin columns (bindings 3..10) and the row list (11..18) in windows
// (window.glsl).
#include "window.glsl"
WINDOW_BUFFERS(Bins, bins, uint, 3, readonly)
WINDOW_BUFFERS(Rows, rows, uint, 3 + GPL_WINDOWS, readonly)
WINDOW_LOAD(bins, uint)
WINDOW_LOAD(rows, uint)

#include "partition.glsl"

shared uint s_count;

void main()
{
    const uint lid = gl_LocalInvocationID.x;
    for (uint t = gl_WorkGroupID.x; t < pc.num_tiles; t += gl_NumWorkGroups.x) {
        if (lid == 0u) s_count = 0u;
        barrier();
        const uint s = split_of_tile(t);
        const uint rows = split_word(s, S_ROW_COUNT), begin = split_word(s, S_ROW_BEGIN);
        const uint first = (t - split_word(s, S_TILE_FIRST)) * TILE_ROWS + lid * PART_ITEMS;
        uint left = 0u;
        for (uint k = 0u; k < PART_ITEMS; k++) {
            const uint i = first + k, pos = begin + i;
            if (i < rows)
                left += goes_left(s, rows_at(window_of(pos, LIST_WINDOW_SHIFT),
                                             window_index(pos, LIST_WINDOW_SHIFT)));
        }
        if (left != 0u) atomicAdd(s_count, left);
        barrier();
        if (lid == 0u) tile_left[t] = s_count;
        barrier();
    }
}
