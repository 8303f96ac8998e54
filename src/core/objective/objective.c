/* objective.c -- the objective table: names, parameters, links and label
 * rules (objective.h); the per-row gradients are in objective_math.h. */
#include "objective.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "det_math.h"

typedef enum link_kind { LINK_IDENTITY, LINK_LOGIT, LINK_LOG, LINK_SOFTMAX, LINK_HINGE } link_kind;

static const struct objective_entry {
    const char *name;
    gpl_objective_kind kind;
    int output_class;
    gpl_objective_kind gradient;
    link_kind link;
} objective_table[] = {
    {"reg:squarederror", GPL_OBJ_SQUARED_ERROR, 0, GPL_OBJ_SQUARED_ERROR, LINK_IDENTITY},
    {"reg:squaredlogerror", GPL_OBJ_SQUARED_LOG_ERROR, 0, GPL_OBJ_SQUARED_LOG_ERROR,
     LINK_IDENTITY},
    {"reg:pseudohubererror", GPL_OBJ_PSEUDO_HUBER, 0, GPL_OBJ_PSEUDO_HUBER, LINK_IDENTITY},
    {"reg:absoluteerror", GPL_OBJ_ABSOLUTE_ERROR, 0, GPL_OBJ_ABSOLUTE_ERROR, LINK_IDENTITY},
    {"reg:quantileerror", GPL_OBJ_QUANTILE, 0, GPL_OBJ_QUANTILE, LINK_IDENTITY},
    {"reg:expectileerror", GPL_OBJ_EXPECTILE, 0, GPL_OBJ_EXPECTILE, LINK_IDENTITY},
    {"reg:logistic", GPL_OBJ_REG_LOGISTIC, 0, GPL_OBJ_LOGISTIC, LINK_LOGIT},
    {"reg:gamma", GPL_OBJ_GAMMA, 0, GPL_OBJ_GAMMA, LINK_LOG},
    {"reg:tweedie", GPL_OBJ_TWEEDIE, 0, GPL_OBJ_TWEEDIE, LINK_LOG},
    {"count:poisson", GPL_OBJ_POISSON, 0, GPL_OBJ_POISSON, LINK_LOG},
    {"binary:logistic", GPL_OBJ_LOGISTIC, 0, GPL_OBJ_LOGISTIC, LINK_LOGIT},
    {"binary:logitraw", GPL_OBJ_LOGITRAW, 0, GPL_OBJ_LOGISTIC, LINK_IDENTITY},
    {"binary:hinge", GPL_OBJ_HINGE, 0, GPL_OBJ_HINGE, LINK_HINGE},
    {"multi:softprob", GPL_OBJ_SOFTMAX, 0, GPL_OBJ_SOFTMAX, LINK_SOFTMAX},
    {"multi:softmax", GPL_OBJ_SOFTMAX, 1, GPL_OBJ_SOFTMAX, LINK_SOFTMAX},
    {"rank:ndcg", GPL_OBJ_RANK_NDCG, 0, GPL_OBJ_RANK_NDCG, LINK_IDENTITY},
    {"rank:pairwise", GPL_OBJ_RANK_PAIRWISE, 0, GPL_OBJ_RANK_PAIRWISE, LINK_IDENTITY},
    {"rank:map", GPL_OBJ_RANK_MAP, 0, GPL_OBJ_RANK_MAP, LINK_IDENTITY},
    {"survival:cox", GPL_OBJ_COX, 0, GPL_OBJ_COX, LINK_LOG},
};
#define NUM_ENTRIES (sizeof objective_table / sizeof objective_table[0])

static const struct objective_entry *entry_of(gpl_objective_kind kind)
{
    for (size_t i = 0; i < NUM_ENTRIES; i++)
        if (objective_table[i].kind == kind) return &objective_table[i];
    return &objective_table[0];
}

void gpl_objective_params_default(gpl_objective_params *p)
{
    memset(p, 0, sizeof *p);
    p->max_delta_step = 0.7; /* XGBoost's for count:poisson */
    p->tweedie_variance_power = 1.5;
    p->huber_slope = 1.0;
    p->rank_pair_method = GPL_RANK_TOPK;
    p->rank_num_pair = 0;
    p->ndcg_exp_gain = 1;
    p->rank_normalization = 1;
    p->rank_score_normalization = 1;
    p->rank_unbiased = 0;
    p->rank_bias_norm = 1.0;
    p->num_quantiles = 1;
    p->quantile_alpha[0] = 0.5;
    p->num_expectiles = 1;
    p->expectile_alpha[0] = 0.5;
}

const char *gpl_objective_names(void)
{
    static char text[512];
    if (!text[0]) {
        size_t len = 0;
        for (size_t i = 0; i < NUM_ENTRIES; i++)
            len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", i ? ", " : "",
                                    objective_table[i].name);
    }
    return text;
}

gpulayer_status gpl_objective_parse(const char *name, gpl_objective_kind *kind,
                                    int *softmax_output_class)
{
    for (size_t i = 0; name && i < NUM_ENTRIES; i++) {
        if (strcmp(name, objective_table[i].name)) continue;
        *kind = objective_table[i].kind;
        if (softmax_output_class) *softmax_output_class = objective_table[i].output_class;
        return GPULAYER_OK;
    }
    return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "unknown objective '%s' (allowed: %s)",
                     name ? name : "(null)", gpl_objective_names());
}

const char *gpl_objective_kind_name(gpl_objective_kind kind, int softmax_output_class)
{
    for (size_t i = 0; i < NUM_ENTRIES; i++)
        if (objective_table[i].kind == kind &&
            objective_table[i].output_class == (softmax_output_class != 0))
            return objective_table[i].name;
    return "unknown";
}

gpl_objective_kind gpl_objective_gradient_kind(gpl_objective_kind kind)
{
    return entry_of(kind)->gradient;
}

const char *gpl_objective_param_name(gpl_objective_kind kind)
{
    switch (kind) {
    case GPL_OBJ_POISSON: return "max_delta_step";
    case GPL_OBJ_TWEEDIE: return "tweedie_variance_power";
    case GPL_OBJ_PSEUDO_HUBER: return "huber_slope";
    case GPL_OBJ_QUANTILE: return "quantile_alpha";
    case GPL_OBJ_EXPECTILE: return "expectile_alpha";
    default: return NULL;
    }
}

double gpl_objective_param(gpl_objective_kind kind, const gpl_objective_params *p, int32_t k)
{
    switch (kind) {
    case GPL_OBJ_POISSON: return p->max_delta_step;
    case GPL_OBJ_TWEEDIE: return p->tweedie_variance_power;
    case GPL_OBJ_PSEUDO_HUBER: return p->huber_slope;
    case GPL_OBJ_QUANTILE:
        return k >= 0 && k < p->num_quantiles ? p->quantile_alpha[k] : p->quantile_alpha[0];
    default: return 0.0;
    }
}

int gpl_objective_refits_leaves(gpl_objective_kind kind, const gpl_objective_params *p,
                                int32_t k, double *alpha)
{
    if (kind == GPL_OBJ_ABSOLUTE_ERROR) {
        *alpha = 0.5;
        return 1;
    }
    if (kind == GPL_OBJ_QUANTILE) {
        *alpha = gpl_objective_param(kind, p, k);
        return 1;
    }
    return 0;
}

int gpl_objective_is_log_link(gpl_objective_kind kind) { return entry_of(kind)->link == LINK_LOG; }

int gpl_objective_scales_positives(gpl_objective_kind kind)
{
    return kind == GPL_OBJ_SQUARED_ERROR || kind == GPL_OBJ_SQUARED_LOG_ERROR ||
           kind == GPL_OBJ_LOGISTIC || kind == GPL_OBJ_REG_LOGISTIC ||
           kind == GPL_OBJ_LOGITRAW;
}

float gpl_objective_transform_one(gpl_objective_kind kind, float margin)
{
    switch (entry_of(kind)->link) {
    case LINK_LOGIT: return (float)gpl_det_sigmoid((double)margin);
    case LINK_LOG: return (float)gpl_det_exp((double)margin);
    case LINK_HINGE: return margin > 0.0f ? 1.0f : 0.0f;
    default: return margin;
    }
}

gpulayer_status gpl_objective_margin_of(gpl_objective_kind kind, double score, double *margin)
{
    const struct objective_entry *e = entry_of(kind);
    if (!isfinite(score))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "base_score=%g must be finite for %s",
                         score, e->name);
    if (e->link == LINK_LOGIT) {
        if (!(score > 0.0 && score < 1.0))
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "base_score=%g must be in (0, 1) for %s", score, e->name);
        *margin = log(score / (1.0 - score));
    } else if (e->link == LINK_LOG) {
        if (!(score > 0.0))
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "base_score=%g must be > 0 for %s (its prediction is exp(margin))",
                             score, e->name);
        *margin = log(score);
    } else {
        *margin = score;
    }
    /* The model keeps the score and its margin as floats; a larger one
     * would be infinite, and every gradient computed from it NaN. */
    if (!(fabs(*margin) <= FLT_MAX) || !(fabs(score) <= FLT_MAX))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "base_score=%g is beyond the range of a float margin for %s", score,
                         e->name);
    return GPULAYER_OK;
}

const char *gpl_objective_label_rule(gpl_objective_kind kind, float y, int32_t num_class)
{
    switch (kind) {
    case GPL_OBJ_LOGISTIC:
    case GPL_OBJ_REG_LOGISTIC:
    case GPL_OBJ_LOGITRAW:
        return y >= 0.0f && y <= 1.0f ? NULL : "labels in [0, 1]";
    case GPL_OBJ_HINGE:
        return y == 0.0f || y == 1.0f ? NULL : "labels 0 or 1";
    case GPL_OBJ_POISSON:
    case GPL_OBJ_TWEEDIE:
        return y >= 0.0f ? NULL : "labels >= 0";
    case GPL_OBJ_GAMMA: return y > 0.0f ? NULL : "labels > 0";
    case GPL_OBJ_SQUARED_LOG_ERROR: return y > -1.0f ? NULL : "labels > -1";
    case GPL_OBJ_RANK_NDCG:
    case GPL_OBJ_RANK_PAIRWISE: return y >= 0.0f ? NULL : "relevance grades >= 0";
    case GPL_OBJ_RANK_MAP: return y == 0.0f || y == 1.0f ? NULL : "relevance 0 or 1";
    case GPL_OBJ_SOFTMAX:
        return y >= 0.0f && y == floorf(y) && y < (float)num_class
                   ? NULL
                   : "integer labels 0..num_class-1";
    default: return NULL;
    }
}

const double *gpl_objective_alphas(gpl_objective_kind kind, const gpl_objective_params *p,
                                   int32_t *n)
{
    if (kind == GPL_OBJ_QUANTILE) {
        *n = p->num_quantiles;
        return p->quantile_alpha;
    }
    if (kind == GPL_OBJ_EXPECTILE) {
        *n = p->num_expectiles;
        return p->expectile_alpha;
    }
    *n = 0;
    return NULL;
}

void gpl_objective_request_alphas(gpl_objective_kind kind, const gpl_objective_params *p,
                                  float *alphas)
{
    int32_t n;
    const double *a = gpl_objective_alphas(kind, p, &n);
    for (int32_t k = 0; k < GPL_MAX_OUTPUT_ALPHAS; k++)
        alphas[k] = a && k < n ? (float)a[k] : 0.0f;
}

gpulayer_status gpl_objective_parse_alphas(const char *name, const char *value,
                                           double *alphas, int32_t *count)
{
    const char *s = value;
    while (*s == ' ') s++;
    int bracket = *s == '[';
    if (bracket) s++;
    int32_t n = 0;
    double parsed[GPL_MAX_QUANTILES];
    for (;;) {
        while (*s == ' ') s++;
        if (bracket && *s == ']' && n == 0) break;
        char *end;
        errno = 0;
        double a = strtod(s, &end);
        if (end == s || errno == ERANGE || !(a > 0.0 && a < 1.0))
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "parameter %s: '%s' is not a number in (0, 1) or a "
                             "list of them such as [0.1, 0.5, 0.9]",
                             name, value);
        if (n == GPL_MAX_QUANTILES)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "parameter %s: more than %d values in '%s'", name,
                             GPL_MAX_QUANTILES, value);
        parsed[n++] = a;
        s = end;
        while (*s == ' ') s++;
        if (*s == ',') {
            s++;
            continue;
        }
        break;
    }
    if (bracket) {
        if (*s != ']')
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "parameter %s: '%s' has no closing ']'", name, value);
        s++;
    }
    while (*s == ' ') s++;
    if (*s || n == 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter %s: '%s' is not a number in (0, 1) or a list "
                         "of them such as [0.1, 0.5, 0.9]",
                         name, value);
    *count = n;
    memcpy(alphas, parsed, sizeof(double) * (size_t)n);
    return GPULAYER_OK;
}

void gpl_objective_format_alphas(const double *alphas, int32_t n, char *buf, size_t size)
{
    if (n == 1) {
        snprintf(buf, size, "%.17g", alphas[0]);
        return;
    }
    size_t len = (size_t)snprintf(buf, size, "[");
    for (int32_t i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%.17g", i ? "," : "", alphas[i]);
    if (len < size) snprintf(buf + len, size - len, "]");
}

gpl_rank_request gpl_objective_rank_request(const gpl_objective_params *p)
{
    gpl_rank_request r;
    memset(&r, 0, sizeof r);
    r.pair_method = p->rank_pair_method;
    r.num_pair = p->rank_num_pair > 0                     ? p->rank_num_pair
                 : p->rank_pair_method == GPL_RANK_MEAN ? 1
                                                        : 32;
    r.exp_gain = p->ndcg_exp_gain;
    r.normalization = p->rank_normalization;
    r.score_normalization = p->rank_score_normalization;
    return r;
}

int32_t gpl_objective_rank_topk(const gpl_objective_params *p)
{
    return p->rank_pair_method == GPL_RANK_TOPK ? gpl_objective_rank_request(p).num_pair : 0;
}
