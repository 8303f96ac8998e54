// rank.glsl -- the ranking kernels' shared interface (push constants and
// bindings, gpl_rank_push of gpu_kernel_abi.h) and src/backend/rank_math.h
// in GLSL, operation for operation over numeric.glsl's f64, so that the
// device gets the CPU's bits in both the float64 and the soft variant.
//
// Rows are numbered as uploaded; a query's rows are group_ptr[q] ..
// group_ptr[q + 1] - 1 and its per-position arrays (order, yorder, runs,
// map) use the same slots. Every per-row buffer is bound whole (the host
// refuses ranking where one does not fit a binding).
//
// 64-bit sums are two 32-bit words added with two 32-bit atomics (the
// carry of the low word into the high word): exact modulo 2^64 whatever
// the order, as rank_math.h's fixed-point sums need, and no 64-bit atomics.

layout(push_constant) uniform Push {
    uvec2 seed;          // uint64 as (low, high) words
    uint num_rows;
    uint num_groups;
    uint num_outputs;
    uint output_index;
    int objective;
    int round_index;
    int pair_method;     // 0 topk, 1 mean
    int num_pair;
    int exp_gain;
    int normalization;
    int score_normalization;
    uint mode;           // rank_order: 0 the model order, 1 the grade order
    float subsample;
    int sample_round;  // the round of the row sample (bagging_freq)
} pc;

const int OBJ_RANK_NDCG = 13;
const int OBJ_RANK_PAIRWISE = 14;
const int OBJ_RANK_MAP = 15;
const int RANK_MEAN = 1;

layout(std430, binding = 1) readonly buffer GroupPtr { uint group_ptr[]; };
layout(std430, binding = 2) readonly buffer Margins { float margins[]; };
layout(std430, binding = 3) readonly buffer Labels { float label[]; };
// By position: the row there (model order).
layout(std430, binding = 4) buffer Order { uint order[]; };
// By grade-order index: the position there, and its run of equal grades.
layout(std430, binding = 5) buffer YOrder { uint yorder[]; };
layout(std430, binding = 6) buffer Runs { uvec2 runs[]; };
// MAP by position: the running n_rel and acc, two doubles.
layout(std430, binding = 7) buffer MapSums { uvec4 map_sums[]; };
// The gradient pairs: each row's fixed-point (lambda, hess) sums as four
// words while the pairs add up, then its pair of doubles (rank_finish).
layout(std430, binding = 8) buffer Sums { uint sums[]; };
// By query: the fixed-point lambda sum, two words.
layout(std430, binding = 9) buffer QuerySums { uint qsums[]; };
layout(std430, binding = 10) readonly buffer Discount { uvec2 discount[]; };
layout(std430, binding = 11) readonly buffer InvIdcg { uvec2 inv_idcg[]; };
layout(std430, binding = 12) readonly buffer GroupWeight { uvec2 group_weight[]; };
layout(std430, binding = 13) writeonly buffer GroupMax { uvec4 group_max[]; };

// The query of row r: the last q with group_ptr[q] <= r (empty queries
// before it are skipped that way).
uint query_of(uint r)
{
    uint lo = 0u, hi = pc.num_groups - 1u;
    while (lo < hi) {
        const uint mid = (lo + hi + 1u) >> 1;
        if (group_ptr[mid] <= r) lo = mid;
        else hi = mid - 1u;
    }
    return lo;
}

// A float as an unsigned key in the order of the floats, -0 as +0: for
// finite values key(a) > key(b) exactly when a > b, so gpl_rank_before and
// gpl_rank_grade_before are key_before; NaNs still get a place, so a
// counting rank is always a permutation.
uint order_key(float v)
{
    uint u = floatBitsToUint(v);
    if (u == 0x80000000u) u = 0u;
    return (u & 0x80000000u) != 0u ? ~u : (u | 0x80000000u);
}

bool key_before(uint ka, uint ia, uint kb, uint ib)
{
    return ka > kb || (ka == kb && ia < ib);
}

// gpl_rank_fixed from the float's bits: trunc(v * 2^32), exact in
// integers (v = sig * 2^(e - 150)).
int64_t rank_fixed(uint f)
{
    uint e = (f >> 23) & 0xffu;
    uint64_t sig = uint64_t(f & 0x7fffffu);
    if (e != 0u) sig |= 0x800000UL;
    else e = 1u;
    const int s = int(e) - 118;
    uint64_t mag = 0UL;
    if (s >= 0) mag = sig << uint(min(s, 40));
    else if (s > -64) mag = sig >> uint(-s);
    return (f & 0x80000000u) != 0u ? -int64_t(mag) : int64_t(mag);
}

// (double)x from |x| and its sign (numeric.glsl's det_log says why).
f64 f64_from_i64_signed(int64_t x)
{
    const bool neg = x < 0L && x != int64_t(0x8000000000000000UL);
    const f64 m = f64_from_i64(neg ? -x : x);
    return neg ? f64_neg(m) : m;
}

// sums[word..word + 1] += v, modulo 2^64.
void atomic_add64(uint word, int64_t v)
{
    if (v == 0L) return;
    const uvec2 w = unpackUint2x32(uint64_t(v));
    const uint old = atomicAdd(sums[word], w.x);
    const uint carry = old + w.x < old ? 1u : 0u;
    atomicAdd(sums[word + 1u], w.y + carry);
}

void atomic_add64_query(uint q, int64_t v)
{
    if (v == 0L) return;
    const uvec2 w = unpackUint2x32(uint64_t(v));
    const uint old = atomicAdd(qsums[2u * q], w.x);
    const uint carry = old + w.x < old ? 1u : 0u;
    atomicAdd(qsums[2u * q + 1u], w.y + carry);
}

#define F64_RANK_FIXED_INV F64C(0x3df0000000000000UL, 1.0LF / 4294967296.0LF)
#define F64_LN2 F64C(0x3fe62e42fefa39efUL, 0.69314718055994530942LF)

// gpl_rank_gain
f64 rank_gain(float grade)
{
    return pc.exp_gain != 0 ? f64_from_i64(int64_t((1u << uint(grade)) - 1u))
                            : f64_from_float(grade);
}

// gpl_rank_delta_ndcg
f64 rank_delta_ndcg(float y_high, float y_low, uint p_high, uint p_low, f64 idcg_inv)
{
    const f64 gh = rank_gain(y_high), gl = rank_gain(y_low);
    const f64 dh = f64_from_words(discount[p_high]), dl = f64_from_words(discount[p_low]);
    const f64 original = f64_add(f64_mul(gh, dh), f64_mul(gl, dl));
    const f64 changed = f64_add(f64_mul(gl, dh), f64_mul(gh, dl));
    return f64_abs(f64_mul(f64_sub(original, changed), idcg_inv));
}

// gpl_rank_delta_map; b is the query's first slot, n its size.
f64 rank_delta_map(float y_high, float y_low, uint p_high, uint p_low, uint b, uint n)
{
    if (p_high > p_low) {
        const uint tp = p_high;
        p_high = p_low;
        p_low = tp;
        const float ty = y_high;
        y_high = y_low;
        y_low = ty;
    }
    const f64 r_h = f64_add(f64_from_i64(int64_t(p_high)), F64_ONE);
    const f64 r_l = f64_add(f64_from_i64(int64_t(p_low)), F64_ONE);
    const f64 total = f64_from_words(map_sums[b + n - 1u].xy);
    const f64 m = f64_from_words(map_sums[b + p_low].xy);
    const f64 nh = f64_from_words(map_sums[b + p_high].xy);
    const f64 bb = f64_sub(f64_from_words(map_sums[b + p_low - 1u].zw),
                           f64_from_words(map_sums[b + p_high].zw));
    // The two cases of the C share their quotients (one division each in
    // the soft variant): m / r_l, and nh or nh + 1 over r_h.
    const bool up = y_high < y_low;
    const f64 a = f64_div(m, r_l);
    const f64 x = f64_div(up ? f64_add(nh, F64_ONE) : nh, r_h);
    const f64 d = up ? f64_sub(f64_sub(a, x), bb) : f64_add(f64_sub(x, a), bb);
    return f64_abs(f64_div(d, total));
}

// gpl_rank_pair: (lambda, hess) as the bits of two floats.
uvec2 rank_pair(float s_high, float s_low, f64 delta, bool by_diff)
{
    const f64 diff = f64_sub(f64_from_float(s_high), f64_from_float(s_low));
    const f64 sig = det_sigmoid(diff);
    if (by_diff)
        delta = f64_div(delta, f64_add(f64_abs(diff), F64C(0x3f847ae147ae147bUL, 0.01LF)));
    f64 h = f64_mul(sig, f64_sub(F64_ONE, sig));
    if (f64_lt(h, F64_MIN_HESS)) h = F64_MIN_HESS;
    return uvec2(f64_to_float_bits(f64_mul(f64_sub(sig, F64_ONE), delta)),
                 f64_to_float_bits(f64_mul(f64_mul(h, delta), F64_TWO)));
}

// gpl_rank_partner
uint rank_partner(uint q, uint t, uint s, uint lo, uint hi, uint n)
{
    uint64_t z = packUint2x32(pc.seed) ^ (uint64_t(uint(pc.round_index)) << 40) ^ uint64_t(q);
    [[dont_unroll]] for (int k = 0; k < 2; k++) {
        z += 0x9e3779b97f4a7c15UL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
        z ^= z >> 31;
        if (k == 0) z ^= (uint64_t(t) << 20) ^ uint64_t(s);
    }
    const uint r = uint(z % uint64_t(n - (hi - lo)));
    return r < lo ? r : r + (hi - lo);
}

// gpl_rank_norm of a query's fixed-point lambda sum.
f64 rank_norm(int64_t lambda_sum)
{
    if (pc.normalization == 0) return F64_ONE;
    if (pc.pair_method == RANK_MEAN) return f64_div(F64_ONE, f64_from_i64(int64_t(pc.num_pair)));
    const f64 sum = f64_mul(F64C(0xc000000000000000UL, -2.0LF),
                            f64_mul(f64_from_i64_signed(lambda_sum), F64_RANK_FIXED_INV));
    if (!f64_gt(sum, F64_ZERO)) return F64_ONE;
    return f64_div(f64_div(det_log(f64_add(F64_ONE, sum)), F64_LN2), sum);
}
