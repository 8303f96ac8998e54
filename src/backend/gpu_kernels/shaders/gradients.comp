#version 450
// gradients.comp -- the first pass of compute_gradients: one thread a row
// (grid-stride), the float64 gradient pair of the row's objective stored in
// the row's gradient slot as the bits of two doubles (the soft variant
// computes them without float64, see numeric.glsl), and each workgroup's
// largest |grad| and hess for the quantization scale (group_max.glsl).
//
// The host dispatches the kernel once a window of rows (row_first on, all
// per-row buffers bound from that row), so no binding exceeds the device's
// maxStorageBufferRange however many rows there are; each dispatch writes
// its own workgroups' maxima.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "numeric.glsl"

layout(push_constant) uniform Push {
    uvec2 seed;        // uint64 as (low, high) words
    uvec2 param;       // the objective's parameter, a double as (low, high) words
    uint num_rows;
    uint num_outputs;
    uint output_index;
    int objective;
    int round_index;
    uint has_weight;
    float subsample;
    uint row_first;    // the first row of this window: r is row_first + the index here
    uint norm_write;   // softmax: compute each row's normaliser first; expectiles:
                       // move the chain on (objective_math.h)
    float alphas[16];  // reg:expectileerror: each output's expectile
} pc;

layout(std430, binding = 1) writeonly buffer Grad { uvec4 grad[]; };
layout(std430, binding = 2) readonly buffer Margins { float margins[]; };
layout(std430, binding = 3) readonly buffer Labels { float label[]; };
layout(std430, binding = 4) readonly buffer Weights { float weight[]; };
layout(std430, binding = 5) writeonly buffer GroupMax { uvec4 group_max[]; };
// Softmax: each row's normaliser of the round, top and sum as two doubles;
// reg:expectileerror: the row's chain (gpl_expectile_chain's slot).
layout(std430, binding = 6) buffer SoftmaxNorm { uvec4 softmax_norm[]; };

#include "group_max.glsl"

void main()
{
    f64 max_g = F64_ZERO, max_h = F64_ZERO;
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint r = gl_GlobalInvocationID.x; r < pc.num_rows; r += stride) {
        f64x2 gh = f64x2(F64_ZERO, F64_ZERO);
        const uint base = r * pc.num_outputs;
        if (pc.objective == OBJ_SOFTMAX && pc.norm_write != 0u) {
            // gpl_softmax_normalizer
            f64 top = f64_from_float(margins[base]);
            for (uint c = 1u; c < pc.num_outputs; c++)
                if (f64_gt(f64_from_float(margins[base + c]), top))
                    top = f64_from_float(margins[base + c]);
            f64 sum = F64_ZERO;
            for (uint c = 0u; c < pc.num_outputs; c++)
                sum = f64_add(sum, det_exp(f64_sub(f64_from_float(margins[base + c]), top)));
            softmax_norm[r] = uvec4(f64_words(top), f64_words(sum));
        }
        f64 pred = F64_ZERO;
        if (pc.objective == OBJ_EXPECTILE) {
            // gpl_expectile_chain, writing every time (one pass)
            pred = f64_from_float(margins[base]);
            if (pc.output_index > 0u) {
                uvec4 slot = softmax_norm[r];
                if (pc.norm_write != 0u) slot.xy = slot.zw;
                pred = expectile_next(f64_from_words(slot.xy), margins[base + pc.output_index]);
                slot.zw = f64_words(pred);
                softmax_norm[r] = slot;
            } else if (pc.num_outputs > 1u) {
                softmax_norm[r].zw = f64_words(pred);
            }
        }
        if (row_sampled(packUint2x32(pc.seed), pc.round_index, uint64_t(pc.row_first + r),
                        pc.subsample)) {
            const float w = pc.has_weight != 0u ? weight[r] : 1.0;
            if (pc.objective == OBJ_EXPECTILE) {
                // gpl_objective_expectile
                const uint j = pc.output_index;
                const f64 y = f64_from_float(label[r]);
                f64 p = pred, g = F64_ZERO, h = F64_ZERO;
                for (uint k = j; k < pc.num_outputs; k++) {
                    if (k > j) p = expectile_next(p, margins[base + k]);
                    const f64 diff = f64_sub(p, y), a = f64_from_float(pc.alphas[k]);
                    const f64 sc = (f64_gt(diff, F64_ZERO) || f64_eq(diff, F64_ZERO))
                                       ? f64_sub(F64_ONE, a) : a;
                    g = f64_add(g, f64_mul(sc, diff));
                    h = f64_add(h, sc);
                }
                const f64 s = j == 0u ? F64_ONE : det_sigmoid(f64_from_float(margins[base + j]));
                const f64 wd = f64_from_float(w);
                gh = f64x2(f64_mul(f64_mul(s, g), wd), f64_mul(f64_mul(f64_mul(s, s), h), wd));
            } else if (pc.objective == OBJ_SOFTMAX) {
                // gpl_objective_softmax
                const uvec4 norm = softmax_norm[r];
                const f64 top = f64_from_words(norm.xy), sum = f64_from_words(norm.zw);
                const f64 p = f64_div(
                    det_exp(f64_sub(f64_from_float(margins[base + pc.output_index]), top)), sum);
                const f64 y = (int(label[r]) == int(pc.output_index)) ? F64_ONE : F64_ZERO;
                f64 h = f64_mul(f64_mul(F64_TWO, p), f64_sub(F64_ONE, p));
                if (f64_lt(h, F64_MIN_HESS)) h = F64_MIN_HESS;
                const f64 wd = f64_from_float(w);
                gh = f64x2(f64_mul(f64_sub(p, y), wd), f64_mul(h, wd));
            } else {
                gh = objective_single(pc.objective, margins[base + pc.output_index],
                                      label[r], w, f64_from_words(pc.param));
            }
        }
        grad[r] = uvec4(f64_words(gh.x), f64_words(gh.y));
        if (f64_gt(f64_abs(gh.x), max_g)) max_g = f64_abs(gh.x);
        if (f64_gt(gh.y, max_h)) max_h = gh.y;
    }
    const uvec4 mx = group_maxima(max_g, max_h);
    if (gl_LocalInvocationID.x == 0u) group_max[gl_WorkGroupID.x] = mx;
}
