#version 450
// bins_columns.comp -- the bin columns (feature-major, column_words words a
// feature, one code of code_bits a row) from the bins in rows, on the
// device: the host uploads the matrix once, in rows, and the partition
// reads the split feature's column (a code a row; rows near each other
// share a sector). Invocation e writes word e of the columns: rows
// c x j .. c x j + c - 1 of feature f, c = 32 / code_bits.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(push_constant) uniform Push {
    uint num_rows;
    uint row_words;    // words of one row of bins
    uint num_features;
    uint column_words; // words of one column
    uint code_bits;    // bits of a bin code: 8, or 16 (gpl_binned_matrix.code_bytes)
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
        const uint per_word = 32u / pc.code_bits;
        uint v = 0u;
        for (uint q = 0u; q < per_word; q++) {
            const uint r = j * per_word + q;
            if (r >= pc.num_rows) break;
            const uint word = r * pc.row_words + code_word(f, pc.code_bits);
            const uint w = bins_at(window_of(word, LIST_WINDOW_SHIFT), window_index(word, LIST_WINDOW_SHIFT));
            v |= code_at(w, f, pc.code_bits) << (q * pc.code_bits);
        }
        columns_put(window_of(e, LIST_WINDOW_SHIFT), window_index(e, LIST_WINDOW_SHIFT), v);
        if (total - e <= stride) break; // e + stride would wrap or end the loop
    }
}
