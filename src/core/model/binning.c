/* binning.c -- weighted quantile cut points and binning of raw data. */
#include "binning.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "alloc.h"
#include "error.h"
#include "memory_limit.h"
#include "threads.h"

typedef struct weighted_value {
    float value;
    float weight;
} weighted_value;

/* The bits of a (non-NaN) float as an unsigned key with the same order. */
static inline uint32_t sortable_key(float v)
{
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

/* LSD radix sort by value, 8 bits a pass: stable, O(n), and much faster
 * than qsort's comparator calls on the binning sample. tmp has n slots. */
static void sort_by_value(weighted_value *v, weighted_value *tmp, int64_t n)
{
    weighted_value *src = v, *dst = tmp;
    for (int shift = 0; shift < 32; shift += 8) {
        int64_t count[257] = {0};
        for (int64_t i = 0; i < n; i++) count[((sortable_key(src[i].value) >> shift) & 0xff) + 1]++;
        for (int k = 0; k < 256; k++) count[k + 1] += count[k];
        for (int64_t i = 0; i < n; i++)
            dst[count[(sortable_key(src[i].value) >> shift) & 0xff]++] = src[i];
        weighted_value *t = src;
        src = dst;
        dst = t;
    }
    /* Four passes: the sorted data are back in v. */
}

/* A threshold between two neighbouring distinct values lo < hi such that lo
 * falls below it and hi on or above it. */
static float threshold_between(float lo, float hi)
{
    float mid = (float)(((double)lo + (double)hi) * 0.5);
    return (mid > lo && mid <= hi) ? mid : hi;
}

/* Cuts of one feature from its sorted non-missing sample (overwritten:
 * tied values are merged into its first entries, their total weights into
 * weight). Writes at most max_value_bins - 1 ascending thresholds into
 * cuts; returns the count.
 *
 * With no more distinct values than value bins, each value has a bin of
 * its own. Otherwise the values that start a bin are chosen as XGBoost's
 * sketch chooses them (WQSummary's prune, here on exact ranks): for each
 * of max_value_bins - 1 targets evenly spaced in weight between the first
 * and the last value, the value whose middle rank is nearest. A value
 * carrying at least a bin's share of the weight (a "heavy" value, such as
 * a round number many rows hold) is nearest to a target, so it starts a
 * bin; unlike in XGBoost it ends it too, as in LightGBM's GreedyFindBin,
 * so no larger value shares it. A cut lies halfway between a value that
 * starts a bin and the distinct value below it. (docs/binning.md compares
 * this rule with others on the accuracy suite.) */
static uint32_t feature_cuts(weighted_value *v, double *weight, int64_t n,
                             int max_value_bins, float *cuts)
{
    if (n == 0) return 0;
    int64_t distinct = 0;
    double total = 0.0;
    for (int64_t i = 0; i < n; i++) {
        if (distinct == 0 || v[i].value != v[distinct - 1].value) {
            v[distinct].value = v[i].value;
            weight[distinct++] = 0.0;
        }
        weight[distinct - 1] += v[i].weight;
        total += v[i].weight;
    }
    uint32_t count = 0;
    if (distinct <= max_value_bins) {
        for (int64_t j = 1; j < distinct; j++)
            cuts[count++] = threshold_between(v[j - 1].value, v[j].value);
        return count;
    }
    const uint32_t max_cuts = (uint32_t)max_value_bins - 1;
    const double share = total / max_value_bins;
    const double begin = weight[0];
    const double range = total - weight[distinct - 1] - begin;
    const int64_t steps = max_value_bins;
    int64_t i = 1, last = 0;
    double below = weight[0]; /* the weight of the values below value i */
    for (int64_t k = 1; k < steps && count < max_cuts; k++) {
        /* Twice the target rank, compared with twice the middle ranks. */
        const double target2 = 2.0 * ((double)k * range / (double)steps + begin);
        while (i < distinct - 1 && target2 >= 2.0 * (below + weight[i]) + weight[i + 1]) {
            below += weight[i];
            i++;
        }
        if (i == distinct - 1) break;
        const int64_t pick = target2 < 2.0 * (below + weight[i]) ? i : i + 1;
        if (pick == last) continue;
        cuts[count++] = threshold_between(v[pick - 1].value, v[pick].value);
        last = pick;
        if (weight[pick] >= share && pick + 1 < distinct && count < max_cuts) {
            /* The next value starts a bin; the targets that fall within
             * the heavy value's weight pick nothing more. */
            cuts[count++] = threshold_between(v[pick].value, v[pick + 1].value);
            last = pick + 1;
            while (i <= pick) {
                below += weight[i];
                i++;
            }
        }
    }
    if (last != distinct - 1 && count < max_cuts)
        cuts[count++] = threshold_between(v[distinct - 2].value, v[distinct - 1].value);
    return count;
}

/* The hash that decides whether a row is in the binning sample. */
static inline uint64_t row_hash(int64_t row)
{
    uint64_t z = (uint64_t)row + 0x9e3779b97f4a7c15ULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int64_t gpl_bin_sample_rows(int64_t first_row, int64_t num_rows,
                            int64_t global_rows, int64_t **out)
{
    *out = NULL;
    if (global_rows <= GPL_BIN_SAMPLE_ROWS) return num_rows;
    int64_t cap = num_rows < GPL_BIN_SAMPLE_CAP ? num_rows : GPL_BIN_SAMPLE_CAP;
    int64_t *rows = gpl_malloc(sizeof(int64_t) * (size_t)(cap ? cap : 1), "binning sample");
    if (!rows) return -1;
    uint64_t limit = (uint64_t)((double)GPL_BIN_SAMPLE_ROWS / (double)global_rows *
                                18446744073709551615.0);
    int64_t count = 0;
    for (int64_t r = 0; r < num_rows && count < cap; r++)
        if (row_hash(first_row + r) < limit) rows[count++] = r;
    *out = rows;
    return count;
}

gpulayer_status gpl_bin_cuts_build(const gpulayer_dataset *ds, int max_bin,
                                   int nthread, gpl_bin_cuts *out)
{
    memset(out, 0, sizeof *out);
    int64_t *rows;
    int64_t n = gpl_bin_sample_rows(0, ds->num_rows, ds->num_rows, &rows);
    if (n < 0) return GPULAYER_ERR_OUT_OF_MEMORY;
    gpl_bin_sample sample = {ds->num_cols, n, ds->values, ds->num_rows, rows, ds->weight,
                             NULL, NULL};
    uint8_t *marks = NULL;
    if (ds->sparse) {
        /* The same rows, as a bit a row: a sparse column is walked by its
         * entries, not by the sample. */
        sample.sparse = ds->sparse;
        sample.rows = NULL;
        if (rows) {
            marks = gpl_calloc((size_t)(ds->num_rows / 8 + 1), 1, "binning sample");
            if (!marks) {
                free(rows);
                return GPULAYER_ERR_OUT_OF_MEMORY;
            }
            for (int64_t i = 0; i < n; i++) marks[rows[i] >> 3] |= (uint8_t)(1u << (rows[i] & 7));
            sample.in_sample = marks;
        }
    }
    gpulayer_status st = gpl_bin_cuts_from_sample(&sample, max_bin, nthread, out);
    free(marks);
    free(rows);
    return st;
}

gpulayer_status gpl_bin_cuts_from_sample(const gpl_bin_sample *sample, int max_bin,
                                         int nthread, gpl_bin_cuts *out)
{
    memset(out, 0, sizeof *out);
    if (max_bin < 2 || max_bin > GPL_MAX_CUTS + 2)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "max_bin must be in 2..%d, got %d", GPL_MAX_CUTS + 2, max_bin);
    const int32_t F = sample->num_features;
    const int64_t *rows = sample->rows;
    const float *weight = sample->weight;
    const int64_t n = sample->num_rows;
    /* A feature has fewer cuts than sample values, whatever max_bin. */
    const int max_value_bins = max_bin - 1 <= n ? max_bin - 1 : (int)n + 1;

    const uint64_t cut_bytes = sizeof(float) * (uint64_t)F * (uint64_t)max_value_bins;
    char what[96];
    snprintf(what, sizeof what, "finding the bin cuts of %d features", (int)F);
    GPL_CHECK(gpl_check_host_memory(cut_bytes, what));
    float *all_cuts = gpl_malloc((size_t)cut_bytes, "bin cuts");
    uint32_t *counts = gpl_calloc((size_t)F, sizeof(uint32_t), "bin cuts");
    /* Not an OpenMP if-clause: with it false the region still runs, on one
     * thread, and would write through the NULL cuts. */
    int failed = !all_cuts || !counts;
    int nt = gpl_threads(nthread);
    if (!failed)
#pragma omp parallel num_threads(nt)
    {
        weighted_value *scratch = malloc(sizeof(weighted_value) * 2 * (size_t)(n ? n : 1));
        double *merged = malloc(sizeof(double) * (size_t)(n ? n : 1));
        if (!scratch || !merged) {
            free(scratch);
            free(merged);
            scratch = NULL;
            merged = NULL;
#pragma omp atomic write
            failed = 1;
        }
#pragma omp for schedule(dynamic)
        for (int32_t f = 0; f < F; f++) {
            if (!scratch) continue;
            int64_t m = 0;
            if (sample->sparse) {
                const gpl_sparse_columns *s = sample->sparse;
                const uint8_t *mark = sample->in_sample;
                for (int64_t k = s->col_start[f]; k < s->col_start[f + 1]; k++) {
                    const int64_t r = s->rows[k];
                    const float v = s->values[k];
                    if (mark && !(mark[r >> 3] >> (r & 7) & 1)) continue;
                    if (isnan(v) || (weight && weight[r] == 0.0f)) continue;
                    scratch[m].value = v;
                    scratch[m].weight = weight ? weight[r] : 1.0f;
                    m++;
                }
            } else {
                const float *col = sample->values + (int64_t)f * sample->stride;
                for (int64_t i = 0; i < n; i++) {
                    int64_t r = rows ? rows[i] : i;
                    float v = col[r];
                    /* A row of weight 0 must not move the cuts: weighting
                     * a row by k is then the same as repeating it k
                     * times. */
                    if (isnan(v) || (weight && weight[r] == 0.0f)) continue;
                    scratch[m].value = v;
                    scratch[m].weight = weight ? weight[r] : 1.0f;
                    m++;
                }
            }
            sort_by_value(scratch, scratch + n, m);
            counts[f] = feature_cuts(scratch, merged, m, max_value_bins,
                                     all_cuts + (size_t)f * (size_t)max_value_bins);
        }
        free(scratch);
        free(merged);
    }
    if (failed) {
        free(all_cuts);
        free(counts);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "out of host memory while finding bin cuts");
    }
    out->num_features = F;
    out->cut_ptr = gpl_malloc(sizeof(uint32_t) * ((size_t)F + 1), "bin cuts");
    size_t total = 0;
    for (int32_t f = 0; f < F; f++) total += counts[f];
    out->values = gpl_malloc(sizeof(float) * (total ? total : 1), "bin cuts");
    if (!out->cut_ptr || !out->values) {
        free(all_cuts);
        free(counts);
        gpl_bin_cuts_free(out);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    uint32_t at = 0;
    for (int32_t f = 0; f < F; f++) {
        out->cut_ptr[f] = at;
        memcpy(out->values + at, all_cuts + (size_t)f * (size_t)max_value_bins,
               sizeof(float) * counts[f]);
        at += counts[f];
    }
    out->cut_ptr[F] = at;
    free(all_cuts);
    free(counts);
    return GPULAYER_OK;
}

gpulayer_status gpl_feature_offsets(const gpl_bin_cuts *cuts, uint32_t **out)
{
    const int32_t F = cuts->num_features;
    uint32_t *off = gpl_malloc(sizeof(uint32_t) * ((size_t)F + 1), "histogram offsets");
    if (!off) return GPULAYER_ERR_OUT_OF_MEMORY;
    off[0] = 0;
    for (int32_t f = 0; f < F; f++)
        off[f + 1] = off[f] + (cuts->cut_ptr[f + 1] - cuts->cut_ptr[f]) + 2;
    *out = off;
    return GPULAYER_OK;
}

int gpl_bin_code_bytes(const gpl_bin_cuts *cuts)
{
    for (int32_t f = 0; f < cuts->num_features; f++)
        if (cuts->cut_ptr[f + 1] - cuts->cut_ptr[f] > GPL_BYTE_CUTS) return 2;
    return 1;
}

gpulayer_status gpl_bin_codes_supported(const gpl_bin_cuts *cuts, const gpl_backend *be,
                                        unsigned cap, const char *job)
{
    if (gpl_bin_code_bytes(cuts) == 1 || gpl_backend_has(be, cap))
        return GPULAYER_OK;
    int32_t widest = 0;
    for (int32_t f = 1; f < cuts->num_features; f++)
        if (cuts->cut_ptr[f + 1] - cuts->cut_ptr[f] >
            cuts->cut_ptr[widest + 1] - cuts->cut_ptr[widest])
            widest = f;
    return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                     "%s on the %s backend: feature %d has %u bins, but this backend takes at "
                     "most 256 bins a feature; train with max_bin 256 or less (max_categories "
                     "255 or less for a categorical feature), or use device cpu", job,
                     be->ops->name, (int)widest,
                     cuts->cut_ptr[widest + 1] - cuts->cut_ptr[widest] + 2);
}

static uint32_t padded_size(uint32_t count)
{
    uint32_t size = 1;
    while (size <= count) size <<= 1;
    return size;
}

gpl_padded_cuts *gpl_padded_cuts_all(const gpl_bin_cuts *cuts)
{
    const int32_t F = cuts->num_features;
    size_t values = 0;
    for (int32_t f = 0; f < F; f++) values += padded_size(cuts->cut_ptr[f + 1] - cuts->cut_ptr[f]);
    gpl_padded_cuts *all = gpl_malloc(sizeof(gpl_padded_cuts) * (size_t)(F ? F : 1) +
                                      sizeof(float) * values, "padded bin cuts");
    if (!all) return NULL;
    float *at = (float *)(all + (F ? F : 1));
    for (int32_t f = 0; f < F; f++) {
        gpl_padded_cuts *p = &all[f];
        uint32_t n = cuts->cut_ptr[f + 1] - cuts->cut_ptr[f];
        uint32_t size = padded_size(n);
        memcpy(at, cuts->values + cuts->cut_ptr[f], sizeof(float) * n);
        for (uint32_t i = n; i < size; i++) at[i] = NAN;
        p->values = at;
        p->count = n;
        p->size = size;
        at += size;
    }
    return all;
}

/* gpl_bin_values for a code width known at compile time. */
static inline __attribute__((always_inline)) void
bin_values(const gpl_padded_cuts *p, const float *values, int64_t count, uint8_t *out,
           int64_t out_stride, const int code_bytes)
{
    enum { LANES = 8 };
    const float *c = p->values;
    int64_t i = 0;
    for (; i + LANES <= count; i += LANES) {
        /* pos counts the thresholds <= v: every step halves the interval,
         * and the NaN padding keeps the predicate true-then-false. */
        uint32_t pos[LANES] = {0};
        for (uint32_t step = p->size >> 1; step; step >>= 1)
            for (int k = 0; k < LANES; k++)
                pos[k] += c[pos[k] + step - 1] <= values[i + k] ? step : 0;
        for (int k = 0; k < LANES; k++)
            gpl_bin_code_set(out, code_bytes, (i + k) * out_stride,
                             isnan(values[i + k]) ? 0 : pos[k] + 1);
    }
    for (; i < count; i++)
        gpl_bin_code_set(out, code_bytes, i * out_stride, gpl_bin_of(c, p->count, values[i]));
}

void gpl_bin_values(const gpl_padded_cuts *p, const float *values, int64_t count,
                    uint8_t *out, int64_t out_stride, int code_bytes)
{
    if (code_bytes == 1) bin_values(p, values, count, out, out_stride, 1);
    else bin_values(p, values, count, out, out_stride, 2);
}

gpulayer_status gpl_bin_matrix(const gpl_bin_cuts *cuts,
                               const gpulayer_dataset *ds, int nthread,
                               uint8_t **out)
{
    const int32_t F = cuts->num_features;
    const int64_t N = ds->num_rows;
    if (ds->num_cols != F)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "data have %d columns but the model expects %d",
                         ds->num_cols, F);
    const int w = gpl_bin_code_bytes(cuts);
    char what[96];
    snprintf(what, sizeof what, "the binned matrix of %lld rows x %d features", (long long)N, F);
    GPL_CHECK(gpl_check_host_memory((uint64_t)N * (uint64_t)F * (uint64_t)w, what));
    uint8_t *bins = gpl_malloc_large((size_t)N * (size_t)F * (size_t)w, "binned matrix");
    gpl_padded_cuts *padded = gpl_padded_cuts_all(cuts);
    if (!bins || !padded) {
        free(bins);
        free(padded);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    int nt = gpl_threads(nthread);
    if (ds->sparse) {
        /* Bin 0 (missing) everywhere but at the present entries. */
        const gpl_sparse_columns *s = ds->sparse;
        memset(bins, 0, (size_t)N * (size_t)F * (size_t)w);
#pragma omp parallel for num_threads(nt) schedule(dynamic, 64)
        for (int32_t f = 0; f < F; f++)
            for (int64_t k = s->col_start[f]; k < s->col_start[f + 1]; k++)
                gpl_bin_values(&padded[f], &s->values[k], 1,
                               bins + (s->rows[k] * F + f) * w, 1, w);
        free(padded);
        *out = bins;
        return GPULAYER_OK;
    }
    /* Blocks of rows keep the strided row-major writes inside the cache. */
    const int64_t block = 4096;
#pragma omp parallel for num_threads(nt) schedule(static)
    for (int64_t start = 0; start < N; start += block) {
        int64_t end = start + block < N ? start + block : N;
        for (int32_t f = 0; f < F; f++)
            gpl_bin_values(&padded[f], ds->values + (int64_t)f * N + start, end - start,
                           bins + (start * F + f) * w, F, w);
    }
    free(padded);
    *out = bins;
    return GPULAYER_OK;
}
