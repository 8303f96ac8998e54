/*
 * dist_sketch.c -- bin cuts from the binning sample merged over ranks.
 *
 * One process samples rows by a hash of the row index and cuts each
 * feature from the sampled values in row order. Here each rank samples its
 * own rows by the hash of their global index, and an all-gather in rank
 * order puts the sampled rows in global order: every rank then cuts the
 * very sample one process would have, so the cuts -- and the model -- are
 * the same bits whatever the number of ranks.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dist.h"
#include "dist_train.h"
#include "error.h"

/* This rank's sampled rows, row-major: the F values, then the weight when
 * the data have weights. */
static float *pack_sample(const gpl_dist_trainer *dt, int width, int64_t *count)
{
    const gpulayer_dataset *ds = dt->train;
    int64_t *rows = NULL;
    int64_t n = gpl_bin_sample_rows(dt->first_row, ds->num_rows, dt->global_rows, &rows);
    *count = 0;
    if (n < 0) return NULL;
    float *packed = gpl_malloc(sizeof(float) * (size_t)(n ? n : 1) * (size_t)width,
                               "binning sample");
    if (packed) {
        for (int64_t i = 0; i < n; i++) {
            int64_t r = rows ? rows[i] : i;
            float *out = packed + i * width;
            for (int32_t f = 0; f < ds->num_cols; f++)
                out[f] = gpl_dataset_value(ds, r, f);
            if (ds->weight) out[ds->num_cols] = ds->weight[r];
        }
        *count = n;
    }
    free(rows);
    return packed;
}

gpulayer_status gpl_dist_bin_cuts(const gpl_dist_trainer *dt, int max_bin,
                                  gpl_bin_cuts *out)
{
    const int32_t F = dt->train->num_cols;
    const int width = F + (dt->train->weight ? 1 : 0);
    int64_t local = 0, total = 0;
    float *packed = pack_sample(dt, width, &local);
    gpulayer_status st = packed ? GPULAYER_OK : GPULAYER_ERR_OUT_OF_MEMORY;
    /* A rank that failed still takes part, with nothing to give. */
    float *all = gpl_dist_allgather_f32(packed, local * width, &total);
    free(packed);
    if (!all && st == GPULAYER_OK) st = GPULAYER_ERR_OUT_OF_MEMORY;
    st = gpl_dist_agree(st);
    if (st != GPULAYER_OK) {
        free(all);
        return st;
    }
    int64_t n = total / width;
    /* One process keeps at most the first GPL_BIN_SAMPLE_CAP sampled rows. */
    if (dt->global_rows > GPL_BIN_SAMPLE_ROWS && n > GPL_BIN_SAMPLE_CAP)
        n = GPL_BIN_SAMPLE_CAP;
    float *values = gpl_malloc(sizeof(float) * (size_t)(n ? n : 1) * (size_t)F, "binning sample");
    float *weight = dt->train->weight
                        ? gpl_malloc(sizeof(float) * (size_t)(n ? n : 1), "binning sample")
                        : NULL;
    if (values && (weight || !dt->train->weight)) {
        for (int64_t i = 0; i < n; i++) {
            const float *row = all + i * width;
            for (int32_t f = 0; f < F; f++) values[(int64_t)f * n + i] = row[f];
            if (weight) weight[i] = row[F];
        }
        gpl_bin_sample sample = {F, n, values, n, NULL, weight, NULL, NULL};
        st = gpl_bin_cuts_from_sample(&sample, max_bin, dt->nthread, out);
    } else {
        st = GPULAYER_ERR_OUT_OF_MEMORY;
    }
    free(all);
    free(values);
    free(weight);
    return gpl_dist_agree(st);
}
