#version 450
// predict.comp -- batch prediction of a block of rows: one invocation a row
// (grid-stride) bins the row's raw values with the model's cuts, then walks
// every tree and writes the row's margins. The numeric contract is the one
// of backend.h: bin = 0 for NaN, else 1 + the number of cuts <= the value;
// output k = base margin k + the leaves of trees k, k + K, ... in tree order,
// one float addition each, so the margins are the CPU's bit for bit.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(push_constant) uniform Push {
    uint num_rows;     // rows of this block
    uint num_features;
    uint row_words;    // words of one row's packed bins
    uint num_trees;
    uint num_outputs;
    uint base_at;      // leaf[base_at + k]: output k's base margin
    uint code_bits;    // bits of a bin code: 8, or 16 (gpl_infer_forest.code_bytes)
    uint set_words;    // words of a node's set (gpl_infer_forest.cat_words)
} pc;

// Feature-major: value of feature f of row r at data[f * num_rows + r].
layout(std430, binding = 1) readonly buffer Data { float data[]; };
layout(std430, binding = 2) readonly buffer CutPtr { uint cut_ptr[]; };
layout(std430, binding = 3) readonly buffer Cuts { float cuts[]; };
// gpl_infer_node: left, right, feature, bin | default_left << 16 |
// categorical << 24.
layout(std430, binding = 4) readonly buffer Nodes { uvec4 nodes[]; };
// The leaf values of every node, then the base margin of every output.
layout(std430, binding = 5) readonly buffer Leaf { float leaf[]; };
// Per tree: its first node, its depth.
layout(std430, binding = 6) readonly buffer Trees { uvec2 trees[]; };
// Row-major bins, four a word (two with 16-bit codes); a row's words are
// written and read by the row's own invocation only.
layout(std430, binding = 7) buffer Bins { uint bins[]; };
layout(std430, binding = 8) writeonly buffer Margins { float margins[]; };
// gpl_infer_forest.cat_sets: set_words words a node, read for categorical
// nodes only (a placeholder when there are none).
layout(std430, binding = 9) readonly buffer CatSets { uint cat_sets[]; };

// A float's bits as an unsigned key in the float's order (-0 as +0), so
// the cut search compares integers: the same result as IEEE '<=' whether
// or not the device flushes denormals. Never called with NaN.
uint order_key(float x)
{
    uint u = floatBitsToUint(x);
    if (u == 0x80000000u) u = 0u;
    return (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u);
}

// gpl_bin_of of binning.h, step for step.
uint bin_of(uint f, float v)
{
    const uint u = floatBitsToUint(v);
    if ((u & 0x7fffffffu) > 0x7f800000u) return 0u; // NaN: the missing bin
    const uint first = cut_ptr[f];
    uint len = cut_ptr[f + 1u] - first;
    if (len == 0u) return 1u;
    const uint key = order_key(v);
    uint base = first;
    while (len > 1u) {
        const uint half_len = len >> 1;
        if (order_key(cuts[base + half_len]) <= key) base += half_len;
        len -= half_len;
    }
    return (base - first + (order_key(cuts[base]) <= key ? 1u : 0u) + 1u) & 0xffffu;
}

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    const uint K = pc.num_outputs;
    // Codes a word: 1 << per_shift of code_bits bits each.
    const uint per_shift = pc.code_bits == 16u ? 1u : 2u;
    const uint lane = (1u << per_shift) - 1u, code_mask = (1u << pc.code_bits) - 1u;
    for (uint r = gl_GlobalInvocationID.x; r < pc.num_rows; r += stride) {
        const uint rb = r * pc.row_words;
        uint word = 0u;
        for (uint f = 0u; f < pc.num_features; f++) {
            word |= bin_of(f, data[f * pc.num_rows + r]) << ((f & lane) * pc.code_bits);
            if ((f & lane) == lane || f + 1u == pc.num_features) {
                bins[rb + (f >> per_shift)] = word;
                word = 0u;
            }
        }
        for (uint k = 0u; k < K; k++) {
            precise float acc = leaf[pc.base_at + k];
            for (uint t = k; t < pc.num_trees; t += K) {
                const uvec2 tree = trees[t];
                uint i = 0u;
                // Leaves point to themselves: the full depth ends on one.
                for (uint d = 0u; d < tree.y; d++) {
                    const uvec4 nd = nodes[tree.x + i];
                    const uint b =
                        (bins[rb + (nd.z >> per_shift)] >> ((nd.z & lane) * pc.code_bits)) &
                        code_mask;
                    bool left;
                    if (b == 0u) left = ((nd.w >> 16) & 0xffu) != 0u;
                    else if ((nd.w >> 24) != 0u)
                        left = ((cat_sets[(tree.x + i) * pc.set_words + (b >> 5)] >> (b & 31u)) & 1u) != 0u;
                    else left = b <= (nd.w & 0xffffu);
                    i = left ? nd.x : nd.y;
                }
                acc = acc + leaf[tree.x + i];
            }
            margins[r * K + k] = acc;
        }
    }
}
