#version 450
// rank_order.comp -- a counting rank within each query, one thread a slot
// (grid-stride): the slot's element counts the elements of its query that
// come before it, which is its place in the query's order.
//   mode 0, the model order: element i is row first + i, by margin
//     descending, ties by row (gpl_rank_before); order[first + place] =
//     the row.
//   mode 1, the mean method's grade order: element i is position i, by
//     the grade of the row there descending, ties by position
//     (gpl_rank_grade_before); yorder[first + place] = i, and runs[first +
//     place] = the run [lo, hi) of its grade in the grade order.
// O(n^2) a query: each element reads every key of its query once.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "numeric.glsl"
#include "rank.glsl"

uint key_at(uint first, uint i)
{
    if (pc.mode == 0u) return order_key(margins[(first + i) * pc.num_outputs + pc.output_index]);
    return order_key(label[order[first + i]]);
}

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint x = gl_GlobalInvocationID.x; x < pc.num_rows; x += stride) {
        const uint q = query_of(x);
        const uint first = group_ptr[q], n = group_ptr[q + 1u] - first;
        const uint i = x - first;
        const uint key = key_at(first, i);
        uint before = 0u, greater = 0u, equal = 0u;
        for (uint j = 0u; j < n; j++) {
            const uint kj = key_at(first, j);
            if (key_before(kj, j, key, i)) before++;
            if (kj > key) greater++;
            if (kj == key) equal++;
        }
        if (pc.mode == 0u) {
            order[first + before] = x;
        } else {
            yorder[first + before] = i;
            runs[first + before] = uvec2(greater, greater + equal);
        }
    }
}
