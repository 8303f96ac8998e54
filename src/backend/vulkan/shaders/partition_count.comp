#version 450
// partition_count.comp -- stage 1 of the stable partition: the number of
// left-going rows of each tile of a split node.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// The split feature's column: one byte a row, read as words.
layout(std430, binding = 1) readonly buffer Column { uint column[]; };
layout(std430, binding = 2) writeonly buffer Tiles { uint tile_left[]; };
// The row list in windows (window.glsl), bindings 3..10.
#include "window.glsl"
WINDOW_BUFFERS(Rows, rows, uint, 3, readonly)
WINDOW_LOAD(rows, uint)

#include "partition.glsl"

shared uint s_count;

void main()
{
    const uint lid = gl_LocalInvocationID.x;
    for (uint t = gl_WorkGroupID.x; t < pc.num_tiles; t += gl_NumWorkGroups.x) {
        if (lid == 0u) s_count = 0u;
        barrier();
        const uint i = t * WG + lid;
        const uint pos = pc.row_begin + i;
        if (i < pc.row_count &&
            goes_left(rows_at(window_of(pos, LIST_WINDOW_SHIFT),
                              window_index(pos, LIST_WINDOW_SHIFT))) != 0u)
            atomicAdd(s_count, 1u);
        barrier();
        if (lid == 0u) tile_left[pc.tile_first + t] = s_count;
        barrier();
    }
}
