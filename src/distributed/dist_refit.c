/* dist_refit.c -- the rows of every rank for the leaf refit of absolute
 * and quantile error: each rank's residuals (and weights) per leaf are
 * gathered, so that every rank takes the quantile of all the rows, the
 * same value one process would find (a quantile depends on the values,
 * not on their order). */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dist.h"
#include "dist_train.h"
#include "error.h"

/* Every rank's values, regrouped leaf by leaf: leaf i holds rank 0's
 * values of leaf i, then rank 1's, ... counts is ranks x num_nodes. */
static float *regroup(const float *all, const int64_t *counts, int ranks, int32_t num_nodes,
                      int64_t total)
{
    float *out = gpl_malloc(sizeof(float) * (size_t)(total ? total : 1), "leaf refit rows");
    int64_t *rank_at = gpl_calloc((size_t)ranks, sizeof(int64_t), "leaf refit rows");
    if (!out || !rank_at) {
        free(out);
        free(rank_at);
        return NULL;
    }
    /* rank_at[r]: where rank r's next leaf begins in all (rank order). */
    for (int r = 1; r < ranks; r++) {
        rank_at[r] = rank_at[r - 1];
        for (int32_t i = 0; i < num_nodes; i++) rank_at[r] += counts[(size_t)(r - 1) * num_nodes + i];
    }
    int64_t at = 0;
    for (int32_t i = 0; i < num_nodes; i++)
        for (int r = 0; r < ranks; r++) {
            const int64_t n = counts[(size_t)r * num_nodes + i];
            memcpy(out + at, all + rank_at[r], sizeof(float) * (size_t)n);
            rank_at[r] += n;
            at += n;
        }
    free(rank_at);
    return out;
}

gpulayer_status gpl_dist_gather_leaf_rows(void *user, int32_t num_nodes, int64_t *start,
                                          float **residual, float **weight)
{
    (void)user;
    const int ranks = gpl_dist_size(), me = gpl_dist_rank();
    int64_t *counts = gpl_calloc((size_t)ranks * (size_t)num_nodes, sizeof(int64_t),
                                 "leaf refit counts");
    gpulayer_status st = counts ? GPULAYER_OK : GPULAYER_ERR_OUT_OF_MEMORY;
    st = gpl_dist_agree(st);
    if (st != GPULAYER_OK) {
        free(counts);
        return st;
    }
    for (int32_t i = 0; i < num_nodes; i++)
        counts[(size_t)me * num_nodes + i] = start[i + 1] - start[i];
    gpl_dist_allreduce_i64(counts, (int64_t)ranks * num_nodes, GPL_DIST_SUM);
    int64_t total = 0, total_w = 0;
    float *all = gpl_dist_allgather_f32(*residual, start[num_nodes], &total);
    /* Every rank has weights or none has (the layout check). */
    float *all_w = *weight ? gpl_dist_allgather_f32(*weight, start[num_nodes], &total_w) : NULL;
    float *grouped = all ? regroup(all, counts, ranks, num_nodes, total) : NULL;
    float *grouped_w = all_w ? regroup(all_w, counts, ranks, num_nodes, total) : NULL;
    st = grouped && (!*weight || grouped_w) ? GPULAYER_OK
                                            : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                                                        "out of host memory gathering the "
                                                        "rows of the leaf refit");
    st = gpl_dist_agree(st);
    free(all);
    free(all_w);
    if (st == GPULAYER_OK) {
        start[0] = 0;
        for (int32_t i = 0; i < num_nodes; i++) {
            int64_t n = 0;
            for (int r = 0; r < ranks; r++) n += counts[(size_t)r * num_nodes + i];
            start[i + 1] = start[i] + n;
        }
        free(*residual);
        free(*weight);
        *residual = grouped;
        *weight = grouped_w;
    } else {
        free(grouped);
        free(grouped_w);
    }
    free(counts);
    return st;
}
