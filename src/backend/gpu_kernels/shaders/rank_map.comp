#version 450
// rank_map.comp -- rank:map's running sums by position (gpl_rank_map_step
// in position order), one thread a query, sequential, in double.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "numeric.glsl"
#include "rank.glsl"

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint q = gl_GlobalInvocationID.x; q < pc.num_groups; q += stride) {
        const uint first = group_ptr[q], n = group_ptr[q + 1u] - first;
        f64 n_rel = F64_ZERO, acc = F64_ZERO;
        for (uint p = 0u; p < n; p++) {
            const f64 grade = f64_from_float(label[order[first + p]]);
            n_rel = f64_add(n_rel, grade);
            acc = f64_add(acc, f64_div(grade, f64_add(f64_from_i64(int64_t(p)), F64_ONE)));
            map_sums[first + p] = uvec4(f64_words(n_rel), f64_words(acc));
        }
    }
}
