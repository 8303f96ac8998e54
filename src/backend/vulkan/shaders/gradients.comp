#version 450
// gradients.comp -- the first pass of compute_gradients: one thread a row
// (grid-stride), the float64 gradient pair of the row's objective stored in
// the row's gradient slot, and each workgroup's largest |grad| and hess
// (a shared-memory tree, no subgroup operations) for the quantization scale.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "numeric.glsl"

layout(push_constant) uniform Push {
    uint64_t seed;
    uint num_rows;
    uint num_outputs;
    uint output_index;
    int objective;
    int round_index;
    uint has_weight;
    float subsample;
} pc;

layout(std430, binding = 1) writeonly buffer Grad { uvec4 grad[]; };
layout(std430, binding = 2) readonly buffer Margins { float margins[]; };
layout(std430, binding = 3) readonly buffer Labels { float label[]; };
layout(std430, binding = 4) readonly buffer Weights { float weight[]; };
layout(std430, binding = 5) writeonly buffer GroupMax { uvec4 group_max[]; };

shared double s_g[WG];
shared double s_h[WG];

void main()
{
    const uint lid = gl_LocalInvocationID.x;
    double max_g = 0.0LF, max_h = 0.0LF;
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint r = gl_GlobalInvocationID.x; r < pc.num_rows; r += stride) {
        dvec2 gh = dvec2(0.0LF);
        if (row_sampled(pc.seed, pc.round_index, uint64_t(r), pc.subsample)) {
            const float w = pc.has_weight != 0u ? weight[r] : 1.0;
            const uint base = r * pc.num_outputs;
            if (pc.objective == OBJ_SOFTMAX) {
                // gpl_objective_softmax
                double top = double(margins[base]);
                for (uint c = 1u; c < pc.num_outputs; c++)
                    if (double(margins[base + c]) > top) top = double(margins[base + c]);
                precise double sum = 0.0LF;
                for (uint c = 0u; c < pc.num_outputs; c++)
                    sum += det_exp(double(margins[base + c]) - top);
                precise double p = det_exp(double(margins[base + pc.output_index]) - top) / sum;
                const double y = (int(label[r]) == int(pc.output_index)) ? 1.0LF : 0.0LF;
                precise double h = 2.0LF * p * (1.0LF - p);
                if (h < MIN_HESS) h = MIN_HESS;
                precise double g = (p - y) * double(w);
                precise double hw = h * double(w);
                gh = dvec2(g, hw);
            } else {
                gh = objective_single(pc.objective, margins[base + pc.output_index],
                                      label[r], w);
            }
        }
        grad[r] = uvec4(unpackDouble2x32(gh.x), unpackDouble2x32(gh.y));
        if (abs(gh.x) > max_g) max_g = abs(gh.x);
        if (gh.y > max_h) max_h = gh.y;
    }
    s_g[lid] = max_g;
    s_h[lid] = max_h;
    barrier();
    for (uint half_size = WG / 2u; half_size > 0u; half_size >>= 1) {
        if (lid < half_size) {
            if (s_g[lid + half_size] > s_g[lid]) s_g[lid] = s_g[lid + half_size];
            if (s_h[lid + half_size] > s_h[lid]) s_h[lid] = s_h[lid + half_size];
        }
        barrier();
    }
    if (lid == 0u)
        group_max[gl_WorkGroupID.x] = uvec4(unpackDouble2x32(s_g[0]), unpackDouble2x32(s_h[0]));
}
