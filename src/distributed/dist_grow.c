/*
 * dist_grow.c -- the tree driver's hooks (gpl_grow_reduce) across ranks.
 *
 * After each level's histogram build, the built histograms are summed over
 * ranks and written back, so the siblings that follow by subtraction are
 * global too; child row counts are summed so that every rank picks the
 * same smaller child to build.
 */
#include <stdlib.h>

#include "dist.h"
#include "dist_train.h"
#include "error.h"

static gpulayer_status sum_histograms(void *user, gpl_backend *be,
                                      const int32_t *nodes, int32_t count)
{
    gpl_dist_trainer *dt = user;
    const size_t len = dt->hist_len;
    if (count > dt->hist_nodes) {
        gpl_grad_pair *grown = realloc(dt->hist, sizeof(gpl_grad_pair) * len * (size_t)count);
        if (!grown)
            return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                             "out of memory for %d histograms to sum over ranks", count);
        dt->hist = grown;
        dt->hist_nodes = count;
    }
    for (int32_t i = 0; i < count; i++)
        GPL_CHECK(be->ops->read_histogram(be, nodes[i], dt->hist + (size_t)i * len));
    /* A pair is two int64, so the level's histograms are one int64 array. */
    gpl_dist_allreduce_i64((int64_t *)dt->hist, (int64_t)(2 * len * (size_t)count),
                           GPL_DIST_SUM);
    for (int32_t i = 0; i < count; i++)
        GPL_CHECK(be->ops->write_pairs(be, nodes[i], dt->hist + (size_t)i * len));
    return GPULAYER_OK;
}

static void sum_counts(void *user, int64_t *counts, int32_t n)
{
    (void)user;
    gpl_dist_allreduce_i64(counts, n, GPL_DIST_SUM);
}

void gpl_dist_grow_hooks(gpl_dist_trainer *dt)
{
    dt->hooks.reduce.histograms = sum_histograms;
    dt->hooks.reduce.counts = sum_counts;
    dt->hooks.reduce.user = dt;
}
