#version 450
// update_margins.comp -- margins[row][output] += the leaf value of the
// row's leaf, for the rows of one leaf (a dispatch a leaf; leaves hold
// disjoint rows, so the dispatches of a tree need no barrier between them).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(push_constant) uniform Push {
    uint row_begin;
    uint row_count;
    uint num_outputs;
    uint output_index;
    float value;
    uint margin_shift; // a margin window holds the margins of 2^margin_shift rows
} pc;

// The row list (bindings 1..8) and the margins (9..16) in windows
// (window.glsl). A margin window is a whole number of rows: window w holds
// rows [w << margin_shift, (w + 1) << margin_shift), num_outputs floats
// each, so a row's margins never straddle two windows.
#include "window.glsl"
WINDOW_BUFFERS(Rows, rows, uint, 1, readonly)
WINDOW_BUFFERS(Margins, margins, float, 1 + GPL_WINDOWS, )
WINDOW_LOAD(rows, uint)
WINDOW_LOAD(margins, float)
WINDOW_STORE(margins, float)

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint i = gl_GlobalInvocationID.x; i < pc.row_count; i += stride) {
        const uint pos = pc.row_begin + i;
        const uint row = rows_at(window_of(pos, LIST_WINDOW_SHIFT),
                                 window_index(pos, LIST_WINDOW_SHIFT));
        const uint w = window_of(row, pc.margin_shift);
        const uint m = window_index(row, pc.margin_shift) * pc.num_outputs + pc.output_index;
        precise float v = margins_at(w, m) + pc.value;
        margins_put(w, m, v);
    }
}
