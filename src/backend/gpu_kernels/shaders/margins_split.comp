#version 450
// margins_split.comp -- update_margins.comp for a split whose children are
// leaves (split_into_leaves): its rows were never moved into the children,
// so each row of the parent takes the left or the right leaf's value by
// its bin of the split feature, as the partition would have sent it. One
// float addition a row, as for any leaf.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(push_constant) uniform Push {
    uint row_begin;    // the parent's rows in the row list
    uint row_count;
    uint num_outputs;
    uint output_index;
    float value_left;
    float value_right;
    uint margin_shift; // a margin window holds the margins of 2^margin_shift rows
    uint column_word;  // first word of the split feature's column
    uint default_left; // bit 0: missing values (bin 0) go left; bit 1: split by left_set
    uint bin;          // else value bins 1..bin go left
    uint code_bits;    // bits of a bin code: 8, or 16
    uint left_set[8];  // value bin b goes left iff bit b is set
} pc;

// The row list (bindings 1..8), the margins (9..16) and the bin columns
// (17..24) in windows (window.glsl; margins as in update_margins.comp).
#include "window.glsl"
WINDOW_BUFFERS(Rows, rows, uint, 1, readonly)
WINDOW_BUFFERS(Margins, margins, float, 1 + GPL_WINDOWS, )
WINDOW_BUFFERS(Bins, bins, uint, 1 + 2 * GPL_WINDOWS, readonly)
WINDOW_LOAD(rows, uint)
WINDOW_LOAD(margins, float)
WINDOW_STORE(margins, float)
WINDOW_LOAD(bins, uint)

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint i = gl_GlobalInvocationID.x; i < pc.row_count; i += stride) {
        const uint pos = pc.row_begin + i;
        const uint row = rows_at(window_of(pos, LIST_WINDOW_SHIFT),
                                 window_index(pos, LIST_WINDOW_SHIFT));
        const uint word = pc.column_word + code_word(row, pc.code_bits);
        const uint b = code_at(bins_at(window_of(word, LIST_WINDOW_SHIFT),
                                       window_index(word, LIST_WINDOW_SHIFT)), row, pc.code_bits);
        const bool left = b == 0u                      ? (pc.default_left & 1u) != 0u
                          : (pc.default_left & 2u) == 0u ? b <= pc.bin
                          : ((pc.left_set[b >> 5] >> (b & 31u)) & 1u) != 0u;
        const uint w = window_of(row, pc.margin_shift);
        const uint m = window_index(row, pc.margin_shift) * pc.num_outputs + pc.output_index;
        precise float v = margins_at(w, m) + (left ? pc.value_left : pc.value_right);
        margins_put(w, m, v);
    }
}
