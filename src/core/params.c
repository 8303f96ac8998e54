/* params.c -- parsing and validating training parameters. */
#include "params.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "interaction.h"
#include "model.h"

void gpl_params_default(gpl_params *p)
{
    memset(p, 0, sizeof *p);
    snprintf(p->objective, sizeof p->objective, "reg:squarederror");
    p->eta = 0.3;
    p->max_depth = 6;
    p->max_leaves = 0;
    p->grow_policy = GPL_GROW_DEPTHWISE;
    p->min_child_weight = 1.0;
    p->lambda = 1.0;
    p->alpha = 0.0;
    p->gamma = 0.0;
    p->subsample = 1.0;
    p->colsample_bytree = 1.0;
    p->colsample_bylevel = 1.0;
    p->colsample_bynode = 1.0;
    p->max_bin = 256;
    p->num_round = 10;
    p->seed = 0;
    p->nthread = 0;
    p->base_score = NAN;
    gpl_objective_params_default(&p->obj_params);
    p->num_class = 0;
    p->num_metrics = 0;
    p->early_stopping_rounds = 0;
    snprintf(p->device, sizeof p->device, "auto");
    p->verbosity = 1;
    p->ordered_categories = 0;
    p->max_cat_to_onehot = 4;   /* XGBoost's default */
    p->max_cat_threshold = 64;  /* XGBoost's default */
    /* Categories ordered by their leaf weight with lambda's default, and
     * no extra L2: XGBoost's behaviour (docs/categorical.md measures it
     * against LightGBM's 10 and 10). */
    p->cat_smooth = 1.0;
    p->cat_l2 = 0.0;
    p->min_data_per_group = 1.0;
}

static gpulayer_status parse_double(const char *key, const char *value,
                                    double lo, double hi, int lo_open,
                                    double *out)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (end == value || *end != '\0' || errno == ERANGE || isnan(v))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter %s: '%s' is not a number", key, value);
    if (v < lo || v > hi || (lo_open && v == lo))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter %s: %s is out of range (allowed: %s%g, %g])",
                         key, value, lo_open ? "(" : "[", lo, hi);
    *out = v;
    return GPULAYER_OK;
}

static gpulayer_status parse_int(const char *key, const char *value, long lo,
                                 long hi, int32_t *out)
{
    char *end;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (end == value || *end != '\0' || errno == ERANGE)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter %s: '%s' is not an integer", key, value);
    if (v < lo || v > hi)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter %s: %s is out of range (allowed: %ld..%ld)",
                         key, value, lo, hi);
    *out = (int32_t)v;
    return GPULAYER_OK;
}

static gpulayer_status set_metric(gpl_params *p, const char *value)
{
    gpl_metric m;
    GPL_CHECK(gpl_metric_parse(value, &m));
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

static gpulayer_status set_device(gpl_params *p, const char *value)
{
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

/* partition, ordered, or ordered:COL,COL (those columns only). */
static gpulayer_status set_categorical(gpl_params *p, const char *value)
{
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

/* true/false/1/0, as XGBoost's boolean parameters take them. */
static gpulayer_status parse_bool(const char *key, const char *value, int32_t *out)
{
    if (!strcmp(value, "1") || !strcmp(value, "true") || !strcmp(value, "True")) *out = 1;
    else if (!strcmp(value, "0") || !strcmp(value, "false") || !strcmp(value, "False")) *out = 0;
    else
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter %s: '%s' is not true or false (1 or 0)", key, value);
    return GPULAYER_OK;
}

/* XGBoost's lambdarank_* and ndcg_exp_gain. */
static gpulayer_status set_rank_param(gpl_objective_params *op, const char *key,
                                      const char *value)
{
    if (!strcmp(key, "lambdarank_pair_method")) {
        if (!strcmp(value, "topk")) op->rank_pair_method = GPL_RANK_TOPK;
        else if (!strcmp(value, "mean")) op->rank_pair_method = GPL_RANK_MEAN;
        else
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "parameter lambdarank_pair_method: '%s' is not topk or mean",
                             value);
        return GPULAYER_OK;
    }
    if (!strcmp(key, "lambdarank_num_pair_per_sample"))
        return parse_int(key, value, 1, 1 << 20, &op->rank_num_pair);
    if (!strcmp(key, "ndcg_exp_gain")) return parse_bool(key, value, &op->ndcg_exp_gain);
    if (!strcmp(key, "lambdarank_normalization"))
        return parse_bool(key, value, &op->rank_normalization);
    if (!strcmp(key, "lambdarank_score_normalization"))
        return parse_bool(key, value, &op->rank_score_normalization);
    if (!strcmp(key, "lambdarank_unbiased")) return parse_bool(key, value, &op->rank_unbiased);
    if (!strcmp(key, "lambdarank_bias_norm"))
        return parse_double(key, value, 0, INFINITY, 0, &op->rank_bias_norm);
    return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                     "unknown parameter '%s' (see 'gpulayer train --help' for "
                     "the list)", key);
}

gpulayer_status gpl_params_set(gpl_params *p, const char *key,
                               const char *value)
{
    if (!key || !value)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter key and value must not be NULL");
    int32_t i32;
    if (!strcmp(key, "objective")) {
        gpl_objective_kind kind;
        int as_class;
        GPL_CHECK(gpl_objective_parse(value, &kind, &as_class));
        snprintf(p->objective, sizeof p->objective, "%s", value);
        return GPULAYER_OK;
    }
    if (!strcmp(key, "max_delta_step"))
        return parse_double(key, value, 0, INFINITY, 0, &p->obj_params.max_delta_step);
    if (!strcmp(key, "tweedie_variance_power")) {
        GPL_CHECK(parse_double(key, value, 1, 2, 0, &p->obj_params.tweedie_variance_power));
        if (p->obj_params.tweedie_variance_power >= 2.0)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "parameter tweedie_variance_power: '%s' must be in [1, 2)", value);
        return GPULAYER_OK;
    }
    if (!strcmp(key, "huber_slope"))
        return parse_double(key, value, 0, INFINITY, 1, &p->obj_params.huber_slope);
    if (!strcmp(key, "quantile_alpha"))
        return gpl_objective_parse_alphas(value, &p->obj_params);
    if (!strncmp(key, "lambdarank_", 11) || !strcmp(key, "ndcg_exp_gain"))
        return set_rank_param(&p->obj_params, key, value);
    if (!strcmp(key, "eta") || !strcmp(key, "learning_rate"))
        return parse_double(key, value, 0, 1e6, 1, &p->eta);
    if (!strcmp(key, "max_depth"))
        return parse_int(key, value, 0, 30, &p->max_depth);
    if (!strcmp(key, "max_leaves"))
        return parse_int(key, value, 0, 1 << 20, &p->max_leaves);
    if (!strcmp(key, "grow_policy")) {
        if (!strcmp(value, "depthwise")) p->grow_policy = GPL_GROW_DEPTHWISE;
        else if (!strcmp(value, "lossguide")) p->grow_policy = GPL_GROW_LOSSGUIDE;
        else
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "parameter grow_policy: '%s' is not depthwise or "
                             "lossguide", value);
        return GPULAYER_OK;
    }
    if (!strcmp(key, "min_child_weight"))
        return parse_double(key, value, 0, INFINITY, 0, &p->min_child_weight);
    if (!strcmp(key, "lambda") || !strcmp(key, "reg_lambda"))
        return parse_double(key, value, 0, INFINITY, 0, &p->lambda);
    if (!strcmp(key, "alpha") || !strcmp(key, "reg_alpha"))
        return parse_double(key, value, 0, INFINITY, 0, &p->alpha);
    if (!strcmp(key, "gamma") || !strcmp(key, "min_split_loss"))
        return parse_double(key, value, 0, INFINITY, 0, &p->gamma);
    if (!strcmp(key, "subsample"))
        return parse_double(key, value, 0, 1, 1, &p->subsample);
    if (!strcmp(key, "colsample_bytree"))
        return parse_double(key, value, 0, 1, 1, &p->colsample_bytree);
    if (!strcmp(key, "colsample_bylevel"))
        return parse_double(key, value, 0, 1, 1, &p->colsample_bylevel);
    if (!strcmp(key, "colsample_bynode"))
        return parse_double(key, value, 0, 1, 1, &p->colsample_bynode);
    if (!strcmp(key, "interaction_constraints"))
        return gpl_interactions_check(value, p->interaction_constraints,
                                      sizeof p->interaction_constraints);
    if (!strcmp(key, "max_bin"))
        return parse_int(key, value, 2, 256, &p->max_bin);
    if (!strcmp(key, "num_round") || !strcmp(key, "num_boost_round") ||
        !strcmp(key, "n_estimators"))
        return parse_int(key, value, 0, 10000000, &p->num_round);
    if (!strcmp(key, "seed") || !strcmp(key, "random_state")) {
        GPL_CHECK(parse_int(key, value, 0, 2147483647, &i32));
        p->seed = (uint64_t)i32;
        return GPULAYER_OK;
    }
    if (!strcmp(key, "nthread") || !strcmp(key, "n_jobs"))
        return parse_int(key, value, 0, 4096, &p->nthread);
    if (!strcmp(key, "base_score")) {
        if (!strcmp(value, "auto")) {
            p->base_score = NAN;
            return GPULAYER_OK;
        }
        return parse_double(key, value, -INFINITY, INFINITY, 0, &p->base_score);
    }
    if (!strcmp(key, "num_class"))
        return parse_int(key, value, 0, 1 << 16, &p->num_class);
    if (!strcmp(key, "eval_metric")) return set_metric(p, value);
    if (!strcmp(key, "early_stopping_rounds"))
        return parse_int(key, value, 0, 1 << 30, &p->early_stopping_rounds);
    if (!strcmp(key, "device")) return set_device(p, value);
    if (!strcmp(key, "verbosity"))
        return parse_int(key, value, 0, 3, &p->verbosity);
    if (!strcmp(key, "categorical")) return set_categorical(p, value);
    if (!strcmp(key, "max_cat_to_onehot"))
        return parse_int(key, value, 0, 255, &p->max_cat_to_onehot);
    if (!strcmp(key, "max_cat_threshold"))
        return parse_int(key, value, 1, 255, &p->max_cat_threshold);
    if (!strcmp(key, "cat_smooth"))
        return parse_double(key, value, 0, INFINITY, 0, &p->cat_smooth);
    if (!strcmp(key, "cat_l2"))
        return parse_double(key, value, 0, INFINITY, 0, &p->cat_l2);
    if (!strcmp(key, "min_data_per_group"))
        return parse_double(key, value, 0, INFINITY, 0, &p->min_data_per_group);
    return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                     "unknown parameter '%s' (see 'gpulayer train --help' for "
                     "the list)", key);
}

/* The metrics' names, comma separated as they were given ("" when none:
 * the objective's default). */
static void format_metrics(const gpl_params *p, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->num_metrics && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? "," : "",
                                p->metrics[i].name);
}

/* The value of key as text in buf (at most size bytes, cut there). */
static gpulayer_status format_param(const gpl_params *p, const char *key, char *buf,
                                    size_t size)
{
    if (!strcmp(key, "objective")) snprintf(buf, size, "%s", p->objective);
    else if (!strcmp(key, "max_delta_step"))
        snprintf(buf, size, "%.17g", p->obj_params.max_delta_step);
    else if (!strcmp(key, "tweedie_variance_power"))
        snprintf(buf, size, "%.17g", p->obj_params.tweedie_variance_power);
    else if (!strcmp(key, "huber_slope")) snprintf(buf, size, "%.17g", p->obj_params.huber_slope);
    else if (!strcmp(key, "quantile_alpha"))
        gpl_objective_format_alphas(&p->obj_params, buf, size);
    else if (!strcmp(key, "lambdarank_pair_method"))
        snprintf(buf, size, "%s", p->obj_params.rank_pair_method == GPL_RANK_MEAN ? "mean" : "topk");
    else if (!strcmp(key, "lambdarank_num_pair_per_sample"))
        snprintf(buf, size, "%d", gpl_objective_rank_request(&p->obj_params).num_pair);
    else if (!strcmp(key, "ndcg_exp_gain")) snprintf(buf, size, "%d", p->obj_params.ndcg_exp_gain);
    else if (!strcmp(key, "lambdarank_normalization"))
        snprintf(buf, size, "%d", p->obj_params.rank_normalization);
    else if (!strcmp(key, "lambdarank_score_normalization"))
        snprintf(buf, size, "%d", p->obj_params.rank_score_normalization);
    else if (!strcmp(key, "lambdarank_unbiased"))
        snprintf(buf, size, "%d", p->obj_params.rank_unbiased);
    else if (!strcmp(key, "lambdarank_bias_norm"))
        snprintf(buf, size, "%.17g", p->obj_params.rank_bias_norm);
    else if (!strcmp(key, "eta")) snprintf(buf, size, "%.17g", p->eta);
    else if (!strcmp(key, "max_depth")) snprintf(buf, size, "%d", p->max_depth);
    else if (!strcmp(key, "max_leaves")) snprintf(buf, size, "%d", p->max_leaves);
    else if (!strcmp(key, "grow_policy"))
        snprintf(buf, size, "%s", p->grow_policy == GPL_GROW_LOSSGUIDE ? "lossguide" : "depthwise");
    else if (!strcmp(key, "min_child_weight")) snprintf(buf, size, "%.17g", p->min_child_weight);
    else if (!strcmp(key, "lambda")) snprintf(buf, size, "%.17g", p->lambda);
    else if (!strcmp(key, "alpha")) snprintf(buf, size, "%.17g", p->alpha);
    else if (!strcmp(key, "gamma")) snprintf(buf, size, "%.17g", p->gamma);
    else if (!strcmp(key, "subsample")) snprintf(buf, size, "%.17g", p->subsample);
    else if (!strcmp(key, "colsample_bytree")) snprintf(buf, size, "%.17g", p->colsample_bytree);
    else if (!strcmp(key, "colsample_bylevel")) snprintf(buf, size, "%.17g", p->colsample_bylevel);
    else if (!strcmp(key, "colsample_bynode")) snprintf(buf, size, "%.17g", p->colsample_bynode);
    else if (!strcmp(key, "interaction_constraints"))
        snprintf(buf, size, "%s", p->interaction_constraints);
    else if (!strcmp(key, "max_bin")) snprintf(buf, size, "%d", p->max_bin);
    else if (!strcmp(key, "num_round")) snprintf(buf, size, "%d", p->num_round);
    else if (!strcmp(key, "seed")) snprintf(buf, size, "%llu", (unsigned long long)p->seed);
    else if (!strcmp(key, "nthread")) snprintf(buf, size, "%d", p->nthread);
    else if (!strcmp(key, "base_score")) {
        if (isnan(p->base_score)) snprintf(buf, size, "auto");
        else snprintf(buf, size, "%.17g", p->base_score);
    } else if (!strcmp(key, "num_class")) snprintf(buf, size, "%d", p->num_class);
    else if (!strcmp(key, "early_stopping_rounds")) snprintf(buf, size, "%d", p->early_stopping_rounds);
    else if (!strcmp(key, "eval_metric")) format_metrics(p, buf, size);
    else if (!strcmp(key, "device")) snprintf(buf, size, "%s", p->device);
    else if (!strcmp(key, "verbosity")) snprintf(buf, size, "%d", p->verbosity);
    else if (!strcmp(key, "categorical")) {
        if (p->ordered_columns[0]) snprintf(buf, size, "ordered:%s", p->ordered_columns);
        else snprintf(buf, size, "%s", p->ordered_categories ? "ordered" : "partition");
    }
    else if (!strcmp(key, "max_cat_to_onehot")) snprintf(buf, size, "%d", p->max_cat_to_onehot);
    else if (!strcmp(key, "max_cat_threshold")) snprintf(buf, size, "%d", p->max_cat_threshold);
    else if (!strcmp(key, "cat_smooth")) snprintf(buf, size, "%.17g", p->cat_smooth);
    else if (!strcmp(key, "cat_l2")) snprintf(buf, size, "%.17g", p->cat_l2);
    else if (!strcmp(key, "min_data_per_group")) snprintf(buf, size, "%.17g", p->min_data_per_group);
    else
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "unknown parameter '%s'", key);
    return GPULAYER_OK;
}

gpulayer_status gpl_params_get(const gpl_params *p, const char *key, char *buf,
                               size_t size)
{
    if (!buf || !size)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "no output buffer");
    buf[0] = '\0';
    char text[GPL_PARAM_TEXT_SIZE];
    GPL_CHECK(format_param(p, key, text, sizeof text));
    const size_t need = strlen(text) + 1;
    /* A cut value would read as a different one. */
    if (need > size)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "the value of '%s' needs a buffer of %zu bytes, got %zu", key, need,
                         size);
    memcpy(buf, text, need);
    return GPULAYER_OK;
}

const char *gpl_params_objective_key(const gpl_params *p)
{
    gpl_objective_kind kind;
    int as_class;
    if (gpl_objective_parse(p->objective, &kind, &as_class) != GPULAYER_OK) return NULL;
    return gpl_objective_param_name(kind);
}

char *gpl_params_to_json(const gpl_params *p, int categorical)
{
    /* Keys other models' records never held come only where they matter
     * (the sampling ones below 1, the categorical ones for data with
     * categorical features), last: other models' records stay as they
     * were. */
    static const char *const keys[] = {
        "objective", "eta", "max_depth", "max_leaves", "grow_policy",
        "min_child_weight", "lambda", "alpha", "gamma", "subsample",
        "colsample_bytree", "max_bin", "num_round", "seed", "base_score",
        "num_class", "early_stopping_rounds", "device"};
    static const char *const categorical_keys[] = {
        "categorical", "max_cat_to_onehot", "max_cat_threshold", "cat_smooth", "cat_l2",
        "min_data_per_group"};
    enum { MAX_KEYS = 40 };
    const char *list[MAX_KEYS];
    size_t num_keys = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) list[num_keys++] = keys[i];
    if (p->colsample_bylevel < 1.0) list[num_keys++] = "colsample_bylevel";
    if (p->colsample_bynode < 1.0) list[num_keys++] = "colsample_bynode";
    if (p->interaction_constraints[0]) list[num_keys++] = "interaction_constraints";
    if (categorical)
        for (size_t i = 0; i < sizeof categorical_keys / sizeof categorical_keys[0]; i++)
            list[num_keys++] = categorical_keys[i];
    /* The objective's own parameter, when it has one. */
    const char *objective_key = gpl_params_objective_key(p);
    if (objective_key) list[num_keys++] = objective_key;
    size_t cap = 4096, len = 0;
    char *out = gpl_malloc(cap, "parameter record");
    if (!out) return NULL;
    len += (size_t)snprintf(out + len, cap - len, "{");
    for (size_t i = 0; i < num_keys; i++) {
        const char *key = list[i];
        char value[GPL_PARAM_TEXT_SIZE];
        if (gpl_params_get(p, key, value, sizeof value) != GPULAYER_OK) value[0] = '\0';
        len += (size_t)snprintf(out + len, cap - len, "%s\"%s\":\"%s\"",
                                i ? "," : "", key, value);
    }
    snprintf(out + len, cap - len, "}");
    return out;
}
