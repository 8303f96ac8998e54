#version 450
// quantize.comp -- the second pass of compute_gradients: each row's float64
// pair becomes int64 fixed point with the power-of-two scales of quantize.h
// (llrint: round half to even), in place.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "numeric.glsl"

layout(push_constant) uniform Push {
    double scale_grad;
    double scale_hess;
    uint num_rows;
} pc;

layout(std430, binding = 1) buffer Grad { uvec4 grad[]; };

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint r = gl_GlobalInvocationID.x; r < pc.num_rows; r += stride) {
        const uvec4 v = grad[r];
        precise double g = packDouble2x32(v.xy) * pc.scale_grad;
        precise double h = packDouble2x32(v.zw) * pc.scale_hess;
        const int64_t qg = int64_t(roundEven(g));
        const int64_t qh = int64_t(roundEven(h));
        grad[r] = uvec4(unpackUint2x32(uint64_t(qg)), unpackUint2x32(uint64_t(qh)));
    }
}
