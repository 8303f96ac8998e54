#version 450
// histogram.comp -- the first stage of a node's histogram for one chunk of
// features: each workgroup sums its share of the node's rows into a
// workgroup-local histogram (shared memory, one 32-bit atomic per value),
// then writes it out whole as one partial histogram. The second stage
// (hist_reduce.comp) adds the partials without atomics.
//
// 32 bits are exact: quantize.h bounds the sum of |value| over all rows
// below 2^31, so every partial sum of a subset of rows fits int32, and
// adding the low words of the int64 values (two's complement, wrapping)
// gives its low word exactly.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Bins of the chunk held in shared memory: 8 bytes each (two 32-bit
// sums), so 4096 bins fill 32 KiB. Set from the device's limit.
layout(constant_id = 1) const uint SHARED_BINS = 2048;

layout(push_constant) uniform Push {
    uint row_begin;     // the node's first position in the row list
    uint row_count;
    uint feature_first; // the chunk: features [first, first + count)
    uint feature_count;
    uint bin_first;     // histogram index of the chunk's first bin
    uint bin_count;
    uint column_bytes;  // stride between feature columns of the bins
    uint hist_len;      // partials are [group][hist_len]
    uint partial_first; // this node's first partial (nodes of a level share the buffer)
    uint code_bits;     // bits of a bin code: 8, or 16
} pc;

// The chunk's feature columns, one code a row, read as words. A chunk may
// be a run of bins of one feature too wide for shared memory (bin_first
// past the feature's first bin): its other bins are left to other chunks.
layout(std430, binding = 1) readonly buffer Bins { uint bins[]; };
layout(std430, binding = 2) readonly buffer Offsets { uint feature_offset[]; };
// (grad, hess) as int32 words.
layout(std430, binding = 3) writeonly buffer Partial { uvec2 partial[]; };
// The row list (bindings 4..11) and the gradient pairs (12..19), in
// windows (window.glsl): a node's rows may be any rows.
#include "window.glsl"
WINDOW_BUFFERS(Rows, rows, uint, 4, readonly)
WINDOW_BUFFERS(Grad, grad, uvec4, 4 + GPL_WINDOWS, readonly)
WINDOW_LOAD(rows, uint)
WINDOW_LOAD(grad, uvec4)

shared uint s_g[SHARED_BINS];
shared uint s_h[SHARED_BINS];

void main()
{
    const uint lid = gl_LocalInvocationID.x;
    for (uint i = lid; i < pc.bin_count; i += WG) {
        s_g[i] = 0u;
        s_h[i] = 0u;
    }
    barrier();
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint i = gl_WorkGroupID.x * WG + lid; i < pc.row_count; i += stride) {
        const uint pos = pc.row_begin + i;
        const uint r = rows_at(window_of(pos, LIST_WINDOW_SHIFT),
                               window_index(pos, LIST_WINDOW_SHIFT));
        const uvec4 g = grad_at(window_of(r, GRAD_WINDOW_SHIFT),
                                window_index(r, GRAD_WINDOW_SHIFT));
        for (uint k = 0u; k < pc.feature_count; k++) {
            const uint code = k * (pc.column_bytes / (pc.code_bits >> 3)) + r;
            const uint b = code_at(bins[code_word(code, pc.code_bits)], code, pc.code_bits);
            const uint i = feature_offset[pc.feature_first + k] - pc.bin_first + b;
            if (i >= pc.bin_count) continue;
            atomicAdd(s_g[i], g.x);
            atomicAdd(s_h[i], g.z);
        }
    }
    barrier();
    const uint base = (pc.partial_first + gl_WorkGroupID.x) * pc.hist_len + pc.bin_first;
    for (uint i = lid; i < pc.bin_count; i += WG)
        partial[base + i] = uvec2(s_g[i], s_h[i]);
}
