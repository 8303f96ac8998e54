/* objective.h -- the objectives by XGBoost's names: their parameters, the
 * transform from margin to prediction, and what training does for each. */
#ifndef GPL_OBJECTIVE_H
#define GPL_OBJECTIVE_H

#include <stdint.h>

#include "backend.h"
#include "error.h"

/* Quantiles (expectiles) one reg:quantileerror (reg:expectileerror) model
 * can fit, one output each. */
#define GPL_MAX_QUANTILES GPL_MAX_OUTPUT_ALPHAS

typedef struct gpl_objective_params {
    double max_delta_step;         /* count:poisson's hessian damping, 0.7 */
    double tweedie_variance_power; /* reg:tweedie, in [1, 2), 1.5          */
    double huber_slope;            /* reg:pseudohubererror, > 0, 1         */
    int32_t num_quantiles;         /* reg:quantileerror: outputs           */
    double quantile_alpha[GPL_MAX_QUANTILES]; /* each in (0, 1), 0.5       */
    int32_t num_expectiles;        /* reg:expectileerror: outputs          */
    double expectile_alpha[GPL_MAX_QUANTILES]; /* each in (0, 1), 0.5      */
    /* rank:ndcg, rank:pairwise, rank:map: XGBoost's lambdarank_* */
    int32_t rank_pair_method;         /* gpl_rank_pair_method: topk          */
    int32_t rank_num_pair;            /* 0: the method's default (32 / 1)    */
    int32_t ndcg_exp_gain;            /* gain 2^grade - 1: 1                 */
    int32_t rank_normalization;       /* lambdarank_normalization: 1         */
    int32_t rank_score_normalization; /* lambdarank_score_normalization: 1   */
    int32_t rank_unbiased;            /* lambdarank_unbiased: 0              */
    double rank_bias_norm;            /* lambdarank_bias_norm: 1             */
} gpl_objective_params;

void gpl_objective_params_default(gpl_objective_params *p);

/* Name -> kind; multi:softmax and multi:softprob are both GPL_OBJ_SOFTMAX
 * and differ in softmax_output_class (may be NULL). The error lists every
 * objective. */
gpulayer_status gpl_objective_parse(const char *name, gpl_objective_kind *kind,
                                    int *softmax_output_class);
const char *gpl_objective_kind_name(gpl_objective_kind kind, int softmax_output_class);
/* A comma-separated list of every objective's name (for messages, help). */
const char *gpl_objective_names(void);

/* The gradient kind the backends compute for a model objective (0..10). */
gpl_objective_kind gpl_objective_gradient_kind(gpl_objective_kind kind);
/* The name of the objective's own parameter (max_delta_step for
 * count:poisson, tweedie_variance_power, huber_slope, quantile_alpha,
 * expectile_alpha), or NULL when it has none. */
const char *gpl_objective_param_name(gpl_objective_kind kind);
/* The gradient request's param for output k (backend.h). */
double gpl_objective_param(gpl_objective_kind kind, const gpl_objective_params *p,
                           int32_t k);
/* Non-zero when training refits each leaf to a quantile of its rows'
 * residuals (reg:absoluteerror, reg:quantileerror), as XGBoost does. The
 * quantile of output k is *alpha. */
int gpl_objective_refits_leaves(gpl_objective_kind kind, const gpl_objective_params *p,
                                int32_t k, double *alpha);
/* The ranking part of a gradient request, with the method's default
 * number of pairs resolved (topk: 32, mean: 1, as XGBoost). */
gpl_rank_request gpl_objective_rank_request(const gpl_objective_params *p);
/* The top-k a ranking objective's default metric and NDCG normaliser use:
 * the topk method's k, or 0 (every position) for the mean method. */
int32_t gpl_objective_rank_topk(const gpl_objective_params *p);

/* Non-zero when the prediction is exp(margin) (Poisson, gamma, Tweedie). */
int gpl_objective_is_log_link(gpl_objective_kind kind);
/* Whether scale_pos_weight applies: XGBoost's regression losses (squared
 * error, squared log error and the logistic objectives), whose rows of
 * label 1 weigh scale_pos_weight times their weight. */
int gpl_objective_scales_positives(gpl_objective_kind kind);

/* Margin -> prediction of one value (not softmax). */
float gpl_objective_transform_one(gpl_objective_kind kind, float margin);
/* Prediction -> margin, for a base_score given in output space (XGBoost
 * 3.2 reads binary:logitraw's as a margin); a value the link cannot take
 * is an error naming the objective and the rule. */
gpulayer_status gpl_objective_margin_of(gpl_objective_kind kind, double score, double *margin);

/* Checks a label for the objective: NULL when valid, else what the
 * objective needs ("labels >= 0", ...). num_class for softmax. */
const char *gpl_objective_label_rule(gpl_objective_kind kind, float label, int32_t num_class);

/* The alphas of an objective with one output an alpha (quantile_alpha of
 * reg:quantileerror, expectile_alpha of reg:expectileerror) and their
 * number in *n; NULL for other objectives. */
const double *gpl_objective_alphas(gpl_objective_kind kind, const gpl_objective_params *p,
                                   int32_t *n);
/* The request's alphas (backend.h) of such an objective, as floats. */
void gpl_objective_request_alphas(gpl_objective_kind kind, const gpl_objective_params *p,
                                  float *alphas);

/* Parses quantile_alpha or expectile_alpha (name): a number or a list
 * "[0.1, 0.5, 0.9]" / "0.1,0.9", into alphas[] and *n. */
gpulayer_status gpl_objective_parse_alphas(const char *name, const char *value,
                                           double *alphas, int32_t *n);
/* The text of an alpha list (a number, or a list in brackets). */
void gpl_objective_format_alphas(const double *alphas, int32_t n, char *buf, size_t size);

#endif
