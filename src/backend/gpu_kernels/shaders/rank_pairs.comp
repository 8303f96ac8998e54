#version 450
// rank_pairs.comp -- the pairs of rank_math.h, one thread a slot
// (grid-stride) of a query (first, n rows):
//   topk: the thread of position j takes the pairs (i, j), i < min(j, k):
//     together every i < min(n, k) with every j in (i, n), at most k pairs
//     a thread;
//   mean: the thread of grade-order index t takes its num_pair pairs with
//     the partners gpl_rank_partner draws outside its run of equal grades.
// A pair of different grades adds its fixed-point lambda and hessian to
// both rows and the lambda to the query's sum: the thread's own row in
// registers (one atomic add at the end), the other row and the query by
// 64-bit atomic adds (rank.glsl). Integer sums: any order gives the bits.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "numeric.glsl"
#include "rank.glsl"

float margin_of(uint row) { return margins[row * pc.num_outputs + pc.output_index]; }

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint x = gl_GlobalInvocationID.x; x < pc.num_rows; x += stride) {
        const uint q = query_of(x);
        const uint first = group_ptr[q], n = group_ptr[q + 1u] - first;
        const uint idx = x - first;
        const bool mean = pc.pair_method == RANK_MEAN;
        // The thread's own position, its pairs, and (mean) its run.
        uint p_own = idx, count = min(idx, uint(pc.num_pair)), lo = 0u, hi = 0u;
        if (mean) {
            p_own = yorder[x];
            lo = runs[x].x;
            hi = runs[x].y;
            count = hi - lo == n ? 0u : uint(pc.num_pair);
        }
        if (count == 0u) continue;
        // lambdarank_score_normalization, unless the query's margins are
        // all equal (its first and last in the model order are).
        const bool by_diff = pc.score_normalization != 0 &&
                             !(margin_of(order[first]) == margin_of(order[first + n - 1u]));
        const f64 idcg_inv = f64_from_words(inv_idcg[q]);
        const uint r_own = order[first + p_own];
        const float y_own = label[r_own], s_own = margin_of(r_own);
        int64_t own_g = 0L, own_h = 0L, lambda_sum = 0L;
        [[dont_unroll]] for (uint c = 0u; c < count; c++) {
            const uint p_other = mean ? yorder[first + rank_partner(q, idx, c, lo, hi, n)] : c;
            const uint r_other = order[first + p_other];
            const float y_other = label[r_other];
            if (y_own == y_other) continue;
            const bool own_high = y_own > y_other;
            const uint p_high = own_high ? p_own : p_other, p_low = own_high ? p_other : p_own;
            const float y_high = own_high ? y_own : y_other, y_low = own_high ? y_other : y_own;
            const float s_other = margin_of(r_other);
            f64 delta = F64_ONE;
            if (pc.objective == OBJ_RANK_NDCG)
                delta = rank_delta_ndcg(y_high, y_low, p_high, p_low, idcg_inv);
            else if (pc.objective == OBJ_RANK_MAP)
                delta = rank_delta_map(y_high, y_low, p_high, p_low, first, n);
            const uvec2 lh = rank_pair(own_high ? s_own : s_other, own_high ? s_other : s_own,
                                       delta, by_diff);
            const int64_t l = rank_fixed(lh.x), h = rank_fixed(lh.y);
            own_g += own_high ? l : -l;
            own_h += h;
            lambda_sum += l;
            atomic_add64(4u * r_other, own_high ? -l : l);
            atomic_add64(4u * r_other + 2u, h);
        }
        atomic_add64(4u * r_own, own_g);
        atomic_add64(4u * r_own + 2u, own_h);
        atomic_add64_query(q, lambda_sum);
    }
}
