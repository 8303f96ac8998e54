#version 450
// bins_columns.comp -- the bin columns (feature-major, column_words words a
// feature, one byte a row) from the bins in rows, on the device: the host
// uploads the matrix once, in rows, and the partition reads the split
// feature's column (a byte a row; rows near each other share a sector).
// Invocation e writes word e of the columns: rows 4j .. 4j + 3 of feature f.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(push_constant) uniform Push {
    uint num_rows;
    uint row_words;    // words of one row of bins
    uint num_features;
    uint column_words; // words of one column
} pc;

// The bins in rows (bindings 1..8) and the columns (9..16), in windows
// (window.glsl).
#include "window.glsl"
WINDOW_BUFFERS(Bins, bins, uint, 1, readonly)
WINDOW_BUFFERS(Columns, columns, uint, 1 + GPL_WINDOWS, writeonly)
WINDOW_LOAD(bins, uint)
WINDOW_STORE(columns, uint)

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    // Within 32 bits: the host refuses columns of more than 2^32 words.
    const uint total = pc.num_features * pc.column_words;
    for (uint e = gl_GlobalInvocationID.x; e < total; e += stride) {
        const uint f = e / pc.column_words, j = e - f * pc.column_words;
        uint v = 0u;
        for (uint q = 0u; q < 4u; q++) {
            const uint r = j * 4u + q;
            if (r >= pc.num_rows) break;
            const uint word = r * pc.row_words + (f >> 2);
            const uint w = bins_at(window_of(word, LIST_WINDOW_SHIFT), window_index(word, LIST_WINDOW_SHIFT));
            v |= ((w >> ((f & 3u) * 8u)) & 0xffu) << (q * 8u);
        }
        columns_put(window_of(e, LIST_WINDOW_SHIFT), window_index(e, LIST_WINDOW_SHIFT), v);
        if (total - e <= stride) break; // e + stride would wrap or end the loop
    }
}
