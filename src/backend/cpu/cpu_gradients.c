/* cpu_gradients.c -- compute_gradients of the CPU backend: the gradient
 * pair of every row (objective_math.h), then its quantization and packing
 * (quantize.h).
 *
 * The objectives built on exp (logistic, Poisson, gamma, Tweedie, softmax)
 * have a vector path: the exp of det_math.h is a chain of 14 dependent
 * multiply-adds a row, which made this the second most expensive operation
 * on data with few features. The vector path does the same IEEE operations in the same order, lane by lane, so
 * every value is the scalar path's bits; lanes the fast path cannot take
 * (NaN, |margin| near the exp limits, out-of-range quantized values) send
 * their block of rows through the scalar code. */
#include <math.h>
#include <omp.h>
#include <string.h>

#include "cpu_context.h"
#include "cpu_vector.h"
#include "error.h"
#include "objective_math.h"
#include "quantize.h"

/* Rows an OpenMP chunk hands to one call of a block function. */
#define CHUNK 8192

/* The scalar reference of one row (also the path of the odd lanes). */
static inline void row_gradient(const cpu_context *c, const gpl_gradient_request *req,
                                int64_t r, double *g, double *h)
{
    *g = 0.0;
    *h = 0.0;
    const int32_t K = c->shape.num_outputs;
    double pred = 0.0; /* reg:expectileerror: the chain moves on for every row */
    if (req->objective == GPL_OBJ_EXPECTILE)
        pred = gpl_expectile_chain(c->buf.margins + r * K, req->output,
                                   K > 1 ? c->buf.softmax_norm + 2 * r : NULL,
                                   gpl_expectile_shift_due(req), 1);
    if (!gpl_row_sampled(req->seed, gpl_sample_round(req), r, req->subsample)) return;
    float w = c->buf.weight ? c->buf.weight[r] : 1.0f;
    if (req->objective == GPL_OBJ_EXPECTILE)
        gpl_objective_expectile(c->buf.margins + r * K, K, req->output, req->alphas, pred,
                                c->buf.label[r], w, g, h);
    else if (req->objective == GPL_OBJ_SOFTMAX)
        gpl_objective_softmax(c->buf.margins[r * K + req->output], c->buf.softmax_norm[2 * r],
                              c->buf.softmax_norm[2 * r + 1], req->output, c->buf.label[r], w,
                              g, h);
    else
        gpl_objective_single(req->objective, c->buf.margins[r * K + req->output], c->buf.label[r],
                             w, req->param, g, h);
}

/* Rows [first, last): gradients into gval/hval, their largest |g| and h
 * folded into *max_g and *max_h. */
static void scalar_gradients(const cpu_context *c, const gpl_gradient_request *req,
                             int64_t first, int64_t last, double *gval, double *hval,
                             double *max_g, double *max_h)
{
    double mg = *max_g, mh = *max_h;
    for (int64_t r = first; r < last; r++) {
        double g, h;
        row_gradient(c, req, r, &g, &h);
        gval[r] = g;
        hval[r] = h;
        if (fabs(g) > mg) mg = fabs(g);
        if (h > mh) mh = h;
    }
    *max_g = mg;
    *max_h = mh;
}


/* Whether exp_gradients takes this request: every row sampled, an
 * objective whose gradient is built on exp (softmax, or one of the single
 * output ones with a single output). */
static int has_vector_path(const cpu_context *c, const gpl_gradient_request *req)
{
    if (req->subsample < 1.0f) return 0;
    if (req->objective == GPL_OBJ_SOFTMAX) return 1;
    if (c->shape.num_outputs != 1) return 0;
    switch (req->objective) {
    case GPL_OBJ_LOGISTIC:
    case GPL_OBJ_POISSON:
    case GPL_OBJ_GAMMA:
    case GPL_OBJ_TWEEDIE: return 1;
    default: return 0;
    }
}

/* Gradients of rows [first, last) for a request has_vector_path takes:
 * gpl_objective_single, operation for operation, LANES rows at a time;
 * a step whose exp arguments leave the fast range goes through the
 * scalar code. */
GPL_VECTOR_CLONES
static void exp_gradients(const cpu_context *c, const gpl_gradient_request *req, int64_t first,
                          int64_t last, double *gval, double *hval, double *max_g,
                          double *max_h)
{
    const vdouble one = vsplat(1.0), min_hess = vsplat(GPL_MIN_HESS);
    const vdouble param = vsplat(req->param);
    const vint64 abs_mask = ~(vint64)vsplat(-0.0); /* all but the sign */
    const int32_t K = c->shape.num_outputs;
    vdouble mg = vsplat(0.0), mh = vsplat(0.0);
    int64_t r = first;
    for (; r + LANES <= last; r += LANES) {
        vdouble m, label, w = one, g = vsplat(0.0), h = vsplat(0.0);
        vgather_floats(m, c->buf.margins + r * K + req->output, K);
        vload_floats(label, c->buf.label + r);
        if (c->buf.weight) vload_floats(w, c->buf.weight + r);
        int fast = 1;
        switch (req->objective) {
        case GPL_OBJ_SOFTMAX: { /* gpl_objective_softmax */
            const double *norm = c->buf.softmax_norm + 2 * r;
            const vdouble top = {norm[0], norm[2], norm[4], norm[6]};
            const vdouble sum = {norm[1], norm[3], norm[5], norm[7]};
            const vdouble x = m - top;
            if (!(fast = VIN_RANGE(x))) break;
            vdouble e;
            VEXP(x, e);
            const vdouble p = e / sum;
            vdouble y;
            for (int i = 0; i < LANES; i++)
                y[i] = (int32_t)c->buf.label[r + i] == req->output ? 1.0 : 0.0;
            g = p - y;
            h = vsplat(2.0) * p * (one - p);
            h = vselect(h < min_hess, min_hess, h);
            break;
        }
        case GPL_OBJ_LOGISTIC: {
            const vdouble x = -m;
            if (!(fast = VIN_RANGE(x))) break;
            vdouble e;
            VEXP(x, e);
            const vdouble s = one / (one + e); /* gpl_det_sigmoid */
            g = s - label;
            h = s * (one - s);
            h = vselect(h < min_hess, min_hess, h);
            break;
        }
        case GPL_OBJ_POISSON: {
            const vdouble x2 = m + param;
            if (!(fast = VIN_RANGE(m) && VIN_RANGE(x2))) break;
            vdouble e1, e2;
            VEXP(m, e1);
            VEXP(x2, e2);
            g = e1 - label;
            h = e2;
            break;
        }
        case GPL_OBJ_GAMMA: {
            const vdouble x = -m;
            if (!(fast = VIN_RANGE(x))) break;
            vdouble e;
            VEXP(x, e);
            const vdouble q = label * e;
            g = one - q;
            h = vselect(q < min_hess, min_hess, q);
            break;
        }
        default: { /* GPL_OBJ_TWEEDIE */
            const vdouble x1 = (one - param) * m, x2 = (vsplat(2.0) - param) * m;
            if (!(fast = VIN_RANGE(x1) && VIN_RANGE(x2))) break;
            vdouble a, b;
            VEXP(x1, a);
            VEXP(x2, b);
            g = b - label * a;
            h = (vsplat(2.0) - param) * b - label * (one - param) * a;
            h = vselect(h < min_hess, min_hess, h);
            break;
        }
        }
        if (!fast) {
            double sg = 0.0, sh = 0.0;
            scalar_gradients(c, req, r, r + LANES, gval, hval, &sg, &sh);
            mg = vselect(vsplat(sg) > mg, vsplat(sg), mg);
            mh = vselect(vsplat(sh) > mh, vsplat(sh), mh);
            continue;
        }
        g = g * w;
        h = h * w;
        memcpy(gval + r, &g, sizeof g);
        memcpy(hval + r, &h, sizeof h);
        const vdouble ag = (vdouble)((vint64)g & abs_mask);
        mg = vselect(ag > mg, ag, mg);
        mh = vselect(h > mh, h, mh);
    }
    double sg = *max_g, sh = *max_h;
    for (int i = 0; i < LANES; i++) {
        if (mg[i] > sg) sg = mg[i];
        if (mh[i] > sh) sh = mh[i];
    }
    scalar_gradients(c, req, r, last, gval, hval, &sg, &sh);
    *max_g = sg;
    *max_h = sh;
}

/* The softmax normalisers of rows [first, last) (gpl_softmax_normalizer,
 * the same operations in the same order, lanes of rows); a block whose
 * exp arguments leave the fast range goes through the scalar code. */
GPL_VECTOR_CLONES
static void softmax_normalizers(const cpu_context *c, int64_t first, int64_t last)
{
    const int32_t K = c->shape.num_outputs;
    const float *margins = c->buf.margins;
    double *norm = c->buf.softmax_norm;
    int64_t r = first;
    for (; r + LANES <= last; r += LANES) {
        vdouble top, m, sum = vsplat(0.0);
        vgather_floats(top, margins + r * K, K);
        for (int32_t k = 1; k < K; k++) {
            vgather_floats(m, margins + r * K + k, K);
            top = vselect(m > top, m, top);
        }
        int fast = 1;
        for (int32_t k = 0; k < K && fast; k++) {
            vgather_floats(m, margins + r * K + k, K);
            const vdouble x = m - top;
            if (!(fast = VIN_RANGE(x))) break;
            vdouble e;
            VEXP(x, e);
            sum = sum + e;
        }
        for (int i = 0; i < LANES; i++) {
            if (fast) {
                norm[2 * (r + i)] = top[i];
                norm[2 * (r + i) + 1] = sum[i];
            } else {
                gpl_softmax_normalizer(margins + (r + i) * K, K, &norm[2 * (r + i)],
                                       &norm[2 * (r + i) + 1]);
            }
        }
    }
    for (; r < last; r++)
        gpl_softmax_normalizer(margins + r * K, K, &norm[2 * r], &norm[2 * r + 1]);
}

/* Quantizes and packs rows [first, last): gpl_quantize (llrint of the
 * scaled value) through the rounding constant, which gives the same
 * integer for |value| < 2^51; anything else goes through gpl_quantize. */
GPL_VECTOR_CLONES
static void quantize_rows(const double *gval, const double *hval, int64_t first,
                          int64_t last, double sg, double sh, int64_t *packed,
                          int64_t stride)
{
    const vdouble vsg = vsplat(sg), vsh = vsplat(sh), magic = vsplat(ROUND_MAGIC);
    const vdouble lo = vsplat(-0x1p51), hi = vsplat(0x1p51);
    int64_t r = first;
    for (; r + LANES <= last; r += LANES) {
        vdouble g, h;
        memcpy(&g, gval + r, sizeof g);
        memcpy(&h, hval + r, sizeof h);
        const vdouble yg = g * vsg, yh = h * vsh;
        if (!vall((yg > lo) & (yg < hi) & (yh > lo) & (yh < hi))) {
            for (int64_t i = r; i < r + LANES; i++)
                packed[i * stride] =
                    gpl_pack_pair(gpl_quantize(gval[i], sg), gpl_quantize(hval[i], sh));
            continue;
        }
        const vint64 qg = (vint64)(yg + magic) - ROUND_MAGIC_BITS;
        const vint64 qh = (vint64)(yh + magic) - ROUND_MAGIC_BITS;
        /* gpl_pack_pair, in unsigned arithmetic as there */
        typedef uint64_t vuint64 __attribute__((vector_size(LANES * sizeof(uint64_t))));
        const vuint64 pk = ((vuint64)qg << 32) + (vuint64)qh;
        if (stride == 1) memcpy(packed + r, &pk, sizeof pk);
        else
            for (int i = 0; i < LANES; i++) packed[(r + i) * stride] = (int64_t)pk[i];
    }
    for (; r < last; r++)
        packed[r * stride] = gpl_pack_pair(gpl_quantize(gval[r], sg), gpl_quantize(hval[r], sh));
}

/* Two passes: float gradients and their largest magnitudes, then
 * quantization with the power-of-two scales. The float gradients live in
 * the pair buffer (grad), as N gradients then N hessians; only the packed
 * pairs are kept, the histograms read nothing else. */
gpulayer_status cpu_compute_gradients(gpl_backend *be, const gpl_gradient_request *req,
                                      gpl_quant_scale *scale)
{
    cpu_context *c = cpu_ctx(be);
    const int64_t N = c->shape.num_rows;
    double *gval = (double *)c->buf.grad, *hval = gval + N;
    const int vector = has_vector_path(c, req);
    if (gpl_softmax_norm_due(req, &c->buf.softmax_norm_ready)) {
#pragma omp parallel for num_threads(c->nthread) schedule(static)
        for (int64_t first = 0; first < N; first += CHUNK)
            softmax_normalizers(c, first, first + CHUNK < N ? first + CHUNK : N);
    }
    double max_g = 0.0, max_h = 0.0;
    if (gpl_objective_is_ranking(req->objective)) {
        GPL_CHECK(cpu_rank_gradients(c, req, gval, hval, &max_g, &max_h));
    } else if (req->objective == GPL_OBJ_COX) {
        GPL_CHECK(cpu_cox_gradients(c, req, gval, hval, &max_g, &max_h));
    } else {
#pragma omp parallel for num_threads(c->nthread) schedule(static) reduction(max : max_g, max_h)
        for (int64_t first = 0; first < N; first += CHUNK) {
            const int64_t last = first + CHUNK < N ? first + CHUNK : N;
            if (vector) exp_gradients(c, req, first, last, gval, hval, &max_g, &max_h);
            else scalar_gradients(c, req, first, last, gval, hval, &max_g, &max_h);
        }
    }
    scale->grad = gpl_quant_scale_for(max_g, N);
    scale->hess = gpl_quant_scale_for(max_h, N);
    const double sg = scale->grad, sh = scale->hess;
#pragma omp parallel for num_threads(c->nthread) schedule(static)
    for (int64_t first = 0; first < N; first += CHUNK) {
        const int64_t last = first + CHUNK < N ? first + CHUNK : N;
        quantize_rows(gval, hval, first, last, sg, sh, c->buf.packed_grad, c->buf.pair_stride);
    }
    return GPULAYER_OK;
}

void cpu_pack_gradients(cpu_context *c)
{
#pragma omp parallel for num_threads(c->nthread) schedule(static)
    for (int64_t r = 0; r < c->shape.num_rows; r++)
        c->buf.packed_grad[r * c->buf.pair_stride] = gpl_pack_pair(c->buf.grad[r].grad, c->buf.grad[r].hess);
}
