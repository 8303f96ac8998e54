/* train_setup.c -- the steps of gpulayer_booster_train before its loop:
 * validation, the model's initialisation and loading the backend. */
#include "train_setup.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "binning.h"
#include "categorical.h"
#include "error.h"
#include "grow.h"
#include "predict.h"
#include "label_classes.h"
#include "leaf_refit.h"
#include "objective_math.h"
#include "param_table.h"
#include "rank_groups.h"
#include "survival.h"

static gpulayer_status check_labels(const gpl_params *p, gpl_objective_kind kind,
                                    const gpulayer_dataset *ds, const char *what)
{
    const char *src = ds->source ? ds->source : what;
    if (!ds->label)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s has no labels", src);
    char row[48];
    for (int64_t r = 0; r < ds->num_rows; r++) {
        float y = ds->label[r];
        if (!isfinite(y))
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: %s has a %s label", src,
                             gpl_dataset_row_text(ds, r, row, sizeof row),
                             isnan(y) ? "NaN (missing)" : "infinite");
        const char *rule = gpl_objective_label_rule(kind, y, p->num_class);
        if (rule && kind == GPL_OBJ_SOFTMAX)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "%s: %s has label %g, but %s with num_class=%d "
                             "needs integer labels 0..%d", src,
                             gpl_dataset_row_text(ds, r, row, sizeof row), (double)y,
                             p->objective, p->num_class, p->num_class - 1);
        if (rule)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: %s has label %g, but %s needs %s",
                             src, gpl_dataset_row_text(ds, r, row, sizeof row), (double)y,
                             p->objective, rule);
        if (ds->weight && (!isfinite(ds->weight[r]) || ds->weight[r] < 0.0f))
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "%s: %s has weight %g; weights must be finite "
                             "and >= 0", src, gpl_dataset_row_text(ds, r, row, sizeof row),
                             (double)ds->weight[r]);
    }
    /* Weights of 0 only: a model of nothing, and metrics of 0 / 0. */
    if (ds->weight) {
        int64_t r = 0;
        while (r < ds->num_rows && ds->weight[r] == 0.0f) r++;
        if (r == ds->num_rows)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "%s: every row has weight 0, so there is nothing to learn "
                             "from or to measure", src);
    }
    return GPULAYER_OK;
}

gpulayer_status gpl_train_validate(const gpl_params *p,
                                   const gpulayer_dataset *train,
                                   const gpulayer_dataset *const *evals,
                                   int num_evals)
{
    gpl_objective_kind kind;
    int as_class;
    GPL_CHECK(gpl_objective_parse(p->objective, &kind, &as_class));
    if (p->subsample < 1.0 && p->bagging_fraction < 1.0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "subsample=%g and bagging_fraction=%g both sample rows; give one",
                         p->subsample, p->bagging_fraction);
    if (train->num_rows < 1 || train->num_cols < 1)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "training data %s is empty (%lld rows, %d columns)",
                         train->source ? train->source : "",
                         (long long)train->num_rows, train->num_cols);
    if (kind == GPL_OBJ_SOFTMAX && p->num_class < 2)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s needs num_class >= 2 (got %d)", p->objective,
                         p->num_class);
    if (kind != GPL_OBJ_SOFTMAX && p->num_class > 1)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "num_class=%d was given, but %s is not a multi-class "
                         "objective (use multi:softprob or multi:softmax)",
                         p->num_class, p->objective);
    if (p->grow_policy == GPL_GROW_LOSSGUIDE && p->max_depth == 0 &&
        p->max_leaves == 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "grow_policy=lossguide needs max_leaves or max_depth > 0");
    if (p->grow_policy == GPL_GROW_DEPTHWISE && p->max_depth == 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "grow_policy=depthwise needs max_depth > 0");
    double margin;
    if (!isnan(p->base_score))
        GPL_CHECK(gpl_objective_margin_of(kind, p->base_score, &margin));
    GPL_CHECK(check_labels(p, kind, train, "training data"));
    if (gpl_objective_is_ranking(kind) && p->obj_params.rank_unbiased)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter lambdarank_unbiased: position-bias correction is not "
                         "supported yet (see docs/ranking.md)");
    if (gpl_objective_is_ranking(kind))
        GPL_CHECK(gpl_rank_check(train, kind, &p->obj_params, "training data"));
    for (int i = 0; i < num_evals; i++) {
        if (!evals[i])
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "evaluation set %d is NULL", i);
        /* A metric of no rows is undefined; say so here rather than
         * report NaN each round (prediction data may have no rows). */
        if (evals[i]->num_rows < 1) {
            if (evals[i]->source)
                return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                                 "evaluation set %s has no rows", evals[i]->source);
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "evaluation set %d has no rows", i);
        }
        if (evals[i]->num_cols != train->num_cols)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "evaluation set %s has %d columns, training data %d",
                             evals[i]->source ? evals[i]->source : "",
                             evals[i]->num_cols, train->num_cols);
        GPL_CHECK(check_labels(p, kind, evals[i], "evaluation data"));
        if (gpl_objective_is_ranking(kind))
            GPL_CHECK(gpl_rank_check(evals[i], kind, &p->obj_params, "evaluation data"));
    }
    if (p->early_stopping_rounds > 0 && num_evals == 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "early_stopping_rounds needs at least one evaluation set");
    /* A model's tree count is an int32; the sampling keys round x P too. */
    const int64_t trees =
        (int64_t)p->num_round * p->num_parallel_tree * gpl_train_num_outputs(p);
    if (trees >= INT32_MAX)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "num_round=%d x num_parallel_tree=%d x %d output(s) is %lld trees, "
                         "more than a model holds (%d)", (int)p->num_round,
                         (int)p->num_parallel_tree, (int)gpl_train_num_outputs(p),
                         (long long)trees, INT32_MAX - 1);
    return GPULAYER_OK;
}

/* Row r's weight in training: its own, times scale_pos_weight where the
 * objective scales the rows of label 1. */
static float training_weight(const gpl_params *p, gpl_objective_kind kind,
                             const gpulayer_dataset *ds, int64_t r)
{
    const float w = ds->weight ? ds->weight[r] : 1.0f;
    if (ds->label[r] == 1.0f && gpl_objective_scales_positives(kind))
        return w * (float)p->scale_pos_weight;
    return w;
}

/* -sum(g) / sum(h) of the objective's gradients at margin 0: XGBoost's
 * intercept for the objectives without a closed form (one Newton step). */
static double newton_step_from_zero(const gpl_params *p, gpl_objective_kind kind,
                                    const gpl_objective_params *op, const gpulayer_dataset *ds)
{
    double sg = 0.0, sh = 0.0;
    for (int64_t r = 0; r < ds->num_rows; r++) {
        double g, h;
        gpl_objective_single(gpl_objective_gradient_kind(kind), 0.0f, ds->label[r],
                             training_weight(p, kind, ds, r),
                             gpl_objective_param(kind, op, 0), &g, &h);
        sg += g;
        sh += h;
    }
    return sh > 0.0 ? -sg / sh : 0.0;
}

/* XGBoost's intercepts of a softmax model: the log of each class's share
 * of the weight (at least 1e-6, for a class with no rows), less their
 * mean, as softmax ignores a shift common to every class. */
static gpulayer_status estimate_class_intercepts(const gpl_params *p, gpl_model *m,
                                                 const gpulayer_dataset *ds)
{
    const int32_t K = m->num_outputs;
    double *share = gpl_calloc((size_t)K, sizeof(double), "class intercepts");
    m->base_margins = gpl_calloc((size_t)K, sizeof(float), "class intercepts");
    if (!share || !m->base_margins) {
        free(share);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    double total = 0.0;
    for (int64_t r = 0; r < ds->num_rows; r++) {
        const double w = training_weight(p, m->objective, ds, r);
        share[(int32_t)ds->label[r]] += w;
        total += w;
    }
    double mean = 0.0;
    for (int32_t k = 0; k < K; k++) {
        const double s = total > 0.0 ? share[k] / total : 1.0 / K;
        share[k] = log(s > 1e-6 ? s : 1e-6);
        mean += share[k];
    }
    mean /= K;
    for (int32_t k = 0; k < K; k++) m->base_margins[k] = (float)(share[k] - mean);
    free(share);
    return GPULAYER_OK;
}

/* XGBoost's intercepts of reg:expectileerror: from the weighted mean of
 * the labels, one unregularised Newton step a expectile, kept from
 * crossing; then the margins of the chain (objective_math.h) that give
 * those predictions: the gap to the output before, less the chain's own
 * gap, through the inverse of softplus. With base_score given, every
 * output starts there. */
static gpulayer_status estimate_expectile_intercepts(const gpl_params *p, gpl_model *m,
                                                     const gpulayer_dataset *ds)
{
    const int32_t K = m->num_outputs;
    const double *alpha = m->obj_params.expectile_alpha;
    double out[GPL_MAX_OUTPUT_ALPHAS] = {0};
    const int estimate = isnan(p->base_score);
    double mean = p->base_score;
    if (estimate) {
        double sw = 0.0, swy = 0.0;
        for (int64_t r = 0; r < ds->num_rows; r++) {
            const double w = training_weight(p, m->objective, ds, r);
            sw += w;
            swy += w * ds->label[r];
        }
        mean = sw > 0.0 ? swy / sw : 0.0;
    }
    for (int32_t k = 0; k < K; k++) {
        double sg = 0.0, sh = 0.0;
        for (int64_t r = 0; estimate && r < ds->num_rows; r++) {
            const double w = training_weight(p, m->objective, ds, r);
            const double diff = mean - ds->label[r];
            const double scale = diff >= 0.0 ? 1.0 - alpha[k] : alpha[k];
            sg += scale * diff * w;
            sh += scale * w;
        }
        out[k] = mean + (sh > 0.0 ? -sg / sh : 0.0);
        if (k > 0 && out[k] < out[k - 1]) out[k] = out[k - 1];
    }
    if (!isfinite(out[0]) || fabs(out[0]) > FLT_MAX)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "base_score=%g is beyond the range of a float margin for %s", out[0],
                         gpl_objective_name(m));
    m->base_score = (float)out[0];
    m->base_margin = (float)out[0];
    if (K == 1) return GPULAYER_OK;
    m->base_margins = gpl_calloc((size_t)K, sizeof(float), "expectile intercepts");
    if (!m->base_margins) return GPULAYER_ERR_OUT_OF_MEMORY;
    m->base_margins[0] = (float)out[0];
    for (int32_t k = 1; k < K; k++) {
        double gap = out[k] - out[k - 1] - GPL_EXPECTILE_GAP;
        if (gap < GPL_EXPECTILE_GAP) gap = GPL_EXPECTILE_GAP; /* XGBoost's SoftPlusInv */
        m->base_margins[k] = (float)(gap + log(-expm1(-gap)));
    }
    return GPULAYER_OK;
}

/* The intercept XGBoost estimates, in output space: the weighted mean of
 * the labels (logistic, Poisson, gamma, Tweedie, squared error), their
 * weighted quantile (absolute and quantile error; for several quantiles
 * the mean of theirs, as one intercept serves every output), else one
 * Newton step from 0. */
static gpulayer_status estimate_base_score(const gpl_params *p, gpl_model *m,
                                           const gpulayer_dataset *ds)
{
    double score = p->base_score;
    if (m->objective == GPL_OBJ_SOFTMAX) {
        m->base_score = isnan(score) ? 0.5f : (float)score;
        m->base_margin = isnan(score) ? 0.0f : (float)score;
        return isnan(score) ? estimate_class_intercepts(p, m, ds) : GPULAYER_OK;
    }
    if (m->objective == GPL_OBJ_EXPECTILE) return estimate_expectile_intercepts(p, m, ds);
    const gpl_objective_kind kind = m->objective;
    double alpha;
    if (!isnan(score)) {
        /* as given */
    } else if (gpl_objective_is_ranking(kind)) {
        /* Ranking is invariant to a common shift: XGBoost's stump fit at
         * margin 0 is 0 up to rounding, as every pair's lambdas cancel. */
        score = 0.0;
    } else if (kind == GPL_OBJ_COX) {
        /* So is the partial likelihood: the gradients at margin 0 sum to
         * 0 (each event's 1 / R over its risk set), and XGBoost's stump,
         * exp(0) in output space, is 1 up to rounding. */
        score = 1.0;
    } else if (gpl_objective_refits_leaves(kind, &m->obj_params, 0, &alpha)) {
        float *residual = gpl_malloc(sizeof(float) * (size_t)ds->num_rows, "label quantile");
        float *weight = ds->weight ? gpl_malloc(sizeof(float) * (size_t)ds->num_rows,
                                                "label quantile")
                                   : NULL;
        if (!residual || (ds->weight && !weight)) {
            free(residual);
            free(weight);
            return GPULAYER_ERR_OUT_OF_MEMORY;
        }
        const int32_t K = kind == GPL_OBJ_QUANTILE ? m->obj_params.num_quantiles : 1;
        score = 0.0;
        for (int32_t k = 0; k < K; k++) {
            gpl_objective_refits_leaves(kind, &m->obj_params, k, &alpha);
            memcpy(residual, ds->label, sizeof(float) * (size_t)ds->num_rows);
            if (weight) memcpy(weight, ds->weight, sizeof(float) * (size_t)ds->num_rows);
            score += gpl_weighted_quantile(residual, weight, ds->num_rows, alpha);
        }
        score /= K;
        free(residual);
        free(weight);
        if (isnan(score))
            return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory for base_score");
    } else if (kind == GPL_OBJ_SQUARED_LOG_ERROR || kind == GPL_OBJ_PSEUDO_HUBER ||
               kind == GPL_OBJ_HINGE) {
        score = newton_step_from_zero(p, kind, &m->obj_params, ds);
        if (kind == GPL_OBJ_HINGE) score = score > 0.0 ? 1.0 : 0.0;
    } else {
        double sw = 0.0, swy = 0.0;
        for (int64_t r = 0; r < ds->num_rows; r++) {
            const double w = training_weight(p, kind, ds, r);
            sw += w;
            swy += w * ds->label[r];
        }
        score = sw > 0 ? swy / sw : 0.0;
        if (gpl_objective_gradient_kind(kind) == GPL_OBJ_LOGISTIC && kind != GPL_OBJ_LOGITRAW) {
            if (score < 1e-6) score = 1e-6;
            if (score > 1.0 - 1e-6) score = 1.0 - 1e-6;
        }
        /* All-zero counts: a tiny positive mean keeps the log finite. */
        if (gpl_objective_is_log_link(kind) && score < 1e-6) score = 1e-6;
    }
    double margin;
    GPL_CHECK(gpl_objective_margin_of(kind, score, &margin));
    m->base_score = (float)score;
    m->base_margin = (float)margin;
    return GPULAYER_OK;
}

static gpulayer_status copy_names(gpl_model *m, const gpulayer_dataset *ds)
{
    const int32_t F = ds->num_cols;
    if (ds->feature_names) {
        m->feature_names = calloc((size_t)F, sizeof(char *));
        if (!m->feature_names) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory");
        for (int32_t f = 0; f < F; f++)
            if (ds->feature_names[f] && !(m->feature_names[f] = gpl_strdup(ds->feature_names[f])))
                return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    if (ds->label_classes &&
        !(m->class_names = gpl_category_dict_new(
              (const char *const *)ds->label_classes->names, ds->label_classes->count)))
        return GPULAYER_ERR_OUT_OF_MEMORY;
    if (ds->categories) {
        m->categories = calloc((size_t)F, sizeof(gpl_category_dict *));
        if (!m->categories) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory");
        for (int32_t f = 0; f < F; f++) {
            const gpl_category_dict *src = ds->categories[f];
            if (src && !(m->categories[f] = gpl_category_dict_new(
                             (const char *const *)src->names, src->count)))
                return GPULAYER_ERR_OUT_OF_MEMORY;
        }
    }
    return GPULAYER_OK;
}

gpulayer_status gpl_train_model_init(const gpl_params *p,
                                     const gpulayer_dataset *train,
                                     const gpulayer_dataset *labels,
                                     gpl_bin_cuts *cuts, int nthread,
                                     gpl_model **out)
{
    gpl_model *m = gpl_model_new();
    if (!m) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory for a model");
    if (cuts) {
        m->cuts = *cuts;
        memset(cuts, 0, sizeof *cuts);
    }
    gpl_objective_kind kind;
    int as_class;
    gpulayer_status st = gpl_objective_parse(p->objective, &kind, &as_class);
    m->objective = kind;
    m->softmax_output_class = as_class;
    m->obj_params = p->obj_params;
    m->num_outputs = gpl_train_num_outputs(p);
    m->num_class = kind == GPL_OBJ_SOFTMAX ? m->num_outputs : 1;
    m->num_features = train->num_cols;
    m->num_parallel_tree = p->num_parallel_tree;
    m->best_round = -1;
    if (st == GPULAYER_OK) st = estimate_base_score(p, m, labels ? labels : train);
    if (st == GPULAYER_OK) st = copy_names(m, train);
    if (st == GPULAYER_OK && !cuts)
        st = gpl_bin_cuts_build(train, p->max_bin, nthread, &m->cuts);
    if (st == GPULAYER_OK) st = gpl_categorical_setup(p, train, labels != NULL, m);
    if (st == GPULAYER_OK &&
        !(m->params_json = gpl_params_to_json(p, m->categories != NULL)))
        st = GPULAYER_ERR_OUT_OF_MEMORY;
    if (st != GPULAYER_OK) {
        gpl_model_free(m);
        return st;
    }
    *out = m;
    return GPULAYER_OK;
}

/* The first feature name that differs between the model and the data, or
 * -1 (unnamed features match any name). */
static int32_t first_name_difference(const gpl_model *m, const gpulayer_dataset *ds)
{
    if (!m->feature_names || !ds->feature_names) return -1;
    for (int32_t f = 0; f < m->num_features; f++)
        if (m->feature_names[f] && ds->feature_names[f] &&
            strcmp(m->feature_names[f], ds->feature_names[f]) != 0)
            return f;
    return -1;
}

gpulayer_status gpl_train_adopt_objective(gpl_params *p, const gpl_model *init)
{
    if (p->objective_given) return GPULAYER_OK;
    char recorded[256], now[256];
    for (int32_t i = 0; i < gpl_param_count(); i++) {
        const gpl_param_spec *spec = gpl_param_at(i);
        const int core = strcmp(spec->name, "objective") == 0 ||
                         strcmp(spec->name, "num_class") == 0;
        if (!core && strcmp(spec->group, "objective") != 0) continue;
        gpl_model_record_param(init, spec->name, recorded, sizeof recorded);
        if (!recorded[0]) continue;
        if (!core) {
            GPL_CHECK(gpl_params_get(p, spec->name, now, sizeof now));
            if (strcmp(now, spec->default_value) != 0) continue; /* the caller's */
        }
        const gpulayer_status st = gpl_params_set(p, spec->name, recorded);
        if (st != GPULAYER_OK) {
            char why[256];
            snprintf(why, sizeof why, "%s", gpl_error_message());
            return gpl_error(st, "continued training: the initial model's %s '%s' cannot be "
                                 "used: %s", spec->name, recorded, why);
        }
    }
    p->objective_given = 0;
    return GPULAYER_OK;
}

gpulayer_status gpl_train_model_continue(const gpl_params *p,
                                         const gpulayer_dataset *train,
                                         const gpl_model *init, gpl_model **out)
{
    /* An imported model's cuts are only its trees' thresholds (a feature
     * never split has none): new trees could split nowhere else, so they
     * would be far worse than the source library's, without a word. */
    char imported[128];
    gpl_model_record_param(init, "imported_from", imported, sizeof imported);
    if (imported[0])
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "continued training: the initial model was imported from %s; its "
                         "bin cuts are only the thresholds its trees split at, so new trees "
                         "could split nowhere else; continue its training where it was "
                         "trained, or train a GPUlayer model on the data", imported);
    gpl_objective_kind kind;
    int as_class;
    GPL_CHECK(gpl_objective_parse(p->objective, &kind, &as_class));
    const int32_t outputs = gpl_train_num_outputs(p);
    if (kind != init->objective || as_class != init->softmax_output_class ||
        outputs != init->num_outputs) {
        char num_class[32] = "";
        if (init->objective == GPL_OBJ_SOFTMAX)
            snprintf(num_class, sizeof num_class, ", num_class=%d", (int)init->num_class);
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "continued training: the initial model has objective %s with %d "
                         "output(s), the parameters ask for %s with %d; give the model's "
                         "(objective=%s%s)",
                         gpl_objective_name(init), (int)init->num_outputs, p->objective,
                         (int)outputs, gpl_objective_name(init), num_class);
    }
    if (p->num_parallel_tree != init->num_parallel_tree)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "continued training: the initial model grows %d tree(s) a round "
                         "and output, the parameters ask for num_parallel_tree=%d; give the "
                         "model's (num_parallel_tree=%d)", (int)init->num_parallel_tree,
                         (int)p->num_parallel_tree, (int)init->num_parallel_tree);
    if (train->num_cols != init->num_features)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "continued training: the initial model has %d features, the "
                         "training data %d columns",
                         (int)init->num_features, (int)train->num_cols);
    const int32_t f = first_name_difference(init, train);
    if (f >= 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "continued training: feature %d is '%s' in the initial model but "
                         "'%s' in the training data (both have %d features)",
                         (int)f, init->feature_names[f], train->feature_names[f],
                         (int)init->num_features);
    /* Codes without names may be the model's classes; other names are not. */
    if (init->class_names && train->label_classes &&
        !gpl_label_classes_equal(init->class_names, train->label_classes))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "continued training: the training data's class names are not the "
                         "initial model's ('%s', ... %d of them)", init->class_names->names[0],
                         (int)init->class_names->count);
    /* New trees without the model's constraints would break them. */
    char kept[sizeof p->monotone_constraints];
    gpl_model_record_param(init, "monotone_constraints", kept, sizeof kept);
    if (strcmp(kept, p->monotone_constraints) != 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "continued training: the initial model was trained with "
                         "monotone_constraints %s, the parameters give %s; give the model's, "
                         "or the model as a whole would not keep them",
                         kept[0] ? kept : "(none)",
                         p->monotone_constraints[0] ? p->monotone_constraints : "none");
    if (init->categories || train->categories)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "continued training of models with categorical features is not "
                         "supported yet; train the model again with every round");
    gpl_model *m = NULL;
    GPL_CHECK(gpl_model_copy(init, &m));
    gpl_params total = *p;
    total.num_round = gpl_model_num_rounds(init) + p->num_round;
    m->obj_params = p->obj_params;
    m->best_round = -1;
    free(m->params_json);
    if (!(m->params_json = gpl_params_to_json(&total, 0))) {
        gpl_model_free(m);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    *out = m;
    return GPULAYER_OK;
}

gpl_objective_kind gpl_train_objective(const gpl_model *m)
{
    return gpl_objective_gradient_kind(m->objective);
}

/* The query groups, for a backend that computes ranking gradients. */
static gpulayer_status load_groups(gpl_backend *be, const gpl_model *m,
                                   const gpulayer_dataset *train)
{
    if (!gpl_backend_has(be, GPL_BACKEND_CAP_RANK_GROUPS))
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "%s: the %s backend does not compute ranking gradients (see "
                         "docs/support-matrix.md); train with device=cpu, cuda or vulkan",
                         gpl_objective_name(m), be->ops->name);
    gpl_rank_tables tables;
    GPL_CHECK(gpl_rank_tables_build(train, &m->obj_params, &tables));
    gpulayer_status st = be->ops->set_groups(be, &tables.groups);
    gpl_rank_tables_free(&tables);
    return st;
}

/* survival:cox's order of the rows by time, for a backend that computes
 * its gradients. */
static gpulayer_status load_survival_order(gpl_backend *be, const gpulayer_dataset *train)
{
    if (!gpl_backend_has(be, GPL_BACKEND_CAP_SURVIVAL_ORDER))
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "survival:cox: the %s backend does not compute its gradients (see "
                         "docs/support-matrix.md); train with device=cpu, cuda or vulkan",
                         be->ops->name);
    gpl_survival_order o;
    uint32_t *order, *tie_start;
    GPL_CHECK(gpl_survival_order_build(train->label, train->num_rows, &order, &tie_start));
    o.order = order;
    o.tie_start = tie_start;
    gpulayer_status st = be->ops->set_survival_order(be, &o);
    free(order);
    free(tie_start);
    return st;
}

/* The rows' training weights (training_weight) when scale_pos_weight
 * changes any, else NULL with *out the data's own. */
static gpulayer_status scaled_weights(const gpl_params *p, const gpl_model *m,
                                      const gpulayer_dataset *train, float **owned,
                                      const float **out)
{
    *owned = NULL;
    *out = train->weight;
    if (p->scale_pos_weight == 1.0 || !gpl_objective_scales_positives(m->objective))
        return GPULAYER_OK;
    float *w = gpl_malloc(sizeof(float) * (size_t)(train->num_rows ? train->num_rows : 1),
                          "row weights with scale_pos_weight");
    if (!w) return GPULAYER_ERR_OUT_OF_MEMORY;
    for (int64_t r = 0; r < train->num_rows; r++)
        w[r] = training_weight(p, m->objective, train, r);
    *owned = w;
    *out = w;
    return GPULAYER_OK;
}

/* The categorical feature split by sets with the most value bins past
 * 255, or -1 when none has more. */
static int32_t widest_category_set(const gpl_model *m)
{
    int32_t widest = -1;
    uint32_t most = 254; /* cuts of 255 value bins */
    for (int32_t f = 0; m->cat_split && f < m->num_features; f++) {
        const uint32_t cuts = m->cuts.cut_ptr[f + 1] - m->cuts.cut_ptr[f];
        if (m->cat_split[f] && cuts > most) {
            widest = f;
            most = cuts;
        }
    }
    return widest;
}

unsigned gpl_train_needs(const gpl_model *m)
{
    if (gpl_bin_code_bytes(&m->cuts) == 1) return 0;
    return GPL_BACKEND_CAP_WIDE_BINS |
           (widest_category_set(m) >= 0 ? GPL_BACKEND_CAP_WIDE_CATEGORIES : 0u);
}

/* OK when be trains on these bins; else UNSUPPORTED, naming the feature. */
static gpulayer_status check_backend_takes(const gpl_backend *be, const gpl_model *m)
{
    GPL_CHECK(gpl_bin_codes_supported(&m->cuts, be, GPL_BACKEND_CAP_WIDE_BINS, "training"));
    const int32_t f = widest_category_set(m);
    if (f < 0 || gpl_backend_has(be, GPL_BACKEND_CAP_WIDE_CATEGORIES)) return GPULAYER_OK;
    return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                     "training on the %s backend: categorical feature %d has %u categories, "
                     "but this backend splits at most 255 categories a feature by sets; set "
                     "max_categories 255 or less (the rarest share a bin), split it as "
                     "ordered codes (categorical=ordered:%d), or use device cpu",
                     be->ops->name, (int)f, m->cuts.cut_ptr[f + 1] - m->cuts.cut_ptr[f] + 1,
                     (int)f);
}

gpulayer_status gpl_train_backend_load(gpl_backend *be, const gpl_params *p,
                                       const gpl_model *m, const gpulayer_dataset *train,
                                       const uint8_t *bins, const uint32_t *feature_offset,
                                       int nthread, float **weights_kept)
{
    GPL_CHECK(check_backend_takes(be, m));
    const int code_bytes = gpl_bin_code_bytes(&m->cuts);
    gpl_binned_matrix bm = {train->num_rows, train->num_cols, bins, feature_offset,
                            m->cat_split, code_bytes};
    const float *weight;
    GPL_CHECK(scaled_weights(p, m, train, weights_kept, &weight));
    GPL_CHECK(be->ops->upload(be, &bm, train->label, weight));
    if (gpl_objective_is_ranking(m->objective)) GPL_CHECK(load_groups(be, m, train));
    if (m->objective == GPL_OBJ_COX) GPL_CHECK(load_survival_order(be, train));
    size_t n = (size_t)train->num_rows * (size_t)m->num_outputs;
    float *margins = gpl_malloc(sizeof(float) * n, "initial margins");
    if (!margins) return GPULAYER_ERR_OUT_OF_MEMORY;
    if (train->base_margin) memcpy(margins, train->base_margin, sizeof(float) * n);
    else
        for (size_t i = 0; i < n; i++)
            margins[i] = gpl_model_base_margin(m, (int32_t)(i % (size_t)m->num_outputs));
    /* Continued training: the model's trees, walked as prediction walks
     * them (the same additions in the same order). */
    gpulayer_status st = gpl_margins_add_model(m, bins, train->num_rows, train->num_cols,
                                               margins, nthread);
    if (st == GPULAYER_OK) st = be->ops->set_margins(be, margins);
    free(margins);
    return st;
}

int32_t gpl_train_num_outputs(const gpl_params *p)
{
    gpl_objective_kind kind;
    int as_class;
    if (gpl_objective_parse(p->objective, &kind, &as_class) != GPULAYER_OK) return 1;
    if (kind == GPL_OBJ_SOFTMAX) return p->num_class;
    int32_t n;
    return gpl_objective_alphas(kind, &p->obj_params, &n) ? n : 1;
}
