#version 450
// split_eval.comp -- the best split of one node (one workgroup a node; the
// nodes of a level are independent dispatches in one command buffer).
// Each feature's value bins are cut into S segments, S = WG / features
// (at least 1), so that few features still keep the workgroup busy: a
// thread takes a (feature, segment), adds the sums of the segments before
// its own (exact integers; each segment's summed by its thread) and
// evaluates the segment's candidates with the same
// arithmetic as the CPU reference (cpu_split.c). The workgroup then
// reduces the per-thread bests in shared memory with the tie rule of
// split_math.h, which is a total order, so neither the cut into segments
// nor the reduction order changes the result.
//
// Categorical features (split by sets, cpu_split_cat.c) are passed over by
// that scan and taken one at a time by the whole workgroup: their
// categories ranked in shared memory, the prefix sums of that order, then
// the candidates spread over the threads, into the same per-thread bests.
// A feature of more than 255 categories has too many to rank there: only
// the first max_cat_threshold of its order from either end can be in a
// candidate, so those are picked one at a time, each a workgroup-wide
// minimum (maximum) of the categories after (before) the last one picked;
// its record carries no set (the core rebuilds it, cat_set.h) and says
// categorical 2, so that the queued partition leaves its node to
// partition_rows.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "numeric.glsl"

layout(push_constant) uniform Push {
    uvec2 lambda;      // doubles as (low, high) words
    uvec2 alpha;
    uvec2 min_child_weight;
    uvec2 scale_grad;
    uvec2 scale_hess;
    uvec2 cat_smooth;
    uvec2 cat_l2;
    uvec2 min_data_per_group;
    uvec2 max_delta_step;
    uvec2 lower;       // the node's bounds on its weight, unless
    uvec2 upper;       // bounds_first is not 0
    uvec2 monotone_gain_factor;
    int node;
    uint record;       // where the record goes in the output
    uint features;     // the feature count; bit 31 set: the mask words are read
    uint min_data_in_leaf; // LightGBM's: the rows each child needs; 0: none
    int max_cat_to_onehot;
    int max_cat_threshold;
    uint bounds_first; // node table entry of record 0's bounds; 0: none
    uint node_rows;    // the node's rows (0: unknown), unless in the node table
} pc;

layout(std430, binding = 1) readonly buffer Hist { uvec4 hist[]; };
layout(std430, binding = 2) readonly buffer Offsets { uint feature_offset[]; };
// gpl_split_feature_word: bit 0 the feature may be split on, bit 1
// monotone increasing, bit 2 decreasing (read where has_mask is set).
layout(std430, binding = 3) readonly buffer Mask { uint mask[]; };
// 27 words a record: node, feature, bin, default_left, gain (2 words),
// left, right, total (two 64-bit sums each, as word pairs), categorical,
// the left set (8 words; GPL_SPLIT_RECORD_WORDS of gpu_kernel_abi.h).
layout(std430, binding = 4) writeonly buffer Records { uint records[]; };
// gpl_cat_table_make: a flag a feature, the number of categorical
// features, their indices.
layout(std430, binding = 5) readonly buffer Categorical { uint categorical[]; };
#ifdef GPL_LEVEL_TABLE
// split_eval_level (built from this file with GPL_LEVEL_TABLE; the Vulkan
// host's): the nodes of a level in one dispatch. Binding 1 is a run of
// slots of the histogram pool, and workgroup w takes entry pc.record + w
// of the node table: the node, its record, the first element of its
// histogram in the run and the node's rows (pc.node and pc.node_rows are
// not read); with bounds, entry
// pc.bounds_first + record holds the node's (lower, upper).
layout(std430, binding = 6) readonly buffer Nodes { uvec4 level_nodes[]; };
uint hist_base;
#else
const uint hist_base = 0u;
#endif

shared f64 s_gain[WG];
shared ivec3 s_key[WG];    // feature, bin, default_left
shared i64vec2 s_left[WG];
// A categorical feature's categories: their ordering values by bin, which
// bins take part (a bitset), the bins in their order, and the sums of the
// first k and of the last k of that order (c_prefix[k], c_back[k]; k <= n
// for a feature of at most 255 categories, k <= max_cat_threshold for a
// wider one); c_count: how many take part.
shared f64 c_ratio[256];
shared uint c_ok[8];
shared uint c_bin[256];
shared i64vec2 c_prefix[256];
shared i64vec2 c_back[256];
shared uint c_count;
shared uint c_set[8];
// The k each direction tries (bit k - 1 of words 8 * direction ..).
shared uint c_tried[16];

const int CAT_KEY_DIRECTION = 256; // GPL_CAT_KEY_DIRECTION of split_math.h

i64vec2 load(uint i)
{
    const uvec4 v = hist[hist_base + i];
    return i64vec2(int64_t(packUint2x32(v.xy)), int64_t(packUint2x32(v.zw)));
}

// gpl_cat_rows_at_least of split_math.h, given the node's side of the
// comparison, limit = rows x whole (a double, once a node). Below 2^53 the
// product part x node_rows is exact both as an int64 and as a double, so
// the int64 (which cannot overflow: part < 2^31, node_rows < 2^32) stands
// for the double product the CPU takes; the software double multiply of
// float64-free devices is left for larger products.
bool rows_reach(int64_t part, uint node_rows, f64 limit)
{
    if (node_rows == 0u) return true;
    const int64_t product = part * int64_t(node_rows);
    if (product < (int64_t(1) << 53)) return !f64_lt(f64_from_i64(product), limit);
    return !f64_lt(f64_mul(f64_from_i64(part), f64_from_i64(int64_t(node_rows))), limit);
}

// gpl_cat_before: a before b, by ordering value, then bin.
bool cat_before(f64 ra, uint ba, f64 rb, uint bb)
{
    if (!f64_eq(ra, rb)) return f64_lt(ra, rb);
    return ba < bb;
}

// The candidate whose left child has sums `left` (missing values aside),
// with missing values right and, where two_way, left too, into this
// thread's best (scan_feature of cpu_split.c, try_candidate of
// cpu_split_cat.c). Called from one place a kind of feature: each call
// is inlined, and the float64-free arithmetic is long.
// The bounded score (bounded_score) is taken where a weight may be
// clamped (bounded) or the feature is monotone (constraint != 0); else the
// shorter node_score, which gives the same bits where nothing is clamped.
// min_data_in_leaf (gpl_children_rows_ok): each child's hessian sum must
// reach rows_limit = min_data_in_leaf x the node's in rows_reach; rows 0
// (no limit, or the node's rows unknown) passes every candidate.
void try_split(i64vec2 total, f64 parent, f64 lambda, f64 alpha, f64 sg, f64 sh,
               f64 min_child_weight, f64 lo, f64 hi, bool bounded, int constraint,
               i64vec2 left, i64vec2 missing, int two_way, int f, int key, uint rows,
               f64 rows_limit, inout f64 best_gain, inout ivec3 best, inout i64vec2 best_left)
{
    for (int dl = 0; dl <= two_way; dl++) {
        i64vec2 L = left;
        if (dl != 0) L += missing;
        const i64vec2 R = total - L;
        if (L.y <= 0 || R.y <= 0) continue;
        const f64 hl = f64_div(f64_from_i64(L.y), sh);
        const f64 hr = f64_div(f64_from_i64(R.y), sh);
        if (f64_lt(hl, min_child_weight) || f64_lt(hr, min_child_weight)) continue;
        if (!rows_reach(L.y, rows, rows_limit) || !rows_reach(R.y, rows, rows_limit)) continue;
        const f64 gl = f64_div(f64_from_i64(L.x), sg), gr = f64_div(f64_from_i64(R.x), sg);
        f64 gain;
        if (bounded || constraint != 0) {
            const f64 mds = f64_from_words(pc.max_delta_step);
            f64 wl, wr;
            const f64 sl = bounded_score(gl, hl, lambda, alpha, mds, lo, hi, wl);
            const f64 sr = bounded_score(gr, hr, lambda, alpha, mds, lo, hi, wr);
            if (!monotone_ok(constraint, wl, wr)) continue;
            gain = f64_sub(f64_add(sl, sr), parent);
            if (constraint != 0) gain = f64_mul(gain, f64_from_words(pc.monotone_gain_factor));
        } else {
            gain = f64_sub(f64_add(node_score(gl, hl, lambda, alpha),
                                   node_score(gr, hr, lambda, alpha)),
                           parent);
        }
        if (split_better(gain, f, key, dl, best_gain, best.x, best.y, best.z)) {
            best_gain = gain;
            best = ivec3(f, key, dl);
            best_left = L;
        }
    }
}

// gpl_cat_group_step of split_math.h: 1 try this k, 0 skip it, -1 stop.
int cat_group_step(inout int64_t added, int64_t cat, int64_t left, int64_t whole,
                   uint node_rows, f64 limit)
{
    added += cat;
    if (!rows_reach(whole - left, node_rows, limit)) return -1;
    if (!rows_reach(added, node_rows, limit)) return 0;
    added = 0;
    return 1;
}

// ordered_categories of cpu_split_cat.c for the feature whose histogram
// starts at `first`: c_bin[0..n-1] in order; returns n. Called by the
// whole workgroup; ends with a barrier.
uint order_categories(uint first, int last_bin, f64 sg, f64 sh)
{
    const uint lid = gl_LocalInvocationID.x;
    const f64 cat_smooth = f64_from_words(pc.cat_smooth);
    const f64 min_child_weight = f64_from_words(pc.min_child_weight);
    if (lid < 8u) c_ok[lid] = 0u;
    barrier();
    for (int b = 1 + int(lid); b <= last_bin; b += int(WG)) {
        const i64vec2 h = load(first + uint(b));
        const f64 hs = f64_div(f64_from_i64(h.y), sh);
        if (h.y <= 0 || f64_lt(hs, min_child_weight)) continue;
        c_ratio[b] = f64_div(f64_div(f64_from_i64(h.x), sg), f64_add(hs, cat_smooth));
        atomicOr(c_ok[uint(b) >> 5], 1u << (uint(b) & 31u));
    }
    barrier();
    uint n = 0u;
    for (uint w = 0u; w < 8u; w++) n += uint(bitCount(c_ok[w]));
    // A category's place: the categories before it (the order is total).
    for (int b = 1 + int(lid); b <= last_bin; b += int(WG)) {
        if (((c_ok[uint(b) >> 5] >> (uint(b) & 31u)) & 1u) == 0u) continue;
        const f64 r = c_ratio[b];
        uint rank = 0u;
        for (int o = 1; o <= last_bin; o++)
            if (((c_ok[uint(o) >> 5] >> (uint(o) & 31u)) & 1u) != 0u &&
                cat_before(c_ratio[o], uint(o), r, uint(b)))
                rank++;
        c_bin[rank] = uint(b);
    }
    barrier();
    return n;
}

// Whether bin b's category takes part in the order (hessian sum above 0
// and at least min_child_weight), and its ordering value.
bool cat_used(uint first, uint b, f64 sg, f64 sh, f64 min_child_weight, f64 cat_smooth,
              out f64 ratio)
{
    const i64vec2 h = load(first + b);
    const f64 hs = f64_div(f64_from_i64(h.y), sh);
    ratio = F64_ZERO;
    if (h.y <= 0 || f64_lt(hs, min_child_weight)) return false;
    ratio = f64_div(f64_div(f64_from_i64(h.x), sg), f64_add(hs, cat_smooth));
    return true;
}

// For a feature of more than 255 categories: c_prefix[k] and c_back[k],
// k <= min(n, limit), picking the categories in order, one a round (see
// the top); returns n, the categories taking part. s_gain and s_key, free
// until the per-thread bests are reduced, hold the rounds' minima. Called
// by the whole workgroup; ends with a barrier.
uint select_categories(uint first, int last_bin, f64 sg, f64 sh, uint limit)
{
    const uint lid = gl_LocalInvocationID.x;
    const f64 cat_smooth = f64_from_words(pc.cat_smooth);
    const f64 min_child_weight = f64_from_words(pc.min_child_weight);
    if (lid == 0u) c_count = 0u;
    barrier();
    uint mine = 0u;
    for (int b = 1 + int(lid); b <= last_bin; b += int(WG)) {
        f64 r;
        if (cat_used(first, uint(b), sg, sh, min_child_weight, cat_smooth, r)) mine++;
    }
    atomicAdd(c_count, mine);
    barrier();
    const uint n = c_count;
    const uint kmax = min(n, limit);
    for (uint dir = 0u; dir < 2u; dir++) {
        f64 last_r = F64_ZERO;
        uint last_b = 0u;
        i64vec2 sum = i64vec2(0);
        for (uint k = 1u; k <= kmax; k++) {
            // This thread's first category of the order (dir 0; its last,
            // dir 1) among those not picked yet.
            f64 best_r = F64_ZERO;
            int best_b = -1;
            for (int b = 1 + int(lid); b <= last_bin; b += int(WG)) {
                f64 r;
                if (!cat_used(first, uint(b), sg, sh, min_child_weight, cat_smooth, r)) continue;
                if (k > 1u && !(dir == 0u ? cat_before(last_r, last_b, r, uint(b))
                                          : cat_before(r, uint(b), last_r, last_b)))
                    continue;
                if (best_b < 0 || (dir == 0u ? cat_before(r, uint(b), best_r, uint(best_b))
                                             : cat_before(best_r, uint(best_b), r, uint(b)))) {
                    best_r = r;
                    best_b = b;
                }
            }
            s_gain[lid] = best_r;
            s_key[lid] = ivec3(best_b, 0, 0);
            barrier();
            for (uint half_size = WG / 2u; half_size > 0u; half_size >>= 1) {
                if (lid < half_size) {
                    const uint o = lid + half_size;
                    const int ob = s_key[o].x, mb = s_key[lid].x;
                    if (ob >= 0 &&
                        (mb < 0 || (dir == 0u ? cat_before(s_gain[o], uint(ob), s_gain[lid], uint(mb))
                                              : cat_before(s_gain[lid], uint(mb), s_gain[o], uint(ob))))) {
                        s_gain[lid] = s_gain[o];
                        s_key[lid] = s_key[o];
                    }
                }
                barrier();
            }
            last_r = s_gain[0];
            last_b = uint(s_key[0].x);
            barrier();
            sum += load(first + last_b);
            if (lid == 0u) {
                if (dir == 0u) c_prefix[k] = sum;
                else c_back[k] = sum;
            }
        }
    }
    if (lid == 0u) {
        c_prefix[0] = i64vec2(0);
        c_back[0] = i64vec2(0);
    }
    barrier();
    return n;
}

void main()
{
    const uint lid = gl_LocalInvocationID.x;
#ifdef GPL_LEVEL_TABLE
    const uvec4 entry = level_nodes[pc.record + gl_WorkGroupID.x];
    const int node = int(entry.x);
    const uint record = entry.y;
    hist_base = entry.z;
    const uint node_rows = entry.w;
#else
    const int node = pc.node;
    const uint record = pc.record;
    const uint node_rows = pc.node_rows;
#endif
    f64 lo = f64_from_words(pc.lower), hi = f64_from_words(pc.upper);
#ifdef GPL_LEVEL_TABLE
    if (pc.bounds_first != 0u) {
        const uvec4 b = level_nodes[pc.bounds_first + record];
        lo = f64_from_words(b.xy);
        hi = f64_from_words(b.zw);
    }
#endif
    const f64 mds = f64_from_words(pc.max_delta_step);
    const bool bounded = f64_gt(mds, F64_ZERO) || f64_gt(lo, F64_NEG_INF) ||
                         f64_lt(hi, f64_neg(F64_NEG_INF));
    f64 weight;
    const f64 sg = f64_from_words(pc.scale_grad), sh = f64_from_words(pc.scale_hess);
    const f64 lambda = f64_from_words(pc.lambda), alpha = f64_from_words(pc.alpha);
    const f64 min_child_weight = f64_from_words(pc.min_child_weight);
    const uint num_features = pc.features & 0x7fffffffu;
    const bool has_mask = (pc.features >> 31) != 0u;
    // Any feature's bins add up to the node's total; take feature 0's,
    // summed by the workgroup (s_left is free until the bests are reduced).
    i64vec2 part = i64vec2(0);
    for (uint k = feature_offset[0] + lid; k < feature_offset[1]; k += WG) part += load(k);
    s_left[lid] = part;
    barrier();
    for (uint half_size = WG / 2u; half_size > 0u; half_size >>= 1) {
        if (lid < half_size) s_left[lid] += s_left[lid + half_size];
        barrier();
    }
    const i64vec2 total = s_left[0];
    barrier();
    const uint rows = pc.min_data_in_leaf != 0u ? node_rows : 0u;
    const f64 rows_limit = f64_mul(f64_from_i64(int64_t(pc.min_data_in_leaf)),
                                   f64_from_i64(total.y));
    const f64 parent = bounded_score(f64_div(f64_from_i64(total.x), sg),
                                     f64_div(f64_from_i64(total.y), sh), lambda, alpha, mds, lo,
                                     hi, weight);
    f64 best_gain = F64_ZERO;
    ivec3 best = ivec3(-1, 0, 0);
    i64vec2 best_left = total;
    const uint segments = max(1u, WG / max(num_features, 1u));
    // With more than one segment a feature, each thread has at most one
    // (feature, segment): the sums of the segments before its own come from
    // the threads that own them (in s_left), so that no thread walks more
    // of a feature's bins than its segment (a feature may have 65,535).
    if (segments > 1u) {
        i64vec2 own = i64vec2(0);
        if (lid < num_features * segments) {
            const uint f = lid / segments, seg = lid % segments;
            const uint first = feature_offset[f];
            const int last_bin = int(feature_offset[f + 1u] - first) - 1;
            const int seg_len = (last_bin + int(segments) - 1) / int(segments);
            const int b_lo = 1 + int(seg) * seg_len;
            const int b_hi = min(last_bin, b_lo + seg_len - 1);
            for (int b = b_lo; b <= b_hi; b++) own += load(first + uint(b));
        }
        s_left[lid] = own;
        barrier();
    }
    for (uint item = lid; item < num_features * segments; item += WG) {
        const uint f = item / segments, seg = item % segments;
        const uint words = has_mask ? mask[f] : 1u;
        if ((words & 1u) == 0u || categorical[f] != 0u) continue;
        const int constraint = int((words >> 1) & 1u) - int((words >> 2) & 1u);
        const uint first = feature_offset[f];
        const int last_bin = int(feature_offset[f + 1u] - first) - 1;
        const int seg_len = (last_bin + int(segments) - 1) / int(segments);
        const int b_lo = 1 + int(seg) * seg_len;
        const int b_hi = min(last_bin, b_lo + seg_len - 1);
        if (b_lo > b_hi) continue;
        const i64vec2 missing = load(first);
        i64vec2 cum = i64vec2(0);
        for (uint s = item - seg; s < item; s++) cum += s_left[s];
        for (int b = b_lo; b <= b_hi; b++) {
            cum += load(first + uint(b));
            const int two_way = (b < last_bin && (missing.y != 0 || missing.x != 0)) ? 1 : 0;
            try_split(total, parent, lambda, alpha, sg, sh, min_child_weight, lo, hi, bounded,
                      constraint, cum, missing, two_way, int(f), b, rows, rows_limit, best_gain,
                      best, best_left);
        }
    }
    if (segments > 1u) barrier(); // the segments' sums are read; s_left is free again
    const uint num_cat = categorical[num_features];
    for (uint c = 0u; c < num_cat; c++) {
        const uint f = categorical[num_features + 1u + c];
        if (has_mask && (mask[f] & 1u) == 0u) continue;
        const uint first = feature_offset[f];
        const int last_bin = int(feature_offset[f + 1u] - first) - 1;
        const i64vec2 missing = load(first);
        const int two_way = (missing.x != 0 || missing.y != 0) ? 1 : 0;
        const bool onehot = last_bin <= pc.max_cat_to_onehot;
        uint n = 0u, items = uint(last_bin) + 1u;
        if (!onehot) {
            const uint limit = uint(max(pc.max_cat_threshold, 0));
            const bool wide = last_bin > 255;
            n = wide ? select_categories(first, last_bin, sg, sh, limit)
                     : order_categories(first, last_bin, sg, sh);
            const uint kmax = min(n, limit);
            if (lid == 0u) {
                if (!wide) {
                    i64vec2 sum = i64vec2(0);
                    c_prefix[0] = sum;
                    for (uint k = 1u; k <= n; k++) {
                        sum += load(first + c_bin[k - 1u]);
                        c_prefix[k] = sum;
                    }
                    for (uint k = 0u; k <= kmax; k++) c_back[k] = c_prefix[n] - c_prefix[n - k];
                }
                // Which k each direction tries: a walk in order.
                const f64 limit = f64_mul(f64_from_words(pc.min_data_per_group),
                                          f64_from_i64(total.y));
                for (uint w = 0u; w < 16u; w++) c_tried[w] = 0u;
                for (uint dir = 0u; dir < 2u; dir++) {
                    int64_t added = 0;
                    for (uint k = 1u; k <= kmax; k++) {
                        // The k-th category's hessian sum, and the first (last) k's.
                        const int64_t left = dir == 0u ? c_prefix[k].y : c_back[k].y;
                        const int64_t cat =
                            left - (dir == 0u ? c_prefix[k - 1u].y : c_back[k - 1u].y);
                        const int step = cat_group_step(added, cat, left, total.y, node_rows,
                                                        limit);
                        if (step < 0) break;
                        if (step > 0) c_tried[8u * dir + ((k - 1u) >> 5)] |= 1u << ((k - 1u) & 31u);
                    }
                }
            }
            barrier();
            items = 2u * kmax;
        }
        const f64 cat_lambda = onehot ? lambda : f64_add(lambda, f64_from_words(pc.cat_l2));
        const f64 cat_parent = onehot ? parent
                                      : bounded_score(f64_div(f64_from_i64(total.x), sg),
                                                      f64_div(f64_from_i64(total.y), sh),
                                                      cat_lambda, alpha, mds, lo, hi, weight);
        for (uint item = lid; item < items; item += WG) {
            i64vec2 left;
            int key;
            if (onehot) {
                // Key 0: no category left (missing values alone); key b: bin b.
                key = int(item);
                left = item == 0u ? i64vec2(0) : load(first + item);
                if (item != 0u && left.y <= 0) continue;
            } else {
                // Exact integer sums: the last k are all n less the first n - k.
                const uint kmax = items / 2u, dir = item / kmax, k = item % kmax + 1u;
                if (((c_tried[8u * dir + ((k - 1u) >> 5)] >> ((k - 1u) & 31u)) & 1u) == 0u)
                    continue;
                key = int(dir) * CAT_KEY_DIRECTION + int(k);
                left = dir == 0u ? c_prefix[k] : c_back[k];
            }
            try_split(total, cat_parent, cat_lambda, alpha, sg, sh, min_child_weight, lo, hi,
                      bounded, 0, left, missing, two_way, int(f), key, rows, rows_limit,
                      best_gain, best, best_left);
        }
        barrier();
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
    // The winner's left set, when it is categorical (key as in
    // gpl_cat_left_set of cpu_split_cat.c) and of at most 255 categories.
    const ivec3 win = s_key[0];
    const bool win_cat = win.x >= 0 && categorical[uint(win.x)] != 0u;
    const bool win_wide = win_cat && feature_offset[uint(win.x) + 1u] -
                                             feature_offset[uint(win.x)] > 256u;
    if (lid < 8u) c_set[lid] = 0u;
    barrier();
    if (win_cat && !win_wide) {
        const uint first = feature_offset[uint(win.x)];
        const int last_bin = int(feature_offset[uint(win.x) + 1u] - first) - 1;
        if (last_bin <= pc.max_cat_to_onehot) {
            if (lid == 0u && win.y > 0) c_set[uint(win.y) >> 5] = 1u << (uint(win.y) & 31u);
        } else {
            const uint n = order_categories(first, last_bin, sg, sh);
            const uint dir = uint(win.y / CAT_KEY_DIRECTION), k = uint(win.y % CAT_KEY_DIRECTION);
            for (uint i = lid; i < k && i < n; i += WG) {
                const uint b = c_bin[dir != 0u ? n - 1u - i : i];
                atomicOr(c_set[b >> 5], 1u << (b & 31u));
            }
        }
    }
    barrier();
    if (lid == 0u) {
        const ivec3 key = s_key[0];
        const i64vec2 L = key.x >= 0 ? s_left[0] : total;
        const i64vec2 R = key.x >= 0 ? total - L : i64vec2(0);
        const uint o = record * 27u;
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
        records[o + 18u] = win_wide ? 2u : win_cat ? 1u : 0u;
        for (uint w = 0u; w < 8u; w++) records[o + 19u + w] = c_set[w];
    }
}
