/* test_objective.c -- per-row gradients, the deterministic exp, log,
 * log1p and sqrt, and the gradient quantiser. */
#include "test_util.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

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

/* Distance in ulps between two finite doubles of any sign (their bits
 * mapped to a line where neighbours differ by one). */
static double ulps(double a, double b)
{
    int64_t x, y;
    memcpy(&x, &a, 8);
    memcpy(&y, &b, 8);
    if (x < 0) x = INT64_MIN - x;
    if (y < 0) y = INT64_MIN - y;
    return (double)(x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x);
}

static double from_bits(uint64_t u)
{
    double d;
    memcpy(&d, &u, 8);
    return d;
}

/* Arguments from the smallest subnormal to DBL_MAX: every binade at a
 * few mantissas, then pseudo-random bit patterns. fn gets each. */
static void for_wide_range(void (*fn)(double x, double *worst))
{
    double worst = 0.0;
    const uint64_t mantissas[] = {0, 1, 0x6a09e667f3bcdULL, 0x6a09e667f3bceULL,
                                  0x8000000000000ULL, 0xfffffffffffffULL, 0x123456789abcdULL};
    for (uint64_t e = 0; e < 0x7ff; e++)
        for (size_t i = 0; i < sizeof mantissas / sizeof mantissas[0]; i++)
            if (e || mantissas[i]) fn(from_bits(e << 52 | mantissas[i]), &worst);
    uint64_t z = 7;
    for (int i = 0; i < 200000; i++) {
        z = z * 6364136223846793005ULL + 1442695040888963407ULL;
        const uint64_t bits = (z >> 1) % 0x7ff0000000000000ULL; /* finite, > 0 */
        if (bits) fn(from_bits(bits), &worst);
    }
    print_message("largest error %.0f ulp\n", worst);
}

static void check_log(double x, double *worst)
{
    const double d = ulps(gpl_det_log(x), log(x));
    if (d > 2.0) fail_msg("det_log(%a) = %a, log %a: %.0f ulp", x, gpl_det_log(x), log(x), d);
    if (d > *worst) *worst = d;
}

static void check_sqrt(double x, double *worst)
{
    const double d = ulps(gpl_det_sqrt(x), sqrt(x));
    if (d > 2.0) fail_msg("det_sqrt(%a) = %a, sqrt %a: %.0f ulp", x, gpl_det_sqrt(x), sqrt(x), d);
    if (d > *worst) *worst = d;
}

/* log(u) * (x / (u - 1)), u = 1 + x: the factor's roundings add to
 * det_log's two ulps; 4 ulps is the most a search of four million
 * arguments found (near x = 0.06 and x = -0.008). */
static void check_log1p(double x, double *worst)
{
    /* x and its mirror in (-1, 0). */
    const double args[2] = {x, x < 1.0 ? -x : -1.0 / (1.0 + x)};
    for (int i = 0; i < 2; i++) {
        const double a = args[i], d = ulps(gpl_det_log1p(a), log1p(a));
        if (d > 4.0)
            fail_msg("det_log1p(%a) = %a, log1p %a: %.0f ulp", a, gpl_det_log1p(a), log1p(a), d);
        if (d > *worst) *worst = d;
    }
}

static void test_det_log_is_accurate(void **state)
{
    (void)state;
    for_wide_range(check_log);
    assert_true(gpl_det_log(1.0) == 0.0);
    assert_true(gpl_det_log(0.0) == -HUGE_VAL && gpl_det_log(-0.0) == -HUGE_VAL);
    assert_true(gpl_det_log(HUGE_VAL) == HUGE_VAL);
    assert_true(isnan(gpl_det_log(-1.0)) && isnan(gpl_det_log(NAN)));
    assert_true(ulps(gpl_det_log(DBL_MAX), log(DBL_MAX)) <= 2.0);
    assert_true(ulps(gpl_det_log(from_bits(1)), log(from_bits(1))) <= 2.0);
}

static void test_det_log1p_is_accurate(void **state)
{
    (void)state;
    for_wide_range(check_log1p);
    assert_true(gpl_det_log1p(0.0) == 0.0);
    assert_true(gpl_det_log1p(1e-300) == 1e-300); /* 1 + x rounds to 1 */
    assert_true(gpl_det_log1p(-1.0) == -HUGE_VAL);
    assert_true(gpl_det_log1p(HUGE_VAL) == HUGE_VAL);
    assert_true(ulps(gpl_det_log1p(-0.999999), log1p(-0.999999)) <= 4.0);
    assert_true(ulps(gpl_det_log1p(1e6), log1p(1e6)) <= 4.0);
}

static void test_det_sqrt_is_accurate(void **state)
{
    (void)state;
    for_wide_range(check_sqrt);
    assert_true(gpl_det_sqrt(0.0) == 0.0 && gpl_det_sqrt(1.0) == 1.0);
    assert_true(gpl_det_sqrt(4.0) == 2.0 && gpl_det_sqrt(0x1p-1074) == 0x1p-537);
    assert_true(gpl_det_sqrt(HUGE_VAL) == HUGE_VAL);
    assert_true(isnan(gpl_det_sqrt(-1.0)) && isnan(gpl_det_sqrt(NAN)));
}

/* Each kind's gradient and hessian against XGBoost's closed forms. */
static void expect(gpl_objective_kind kind, float p, float y, float w, double param,
                   double want_g, double want_h)
{
    double g, h;
    gpl_objective_single(kind, p, y, w, param, &g, &h);
    if (fabs(g - want_g) > 1e-14 * fabs(want_g) || fabs(h - want_h) > 1e-14 * fabs(want_h))
        fail_msg("kind %d at p %g, y %g, w %g, param %g: (%.17g, %.17g), want (%.17g, %.17g)",
                 (int)kind, p, y, w, param, g, h, want_g, want_h);
}

static void test_gradients_closed_forms(void **state)
{
    (void)state;
    /* Poisson: exp(p) - y, exp(p + max_delta_step). */
    expect(GPL_OBJ_POISSON, 0.5f, 3.0f, 1.0f, 0.7, exp(0.5) - 3.0, exp(1.2));
    expect(GPL_OBJ_POISSON, -2.0f, 0.0f, 2.0f, 0.7, 2.0 * exp(-2.0), 2.0 * exp(-1.3));
    /* Gamma: 1 - y exp(-p), y exp(-p), floored. */
    expect(GPL_OBJ_GAMMA, 1.0f, 2.0f, 1.0f, 0.0, 1.0 - 2.0 * exp(-1.0), 2.0 * exp(-1.0));
    expect(GPL_OBJ_GAMMA, 1.0f, 1e-30f, 1.0f, 0.0, 1.0 - (double)1e-30f * exp(-1.0),
           GPL_MIN_HESS);
    /* Tweedie with power rho. */
    for (int i = 0; i < 3; i++) {
        const double rho = (double[]){1.2, 1.5, 1.8}[i], p = 0.25, y = 2.0;
        const double a = exp((1.0 - rho) * p), b = exp((2.0 - rho) * p);
        expect(GPL_OBJ_TWEEDIE, (float)p, (float)y, 1.0f, rho, -y * a + b,
               -y * (1.0 - rho) * a + (2.0 - rho) * b);
    }
    /* Squared log error, the margin clamped above -1. */
    {
        const double d = log1p(1.0) - log1p(2.0);
        expect(GPL_OBJ_SQUARED_LOG_ERROR, 1.0f, 2.0f, 1.0f, 0.0, d / 2.0, (1.0 - d) / 4.0);
        const double q = -1.0 + 1e-6, e = log1p(q) - log1p(0.5);
        expect(GPL_OBJ_SQUARED_LOG_ERROR, -3.0f, 0.5f, 1.0f, 0.0, e / (q + 1.0),
               (1.0 - e) / ((q + 1.0) * (q + 1.0)));
        /* The hessian's floor: 1 - d < 0 far above the label. */
        const double f = log1p(1e6) - log1p(0.0);
        expect(GPL_OBJ_SQUARED_LOG_ERROR, 1e6f, 0.0f, 1.0f, 0.0, f / (1e6 + 1.0), 1e-6);
    }
    /* Pseudo-Huber with slope delta: z / sqrt(1 + (z/delta)^2), and
     * 1 / (1 + (z/delta)^2)^1.5. */
    expect(GPL_OBJ_PSEUDO_HUBER, 3.0f, 1.0f, 1.0f, 2.0, 2.0 / sqrt(2.0), 1.0 / pow(2.0, 1.5));
    expect(GPL_OBJ_PSEUDO_HUBER, -1.0f, 1.0f, 3.0f, 0.5, 3.0 * -2.0 / sqrt(17.0),
           3.0 / pow(17.0, 1.5));
    /* Quantile alpha: 1 - alpha at or above the label, -alpha below. */
    expect(GPL_OBJ_QUANTILE, 1.0f, 2.0f, 1.0f, 0.25, -0.25, 1.0);
    expect(GPL_OBJ_QUANTILE, 2.0f, 2.0f, 1.0f, 0.25, 0.75, 1.0);
    expect(GPL_OBJ_QUANTILE, 3.0f, 2.0f, 2.0f, 0.9, 2.0 * (1.0 - 0.9), 2.0);
    /* Hinge: labels as -1/+1; inside the margin (-s, 1), else (0, floor). */
    expect(GPL_OBJ_HINGE, 0.5f, 1.0f, 1.0f, 0.0, -1.0, 1.0);
    expect(GPL_OBJ_HINGE, 1.0f, 1.0f, 1.0f, 0.0, 0.0, GPL_MIN_HESS);
    expect(GPL_OBJ_HINGE, -0.5f, 0.0f, 1.0f, 0.0, 1.0, 1.0);
    expect(GPL_OBJ_HINGE, -2.0f, 0.0f, 1.0f, 0.0, 0.0, GPL_MIN_HESS);
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
        cmocka_unit_test(test_det_log_is_accurate),
        cmocka_unit_test(test_det_log1p_is_accurate),
        cmocka_unit_test(test_det_sqrt_is_accurate),
        cmocka_unit_test(test_gradients_closed_forms),
        cmocka_unit_test(test_softmax_gradients_sum_to_zero),
        cmocka_unit_test(test_quant_scale_bounds),
        cmocka_unit_test(test_packed_pairs_sum_exactly),
        cmocka_unit_test(test_row_sampling_rate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
