#version 450
// shap.comp -- SHAP values of a block of rows (the shap operation of
// backend.h), in the phases the host dispatches in turn: the rows binned
// as prediction bins them; the walks, one invocation a row for
// contributions and interactions by quadrature (every tree linear), one a
// (row, feature) for interactions of deeper trees; the doubles
// written as floats. The walks are src/backend/shap_math.h operation for
// operation (f64_* of numeric.glsl: nothing fused), so the values are the
// CPU's bit for bit.
//
// The walk phases take one tree and one walk a dispatch, in order: with
// several walks an invocation, Mesa 22's lavapipe gave some invocations
// wrong values once their walks of Algorithm 2 had diverged.
//
// Doubles live in buffers as (low, high) words. A row's sums interleave
// the block's rows: value e of row r at [e * num_rows + r]. A walk's path
// and stack interleave the phase's invocations the same way: slot s of
// invocation i at [s * threads + i].
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "numeric.glsl"

layout(push_constant) uniform Push {
    uint phase;        // PHASE_* below
    uint num_rows;     // rows of this block
    uint num_features;
    uint num_outputs;
    uint num_trees;
    uint num_nodes;    // leaf[num_nodes + k]: output k's base margin
    uint approx;       // contributions: Saabas' instead of TreeSHAP
    uint threads;      // invocations whose walks interleave
    uint slots;        // path slots a walk
    uint stack_len;    // visits a walk
    uint row_words;    // words of one row's packed bins
    uint has_row_base; // row_base holds num_rows x outputs base margins
    uint tree;         // the tree the walk phases take
    uint code_bits;    // bits of a bin code: 8, or 16 (gpl_infer_forest.code_bytes)
    uint set_words;    // words of a node's set (gpl_infer_forest.cat_words)
} pc;

const uint PHASE_BINS = 0u;
const uint PHASE_CONTRIBS = 1u;
const uint PHASE_INTERACTIONS = 2u;
const uint PHASE_FINISH_CONTRIBS = 3u;
const uint PHASE_FINISH_INTERACTIONS = 4u;
const uint PHASE_INTERACTIONS_OFF = 5u;
const uint PHASE_INTERACTIONS_PAIRS = 6u;
const uint PHASE_PAIRS = 7u;
const uint PHASE_FINISH_PAIRS = 8u;

// Feature-major: value of feature f of row r at data[f * num_rows + r].
layout(std430, binding = 1) readonly buffer Data { float data[]; };
layout(std430, binding = 2) readonly buffer CutPtr { uint cut_ptr[]; };
layout(std430, binding = 3) readonly buffer Cuts { float cuts[]; };
// gpl_infer_node: left, right, feature, bin | default_left << 16 |
// categorical << 24 (tree-local children).
layout(std430, binding = 4) readonly buffer Nodes { uvec4 nodes[]; };
// The leaf values of every node, then the base margin of every output.
layout(std430, binding = 5) readonly buffer Leaf { float leaf[]; };
// Per tree: its first node, whether the linear walk takes it, the range
// of its distinct split features in features[].
layout(std430, binding = 6) readonly buffer Trees { uvec4 trees[]; };
// Per node its share of the parent's cover, then per node its expected
// value (gpl_shap_forest).
layout(std430, binding = 7) readonly buffer NodeNumbers { uvec2 numbers[]; };
layout(std430, binding = 8) readonly buffer Features { int features[]; };
layout(std430, binding = 9) readonly buffer CatSets { uint cat_sets[]; };
// Row-major bins, four a word.
layout(std430, binding = 10) buffer Bins { uint bins[]; };
// The sums: contributions or interaction matrices (row width values a
// row), then for interactions the diagonals' starts (outputs x (F + 1) a
// row) and each invocation's on and off values ((F + 1) each).
layout(std430, binding = 11) buffer Sums { uvec2 sums[]; };
// The walks' paths (zero, one, weight) and visits (zero, one, fraction).
layout(std430, binding = 12) buffer WalkDoubles { uvec2 walk_d[]; };
// The paths' features and the visits' node, depth, parent and feature.
layout(std430, binding = 13) buffer WalkInts { int walk_i[]; };
layout(std430, binding = 14) writeonly buffer Out { float outv[]; };
layout(std430, binding = 15) readonly buffer RowBase { float row_base[]; };

#define F64_W(bits, value) F64C(bits, value)
const f64 POINT_T[8] = f64[8](
    F64_W(0x3f9454e34f5339a0UL, 0.019855071751231912LF),
    F64_W(0x3fba06d536d82f88UL, 0.10166676129318664LF),
    F64_W(0x3fce5dad4f9af698UL, 0.2372337950418355LF),
    F64_W(0x3fda214dac30e32fUL, 0.40828267875217511LF),
    F64_W(0x3fe2ef5929e78e68UL, 0.59171732124782483LF),
    F64_W(0x3fe86894ac19425aUL, 0.7627662049581645LF),
    F64_W(0x3fecbf255924fa0fUL, 0.89833323870681336LF),
    F64_W(0x3fef5d58e5856633UL, 0.98014492824876809LF));
const f64 POINT_W[8] = f64[8](
    F64_W(0x3fa9ea1d04ca03aeUL, 0.050614268145188532LF),
    F64_W(0x3fbc76fb531d2b94UL, 0.11119051722668721LF),
    F64_W(0x3fc413c50a25560eUL, 0.15685332293894344LF),
    F64_W(0x3fc736360b19933dUL, 0.18134189168918083LF),
    F64_W(0x3fc736360b19933dUL, 0.18134189168918083LF),
    F64_W(0x3fc413c50a25560eUL, 0.15685332293894344LF),
    F64_W(0x3fbc76fb531d2b94UL, 0.11119051722668721LF),
    F64_W(0x3fa9ea1d04ca03aeUL, 0.050614268145188532LF));

// ------------------------------------------------------------- binning

uint order_key(float x)
{
    uint u = floatBitsToUint(x);
    if (u == 0x80000000u) u = 0u;
    return (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u);
}

// gpl_bin_of of binning.h, step for step (as predict.comp).
uint bin_of(uint f, float v)
{
    const uint u = floatBitsToUint(v);
    if ((u & 0x7fffffffu) > 0x7f800000u) return 0u;
    const uint first = cut_ptr[f];
    uint len = cut_ptr[f + 1u] - first;
    if (len == 0u) return 1u;
    const uint key = order_key(v);
    uint base = first;
    while (len > 1u) {
        const uint half_len = len >> 1;
        if (order_key(cuts[base + half_len]) <= key) base += half_len;
        len -= half_len;
    }
    return (base - first + (order_key(cuts[base]) <= key ? 1u : 0u) + 1u) & 0xffffu;
}

// Codes a word of the packed bins: 1 << code_shift() (four bytes, or two
// 16-bit codes).
uint code_shift() { return pc.code_bits == 16u ? 1u : 2u; }

uint bin_at(uint r, uint f)
{
    const uint lane = (1u << code_shift()) - 1u;
    return (bins[r * pc.row_words + (f >> code_shift())] >> ((f & lane) * pc.code_bits)) &
           ((1u << pc.code_bits) - 1u);
}

// gpl_shap_goes_left: node is the forest-wide index (for its set).
bool goes_left(uint node, uvec4 nd, uint b)
{
    bool left;
    if ((nd.w >> 24) != 0u)
        left = ((cat_sets[node * pc.set_words + (b >> 5)] >> (b & 31u)) & 1u) != 0u;
    else
        left = (b - 1u) < (nd.w & 0xffffu);
    return left || (b == 0u && ((nd.w >> 16) & 0xffu) != 0u);
}

bool is_leaf(uvec4 nd, uint local) { return nd.x == local; }

f64 frac_of(uint node) { return f64_from_words(numbers[node]); }
f64 mean_of(uint node) { return f64_from_words(numbers[pc.num_nodes + node]); }
f64 f64_of_int(int v) { return f64_from_i64(int64_t(v)); }

// sums[at] += v
void sum_add(uint at, f64 v) { sums[at] = f64_words(f64_add(f64_from_words(sums[at]), v)); }

// ----------------------------------------------------------- linear walk
// gpl_shap_linear_row of shap_math.h, its levels in private arrays.

const int LINEAR_LEVELS = 16; // GPL_SHAP_LINEAR_DEPTH + 1

f64 lv_c[LINEAR_LEVELS][8];
f64 lv_h[LINEAR_LEVELS][8];
f64 lv_r[LINEAR_LEVELS][8];
f64 lv_p[LINEAR_LEVELS];
f64 lv_zprod[LINEAR_LEVELS];
int lv_node[LINEAR_LEVELS];
int lv_stage[LINEAR_LEVELS];
int lv_feature[LINEAR_LEVELS];

f64 lin_p(int d, int f)
{
    for (int j = d; j >= 1; j--)
        if (lv_feature[j] == f) return lv_p[j];
    return F64_ONE;
}

// phi of feature f at sums[phi + f * stride]; with_pairs: the pair sums
// too, pair (i, j) at sums[pairs + gpl_shap_pair_at(i, j, C) * stride].
void linear_tree(uint first, uint r, uint phi, uint stride, bool with_pairs, uint pairs)
{
    if (is_leaf(nodes[first], 0u)) return;
    int d = 0;
    lv_node[0] = 0;
    lv_stage[0] = 0;
    lv_feature[0] = -1;
    lv_p[0] = F64_ONE;
    lv_zprod[0] = F64_ONE;
    for (int q = 0; q < 8; q++) lv_c[0][q] = F64_ONE;
    f64 h[8];
    for (int q = 0; q < 8; q++) h[q] = F64_ZERO;
    for (;;) {
        const uint local = uint(lv_node[d]);
        const uvec4 n = nodes[first + local];
        if (is_leaf(n, local)) {
            const f64 scale = f64_mul(lv_zprod[d], f64_from_float(leaf[first + local]));
            for (int q = 0; q < 8; q++) h[q] = f64_mul(f64_mul(lv_c[d][q], scale), POINT_W[q]);
            lv_stage[d] = 2;
        } else if (lv_stage[d] < 2) {
            const uint child = lv_stage[d] == 0 ? n.x : n.y;
            const bool follows =
                goes_left(first + local, n, bin_at(r, n.z)) == (lv_stage[d] == 0);
            const f64 z = frac_of(first + child);
            const f64 p_old = lin_p(d, int(n.z));
            const f64 p_new = follows ? f64_div(p_old, z) : F64_ZERO;
            const f64 a_old = f64_sub(p_old, F64_ONE), a_new = f64_sub(p_new, F64_ONE);
            lv_node[d + 1] = int(child);
            lv_stage[d + 1] = 0;
            lv_feature[d + 1] = int(n.z);
            lv_p[d + 1] = p_new;
            lv_zprod[d + 1] = f64_mul(lv_zprod[d], z);
            for (int q = 0; q < 8; q++) {
                f64 cc;
                if (f64_eq(p_new, F64_ZERO)) {
                    cc = f64_mul(lv_c[d][q], f64_sub(F64_ONE, POINT_T[q]));
                } else {
                    const f64 e = f64_add(F64_ONE, f64_mul(a_new, POINT_T[q]));
                    cc = f64_mul(lv_c[d][q], e);
                }
                if (!f64_eq(a_old, F64_ZERO))
                    cc = f64_div(cc, f64_add(F64_ONE, f64_mul(a_old, POINT_T[q])));
                lv_c[d + 1][q] = cc;
                // gpl_shap_lin_ratio
                if (with_pairs)
                    lv_r[d + 1][q] =
                        f64_eq(p_new, F64_ZERO)
                            ? f64_neg(f64_div(F64_ONE, f64_sub(F64_ONE, POINT_T[q])))
                            : f64_div(a_new, f64_add(F64_ONE, f64_mul(a_new, POINT_T[q])));
            }
            d++;
            continue;
        } else {
            for (int q = 0; q < 8; q++) h[q] = f64_add(lv_h[d][q], h[q]);
        }
        // Level d is done with sums h: the edge into it adds its value.
        if (d == 0) return;
        const f64 p_new = lv_p[d];
        const f64 p_old = lin_p(d - 1, lv_feature[d]);
        const f64 a_old = f64_sub(p_old, F64_ONE), a_new = f64_sub(p_new, F64_ONE);
        // Each point's term (gpl_shap_lin_point_value), then their sum in
        // pairs (gpl_shap_lin_edge_sum).
        const bool untaken = f64_eq(p_new, F64_ZERO);
        f64 pv[8];
        for (int q = 0; q < 8; q++) {
            f64 x;
            if (untaken) {
                const f64 inv = f64_div(F64_ONE, f64_sub(F64_ONE, POINT_T[q]));
                x = f64_neg(f64_mul(h[q], inv));
            } else {
                const f64 ratio =
                    f64_div(a_new, f64_add(F64_ONE, f64_mul(a_new, POINT_T[q])));
                x = f64_mul(h[q], ratio);
            }
            if (!f64_eq(a_old, F64_ZERO))
                x = f64_sub(x, f64_div(f64_mul(h[q], a_old),
                                       f64_add(F64_ONE, f64_mul(a_old, POINT_T[q]))));
            pv[q] = x;
        }
        const f64 v = f64_add(f64_add(f64_add(pv[0], pv[1]), f64_add(pv[2], pv[3])),
                              f64_add(f64_add(pv[4], pv[5]), f64_add(pv[6], pv[7])));
        sum_add(phi + uint(lv_feature[d]) * stride, v);
        // The pairs of the edge's feature with each other feature's
        // innermost edge above (gpl_shap_linear_row).
        if (with_pairs)
            for (int k = 1; k < d; k++) {
                bool inner = lv_feature[k] != lv_feature[d];
                for (int m = k + 1; inner && m < d; m++) inner = lv_feature[m] != lv_feature[k];
                if (!inner) continue;
                f64 x[8];
                for (int q = 0; q < 8; q++) x[q] = f64_mul(pv[q], lv_r[k][q]);
                const f64 s = f64_add(f64_add(f64_add(x[0], x[1]), f64_add(x[2], x[3])),
                                      f64_add(f64_add(x[4], x[5]), f64_add(x[6], x[7])));
                const uint i = uint(lv_feature[d]), j = uint(lv_feature[k]);
                sum_add(pairs + (min(i, j) * (pc.num_features + 1u) + max(i, j)) * stride, s);
            }
        d--;
        if (lv_stage[d] == 0)
            for (int q = 0; q < 8; q++) lv_h[d][q] = h[q];
        lv_stage[d]++;
    }
}

// ----------------------------------------------------------- Algorithm 2
// gpl_shap_alg2_row of shap_math.h. Path slot s of this invocation: its
// feature at walk_i[s * T + id], zero, one and weight at walk_d[(s,
// slots + s, 2 slots + s) * T + id]; visit e after them.

uint walk_id;

uint pz(uint s) { return s * pc.threads + walk_id; }
uint po(uint s) { return (pc.slots + s) * pc.threads + walk_id; }
uint pw(uint s) { return (2u * pc.slots + s) * pc.threads + walk_id; }
f64 wd(uint at) { return f64_from_words(walk_d[at]); }
void wd_set(uint at, f64 v) { walk_d[at] = f64_words(v); }

uint vi(uint e, uint field) { return (pc.slots + e * 4u + field) * pc.threads + walk_id; }
uint vd(uint e, uint field) { return (3u * pc.slots + e * 3u + field) * pc.threads + walk_id; }

void path_extend(uint at, int depth, f64 zero, f64 one, int feature)
{
    const uint s = at + uint(depth);
    walk_i[pz(s)] = feature;
    wd_set(pz(s), zero);
    wd_set(po(s), one);
    wd_set(pw(s), depth == 0 ? F64_ONE : F64_ZERO);
    const f64 inv = f64_div(F64_ONE, f64_of_int(depth + 1));
    for (int i = depth - 1; i >= 0; i--) {
        const uint a = at + uint(i);
        const f64 w = wd(pw(a));
        wd_set(pw(a + 1u), f64_add(wd(pw(a + 1u)),
                                   f64_mul(f64_mul(f64_mul(one, w), f64_of_int(i + 1)), inv)));
        wd_set(pw(a), f64_mul(f64_mul(f64_mul(zero, w), f64_of_int(depth - i)), inv));
    }
}

void path_unwind(uint at, int depth, int k)
{
    const f64 one = wd(po(at + uint(k))), zero = wd(pz(at + uint(k)));
    f64 next = wd(pw(at + uint(depth)));
    const f64 d1 = f64_of_int(depth + 1);
    for (int i = depth - 1; i >= 0; i--) {
        const uint a = at + uint(i);
        if (!f64_eq(one, F64_ZERO)) {
            const f64 w = wd(pw(a));
            const f64 nw = f64_div(f64_mul(next, d1), f64_mul(f64_of_int(i + 1), one));
            wd_set(pw(a), nw);
            next = f64_sub(w, f64_div(f64_mul(f64_mul(nw, zero), f64_of_int(depth - i)), d1));
        } else {
            wd_set(pw(a), f64_div(f64_mul(wd(pw(a)), d1), f64_mul(zero, f64_of_int(depth - i))));
        }
    }
    for (int i = k; i < depth; i++) {
        const uint a = at + uint(i);
        walk_i[pz(a)] = walk_i[pz(a + 1u)];
        wd_set(pz(a), wd(pz(a + 1u)));
        wd_set(po(a), wd(po(a + 1u)));
    }
}

void path_leaf(uint at, int depth, f64 scale, uint phi, uint stride)
{
    const f64 d1 = f64_of_int(depth + 1);
    f64 cold_sum = F64_ZERO;
    for (int i = 0; i < depth; i++)
        cold_sum = f64_add(cold_sum, f64_mul(wd(pw(at + uint(i))),
                                             f64_div(d1, f64_of_int(depth - i))));
    for (int k = 1; k <= depth; k++) {
        const uint a = at + uint(k);
        const f64 zero = wd(pz(a)), one = wd(po(a));
        f64 sum;
        if (!f64_eq(one, F64_ZERO)) {
            f64 next = wd(pw(at + uint(depth))), total = F64_ZERO;
            for (int i = depth - 1; i >= 0; i--) {
                const f64 w = f64_mul(next, f64_div(d1, f64_of_int(i + 1)));
                total = f64_add(total, w);
                next = f64_sub(wd(pw(at + uint(i))),
                               f64_mul(f64_mul(w, zero), f64_div(f64_of_int(depth - i), d1)));
            }
            sum = total;
        } else {
            sum = f64_eq(zero, F64_ZERO) ? F64_ZERO : f64_div(cold_sum, zero);
        }
        sum_add(phi + uint(walk_i[pz(a)]) * stride,
                f64_mul(f64_mul(sum, f64_sub(one, zero)), scale));
    }
}

void push_visit(uint e, int node, int depth, uint parent, int feature, f64 zero, f64 one,
                f64 fraction)
{
    walk_i[vi(e, 0u)] = node;
    walk_i[vi(e, 1u)] = depth;
    walk_i[vi(e, 2u)] = int(parent);
    walk_i[vi(e, 3u)] = feature;
    wd_set(vd(e, 0u), zero);
    wd_set(vd(e, 1u), one);
    wd_set(vd(e, 2u), fraction);
}

// One visit of gpl_shap_alg2_row's loop; pushes the node's children.
void alg2_visit(uint first, uint r, uint phi, uint stride, int condition, int cond_feature,
                inout int top, uint node, int depth, uint parent, int feature, f64 v_zero,
                f64 v_one, f64 fraction)
{
    const uint at = parent + uint(depth) + 1u;
    if (parent > 0u)
        for (int i = 0; i <= depth; i++) {
            const uint s = at + uint(i), p = parent + uint(i);
            walk_i[pz(s)] = walk_i[pz(p)];
            wd_set(pz(s), wd(pz(p)));
            wd_set(po(s), wd(po(p)));
            wd_set(pw(s), wd(pw(p)));
        }
    if (condition == 0 || cond_feature != feature)
        path_extend(at, depth, v_zero, v_one, feature);
    const uvec4 n = nodes[first + node];
    if (is_leaf(n, node)) {
        path_leaf(at, depth, f64_mul(f64_from_float(leaf[first + node]), fraction), phi, stride);
    } else {
        const bool left = goes_left(first + node, n, bin_at(r, n.z));
        const uint hot = left ? n.x : n.y, cold = left ? n.y : n.x;
        const f64 hot_zero = frac_of(first + hot), cold_zero = frac_of(first + cold);
        f64 in_zero = F64_ONE, in_one = F64_ONE;
        int k = 0;
        while (k <= depth && walk_i[pz(at + uint(k))] != int(n.z)) k++;
        if (k <= depth) {
            in_zero = wd(pz(at + uint(k)));
            in_one = wd(po(at + uint(k)));
            path_unwind(at, depth, k);
            depth--;
        }
        f64 hot_fraction = fraction, cold_fraction = fraction;
        if (condition > 0 && int(n.z) == cond_feature) {
            cold_fraction = F64_ZERO;
            depth--;
        } else if (condition < 0 && int(n.z) == cond_feature) {
            hot_fraction = f64_mul(hot_fraction, hot_zero);
            cold_fraction = f64_mul(cold_fraction, cold_zero);
            depth--;
        }
        top++;
        push_visit(uint(top), int(cold), depth + 1, at, int(n.z), f64_mul(cold_zero, in_zero),
                   F64_ZERO, cold_fraction);
        top++;
        push_visit(uint(top), int(hot), depth + 1, at, int(n.z), f64_mul(hot_zero, in_zero),
                   in_one, hot_fraction);
    }
}

void alg2_tree(uint first, uint r, uint phi, uint stride, int condition, int cond_feature)
{
    int top = 0;
    push_visit(0u, 0, 0, 0u, -1, F64_ONE, F64_ONE, F64_ONE);
    while (top >= 0) {
        const uint e = uint(top);
        top--;
        const f64 fraction = wd(vd(e, 2u));
        if (!f64_eq(fraction, F64_ZERO))
            alg2_visit(first, r, phi, stride, condition, cond_feature, top,
                       uint(walk_i[vi(e, 0u)]), walk_i[vi(e, 1u)], uint(walk_i[vi(e, 2u)]),
                       walk_i[vi(e, 3u)], wd(vd(e, 0u)), wd(vd(e, 1u)), fraction);
    }
}

// --------------------------------------------------------------- phases

void saabas_tree(uint first, uint r, uint phi, uint stride)
{
    uint i = 0u;
    f64 v = mean_of(first);
    sum_add(phi + pc.num_features * stride, v);
    for (;;) {
        const uvec4 n = nodes[first + i];
        if (is_leaf(n, i)) break;
        i = goes_left(first + i, n, bin_at(r, n.z)) ? n.x : n.y;
        const f64 m = mean_of(first + i);
        sum_add(phi + n.z * stride, f64_sub(m, v));
        v = m;
    }
}

// gpl_shap_contrib_row, tree pc.tree of it: row r's values at
// sums[(k C + f) n + r].
void contributions(uint r)
{
    const uint C = pc.num_features + 1u, n = pc.num_rows, t = pc.tree;
    const uvec4 tree = trees[t];
    const uint phi = (t % pc.num_outputs) * C * n + r;
    if (pc.approx != 0u) {
        saabas_tree(tree.x, r, phi, n);
        return;
    }
    if (tree.y != 0u) linear_tree(tree.x, r, phi, n, false, 0u);
    else alg2_tree(tree.x, r, phi, n, 0, 0);
    sum_add(phi + pc.num_features * n, mean_of(tree.x));
}

// Where the interaction phases keep what (Sums): the matrices, the
// diagonals' starts, then on and off.
uint diag_at() { return pc.num_outputs * (pc.num_features + 1u) * (pc.num_features + 1u) * pc.num_rows; }
uint on_at() { return diag_at() + pc.num_outputs * (pc.num_features + 1u) * pc.num_rows; }
uint off_at() { return on_at() + (pc.num_features + 1u) * pc.threads; }

// Invocation (i, r), tree pc.tree, in three phases (one walk a
// dispatch): the walk with feature i present into on (for i = F the
// diagonal's start, gpl_shap_interaction_diag), with i absent into off,
// then gpl_shap_interaction_row's half differences into row i's matrices.
void interactions(uint id)
{
    const uint F = pc.num_features, C = F + 1u, n = pc.num_rows, T = pc.threads;
    const uint i = id / n, r = id % n, t = pc.tree;
    const uvec4 tree = trees[t];
    if (i == F) {
        if (pc.phase != PHASE_INTERACTIONS) return;
        const uint d = diag_at() + (t % pc.num_outputs) * C * n + r;
        alg2_tree(tree.x, r, d, n, 0, 0);
        sum_add(d + F * n, mean_of(tree.x));
        return;
    }
    uint a = tree.z;
    while (a < tree.w && features[a] != int(i)) a++;
    if (a == tree.w) return;
    const uint on = on_at() + id, off = off_at() + id;
    if (pc.phase == PHASE_INTERACTIONS) {
        alg2_tree(tree.x, r, on, T, 1, int(i));
        return;
    }
    if (pc.phase == PHASE_INTERACTIONS_OFF) {
        alg2_tree(tree.x, r, off, T, -1, int(i));
        return;
    }
    const uint m = ((t % pc.num_outputs) * C + i) * C * n + r;
    for (uint b = tree.z; b < tree.w; b++) {
        const uint j = uint(features[b]);
        if (j != i)
            sum_add(m + j * n, f64_div(f64_sub(f64_from_words(sums[on + j * T]),
                                               f64_from_words(sums[off + j * T])),
                                       F64_TWO));
        sums[on + j * T] = uvec2(0u);
        sums[off + j * T] = uvec2(0u);
    }
}

// Interactions by quadrature (every tree linear), tree pc.tree for row r:
// gpl_shap_pairs_row's diagonal starts and pair sums.
void pairs_tree(uint r)
{
    const uint F = pc.num_features, C = F + 1u, n = pc.num_rows, t = pc.tree;
    const uvec4 tree = trees[t];
    const uint k = t % pc.num_outputs;
    const uint d = diag_at() + k * C * n + r;
    linear_tree(tree.x, r, d, n, true, k * C * C * n + r);
    sum_add(d + F * n, mean_of(tree.x));
}

float base_of(uint r, uint k)
{
    return pc.has_row_base != 0u ? row_base[r * pc.num_outputs + k] : leaf[pc.num_nodes + k];
}

void finish_contributions(uint id)
{
    const uint C = pc.num_features + 1u, width = pc.num_outputs * C, n = pc.num_rows;
    const uint e = id / n, r = id % n;
    f64 v = f64_from_words(sums[id]);
    if (e % C == C - 1u) v = f64_add(v, f64_from_float(base_of(r, e / C)));
    outv[r * width + e] = uintBitsToFloat(f64_to_float_bits(v));
}

void finish_interactions(uint id)
{
    const uint C = pc.num_features + 1u, n = pc.num_rows;
    const uint ki = id / n, r = id % n, k = ki / C, i = ki % C;
    f64 v = f64_from_words(sums[diag_at() + id]);
    if (i == C - 1u) v = f64_add(v, f64_from_float(base_of(r, k)));
    const uint row = ki * C * n + r;
    const uint o = (r * pc.num_outputs * C + ki) * C;
    for (uint j = 0u; j < C; j++) {
        const f64 m = f64_from_words(sums[row + j * n]);
        outv[o + j] = uintBitsToFloat(f64_to_float_bits(m));
        if (j != i) v = f64_sub(v, m);
    }
    outv[o + i] = uintBitsToFloat(f64_to_float_bits(v));
}

// Row i of output k's matrix of row r from the pair sums, the diagonal
// what the pairs leave (gpl_shap_pair_value, gpl_shap_pair_self).
void finish_pairs(uint id)
{
    const uint C = pc.num_features + 1u, n = pc.num_rows;
    const uint ki = id / n, r = id % n, k = ki / C, i = ki % C;
    f64 v = f64_from_words(sums[diag_at() + id]);
    if (i == C - 1u) v = f64_add(v, f64_from_float(base_of(r, k)));
    const uint mat = k * C * C * n + r;
    const uint o = (r * pc.num_outputs * C + ki) * C;
    for (uint j = 0u; j < C; j++) {
        if (j == i) continue;
        const f64 m =
            f64_div(f64_from_words(sums[mat + (min(i, j) * C + max(i, j)) * n]), F64_TWO);
        outv[o + j] = uintBitsToFloat(f64_to_float_bits(m));
        v = f64_sub(v, m);
    }
    outv[o + i] = uintBitsToFloat(f64_to_float_bits(v));
}

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    const uint C = pc.num_features + 1u, n = pc.num_rows;
    uint count = n;
    if (pc.phase == PHASE_INTERACTIONS || pc.phase == PHASE_INTERACTIONS_OFF ||
        pc.phase == PHASE_INTERACTIONS_PAIRS)
        count = n * C;
    else if (pc.phase == PHASE_FINISH_CONTRIBS || pc.phase == PHASE_FINISH_INTERACTIONS ||
             pc.phase == PHASE_FINISH_PAIRS)
        count = n * pc.num_outputs * C;
    for (uint id = gl_GlobalInvocationID.x; id < count; id += stride) {
        walk_id = id;
        if (pc.phase == PHASE_BINS) {
            const uint rb = id * pc.row_words;
            const uint lane = (1u << code_shift()) - 1u;
            uint word = 0u;
            for (uint f = 0u; f < pc.num_features; f++) {
                word |= bin_of(f, data[f * n + id]) << ((f & lane) * pc.code_bits);
                if ((f & lane) == lane || f + 1u == pc.num_features) {
                    bins[rb + (f >> code_shift())] = word;
                    word = 0u;
                }
            }
        } else if (pc.phase == PHASE_CONTRIBS) {
            contributions(id);
        } else if (pc.phase == PHASE_INTERACTIONS || pc.phase == PHASE_INTERACTIONS_OFF ||
                   pc.phase == PHASE_INTERACTIONS_PAIRS) {
            interactions(id);
        } else if (pc.phase == PHASE_PAIRS) {
            pairs_tree(id);
        } else if (pc.phase == PHASE_FINISH_PAIRS) {
            finish_pairs(id);
        } else if (pc.phase == PHASE_FINISH_CONTRIBS) {
            finish_contributions(id);
        } else {
            finish_interactions(id);
        }
    }
}
