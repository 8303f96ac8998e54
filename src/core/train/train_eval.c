/* train_eval.c -- the figures each round reports for each evaluation set,
 * and early stopping on the last of them. */
#include "train_eval.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "metric.h"
#include "survival.h"

/* The metric XGBoost 3.2 reports for each objective when none is given
 * (binary:logitraw's logloss reads margins, as XGBoost's does). */
static gpl_metric default_metric(const gpl_model *m)
{
    switch (m->objective) {
    case GPL_OBJ_LOGISTIC:
    case GPL_OBJ_LOGITRAW: return gpl_metric_of_kind(GPL_METRIC_LOGLOSS);
    case GPL_OBJ_HINGE: return gpl_metric_of_kind(GPL_METRIC_ERROR);
    case GPL_OBJ_SOFTMAX: return gpl_metric_of_kind(GPL_METRIC_MLOGLOSS);
    case GPL_OBJ_ABSOLUTE_ERROR: return gpl_metric_of_kind(GPL_METRIC_MAE);
    case GPL_OBJ_POISSON: return gpl_metric_of_kind(GPL_METRIC_POISSON_NLOGLIK);
    case GPL_OBJ_GAMMA: return gpl_metric_of_kind(GPL_METRIC_GAMMA_DEVIANCE);
    case GPL_OBJ_TWEEDIE: return gpl_metric_tweedie(m->obj_params.tweedie_variance_power);
    case GPL_OBJ_SQUARED_LOG_ERROR: return gpl_metric_of_kind(GPL_METRIC_RMSLE);
    case GPL_OBJ_PSEUDO_HUBER: return gpl_metric_of_kind(GPL_METRIC_MPHE);
    case GPL_OBJ_QUANTILE: return gpl_metric_of_kind(GPL_METRIC_QUANTILE);
    case GPL_OBJ_EXPECTILE: return gpl_metric_of_kind(GPL_METRIC_EXPECTILE);
    case GPL_OBJ_COX: return gpl_metric_of_kind(GPL_METRIC_COX_NLOGLIK);
    case GPL_OBJ_RANK_NDCG:
    case GPL_OBJ_RANK_PAIRWISE:
        return gpl_metric_rank_of_objective(GPL_METRIC_NDCG, &m->obj_params);
    case GPL_OBJ_RANK_MAP: return gpl_metric_rank_of_objective(GPL_METRIC_MAP, &m->obj_params);
    case GPL_OBJ_SQUARED_ERROR:
    case GPL_OBJ_REG_LOGISTIC: break;
    }
    return gpl_metric_of_kind(GPL_METRIC_RMSE);
}

static void add_figure(gpl_eval_tracker *t, const gpl_metric *metric)
{
    t->metrics[t->num_metrics++] = *metric;
}

/* A metric's figures, with the parameters it takes from the objective's. */
static gpulayer_status add_metric(gpl_eval_tracker *t, gpl_metric metric, const gpl_model *m)
{
    const gpl_objective_params *op = &m->obj_params;
    if (metric.kind == GPL_METRIC_MPHE) metric.param = op->huber_slope;
    if (metric.kind == GPL_METRIC_TWEEDIE_NLOGLIK && isnan(metric.param))
        metric = gpl_metric_tweedie(op->tweedie_variance_power);
    if (metric.kind == GPL_METRIC_NDCG) metric.ndcg_exp_gain = op->ndcg_exp_gain;
    const int expectile = metric.kind == GPL_METRIC_EXPECTILE;
    if (metric.kind != GPL_METRIC_QUANTILE && !expectile) {
        add_figure(t, &metric);
        return GPULAYER_OK;
    }
    const int32_t K = m->num_outputs;
    const char *name = expectile ? "expectile" : "quantile";
    const gpl_objective_kind kind = expectile ? GPL_OBJ_EXPECTILE : GPL_OBJ_QUANTILE;
    int32_t n;
    const double *alphas = gpl_objective_alphas(kind, op, &n);
    if (n != K)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "metric '%s' needs one %s value per output: "
                         "the model has %d output%s and %s has %d values",
                         name, gpl_objective_param_name(kind), K, K == 1 ? "" : "s",
                         gpl_objective_param_name(kind), n);
    metric.output = 0;
    metric.num_alphas = K;
    memcpy(metric.alphas, alphas, sizeof(double) * (size_t)K);
    for (int32_t k = 0; K > 1 && k < K; k++) {
        gpl_metric one = metric;
        one.output = k;
        one.num_alphas = 1;
        one.alphas[0] = alphas[k];
        snprintf(one.name, sizeof one.name, "%s@%g", name, alphas[k]);
        add_figure(t, &one);
    }
    /* The mean over the alphas last: XGBoost's figure, and the one early
     * stopping reads when quantile is the last metric. */
    add_figure(t, &metric);
    return GPULAYER_OK;
}

gpulayer_status gpl_eval_tracker_init(gpl_eval_tracker *t, const gpl_params *p,
                                      const gpl_model *m, int num_evals)
{
    memset(t, 0, sizeof *t);
    t->best_round = -1;
    if (p->num_metrics == 0 && !p->disable_default_eval_metric)
        GPL_CHECK(add_metric(t, default_metric(m), m));
    for (int i = 0; i < p->num_metrics; i++) GPL_CHECK(add_metric(t, p->metrics[i], m));
    if (t->num_metrics == 0 && p->early_stopping_rounds > 0 && num_evals > 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "early_stopping_rounds needs a metric: disable_default_eval_metric is "
                         "set and no eval_metric is given");
    t->num_evals = num_evals;
    t->early_stopping_rounds = p->early_stopping_rounds;
    t->verbosity = p->verbosity;
    t->results = gpl_calloc((size_t)(num_evals * t->num_metrics + 1),
                            sizeof(gpulayer_eval_result), "evaluation results");
    if (!t->results) return GPULAYER_ERR_OUT_OF_MEMORY;
    return GPULAYER_OK;
}

/* Metric m of evaluation set index; cox-nloglik over the set's order by
 * time, built at its first round. */
static double evaluate(gpl_eval_tracker *t, int index, const gpl_metric *m,
                       const gpulayer_dataset *ds, const float *outputs, int32_t K, int nthread)
{
    const int64_t n = ds->num_rows;
    if (m->kind != GPL_METRIC_COX_NLOGLIK || K != 1 || n <= 0)
        return gpl_metric_eval_groups(m, outputs, ds->label, ds->weight, n, K, ds->group_ptr,
                                      ds->num_groups, nthread);
    if (!t->survival_order &&
        !(t->survival_order = calloc((size_t)t->num_evals, sizeof *t->survival_order)))
        return NAN;
    uint32_t **order = &t->survival_order[index];
    if (!*order && gpl_survival_order_build(ds->label, n, order, NULL) != GPULAYER_OK)
        return NAN;
    return gpl_cox_nloglik_ordered(outputs, ds->label, n, *order);
}

void gpl_eval_tracker_add(gpl_eval_tracker *t, const gpl_model *m, int index,
                          const char *name, const gpulayer_dataset *ds,
                          const float *margins, float *outputs, int nthread)
{
    const int32_t K = m->num_outputs;
    const int64_t n = ds->num_rows;
    memcpy(outputs, margins, sizeof(float) * (size_t)n * (size_t)K);
    /* Metrics read predictions (probabilities, exp(margin), ...), never
     * the class index of multi:softmax. */
    {
        gpl_model view = *m;
        view.softmax_output_class = 0;
#pragma omp parallel for num_threads(nthread) schedule(static)
        for (int64_t r = 0; r < n; r++) gpl_objective_transform(&view, outputs + r * K);
    }
    for (int k = 0; k < t->num_metrics; k++) {
        gpulayer_eval_result *res = &t->results[index * t->num_metrics + k];
        res->data_name = name;
        res->metric_name = t->metrics[k].name;
        res->value = evaluate(t, index, &t->metrics[k], ds, outputs, K, nthread);
    }
    if (index + 1 > t->num_results / (t->num_metrics ? t->num_metrics : 1))
        t->num_results = (index + 1) * t->num_metrics;
}

int gpl_eval_tracker_end_round(gpl_eval_tracker *t, int32_t round,
                               const gpulayer_eval_result **results,
                               int *num_results)
{
    *results = t->results;
    *num_results = t->num_results;
    if (t->num_evals == 0 || t->num_metrics == 0) return 0;
    /* As XGBoost: the last metric of the last evaluation set decides. */
    const gpulayer_eval_result *watched = &t->results[t->num_evals * t->num_metrics - 1];
    const double score = watched->value;
    if (isnan(score) && t->early_stopping_rounds > 0 && !t->warned_nan) {
        t->warned_nan = 1;
        if (t->verbosity >= 1)
            fprintf(stderr,
                    "[gpulayer] warning: early stopping watches %s-%s (the last metric of "
                    "the last evaluation set), which is NaN at round %d; as in XGBoost no "
                    "score improves on a NaN best nor a NaN on any best, and training stops "
                    "%d rounds after the best round (check that set's labels and weights, "
                    "or watch another metric)\n",
                    watched->data_name, watched->metric_name, (int)round,
                    t->early_stopping_rounds);
    }
    int higher = gpl_metric_higher_is_better(t->metrics[t->num_metrics - 1].kind);
    return gpulayer_early_stopping_update(t->early_stopping_rounds, higher, round, score,
                                          &t->best_round, &t->best_score);
}

int gpulayer_early_stopping_update(int32_t rounds, int maximize, int32_t round, double score,
                                   int32_t *best_round, double *best_score)
{
    if (!best_round || !best_score) return 0;
    if (*best_round < 0 || (maximize ? score > *best_score : score < *best_score)) {
        *best_score = score;
        *best_round = round;
    }
    return rounds > 0 && round - *best_round >= rounds;
}

void gpl_eval_tracker_free(gpl_eval_tracker *t)
{
    free(t->results);
    t->results = NULL;
    for (int i = 0; t->survival_order && i < t->num_evals; i++) free(t->survival_order[i]);
    free(t->survival_order);
    t->survival_order = NULL;
}
