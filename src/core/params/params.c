/* params.c -- training parameters: defaults, and reading and writing them
 * by name through the one table of them (param_table.h). */
#include "params.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "param_table.h"

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
    p->bagging_fraction = 1.0;
    p->colsample_bytree = 1.0;
    p->colsample_bylevel = 1.0;
    p->colsample_bynode = 1.0;
    p->num_parallel_tree = 1;
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
    p->max_categories = 65535;  /* every category, as XGBoost keeps them */
    /* Categories ordered by their leaf weight with lambda's default, and
     * no extra L2: XGBoost's behaviour (docs/categorical.md measures it
     * against LightGBM's 10 and 10). */
    p->cat_smooth = 1.0;
    p->cat_l2 = 0.0;
    /* LightGBM's grouping of the category order, with fewer rows a group
     * than its 100: chosen by the accuracy suite (docs/categorical.md). */
    p->min_data_per_group = 10.0;
    p->scale_pos_weight = 1.0;
    snprintf(p->tree_method, sizeof p->tree_method, "hist");
    p->validate_parameters = 1;
    p->disable_default_eval_metric = 0;
}

gpulayer_status gpl_params_set(gpl_params *p, const char *key,
                               const char *value)
{
    if (!key || !value)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter key and value must not be NULL");
    const gpl_param_spec *spec = gpl_param_find(key);
    if (!spec) {
        char near[160];
        if (gpl_param_not_implemented(key, near, sizeof near))
            return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                             "parameter '%s' is not implemented: %s", key, near);
        if (gpl_param_suggest(key, near, sizeof near))
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "unknown parameter '%s' (did you mean '%s'? 'gpulayer params' "
                             "lists them all)", key, near);
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "unknown parameter '%s' ('gpulayer params' lists them all)", key);
    }
    char *member = (char *)p + spec->offset;
    switch (spec->kind) {
    case GPL_PARAM_NUMBER:
        return gpl_param_parse_number(key, value, spec->range, (double *)(void *)member);
    case GPL_PARAM_INTEGER:
        return gpl_param_parse_integer(key, value, spec->range, (int32_t *)(void *)member);
    case GPL_PARAM_BOOLEAN:
        return gpl_param_parse_boolean(key, value, (int32_t *)(void *)member);
    default: {
        const gpulayer_status st = spec->set(p, key, value);
        if (st == GPULAYER_OK && strcmp(spec->name, "objective") == 0) p->objective_given = 1;
        return st;
    }
    }
}

/* The value of the entry's parameter as text in buf (cut at size bytes). */
static void format_param(const gpl_params *p, const gpl_param_spec *spec, char *buf,
                         size_t size)
{
    const char *member = (const char *)p + spec->offset;
    if (spec->get) spec->get(p, buf, size);
    else if (spec->kind == GPL_PARAM_NUMBER)
        snprintf(buf, size, "%.17g", *(const double *)(const void *)member);
    else
        snprintf(buf, size, "%d", *(const int32_t *)(const void *)member);
}

gpulayer_status gpl_params_get(const gpl_params *p, const char *key, char *buf,
                               size_t size)
{
    if (!buf || !size)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "no output buffer");
    buf[0] = '\0';
    const gpl_param_spec *spec = gpl_param_find(key);
    if (!spec)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "unknown parameter '%s'", key);
    char text[GPL_PARAM_TEXT_SIZE];
    format_param(p, spec, text, sizeof text);
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
        "categorical", "max_cat_to_onehot", "max_cat_threshold", "max_categories",
        "cat_smooth", "cat_l2", "min_data_per_group"};
    enum { MAX_KEYS = 48 };
    const char *list[MAX_KEYS];
    size_t num_keys = 0;
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) list[num_keys++] = keys[i];
    if (p->colsample_bylevel < 1.0) list[num_keys++] = "colsample_bylevel";
    if (p->colsample_bynode < 1.0) list[num_keys++] = "colsample_bynode";
    if (p->num_parallel_tree > 1) list[num_keys++] = "num_parallel_tree";
    if (p->min_data_in_leaf > 0) list[num_keys++] = "min_data_in_leaf";
    if (p->bagging_fraction < 1.0) list[num_keys++] = "bagging_fraction";
    if (p->bagging_freq > 0) list[num_keys++] = "bagging_freq";
    if (p->interaction_constraints[0]) list[num_keys++] = "interaction_constraints";
    if (p->monotone_constraints[0]) list[num_keys++] = "monotone_constraints";
    if (p->monotone_penalty > 0.0) list[num_keys++] = "monotone_penalty";
    if (p->monotone_method != GPL_MONOTONE_BASIC) list[num_keys++] = "monotone_constraints_method";
    if (p->scale_pos_weight != 1.0) list[num_keys++] = "scale_pos_weight";
    if (categorical)
        for (size_t i = 0; i < sizeof categorical_keys / sizeof categorical_keys[0]; i++)
            list[num_keys++] = categorical_keys[i];
    /* The objective's own parameter, when it has one. */
    const char *objective_key = gpl_params_objective_key(p);
    if (objective_key) list[num_keys++] = objective_key;
    if (p->max_delta_step > 0.0 &&
        !(objective_key && !strcmp(objective_key, "max_delta_step")))
        list[num_keys++] = "max_delta_step";
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

int32_t gpulayer_param_count(void)
{
    return gpl_param_count();
}

gpulayer_status gpulayer_param_info_get(int32_t index, gpulayer_param_info *out)
{
    const gpl_param_spec *spec = gpl_param_at(index);
    if (!out || !spec)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter index %d: there are %d parameters", index,
                         gpl_param_count());
    out->name = spec->name;
    out->aliases = spec->aliases;
    out->group = spec->group;
    out->type = gpl_param_type(spec);
    out->default_value = spec->default_value;
    out->range = spec->range;
    out->applies = spec->applies;
    out->doc = spec->doc;
    return GPULAYER_OK;
}
