/* test_cpu_gradients.c -- the CPU backend's gradients, vector path
 * included, against gpl_objective_single row by row: one row a bin, so
 * the root histogram holds every row's quantized pair. */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "objective_math.h"
#include "quantize.h"

enum { ROWS = 255 };

/* The request's quantized pairs, one row a bin of the root histogram. */
static void root_pairs(gpl_backend *be, const gpl_gradient_request *req, gpl_grad_pair *hist,
                       gpl_quant_scale *scale)
{
    assert_int_equal(be->ops->compute_gradients(be, req, scale), GPULAYER_OK);
    assert_int_equal(be->ops->begin_tree(be), GPULAYER_OK);
    int32_t root = 0;
    assert_int_equal(be->ops->build_histograms(be, &root, 1), GPULAYER_OK);
    assert_int_equal(be->ops->read_histogram(be, 0, hist), GPULAYER_OK);
    assert_int_equal(be->ops->release_histograms(be, &root, 1), GPULAYER_OK);
}

/* The pairs against the scalar gradients g and h, and the scales. */
static void check_pairs(const gpl_grad_pair *hist, const double *g, const double *h,
                        gpl_quant_scale scale, const char *what, int which)
{
    double max_g = 0, max_h = 0;
    for (int r = 0; r < ROWS; r++) {
        if (fabs(g[r]) > max_g) max_g = fabs(g[r]);
        if (h[r] > max_h) max_h = h[r];
    }
    assert_true(scale.grad == gpl_quant_scale_for(max_g, ROWS));
    assert_true(scale.hess == gpl_quant_scale_for(max_h, ROWS));
    for (int r = 0; r < ROWS; r++)
        if (hist[r + 1].grad != gpl_quantize(g[r], scale.grad) ||
            hist[r + 1].hess != gpl_quantize(h[r], scale.hess))
            fail_msg("%s %d, row %d: (%lld, %lld) vs (%lld, %lld)", what, which, r,
                     (long long)hist[r + 1].grad, (long long)hist[r + 1].hess,
                     (long long)gpl_quantize(g[r], scale.grad),
                     (long long)gpl_quantize(h[r], scale.hess));
}

static void check_objective(gpl_objective_kind kind, double param, unsigned seed, int weighted)
{
    static uint8_t bins[ROWS];
    static float label[ROWS], margins[ROWS], weight[ROWS];
    const uint32_t offset[2] = {0, ROWS + 1};
    srand(seed);
    for (int r = 0; r < ROWS; r++) {
        bins[r] = (uint8_t)(r + 1);
        margins[r] = (float)((rand() % 2001) - 1000) / 200.0f;
        /* Outside the vector exp's range: the scalar path, with finite
         * gradients (exp(750) would make them infinite). */
        if (r % 37 == 5)
            margins[r] = kind == GPL_OBJ_LOGISTIC ? (r % 2 ? 750.0f : -750.0f)
                         : kind == GPL_OBJ_POISSON ? -750.0f
                         : kind == GPL_OBJ_GAMMA   ? 750.0f
                                                   : 700.0f;
        label[r] = kind == GPL_OBJ_LOGISTIC ? (float)(rand() % 2)
                                            : (float)(rand() % 400) / 8.0f + (kind == GPL_OBJ_GAMMA);
        weight[r] = (float)(rand() % 300) / 100.0f;
    }
    gpl_backend_config cfg = {2, 0, 3, 1, 0};
    gpl_backend *be;
    assert_int_equal(gpl_backend_create("cpu", &cfg, &be), GPULAYER_OK);
    gpl_binned_matrix m = {ROWS, 1, bins, offset, NULL, 1};
    assert_int_equal(be->ops->upload(be, &m, label, weighted ? weight : NULL), GPULAYER_OK);
    assert_int_equal(be->ops->set_margins(be, margins), GPULAYER_OK);
    gpl_gradient_request req = {kind, 1, 0, 0, 0, 1.0f, param, {0}, 0, 0, 0, {0}};
    gpl_quant_scale scale;
    gpl_grad_pair hist[ROWS + 1];
    root_pairs(be, &req, hist, &scale);
    double g[ROWS], h[ROWS];
    for (int r = 0; r < ROWS; r++)
        gpl_objective_single(kind, margins[r], label[r], weighted ? weight[r] : 1.0f, param,
                             &g[r], &h[r]);
    check_pairs(hist, g, h, scale, "objective", (int)kind);
    gpl_backend_destroy(be);
}

static void test_exp_objectives_match_the_scalar_rows(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 5; seed++) {
        check_objective(GPL_OBJ_LOGISTIC, 0.0, seed, seed % 2);
        check_objective(GPL_OBJ_POISSON, 0.7, seed, seed % 2);
        check_objective(GPL_OBJ_GAMMA, 0.0, seed, seed % 2);
        check_objective(GPL_OBJ_TWEEDIE, 1.2, seed, seed % 2);
        check_objective(GPL_OBJ_TWEEDIE, 1.8, seed, !(seed % 2));
    }
}

/* Softmax with K classes (5, and 40, more than a vector's lanes and not
 * a multiple of them): every class's vector gradients (normaliser included) against gpl_softmax_normalizer and
 * gpl_objective_softmax; rows with a margin far above the others' leave
 * the vector exp's range. */
static void check_softmax(unsigned seed, int weighted, int32_t K)
{
    static uint8_t bins[ROWS];
    static float label[ROWS], margins[ROWS * 64], weight[ROWS];
    const uint32_t offset[2] = {0, ROWS + 1};
    srand(seed);
    for (int r = 0; r < ROWS; r++) {
        bins[r] = (uint8_t)(r + 1);
        for (int k = 0; k < K; k++) margins[r * K + k] = (float)((rand() % 2001) - 1000) / 100.0f;
        if (r % 29 == 3) margins[r * K + r % K] = 800.0f;
        label[r] = (float)(rand() % K);
        weight[r] = (float)(rand() % 300) / 100.0f;
    }
    gpl_backend_config cfg = {2, 0, 3, K, 0};
    gpl_backend *be;
    assert_int_equal(gpl_backend_create("cpu", &cfg, &be), GPULAYER_OK);
    gpl_binned_matrix m = {ROWS, 1, bins, offset, NULL, 1};
    assert_int_equal(be->ops->upload(be, &m, label, weighted ? weight : NULL), GPULAYER_OK);
    assert_int_equal(be->ops->set_margins(be, margins), GPULAYER_OK);
    for (int32_t k = 0; k < K; k++) {
        gpl_gradient_request req = {GPL_OBJ_SOFTMAX, K, k, 0, 1, 1.0f, 0.0, {0}, 0, 0, 0, {0}};
        gpl_quant_scale scale;
        gpl_grad_pair hist[ROWS + 1];
        root_pairs(be, &req, hist, &scale);
        double g[ROWS], h[ROWS];
        for (int r = 0; r < ROWS; r++) {
            double top, sum;
            gpl_softmax_normalizer(margins + r * K, K, &top, &sum);
            gpl_objective_softmax(margins[r * K + k], top, sum, k, label[r],
                                  weighted ? weight[r] : 1.0f, &g[r], &h[r]);
        }
        check_pairs(hist, g, h, scale, "class", k);
    }
    gpl_backend_destroy(be);
}

static void test_softmax_matches_the_scalar_rows(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 4; seed++) {
        check_softmax(seed, seed % 2, 5);
        check_softmax(seed, !(seed % 2), 40);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exp_objectives_match_the_scalar_rows),
        cmocka_unit_test(test_softmax_matches_the_scalar_rows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
