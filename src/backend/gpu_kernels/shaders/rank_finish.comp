#version 450
// rank_finish.comp -- each row's gradient pair from its fixed-point sums
// (gpl_rank_finish with its query's gpl_rank_norm and weight), zero for a
// row subsampling leaves out, as the bits of two doubles in place of the
// sums; and each workgroup's maxima (group_max.glsl), as gradients.comp
// writes them, for quantize.comp. One dispatch, one thread a row
// (grid-stride).
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "numeric.glsl"
#include "rank.glsl"
#include "group_max.glsl"

void main()
{
    f64 max_g = F64_ZERO, max_h = F64_ZERO;
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint r = gl_GlobalInvocationID.x; r < pc.num_rows; r += stride) {
        const uint q = query_of(r);
        const int64_t g_sum = int64_t(packUint2x32(uvec2(sums[4u * r], sums[4u * r + 1u])));
        const int64_t h_sum = int64_t(packUint2x32(uvec2(sums[4u * r + 2u], sums[4u * r + 3u])));
        const int64_t l_sum = int64_t(packUint2x32(uvec2(qsums[2u * q], qsums[2u * q + 1u])));
        f64 g = F64_ZERO, h = F64_ZERO;
        if (row_sampled(packUint2x32(pc.seed), pc.sample_round, uint64_t(r), pc.subsample)) {
            const f64 norm = rank_norm(l_sum);
            const f64 w = f64_from_words(group_weight[q]);
            g = f64_mul(f64_mul(f64_mul(f64_from_i64_signed(g_sum), F64_RANK_FIXED_INV), norm), w);
            h = f64_mul(f64_mul(f64_mul(f64_from_i64_signed(h_sum), F64_RANK_FIXED_INV), norm), w);
        }
        const uvec2 gw = f64_words(g), hw = f64_words(h);
        sums[4u * r] = gw.x;
        sums[4u * r + 1u] = gw.y;
        sums[4u * r + 2u] = hw.x;
        sums[4u * r + 3u] = hw.y;
        if (f64_gt(f64_abs(g), max_g)) max_g = f64_abs(g);
        if (f64_gt(h, max_h)) max_h = h;
    }
    const uvec4 mx = group_maxima(max_g, max_h);
    if (gl_LocalInvocationID.x == 0u) group_max[gl_WorkGroupID.x] = mx;
}
