// group_max.glsl -- the workgroup's largest |grad| and hess of the rows its
// invocations went through (a shared-memory tree, no subgroup operations),
// for the quantization scale: every invocation calls it once, after its
// rows; the result is the workgroup's in invocation 0.
shared f64 s_g[WG];
shared f64 s_h[WG];

uvec4 group_maxima(f64 max_g, f64 max_h)
{
    const uint lid = gl_LocalInvocationID.x;
    s_g[lid] = max_g;
    s_h[lid] = max_h;
    barrier();
    for (uint half_size = WG / 2u; half_size > 0u; half_size >>= 1) {
        if (lid < half_size) {
            if (f64_gt(s_g[lid + half_size], s_g[lid])) s_g[lid] = s_g[lid + half_size];
            if (f64_gt(s_h[lid + half_size], s_h[lid])) s_h[lid] = s_h[lid + half_size];
        }
        barrier();
    }
    return uvec4(f64_words(s_g[0]), f64_words(s_h[0]));
}
