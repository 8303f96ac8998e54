/* cpu_cox.c -- survival:cox on the CPU: set_survival_order (a copy of the
 * rows' order by time) and the gradients of cox_math.h, its blocks spread
 * over the threads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "cox_math.h"
#include "cpu_context.h"
#include "cpu_vector.h"
#include "error.h"
#include "objective_math.h"

struct cpu_cox_state {
    uint32_t *order, *tie_start; /* num_rows each                          */
    double *sums;                /* x, e and S (num_rows each), T, U, V    */
};

void cpu_cox_free(struct cpu_cox_state *s)
{
    if (!s) return;
    free(s->order);
    free(s->tie_start);
    free(s->sums);
    free(s);
}

gpulayer_status cpu_set_survival_order(gpl_backend *be, const gpl_survival_order *o)
{
    cpu_context *c = cpu_ctx(be);
    const size_t n = (size_t)c->shape.num_rows, nb = (n + GPL_COX_BLOCK - 1) / GPL_COX_BLOCK;
    struct cpu_cox_state *s = calloc(1, sizeof *s);
    if (s) {
        s->order = gpl_malloc_large(sizeof(uint32_t) * (n ? n : 1), "survival order");
        s->tie_start = gpl_malloc_large(sizeof(uint32_t) * (n ? n : 1), "survival order");
        s->sums = gpl_malloc_large(sizeof(double) * (3 * n + 3 * nb + 1), "survival:cox sums");
    }
    if (!s || !s->order || !s->tie_start || !s->sums) {
        cpu_cox_free(s);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    memcpy(s->order, o->order, sizeof(uint32_t) * n);
    memcpy(s->tie_start, o->tie_start, sizeof(uint32_t) * n);
    cpu_cox_free(c->cox);
    c->cox = s;
    return GPULAYER_OK;
}

/* exp of the margins of rows [first, last) into x[row]: cpu_gradients.c's
 * vector path (gpl_det_exp's bits), rows in their own order so the reads
 * are sequential; step 1 then gathers them by time. */
GPL_VECTOR_CLONES
static void row_exps(const float *margins, int32_t K, int64_t first, int64_t last, double *x)
{
    int64_t r = first;
    for (; r + LANES <= last; r += LANES) {
        vdouble m;
        vgather_floats(m, margins + r * K, K);
        if (!VIN_RANGE(m)) {
            for (int i = 0; i < LANES; i++) x[r + i] = gpl_det_exp((double)margins[(r + i) * K]);
            continue;
        }
        vdouble e;
        VEXP(m, e);
        memcpy(x + r, &e, sizeof e);
    }
    for (; r < last; r++) x[r] = gpl_det_exp((double)margins[r * K]);
}

gpulayer_status cpu_cox_gradients(cpu_context *c, const gpl_gradient_request *req,
                                  double *gval, double *hval, double *max_g, double *max_h)
{
    if (!c->cox)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "compute_gradients: survival:cox needs the rows' order by time "
                         "(set_survival_order)");
    const int64_t N = c->shape.num_rows, nb = (N + GPL_COX_BLOCK - 1) / GPL_COX_BLOCK;
    const int32_t K = c->shape.num_outputs;
    const uint32_t *order = c->cox->order, *tie = c->cox->tie_start;
    double *x = c->cox->sums, *e = x + N, *S = e + N, *T = S + N, *U = T + nb, *V = U + nb;
    const float *margins = c->buf.margins + req->output;
#pragma omp parallel num_threads(c->nthread)
    {
#pragma omp for schedule(static)
        for (int64_t b = 0; b < nb; b++) {
            int64_t first, last;
            gpl_cox_block(b, N, &first, &last);
            row_exps(margins, K, first, last, x);
        }
#pragma omp for schedule(static)
        for (int64_t b = 0; b < nb; b++) {
            int64_t first, last;
            gpl_cox_block(b, N, &first, &last);
            for (int64_t p = first; p < last; p++) e[p] = x[order[p]];
            T[b] = gpl_cox_block_total(e, b, N);
        }
#pragma omp for schedule(static)
        for (int64_t b = 0; b < nb; b++) gpl_cox_suffix_block(e, T, nb, b, N, S);
#pragma omp for schedule(static)
        for (int64_t b = 0; b < nb; b++)
            gpl_cox_event_block(S, order, tie, c->buf.label, b, N, U, V);
#pragma omp for schedule(static)
        for (int64_t b = 0; b < nb; b++)
            gpl_cox_pair_block(e, S, U, V, order, tie, c->buf.label, c->buf.weight, b, N, gval,
                               hval, 1);
    }
    double mg = 0.0, mh = 0.0;
#pragma omp parallel for num_threads(c->nthread) schedule(static) reduction(max : mg, mh)
    for (int64_t r = 0; r < N; r++) {
        if (!gpl_row_sampled(req->seed, gpl_sample_round(req), r, req->subsample))
            gval[r] = hval[r] = 0.0;
        if (fabs(gval[r]) > mg) mg = fabs(gval[r]);
        if (hval[r] > mh) mh = hval[r];
    }
    *max_g = mg;
    *max_h = mh;
    return GPULAYER_OK;
}
