/*
 * dist_gradients.c -- the gradient pairs of one tree over every rank's rows.
 *
 * The backends' compute_gradients quantizes with a scale from its own rows
 * (largest |g|, largest h, row count) and samples rows by their local
 * index. Across ranks both must be global, or the ranks' integer
 * histograms would be in different units and the sample would depend on
 * the rank count. So the pairs are computed here with the same shared
 * functions (objective_math.h, quantize.h), scaled by the global maxima
 * and row count, and written to the backend with write_pairs.
 */
#include <math.h>
#include <omp.h>

#include "dist.h"
#include "dist_train.h"
#include "error.h"
#include "objective_math.h"
#include "quantize.h"

/* A row's pair storage holds its float gradients until the scale is known
 * (type punning through a union is defined in C11). */
typedef union grad_slot {
    gpl_grad_pair quantized;
    double value[2];
} grad_slot;

gpulayer_status gpl_dist_gradients(void *user, gpl_backend *be,
                                   const gpl_gradient_request *req,
                                   gpl_quant_scale *scale)
{
    gpl_dist_trainer *dt = user;
    const gpulayer_dataset *ds = dt->train;
    const int64_t N = ds->num_rows, first = dt->first_row;
    const int32_t K = req->num_outputs;
    const float *margins = dt->margins;
    grad_slot *slot = (grad_slot *)dt->pairs;
    /* A round's later trees of a softmax model read only their own class's
     * margins, which no tree of the round has moved yet, and the
     * normalisers of the round's start (backend.h). */
    const int softmax = req->objective == GPL_OBJ_SOFTMAX;
    const int norm_due = gpl_softmax_norm_due(req, &dt->softmax_norm_ready);
    if (!softmax || norm_due) GPL_CHECK(be->ops->get_margins(be, dt->margins));
    if (norm_due) {
        double *norm = dt->softmax_norm;
#pragma omp parallel for num_threads(dt->nthread) schedule(static)
        for (int64_t r = 0; r < N; r++)
            gpl_softmax_normalizer(margins + r * K, K, &norm[2 * r], &norm[2 * r + 1]);
    }
    const double *norm = dt->softmax_norm;
    double max[2] = {0.0, 0.0};
    double max_g = 0.0, max_h = 0.0;
#pragma omp parallel for num_threads(dt->nthread) schedule(static) reduction(max : max_g, max_h)
    for (int64_t r = 0; r < N; r++) {
        double g = 0.0, h = 0.0;
        if (gpl_row_sampled(req->seed, req->round, first + r, req->subsample)) {
            float w = ds->weight ? ds->weight[r] : 1.0f;
            if (softmax)
                gpl_objective_softmax(margins[r * K + req->output], norm[2 * r],
                                      norm[2 * r + 1], req->output, ds->label[r], w, &g, &h);
            else
                gpl_objective_single(req->objective, margins[r * K + req->output],
                                     ds->label[r], w, req->param, &g, &h);
        }
        slot[r].value[0] = g;
        slot[r].value[1] = h;
        if (fabs(g) > max_g) max_g = fabs(g);
        if (h > max_h) max_h = h;
    }
    max[0] = max_g;
    max[1] = max_h;
    gpl_dist_allreduce_f64(max, 2, GPL_DIST_MAX);
    scale->grad = gpl_quant_scale_for(max[0], dt->global_rows);
    scale->hess = gpl_quant_scale_for(max[1], dt->global_rows);
    const double sg = scale->grad, sh = scale->hess;
#pragma omp parallel for num_threads(dt->nthread) schedule(static)
    for (int64_t r = 0; r < N; r++) {
        double g = slot[r].value[0], h = slot[r].value[1];
        slot[r].quantized.grad = gpl_quantize(g, sg);
        slot[r].quantized.hess = gpl_quantize(h, sh);
    }
    return be->ops->write_pairs(be, GPL_ROW_GRADIENTS, dt->pairs);
}
