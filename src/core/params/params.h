/* params.h -- training parameters (XGBoost's names where one exists). */
#ifndef GPL_PARAMS_H
#define GPL_PARAMS_H

#include <stdint.h>

#include "gpulayer.h"
#include "metric.h"
#include "objective.h"

#define GPL_MAX_METRICS 8

typedef enum gpl_grow_policy {
    GPL_GROW_DEPTHWISE = 0,
    GPL_GROW_LOSSGUIDE = 1
} gpl_grow_policy;

/* LightGBM's monotone_constraints_method (docs/monotone.md). */
typedef enum gpl_monotone_method {
    GPL_MONOTONE_BASIC = 0,        /* XGBoost's: children meet at the midpoint */
    GPL_MONOTONE_INTERMEDIATE = 1  /* bounds from the neighbouring leaves      */
} gpl_monotone_method;

typedef struct gpl_params {
    char objective[32];
    /* Non-zero once objective was set (not its default): continued
     * training otherwise takes the initial model's. */
    int32_t objective_given;
    gpl_objective_params obj_params; /* max_delta_step, quantile_alpha, ... */
    double eta;
    int32_t max_depth;        /* 0 = unlimited (lossguide only)        */
    int32_t max_leaves;       /* 0 = unlimited                         */
    gpl_grow_policy grow_policy;
    double min_child_weight;
    /* LightGBM's: the rows each child of a split needs, counted by
     * hessian share (gpl_children_rows_ok); 0 = no limit. */
    int32_t min_data_in_leaf;
    double lambda;
    double alpha;
    double gamma;
    double subsample;
    /* LightGBM's bagging: bagging_fraction of the rows, drawn anew every
     * bagging_freq rounds; no bagging while bagging_freq is 0. */
    double bagging_fraction;
    int32_t bagging_freq;
    double colsample_bytree;
    double colsample_bylevel; /* of the tree's features, a depth level */
    double colsample_bynode;  /* of the level's features, a node       */
    /* Trees a round grows for each output, each from the round's
     * gradients on its own sample; their leaves share eta (a random
     * forest: one round of many). */
    int32_t num_parallel_tree;
    /* XGBoost's "[[0,1],[2,3,4]]" (interaction.h); "" = none */
    char interaction_constraints[1024];
    /* XGBoost's "(1,-1,0)" (monotone.h); "" = none */
    char monotone_constraints[1024];
    /* The clamp of every leaf's step (before eta); 0 = none. count:poisson's
     * hessian damping (obj_params) follows it when it is set. */
    double max_delta_step;
    /* LightGBM's: gains of splits on monotone features are weighed down
     * near the root (gpl_monotone_penalty_factor); 0 = none. */
    double monotone_penalty;
    gpl_monotone_method monotone_method;
    /* XGBoost's: rows of label 1 weigh this many times their weight in the
     * gradients (gpl_objective_scales_positives); 1 = none. */
    double scale_pos_weight;
    /* XGBoost's names for what GPUlayer always does: tree_method "hist" or
     * "auto" (approx, exact and gpu_hist are refused with the reason),
     * booster gbtree; validate_parameters is kept but unknown parameters
     * are always refused. */
    char tree_method[8];
    int32_t validate_parameters;
    /* Non-zero: evaluation sets get only the eval_metric given, not the
     * objective's default metric. */
    int32_t disable_default_eval_metric;
    int32_t max_bin;          /* 2..256, one bin kept for missing      */
    int32_t num_round;
    uint64_t seed;
    int32_t nthread;          /* 0 = all cores                         */
    double base_score;        /* NaN = estimate from the labels        */
    int32_t num_class;
    int32_t num_metrics;
    gpl_metric metrics[GPL_MAX_METRICS];
    int32_t early_stopping_rounds; /* 0 = off                          */
    char device[32];          /* auto, cpu, cuda, cuda:N, mps, vulkan  */
    int32_t verbosity;        /* 0 silent, 1 warnings, 2 info          */
    /* Categorical features (backend.h, gpl_split_params). ordered_categories
     * non-zero: split them all as ordered numbers (codes) instead of by
     * sets; ordered_columns: only these (names or 0-based indexes, comma
     * separated; "" none). */
    int32_t ordered_categories;
    char ordered_columns[256];
    int32_t max_cat_to_onehot;
    int32_t max_cat_threshold;
    /* A categorical feature split by sets keeps this many categories at
     * most, each its own bin; past it the most frequent in training keep
     * theirs and the rest share one. */
    int32_t max_categories;
    double cat_smooth;
    double cat_l2;
    double min_data_per_group;
} gpl_params;

void gpl_params_default(gpl_params *p);
/* Sets one parameter from text; unknown keys and bad values are errors
 * that name the key, the value and what is allowed. */
gpulayer_status gpl_params_set(gpl_params *p, const char *key,
                               const char *value);
/* Room for the text of any parameter value, terminator included. */
#define GPL_PARAM_TEXT_SIZE 1088

/* The value of key as text in buf; INVALID_ARGUMENT, naming the size
 * needed, when it does not fit (nothing is cut). */
gpulayer_status gpl_params_get(const gpl_params *p, const char *key,
                               char *buf, size_t size);
/* The parameters as a JSON object text (malloc'd), for the model record;
 * with categorical non-zero, the categorical parameters too. */
char *gpl_params_to_json(const gpl_params *p, int categorical);
/* The name of the objective's own parameter (max_delta_step for
 * count:poisson, ...), or NULL when it has none. */
const char *gpl_params_objective_key(const gpl_params *p);

#endif
