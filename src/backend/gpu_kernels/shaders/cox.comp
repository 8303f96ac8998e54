#version 450
// cox.comp -- survival:cox's gradients over the rows' order by time
// (cox_math.h), in five dispatches of one batch (pc.phase):
//   0-3: one thread a block of GPL_COX_BLOCK positions, the steps of
//        cox_math.h in its order of additions: e and the block sums T;
//        S; the events' block sums U, V; each row's pair, as the bits of
//        two doubles in the row's gradient slot;
//   4:   one thread a row (grid-stride): zero for a row subsampling
//        leaves out, and each workgroup's maxima (group_max.glsl) for
//        quantize.comp, as gradients.comp writes them.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "numeric.glsl"

#define COX_BLOCK 256u

layout(push_constant) uniform Push {
    uvec2 seed;        // uint64 as (low, high) words
    uint num_rows;
    uint num_blocks;
    uint num_outputs;  // the margins' stride
    uint output_index;
    uint phase;
    uint has_weight;
    int sample_round;
    float subsample;
} pc;

layout(std430, binding = 1) readonly buffer Margins { float margins[]; };
layout(std430, binding = 2) readonly buffer Labels { float label[]; };
layout(std430, binding = 3) readonly buffer Weights { float weight[]; };
layout(std430, binding = 4) readonly buffer Order { uint order[]; };
layout(std430, binding = 5) readonly buffer TieStart { uint tie_start[]; };
layout(std430, binding = 6) buffer E { uvec2 e[]; };
layout(std430, binding = 7) buffer S { uvec2 s_sum[]; };
// T[b] at b, U[b] at num_blocks + b, V[b] at 2 num_blocks + b
layout(std430, binding = 8) buffer Blocks { uvec2 blocks[]; };
layout(std430, binding = 9) buffer Grad { uvec4 grad[]; };
layout(std430, binding = 10) writeonly buffer GroupMax { uvec4 group_max[]; };

#include "group_max.glsl"

f64 word(uvec2 w) { return f64_from_words(w); }

void block_step(uint b)
{
    const uint first = b * COX_BLOCK;
    const uint last = min(first + COX_BLOCK, pc.num_rows);
    if (pc.phase == 0u) { // gpl_cox_exp_block
        f64 t = F64_ZERO;
        for (uint p = last; p > first; p--) {
            const f64 x = det_exp(f64_from_float(margins[order[p - 1u] * pc.num_outputs +
                                                         pc.output_index]));
            e[p - 1u] = f64_words(x);
            t = f64_add(t, x);
        }
        blocks[b] = f64_words(t);
    } else if (pc.phase == 1u) { // gpl_cox_suffix_block
        f64 after = F64_ZERO;
        for (uint c = pc.num_blocks - 1u; c > b; c--) after = f64_add(after, word(blocks[c]));
        f64 w = F64_ZERO;
        for (uint p = last; p > first; p--) {
            w = f64_add(w, word(e[p - 1u]));
            s_sum[p - 1u] = f64_words(f64_add(after, w));
        }
    } else if (pc.phase == 2u) { // gpl_cox_event_block
        f64 u = F64_ZERO, v = F64_ZERO;
        for (uint p = first; p < last; p++) {
            if (!(label[order[p]] > 0.0)) continue;
            const f64 R = word(s_sum[tie_start[p]]);
            u = f64_add(u, f64_div(F64_ONE, R));
            v = f64_add(v, f64_div(F64_ONE, f64_mul(R, R)));
        }
        blocks[pc.num_blocks + b] = f64_words(u);
        blocks[2u * pc.num_blocks + b] = f64_words(v);
    } else { // gpl_cox_pair_block
        f64 r = F64_ZERO, s = F64_ZERO;
        for (uint c = 0u; c < b; c++) {
            r = f64_add(r, word(blocks[pc.num_blocks + c]));
            s = f64_add(s, word(blocks[2u * pc.num_blocks + c]));
        }
        for (uint p = first; p < last; p++) {
            const uint row = order[p];
            const bool event = label[row] > 0.0;
            if (event) {
                const f64 R = word(s_sum[tie_start[p]]);
                r = f64_add(r, f64_div(F64_ONE, R));
                s = f64_add(s, f64_div(F64_ONE, f64_mul(R, R)));
            }
            const f64 w = pc.has_weight != 0u ? f64_from_float(weight[row]) : F64_ONE;
            const f64 ep = word(e[p]);
            const f64 er = f64_mul(ep, r);
            const f64 g = f64_mul(f64_sub(er, event ? F64_ONE : F64_ZERO), w);
            const f64 h = f64_mul(f64_sub(er, f64_mul(f64_mul(ep, ep), s)), w);
            grad[row] = uvec4(f64_words(g), f64_words(h));
        }
    }
}

void main()
{
    if (pc.phase < 4u) {
        if (gl_GlobalInvocationID.x < pc.num_blocks) block_step(gl_GlobalInvocationID.x);
        return;
    }
    f64 max_g = F64_ZERO, max_h = F64_ZERO;
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint r = gl_GlobalInvocationID.x; r < pc.num_rows; r += stride) {
        uvec4 pair = grad[r];
        if (!row_sampled(packUint2x32(pc.seed), pc.sample_round, uint64_t(r), pc.subsample)) {
            pair = uvec4(f64_words(F64_ZERO), f64_words(F64_ZERO));
            grad[r] = pair;
        }
        const f64 g = f64_from_words(pair.xy), h = f64_from_words(pair.zw);
        if (f64_gt(f64_abs(g), max_g)) max_g = f64_abs(g);
        if (f64_gt(h, max_h)) max_h = h;
    }
    const uvec4 mx = group_maxima(max_g, max_h);
    if (gl_LocalInvocationID.x == 0u) group_max[gl_WorkGroupID.x] = mx;
}
