/* test_metric_rank.c -- ndcg, map and pre over query groups, worked by
 * hand on small queries (ties in predictions, one-row queries, queries
 * with nothing relevant with and without '-', @k beyond the query, query
 * weights), their names, and what training's evaluation makes of them:
 * the ranking objectives' default metric, ndcg_exp_gain, the dataset's
 * groups and early stopping's direction. tests/python/test_metrics_rank.py
 * compares the figures with XGBoost's. */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dataset.h"
#include "metric.h"
#include "model.h"
#include "params.h"
#include "train_eval.h"

#define EXACT 1e-15

static void assert_close(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.17g, expected %.17g (tolerance %g)", got, want, tol);
}

static gpl_metric parsed(const char *name)
{
    gpl_metric m;
    if (gpl_metric_parse(name, &m) != GPULAYER_OK) fail_msg("%s: %s", name, gpulayer_last_error());
    return m;
}

static double eval_groups(const char *name, const float *p, const float *y, const float *w,
                          int64_t n, const int64_t *group_ptr, int64_t num_groups)
{
    gpl_metric m = parsed(name);
    return gpl_metric_eval_groups(&m, p, y, w, n, 1, group_ptr, num_groups, 0);
}

/* 1 / log2(position + 2) */
static double disc(int pos)
{
    return 1.0 / log2(pos + 2.0);
}

/* Three queries: q0 rows 0-3 with a tie at 0.5 between rows 0 and 2 (row 0
 * ranks first: order 1, 0, 2, 3, grades 0, 2, 1, 0); q1 one row of grade
 * 1; q2 three rows of grade 0. */
static const float nd_p[] = {0.5f, 0.9f, 0.5f, 0.1f, -3.0f, 0.2f, 0.7f, 0.1f};
static const float nd_y[] = {2, 0, 1, 0, 1, 0, 0, 0};
static const float nd_w[] = {2, 2, 2, 2, 1, 0.5f, 0.5f, 0.5f};
static const int64_t nd_groups[] = {0, 4, 5, 8};

/* q0's NDCG by hand: gains 2^g - 1 = 0, 3, 1, 0 by rank; ideal 3, 1, 0, 0. */
static double q0_ndcg(void)
{
    return (3.0 * disc(1) + 1.0 * disc(2)) / (3.0 * disc(0) + 1.0 * disc(1));
}

static void test_ndcg_ties_by_row(void **state)
{
    (void)state;
    assert_close(eval_groups("ndcg", nd_p, nd_y, NULL, 4, NULL, 0), q0_ndcg(), EXACT);
    /* Swapped rows, so the tie now ranks grade 1 (row 0) before grade 2:
     * the order follows the row index, not the grade. */
    const float p[] = {0.5f, 0.9f, 0.5f, 0.1f}, y[] = {1, 0, 2, 0};
    const double want = (1.0 * disc(1) + 3.0 * disc(2)) / (3.0 * disc(0) + 1.0 * disc(1));
    assert_close(eval_groups("ndcg", p, y, NULL, 4, NULL, 0), want, EXACT);
    /* -0 and +0 tie. */
    const float pz[] = {-0.0f, 0.0f}, yz[] = {0, 1};
    assert_close(eval_groups("ndcg", pz, yz, NULL, 2, NULL, 0), disc(1) / disc(0), EXACT);
}

static void test_ndcg_at_k_and_linear_gain(void **state)
{
    (void)state;
    assert_close(eval_groups("ndcg@2", nd_p, nd_y, NULL, 4, NULL, 0),
                 (3.0 * disc(1)) / (3.0 * disc(0) + 1.0 * disc(1)), EXACT);
    /* @1: the top row has grade 0. */
    assert_close(eval_groups("ndcg@1", nd_p, nd_y, NULL, 4, NULL, 0), 0.0, EXACT);
    /* k beyond the query: the whole query. */
    assert_close(eval_groups("ndcg@10", nd_p, nd_y, NULL, 4, NULL, 0), q0_ndcg(), EXACT);
    gpl_metric m = parsed("ndcg");
    m.ndcg_exp_gain = 0;
    assert_close(gpl_metric_eval(&m, nd_p, nd_y, NULL, 4, 1, 0),
                 (2.0 * disc(1) + 1.0 * disc(2)) / (2.0 * disc(0) + 1.0 * disc(1)), EXACT);
    /* Linear gain takes fractional grades; exponential gain does not. */
    const float y[] = {2.5f, 0, 1, 0};
    assert_close(gpl_metric_eval(&m, nd_p, y, NULL, 4, 1, 0),
                 (2.5 * disc(1) + 1.0 * disc(2)) / (2.5 * disc(0) + 1.0 * disc(1)), EXACT);
    assert_true(isnan(eval_groups("ndcg", nd_p, y, NULL, 4, NULL, 0)));
    const float negative[] = {-1, 0, 1, 0}, big[] = {32, 0, 1, 0};
    assert_true(isnan(eval_groups("ndcg", nd_p, negative, NULL, 4, NULL, 0)));
    assert_true(isnan(eval_groups("ndcg", nd_p, big, NULL, 4, NULL, 0)));
    const float top[] = {31, 0, 0, 0};
    assert_close(eval_groups("ndcg", nd_p, top, NULL, 4, NULL, 0), disc(1), EXACT);
}

static void test_ndcg_queries_weights_and_minus(void **state)
{
    (void)state;
    /* q1 (one relevant row) scores 1; q2 (nothing relevant) 1, or 0 with '-'. */
    assert_close(eval_groups("ndcg", nd_p, nd_y, NULL, 8, nd_groups, 3),
                 (q0_ndcg() + 1.0 + 1.0) / 3.0, EXACT);
    assert_close(eval_groups("ndcg-", nd_p, nd_y, NULL, 8, nd_groups, 3),
                 (q0_ndcg() + 1.0 + 0.0) / 3.0, EXACT);
    assert_close(eval_groups("ndcg@2-", nd_p, nd_y, NULL, 8, nd_groups, 3),
                 ((3.0 * disc(1)) / (3.0 * disc(0) + 1.0 * disc(1)) + 1.0) / 3.0, EXACT);
    /* Weights per query (its first row's): 2, 1, 0.5. */
    assert_close(eval_groups("ndcg", nd_p, nd_y, nd_w, 8, nd_groups, 3),
                 (2.0 * q0_ndcg() + 1.0 + 0.5) / 3.5, EXACT);
    assert_close(eval_groups("ndcg-", nd_p, nd_y, nd_w, 8, nd_groups, 3),
                 (2.0 * q0_ndcg() + 1.0) / 3.5, EXACT);
    /* No groups: one query of all eight rows. */
    const int64_t one[] = {0, 8};
    assert_close(eval_groups("ndcg", nd_p, nd_y, NULL, 8, NULL, 0),
                 eval_groups("ndcg", nd_p, nd_y, NULL, 8, one, 1), 0.0);
    assert_true(eval_groups("ndcg", nd_p, nd_y, NULL, 8, NULL, 0) !=
                eval_groups("ndcg", nd_p, nd_y, NULL, 8, nd_groups, 3));
}

/* One query: order rows 1, 3, 0, 2 (0 before 2 on their tie), 4; labels
 * by rank 0, 1, 1, 0, 1. */
static const float ap_p[] = {0.3f, 0.8f, 0.3f, 0.6f, 0.1f};
static const float ap_y[] = {1, 0, 0, 1, 1};

static void test_map(void **state)
{
    (void)state;
    const double full = (1.0 / 2 + 2.0 / 3 + 3.0 / 5) / 3.0;
    assert_close(eval_groups("map", ap_p, ap_y, NULL, 5, NULL, 0), full, EXACT);
    /* Top 3: precisions 1/2 and 2/3, over min(3 relevant, 3). */
    assert_close(eval_groups("map@3", ap_p, ap_y, NULL, 5, NULL, 0),
                 (1.0 / 2 + 2.0 / 3) / 3.0, EXACT);
    /* Top 2: 1/2 over min(3, 2). */
    assert_close(eval_groups("map@2", ap_p, ap_y, NULL, 5, NULL, 0), 0.25, EXACT);
    assert_close(eval_groups("map@10", ap_p, ap_y, NULL, 5, NULL, 0), full, EXACT);
    /* The tie the other way (rows swapped) gives 1/2, 2/4, 3/5. */
    const float y[] = {0, 0, 1, 1, 1};
    assert_close(eval_groups("map", ap_p, y, NULL, 5, NULL, 0),
                 (1.0 / 2 + 2.0 / 4 + 3.0 / 5) / 3.0, EXACT);

    /* Queries: the one above, one row relevant, one row not, two rows
     * not; weights 1, 3, 0.5, 2. */
    const float p[] = {0.3f, 0.8f, 0.3f, 0.6f, 0.1f, 5, 5, 1, 2};
    const float yy[] = {1, 0, 0, 1, 1, 1, 0, 0, 0};
    const float w[] = {1, 1, 1, 1, 1, 3, 0.5f, 2, 2};
    const int64_t g[] = {0, 5, 6, 7, 9};
    assert_close(eval_groups("map", p, yy, NULL, 9, g, 4), (full + 1 + 1 + 1) / 4.0, EXACT);
    assert_close(eval_groups("map-", p, yy, NULL, 9, g, 4), (full + 1) / 4.0, EXACT);
    assert_close(eval_groups("map", p, yy, w, 9, g, 4), (full + 3 + 0.5 + 2) / 6.5, EXACT);
    assert_close(eval_groups("map@2-", p, yy, w, 9, g, 4), (0.25 + 3) / 6.5, EXACT);
    /* map and pre take binary labels only. */
    const float graded[] = {2, 0, 0, 1, 1};
    assert_true(isnan(eval_groups("map", ap_p, graded, NULL, 5, NULL, 0)));
    assert_true(isnan(eval_groups("pre@2", ap_p, graded, NULL, 5, NULL, 0)));
}

static void test_pre(void **state)
{
    (void)state;
    assert_close(eval_groups("pre@2", ap_p, ap_y, NULL, 5, NULL, 0), 0.5, EXACT);
    assert_close(eval_groups("pre@3", ap_p, ap_y, NULL, 5, NULL, 0), 2.0 / 3.0, EXACT);
    /* Without k (the top 32) and with k beyond the query: the whole
     * query. */
    assert_close(eval_groups("pre", ap_p, ap_y, NULL, 5, NULL, 0), 0.6, EXACT);
    assert_close(eval_groups("pre@10", ap_p, ap_y, NULL, 5, NULL, 0), 0.6, EXACT);
    /* A one-row relevant query scores 1 at any k; nothing relevant 0,
     * '-' or not. Weights 2 and 0.5. */
    const float p[] = {0.3f, 0.8f, 0.3f, 0.6f, 0.1f, 1, 1, 2};
    const float y[] = {1, 0, 0, 1, 1, 1, 0, 0};
    const float w[] = {1, 1, 1, 1, 1, 2, 0.5f, 0.5f};
    const int64_t g[] = {0, 5, 6, 8};
    assert_close(eval_groups("pre@3", p, y, NULL, 8, g, 3), (2.0 / 3.0 + 1) / 3.0, EXACT);
    assert_close(eval_groups("pre@3-", p, y, NULL, 8, g, 3), (2.0 / 3.0 + 1) / 3.0, EXACT);
    assert_close(eval_groups("pre@3", p, y, w, 8, g, 3), (2.0 / 3.0 + 2) / 3.5, EXACT);
}

/* A query of 40 rows whose relevant rows rank 33rd and 40th. Without @k
 * the metrics score the top 32, as XGBoost does; every position only in
 * the default metric of rank:ndcg with the mean pair method. */
static void test_names_without_k_score_the_top_32(void **state)
{
    (void)state;
    float p[40], y[40];
    for (int i = 0; i < 40; i++) {
        p[i] = (float)(40 - i);
        y[i] = i == 32 || i == 39;
    }
    const double ideal = disc(0) + disc(1), far = disc(32) + disc(39);
    assert_close(eval_groups("ndcg", p, y, NULL, 40, NULL, 0), 0.0, EXACT);
    assert_close(eval_groups("ndcg@40", p, y, NULL, 40, NULL, 0), far / ideal, EXACT);
    assert_close(eval_groups("map", p, y, NULL, 40, NULL, 0), 0.0, EXACT);
    assert_close(eval_groups("map@40", p, y, NULL, 40, NULL, 0),
                 (1.0 / 33 + 2.0 / 40) / 2.0, EXACT);
    assert_close(eval_groups("pre", p, y, NULL, 40, NULL, 0), 0.0, EXACT);
    assert_close(eval_groups("pre@40", p, y, NULL, 40, NULL, 0), 2.0 / 40.0, EXACT);

    gpl_objective_params op;
    gpl_objective_params_default(&op);
    op.rank_pair_method = GPL_RANK_MEAN;
    gpl_metric m = gpl_metric_rank_of_objective(GPL_METRIC_NDCG, &op);
    assert_string_equal(m.name, "ndcg");
    assert_close(gpl_metric_eval(&m, p, y, NULL, 40, 1, 0), far / ideal, EXACT);
    m = gpl_metric_rank_of_objective(GPL_METRIC_MAP, &op);
    assert_string_equal(m.name, "map");
    assert_close(gpl_metric_eval(&m, p, y, NULL, 40, 1, 0), 0.0, EXACT);
    op.rank_pair_method = GPL_RANK_TOPK;
    op.rank_num_pair = 40;
    m = gpl_metric_rank_of_objective(GPL_METRIC_MAP, &op);
    assert_string_equal(m.name, "map@40");
    assert_close(gpl_metric_eval(&m, p, y, NULL, 40, 1, 0), (1.0 / 33 + 2.0 / 40) / 2.0, EXACT);
}

static void test_undefined_cases_are_nan(void **state)
{
    (void)state;
    const int64_t short_groups[] = {0, 3};
    const int64_t backwards[] = {0, 4, 3, 5};
    const int64_t late_start[] = {1, 5};
    assert_true(isnan(eval_groups("ndcg", ap_p, ap_y, NULL, 5, short_groups, 1)));
    assert_true(isnan(eval_groups("map", ap_p, ap_y, NULL, 5, backwards, 3)));
    assert_true(isnan(eval_groups("pre", ap_p, ap_y, NULL, 5, late_start, 1)));
    const float zero[] = {0, 0, 0, 0, 0};
    assert_true(isnan(eval_groups("ndcg", ap_p, ap_y, zero, 5, NULL, 0)));
    const float nan_y[] = {1, NAN, 0, 1, 1};
    assert_true(isnan(eval_groups("ndcg", ap_p, nan_y, NULL, 5, NULL, 0)));
    gpl_metric m = parsed("ndcg");
    m.ndcg_exp_gain = 0;
    assert_true(isnan(gpl_metric_eval(&m, ap_p, nan_y, NULL, 5, 1, 0)));
}

/* Out of memory at each allocation in turn: NaN, nothing leaked (the
 * sanitizer build checks), then the figure again. */
static void test_out_of_memory_is_nan(void **state)
{
    (void)state;
    const char *names[] = {"ndcg", "map", "pre@2"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        gpl_metric m = parsed(names[k]);
        const double want = gpl_metric_eval_groups(&m, ap_p, ap_y, NULL, 5, 1, NULL, 0, 1);
        int failed = 0;
        for (long n = 1; n <= 8; n++) {
            gpl_alloc_fail_after(n);
            double got = gpl_metric_eval_groups(&m, ap_p, ap_y, NULL, 5, 1, NULL, 0, 1);
            const int hit = gpl_alloc_fail_pending() == 0;
            gpl_alloc_fail_after(0);
            if (hit) {
                failed++;
                assert_true(isnan(got));
            } else {
                assert_memory_equal(&got, &want, sizeof got);
            }
        }
        assert_true(failed >= 4);
    }
}

static void test_names(void **state)
{
    (void)state;
    static const struct {
        const char *text, *name;
        gpl_metric_kind kind;
        int topk, minus;
    } good[] = {
        {"ndcg", "ndcg", GPL_METRIC_NDCG, 32, 0},
        {"ndcg-", "ndcg-", GPL_METRIC_NDCG, 32, 1},
        {"ndcg@-", "ndcg-", GPL_METRIC_NDCG, 32, 1},
        {"ndcg@10", "ndcg@10", GPL_METRIC_NDCG, 10, 0},
        {"ndcg@10-", "ndcg@10-", GPL_METRIC_NDCG, 10, 1},
        {"map", "map", GPL_METRIC_MAP, 32, 0},
        {"map@5-", "map@5-", GPL_METRIC_MAP, 5, 1},
        {"map-", "map-", GPL_METRIC_MAP, 32, 1},
        {"pre", "pre", GPL_METRIC_PRE, 32, 0},
        {"pre@3", "pre@3", GPL_METRIC_PRE, 3, 0},
        {"ndcg@2147483647", "ndcg@2147483647", GPL_METRIC_NDCG, 2147483647, 0},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        gpl_metric m = parsed(good[i].text);
        assert_string_equal(m.name, good[i].name);
        assert_int_equal(m.kind, good[i].kind);
        assert_int_equal(m.rank_topk, good[i].topk);
        assert_int_equal(m.rank_minus, good[i].minus);
        assert_int_equal(m.ndcg_exp_gain, 1);
        assert_int_equal(gpl_metric_higher_is_better(m.kind), 1);
    }
    static const struct {
        const char *text, *message;
    } bad[] = {
        {"ndcg@0", "whole number from 1"},     {"ndcg@x", "whole number from 1"},
        {"map@3.5", "whole number from 1"},    {"pre@-3", "whole number from 1"},
        {"ndcg@2147483648", "whole number"},   {"ndcg@", "write ndcg@k"},
        {"ndcg--", "unknown metric"},          {"rmse-", "unknown metric"},
        {"mape-", "unknown metric"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gpl_metric m;
        assert_int_equal(gpl_metric_parse(bad[i].text, &m), GPULAYER_ERR_INVALID_ARGUMENT);
        if (!strstr(gpulayer_last_error(), bad[i].message) ||
            !strstr(gpulayer_last_error(), bad[i].text))
            fail_msg("%s: '%s'", bad[i].text, gpulayer_last_error());
    }
    /* mape is still mape, lower being better. */
    gpl_metric m = parsed("mape");
    assert_int_equal(m.kind, GPL_METRIC_MAPE);
    assert_int_equal(gpl_metric_higher_is_better(m.kind), 0);
}

/* Queries of 1 to 60 rows with random grades and many tied predictions,
 * enough rows for threads: the figure is the same bits for any count. */
static void test_same_value_for_any_thread_count(void **state)
{
    (void)state;
    enum { N = 200000 };
    float *p = malloc(sizeof(float) * N), *y = malloc(sizeof(float) * N);
    float *w = malloc(sizeof(float) * N);
    int64_t *g = malloc(sizeof(int64_t) * (N + 1));
    assert_non_null(p);
    assert_non_null(y);
    assert_non_null(w);
    assert_non_null(g);
    uint64_t s = 12345;
    int64_t num_groups = 0;
    g[0] = 0;
    for (int64_t r = 0; r < N;) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        int64_t n = 1 + (int64_t)((s >> 33) % 60);
        if (r + n > N) n = N - r;
        const float qw = 0.5f + (float)((s >> 20) % 8);
        for (int64_t i = 0; i < n; i++, r++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            p[r] = (float)((s >> 40) % 16) / 4.0f;
            y[r] = (float)((s >> 20) % 4 == 0);
            w[r] = qw;
        }
        g[++num_groups] = r;
    }
    const char *names[] = {"ndcg", "ndcg@5-", "map", "map@3", "pre@4"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        gpl_metric m = parsed(names[k]);
        double one = gpl_metric_eval_groups(&m, p, y, w, N, 1, g, num_groups, 1);
        double many = gpl_metric_eval_groups(&m, p, y, w, N, 1, g, num_groups, 7);
        assert_false(isnan(one));
        assert_true(one > 0.0 && one < 1.0);
        assert_memory_equal(&one, &many, sizeof one);
    }
    free(p);
    free(y);
    free(w);
    free(g);
}

/* ---------------------------------------------------------- evaluation */

static void set(gpl_params *p, const char *key, const char *value)
{
    if (gpl_params_set(p, key, value) != GPULAYER_OK)
        fail_msg("%s=%s: %s", key, value, gpulayer_last_error());
}

/* A ranking model of the given objective with p's objective parameters. */
static gpl_model *rank_model(gpl_objective_kind kind, const gpl_params *p)
{
    gpl_model *m = gpl_model_new();
    assert_non_null(m);
    m->objective = kind;
    m->obj_params = p->obj_params;
    m->num_outputs = 1;
    return m;
}

static void test_default_metric_of_ranking_objectives(void **state)
{
    (void)state;
    static const struct {
        gpl_objective_kind kind;
        int32_t method, num_pair;
        const char *metric;
    } cases[] = {
        {GPL_OBJ_RANK_NDCG, GPL_RANK_TOPK, 0, "ndcg@32"},
        {GPL_OBJ_RANK_NDCG, GPL_RANK_TOPK, 10, "ndcg@10"},
        {GPL_OBJ_RANK_NDCG, GPL_RANK_MEAN, 0, "ndcg"},
        {GPL_OBJ_RANK_NDCG, GPL_RANK_MEAN, 4, "ndcg"},
        {GPL_OBJ_RANK_PAIRWISE, GPL_RANK_TOPK, 0, "ndcg@32"},
        {GPL_OBJ_RANK_PAIRWISE, GPL_RANK_MEAN, 0, "ndcg"},
        {GPL_OBJ_RANK_MAP, GPL_RANK_TOPK, 0, "map@32"},
        {GPL_OBJ_RANK_MAP, GPL_RANK_TOPK, 5, "map@5"},
        {GPL_OBJ_RANK_MAP, GPL_RANK_MEAN, 0, "map"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gpl_params p;
        gpl_params_default(&p);
        p.obj_params.rank_pair_method = cases[i].method;
        p.obj_params.rank_num_pair = cases[i].num_pair;
        gpl_model *m = rank_model(cases[i].kind, &p);
        gpl_eval_tracker t;
        assert_int_equal(gpl_eval_tracker_init(&t, &p, m, 1), GPULAYER_OK);
        assert_int_equal(t.num_metrics, 1);
        if (strcmp(t.metrics[0].name, cases[i].metric))
            fail_msg("case %zu: %s, expected %s", i, t.metrics[0].name, cases[i].metric);
        gpl_eval_tracker_free(&t);
        gpl_model_free(m);
    }
}

/* The dataset of nd_p / nd_y with its three queries. */
static gpulayer_dataset *ranking_set(void)
{
    static float x[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(x, 8, 1, GPULAYER_ROW_MAJOR, nd_y, NULL, &ds),
                     GPULAYER_OK);
    ds->group_ptr = gpl_malloc(sizeof nd_groups, "test groups");
    assert_non_null(ds->group_ptr);
    memcpy(ds->group_ptr, nd_groups, sizeof nd_groups);
    ds->num_groups = 3;
    return ds;
}

/* Training's figures read the dataset's queries and the objective's
 * ndcg_exp_gain; ndcg being better higher, a lower round does not count
 * as an improvement. */
static void test_evaluation_over_the_dataset_queries(void **state)
{
    (void)state;
    gpl_params p;
    gpl_params_default(&p);
    set(&p, "eval_metric", "ndcg-");
    set(&p, "eval_metric", "ndcg@2");
    set(&p, "early_stopping_rounds", "1");
    gpl_model *m = rank_model(GPL_OBJ_RANK_NDCG, &p);
    gpl_eval_tracker t;
    assert_int_equal(gpl_eval_tracker_init(&t, &p, m, 1), GPULAYER_OK);
    assert_int_equal(t.num_metrics, 2);
    gpulayer_dataset *ds = ranking_set();
    float out[8];
    const gpulayer_eval_result *res;
    int n;
    gpl_eval_tracker_add(&t, m, 0, "valid", ds, nd_p, out, 2);
    assert_int_equal(gpl_eval_tracker_end_round(&t, 0, &res, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(res[0].metric_name, "ndcg-");
    assert_close(res[0].value, (q0_ndcg() + 1.0) / 3.0, EXACT);
    const double at2 = (3.0 * disc(1)) / (3.0 * disc(0) + 1.0 * disc(1));
    assert_close(res[1].value, (at2 + 2.0) / 3.0, EXACT);
    /* The perfect order scores 1 (the last figure decides). */
    const float perfect[8] = {9, 0, 5, 0, 0, 0, 0, 0};
    gpl_eval_tracker_add(&t, m, 0, "valid", ds, perfect, out, 2);
    assert_int_equal(gpl_eval_tracker_end_round(&t, 1, &res, &n), 0);
    assert_close(res[1].value, 1.0, EXACT);
    gpl_eval_tracker_add(&t, m, 0, "valid", ds, nd_p, out, 2);
    assert_int_equal(gpl_eval_tracker_end_round(&t, 2, &res, &n), 1);
    assert_int_equal(t.best_round, 1);
    gpl_eval_tracker_free(&t);
    gpl_model_free(m);

    /* ndcg_exp_gain=0: the grades are the gains. */
    gpl_params_default(&p);
    p.obj_params.ndcg_exp_gain = 0;
    m = rank_model(GPL_OBJ_RANK_NDCG, &p);
    assert_int_equal(gpl_eval_tracker_init(&t, &p, m, 1), GPULAYER_OK);
    assert_int_equal(t.metrics[0].ndcg_exp_gain, 0);
    gpl_eval_tracker_add(&t, m, 0, "valid", ds, nd_p, out, 1);
    gpl_eval_tracker_end_round(&t, 0, &res, &n);
    const double linear = (2.0 * disc(1) + 1.0 * disc(2)) / (2.0 * disc(0) + 1.0 * disc(1));
    assert_string_equal(res[0].metric_name, "ndcg@32");
    assert_close(res[0].value, (linear + 2.0) / 3.0, EXACT);
    gpl_eval_tracker_free(&t);
    gpl_model_free(m);
    gpulayer_dataset_free(ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ndcg_ties_by_row),
        cmocka_unit_test(test_ndcg_at_k_and_linear_gain),
        cmocka_unit_test(test_ndcg_queries_weights_and_minus),
        cmocka_unit_test(test_map),
        cmocka_unit_test(test_pre),
        cmocka_unit_test(test_names_without_k_score_the_top_32),
        cmocka_unit_test(test_undefined_cases_are_nan),
        cmocka_unit_test(test_out_of_memory_is_nan),
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_same_value_for_any_thread_count),
        cmocka_unit_test(test_default_metric_of_ranking_objectives),
        cmocka_unit_test(test_evaluation_over_the_dataset_queries),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
