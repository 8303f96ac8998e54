#version 450
// histogram_rows.comp -- histogram.comp's first stage over the bins in
// rows (row_words words a row, one code of code_bits bits a feature)
// instead of columns.
// Below the root a node's rows are scattered over the whole matrix, so
// with columns every (row, feature) is a gathered byte, a 32-byte sector
// each; here a row's chunk is one or two sectors. The Vulkan host builds
// histograms with this kernel; histogram.comp stays for the Metal host
// and GPULAYER_VULKAN_KERNELS=metal.
//
// One dispatch covers the chunks of every node of a level (of those whose
// rows are in the bound row list): workgroup g takes chunk g % num_chunks
// of row block g / num_chunks, an entry of the block table that the host
// writes into the offsets buffer for the batch (a node's blocks take its
// rows WG apart, as many as it has blocks). The workgroups of one block's
// chunks run side by side, so its rows' sectors, read by the first, are
// still in the L2 cache for the others. Each invocation takes rows WG x
// blocks apart, loading the next row (index, gradient pair, the chunk's
// words) before it adds the current one, so a row's loads are in flight
// while the previous row's atomics run.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(constant_id = 1) const uint SHARED_BINS = 2048;
// The words of a row one chunk spans at most: the host plans chunks of at
// most GPL_ROW_CHUNK_FEATURES (28) features of 8-bit codes (14 of 16-bit
// codes), which with a first feature at any code of a word span at most
// 3 + 28 bytes (2 + 28).
const uint CHUNK_WORDS = 8u;

layout(push_constant) uniform Push {
    uint num_chunks;    // chunks of this dispatch
    uint chunk_table;   // word of its first chunk in `feature_offset`
    uint row_words;     // words of one row of bins
    uint hist_len;      // partials are [partial][hist_len]
    uint block_table;   // word of this dispatch's first block in `feature_offset`
    uint code_bits;     // bits of a bin code: 8, or 16
} pc;

// The feature offsets, the chunk table (4 words a chunk: first feature,
// features, first bin, bins; gpl_hist_chunk), and the level's tables,
// among them the block table: 4 words a block (the node's first position
// in the row list, its rows, the block's index | the node's blocks << 16,
// the block's partial; gpl_hist_block).
layout(std430, binding = 1) readonly buffer Offsets { uint feature_offset[]; };
// (grad, hess) as int32 words.
layout(std430, binding = 2) writeonly buffer Partial { uvec2 partial[]; };
// The row list (bindings 3..10), the gradient pairs (11..18) and the bins
// in rows (19..26), in windows (window.glsl).
#include "window.glsl"
WINDOW_BUFFERS(Rows, rows, uint, 3, readonly)
WINDOW_BUFFERS(Grad, grad, uvec4, 3 + GPL_WINDOWS, readonly)
WINDOW_BUFFERS(Bins, bins, uint, 3 + 2 * GPL_WINDOWS, readonly)
WINDOW_LOAD(rows, uint)
WINDOW_LOAD(grad, uvec4)
WINDOW_LOAD(bins, uint)

shared uint s_g[SHARED_BINS];
shared uint s_h[SHARED_BINS];

// A row of the chunk in registers: its gradient pair's low words and the
// words holding the chunk's bins.
struct Row {
    uvec2 pair;
    uint w[CHUNK_WORDS];
};

// This workgroup's chunk. Its shared histogram gives each feature `stride`
// bins (the chunk's largest feature), so that a (feature, bin) pair's place
// is computed, not read from the feature offsets at every row; the host
// plans chunks of at most SHARED_BINS bins so counted (gpl_hist_chunks_plan).
// A feature with more bins is cut into runs of bins, a chunk each: then
// bin_skip is the run's first bin and stride its length, and the row's
// other bins are left to the other runs.
uint feature_first, feature_count, stride, bin_skip;
// This workgroup's node: its first position in the row list.
uint row_begin;

Row load_row(uint i)
{
    Row row;
    const uint pos = row_begin + i;
    const uint r = rows_at(window_of(pos, LIST_WINDOW_SHIFT), window_index(pos, LIST_WINDOW_SHIFT));
    row.pair = grad_at(window_of(r, GRAD_WINDOW_SHIFT), window_index(r, GRAD_WINDOW_SHIFT)).xz;
    // Within 32 bits: the host refuses bins of more than 2^32 words.
    const uint per_word = 32u / pc.code_bits;
    const uint first = r * pc.row_words + code_word(feature_first, pc.code_bits);
    const uint lead = feature_first & (per_word - 1u);
    const uint words = (lead + feature_count + per_word - 1u) / per_word;
    for (uint j = 0u; j < CHUNK_WORDS; j++) {
        const uint word = first + j;
        row.w[j] = j < words ? bins_at(window_of(word, LIST_WINDOW_SHIFT),
                                       window_index(word, LIST_WINDOW_SHIFT))
                             : 0u;
    }
    return row;
}

// Code q of word j is feature j x per_word + q - lead of the chunk; the
// loops have constant bounds so that the words stay in registers.
void add_row(Row row)
{
    const int per_word = int(32u / pc.code_bits);
    const int lead = int(feature_first) & (per_word - 1);
    const int count = int(feature_count);
    for (int j = 0; j < int(CHUNK_WORDS); j++) {
        for (int q = 0; q < 4; q++) {
            const int k = j * per_word + q - lead;
            if (q >= per_word || k < 0 || k >= count) continue;
            const uint b = (row.w[j] >> uint(q) * pc.code_bits) & ((1u << pc.code_bits) - 1u);
            if (b - bin_skip >= stride) continue; // another run's bin
            const uint i = uint(k) * stride + b - bin_skip;
            atomicAdd(s_g[i], row.pair.x);
            atomicAdd(s_h[i], row.pair.y);
        }
    }
}

void main()
{
    const uint lid = gl_LocalInvocationID.x;
    const uint chunk = gl_WorkGroupID.x % pc.num_chunks;
    const uint e = pc.block_table + 4u * (gl_WorkGroupID.x / pc.num_chunks);
    row_begin = feature_offset[e];
    const uint row_count = feature_offset[e + 1u];
    const uint block = feature_offset[e + 2u] & 0xffffu, blocks = feature_offset[e + 2u] >> 16;
    const uint partial_index = feature_offset[e + 3u];
    const uint c = pc.chunk_table + 4u * chunk;
    feature_first = feature_offset[c];
    feature_count = feature_offset[c + 1u];
    bin_skip = feature_offset[c + 2u] - feature_offset[feature_first];
    stride = 0u;
    for (uint k = 0u; k < feature_count; k++)
        stride = max(stride, feature_offset[feature_first + k + 1u] - feature_offset[feature_first + k]);
    if (bin_skip != 0u || stride > feature_offset[c + 3u]) stride = feature_offset[c + 3u];
    const uint shared_bins = feature_count * stride;
    for (uint i = lid; i < shared_bins; i += WG) {
        s_g[i] = 0u;
        s_h[i] = 0u;
    }
    barrier();
    const uint step = blocks * WG;
    uint i = block * WG + lid;
    if (i < row_count) {
        Row current = load_row(i);
        for (;;) {
            // i + step < row_count, without overflowing 32 bits.
            const bool more = row_count - i > step;
            Row next = current;
            if (more) next = load_row(i + step);
            add_row(current);
            if (!more) break;
            current = next;
            i += step;
        }
    }
    barrier();
    // The partial holds the chunk's bins at their places in the histogram.
    const uint base = partial_index * pc.hist_len;
    for (uint e = lid; e < shared_bins; e += WG) {
        const uint k = e / stride, b = e - k * stride + bin_skip;
        const uint first = feature_offset[feature_first + k];
        if (b < feature_offset[feature_first + k + 1u] - first)
            partial[base + first + b] = uvec2(s_g[e], s_h[e]);
    }
}
