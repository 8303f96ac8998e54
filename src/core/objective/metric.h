/* metric.h -- evaluation metrics over predictions in output space. */
#ifndef GPL_METRIC_H
#define GPL_METRIC_H

#include <stdint.h>

#include "gpulayer.h"
#include "objective.h"

typedef enum gpl_metric_kind {
    GPL_METRIC_RMSE,
    GPL_METRIC_MAE,
    GPL_METRIC_LOGLOSS,
    GPL_METRIC_ERROR,    /* binary: param is the threshold (0.5)        */
    GPL_METRIC_AUC,
    GPL_METRIC_MLOGLOSS,
    GPL_METRIC_MERROR,
    GPL_METRIC_RMSLE,
    GPL_METRIC_MAPE,
    GPL_METRIC_MPHE,     /* param: the pseudo-Huber slope               */
    GPL_METRIC_POISSON_NLOGLIK,
    GPL_METRIC_GAMMA_NLOGLIK,
    GPL_METRIC_GAMMA_DEVIANCE,
    GPL_METRIC_TWEEDIE_NLOGLIK, /* param: the variance power rho        */
    GPL_METRIC_QUANTILE, /* alphas[], one per output from `output` on  */
    GPL_METRIC_AUCPR,
    GPL_METRIC_NDCG,     /* ranking: over query groups (metric_rank.c)  */
    GPL_METRIC_MAP,
    GPL_METRIC_PRE,
    GPL_METRIC_MSE,      /* LightGBM's l2: rmse before its square root  */
    GPL_METRIC_HUBER,    /* LightGBM's huber; param: where it turns linear */
    GPL_METRIC_AP,       /* LightGBM's average_precision                */
    GPL_METRIC_EXPECTILE, /* alphas[], as quantile's                    */
    GPL_METRIC_COX_NLOGLIK /* survival:cox's (survival.c)               */
} gpl_metric_kind;

/* Room for a metric's name: "tweedie-nloglik@" and a number. */
#define GPL_METRIC_NAME_SIZE 40

/* A metric with its parameter. The name is the one results report (as
 * XGBoost writes it: "error@0.7", "tweedie-nloglik@1.5"); it lives as
 * long as the struct, so results can point at it. */
typedef struct gpl_metric {
    gpl_metric_kind kind;
    double param;
    int32_t output;       /* the first output read (0 but for quantile@) */
    int32_t num_alphas;   /* quantile (expectile): the mean of the pinball */
    double alphas[GPL_MAX_QUANTILES]; /* (expectile) losses of outputs
                                       * output.. at these alphas       */
    int32_t rank_topk;    /* ndcg, map, pre: the top positions scored;
                           * 0: every position                           */
    int32_t rank_minus;   /* the '-' variants: a query with nothing
                           * relevant scores 0 rather than 1             */
    int32_t ndcg_exp_gain; /* ndcg: gain 2^grade - 1 (1) or the grade (0) */
    char name[GPL_METRIC_NAME_SIZE];
} gpl_metric;

/* Parses "rmse", "error@0.7", "tweedie-nloglik@1.5", ...; an unknown name
 * or a parameter out of its range is an error naming the metric and the
 * rule. mphe's slope and quantile's alphas come from the objective's
 * parameters later (gpl_eval_tracker_init). */
gpulayer_status gpl_metric_parse(const char *text, gpl_metric *out);
/* A metric of a kind with its default parameter (error: 0.5; mphe: 1;
 * huber: 0.9, LightGBM's alpha; quantile: alpha 0.5 of output 0; ndcg,
 * map, pre: the top 32). Not for tweedie-nloglik, which needs rho: use
 * gpl_metric_tweedie. */
gpl_metric gpl_metric_of_kind(gpl_metric_kind kind);
gpl_metric gpl_metric_tweedie(double rho);
/* LightGBM's "tweedie" metric: tweedie-nloglik at the training's
 * tweedie_variance_power, which gpl_eval_tracker_init sets (param NaN
 * until then; named "tweedie" so that the parameters read back). */
gpl_metric gpl_metric_tweedie_of_objective(void);
/* The positions ndcg, map and pre score when given without @k: XGBoost
 * 3.2 scores its lambdarank default top k there, not the whole query. */
#define GPL_METRIC_RANK_DEFAULT_K 32
/* A ranking metric (ndcg, map, pre) scoring the top k positions, named as
 * XGBoost names it ("ndcg@10", "map@5-"); k = 0 gives the name without @k
 * ("ndcg", "map-"), which scores the top GPL_METRIC_RANK_DEFAULT_K. */
gpl_metric gpl_metric_rank(gpl_metric_kind kind, int32_t topk, int minus);
/* The metric XGBoost 3.2 reports for a ranking objective given none, of
 * kind ndcg (rank:ndcg, rank:pairwise) or map (rank:map): kind@k with
 * the topk pair method (k = its number of pairs); with mean, "ndcg" over
 * every position (the objective hands its parameters to its metric) and
 * "map" as written (rank:map does not). */
gpl_metric gpl_metric_rank_of_objective(gpl_metric_kind kind, const gpl_objective_params *p);
/* 1 when larger values are better (auc, aucpr, ndcg, map, pre), 0
 * otherwise. */
int gpl_metric_higher_is_better(gpl_metric_kind kind);
/* The list of metric names for messages and help. */
const char *gpl_metric_names(void);

/* Evaluates a metric. pred holds num_rows * num_outputs values in output
 * space (probabilities for logistic/softmax, values for regression),
 * row-major. weight may be NULL. Weighted as XGBoost weights: the sum of
 * weight * loss over the sum of weights. Single-output metrics read the
 * first output of each row (quantile of one alpha: its output). nthread:
 * 0 = default. */
double gpl_metric_eval(const gpl_metric *m, const float *pred,
                       const float *label, const float *weight,
                       int64_t num_rows, int32_t num_outputs, int nthread);
/* The same over query groups: group q is rows group_ptr[q] ..
 * group_ptr[q + 1] (num_groups + 1 offsets from 0 to num_rows). Ranking
 * metrics score each query and average the scores, weighted by the
 * weight of each query's first row; group_ptr NULL makes the whole data
 * one query, as in XGBoost. The other metrics ignore the groups. */
double gpl_metric_eval_groups(const gpl_metric *m, const float *pred,
                              const float *label, const float *weight,
                              int64_t num_rows, int32_t num_outputs,
                              const int64_t *group_ptr, int64_t num_groups,
                              int nthread);

#endif
