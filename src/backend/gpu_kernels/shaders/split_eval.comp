#version 450
// split_eval.comp -- the best split of one node (one workgroup a node; the
// nodes of a level are independent dispatches in one command buffer).
// Each feature's value bins are cut into S segments, S = WG / features
// (at least 1), so that few features still keep the workgroup busy: a
// thread takes a (feature, segment), sums the bins before its segment
// (exact integers) and evaluates the segment's candidates with the same
// arithmetic as the CPU reference (cpu_split.c). The workgroup then
// reduces the per-thread bests in shared memory with the tie rule of
// split_math.h, which is a total order, so neither the cut into segments
// nor the reduction order changes the result.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "numeric.glsl"

layout(push_constant) uniform Push {
    uvec2 lambda;      // doubles as (low, high) words
    uvec2 alpha;
    uvec2 min_child_weight;
    uvec2 scale_grad;
    uvec2 scale_hess;
    int node;
    uint record;       // where the record goes in the output
    uint num_features;
    uint has_mask;
} pc;

layout(std430, binding = 1) readonly buffer Hist { uvec4 hist[]; };
layout(std430, binding = 2) readonly buffer Offsets { uint feature_offset[]; };
layout(std430, binding = 3) readonly buffer Mask { uint mask[]; };
// 18 words a record: node, feature, bin, default_left, gain (2 words),
// left, right, total (two 64-bit sums each, as word pairs).
layout(std430, binding = 4) writeonly buffer Records { uint records[]; };
#ifdef GPL_LEVEL_TABLE
// split_eval_level (built from this file with GPL_LEVEL_TABLE; the Vulkan
// host's): the nodes of a level in one dispatch. Binding 1 is a run of
// slots of the histogram pool, and workgroup w takes entry pc.record + w
// of the node table: the node, its record, and the first element of its
// histogram in the run (pc.node is not read).
layout(std430, binding = 5) readonly buffer Nodes { uvec4 level_nodes[]; };
uint hist_base;
#else
const uint hist_base = 0u;
#endif

shared f64 s_gain[WG];
shared ivec3 s_key[WG];    // feature, bin, default_left
shared i64vec2 s_left[WG];

i64vec2 load(uint i)
{
    const uvec4 v = hist[hist_base + i];
    return i64vec2(int64_t(packUint2x32(v.xy)), int64_t(packUint2x32(v.zw)));
}

void main()
{
    const uint lid = gl_LocalInvocationID.x;
#ifdef GPL_LEVEL_TABLE
    const uvec4 entry = level_nodes[pc.record + gl_WorkGroupID.x];
    const int node = int(entry.x);
    const uint record = entry.y;
    hist_base = entry.z;
#else
    const int node = pc.node;
    const uint record = pc.record;
#endif
    const f64 sg = f64_from_words(pc.scale_grad), sh = f64_from_words(pc.scale_hess);
    const f64 lambda = f64_from_words(pc.lambda), alpha = f64_from_words(pc.alpha);
    const f64 min_child_weight = f64_from_words(pc.min_child_weight);
    // Any feature's bins add up to the node's total; take feature 0's.
    i64vec2 total = i64vec2(0);
    for (uint k = feature_offset[0]; k < feature_offset[1]; k++) total += load(k);
    const f64 parent = node_score(f64_div(f64_from_i64(total.x), sg),
                                  f64_div(f64_from_i64(total.y), sh), lambda, alpha);
    f64 best_gain = F64_ZERO;
    ivec3 best = ivec3(-1, 0, 0);
    i64vec2 best_left = total;
    const uint segments = max(1u, WG / max(pc.num_features, 1u));
    for (uint item = lid; item < pc.num_features * segments; item += WG) {
        const uint f = item / segments, seg = item % segments;
        if (pc.has_mask != 0u && mask[f] == 0u) continue;
        const uint first = feature_offset[f];
        const int last_bin = int(feature_offset[f + 1u] - first) - 1;
        const int seg_len = (last_bin + int(segments) - 1) / int(segments);
        const int b_lo = 1 + int(seg) * seg_len;
        const int b_hi = min(last_bin, b_lo + seg_len - 1);
        if (b_lo > b_hi) continue;
        const i64vec2 missing = load(first);
        i64vec2 cum = i64vec2(0);
        for (int b = 1; b < b_lo; b++) cum += load(first + uint(b));
        for (int b = b_lo; b <= b_hi; b++) {
            cum += load(first + uint(b));
            const int last_dl = (b < last_bin && (missing.y != 0 || missing.x != 0)) ? 1 : 0;
            for (int dl = 0; dl <= last_dl; dl++) {
                i64vec2 L = cum;
                if (dl != 0) L += missing;
                const i64vec2 R = total - L;
                if (L.y <= 0 || R.y <= 0) continue;
                const f64 hl = f64_div(f64_from_i64(L.y), sh);
                const f64 hr = f64_div(f64_from_i64(R.y), sh);
                if (f64_lt(hl, min_child_weight) || f64_lt(hr, min_child_weight)) continue;
                const f64 gain = f64_sub(
                    f64_add(node_score(f64_div(f64_from_i64(L.x), sg), hl, lambda, alpha),
                            node_score(f64_div(f64_from_i64(R.x), sg), hr, lambda, alpha)),
                    parent);
                if (split_better(gain, int(f), b, dl, best_gain, best.x, best.y, best.z)) {
                    best_gain = gain;
                    best = ivec3(int(f), b, dl);
                    best_left = L;
                }
            }
        }
    }
    s_gain[lid] = best_gain;
    s_key[lid] = best;
    s_left[lid] = best_left;
    barrier();
    for (uint half_size = WG / 2u; half_size > 0u; half_size >>= 1) {
        if (lid < half_size) {
            const uint o = lid + half_size;
            if (split_better(s_gain[o], s_key[o].x, s_key[o].y, s_key[o].z,
                             s_gain[lid], s_key[lid].x, s_key[lid].y, s_key[lid].z)) {
                s_gain[lid] = s_gain[o];
                s_key[lid] = s_key[o];
                s_left[lid] = s_left[o];
            }
        }
        barrier();
    }
    if (lid == 0u) {
        const ivec3 key = s_key[0];
        const i64vec2 L = key.x >= 0 ? s_left[0] : total;
        const i64vec2 R = key.x >= 0 ? total - L : i64vec2(0);
        const uint o = record * 18u;
        records[o + 0u] = uint(node);
        records[o + 1u] = uint(key.x);
        records[o + 2u] = key.x >= 0 ? uint(key.y) : 0u;
        records[o + 3u] = key.x >= 0 ? uint(key.z) : 0u;
        const uvec2 gw = f64_words(key.x >= 0 ? s_gain[0] : F64_ZERO);
        records[o + 4u] = gw.x;
        records[o + 5u] = gw.y;
        const i64vec2 sums[3] = i64vec2[3](L, R, total);
        for (uint k = 0u; k < 3u; k++) {
            const uvec2 g = unpackUint2x32(uint64_t(sums[k].x));
            const uvec2 h = unpackUint2x32(uint64_t(sums[k].y));
            records[o + 6u + 4u * k] = g.x;
            records[o + 7u + 4u * k] = g.y;
            records[o + 8u + 4u * k] = h.x;
            records[o + 9u + 4u * k] = h.y;
        }
    }
}
