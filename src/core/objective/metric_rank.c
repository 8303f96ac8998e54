/*
 * metric_rank.c -- XGBoost's ranking metrics (its rank_metric.cc): ndcg,
 * map and pre, each the weighted mean over queries of a per-query score.
 *
 * A query's rows are ranked by prediction, descending, ties by row index
 * (gpl_rank_before: the order the ranking objectives train with, and the
 * order of XGBoost's stable sort). Queries are scored in parallel into an
 * array that is summed in query order afterwards, so the figure does not
 * depend on the number of threads.
 *
 * A name without @k scores the top 32 positions, not the whole query:
 * XGBoost 3.2 does so (its metrics take the lambdarank default k). Only
 * the default metric of rank:ndcg and rank:pairwise with the mean pair
 * method scores every position (gpl_metric_rank_of_objective).
 *
 * XGBoost weights queries; a query's weight here is its first row's (the
 * core refuses a query whose rows have different weights). A query with
 * nothing relevant scores 1 (0 for the '-' variants) times its weight for
 * ndcg as for map: XGBoost 3.2's CPU ndcg adds that 1 unweighted, which
 * with weights makes a figure above 1 that it then refuses.
 */
#include "metric_rank.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>

#include "alloc.h"
#include "rank_math.h"
#include "threads.h"

/* Rows below which threads cost more than they save (as in metric.c). */
#define PARALLEL_ROWS 65536
/* XGBoost's kRtEps: how far a map or pre label may be from 0 or 1. */
#define BINARY_EPS 1e-6f

typedef struct rank_input {
    const gpl_metric *m;
    const float *pred; /* row r's prediction is pred[r * stride] */
    const float *label;
    int32_t stride;
    const double *discount; /* 1 / log2(position + 2), to the deepest position scored */
} rank_input;

/* Per-thread room for one query: its rows in rank order and the sorted
 * grades of ndcg with linear gain. */
typedef struct rank_scratch {
    int64_t *rows;
    int64_t *tmp;
    double *gains;
} rank_scratch;

/* The positions a query of n rows is scored on: its top k, or all. */
static int64_t scored_positions(const gpl_metric *m, int64_t n)
{
    return m->rank_topk > 0 && m->rank_topk < n ? m->rank_topk : n;
}

static double nothing_relevant(const gpl_metric *m)
{
    return m->rank_minus ? 0.0 : 1.0;
}

static int before(const rank_input *in, int64_t a, int64_t b)
{
    return gpl_rank_before(in->pred[a * in->stride], a, in->pred[b * in->stride], b);
}

/* Rows begin .. begin + n in rank order, in s->rows or s->tmp (returned).
 * A merge sort: its result does not depend on the comparisons being a
 * strict order, so NaN predictions cannot upset it. */
static const int64_t *rank_rows(const rank_input *in, rank_scratch *s, int64_t begin, int64_t n)
{
    int64_t *a = s->rows, *b = s->tmp;
    for (int64_t i = 0; i < n; i++) a[i] = begin + i;
    for (int64_t width = 1; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            const int64_t mid = lo + width < n ? lo + width : n;
            const int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) b[o++] = before(in, a[j], a[i]) ? a[j++] : a[i++];
            while (i < mid) b[o++] = a[i++];
            while (j < hi) b[o++] = a[j++];
        }
        int64_t *swap = a;
        a = b;
        b = swap;
    }
    return a;
}

static int by_gain_desc(const void *pa, const void *pb)
{
    const double a = *(const double *)pa, b = *(const double *)pb;
    return (a < b) - (a > b);
}

/* Exponential gain takes whole grades in [0, 31] (gpl_rank_gain). */
static int valid_grade(float y, int32_t exp_gain)
{
    if (isnan(y)) return 0;
    return !exp_gain || (y >= 0.0f && y <= 31.0f && y == floorf(y));
}

static int valid_binary(float y)
{
    return fabsf(y - 1.0f) < BINARY_EPS || fabsf(y) < BINARY_EPS;
}

/* The DCG of the query's rows ordered by grade, over the top positions.
 * Whole grades in [0, 31] are counted rather than sorted: the same gains
 * in the same order, so the same sum. */
static double ideal_dcg(const rank_input *in, rank_scratch *s, int64_t begin, int64_t n,
                        int64_t top)
{
    double idcg = 0.0;
    if (in->m->ndcg_exp_gain) {
        int64_t count[32] = {0};
        for (int64_t i = 0; i < n; i++) count[(int)in->label[begin + i]]++;
        int64_t pos = 0;
        for (int grade = 31; grade >= 0 && pos < top; grade--)
            for (int64_t c = 0; c < count[grade] && pos < top; c++, pos++)
                idcg += in->discount[pos] * gpl_rank_gain((float)grade, 1);
        return idcg;
    }
    for (int64_t i = 0; i < n; i++) s->gains[i] = in->label[begin + i];
    qsort(s->gains, (size_t)n, sizeof(double), by_gain_desc);
    for (int64_t i = 0; i < top; i++) idcg += in->discount[i] * s->gains[i];
    return idcg;
}

static double ndcg_query(const rank_input *in, rank_scratch *s, int64_t begin, int64_t n)
{
    const int32_t exp_gain = in->m->ndcg_exp_gain;
    for (int64_t i = 0; i < n; i++)
        if (!valid_grade(in->label[begin + i], exp_gain)) return NAN;
    const int64_t top = scored_positions(in->m, n);
    const double idcg = ideal_dcg(in, s, begin, n, top);
    /* idcg <= 0 (possible with linear gain and negative grades) counts as
     * nothing relevant, as in XGBoost. */
    const double inv_idcg = idcg == 0.0 ? 0.0 : 1.0 / idcg;
    if (inv_idcg <= 0.0) return nothing_relevant(in->m);
    const int64_t *rank = rank_rows(in, s, begin, n);
    double dcg = 0.0;
    for (int64_t i = 0; i < top; i++)
        dcg += in->discount[i] * gpl_rank_gain(in->label[rank[i]], exp_gain) * inv_idcg;
    return dcg;
}

/* Average precision at k: the precision at each relevant position of the
 * top k, summed, over min(relevant rows of the query, k). */
static double map_query(const rank_input *in, rank_scratch *s, int64_t begin, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (!valid_binary(in->label[begin + i])) return NAN;
    const int64_t *rank = rank_rows(in, s, begin, n);
    const int64_t top = scored_positions(in->m, n);
    double hits = 0.0, sum = 0.0;
    for (int64_t i = 0; i < top; i++) {
        const double y = in->label[rank[i]];
        hits += y;
        sum += hits / (double)(i + 1) * y;
    }
    for (int64_t i = top; i < n; i++) hits += in->label[rank[i]];
    if (!(hits > 0.0)) return nothing_relevant(in->m);
    const double k = in->m->rank_topk > 0 ? (double)in->m->rank_topk : hits;
    return sum / (hits < k ? hits : k);
}

/* The share of relevant rows in the top k (of the whole query without @k;
 * a query of no rows has none). */
static double pre_query(const rank_input *in, rank_scratch *s, int64_t begin, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (!valid_binary(in->label[begin + i])) return NAN;
    if (n == 0) return 0.0;
    const int64_t *rank = rank_rows(in, s, begin, n);
    const int64_t top = scored_positions(in->m, n);
    double hits = 0.0;
    for (int64_t i = 0; i < top; i++) hits += in->label[rank[i]];
    return hits / (double)top;
}

static double query_score(const rank_input *in, rank_scratch *s, int64_t begin, int64_t n)
{
    switch (in->m->kind) {
    case GPL_METRIC_NDCG: return n == 0 ? nothing_relevant(in->m) : ndcg_query(in, s, begin, n);
    case GPL_METRIC_MAP: return n == 0 ? nothing_relevant(in->m) : map_query(in, s, begin, n);
    case GPL_METRIC_PRE: return pre_query(in, s, begin, n);
    default: return NAN;
    }
}

/* The size of the largest query, or -1 when the offsets do not run from 0
 * to num_rows without going back. */
static int64_t largest_query(const int64_t *group_ptr, int64_t num_groups, int64_t num_rows)
{
    if (num_groups < 1 || group_ptr[0] != 0 || group_ptr[num_groups] != num_rows) return -1;
    int64_t largest = 0;
    for (int64_t q = 0; q < num_groups; q++) {
        const int64_t n = group_ptr[q + 1] - group_ptr[q];
        if (n < 0) return -1;
        if (n > largest) largest = n;
    }
    return largest;
}

/* Each query's weighted score and weight, in parallel. */
static int score_queries(const rank_input *in, const float *weight, const int64_t *group_ptr,
                         int64_t num_groups, int64_t largest, int threads, double *score,
                         double *qweight)
{
    const size_t room = (size_t)(largest > 0 ? largest : 1) * (size_t)threads;
    int64_t *rows = gpl_malloc(sizeof(int64_t) * room, "ranking metric order");
    int64_t *tmp = gpl_malloc(sizeof(int64_t) * room, "ranking metric order");
    const int sorts_grades = in->m->kind == GPL_METRIC_NDCG && !in->m->ndcg_exp_gain;
    double *gains = sorts_grades ? gpl_malloc(sizeof(double) * room, "ranking metric gains")
                                 : NULL;
    const int ok = rows && tmp && (gains || !sorts_grades);
    if (ok) {
#pragma omp parallel num_threads(threads)
        {
            const size_t at = (size_t)omp_get_thread_num() * (size_t)(largest > 0 ? largest : 1);
            rank_scratch s = {rows + at, tmp + at, gains ? gains + at : NULL};
#pragma omp for schedule(dynamic, 16)
            for (int64_t q = 0; q < num_groups; q++) {
                const int64_t begin = group_ptr[q], n = group_ptr[q + 1] - begin;
                const double w = weight && n > 0 ? (double)weight[begin] : 1.0;
                score[q] = query_score(in, &s, begin, n) * w;
                qweight[q] = w;
            }
        }
    }
    free(rows);
    free(tmp);
    free(gains);
    return ok;
}

double gpl_metric_rank_eval(const gpl_metric *m, const float *pred, const float *label,
                            const float *weight, int64_t num_rows, int32_t num_outputs,
                            const int64_t *group_ptr, int64_t num_groups, int nthread)
{
    const int64_t whole[2] = {0, num_rows};
    if (!group_ptr) {
        group_ptr = whole;
        num_groups = 1;
    }
    const int64_t largest = largest_query(group_ptr, num_groups, num_rows);
    if (largest < 0) return NAN;
    const int64_t depth = scored_positions(m, largest);
    double *discount = gpl_malloc(sizeof(double) * (size_t)(depth > 0 ? depth : 1),
                                  "ranking metric discounts");
    double *score = gpl_malloc(sizeof(double) * (size_t)num_groups, "ranking metric scores");
    double *qweight = gpl_malloc(sizeof(double) * (size_t)num_groups, "ranking metric weights");
    double result = NAN;
    if (discount && score && qweight) {
        for (int64_t i = 0; i < depth; i++) discount[i] = 1.0 / log2((double)i + 2.0);
        const rank_input in = {m, pred + m->output, label, num_outputs, discount};
        int threads = gpl_threads(nthread);
        if (num_rows < PARALLEL_ROWS) threads = 1;
        if ((int64_t)threads > num_groups) threads = (int)num_groups;
        if (score_queries(&in, weight, group_ptr, num_groups, largest, threads, score,
                          qweight)) {
            double sum = 0.0, total = 0.0;
            for (int64_t q = 0; q < num_groups; q++) {
                sum += score[q];
                total += qweight[q];
            }
            /* XGBoost caps the mean at 1 against rounding; NaN stays. */
            const double mean = sum / total;
            if (total > 0.0) result = mean > 1.0 ? 1.0 : mean;
        }
    }
    free(discount);
    free(score);
    free(qweight);
    return result;
}
