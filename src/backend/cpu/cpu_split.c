/* cpu_split.c -- the best split of every node of a level, by scanning each
 * feature's histogram in bin order (the reference for every backend). */
#include <math.h>
#include <omp.h>
#include <string.h>

#include "common/checks.h"
#include "cpu_context.h"
#include "cat_set.h"
#include "cpu_split_cat.h"
#include "error.h"
#include "split_math.h"

/* Candidates a vector step evaluates: four doubles (one AVX register,
 * two SSE2). The gain of a candidate takes six divisions, which made the
 * scan of candidates division-bound; vector divisions are correctly
 * rounded like scalar ones, and every other operation is the scalar
 * formula's (split_math.h) in its order, so every gain keeps its bits. */
#define LANES 4

typedef double vdouble __attribute__((vector_size(LANES * sizeof(double))));
/* What a comparison of vdoubles gives; also the integer lanes. */
typedef __typeof__((vdouble){0} < (vdouble){0}) vint64;

#define vsplat(x) ((vdouble){(x), (x), (x), (x)})
#define vselect(mask, a, b) \
    ((vdouble)(((vint64)(a) & (mask)) | ((vint64)(b) & ~(mask))))
/* Integer lanes to doubles, exactly for |x| < 2^51 (x86-64 before AVX-512
 * has no such conversion, and the compiler's takes 4 scalar conversions
 * and 8 moves): x added to the bits of 1.5 * 2^52 are the bits of
 * 1.5 * 2^52 + x, and subtracting 1.5 * 2^52 leaves x. Histogram sums are
 * far below the bound (quantize.h keeps them below 2^31). */
#define TO_DOUBLE_MAGIC 6755399441055744.0
#define TO_DOUBLE_MAGIC_BITS 0x4338000000000000LL
#define vto_double(x) \
    ((vdouble)((x) + TO_DOUBLE_MAGIC_BITS) - vsplat(TO_DOUBLE_MAGIC))

/* gpl_l1_threshold, lane by lane. */
#define vl1_threshold(G, alpha)                                       \
    vselect((G) > vsplat(alpha), (G) - vsplat(alpha),                 \
            vselect((G) < vsplat(-(alpha)), (G) + vsplat(alpha), vsplat(0.0)))

/* The lanes of v clamped to [lo, hi] (gpl_clamp_weight's second half). */
#define vclamp(v, lo, hi) \
    vselect((v) < vsplat(lo), vsplat(lo), vselect((v) > vsplat(hi), vsplat(hi), (v)))

/* gpl_bounded_score, lane by lane: the score of children with sums G, H
 * (t: their gpl_l1_threshold) into score, their weights into weight. A
 * macro, as the others: a vector argument of a function outside the
 * target clones would take the ABI of the default target. */
#define vbounded_score(p, b, G, H, t, score, weight)                                   \
    do {                                                                               \
        const vdouble optimum_ = -(t) / ((H) + vsplat((p)->lambda));                    \
        vdouble w_ = optimum_;                                                         \
        if ((p)->max_delta_step > 0.0)                                                 \
            w_ = vclamp(w_, -(p)->max_delta_step, (p)->max_delta_step);                \
        w_ = vclamp(w_, (b)->lo, (b)->hi);                                             \
        const vdouble abs_w_ = vselect(w_ < vsplat(0.0), -w_, w_);                     \
        const vdouble given_ = -((vsplat(2.0) * (G) * w_ + ((H) + vsplat((p)->lambda)) * \
                                  (w_ * w_)) +                                         \
                                 vsplat(2.0) * vsplat((p)->alpha) * abs_w_);           \
        (score) = vselect(w_ == optimum_, ((t) * (t)) / ((H) + vsplat((p)->lambda)), given_); \
        (weight) = w_;                                                                 \
    } while (0)

/* What the scan of one node's candidates needs besides the histogram. */
typedef struct scan_context {
    const gpl_split_params *p;
    gpl_grad_pair total;
    double parent; /* the node's score */
    gpl_node_bounds bounds;
    /* Non-zero when weights may be clamped (max_delta_step, finite
     * bounds): the scores then take gpl_bounded_score. */
    int bounded;
    /* 1 / scale.grad and 1 / scale.hess when both are exact (see
     * exact_reciprocal), else 0. */
    double inv_sg, inv_sh;
    /* min_data_in_leaf (gpl_children_rows_ok): the node's rows as a
     * double, and min_data_in_leaf x the node's hessian sum; rows 0: no
     * limit. */
    double rows, rows_limit;
} scan_context;

/* 1 / s when s is a power of two whose reciprocal is a normal double, else
 * 0. The quantization scales are powers of two (gpl_quant_scale_for), and
 * x / s and x * (1 / s) are then the same real number correctly rounded:
 * the same bits, for a multiplication instead of a division. */
static double exact_reciprocal(double s)
{
    int e;
    if (!(s > 0.0) || frexp(s, &e) != 0.5) return 0.0;
    if (1 - e < -1022 || 1 - e > 1023) return 0.0; /* s = 2^(e-1) */
    return ldexp(1.0, 1 - e);
}

/* The candidates bins first+1..first+count of feature f with missing
 * values going left (dl = 1, `missing` added to the left sums) or right
 * (dl = 0): cum_g/cum_h[i] are the sums of bins 1..first+i+1, zero-padded
 * to a multiple of LANES. The best candidate is kept in rec (gpl_split_better: the result
 * does not depend on the order in which candidates are compared). */
GPL_VECTOR_CLONES
static void scan_candidates(const scan_context *sc, const int64_t *cum_g,
                            const int64_t *cum_h, int32_t first, int32_t count,
                            gpl_grad_pair missing,
                            int32_t f, int dl, int constraint, gpl_split_record *rec)
{
    const gpl_split_params *p = sc->p;
    const double sg = p->scale.grad, sh = p->scale.hess;
    const vdouble lane = {0, 1, 2, 3}; /* exact small integers */
    for (int32_t i = 0; i < count; i += LANES) {
        vint64 lg, lh;
        memcpy(&lg, cum_g + i, sizeof lg);
        memcpy(&lh, cum_h + i, sizeof lh);
        lg += missing.grad;
        lh += missing.hess;
        const vint64 rg = sc->total.grad - lg, rh = sc->total.hess - lh;
        vdouble hl, hr, gl, gr;
        if (sc->inv_sh != 0.0) { /* four divisions of six saved */
            hl = vto_double(lh) * vsplat(sc->inv_sh);
            hr = vto_double(rh) * vsplat(sc->inv_sh);
            gl = vto_double(lg) * vsplat(sc->inv_sg);
            gr = vto_double(rg) * vsplat(sc->inv_sg);
        } else {
            hl = vto_double(lh) / vsplat(sh);
            hr = vto_double(rh) / vsplat(sh);
            gl = vto_double(lg) / vsplat(sg);
            gr = vto_double(rg) / vsplat(sg);
        }
        vint64 valid = (lh > 0) & (rh > 0) & ~(hl < vsplat(p->min_child_weight)) &
                       ~(hr < vsplat(p->min_child_weight));
        if (sc->rows > 0.0) /* gpl_children_rows_ok's products */
            valid &= ~(vto_double(lh) * vsplat(sc->rows) < vsplat(sc->rows_limit)) &
                     ~(vto_double(rh) * vsplat(sc->rows) < vsplat(sc->rows_limit));
        /* gpl_node_score(gl, hl) + gpl_node_score(gr, hr) - parent */
        const vdouble tl = vl1_threshold(gl, p->alpha), tr = vl1_threshold(gr, p->alpha);
        vdouble sl, sr;
        if (sc->bounded || constraint != 0) {
            vdouble wl, wr;
            vbounded_score(p, &sc->bounds, gl, hl, tl, sl, wl);
            vbounded_score(p, &sc->bounds, gr, hr, tr, sr, wr);
            if (constraint > 0) valid &= ~(wl > wr);
            if (constraint < 0) valid &= ~(wl < wr);
        } else {
            sl = (tl * tl) / (hl + vsplat(p->lambda));
            sr = (tr * tr) / (hr + vsplat(p->lambda));
        }
        vdouble gain = (sl + sr) - vsplat(sc->parent);
        if (constraint != 0) gain = gain * vsplat(p->monotone_gain_factor);
        /* Only a candidate at least as good as the best so far can win
         * (gpl_split_better); most steps have none. */
        const vint64 take = valid & (gain >= vsplat(rec->gain)) & (lane + vsplat(i) < vsplat(count));
        if (!(take[0] | take[1] | take[2] | take[3])) continue;
        for (int32_t k = 0; k < LANES; k++) {
            const int32_t bin = first + i + k + 1;
            if (take[k] && gpl_split_better(gain[k], f, bin, dl, rec->gain,
                                            rec->feature, rec->bin, rec->default_left)) {
                rec->gain = gain[k];
                rec->feature = f;
                rec->bin = bin;
                rec->default_left = dl;
                rec->left = (gpl_grad_pair){lg[k], lh[k]};
                rec->right = (gpl_grad_pair){rg[k], rh[k]};
                rec->categorical = 0;
            }
        }
    }
}

/* Every candidate of feature f, whose histogram is h with bins 0..last_bin
 * (bin 0: missing values). Split b sends value bins 1..b left;
 * b = last_bin sends every value left and only missing values right (the
 * one split a feature with a single value has). The bins go in windows of
 * CPU_ACC_STRIDE, so that a feature of 16-bit codes needs no larger
 * buffers; the best candidate does not depend on the order. */
static void scan_feature(const scan_context *sc, const gpl_grad_pair *h, int32_t last_bin,
                         int32_t f, int constraint, gpl_split_record *rec)
{
    int64_t cum_g[CPU_ACC_STRIDE + LANES], cum_h[CPU_ACC_STRIDE + LANES];
    /* Missing values left: not at b = last_bin (the right child would be
     * empty), and not without missing values (both directions then give
     * the same split, and the tie rule would keep default_left = 0). */
    const gpl_grad_pair missing = h[0];
    const int missing_left = missing.hess != 0 || missing.grad != 0;
    int64_t g = 0, hs = 0;
    for (int32_t first = 0; first < last_bin; first += CPU_ACC_STRIDE) {
        const int32_t n = last_bin - first < CPU_ACC_STRIDE ? last_bin - first : CPU_ACC_STRIDE;
        int32_t i = 0;
        for (; i < n; i++) {
            g += h[first + i + 1].grad;
            hs += h[first + i + 1].hess;
            cum_g[i] = g;
            cum_h[i] = hs;
        }
        for (; i % LANES != 0; i++) cum_g[i] = cum_h[i] = 0;
        scan_candidates(sc, cum_g, cum_h, first, n, (gpl_grad_pair){0, 0}, f, 0, constraint,
                        rec);
        if (missing_left)
            scan_candidates(sc, cum_g, cum_h, first,
                            n < last_bin - 1 - first ? n : last_bin - 1 - first, missing, f, 1,
                            constraint, rec);
    }
}

/* Fails only for want of memory (a wide categorical feature's order). */
static gpulayer_status evaluate_node(const cpu_context *c, const gpl_grad_pair *hist,
                                     const gpl_split_params *p, const uint8_t *mask,
                                     gpl_node_bounds bounds, uint32_t rows,
                                     gpl_split_record *rec)
{
    const uint32_t *off = c->feature_offset;
    /* Any feature's bins add up to the node's total; take feature 0's. */
    gpl_grad_pair total = {0, 0};
    for (uint32_t k = off[0]; k < off[1]; k++) {
        total.grad += hist[k].grad;
        total.hess += hist[k].hess;
    }
    scan_context sc = {
        p, total,
        gpl_bounded_node_score((double)total.grad / p->scale.grad,
                               (double)total.hess / p->scale.hess, p->lambda, p->alpha,
                               p->max_delta_step, bounds.lo, bounds.hi),
        bounds, gpl_weights_may_clamp(p->max_delta_step, bounds.lo, bounds.hi),
        exact_reciprocal(p->scale.grad), exact_reciprocal(p->scale.hess),
        p->min_data_in_leaf > 0.0 ? (double)rows : 0.0,
        p->min_data_in_leaf * (double)total.hess};
    if (sc.inv_sg == 0.0 || sc.inv_sh == 0.0) sc.inv_sg = sc.inv_sh = 0.0;
    rec->feature = -1;
    rec->bin = 0;
    rec->default_left = 0;
    rec->gain = 0.0;
    rec->total = total;
    rec->left = total;
    rec->right = (gpl_grad_pair){0, 0};
    rec->categorical = 0;
    rec->pad = 0;
    memset(rec->left_set, 0, sizeof rec->left_set);
    for (int32_t f = 0; f < c->shape.num_features; f++) {
        if (mask && !mask[f]) continue;
        const int32_t last_bin = (int32_t)(off[f + 1] - off[f]) - 1;
        if (c->categorical && c->categorical[f]) {
            GPL_CHECK(cpu_scan_categorical(p, &bounds, rows, total, hist + off[f], last_bin, f,
                                           rec));
            continue;
        }
        scan_feature(&sc, hist + off[f], last_bin, f, p->monotone ? p->monotone[f] : 0, rec);
    }
    if (!rec->categorical) return GPULAYER_OK;
    /* A wider set than the record's is the core's to rebuild. */
    const int32_t last_bin = (int32_t)(off[rec->feature + 1] - off[rec->feature]) - 1;
    if (gpl_cat_set_words(last_bin) > GPL_CAT_WORDS) return GPULAYER_OK;
    return gpl_cat_left_set(p, hist + off[rec->feature], last_bin, rec->bin, rec->left_set);
}

gpulayer_status cpu_evaluate_splits(gpl_backend *be, const int32_t *nodes,
                                    int32_t num_nodes,
                                    const gpl_split_params *params,
                                    const uint8_t *feature_mask,
                                    gpl_split_record *out)
{
    cpu_context *c = cpu_ctx(be);
    for (int32_t i = 0; i < num_nodes; i++)
        GPL_CHECK(gpl_check_histogram("cpu", "evaluate_splits", GPULAYER_ERR_INTERNAL, &c->slots,
                                      nodes[i]));
    int failed = 0;
    /* One node (the root) on the calling thread: no region, no barrier. */
#pragma omp parallel for num_threads(c->nthread) schedule(dynamic) if (num_nodes > 1)
    for (int32_t i = 0; i < num_nodes; i++) {
        out[i].node = nodes[i];
        if (evaluate_node(c, cpu_node_hist(c, nodes[i]), params, feature_mask,
                          gpl_split_node_bounds(params, i), gpl_split_node_rows(params, i),
                          &out[i]) != GPULAYER_OK) {
#pragma omp atomic write
            failed = 1;
        }
    }
    if (failed)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "cpu backend: evaluate_splits: out of host memory for the order of a "
                         "categorical feature's categories");
    return GPULAYER_OK;
}
