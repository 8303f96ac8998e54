/* test_rank.c -- the ranking objectives' math (rank_math.h) against values
 * worked by hand, the CPU gradients of small queries, the checks of
 * ranking data, and a model that learns to rank. */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "dataset.h"
#include "gpulayer.h"
#include "objective.h"
#include "rank_groups.h"
#include "rank_math.h"

static void test_pair_math_by_hand(void **state)
{
    (void)state;
    /* Equal margins: sigmoid 1/2, lambda -delta/2, hessian delta/2. */
    float l, h;
    gpl_rank_pair(0.0f, 0.0f, 0.5, 0, &l, &h);
    assert_true(l == -0.25f && h == 0.25f);
    /* Score normalisation divides by |s_high - s_low| + 0.01. */
    gpl_rank_pair(1.0f, 0.0f, 1.0, 1, &l, &h);
    const double sig = 1.0 / (1.0 + exp(-1.0));
    assert_true(fabs(l - (sig - 1.0) / 1.01) < 1e-6);
    assert_true(fabs(h - 2.0 * sig * (1.0 - sig) / 1.01) < 1e-6);
    /* Delta NDCG of swapping positions 0 and 1, grades 1 and 0. */
    const double discount[2] = {1.0, 1.0 / log2(3.0)};
    const double d = gpl_rank_delta_ndcg(1.0f, 0.0f, 0, 1, 1.0, discount, 1);
    assert_true(fabs(d - (1.0 - 1.0 / log2(3.0))) < 1e-15);
    assert_true(gpl_rank_delta_ndcg(0.0f, 1.0f, 1, 0, 1.0, discount, 1) == d);
    /* Gains: 2^g - 1, or the grade. */
    assert_true(gpl_rank_gain(3.0f, 1) == 7.0 && gpl_rank_gain(3.0f, 0) == 3.0);
    assert_true(gpl_rank_gain(31.0f, 1) == 2147483647.0);
    /* MAP: grades 1,0,1 by position; swapping positions 0 and 1 moves the
     * first hit to position 2: AP 1/2 (1 + 2/3) -> 1/2 (1/2 + 2/3). */
    double n_rel[3], acc[3], nr = 0.0, ac = 0.0;
    const float g[3] = {1.0f, 0.0f, 1.0f};
    for (int p = 0; p < 3; p++) {
        gpl_rank_map_step(g[p], p, &nr, &ac);
        n_rel[p] = nr;
        acc[p] = ac;
    }
    const double dm = gpl_rank_delta_map(1.0f, 0.0f, 0, 1, n_rel, acc, 3);
    assert_true(fabs(dm - 0.5 * (1.0 - 0.5)) < 1e-15);
    /* Partners never fall in the row's own run of grades. */
    for (int64_t t = 3; t < 7; t++)
        for (int32_t s = 0; s < 50; s++) {
            const int64_t r = gpl_rank_partner(9, 2, 5, t, s, 3, 7, 12);
            assert_true(r >= 0 && r < 12 && (r < 3 || r >= 7));
        }
    /* The topk norm: log2(1 + L) / L of L = -2 * the lambda sum. */
    gpl_rank_request rq = {GPL_RANK_TOPK, 32, 1, 1, 1, 0};
    const int64_t sum = gpl_rank_fixed(-0.25f);
    assert_true(fabs(gpl_rank_norm(&rq, sum) - log2(1.5) / 0.5) < 1e-12);
    rq.pair_method = GPL_RANK_MEAN;
    rq.num_pair = 4;
    assert_true(gpl_rank_norm(&rq, sum) == 0.25);
    rq.normalization = 0;
    assert_true(gpl_rank_norm(&rq, sum) == 1.0);
}

/* One query of two rows, grades 1 and 0, margins 0: the pair's lambda is
 * -delta/2 with delta = 1 - 1/log2(3), the topk norm log2(1 + delta) /
 * delta; the relevant row gets the negative gradient. */
static void test_two_rows_by_hand(void **state)
{
    (void)state;
    const float x[2] = {0.0f, 1.0f}, y[2] = {1.0f, 0.0f};
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(x, 2, 1, GPULAYER_ROW_MAJOR, y, NULL, &ds),
                     GPULAYER_OK);
    gpl_objective_params op;
    gpl_objective_params_default(&op);
    gpl_rank_tables t;
    assert_int_equal(gpl_rank_tables_build(ds, &op, &t), GPULAYER_OK);
    assert_int_equal(t.groups.num_groups, 1);
    assert_true(t.groups.inv_idcg[0] == 1.0);
    gpl_backend_config cfg = {1, 0, 3, 1, 0};
    gpl_backend *be;
    assert_int_equal(gpl_backend_create("cpu", &cfg, &be), GPULAYER_OK);
    const uint32_t offset[2] = {0, 3};
    const uint8_t bins[2] = {1, 2};
    gpl_binned_matrix m = {2, 1, bins, offset, NULL, 1};
    assert_int_equal(be->ops->upload(be, &m, y, NULL), GPULAYER_OK);
    assert_int_equal(be->ops->set_groups(be, &t.groups), GPULAYER_OK);
    const float margins[2] = {0.0f, 0.0f};
    assert_int_equal(be->ops->set_margins(be, margins), GPULAYER_OK);
    gpl_gradient_request req = {GPL_OBJ_RANK_NDCG, 1, 0, 0, 1, 1.0f, 0.0,
                                gpl_objective_rank_request(&op), 0, 0, 0, {0}};
    gpl_quant_scale sc;
    assert_int_equal(be->ops->compute_gradients(be, &req, &sc), GPULAYER_OK);
    int32_t root = 0;
    assert_int_equal(be->ops->begin_tree(be), GPULAYER_OK);
    assert_int_equal(be->ops->build_histograms(be, &root, 1), GPULAYER_OK);
    gpl_grad_pair hist[3];
    assert_int_equal(be->ops->read_histogram(be, 0, hist), GPULAYER_OK);
    const double delta = 1.0 - 1.0 / log2(3.0);
    const double norm = log2(1.0 + delta) / delta;
    const double g = -0.5 * delta * norm, h = 0.5 * delta * norm;
    assert_true(fabs(hist[1].grad / sc.grad - g) < 1e-6);
    assert_true(fabs(hist[2].grad / sc.grad + g) < 1e-6);
    assert_true(fabs(hist[1].hess / sc.hess - h) < 1e-6);
    assert_true(fabs(hist[2].hess / sc.hess - h) < 1e-6);
    gpl_backend_destroy(be);
    gpl_rank_tables_free(&t);
    gpulayer_dataset_free(ds);
}

/* Queries of 12 rows whose grade (0..4) follows feature 0. */
#define Q 60
#define QN 12
static float X[Q * QN * 2], Y[Q * QN], W[Q * QN];

static gpulayer_dataset *ranking_data(int with_groups)
{
    srand(11);
    for (int r = 0; r < Q * QN; r++) {
        X[2 * r] = (float)rand() / (float)RAND_MAX;
        X[2 * r + 1] = (float)rand() / (float)RAND_MAX;
        Y[r] = (float)(int)(5.0f * X[2 * r] * (0.8f + 0.2f * X[2 * r + 1]));
        W[r] = 1.0f + (float)(r / QN % 3);
    }
    gpulayer_dataset *ds;
    assert_int_equal(gpulayer_dataset_from_dense(X, Q * QN, 2, GPULAYER_ROW_MAJOR, Y, NULL, &ds),
                     GPULAYER_OK);
    if (with_groups) {
        ds->num_groups = Q;
        ds->group_ptr = malloc(sizeof(int64_t) * (Q + 1));
        for (int q = 0; q <= Q; q++) ds->group_ptr[q] = (int64_t)q * QN;
    }
    return ds;
}

static gpulayer_booster *ranker(const char *objective)
{
    gpulayer_booster *b;
    assert_int_equal(gpulayer_booster_create(&b), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "objective", objective), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "device", "cpu"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "num_round", "20"), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "max_depth", "3"), GPULAYER_OK);
    return b;
}

static void test_models_learn_to_rank(void **state)
{
    (void)state;
    static const char *const objectives[] = {"rank:ndcg", "rank:pairwise", "rank:map"};
    for (int o = 0; o < 3; o++) {
        gpulayer_dataset *ds = ranking_data(1);
        if (o == 2)
            for (int r = 0; r < Q * QN; r++) ds->label[r] = ds->label[r] >= 3.0f;
        gpulayer_booster *b = ranker(objectives[o]);
        assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
        float *pred = malloc(sizeof(float) * Q * QN);
        assert_int_equal(gpulayer_booster_predict(b, ds, 0, 0, pred, Q * QN), GPULAYER_OK);
        /* Within each query, rows of a higher grade score higher (mostly). */
        int64_t right = 0, pairs = 0;
        for (int q = 0; q < Q; q++)
            for (int i = q * QN; i < (q + 1) * QN; i++)
                for (int j = q * QN; j < (q + 1) * QN; j++)
                    if (ds->label[i] > ds->label[j]) {
                        pairs++;
                        right += pred[i] > pred[j];
                    }
        if (!(right > 0.85 * (double)pairs))
            fail_msg("%s: %lld of %lld pairs ordered", objectives[o], (long long)right,
                     (long long)pairs);
        free(pred);
        gpulayer_booster_free(b);
        gpulayer_dataset_free(ds);
    }
}

static void expect_refusal(gpulayer_dataset *ds, const char *objective, const char *key,
                           const char *value, const char *needle)
{
    gpulayer_booster *b = ranker(objective);
    if (key) assert_int_equal(gpulayer_booster_set_param(b, key, value), GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    if (!strstr(gpulayer_last_error(), needle))
        fail_msg("%s: unexpected message: %s", objective, gpulayer_last_error());
    gpulayer_booster_free(b);
}

static void test_ranking_data_is_checked(void **state)
{
    (void)state;
    gpulayer_dataset *ds = ranking_data(1);
    ds->label[30] = 2.5f;
    expect_refusal(ds, "rank:ndcg", NULL, NULL, "row 31 has relevance grade 2.5");
    ds->label[30] = 32.0f;
    expect_refusal(ds, "rank:ndcg", NULL, NULL, "integers 0..31");
    ds->label[30] = -1.0f;
    expect_refusal(ds, "rank:ndcg", "ndcg_exp_gain", "false", "relevance grades >= 0");
    ds->label[30] = 2.0f;
    expect_refusal(ds, "rank:map", NULL, NULL, "relevance 0 or 1");
    ds->label[30] = 1.0f;
    expect_refusal(ds, "rank:ndcg", "lambdarank_unbiased", "true", "lambdarank_unbiased");
    /* One weight a query. */
    ds->weight = malloc(sizeof(float) * Q * QN);
    for (int r = 0; r < Q * QN; r++) ds->weight[r] = W[r];
    ds->weight[QN + 5] = 9.0f;
    expect_refusal(ds, "rank:pairwise", NULL, NULL, "row 18 has weight 9");
    gpulayer_dataset_free(ds);
    /* Bad parameter values name the parameter. */
    gpulayer_booster *b = ranker("rank:ndcg");
    assert_int_equal(gpulayer_booster_set_param(b, "lambdarank_pair_method", "all"),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "lambdarank_pair_method"));
    assert_int_equal(gpulayer_booster_set_param(b, "lambdarank_num_pair_per_sample", "0"),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_int_equal(gpulayer_booster_set_param(b, "ndcg_exp_gain", "maybe"),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    gpulayer_booster_free(b);
}

/* Weighted queries and the mean method train, and the same data without
 * groups are one query (as XGBoost). */
static void test_weights_mean_and_one_query(void **state)
{
    (void)state;
    gpulayer_dataset *ds = ranking_data(1);
    ds->weight = malloc(sizeof(float) * Q * QN);
    for (int r = 0; r < Q * QN; r++) ds->weight[r] = W[r];
    gpulayer_booster *b = ranker("rank:ndcg");
    assert_int_equal(gpulayer_booster_set_param(b, "lambdarank_pair_method", "mean"),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_booster_set_param(b, "lambdarank_num_pair_per_sample", "3"),
                     GPULAYER_OK);
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
    ds = ranking_data(0);
    b = ranker("rank:pairwise");
    assert_int_equal(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL), GPULAYER_OK);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pair_math_by_hand),
        cmocka_unit_test(test_two_rows_by_hand),
        cmocka_unit_test(test_models_learn_to_rank),
        cmocka_unit_test(test_ranking_data_is_checked),
        cmocka_unit_test(test_weights_mean_and_one_query),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
