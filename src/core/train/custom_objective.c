/*
 * custom_objective.c -- training on gradients from the caller.
 *
 * The caller's gradients go through the same sampling (gpl_row_sampled)
 * and quantization (quantize.h: power-of-two scales from the largest |g|
 * and h of the tree's output over all rows) as the backends' own, so a
 * callback with a built-in objective's formula trains that objective's
 * model bits. The pairs reach the backend through write_pairs, which is
 * why a backend without it is refused before training.
 */
#include "custom_objective.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "objective_math.h"
#include "quantize.h"

gpulayer_status gpulayer_booster_set_objective_callback(gpulayer_booster *b,
                                                        gpulayer_objective_callback fn,
                                                        void *user_data)
{
    if (!b)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_booster_set_objective_callback: booster is NULL");
    b->objective_fn = fn;
    b->objective_user = fn ? user_data : NULL;
    return GPULAYER_OK;
}

gpulayer_status gpulayer_booster_set_eval_callback(gpulayer_booster *b,
                                                   gpulayer_eval_callback fn, void *user_data)
{
    if (!b)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_booster_set_eval_callback: booster is NULL");
    b->eval_fn = fn;
    b->eval_user = fn ? user_data : NULL;
    return GPULAYER_OK;
}

gpulayer_status gpulayer_booster_set_best_round(gpulayer_booster *b, int32_t round)
{
    static const char fn[] = "gpulayer_booster_set_best_round";
    if (!b || !b->model)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: %s", fn,
                         b ? "the booster has no model yet" : "booster is NULL");
    const int32_t rounds = gpl_model_num_rounds(b->model);
    if (round < -1 || round >= rounds)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s: round %d is outside the model's rounds 0..%d (-1 clears it)", fn,
                         round, rounds - 1);
    b->model->best_round = round;
    return GPULAYER_OK;
}

gpulayer_status gpl_custom_objective_params(const gpulayer_booster *b, int distributed,
                                            gpl_params *out)
{
    *out = b->params;
    if (!b->objective_fn) return GPULAYER_OK;
    if (distributed)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "a custom objective cannot be used in data-parallel training: its "
                         "gradients would come from each process's rows alone; train in one "
                         "process");
    if (isnan(out->base_score)) out->base_score = 0.5;
    return GPULAYER_OK;
}

gpulayer_status gpl_custom_objective_start(gpl_custom_objective *c, const gpulayer_booster *b,
                                           const gpl_backend *be, int64_t num_rows,
                                           int32_t num_outputs)
{
    memset(c, 0, sizeof *c);
    if (!b->objective_fn) return GPULAYER_OK;
    if (!gpl_backend_has(be, GPL_BACKEND_CAP_WRITE_PAIRS))
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "the %s backend cannot take gradients from the host, which a custom "
                         "objective needs; train on the cpu, cuda or vulkan", be->ops->name);
    const size_t n = (size_t)num_rows * (size_t)num_outputs;
    c->margins = gpl_malloc(sizeof(float) * (n ? n : 1), "margins for a custom objective");
    c->grad = gpl_malloc(sizeof(double) * (n ? n : 1), "custom gradients");
    c->hess = gpl_malloc(sizeof(double) * (n ? n : 1), "custom hessians");
    c->pairs = gpl_malloc(sizeof(gpl_grad_pair) * (size_t)(num_rows ? num_rows : 1),
                          "custom gradient pairs");
    if (!c->margins || !c->grad || !c->hess || !c->pairs) {
        gpl_custom_objective_free(c);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    c->fn = b->objective_fn;
    c->user = b->objective_user;
    c->num_rows = num_rows;
    c->num_outputs = num_outputs;
    return GPULAYER_OK;
}

void gpl_custom_objective_free(gpl_custom_objective *c)
{
    free(c->margins);
    free(c->grad);
    free(c->hess);
    free(c->pairs);
    memset(c, 0, sizeof *c);
}

/* The first value the training cannot use, in row order. */
static gpulayer_status check_values(const gpl_custom_objective *c, int32_t round)
{
    const int32_t K = c->num_outputs;
    const size_t n = (size_t)c->num_rows * (size_t)K;
    for (size_t i = 0; i < n; i++) {
        const double g = c->grad[i], h = c->hess[i];
        const char *what = !isfinite(g) ? "gradient" : !isfinite(h) ? "hessian" : NULL;
        if (!what && !(h >= 0.0)) what = "hessian";
        if (!what) continue;
        const double v = what[0] == 'g' ? g : h;
        char output[48] = "";
        if (K > 1) snprintf(output, sizeof output, " (output %d)", (int)(i % (size_t)K));
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "custom objective, round %d: the %s of row %lld%s is %g; %s", round + 1,
                         what, (long long)(i / (size_t)K), output, v,
                         isfinite(v) ? "hessians must be >= 0" : "values must be finite");
    }
    return GPULAYER_OK;
}

gpulayer_status gpl_custom_gradients(gpl_custom_objective *c, gpl_backend *be,
                                     const gpl_gradient_request *req, gpl_quant_scale *scale)
{
    const int64_t N = c->num_rows;
    const int32_t K = c->num_outputs, k = req->output;
    /* Once a round: a forest's trees all fit the gradients of its start. */
    if (k == 0 && req->parallel_tree == 0) {
        GPL_CHECK(be->ops->get_margins(be, c->margins));
        if (c->fn(c->user, req->round, c->margins, N, K, c->grad, c->hess) != 0)
            return gpl_error(GPULAYER_ERR_INTERRUPTED,
                             "the custom objective stopped training in round %d",
                             req->round + 1);
        GPL_CHECK(check_values(c, req->round));
    }
    double max_g = 0.0, max_h = 0.0;
    for (int64_t r = 0; r < N; r++) {
        if (!gpl_row_sampled(req->seed, gpl_sample_round(req), r, req->subsample)) continue;
        const double g = c->grad[r * K + k], h = c->hess[r * K + k];
        if (fabs(g) > max_g) max_g = fabs(g);
        if (h > max_h) max_h = h;
    }
    scale->grad = gpl_quant_scale_for(max_g, N);
    scale->hess = gpl_quant_scale_for(max_h, N);
    for (int64_t r = 0; r < N; r++) {
        gpl_grad_pair *p = &c->pairs[r];
        if (!gpl_row_sampled(req->seed, gpl_sample_round(req), r, req->subsample)) {
            p->grad = p->hess = 0;
            continue;
        }
        p->grad = gpl_quantize(c->grad[r * K + k], scale->grad);
        p->hess = gpl_quantize(c->hess[r * K + k], scale->hess);
    }
    return be->ops->write_pairs(be, GPL_ROW_GRADIENTS, c->pairs);
}

gpulayer_status gpl_custom_eval(const gpulayer_booster *b, int32_t round, int index,
                                const float *margins, const float *predictions,
                                int64_t num_rows, int32_t num_outputs)
{
    if (!b->eval_fn) return GPULAYER_OK;
    if (b->eval_fn(b->eval_user, round, index, margins, predictions, num_rows, num_outputs) != 0)
        return gpl_error(GPULAYER_ERR_INTERRUPTED,
                         "the evaluation callback stopped training in round %d", round + 1);
    return GPULAYER_OK;
}
