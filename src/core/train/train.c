/*
 * train.c -- the boosting loop: validate, bin, place on a backend, then for
 * each round grow one tree per output, update evaluation margins, report
 * metrics and decide on early stopping.
 */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "binning.h"
#include "categorical.h"
#include "custom_objective.h"
#include "booster.h"
#include "dataset_match.h"
#include "error.h"
#include "memory_limit.h"
#include "feature_sample.h"
#include "grow.h"
#include "interaction.h"
#include "monotone.h"
#include "label_classes.h"
#include "leaf_refit.h"
#include "predict.h"
#include "train_hooks.h"
#include "train_open.h"
#include "train_eval.h"
#include "train_setup.h"
#include "threads.h"

/* Per evaluation set: its binned rows and running margins. */
typedef struct eval_state {
    const gpulayer_dataset *ds;
    const char *name;
    uint8_t *bins;
    float *margins;
    float *outputs;
} eval_state;

typedef struct train_run {
    gpulayer_booster *b;
    const gpl_params *p;
    gpl_model *model;
    gpl_backend *be;
    int nthread;
    int64_t num_rows; /* of the training data (this rank's) */
    uint8_t *bins;
    int code_bytes;   /* of bins and the evaluation sets' (binning.h) */
    uint32_t *feature_offset;
    eval_state *evals;
    int num_evals;
    uint8_t *feature_mask;
    const float *feature_weights; /* the training data's, or NULL */
    gpl_interactions interactions;
    int8_t *monotone; /* monotone_constraints, or NULL when none is set */
    float *scaled_weights; /* the weights the backend holds, with scale_pos_weight */
    gpl_eval_tracker tracker;
    const gpl_train_hooks *hooks; /* NULL in a single process */
    /* Evaluation sets as laid out for training: the caller's, or a copy
     * with columns and codes matched to the training data's (owned[i]). */
    const gpulayer_dataset **matched;
    gpulayer_dataset **owned;
    int num_matched;
    /* Objectives whose leaves are refit: the rows as the backend has them,
     * and room for the backend's margins. */
    gpl_leaf_refit_job refit;
    float *refit_margins;
    float *round_margins; /* num_parallel_tree > 1: the margins at a round's start */
    gpl_custom_objective custom; /* the caller's gradients, when given */
} train_run;

static void train_run_free(train_run *t)
{
    gpl_backend_destroy(t->be);
    free(t->scaled_weights); /* after the backend, which may read them */
    gpl_interactions_free(&t->interactions);
    free(t->monotone);
    free(t->bins);
    free(t->feature_offset);
    for (int i = 0; i < t->num_evals; i++) {
        free(t->evals[i].bins);
        free(t->evals[i].margins);
        free(t->evals[i].outputs);
    }
    free(t->evals);
    free(t->feature_mask);
    free(t->refit_margins);
    free(t->round_margins);
    gpl_custom_objective_free(&t->custom);
    for (int i = 0; t->owned && t->matched && i < t->num_matched; i++)
        gpulayer_dataset_free(t->owned[i]);
    free(t->owned);
    free((void *)t->matched);
    gpl_model_free(t->model);
    gpl_eval_tracker_free(&t->tracker);
}

static gpulayer_status prepare_evals(train_run *t,
                                     const gpulayer_dataset *const *evals,
                                     const char *const *names, int num_evals)
{
    const int32_t K = t->model->num_outputs;
    t->evals = calloc((size_t)(num_evals ? num_evals : 1), sizeof(eval_state));
    if (!t->evals) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory");
    t->num_evals = num_evals;
    for (int i = 0; i < num_evals; i++) {
        eval_state *e = &t->evals[i];
        e->ds = evals[i];
        e->name = names && names[i] ? names[i] : "eval";
        GPL_CHECK(gpl_categorical_bin_matrix(t->model, evals[i], t->nthread, &e->bins));
        size_t n = (size_t)evals[i]->num_rows * (size_t)K;
        GPL_CHECK(gpl_check_host_memory(2 * sizeof(float) * (uint64_t)n,
                                        "the margins of an evaluation set"));
        e->margins = gpl_malloc(sizeof(float) * (n ? n : 1), "evaluation margins");
        e->outputs = gpl_malloc(sizeof(float) * (n ? n : 1), "evaluation outputs");
        if (!e->margins || !e->outputs) return GPULAYER_ERR_OUT_OF_MEMORY;
        GPL_CHECK(gpl_dataset_check_base_margin(evals[i], K, e->name));
        if (evals[i]->base_margin) memcpy(e->margins, evals[i]->base_margin, sizeof(float) * n);
        else
            for (size_t k = 0; k < n; k++)
                e->margins[k] = gpl_model_base_margin(t->model, (int32_t)(k % (size_t)K));
        /* Continued training: the model's trees. */
        GPL_CHECK(gpl_margins_add_model(t->model, e->bins, evals[i]->num_rows,
                                        t->model->num_features, e->margins, t->nthread));
    }
    return GPULAYER_OK;
}

/* Column sampling for one tree (colsample_bytree), from the seed, the
 * tree's sampling round (gpl_sample_round without bagging) and output
 * alone, so that every backend sees the same features. */
static void choose_features(train_run *t, int32_t key, int32_t output)
{
    gpl_sample_features(NULL, t->model->num_features, t->p->colsample_bytree,
                        t->feature_weights, gpl_sample_stream_tree(t->p->seed, key, output),
                        t->feature_mask);
}

/* The share of rows a tree samples: subsample (XGBoost's), else LightGBM's
 * bagging_fraction, which samples only with bagging_freq. */
static float row_fraction(const gpl_params *p)
{
    if (p->subsample < 1.0) return (float)p->subsample;
    return (float)(p->bagging_freq > 0 ? p->bagging_fraction : 1.0);
}

/* The leaf refit of one tree (grow.h), on the margins before it. */
static gpulayer_status refit_leaves(void *user, int32_t output, gpl_tree_node *nodes,
                                    int32_t num_nodes, float *leaf_value)
{
    train_run *t = user;
    if (gpl_leaf_refit_on_backend(&t->refit, t->be))
        return gpl_leaf_refit_backend(&t->refit, t->be, output, nodes, num_nodes, leaf_value);
    GPL_CHECK(t->be->ops->get_margins(t->be, t->refit_margins));
    return gpl_leaf_refit(&t->refit, t->refit_margins, output, nodes, num_nodes, leaf_value);
}

/* A backend's leaf refit (refit_sort) walks trees of inline sets only: a
 * model of sets of more than 255 categories whose leaves it would refit
 * is refused, naming the way out. */
static gpulayer_status check_refit_sets(const train_run *t)
{
    if (!t->refit_margins || /* the objective refits no leaves */
        !(gpl_train_needs(t->model) & GPL_BACKEND_CAP_WIDE_CATEGORIES) ||
        !gpl_leaf_refit_on_backend(&t->refit, t->be))
        return GPULAYER_OK;
    return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                     "training %s on the %s backend: its leaf refit takes at most 255 "
                     "categories a feature split by sets, and the data have more; set "
                     "max_categories 255 or less, or use device cpu",
                     gpl_objective_name(t->model), t->be->ops->name);
}

/* Prepares the leaf refit when the objective has one. */
static gpulayer_status setup_refit(train_run *t, const gpulayer_dataset *train)
{
    double alpha;
    if (!gpl_objective_refits_leaves(t->model->objective, &t->model->obj_params, 0, &alpha))
        return GPULAYER_OK;
    const size_t n = (size_t)train->num_rows * (size_t)t->model->num_outputs;
    t->refit_margins = gpl_malloc(sizeof(float) * n, "margins for the leaf refit");
    if (!t->refit_margins) return GPULAYER_ERR_OUT_OF_MEMORY;
    t->refit = (gpl_leaf_refit_job){t->bins, t->code_bytes, train->num_rows, train->num_cols,
                                    train->label,
                                    train->weight, t->model->num_outputs, 0, t->p->seed,
                                    row_fraction(t->p), t->p->eta, &t->model->obj_params,
                                    t->model->objective, t->nthread, 0, NULL, NULL};
    if (t->hooks) {
        t->refit.first_row = t->hooks->first_row;
        t->refit.gather = t->hooks->gather_leaf_rows;
        t->refit.gather_user = t->hooks->user;
    }
    return GPULAYER_OK;
}

/* monotone_constraints for the model's features: t->monotone stays NULL
 * when none is constrained, which keeps the unconstrained split search. */
static gpulayer_status setup_monotone(train_run *t)
{
    const int32_t F = t->model->num_features;
    if (!t->p->monotone_constraints[0]) return GPULAYER_OK;
    int8_t *m = gpl_malloc((size_t)(F ? F : 1), "monotone constraints");
    if (!m) return GPULAYER_ERR_OUT_OF_MEMORY;
    int any = 0;
    gpulayer_status st = gpl_monotone_parse(t->p->monotone_constraints, F, t->model->cat_split,
                                            (const char *const *)t->model->feature_names, m,
                                            &any);
    if (st != GPULAYER_OK || !any) {
        free(m);
        return st;
    }
    t->monotone = m;
    double alpha;
    if (t->p->monotone_method == GPL_MONOTONE_INTERMEDIATE &&
        gpl_objective_refits_leaves(t->model->objective, &t->model->obj_params, 0, &alpha))
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "monotone_constraints_method=intermediate: %s sets its leaves again "
                         "after the tree is grown, which the intermediate bounds cannot keep "
                         "monotone; use monotone_constraints_method=basic",
                         gpl_objective_name(t->model));
    return GPULAYER_OK;
}

/* Grows the tree of output k that is tree j of its output in the round,
 * on gradients of the backend's margins as they are; tp is t->p with the
 * round's learning rate a tree. */
static gpulayer_status grow_output_tree(train_run *t, const gpl_params *tp, int32_t round,
                                        int32_t j, int32_t k)
{
    const int32_t K = t->model->num_outputs, P = t->model->num_parallel_tree;
    gpl_gradient_request req = {gpl_train_objective(t->model), K, k, round,
                                t->p->seed, row_fraction(t->p),
                                gpl_objective_param(t->model->objective,
                                                    &t->model->obj_params, k),
                                gpl_objective_rank_request(&t->model->obj_params),
                                t->p->bagging_freq, j, P, {0}};
    gpl_objective_request_alphas(t->model->objective, &t->model->obj_params, req.alphas);
    const int32_t key = P > 1 ? round * P + j : round;
    gpl_grow_config cfg = {.params = tp, .cuts = &t->model->cuts,
                           .feature_mask = t->feature_mask, .scale = {1, 1}};
    cfg.max_nodes = t->be->config.max_nodes;
    cfg.num_rows = t->num_rows;
    cfg.sample_stream = gpl_sample_stream_tree(t->p->seed, key, k);
    cfg.interactions = &t->interactions;
    cfg.feature_weights = t->feature_weights;
    cfg.monotone = t->monotone;
    if (t->refit_margins) {
        t->refit.round = gpl_sample_round(&req);
        t->refit.eta = tp->eta;
        cfg.refit_leaves = refit_leaves;
        cfg.refit_user = t;
    }
    if (t->hooks) {
        cfg.reduce = &t->hooks->reduce;
        GPL_CHECK(t->hooks->gradients(t->hooks->user, t->be, &req, &cfg.scale));
    } else if (t->custom.fn) {
        GPL_CHECK(gpl_custom_gradients(&t->custom, t->be, &req, &cfg.scale));
    } else {
        GPL_CHECK(t->be->ops->compute_gradients(t->be, &req, &cfg.scale));
    }
    choose_features(t, key, k);
    gpl_tree tree = {0, NULL};
    GPL_CHECK(gpl_grow_tree(t->be, &cfg, k, &tree));
    gpulayer_status st = gpl_model_add_tree(t->model, &tree);
    if (st != GPULAYER_OK) {
        free(tree.nodes);
        return st;
    }
    const gpl_tree *added = &t->model->trees[t->model->num_trees - 1];
    for (int i = 0; i < t->num_evals; i++)
        gpl_tree_add_to_margins(added, t->evals[i].bins, t->code_bytes,
                                t->evals[i].ds->num_rows,
                                t->model->num_features, K, k, t->evals[i].margins,
                                t->nthread);
    return GPULAYER_OK;
}

/* A round of num_parallel_tree > 1 trees an output, as XGBoost's: every
 * tree fits the gradients of the margins at the round's start (set again
 * before each), with its own rows and features and eta / P in its leaves.
 * The margins then take each tree in order, added on the host's bins as
 * prediction walks them (eight rows at a time, without branches), which
 * gives the bits update_margins would. */
static gpulayer_status run_forest_round(train_run *t, int32_t round)
{
    const int32_t K = t->model->num_outputs, P = t->model->num_parallel_tree;
    gpl_params tp = *t->p;
    tp.eta = t->p->eta / P;
    GPL_CHECK(t->be->ops->get_margins(t->be, t->round_margins));
    const int32_t first = t->model->num_trees;
    for (int32_t j = 0; j < P; j++)
        for (int32_t k = 0; k < K; k++) {
            if (j > 0 || k > 0) GPL_CHECK(t->be->ops->set_margins(t->be, t->round_margins));
            GPL_CHECK(grow_output_tree(t, &tp, round, j, k));
        }
    gpl_infer_forest trees;
    GPL_CHECK(gpl_infer_forest_build_range(t->model, first, t->model->num_trees - first, &trees));
    gpl_forest_add_to_margins(&trees, t->bins, t->num_rows, t->model->num_features, K,
                              t->round_margins, t->nthread);
    gpl_infer_forest_free(&trees);
    return t->be->ops->set_margins(t->be, t->round_margins);
}

static gpulayer_status run_round(train_run *t, int32_t round)
{
    if (t->model->num_parallel_tree > 1) return run_forest_round(t, round);
    for (int32_t k = 0; k < t->model->num_outputs; k++)
        GPL_CHECK(grow_output_tree(t, t->p, round, 0, k));
    return GPULAYER_OK;
}

/* t->matched: the evaluation sets with the training data's columns. */
static gpulayer_status match_evals(train_run *t, const gpulayer_dataset *train,
                                   const gpulayer_dataset *const *evals, int num_evals)
{
    size_t n = (size_t)(num_evals ? num_evals : 1);
    t->matched = gpl_calloc(n, sizeof *t->matched, "evaluation sets");
    t->owned = gpl_calloc(n, sizeof *t->owned, "evaluation sets");
    if (!t->matched || !t->owned) return GPULAYER_ERR_OUT_OF_MEMORY;
    t->num_matched = num_evals;
    for (int i = 0; i < num_evals; i++) {
        t->matched[i] = evals[i];
        if (!evals[i]) continue; /* validation names it */
        GPL_CHECK(gpl_dataset_match_eval(train, evals[i], &t->owned[i]));
        if (t->owned[i]) t->matched[i] = t->owned[i];
    }
    return GPULAYER_OK;
}

static gpulayer_status setup_run(train_run *t, const gpulayer_dataset *train,
                                 const gpulayer_dataset *const *caller_evals,
                                 const char *const *eval_names, int num_evals)
{
    gpulayer_status matched = match_evals(t, train, caller_evals, num_evals);
    const gpulayer_dataset *const *evals = t->matched;
    gpulayer_dataset labels;
    gpl_bin_cuts cuts;
    memset(&labels, 0, sizeof labels);
    memset(&cuts, 0, sizeof cuts);
    double t0 = omp_get_wtime();
    gpulayer_status st = matched;
    if (st == GPULAYER_OK) st = gpl_train_validate(t->p, train, evals, num_evals);
    gpl_backend_opening opening = {0};
    if (st == GPULAYER_OK)
        gpl_backend_open_start(&opening, t->p, train->num_rows, gpl_train_num_outputs(t->p),
                               t->nthread, t->hooks);
    /* Labels and cuts of every process's rows, so that the model starts
     * from the same numbers as one process holding them all. */
    if (t->hooks)
        st = t->hooks->prepare(t->hooks->user, t->p, train, t->nthread, st, &labels, &cuts);
    if (st == GPULAYER_OK && t->b->init_model && t->hooks)
        st = gpl_error(GPULAYER_ERR_UNSUPPORTED,
                       "continued training is not supported in distributed training yet");
    if (st == GPULAYER_OK && t->b->init_model)
        st = gpl_train_model_continue(t->p, train, t->b->init_model, &t->model);
    else if (st == GPULAYER_OK)
        st = gpl_train_model_init(t->p, train, t->hooks ? &labels : NULL,
                                  t->hooks ? &cuts : NULL, t->nthread, &t->model);
    if (st == GPULAYER_OK && t->hooks && gpl_objective_is_ranking(t->model->objective))
        st = gpl_error(GPULAYER_ERR_UNSUPPORTED,
                       "%s: distributed training does not split query groups across "
                       "processes yet; train ranking models in one process",
                       gpl_objective_name(t->model));
    if (st == GPULAYER_OK && t->hooks && t->model->objective == GPL_OBJ_COX)
        st = gpl_error(GPULAYER_ERR_UNSUPPORTED,
                       "survival:cox: a risk set spans every process's rows, which "
                       "distributed training does not gather yet; train it in one process");
    free(labels.label);
    free(labels.weight);
    gpl_bin_cuts_free(&cuts);
    double t1 = omp_get_wtime();
    if (st == GPULAYER_OK) t->code_bytes = gpl_bin_code_bytes(&t->model->cuts);
    if (st == GPULAYER_OK) st = gpl_categorical_bin_matrix(t->model, train, t->nthread, &t->bins);
    double t2 = omp_get_wtime();
    if (st == GPULAYER_OK) st = gpl_feature_offsets(&t->model->cuts, &t->feature_offset);
    if (st == GPULAYER_OK) st = setup_refit(t, train);
    if (st == GPULAYER_OK && t->model->num_parallel_tree > 1) {
        const size_t n = (size_t)train->num_rows * (size_t)t->model->num_outputs;
        st = gpl_check_host_memory(sizeof(float) * (uint64_t)n, "the margins of a forest round");
        if (st == GPULAYER_OK &&
            !(t->round_margins = gpl_malloc(sizeof(float) * n, "margins of a forest round")))
            st = GPULAYER_ERR_OUT_OF_MEMORY;
    }
    if (st == GPULAYER_OK)
        st = gpl_dataset_check_base_margin(train, t->model->num_outputs, "the training data");
    t->feature_weights = train->feature_weights;
    if (st == GPULAYER_OK)
        st = gpl_interactions_parse(t->p->interaction_constraints, t->model->num_features,
                                    &t->interactions);
    if (st == GPULAYER_OK) st = setup_monotone(t);
    if (st == GPULAYER_OK) st = prepare_evals(t, evals, eval_names, num_evals);
    if (st == GPULAYER_OK) {
        t->feature_mask = gpl_malloc((size_t)(train->num_cols ? train->num_cols : 1),
                                     "feature mask");
        if (!t->feature_mask) st = GPULAYER_ERR_OUT_OF_MEMORY;
    }
    if (st == GPULAYER_OK)
        st = gpl_backend_open_finish(&opening, gpl_train_needs(t->model), &t->be);
    else gpl_backend_open_cancel(&opening);
    double t3 = omp_get_wtime();
    if (st == GPULAYER_OK)
        st = gpl_train_backend_load(t->be, t->p, t->model, train, t->bins, t->feature_offset,
                                    t->nthread, &t->scaled_weights);
    if (st == GPULAYER_OK) st = check_refit_sets(t);
    /* Where the time before the first round goes, for users timing a job. */
    if (st == GPULAYER_OK && t->p->verbosity >= 2)
        fprintf(stderr, "[gpulayer] setup: bin cuts %.3f s, binning %.3f s, waiting for the "
                        "backend %.3f s (opened beside them: placement %.3f s, creation "
                        "%.3f s), upload %.3f s\n",
                t1 - t0, t2 - t1, t3 - t2, opening.placement_s, opening.creation_s,
                omp_get_wtime() - t3);
    if (st == GPULAYER_OK)
        st = gpl_eval_tracker_init(&t->tracker, t->p, t->model, num_evals);
    /* Failures above are local (memory, the backend): every process's. */
    if (t->hooks) st = t->hooks->ready(t->hooks->user, st, t->be, t->feature_offset);
    return st;
}

gpulayer_status gpl_train_run(const char *caller, gpulayer_booster *b,
                              const gpulayer_dataset *train,
                              const gpulayer_dataset *const *evals,
                              const char *const *eval_names, int num_evals,
                              gpulayer_round_callback callback, void *user_data,
                              const gpl_train_hooks *hooks)
{
    if (!b || !train || (num_evals > 0 && !evals) || num_evals < 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s: booster and training data are required", caller);
    train_run t;
    memset(&t, 0, sizeof t);
    gpl_params params;
    gpulayer_status st = gpl_custom_objective_params(b, hooks != NULL, &params);
    if (st == GPULAYER_OK && b->init_model)
        st = gpl_train_adopt_objective(&params, b->init_model);
    if (st == GPULAYER_OK) st = gpl_label_classes_check(&params, train, evals, num_evals);
    /* Each process numbers the names of its own rows, which need not be
     * every class. */
    if (st == GPULAYER_OK && hooks && train->label_classes)
        st = gpl_error(GPULAYER_ERR_UNSUPPORTED,
                       "%s: distributed training on class names is not supported yet; "
                       "give the labels as class codes 0..K-1",
                       train->source ? train->source : "the training data");
    if (st != GPULAYER_OK) return st;
    t.b = b;
    t.p = &params;
    t.hooks = hooks;
    t.nthread = gpl_threads(b->params.nthread);
    t.num_rows = train->num_rows;
    st = setup_run(&t, train, evals, eval_names, num_evals);
    if (st == GPULAYER_OK)
        st = gpl_custom_objective_start(&t.custom, b, t.be, train->num_rows,
                                        t.model->num_outputs);
    /* Continued training numbers its rounds on from the model's. */
    const int32_t first = st == GPULAYER_OK ? gpl_model_num_rounds(t.model) : 0;
    int32_t round = first;
    for (; st == GPULAYER_OK && round < first + t.p->num_round; round++) {
        st = run_round(&t, round);
        if (st != GPULAYER_OK) break;
        int stop = 0;
        const gpulayer_eval_result *results = NULL;
        int num_results = 0;
        if (num_evals > 0) {
            for (int i = 0; i < num_evals; i++)
                gpl_eval_tracker_add(&t.tracker, t.model, i, t.evals[i].name,
                                     t.evals[i].ds, t.evals[i].margins,
                                     t.evals[i].outputs, t.nthread);
            stop = gpl_eval_tracker_end_round(&t.tracker, round, &results, &num_results);
            for (int i = 0; i < num_evals && st == GPULAYER_OK; i++)
                st = gpl_custom_eval(b, round, i, t.evals[i].margins, t.evals[i].outputs,
                                     t.evals[i].ds->num_rows, t.model->num_outputs);
            if (st != GPULAYER_OK) {
                round++; /* the round's trees stay */
                break;
            }
        }
        int halt = 0; /* the caller stops training with an error */
        if (callback) {
            int r = callback(user_data, round, results, num_results);
            if (r == 1) stop = 1;
            else if (r != 0) halt = 1;
        }
        /* A caller's stop or a signal may reach one process only: all
         * stop after the same round. */
        if (t.hooks) t.hooks->end_round(t.hooks->user, &stop, &halt);
        if (halt) {
            st = gpl_error(GPULAYER_ERR_INTERRUPTED,
                           "training stopped by the caller after round %d", round + 1);
            round++;
            break;
        }
        if (stop) {
            round++;
            break;
        }
    }
    if (t.be && t.p->verbosity >= 2) {
        gpl_memory_report mem = {0, 0, 0};
        t.be->ops->memory(t.be, &mem);
        fprintf(stderr, "[gpulayer] %s backend memory: peak %.1f MiB, planned %.1f MiB\n",
                t.be->ops->name, mem.peak_bytes / 1048576.0, mem.estimate_bytes / 1048576.0);
    }
    if (t.model) t.model->best_round = t.p->early_stopping_rounds > 0 ? t.tracker.best_round : -1;
    if (t.hooks && (st == GPULAYER_OK || st == GPULAYER_ERR_INTERRUPTED) && t.model) {
        gpulayer_status same = t.hooks->check_model(t.hooks->user, t.model);
        if (same != GPULAYER_OK) st = same;
    }
    /* An interrupted run keeps the rounds done so far. */
    if ((st == GPULAYER_OK || st == GPULAYER_ERR_INTERRUPTED) && t.model) {
        gpl_model_free(b->model);
        b->model = t.model;
        t.model = NULL;
    }
    gpl_model_free(b->init_model); /* used up */
    b->init_model = NULL;
    train_run_free(&t);
    return st;
}

gpulayer_status gpulayer_booster_train(gpulayer_booster *b,
                                       const gpulayer_dataset *train,
                                       const gpulayer_dataset *const *evals,
                                       const char *const *eval_names,
                                       int num_evals,
                                       gpulayer_round_callback callback,
                                       void *user_data)
{
    return gpl_train_run("gpulayer_booster_train", b, train, evals, eval_names, num_evals,
                         callback, user_data, NULL);
}
