/* cpu_rank.c -- the ranking objectives' gradients on the CPU: the reference
 * of rank_math.h's contract. Queries are independent: threads take whole
 * queries, each with its own scratch, and a query's work is sequential, so
 * its fixed-point sums are the only arithmetic whose order could differ on
 * another backend (and integer sums do not depend on it). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "alloc.h"
#include "cpu_context.h"
#include "error.h"
#include "objective_math.h"
#include "rank_math.h"

struct cpu_rank_state {
    gpl_rank_groups groups; /* the arrays below */
    int64_t *group_ptr;
    double *discount;
    double *inv_idcg;
    double *group_weight;
};

/* A row of a query as the orders sort it. */
typedef struct rank_key {
    float key;   /* margin (model order) or grade (grade order) */
    int32_t at;  /* row within the query, or position           */
} rank_key;

/* Per-thread scratch for one query of up to max_group_size rows. */
typedef struct rank_scratch {
    rank_key *keys;
    int32_t *order;   /* position -> row within the query */
    int32_t *yorder;  /* grade order -> position          */
    uint64_t *g_sum;  /* fixed point, by row within the query */
    uint64_t *h_sum;
    double *n_rel;    /* MAP, by position */
    double *acc;
} rank_scratch;

static int by_key_then_index(const void *a, const void *b)
{
    const rank_key *x = a, *y = b;
    if (x->key > y->key) return -1;
    if (x->key < y->key) return 1;
    return (x->at > y->at) - (x->at < y->at);
}

void cpu_rank_free(struct cpu_rank_state *s)
{
    if (!s) return;
    free(s->group_ptr);
    free(s->discount);
    free(s->inv_idcg);
    free(s->group_weight);
    free(s);
}

gpulayer_status cpu_set_groups(gpl_backend *be, const gpl_rank_groups *groups)
{
    cpu_context *c = cpu_ctx(be);
    if (groups->group_ptr[groups->num_groups] != c->shape.num_rows)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "set_groups: the groups cover %lld rows, the data have %lld",
                         (long long)groups->group_ptr[groups->num_groups],
                         (long long)c->shape.num_rows);
    struct cpu_rank_state *s = gpl_calloc(1, sizeof *s, "query groups");
    if (!s) return GPULAYER_ERR_OUT_OF_MEMORY;
    const size_t G = (size_t)groups->num_groups, D = (size_t)groups->max_group_size;
    s->group_ptr = gpl_malloc(sizeof(int64_t) * (G + 1), "query groups");
    s->discount = gpl_malloc(sizeof(double) * (D ? D : 1), "query groups");
    s->inv_idcg = gpl_malloc(sizeof(double) * (G ? G : 1), "query groups");
    s->group_weight = gpl_malloc(sizeof(double) * (G ? G : 1), "query groups");
    if (!s->group_ptr || !s->discount || !s->inv_idcg || !s->group_weight) {
        cpu_rank_free(s);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    memcpy(s->group_ptr, groups->group_ptr, sizeof(int64_t) * (G + 1));
    memcpy(s->discount, groups->discount, sizeof(double) * D);
    memcpy(s->inv_idcg, groups->inv_idcg, sizeof(double) * G);
    memcpy(s->group_weight, groups->group_weight, sizeof(double) * G);
    s->groups = *groups;
    s->groups.group_ptr = s->group_ptr;
    s->groups.discount = s->discount;
    s->groups.inv_idcg = s->inv_idcg;
    s->groups.group_weight = s->group_weight;
    cpu_rank_free(c->rank);
    c->rank = s;
    return GPULAYER_OK;
}

/* The rows of one query ordered by margin, and MAP's running sums. */
static void order_query(const float *margin, const float *label, int64_t n, int map,
                        rank_scratch *w)
{
    for (int64_t i = 0; i < n; i++) w->keys[i] = (rank_key){margin[i], (int32_t)i};
    qsort(w->keys, (size_t)n, sizeof *w->keys, by_key_then_index);
    for (int64_t p = 0; p < n; p++) w->order[p] = w->keys[p].at;
    if (!map) return;
    double n_rel = 0.0, acc = 0.0;
    for (int64_t p = 0; p < n; p++) {
        gpl_rank_map_step(label[w->order[p]], p, &n_rel, &acc);
        w->n_rel[p] = n_rel;
        w->acc[p] = acc;
    }
}

typedef struct query_job {
    const gpl_gradient_request *req;
    const gpl_rank_groups *groups;
    const float *margin; /* the query's */
    const float *label;  /* the query's */
    int64_t q, n;
    int by_diff;
    uint64_t lambda_sum;
} query_job;

static void add_pair(query_job *j, rank_scratch *w, int64_t pi, int64_t pj)
{
    const int32_t ri = w->order[pi], rj = w->order[pj];
    const float yi = j->label[ri], yj = j->label[rj];
    if (yi == yj) return;
    const int64_t ph = yi > yj ? pi : pj, pl = yi > yj ? pj : pi;
    const int32_t rh = w->order[ph], rl = w->order[pl];
    const float yh = j->label[rh], yl = j->label[rl];
    double delta = 1.0;
    if (j->req->objective == GPL_OBJ_RANK_NDCG)
        delta = gpl_rank_delta_ndcg(yh, yl, ph, pl, j->groups->inv_idcg[j->q],
                                    j->groups->discount, j->req->rank.exp_gain);
    else if (j->req->objective == GPL_OBJ_RANK_MAP)
        delta = gpl_rank_delta_map(yh, yl, ph, pl, w->n_rel, w->acc, j->n);
    float lambda, hess;
    gpl_rank_pair(j->margin[rh], j->margin[rl], delta, j->by_diff, &lambda, &hess);
    const uint64_t fl = (uint64_t)gpl_rank_fixed(lambda), fh = (uint64_t)gpl_rank_fixed(hess);
    w->g_sum[rh] += fl;
    w->h_sum[rh] += fh;
    w->g_sum[rl] -= fl;
    w->h_sum[rl] += fh;
    j->lambda_sum += fl;
}

static void topk_pairs(query_job *j, rank_scratch *w)
{
    const int64_t k = j->n < j->req->rank.num_pair ? j->n : j->req->rank.num_pair;
    for (int64_t i = 0; i < k; i++)
        for (int64_t p = i + 1; p < j->n; p++) add_pair(j, w, i, p);
}

static void mean_pairs(query_job *j, rank_scratch *w)
{
    const int64_t n = j->n;
    for (int64_t p = 0; p < n; p++) w->keys[p] = (rank_key){j->label[w->order[p]], (int32_t)p};
    qsort(w->keys, (size_t)n, sizeof *w->keys, by_key_then_index);
    for (int64_t t = 0; t < n; t++) w->yorder[t] = w->keys[t].at;
    for (int64_t lo = 0, hi; lo < n; lo = hi) {
        for (hi = lo + 1; hi < n && w->keys[hi].key == w->keys[lo].key; hi++) continue;
        if (hi - lo == n) break;
        for (int64_t t = lo; t < hi; t++)
            for (int32_t s = 0; s < j->req->rank.num_pair; s++) {
                const int64_t r = gpl_rank_partner(j->req->seed, j->req->round, j->q, t, s,
                                                   lo, hi, n);
                add_pair(j, w, w->yorder[t], w->yorder[r]);
            }
    }
}

static void query_gradients(const cpu_context *c, const gpl_gradient_request *req, int64_t q,
                            rank_scratch *w, double *gval, double *hval)
{
    const gpl_rank_groups *G = &c->rank->groups;
    const int64_t b = G->group_ptr[q], n = G->group_ptr[q + 1] - b;
    query_job j = {req, G, c->buf.margins + b, c->buf.label + b, q, n, 0, 0};
    memset(w->g_sum, 0, sizeof(uint64_t) * (size_t)n);
    memset(w->h_sum, 0, sizeof(uint64_t) * (size_t)n);
    order_query(j.margin, j.label, n, req->objective == GPL_OBJ_RANK_MAP, w);
    j.by_diff = req->rank.score_normalization &&
                j.margin[w->order[0]] != j.margin[w->order[n - 1]];
    if (req->rank.pair_method == GPL_RANK_MEAN) mean_pairs(&j, w);
    else topk_pairs(&j, w);
    const double norm = gpl_rank_norm(&req->rank, (int64_t)j.lambda_sum);
    for (int64_t i = 0; i < n; i++) {
        double g = 0.0, h = 0.0;
        if (gpl_row_sampled(req->seed, req->round, b + i, req->subsample))
            gpl_rank_finish((int64_t)w->g_sum[i], (int64_t)w->h_sum[i], norm,
                            G->group_weight[q], &g, &h);
        gval[b + i] = g;
        hval[b + i] = h;
    }
}

gpulayer_status cpu_rank_gradients(cpu_context *c, const gpl_gradient_request *req,
                                   double *gval, double *hval, double *max_g, double *max_h)
{
    if (!c->rank)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "compute_gradients: a ranking objective needs query groups "
                         "(set_groups)");
    const gpl_rank_groups *G = &c->rank->groups;
    const size_t M = (size_t)(G->max_group_size > 0 ? G->max_group_size : 1);
    const int T = c->nthread;
    const size_t per_row = sizeof(rank_key) + 2 * sizeof(int32_t) + 2 * sizeof(uint64_t) +
                           2 * sizeof(double);
    char *scratch = gpl_malloc(per_row * M * (size_t)T, "ranking scratch");
    if (!scratch) return GPULAYER_ERR_OUT_OF_MEMORY;
#pragma omp parallel num_threads(T)
    {
        char *at = scratch + per_row * M * (size_t)omp_get_thread_num();
        rank_scratch w;
        w.keys = (rank_key *)at;
        w.g_sum = (uint64_t *)(at + sizeof(rank_key) * M);
        w.h_sum = w.g_sum + M;
        w.n_rel = (double *)(w.h_sum + M);
        w.acc = w.n_rel + M;
        w.order = (int32_t *)(w.acc + M);
        w.yorder = w.order + M;
#pragma omp for schedule(dynamic, 1)
        for (int64_t q = 0; q < G->num_groups; q++)
            if (G->group_ptr[q + 1] > G->group_ptr[q])
                query_gradients(c, req, q, &w, gval, hval);
    }
    free(scratch);
    double mg = 0.0, mh = 0.0;
    for (int64_t r = 0; r < c->shape.num_rows; r++) {
        if (fabs(gval[r]) > mg) mg = fabs(gval[r]);
        if (hval[r] > mh) mh = hval[r];
    }
    *max_g = mg;
    *max_h = mh;
    return GPULAYER_OK;
}
