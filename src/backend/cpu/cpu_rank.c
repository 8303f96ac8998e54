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
#include "cpu_vector.h"
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

/* A row of a query as the orders sort it: ascending keys are the value
 * descending (-0 equal to +0), ties by the index in the low half. */
static inline uint64_t descending_key(float value, int32_t at)
{
    uint32_t bits;
    value = value + 0.0f; /* -0 becomes +0 */
    memcpy(&bits, &value, sizeof bits);
    bits = (bits & 0x80000000u) ? ~bits : bits | 0x80000000u; /* ascending in value */
    return (uint64_t)(uint32_t)~bits << 32 | (uint32_t)at;
}

static inline int32_t key_index(uint64_t key) { return (int32_t)(uint32_t)key; }
static inline uint32_t key_value(uint64_t key) { return (uint32_t)(key >> 32); }

/* Ascending order of n distinct keys: insertion-sorted runs, then merges
 * through tmp (queries are mostly short; qsort's calls cost more than the
 * comparisons). */
static void sort_keys(uint64_t *a, int64_t n, uint64_t *tmp)
{
    enum { RUN = 16 };
    for (int64_t s = 0; s < n; s += RUN) {
        const int64_t e = s + RUN < n ? s + RUN : n;
        for (int64_t i = s + 1; i < e; i++) {
            const uint64_t k = a[i];
            int64_t j = i;
            for (; j > s && a[j - 1] > k; j--) a[j] = a[j - 1];
            a[j] = k;
        }
    }
    uint64_t *src = a, *dst = tmp;
    for (int64_t width = RUN; width < n; width *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * width) {
            const int64_t mid = lo + width < n ? lo + width : n;
            const int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            int64_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) dst[o++] = src[i] < src[j] ? src[i++] : src[j++];
            while (i < mid) dst[o++] = src[i++];
            while (j < hi) dst[o++] = src[j++];
        }
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != a) memcpy(a, src, sizeof(uint64_t) * (size_t)n);
}

/* Per-thread scratch for one query of up to max_group_size rows. */
typedef struct rank_scratch {
    uint64_t *keys;
    uint64_t *keys_tmp;
    int32_t *order;   /* position -> row within the query */
    int32_t *yorder;  /* grade order -> position          */
    uint64_t *g_sum;  /* fixed point, by row within the query */
    uint64_t *h_sum;
    double *n_rel;    /* MAP, by position */
    double *acc;
    /* by position, so that the pair loops read memory in order */
    float *pos_label;
    float *pos_margin;
    double *pos_gain; /* NDCG */
} rank_scratch;

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

/* The rows of one query ordered by margin, their grades, margins and
 * gains by position, and MAP's running sums. */
static void order_query(const gpl_gradient_request *req, const float *margin,
                        const float *label, int64_t n, rank_scratch *w)
{
    for (int64_t i = 0; i < n; i++) w->keys[i] = descending_key(margin[i], (int32_t)i);
    sort_keys(w->keys, n, w->keys_tmp);
    for (int64_t p = 0; p < n; p++) {
        const int32_t r = key_index(w->keys[p]);
        w->order[p] = r;
        w->pos_label[p] = label[r];
        w->pos_margin[p] = margin[r];
    }
    if (req->objective == GPL_OBJ_RANK_NDCG)
        for (int64_t p = 0; p < n; p++)
            w->pos_gain[p] = gpl_rank_gain(w->pos_label[p], req->rank.exp_gain);
    if (req->objective != GPL_OBJ_RANK_MAP) return;
    double n_rel = 0.0, acc = 0.0;
    for (int64_t p = 0; p < n; p++) {
        gpl_rank_map_step(w->pos_label[p], p, &n_rel, &acc);
        w->n_rel[p] = n_rel;
        w->acc[p] = acc;
    }
}

/* Pairs wait here until a block of them gets its lambdas four at a time:
 * the exp of the sigmoid is a chain of dependent multiply-adds, which
 * lanes overlap. */
#define PAIR_BLOCK 256

typedef struct pair_buffer {
    int32_t high[PAIR_BLOCK], low[PAIR_BLOCK]; /* rows within the query */
    float m_high[PAIR_BLOCK], m_low[PAIR_BLOCK];
    double delta[PAIR_BLOCK];
    float lambda[PAIR_BLOCK], hess[PAIR_BLOCK];
    int count;
} pair_buffer;

/* gpl_rank_pair of every buffered pair: the vector lanes do its operations
 * in its order; a step with an exp argument out of the fast range, and the
 * tail, take the scalar code. */
GPL_VECTOR_CLONES
static void pair_lambdas(pair_buffer *b, int by_diff)
{
    const vdouble one = vsplat(1.0), floor_hess = vsplat(1e-16);
    const vint64 abs_mask = ~(vint64)vsplat(-0.0);
    int i = 0;
    for (; i + LANES <= b->count; i += LANES) {
        vdouble mh, ml, delta;
        vload_floats(mh, b->m_high + i);
        vload_floats(ml, b->m_low + i);
        memcpy(&delta, b->delta + i, sizeof delta);
        const vdouble diff = mh - ml;
        const vdouble x = -diff;
        if (!VIN_RANGE(x)) {
            for (int k = i; k < i + LANES; k++)
                gpl_rank_pair(b->m_high[k], b->m_low[k], b->delta[k], by_diff, &b->lambda[k],
                              &b->hess[k]);
            continue;
        }
        vdouble e;
        VEXP(x, e);
        const vdouble sig = one / (one + e);
        if (by_diff) delta = delta / ((vdouble)((vint64)diff & abs_mask) + vsplat(0.01));
        vdouble h = sig * (one - sig);
        h = vselect(h < floor_hess, floor_hess, h);
        const vfloat lambda = __builtin_convertvector((sig - one) * delta, vfloat);
        const vfloat hess = __builtin_convertvector(h * delta * vsplat(2.0), vfloat);
        memcpy(b->lambda + i, &lambda, sizeof lambda);
        memcpy(b->hess + i, &hess, sizeof hess);
    }
    for (; i < b->count; i++)
        gpl_rank_pair(b->m_high[i], b->m_low[i], b->delta[i], by_diff, &b->lambda[i],
                      &b->hess[i]);
}

typedef struct query_job {
    const gpl_gradient_request *req;
    const gpl_rank_groups *groups;
    const float *margin; /* the query's */
    const float *label;  /* the query's */
    int64_t q, n;
    int by_diff;
    uint64_t lambda_sum;
    pair_buffer pairs;
} query_job;

/* The buffered pairs' lambdas into the rows' and the query's sums. */
static void flush_pairs(query_job *j, rank_scratch *w)
{
    pair_buffer *b = &j->pairs;
    pair_lambdas(b, j->by_diff);
    for (int i = 0; i < b->count; i++) {
        const uint64_t fl = (uint64_t)gpl_rank_fixed(b->lambda[i]);
        const uint64_t fh = (uint64_t)gpl_rank_fixed(b->hess[i]);
        w->g_sum[b->high[i]] += fl;
        w->h_sum[b->high[i]] += fh;
        w->g_sum[b->low[i]] -= fl;
        w->h_sum[b->low[i]] += fh;
        j->lambda_sum += fl;
    }
    b->count = 0;
}

static void add_pair(query_job *j, rank_scratch *w, int64_t pi, int64_t pj)
{
    const float yi = w->pos_label[pi], yj = w->pos_label[pj];
    if (yi == yj) return;
    const int64_t ph = yi > yj ? pi : pj, pl = yi > yj ? pj : pi;
    double delta = 1.0;
    if (j->req->objective == GPL_OBJ_RANK_NDCG)
        delta = gpl_rank_delta_ndcg_gains(w->pos_gain[ph], w->pos_gain[pl],
                                          j->groups->discount[ph], j->groups->discount[pl],
                                          j->groups->inv_idcg[j->q]);
    else if (j->req->objective == GPL_OBJ_RANK_MAP)
        delta = gpl_rank_delta_map(w->pos_label[ph], w->pos_label[pl], ph, pl, w->n_rel,
                                   w->acc, j->n);
    pair_buffer *b = &j->pairs;
    b->high[b->count] = w->order[ph];
    b->low[b->count] = w->order[pl];
    b->m_high[b->count] = w->pos_margin[ph];
    b->m_low[b->count] = w->pos_margin[pl];
    b->delta[b->count] = delta;
    if (++b->count == PAIR_BLOCK) flush_pairs(j, w);
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
    for (int64_t p = 0; p < n; p++) w->keys[p] = descending_key(w->pos_label[p], (int32_t)p);
    sort_keys(w->keys, n, w->keys_tmp);
    for (int64_t t = 0; t < n; t++) w->yorder[t] = key_index(w->keys[t]);
    for (int64_t lo = 0, hi; lo < n; lo = hi) {
        for (hi = lo + 1; hi < n && key_value(w->keys[hi]) == key_value(w->keys[lo]); hi++)
            continue;
        if (hi - lo == n) break;
        for (int64_t t = lo; t < hi; t++)
            for (int32_t s = 0; s < j->req->rank.num_pair; s++) {
                const int64_t r = gpl_rank_partner(j->req->seed, j->req->round, j->q, t, s,
                                                   lo, hi, n);
                add_pair(j, w, w->yorder[t], w->yorder[r]);
            }
    }
}

/* The gradient pairs of query q's rows, and their largest magnitudes
 * folded into *max_g, *max_h. */
static void query_gradients(const cpu_context *c, const gpl_gradient_request *req, int64_t q,
                            rank_scratch *w, double *gval, double *hval, double *max_g,
                            double *max_h)
{
    const gpl_rank_groups *G = &c->rank->groups;
    const int64_t b = G->group_ptr[q], n = G->group_ptr[q + 1] - b;
    query_job j = {.req = req, .groups = G, .margin = c->buf.margins + b,
                   .label = c->buf.label + b, .q = q, .n = n};
    memset(w->g_sum, 0, sizeof(uint64_t) * (size_t)n);
    memset(w->h_sum, 0, sizeof(uint64_t) * (size_t)n);
    order_query(req, j.margin, j.label, n, w);
    j.by_diff = req->rank.score_normalization && w->pos_margin[0] != w->pos_margin[n - 1];
    if (req->rank.pair_method == GPL_RANK_MEAN) mean_pairs(&j, w);
    else topk_pairs(&j, w);
    flush_pairs(&j, w);
    const double norm = gpl_rank_norm(&req->rank, (int64_t)j.lambda_sum);
    for (int64_t i = 0; i < n; i++) {
        double g = 0.0, h = 0.0;
        if (gpl_row_sampled(req->seed, gpl_sample_round(req), b + i, req->subsample))
            gpl_rank_finish((int64_t)w->g_sum[i], (int64_t)w->h_sum[i], norm,
                            G->group_weight[q], &g, &h);
        gval[b + i] = g;
        hval[b + i] = h;
        if (fabs(g) > *max_g) *max_g = fabs(g);
        if (h > *max_h) *max_h = h;
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
    const size_t per_row = 4 * sizeof(uint64_t) + 3 * sizeof(double) +
                           2 * sizeof(int32_t) + 2 * sizeof(float);
    char *scratch = gpl_malloc(per_row * M * (size_t)T, "ranking scratch");
    if (!scratch) return GPULAYER_ERR_OUT_OF_MEMORY;
    double mg = 0.0, mh = 0.0;
#pragma omp parallel num_threads(T)
    {
        char *at = scratch + per_row * M * (size_t)omp_get_thread_num();
        rank_scratch w;
        w.keys = (uint64_t *)at;
        w.keys_tmp = w.keys + M;
        w.g_sum = w.keys_tmp + M;
        w.h_sum = w.g_sum + M;
        w.n_rel = (double *)(w.h_sum + M);
        w.acc = w.n_rel + M;
        w.pos_gain = w.acc + M;
        w.order = (int32_t *)(w.pos_gain + M);
        w.yorder = w.order + M;
        w.pos_label = (float *)(w.yorder + M);
        w.pos_margin = w.pos_label + M;
#pragma omp for schedule(dynamic, 1) reduction(max : mg, mh)
        for (int64_t q = 0; q < G->num_groups; q++)
            if (G->group_ptr[q + 1] > G->group_ptr[q])
                query_gradients(c, req, q, &w, gval, hval, &mg, &mh);
    }
    free(scratch);
    *max_g = mg;
    *max_h = mh;
    return GPULAYER_OK;
}
