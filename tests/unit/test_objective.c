/* test_objective.c -- per-row gradients, the deterministic exp, and the
 * gradient quantiser. */
#include "test_util.h"

#include <math.h>
#include <stdint.h>

#include "det_math.h"
#include "objective_math.h"
#include "quantize.h"

static void test_det_exp_is_accurate(void **state)
{
    (void)state;
    for (double x = -700; x < 700; x += 0.37) {
        double ref = exp(x), got = gpl_det_exp(x);
        assert_true(fabs(got - ref) <= 4e-16 * ref);
    }
    assert_true(gpl_det_exp(0.0) == 1.0);
    assert_true(gpl_det_exp(-1000.0) == 0.0);
    assert_true(isinf(gpl_det_exp(1000.0)));
    assert_true(isnan(gpl_det_exp(NAN)));
    assert_true(fabs(gpl_det_sigmoid(0.0) - 0.5) < 1e-16);
}

static void test_single_output_gradients(void **state)
{
    (void)state;
    double g, h;
    gpl_objective_single(GPL_OBJ_SQUARED_ERROR, 2.5f, 1.0f, 2.0f, 0.0, &g, &h);
    assert_true(g == 3.0 && h == 2.0);
    gpl_objective_single(GPL_OBJ_LOGISTIC, 0.0f, 1.0f, 1.0f, 0.0, &g, &h);
    assert_true(fabs(g + 0.5) < 1e-15 && fabs(h - 0.25) < 1e-15);
    /* A saturated row keeps the minimum hessian. */
    gpl_objective_single(GPL_OBJ_LOGISTIC, 80.0f, 1.0f, 1.0f, 0.0, &g, &h);
    assert_true(h == GPL_MIN_HESS);
    gpl_objective_single(GPL_OBJ_ABSOLUTE_ERROR, -1.0f, 4.0f, 1.0f, 0.0, &g, &h);
    assert_true(g == -1.0 && h == 1.0);
}

static void test_softmax_gradients_sum_to_zero(void **state)
{
    (void)state;
    float m[3] = {0.2f, -1.0f, 2.0f};
    double sum = 0, g, h, top, norm;
    gpl_softmax_normalizer(m, 3, &top, &norm);
    assert_true(top == 2.0);
    for (int k = 0; k < 3; k++) {
        gpl_objective_softmax(m[k], top, norm, k, 2.0f, 1.0f, &g, &h);
        assert_true(h > 0 && h <= 0.5);
        sum += g;
    }
    assert_true(fabs(sum) < 1e-15);
}

/* The scale keeps the sum of all rows below 2^31 and is a power of two. */
static void test_quant_scale_bounds(void **state)
{
    (void)state;
    double maxes[] = {1e-30, 0.37, 1.0, 2.0, 1e6, 3.4e38};
    int64_t rows[] = {1, 7, 100003, 10000000};
    for (size_t i = 0; i < sizeof maxes / sizeof maxes[0]; i++)
        for (size_t j = 0; j < sizeof rows / sizeof rows[0]; j++) {
            double s = gpl_quant_scale_for(maxes[i], rows[j]);
            int e;
            assert_true(frexp(s, &e) == 0.5);
            assert_true(maxes[i] * s * (double)rows[j] < 2147483648.0);
            /* and as precise as that allows: 30 - log2(rows) bits or more */
            int row_bits = 0;
            while (((int64_t)1 << row_bits) <= rows[j]) row_bits++;
            assert_true(maxes[i] * s >= ldexp(1.0, 30 - row_bits));
        }
    assert_true(gpl_quant_scale_for(0.0, 10) == 1.0);
    assert_int_equal(gpl_quantize(0.75, 4.0), 3);
    assert_int_equal(gpl_quantize(-0.75, 4.0), -3);
}

/* Packed pairs add up to the packed sums: the hessian half never carries
 * into the gradient half while the sums stay in range. */
static void test_packed_pairs_sum_exactly(void **state)
{
    (void)state;
    const int64_t n = 100003;
    const double sg = gpl_quant_scale_for(1.0, n), sh = gpl_quant_scale_for(0.25, n);
    int64_t packed = 0, g = 0, h = 0;
    for (int64_t r = 0; r < n; r++) {
        int64_t qg = gpl_quantize(((r * 7919) % 2001 - 1000) / 1000.0, sg);
        int64_t qh = gpl_quantize(((r * 104729) % 1001) / 4000.0, sh);
        packed += gpl_pack_pair(qg, qh);
        g += qg;
        h += qh;
    }
    assert_int_equal(gpl_packed_grad(packed), g);
    assert_int_equal(gpl_packed_hess(packed), h);
    assert_true(gpl_packed_grad(gpl_pack_pair(-5, 7)) == -5);
    assert_true(gpl_packed_hess(gpl_pack_pair(-5, 7)) == 7);
}

static void test_row_sampling_rate(void **state)
{
    (void)state;
    int kept = 0;
    for (int64_t r = 0; r < 100000; r++) kept += gpl_row_sampled(42, 3, r, 0.3f);
    assert_true(kept > 29000 && kept < 31000);
    assert_int_equal(gpl_row_sampled(1, 1, 5, 1.0f), 1);
    /* The same question, the same answer. */
    assert_int_equal(gpl_row_sampled(9, 2, 77, 0.5f), gpl_row_sampled(9, 2, 77, 0.5f));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_det_exp_is_accurate),
        cmocka_unit_test(test_single_output_gradients),
        cmocka_unit_test(test_softmax_gradients_sum_to_zero),
        cmocka_unit_test(test_quant_scale_bounds),
        cmocka_unit_test(test_packed_pairs_sum_exactly),
        cmocka_unit_test(test_row_sampling_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
