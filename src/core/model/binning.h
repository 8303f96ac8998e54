/* binning.h -- quantile cut points and the binned matrix. */
#ifndef GPL_BINNING_H
#define GPL_BINNING_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "dataset.h"
#include "model.h"

/* Rows used to find cut points: larger data are sampled deterministically
 * (by row index), as LightGBM's bin_construct_sample_cnt does. */
#define GPL_BIN_SAMPLE_ROWS 200000
/* The most rows the sample may hold (in global row order). */
#define GPL_BIN_SAMPLE_CAP (GPL_BIN_SAMPLE_ROWS * 2 + 16)

/* The rows cuts are computed from, by column: feature f of sample row i is
 * values[f * stride + (rows ? rows[i] : i)], its weight weight[the same
 * index] (weight NULL = all ones). */
typedef struct gpl_bin_sample {
    int32_t num_features;
    int64_t num_rows;
    const float *values;
    int64_t stride;
    const int64_t *rows;
    const float *weight;
    /* Sparse data instead of values (then rows is NULL): feature f's
     * present values are those of sparse (dataset.h) at rows in_sample
     * marks (a bit a row; NULL = every row). */
    const gpl_sparse_columns *sparse;
    const uint8_t *in_sample;
} gpl_bin_sample;

/* Which of the rows [first_row, first_row + num_rows) of a data set of
 * global_rows rows are in the binning sample, as indices relative to
 * first_row (at most GPL_BIN_SAMPLE_CAP). The choice hashes the global row
 * index, so data-parallel ranks that each sample their own rows pick
 * together the rows one process would. Returns the count and sets *out, or
 * leaves *out NULL when every row is in the sample; -1 when out of memory. */
int64_t gpl_bin_sample_rows(int64_t first_row, int64_t num_rows,
                            int64_t global_rows, int64_t **out);

/* Cuts from a sample: what gpl_bin_cuts_build does once it has sampled. */
gpulayer_status gpl_bin_cuts_from_sample(const gpl_bin_sample *sample, int max_bin,
                                         int nthread, gpl_bin_cuts *out);

/* Weighted quantile cuts of every column, at most max_bin - 1 value bins a
 * feature (bin 0 is kept for missing values). */
gpulayer_status gpl_bin_cuts_build(const gpulayer_dataset *ds, int max_bin,
                                   int nthread, gpl_bin_cuts *out);

/* The bin of v among the ascending thresholds cuts[0..n): one plus the
 * number of thresholds <= v. A branch-free binary search: the comparisons
 * are data-dependent, so branches would mispredict half the time. */
static inline uint32_t gpl_bin_of(const float *cuts, uint32_t n, float v)
{
    if (isnan(v)) return 0;
    if (n == 0) return 1;
    /* Invariant: every threshold before base is <= v, and the count lies
     * in base - cuts .. base - cuts + len. The select compiles to cmov. */
    const float *base = cuts;
    uint32_t len = n;
    while (len > 1) {
        uint32_t half = len >> 1;
        base = base[half] <= v ? base + half : base;
        len -= half;
    }
    return (uint32_t)((base - cuts) + (*base <= v) + 1);
}

/* Bytes a bin code takes in the binned matrix of these cuts: 1 while every
 * feature's bins fit a byte (at most GPL_BYTE_CUTS thresholds), else 2. */
int gpl_bin_code_bytes(const gpl_bin_cuts *cuts);

/* OK when backend be takes the bin codes of these cuts for a job that
 * needs capability cap for 16-bit codes (GPL_BACKEND_CAP_WIDE_BINS to
 * train, GPL_BACKEND_CAP_WIDE_PREDICT to predict); otherwise UNSUPPORTED,
 * naming the job ("training", "prediction", ...), the backend and the
 * feature with the most bins. */
gpulayer_status gpl_bin_codes_supported(const gpl_bin_cuts *cuts, const gpl_backend *be,
                                        unsigned cap, const char *job);

/* Bin code i of a binned matrix of codes of code_bytes bytes. */
static inline uint32_t gpl_bin_code(const uint8_t *codes, int code_bytes, int64_t i)
{
    if (code_bytes == 1) return codes[i];
    uint16_t v;
    memcpy(&v, codes + 2 * i, sizeof v);
    return v;
}

static inline void gpl_bin_code_set(uint8_t *codes, int code_bytes, int64_t i, uint32_t bin)
{
    if (code_bytes == 1) {
        codes[i] = (uint8_t)bin;
    } else {
        const uint16_t v = (uint16_t)bin;
        memcpy(codes + 2 * i, &v, sizeof v);
    }
}

/* One feature's thresholds padded with NaN to a power-of-two length, for
 * gpl_bin_values. NaN compares false, so the padding never counts. */
typedef struct gpl_padded_cuts {
    const float *values;
    uint32_t count; /* thresholds */
    uint32_t size;  /* a power of two > count */
} gpl_padded_cuts;

/* Every feature's padded thresholds (cuts->num_features entries, at least
 * one) in one allocation with their values, or NULL when out of memory.
 * Free with free(). */
gpl_padded_cuts *gpl_padded_cuts_all(const gpl_bin_cuts *cuts);

/* Code i * out_stride of out (codes of code_bytes bytes) = gpl_bin_of(the
 * feature's cuts, values[i]) for i in [0, count). Eight values are
 * searched side by side in fixed steps, so their loads overlap instead of
 * waiting on each other. */
void gpl_bin_values(const gpl_padded_cuts *p, const float *values, int64_t count,
                    uint8_t *out, int64_t out_stride, int code_bytes);

/* Histogram offsets: feature f's bins are [offset[f], offset[f+1]), each
 * feature having one missing bin plus its value bins. */
gpulayer_status gpl_feature_offsets(const gpl_bin_cuts *cuts, uint32_t **out);

/* Bins every row of ds into a row-major num_rows x num_features matrix of
 * codes of gpl_bin_code_bytes(cuts) bytes. ds must have
 * cuts->num_features columns. */
gpulayer_status gpl_bin_matrix(const gpl_bin_cuts *cuts,
                               const gpulayer_dataset *ds, int nthread,
                               uint8_t **out);

#endif
