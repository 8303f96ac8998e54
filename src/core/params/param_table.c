/* param_table.c -- the training parameters, one entry each (param_table.h),
 * and the parsers of those that are more than a number in a range. */
#include "param_table.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "interaction.h"
#include "lightgbm_names.h"
#include "monotone.h"

/* ------------------------------------------------ the parameters' own parsers */

/* LightGBM's name of an objective or metric, where value is not one of
 * GPUlayer's: its XGBoost name; or an error that says why there is none
 * (NULL and GPULAYER_OK in *st: not LightGBM's either). */
static const char *lightgbm_name(const char *(*map)(const char *, const char **),
                                 const char *what, const char *value, gpulayer_status *st)
{
    const char *why = NULL;
    const char *name = map(value, &why);
    *st = why ? gpl_error(GPULAYER_ERR_UNSUPPORTED, "%s '%s' (LightGBM's) is not "
                                                    "implemented: %s",
                          what, value, why)
              : GPULAYER_OK;
    return name;
}

static gpulayer_status set_objective(gpl_params *p, const char *key, const char *value)
{
    (void)key;
    gpl_objective_kind kind;
    int as_class;
    gpulayer_status st;
    const char *name = lightgbm_name(gpl_lightgbm_objective, "objective", value, &st);
    if (st != GPULAYER_OK) return st;
    if (!name) name = value;
    GPL_CHECK(gpl_objective_parse(name, &kind, &as_class));
    snprintf(p->objective, sizeof p->objective, "%s", name);
    return GPULAYER_OK;
}

static void get_objective(const gpl_params *p, char *buf, size_t size)
{
    snprintf(buf, size, "%s", p->objective);
}

static gpulayer_status set_base_score(gpl_params *p, const char *key, const char *value)
{
    if (!strcmp(value, "auto")) {
        p->base_score = NAN;
        return GPULAYER_OK;
    }
    return gpl_param_parse_number(key, value, "[-inf, inf]", &p->base_score);
}

static void get_base_score(const gpl_params *p, char *buf, size_t size)
{
    if (isnan(p->base_score)) snprintf(buf, size, "auto");
    else snprintf(buf, size, "%.17g", p->base_score);
}

static gpulayer_status set_seed(gpl_params *p, const char *key, const char *value)
{
    int32_t seed = 0;
    GPL_CHECK(gpl_param_parse_integer(key, value, "0..2147483647", &seed));
    p->seed = (uint64_t)seed;
    return GPULAYER_OK;
}

static void get_seed(const gpl_params *p, char *buf, size_t size)
{
    snprintf(buf, size, "%llu", (unsigned long long)p->seed);
}

static gpulayer_status set_device(gpl_params *p, const char *key, const char *value)
{
    (void)key;
    static const char *const allowed[] = {"auto", "cpu", "cuda", "mps", "vulkan"};
    size_t n = strcspn(value, ":");
    for (size_t i = 0; i < sizeof allowed / sizeof allowed[0]; i++) {
        if (strlen(allowed[i]) == n && !strncmp(value, allowed[i], n) &&
            strlen(value) < sizeof p->device) {
            snprintf(p->device, sizeof p->device, "%s", value);
            return GPULAYER_OK;
        }
    }
    return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                     "parameter device: '%s' is not one of auto, cpu, cuda[:N], "
                     "mps, vulkan", value);
}

static void get_device(const gpl_params *p, char *buf, size_t size)
{
    snprintf(buf, size, "%s", p->device);
}

/* One metric name (XGBoost's or LightGBM's), added unless already there. */
static gpulayer_status add_metric(gpl_params *p, const char *value)
{
    gpl_metric m;
    gpulayer_status st;
    const char *name = lightgbm_name(gpl_lightgbm_metric, "metric", value, &st);
    if (st != GPULAYER_OK) return st;
    /* LightGBM's tweedie: at the training's tweedie_variance_power. */
    if (!strcmp(value, "tweedie")) m = gpl_metric_tweedie_of_objective();
    else GPL_CHECK(gpl_metric_parse(name ? name : value, &m));
    /* By name: error and error@0.7 are two metrics, error@0.5 is error. */
    for (int i = 0; i < p->num_metrics; i++)
        if (!strcmp(p->metrics[i].name, m.name)) return GPULAYER_OK;
    if (p->num_metrics >= GPL_MAX_METRICS)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter eval_metric: at most %d metrics",
                         GPL_MAX_METRICS);
    p->metrics[p->num_metrics++] = m;
    return GPULAYER_OK;
}

/* A metric, or several separated by commas (LightGBM's "auc,binary_logloss"). */
static gpulayer_status set_metric(gpl_params *p, const char *key, const char *value)
{
    (void)key;
    char one[64];
    for (const char *s = value;;) {
        const size_t len = strcspn(s, ",");
        if (len == 0 || len >= sizeof one)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "parameter eval_metric: '%s' is not a metric or a list of them "
                             "separated by commas", value);
        memcpy(one, s, len);
        one[len] = '\0';
        GPL_CHECK(add_metric(p, one));
        if (!s[len]) return GPULAYER_OK;
        s += len + 1;
    }
}

/* The metrics' names, comma separated as they were given ("" when none:
 * the objective's default). */
static void get_metric(const gpl_params *p, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->num_metrics && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? "," : "",
                                p->metrics[i].name);
}

static gpulayer_status set_grow_policy(gpl_params *p, const char *key, const char *value)
{
    (void)key;
    if (!strcmp(value, "depthwise")) p->grow_policy = GPL_GROW_DEPTHWISE;
    else if (!strcmp(value, "lossguide")) p->grow_policy = GPL_GROW_LOSSGUIDE;
    else
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter grow_policy: '%s' is not depthwise or "
                         "lossguide", value);
    return GPULAYER_OK;
}

static void get_grow_policy(const gpl_params *p, char *buf, size_t size)
{
    snprintf(buf, size, "%s", p->grow_policy == GPL_GROW_LOSSGUIDE ? "lossguide" : "depthwise");
}

static gpulayer_status set_monotone_method(gpl_params *p, const char *key, const char *value)
{
    if (!strcmp(value, "basic")) p->monotone_method = GPL_MONOTONE_BASIC;
    else if (!strcmp(value, "intermediate")) p->monotone_method = GPL_MONOTONE_INTERMEDIATE;
    else if (!strcmp(value, "advanced"))
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "parameter %s: 'advanced' is not implemented; use basic or "
                         "intermediate (docs/monotone.md)", key);
    else
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter %s: '%s' is not basic or intermediate", key, value);
    return GPULAYER_OK;
}

static void get_monotone_method(const gpl_params *p, char *buf, size_t size)
{
    snprintf(buf, size, "%s",
             p->monotone_method == GPL_MONOTONE_INTERMEDIATE ? "intermediate" : "basic");
}

static gpulayer_status set_interactions(gpl_params *p, const char *key, const char *value)
{
    (void)key;
    return gpl_interactions_check(value, p->interaction_constraints,
                                  sizeof p->interaction_constraints);
}

static void get_interactions(const gpl_params *p, char *buf, size_t size)
{
    snprintf(buf, size, "%s", p->interaction_constraints);
}

static gpulayer_status set_monotone(gpl_params *p, const char *key, const char *value)
{
    (void)key;
    return gpl_monotone_check(value, p->monotone_constraints, sizeof p->monotone_constraints);
}

static void get_monotone(const gpl_params *p, char *buf, size_t size)
{
    snprintf(buf, size, "%s", p->monotone_constraints);
}

/* XGBoost's one name for two things: the clamp of every leaf's step (0,
 * none, by default) and count:poisson's hessian damping (0.7 by default);
 * a value given sets both. */
static gpulayer_status set_max_delta_step(gpl_params *p, const char *key, const char *value)
{
    double v = 0.0;
    GPL_CHECK(gpl_param_parse_number(key, value, "[0, inf)", &v));
    p->max_delta_step = v;
    p->obj_params.max_delta_step = v;
    return GPULAYER_OK;
}

/* count:poisson's value for it (its record's objective parameter), the
 * clamp's for every other objective. */
static void get_max_delta_step(const gpl_params *p, char *buf, size_t size)
{
    gpl_objective_kind kind;
    int as_class;
    const int poisson = gpl_objective_parse(p->objective, &kind, &as_class) == GPULAYER_OK &&
                        kind == GPL_OBJ_POISSON;
    snprintf(buf, size, "%.17g", poisson ? p->obj_params.max_delta_step : p->max_delta_step);
}

/* hist (and auto, which XGBoost resolves to hist): histograms are what
 * GPUlayer builds; the others are refused with what to write instead. */
static gpulayer_status set_tree_method(gpl_params *p, const char *key, const char *value)
{
    (void)key;
    if (!strcmp(value, "hist") || !strcmp(value, "auto")) {
        snprintf(p->tree_method, sizeof p->tree_method, "%s", value);
        return GPULAYER_OK;
    }
    if (!strcmp(value, "gpu_hist"))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter tree_method: gpu_hist is XGBoost 1's spelling; write "
                         "tree_method=hist with device=cuda (as XGBoost 2 and later do)");
    if (!strcmp(value, "approx") || !strcmp(value, "exact"))
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "parameter tree_method: %s is not implemented; GPUlayer finds splits "
                         "on histograms of binned features (hist), whose max_bin sets the "
                         "resolution",
                         value);
    return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                     "parameter tree_method: '%s' is not hist or auto", value);
}

static void get_tree_method(const gpl_params *p, char *buf, size_t size)
{
    snprintf(buf, size, "%s", p->tree_method);
}

static gpulayer_status set_booster(gpl_params *p, const char *key, const char *value)
{
    (void)p;
    if (!strcmp(value, "gbtree") || !strcmp(value, "gbdt")) return GPULAYER_OK;
    /* LightGBM's forests average trees counted as iterations; a forest here
     * is one round of num_parallel_tree trees (docs/random-forests.md). */
    if (!strcmp(value, "rf"))
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "parameter %s: LightGBM's rf is not implemented; for a random "
                         "forest give num_parallel_tree=N with one round, learning rate 1 "
                         "and row or column sampling (XGBoost's way)", key);
    if (!strcmp(value, "gblinear") || !strcmp(value, "dart") || !strcmp(value, "goss"))
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "parameter %s: %s is not implemented; GPUlayer trains gradient-"
                         "boosted trees (gbtree)",
                         key, value);
    return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                     "parameter %s: '%s' is not gbtree (or gbdt)", key, value);
}

static void get_booster(const gpl_params *p, char *buf, size_t size)
{
    (void)p;
    snprintf(buf, size, "gbtree");
}

static gpulayer_status set_quantile_alpha(gpl_params *p, const char *key, const char *value)
{
    return gpl_objective_parse_alphas(key, value, p->obj_params.quantile_alpha,
                                      &p->obj_params.num_quantiles);
}

static void get_quantile_alpha(const gpl_params *p, char *buf, size_t size)
{
    gpl_objective_format_alphas(p->obj_params.quantile_alpha, p->obj_params.num_quantiles, buf,
                                size);
}

static gpulayer_status set_expectile_alpha(gpl_params *p, const char *key, const char *value)
{
    return gpl_objective_parse_alphas(key, value, p->obj_params.expectile_alpha,
                                      &p->obj_params.num_expectiles);
}

static void get_expectile_alpha(const gpl_params *p, char *buf, size_t size)
{
    gpl_objective_format_alphas(p->obj_params.expectile_alpha, p->obj_params.num_expectiles,
                                buf, size);
}

static gpulayer_status set_pair_method(gpl_params *p, const char *key, const char *value)
{
    (void)key;
    if (!strcmp(value, "topk")) p->obj_params.rank_pair_method = GPL_RANK_TOPK;
    else if (!strcmp(value, "mean")) p->obj_params.rank_pair_method = GPL_RANK_MEAN;
    else
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter lambdarank_pair_method: '%s' is not topk or mean",
                         value);
    return GPULAYER_OK;
}

static void get_pair_method(const gpl_params *p, char *buf, size_t size)
{
    snprintf(buf, size, "%s",
             p->obj_params.rank_pair_method == GPL_RANK_MEAN ? "mean" : "topk");
}

/* The count in use: the one given, else the pair method's default. */
static void get_num_pair(const gpl_params *p, char *buf, size_t size)
{
    snprintf(buf, size, "%d", gpl_objective_rank_request(&p->obj_params).num_pair);
}

/* partition, ordered, or ordered:COL,COL (those columns only). */
static gpulayer_status set_categorical(gpl_params *p, const char *key, const char *value)
{
    (void)key;
    static const char prefix[] = "ordered:";
    if (!strcmp(value, "partition") || !strcmp(value, "ordered")) {
        p->ordered_categories = !strcmp(value, "ordered");
        p->ordered_columns[0] = '\0';
        return GPULAYER_OK;
    }
    if (!strncmp(value, prefix, sizeof prefix - 1) && value[sizeof prefix - 1]) {
        const char *list = value + sizeof prefix - 1;
        if (strlen(list) >= sizeof p->ordered_columns)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "parameter categorical: the column list of '%.40s...' is longer "
                             "than %zu characters", value, sizeof p->ordered_columns - 1);
        if (strpbrk(list, "\"\\"))
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "parameter categorical: '%s': give the columns without quotes "
                             "or backslashes (0-based indexes work for any name)", value);
        p->ordered_categories = 0;
        snprintf(p->ordered_columns, sizeof p->ordered_columns, "%s", list);
        return GPULAYER_OK;
    }
    return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                     "parameter categorical: '%s' is not partition (split by sets of "
                     "categories), ordered (split codes as numbers) or ordered:COL,COL "
                     "(those columns as numbers)", value);
}

static void get_categorical(const gpl_params *p, char *buf, size_t size)
{
    if (p->ordered_columns[0]) snprintf(buf, size, "ordered:%s", p->ordered_columns);
    else snprintf(buf, size, "%s", p->ordered_categories ? "ordered" : "partition");
}

/* ------------------------------------------------------------------ the table */

#define MEMBER(m) offsetof(gpl_params, m)
#define NUMBER GPL_PARAM_NUMBER, NULL
#define INTEGER GPL_PARAM_INTEGER, NULL
#define BOOLEAN GPL_PARAM_BOOLEAN, NULL
#define CUSTOM(type) GPL_PARAM_CUSTOM, type
#define ALL "every objective"
#define RANKING "rank:ndcg, rank:pairwise, rank:map"
#define CATEGORICAL "data with categorical features"

/* name, aliases, group, kind and type, default, range, applies, doc,
 * member, set, get. XGBoost's names, defaults and ranges where it has the
 * parameter; LightGBM's names as aliases where they mean the same thing
 * (not bagging_fraction, which LightGBM applies only with bagging_freq). */
static const gpl_param_spec table[] = {
    {"objective", "", "general", CUSTOM("text"), "reg:squarederror",
     "an objective of docs/objectives.md", ALL,
     "the loss to minimise, and the prediction's link", 0, set_objective, get_objective},
    {"num_round", "num_boost_round,n_estimators,num_iterations,num_iteration,n_iter,num_tree,num_trees,num_rounds,nrounds,max_iter", "general", INTEGER, "10", "0..10000000",
     ALL, "boosting rounds", MEMBER(num_round), NULL, NULL},
    {"eta", "learning_rate,shrinkage_rate", "general", NUMBER, "0.3", "(0, 1e+06]", ALL,
     "step size: each tree's leaf values are scaled by it", MEMBER(eta), NULL, NULL},
    {"base_score", "", "general", CUSTOM("number or auto"), "auto", "auto or a number",
     ALL, "the margin every row starts from; auto: estimated from the labels", 0,
     set_base_score, get_base_score},
    {"num_class", "", "general", INTEGER, "0", "0..65536", "multi:softprob, multi:softmax",
     "the number of classes (labels 0..num_class-1)", MEMBER(num_class), NULL, NULL},
    {"seed", "random_state,random_seed", "general", CUSTOM("integer"), "0", "0..2147483647", ALL,
     "seed of row and column sampling", 0, set_seed, get_seed},
    {"nthread", "n_jobs,num_threads,num_thread,nthreads", "general", INTEGER, "0", "0..4096", ALL,
     "CPU threads; 0: every core; more than the processors: as many as there are, with a "
     "warning", MEMBER(nthread), NULL, NULL},
    {"device", "", "general", CUSTOM("text"), "auto", "auto, cpu, cuda, cuda:N, mps, vulkan",
     ALL, "where to train; auto: the best device the placement rules allow", 0, set_device,
     get_device},
    {"booster", "boosting,boosting_type", "general", CUSTOM("text"), "gbtree",
     "gbtree or LightGBM's gbdt (gblinear, dart, rf, goss refused)",
     ALL, "the model kind: gradient-boosted trees", 0, set_booster, get_booster},
    {"tree_method", "", "general", CUSTOM("text"), "hist",
     "hist or auto (approx, exact refused; gpu_hist: hist with device=cuda)", ALL,
     "how splits are found: on histograms of binned features", 0, set_tree_method,
     get_tree_method},
    {"validate_parameters", "", "general", BOOLEAN, "1", "true or false (1 or 0)", ALL,
     "kept for XGBoost's scripts: unknown parameters are refused either way",
     MEMBER(validate_parameters), NULL, NULL},
    {"verbosity", "", "general", INTEGER, "1", "0..3", ALL,
     "0 silent, 1 warnings, 2 information, 3 debugging", MEMBER(verbosity), NULL, NULL},

    {"max_depth", "", "tree", INTEGER, "6", "0..30", ALL,
     "the deepest level of a tree; 0: no limit (lossguide only)", MEMBER(max_depth), NULL,
     NULL},
    {"max_leaves", "num_leaves,num_leaf,max_leaf_nodes", "tree", INTEGER, "0", "0..1048576", ALL,
     "the most leaves a tree may have; 0: no limit", MEMBER(max_leaves), NULL, NULL},
    {"grow_policy", "", "tree", CUSTOM("text"), "depthwise", "depthwise or lossguide", ALL,
     "depthwise: level by level; lossguide: the leaf of largest gain first", 0,
     set_grow_policy, get_grow_policy},
    {"min_child_weight", "min_sum_hessian_in_leaf,min_sum_hessian_per_leaf,min_sum_hessian,min_hessian", "tree", NUMBER, "1", "[0, inf)", ALL,
     "the hessian sum a child needs for its split to count", MEMBER(min_child_weight), NULL,
     NULL},
    {"min_data_in_leaf", "min_child_samples,min_data_per_leaf,min_data,min_samples_leaf",
     "tree", INTEGER, "0", "0..2147483647", ALL,
     "LightGBM's: the rows each child of a split needs, counted as LightGBM counts them "
     "(the node's rows times the child's share of the node's hessian sum); 0: no limit",
     MEMBER(min_data_in_leaf), NULL, NULL},
    {"lambda", "reg_lambda,lambda_l2", "tree", NUMBER, "1", "[0, inf)", ALL,
     "L2 regularisation of leaf values", MEMBER(lambda), NULL, NULL},
    {"alpha", "reg_alpha,lambda_l1", "tree", NUMBER, "0", "[0, inf)", ALL,
     "L1 regularisation of leaf values", MEMBER(alpha), NULL, NULL},
    {"gamma", "min_split_loss,min_split_gain,min_gain_to_split", "tree", NUMBER, "0", "[0, inf)", ALL,
     "the loss reduction a split needs", MEMBER(gamma), NULL, NULL},
    {"max_bin", "max_bins", "tree", INTEGER, "256", "2..65536", ALL,
     "histogram bins a feature, one of them kept for missing values; more than 256 trains "
     "on the CPU, CUDA and Vulkan (16-bit bin codes)", MEMBER(max_bin), NULL, NULL},
    {"interaction_constraints", "", "tree", CUSTOM("list"), "", "a JSON list of lists of "
     "feature indexes, as [[0,1],[2,3,4]]", ALL,
     "features that may be split on together down a branch", 0, set_interactions,
     get_interactions},
    {"monotone_constraints", "", "tree", CUSTOM("list"), "", "a list of 1, -1 or 0 a "
     "feature, as (1,-1,0); features past the list are free", ALL,
     "1: predictions only rise with the feature; -1: only fall; 0: free", 0, set_monotone,
     get_monotone},
    {"max_delta_step", "", "tree", CUSTOM("number"), "(0; 0.7 for count:poisson)", "[0, inf)",
     ALL,
     "the largest step a leaf may take (before eta); 0: no limit. count:poisson also "
     "damps its hessian by it", 0, set_max_delta_step, get_max_delta_step},
    {"monotone_penalty", "monotone_splits_penalty,ms_penalty", "tree", NUMBER, "0", "[0, inf)",
     "models with monotone_constraints",
     "LightGBM's: no split on a monotone feature in the first floor(p) levels, and less "
     "gain for them below", MEMBER(monotone_penalty), NULL, NULL},
    {"monotone_constraints_method", "monotone_method,mc_method", "tree", CUSTOM("text"),
     "basic", "basic or intermediate", "models with monotone_constraints",
     "LightGBM's: basic bounds children at the midpoint of their weights (XGBoost's "
     "method); intermediate bounds each leaf by its neighbouring leaves' weights and "
     "searches again the leaves whose bounds moved", 0, set_monotone_method,
     get_monotone_method},

    {"subsample", "", "sampling", NUMBER, "1", "(0, 1]", ALL,
     "the share of rows each tree samples", MEMBER(subsample), NULL, NULL},
    {"bagging_fraction", "sub_row,bagging", "sampling", NUMBER, "1", "(0, 1]", ALL,
     "LightGBM's: the share of rows sampled, only with bagging_freq > 0 (subsample is "
     "XGBoost's, drawn every round)", MEMBER(bagging_fraction), NULL, NULL},
    {"bagging_freq", "subsample_freq", "sampling", INTEGER, "0", "0..10000000", ALL,
     "LightGBM's: the rows are drawn anew every this many rounds (of bagging_fraction, or of "
     "subsample); 0: bagging_fraction has no effect and subsample draws every round",
     MEMBER(bagging_freq), NULL, NULL},
    {"colsample_bytree", "feature_fraction,sub_feature", "sampling", NUMBER, "1", "(0, 1]", ALL,
     "the share of features each tree samples", MEMBER(colsample_bytree), NULL, NULL},
    {"colsample_bylevel", "", "sampling", NUMBER, "1", "(0, 1]", ALL,
     "the share of the tree's features each depth level samples", MEMBER(colsample_bylevel),
     NULL, NULL},
    {"colsample_bynode", "feature_fraction_bynode", "sampling", NUMBER, "1", "(0, 1]", ALL,
     "the share of the level's features each node samples", MEMBER(colsample_bynode), NULL,
     NULL},
    {"num_parallel_tree", "", "sampling", INTEGER, "1", "1..100000", ALL,
     "trees a round grows for each output, each on its own sample of rows and features "
     "from the same gradients, their leaves divided by this number (a random forest: "
     "one round, subsample and colsample_bynode below 1)", MEMBER(num_parallel_tree), NULL,
     NULL},

    {"eval_metric", "metric,metrics,metric_types", "evaluation", CUSTOM("text"),
     "(the objective's)",
     "a metric of docs/metrics.md or LightGBM's name of one; several separated by "
     "commas, or given several times", ALL,
     "metric of the evaluation sets; the last one drives early stopping", 0, set_metric,
     get_metric},
    {"disable_default_eval_metric", "", "evaluation", BOOLEAN, "0", "true or false (1 or 0)",
     ALL, "evaluation sets get only the eval_metric given, not the objective's default",
     MEMBER(disable_default_eval_metric), NULL, NULL},
    {"early_stopping_rounds", "early_stopping_round,n_iter_no_change", "evaluation", INTEGER, "0", "0..1073741824", ALL,
     "stop when the last metric of the last evaluation set has not improved for this "
     "many rounds; 0: off", MEMBER(early_stopping_rounds), NULL, NULL},

    {"scale_pos_weight", "", "objective", NUMBER, "1", "(0, inf)",
     "reg:squarederror, reg:squaredlogerror, reg:logistic, binary:logistic, binary:logitraw",
     "rows of label 1 weigh this many times their weight in training (the gradients and "
     "the base score), not in the metrics", MEMBER(scale_pos_weight), NULL, NULL},
    {"tweedie_variance_power", "", "objective", NUMBER, "1.5", "[1, 2)", "reg:tweedie",
     "the variance power: near 1 Poisson-like, near 2 gamma-like",
     MEMBER(obj_params.tweedie_variance_power), NULL, NULL},
    {"huber_slope", "", "objective", NUMBER, "1", "(0, inf)", "reg:pseudohubererror",
     "where the loss turns from quadratic to linear", MEMBER(obj_params.huber_slope), NULL,
     NULL},
    {"quantile_alpha", "", "objective", CUSTOM("number or list"), "0.5",
     "(0, 1), or a list as [0.1,0.5,0.9]", "reg:quantileerror",
     "the quantile; a list trains one output per quantile", 0, set_quantile_alpha,
     get_quantile_alpha},
    {"expectile_alpha", "", "objective", CUSTOM("number or list"), "0.5",
     "(0, 1), or a list as [0.1,0.5,0.9]", "reg:expectileerror",
     "the expectile; a list trains one output per expectile, predictions that never cross",
     0, set_expectile_alpha, get_expectile_alpha},

    {"lambdarank_pair_method", "", "ranking", CUSTOM("text"), "topk", "topk or mean", RANKING,
     "topk: pairs within the top positions; mean: sampled pairs a row", 0, set_pair_method,
     get_pair_method},
    {"lambdarank_num_pair_per_sample", "", "ranking", INTEGER, "(32 for topk, 1 for mean)",
     "1..1048576", RANKING, "the top positions (topk) or the pairs a row (mean)",
     MEMBER(obj_params.rank_num_pair), NULL, get_num_pair},
    {"ndcg_exp_gain", "", "ranking", BOOLEAN, "1", "true or false (1 or 0)", "rank:ndcg",
     "gain 2^grade - 1 instead of the grade", MEMBER(obj_params.ndcg_exp_gain), NULL, NULL},
    {"lambdarank_normalization", "", "ranking", BOOLEAN, "1", "true or false (1 or 0)",
     RANKING, "divide a query's lambdas by its pair count",
     MEMBER(obj_params.rank_normalization), NULL, NULL},
    {"lambdarank_score_normalization", "", "ranking", BOOLEAN, "1", "true or false (1 or 0)",
     RANKING, "divide each pair's delta by the difference of the two scores",
     MEMBER(obj_params.rank_score_normalization), NULL, NULL},
    {"lambdarank_unbiased", "", "ranking", BOOLEAN, "0", "true or false (1 or 0)", RANKING,
     "correct position bias (refused: not implemented)", MEMBER(obj_params.rank_unbiased),
     NULL, NULL},
    {"lambdarank_bias_norm", "", "ranking", NUMBER, "1", "[0, inf)", RANKING,
     "the norm of the position-bias correction", MEMBER(obj_params.rank_bias_norm), NULL,
     NULL},

    {"categorical", "", "categorical", CUSTOM("text"), "partition",
     "partition, ordered or ordered:COL,COL", CATEGORICAL,
     "split categories by sets (partition) or their codes as numbers (ordered)", 0,
     set_categorical, get_categorical},
    {"max_cat_to_onehot", "", "categorical", INTEGER, "4", "0..255", CATEGORICAL,
     "up to this many categories, one category against the rest",
     MEMBER(max_cat_to_onehot), NULL, NULL},
    {"max_cat_threshold", "", "categorical", INTEGER, "64", "1..255", CATEGORICAL,
     "the most categories on the left of a partition split", MEMBER(max_cat_threshold),
     NULL, NULL},
    {"max_categories", "", "categorical", INTEGER, "65535", "2..65535", CATEGORICAL,
     "the most categories a feature split by sets keeps, each its own bin (the most "
     "frequent in training; the rest share one); 255 or less keeps codes in a byte, as "
     "Metal training needs", MEMBER(max_categories), NULL, NULL},
    {"cat_smooth", "", "categorical", NUMBER, "1", "[0, inf)", CATEGORICAL,
     "added to a category's hessian sum when categories are ordered for a partition",
     MEMBER(cat_smooth), NULL, NULL},
    {"cat_l2", "", "categorical", NUMBER, "0", "[0, inf)", CATEGORICAL,
     "added to lambda for partition splits", MEMBER(cat_l2), NULL, NULL},
    {"min_data_per_group", "", "categorical", NUMBER, "10", "[0, inf)", CATEGORICAL,
     "partition splits: rows between two candidates of the category order, and "
     "rows of the categories not in the set (rows counted by hessian share)",
     MEMBER(min_data_per_group), NULL, NULL},
};

int32_t gpl_param_count(void)
{
    return (int32_t)(sizeof table / sizeof table[0]);
}

const gpl_param_spec *gpl_param_at(int32_t index)
{
    return index >= 0 && index < gpl_param_count() ? &table[index] : NULL;
}

/* Non-zero when key is one of the comma-separated names of list. */
static int in_list(const char *list, const char *key)
{
    size_t n = strlen(key);
    for (const char *s = list; *s;) {
        size_t len = strcspn(s, ",");
        if (len == n && !strncmp(s, key, n)) return 1;
        s += len + (s[len] == ',');
    }
    return 0;
}

const gpl_param_spec *gpl_param_find(const char *key)
{
    for (int32_t i = 0; i < gpl_param_count(); i++)
        if (!strcmp(table[i].name, key) || in_list(table[i].aliases, key)) return &table[i];
    return NULL;
}

const char *gpl_param_type(const gpl_param_spec *spec)
{
    switch (spec->kind) {
    case GPL_PARAM_NUMBER: return "number";
    case GPL_PARAM_INTEGER: return "integer";
    case GPL_PARAM_BOOLEAN: return "boolean";
    default: return spec->type;
    }
}

/* Levenshtein distance of a and b[0..nb), at most 63 characters each. */
static int edit_distance(const char *a, const char *b, size_t nb)
{
    enum { MAX = 64 };
    size_t na = strlen(a);
    if (na >= MAX || nb >= MAX) return MAX;
    int row[MAX];
    for (size_t j = 0; j <= nb; j++) row[j] = (int)j;
    for (size_t i = 1; i <= na; i++) {
        int diagonal = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= nb; j++) {
            int above = row[j];
            int best = diagonal + (a[i - 1] != b[j - 1]);
            if (above + 1 < best) best = above + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[nb];
}

/* XGBoost's and LightGBM's parameters GPUlayer does not have, each with
 * the reason and what comes nearest: an error names them instead of
 * calling them unknown. */
static const struct {
    const char *names, *reason;
} not_implemented[] = {
    {"pos_bagging_fraction,neg_bagging_fraction",
     "rows are sampled alike whatever their label: use bagging_fraction or subsample"},
    {"extra_trees,extra_tree", "split thresholds are not drawn at random"},
    {"linear_tree,linear_lambda", "leaves hold constants, not linear models"},
    {"path_smooth", "leaf values are not smoothed towards their parents'"},
    {"sampling_method", "rows are sampled uniformly (subsample)"},
    {"is_unbalance,unbalance,unbalanced_sets", "use scale_pos_weight"},
    {"device_type", "use device (cpu, cuda, vulkan, mps)"},
};

int gpl_param_not_implemented(const char *key, char *buf, size_t size)
{
    for (size_t i = 0; i < sizeof not_implemented / sizeof not_implemented[0]; i++)
        for (const char *s = not_implemented[i].names; *s;) {
            const size_t len = strcspn(s, ",");
            if (strlen(key) == len && !strncmp(key, s, len)) {
                snprintf(buf, size, "%s", not_implemented[i].reason);
                return 1;
            }
            s += len + (s[len] == ',');
        }
    return 0;
}

int gpl_param_suggest(const char *key, char *buf, size_t size)
{
    /* A third of the key's length, at least one and at most three edits:
     * "max_dept" finds max_depth, "eta2" finds eta, "foo" finds nothing. */
    int limit = (int)strlen(key) / 3;
    if (limit < 1) limit = 1;
    if (limit > 3) limit = 3;
    int best = limit + 1;
    for (int32_t i = 0; i < gpl_param_count(); i++) {
        /* The name first, then its aliases, as one comma-separated list. */
        const char *lists[2] = {table[i].name, table[i].aliases};
        for (int l = 0; l < 2; l++) {
            for (const char *s = lists[l]; *s;) {
                size_t len = l == 0 ? strlen(s) : strcspn(s, ",");
                int d = edit_distance(key, s, len);
                if (d < best && len < size) {
                    best = d;
                    snprintf(buf, size, "%.*s", (int)len, s);
                }
                s += len + (s[len] == ',');
            }
        }
    }
    return best <= limit;
}

/* ------------------------------------------------------- numbers in a range */

gpulayer_status gpl_param_parse_number(const char *key, const char *value, const char *range,
                                       double *out)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    /* All of the text: strtod would also skip leading blanks. */
    if (end == value || *end != '\0' || isspace((unsigned char)value[0]) || errno == ERANGE ||
        isnan(v))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter %s: '%s' is not a number", key, value);
    /* range: "[lo, hi]" with ( or ) for an open end. */
    const char *hi_text = strchr(range, ',');
    double lo = strtod(range + 1, NULL), hi = hi_text ? strtod(hi_text + 1, NULL) : INFINITY;
    int lo_open = range[0] == '(', hi_open = range[strlen(range) - 1] == ')';
    if (v < lo || v > hi || (lo_open && v == lo) || (hi_open && v == hi))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter %s: %s is out of range (allowed: %s)", key, value, range);
    *out = v;
    return GPULAYER_OK;
}

gpulayer_status gpl_param_parse_integer(const char *key, const char *value, const char *range,
                                        int32_t *out)
{
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (end == value || *end != '\0' || isspace((unsigned char)value[0]) || errno == ERANGE)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter %s: '%s' is not an integer", key, value);
    /* range: "lo..hi". */
    const char *dots = strstr(range, "..");
    long lo = strtol(range, NULL, 10), hi = dots ? strtol(dots + 2, NULL, 10) : INT32_MAX;
    if (v < lo || v > hi)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter %s: %s is out of range (allowed: %s)", key, value, range);
    *out = (int32_t)v;
    return GPULAYER_OK;
}

/* true/false/1/0, as XGBoost's boolean parameters take them. */
gpulayer_status gpl_param_parse_boolean(const char *key, const char *value, int32_t *out)
{
    if (!strcmp(value, "1") || !strcmp(value, "true") || !strcmp(value, "True")) *out = 1;
    else if (!strcmp(value, "0") || !strcmp(value, "false") || !strcmp(value, "False")) *out = 0;
    else
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter %s: '%s' is not true or false (1 or 0)", key, value);
    return GPULAYER_OK;
}
