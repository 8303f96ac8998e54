#version 450
// quantize.comp -- the second pass of compute_gradients: each row's float64
// pair becomes int64 fixed point with the power-of-two scales of quantize.h
// (llrint: round half to even), in place.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "numeric.glsl"

layout(push_constant) uniform Push {
    uvec2 scale_grad; // doubles as (low, high) words
    uvec2 scale_hess;
    uint num_rows;
} pc;

layout(std430, binding = 1) buffer Grad { uvec4 grad[]; };

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint r = gl_GlobalInvocationID.x; r < pc.num_rows; r += stride) {
        const uvec4 v = grad[r];
        const f64 g = f64_mul(f64_from_words(v.xy), f64_from_words(pc.scale_grad));
        const f64 h = f64_mul(f64_from_words(v.zw), f64_from_words(pc.scale_hess));
        const int64_t qg = f64_llrint(g);
        const int64_t qh = f64_llrint(h);
        grad[r] = uvec4(unpackUint2x32(uint64_t(qg)), unpackUint2x32(uint64_t(qh)));
    }
}
