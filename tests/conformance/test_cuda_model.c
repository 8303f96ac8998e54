/* test_cuda_model.c -- whole CUDA models against the CPU backend's; the
 * suite is model_suite.inc, plus leaves refit on the device over 16-bit
 * bin codes. */
#define SUITE_ACCEL "cuda"
#define SUITE_DRIVER_ROWS 60000
#define SUITE_API_ROWS 50000
#define SUITE_ROUNDS_BINARY "30"
#define SUITE_ROUNDS_REGRESSION "20"

static void test_api_wide_refit(void **state);
#define SUITE_EXTRA_TESTS cmocka_unit_test(test_api_wide_refit),

#include "model_suite.inc"

/* Absolute and quantile errors refit their leaves through refit_sort,
 * whose tree walk reads the rows' bins: 16-bit codes there too (max_bin
 * 1000), depthwise and lossguide. */
static void test_api_wide_refit(void **state)
{
    (void)state;
    wide_or_skip(GPL_BACKEND_CAP_WIDE_BINS, "features of more than 256 bins");
    const char *ab[] = {"objective", "reg:absoluteerror", "num_round", "6", "max_depth", "6",
                        "max_bin", "1000", "nthread", "2", NULL};
    api_case("reg:absoluteerror, max_bin=1000", ab, 1, 1);
    const char *qe[] = {"objective", "reg:quantileerror", "quantile_alpha", "[0.1,0.9]",
                        "num_round", "4", "grow_policy", "lossguide", "max_leaves", "16",
                        "max_bin", "1000", "nthread", "2", NULL};
    api_case("reg:quantileerror, two quantiles, lossguide, max_bin=1000", qe, 1, 1);
}
