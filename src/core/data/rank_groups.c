/* rank_groups.c -- see rank_groups.h. */
#include "rank_groups.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"

static const char *source_of(const gpulayer_dataset *ds)
{
    return ds->source ? ds->source : "data";
}

static int64_t group_count(const gpulayer_dataset *ds)
{
    return ds->group_ptr ? ds->num_groups : 1;
}

static int64_t group_begin(const gpulayer_dataset *ds, int64_t q)
{
    return ds->group_ptr ? ds->group_ptr[q] : 0;
}

static int64_t group_end(const gpulayer_dataset *ds, int64_t q)
{
    return ds->group_ptr ? ds->group_ptr[q + 1] : ds->num_rows;
}

gpulayer_status gpl_rank_check(const gpulayer_dataset *ds, gpl_objective_kind kind,
                               const gpl_objective_params *op, const char *what)
{
    const char *name = gpl_objective_kind_name(kind, 0);
    const int exp_gain = kind != GPL_OBJ_RANK_MAP && op->ndcg_exp_gain;
    for (int64_t q = 0; q < group_count(ds); q++) {
        const int64_t b = group_begin(ds, q), e = group_end(ds, q);
        if (e - b > GPL_RANK_MAX_GROUP_ROWS)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "%s: %s: query %lld has %lld rows; %s takes at most %lld rows a "
                             "query%s",
                             what, source_of(ds), (long long)q + 1, (long long)(e - b), name,
                             GPL_RANK_MAX_GROUP_ROWS,
                             ds->group_ptr ? "" : " (the data have no query groups: give "
                                                  "them with qid or group)");
        for (int64_t r = b; r < e; r++) {
            const float y = ds->label[r];
            char row[48], first[48];
            if (exp_gain && !(y == floorf(y) && y >= 0.0f && y <= 31.0f))
                return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                                 "%s: %s: %s has relevance grade %g; with "
                                 "ndcg_exp_gain=true (gain 2^grade - 1) grades must be "
                                 "integers 0..31 (set ndcg_exp_gain=false for other grades)",
                                 what, source_of(ds), gpl_dataset_row_text(ds, r, row, sizeof row),
                                 (double)y);
            if (ds->weight && ds->weight[r] != ds->weight[b])
                return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                                 "%s: %s: %s has weight %g, the first row of its query "
                                 "(%s) %g; %s weighs whole queries: give one weight a "
                                 "query",
                                 what, source_of(ds), gpl_dataset_row_text(ds, r, row, sizeof row),
                                 (double)ds->weight[r],
                                 gpl_dataset_row_text(ds, b, first, sizeof first),
                                 (double)ds->weight[b], name);
        }
    }
    return GPULAYER_OK;
}

static int by_grade_desc(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x < y) - (x > y);
}

/* 1 / the DCG of the query's rows in the ideal order, over the first topk
 * positions (0: all), or 0 when that DCG is 0. */
static double inverse_ideal_dcg(const float *label, int64_t n, int32_t topk, int32_t exp_gain,
                                const double *discount, float *sorted)
{
    memcpy(sorted, label, sizeof(float) * (size_t)n);
    qsort(sorted, (size_t)n, sizeof(float), by_grade_desc);
    const int64_t k = topk > 0 && topk < n ? topk : n;
    double idcg = 0.0;
    for (int64_t i = 0; i < k; i++)
        idcg += discount[i] * (exp_gain ? (double)((1u << (uint32_t)sorted[i]) - 1u)
                                        : (double)sorted[i]);
    return idcg == 0.0 ? 0.0 : 1.0 / idcg;
}

gpulayer_status gpl_rank_tables_build(const gpulayer_dataset *ds, const gpl_objective_params *op,
                                      gpl_rank_tables *out)
{
    memset(out, 0, sizeof *out);
    const int64_t G = group_count(ds);
    int64_t longest = 1;
    for (int64_t q = 0; q < G; q++)
        if (group_end(ds, q) - group_begin(ds, q) > longest)
            longest = group_end(ds, q) - group_begin(ds, q);
    float *sorted = gpl_malloc(sizeof(float) * (size_t)longest, "query groups");
    out->discount = gpl_malloc(sizeof(double) * (size_t)longest, "query groups");
    out->inv_idcg = gpl_malloc(sizeof(double) * (size_t)G, "query groups");
    out->group_weight = gpl_malloc(sizeof(double) * (size_t)G, "query groups");
    if (!ds->group_ptr) out->one_group = gpl_malloc(2 * sizeof(int64_t), "query groups");
    if (!sorted || !out->discount || !out->inv_idcg || !out->group_weight ||
        (!ds->group_ptr && !out->one_group)) {
        free(sorted);
        gpl_rank_tables_free(out);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    for (int64_t i = 0; i < longest; i++) out->discount[i] = 1.0 / log2((double)i + 2.0);
    const int32_t topk = gpl_objective_rank_topk(op);
    double sum_w = 0.0;
    for (int64_t q = 0; q < G; q++) {
        const int64_t b = group_begin(ds, q), n = group_end(ds, q) - b;
        out->inv_idcg[q] = inverse_ideal_dcg(ds->label + b, n, topk, op->ndcg_exp_gain,
                                             out->discount, sorted);
        out->group_weight[q] = ds->weight && n > 0 ? ds->weight[b] : 1.0;
        sum_w += out->group_weight[q];
    }
    free(sorted);
    /* XGBoost's weight norm: the weights average 1 over the queries. */
    if (ds->weight) {
        if (!(sum_w > 0.0)) {
            gpl_rank_tables_free(out);
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "%s: every query has weight 0", source_of(ds));
        }
        for (int64_t q = 0; q < G; q++) out->group_weight[q] *= (double)G / sum_w;
    }
    if (out->one_group) {
        out->one_group[0] = 0;
        out->one_group[1] = ds->num_rows;
    }
    out->groups = (gpl_rank_groups){G, ds->group_ptr ? ds->group_ptr : out->one_group, longest,
                                    out->discount, out->inv_idcg, out->group_weight};
    return GPULAYER_OK;
}

void gpl_rank_tables_free(gpl_rank_tables *t)
{
    free(t->one_group);
    free(t->discount);
    free(t->inv_idcg);
    free(t->group_weight);
    memset(t, 0, sizeof *t);
}
